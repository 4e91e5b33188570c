"""The documentation site: generated pages are current, the site builds strictly, and a browser renders it.

The browser test drives Debian's headless Chromium (/usr/bin/chromium) through the DevTools protocol over a pipe
(``--remote-debugging-pipe``), against the built site served from a thread on a localhost port. It saves
screenshots beside the built site, at 1280 px and at 390 px (a phone), of the pages with the widest tables. Set
``CANASTA_DOCS_SITE_DIR=site`` to build into ``site/`` and keep them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from browser.devtools import HEIGHT, WIDTH, DevTools  # tools/ is on the path: conftest.py

ROOT = Path(__file__).resolve().parents[2]
PHONE_WIDTH, PHONE_HEIGHT = 390, 844
SITE_BUDGET = 30 * 1024 * 1024  # bytes, the whole built site
PAGE_BUDGET = 400 * 1024  # bytes of HTML, any one page


def test_generated_pages_are_current() -> None:
    run = subprocess.run(
        [sys.executable, "tools/gen_docs.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, f"stale generated pages; run python tools/gen_docs.py\n{run.stderr}"


def test_site_has_the_pages(site: Path) -> None:
    for page in (
        "index.html",
        "rules/classic/index.html",
        "rules/classic-2p/index.html",
        "compare/index.html",
        "disputes/index.html",
        "settle-a-dispute/index.html",
        "examples/index.html",
        "protocol/index.html",
        "scenario-format/index.html",
        "implementations/index.html",
        "spec-format/index.html",
        "api/canasta_ref/index.html",
        "api/spec/index.html",
        "api/conformance/index.html",
    ):
        assert (site / page).is_file(), page
    scenarios = [p for p in (ROOT / "docs" / "examples").glob("*.md") if p.stem != "index"]
    assert scenarios, "no scenario pages in docs/examples (test_generated_pages_are_current says whether stale)"
    for file in scenarios:
        assert (site / "examples" / file.stem / "index.html").is_file(), file.stem
    api = (site / "api" / "canasta_ref" / "index.html").read_text(encoding="utf-8")
    for name in ("canasta_ref.Game", "canasta_ref.LegalActions", "canasta_ref.Action", "canasta_ref.parse_action"):
        assert f'id="{name}"' in api, name


def test_site_is_offline(site: Path) -> None:
    """No web fonts, scripts or style sheets from other hosts."""
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
        assert '<script src="http' not in text and '<script src="//' not in text, page
        assert 'rel="stylesheet" href="http' not in text, page


def test_site_weight_is_within_budget(site: Path) -> None:
    """The site stays small enough to host and to read on a phone: no menu of every example on every page, no
    rulebook carrying every example drawn."""
    runtime = site / "assets" / "runtime"  # the live pages' Python runtime: its own budget, in test_live_pages.py
    files = [
        f
        for f in site.rglob("*")
        if f.is_file() and not f.name.startswith("screenshot-") and not f.is_relative_to(runtime)
    ]
    total = sum(f.stat().st_size for f in files)
    biggest = sorted(files, key=lambda f: f.stat().st_size, reverse=True)[:5]
    assert total < SITE_BUDGET, f"the site is {total / 2**20:.1f} MB; the largest files: " + ", ".join(
        f"{f.relative_to(site)} {f.stat().st_size // 1024} KB" for f in biggest
    )
    heavy = [f for f in site.rglob("*.html") if f.stat().st_size >= PAGE_BUDGET]
    assert not heavy, "pages over 400 KB: " + ", ".join(
        f"{f.relative_to(site)} {f.stat().st_size // 1024} KB" for f in heavy
    )


# ------------------------------------------------------------------------------------------------ the browser
def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


RULE_PROBE = """(() => {
  const rule = document.getElementById("PILE.TAKE.FROZEN");
  if (!rule) return null;
  const heading = document.getElementById("pile-take-frozen");
  return {
    headingInRule: !!heading && rule.contains(heading),
    headingText: heading ? heading.textContent : "",
    top: heading ? heading.getBoundingClientRect().top : -1,
    cards: rule.querySelectorAll(".cr-card").length,
    examples: [...rule.querySelectorAll(".cr-tested a")].map(a => a.href),
  };
})()"""

EXAMPLE_PROBE = """(() => {
  const style = (sel) => { const e = document.querySelector(sel); return e ? getComputedStyle(e) : null; };
  const red = style(".cr-card.cr-red"), black = style(".cr-card.cr-black"), joker = style(".cr-card.cr-joker");
  const position = document.querySelector(".cr-position");
  return {
    cards: document.querySelectorAll(".cr-position .cr-card").length,
    red: red && red.color, black: black && black.color, joker: joker && joker.color,
    positionBackground: position && getComputedStyle(position).backgroundColor,
    positionHeight: position ? position.getBoundingClientRect().height : 0,
    steps: document.querySelectorAll(".cr-scenario table tbody tr").length,
    ruleLinks: [...document.querySelectorAll("article a")].map(a => a.getAttribute("href")),
  };
})()"""

TABLE_PROBE = """(() => {
  const table = document.querySelector(".cr-compare table");
  if (!table) return null;
  const box = table.getBoundingClientRect();
  return {
    width: box.width, height: box.height,
    rows: table.querySelectorAll("tbody tr").length,
    heads: [...table.querySelectorAll("thead th")].map(th => th.textContent.trim()),
    links: [...table.querySelectorAll("tbody a")].map(a => a.getAttribute("href")),
  };
})()"""


def test_browser_renders_a_rule_and_its_examples(browser: tuple[DevTools, str], site: Path) -> None:
    chrome, base = browser
    chrome.set_viewport(WIDTH, HEIGHT)
    chrome.goto(f"{base}/rules/classic/#PILE.TAKE.FROZEN")
    probe = chrome.evaluate(RULE_PROBE)
    assert probe is not None, "no element with id PILE.TAKE.FROZEN"
    assert probe["headingInRule"] and "PILE.TAKE.FROZEN" in probe["headingText"]
    assert 0 <= probe["top"] < 300, f"the page did not scroll to the rule: heading at {probe['top']}px"
    assert probe["cards"] == 0, "the rulebook draws the examples again: they belong on their own pages"
    assert probe["examples"] and all("/examples/" in href for href in probe["examples"]), probe["examples"]
    data = chrome.screenshot(site / "screenshot-rules.png")
    assert _png_size(data) == (WIDTH, HEIGHT) and len(data) > 50_000, "the rule page screenshot looks empty"
    # the heading's own anchor works too (a same-page jump: no load event)
    chrome.evaluate('window.scrollTo(0, 0); location.hash = "#pile-take-frozen"')
    chrome.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert 0 <= chrome.evaluate(RULE_PROBE)["top"] < 300
    # the rule's first example, drawn on its own page
    chrome.goto(probe["examples"][0])
    example = chrome.evaluate(EXAMPLE_PROBE)
    assert example["cards"] >= 5, "the example draws no cards"
    assert example["red"] == "rgb(198, 40, 40)", example["red"]
    assert example["black"] == "rgb(26, 26, 26)", example["black"]
    assert example["joker"] in (None, "rgb(106, 27, 154)"), example["joker"]
    assert example["positionBackground"] == "rgb(31, 111, 67)" and example["positionHeight"] > 100
    assert example["steps"] >= 1
    assert any(h.endswith("#pile-take-frozen") for h in example["ruleLinks"]), "the example does not link its rule"


FIRST_RULE_PROBE = """(() => {
  const rule = document.querySelector(".cr-rule"), changes = document.querySelector("details.cr-changes");
  return {
    firstRuleTop: rule ? rule.getBoundingClientRect().top + window.scrollY : -1,
    changes: !!changes, changesOpen: !!changes && changes.open,
  };
})()"""


def test_browser_rulebook_opens_at_its_first_rule(browser: tuple[DevTools, str]) -> None:
    """A variant's rulebook shows its first rule in the first screen; its list of changes is folded."""
    chrome, base = browser
    chrome.set_viewport(WIDTH, 900)
    chrome.goto(f"{base}/rules/samba/")
    probe = chrome.evaluate(FIRST_RULE_PROBE)
    assert probe["changes"] and not probe["changesOpen"], "Samba's changes from Classic are not folded"
    assert 0 < probe["firstRuleTop"] < 900, f"Samba's first rule starts at {probe['firstRuleTop']}px"


def test_browser_renders_the_comparison_table(browser: tuple[DevTools, str], site: Path) -> None:
    chrome, base = browser
    chrome.set_viewport(WIDTH, HEIGHT)
    chrome.goto(f"{base}/compare/")
    probe = chrome.evaluate(TABLE_PROBE)
    assert probe is not None, "no comparison table"
    assert probe["rows"] >= 20 and probe["width"] > 500 and probe["height"] > 500
    assert any("Classic Canasta" in head for head in probe["heads"]), probe["heads"]
    assert sum("/rules/classic" in h or h.startswith("../rules/classic") for h in probe["links"]) >= 20
    data = chrome.screenshot(site / "screenshot-compare.png")
    assert _png_size(data) == (WIDTH, HEIGHT) and len(data) > 50_000


# Whether the page scrolls sideways, and which ids and values (code in a table cell, .cr-id) break inside a word:
# a text without a space must lie on one line box.
FIT_PROBE = """(() => {
  const broken = [...document.querySelectorAll("article td code, article th code, article .cr-id")]
    .filter(e => !/\\s/.test(e.textContent.trim()) && e.getClientRects().length > 1)
    .map(e => e.textContent.trim());
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    broken: [...new Set(broken)].slice(0, 10),
    tables: document.querySelectorAll("article table").length,
  };
})()"""

FIT_PAGES = {
    "home": "/",
    "rulebook": "/rules/samba/",
    "compare": "/compare/",
    "disputes": "/disputes/",
    "examples": "/examples/",
    "implementations": "/implementations/",
}


@pytest.mark.parametrize("width, height", [(WIDTH, 1000), (PHONE_WIDTH, PHONE_HEIGHT)], ids=["1280px", "390px"])
@pytest.mark.parametrize("name", list(FIT_PAGES))
def test_browser_page_fits_its_width(
    browser: tuple[DevTools, str], site: Path, name: str, width: int, height: int
) -> None:
    """The page never scrolls sideways (a wide table scrolls in its own box) and no id or value breaks mid-word."""
    chrome, base = browser
    chrome.set_viewport(width, height)
    chrome.goto(f"{base}{FIT_PAGES[name]}")
    probe = chrome.evaluate(FIT_PROBE)
    data = chrome.screenshot(site / f"screenshot-{name}-{width}.png")
    assert _png_size(data) == (width, height)
    assert probe["innerWidth"] == width, f"{name} is laid out wider than {width} px (the browser zoomed out): {probe}"
    assert probe["scrollWidth"] <= probe["innerWidth"], f"{name} scrolls sideways: {probe}"
    assert not probe["broken"], f"{name} at {width}px breaks these inside a word: {probe['broken']}"


def test_browser_fetches_nothing_from_elsewhere(browser: tuple[DevTools, str]) -> None:
    chrome, base = browser
    chrome.goto(f"{base}/examples/")
    foreign = [u for u in chrome.requested_urls() if not u.startswith((base, "data:", "blob:", "about:"))]
    assert not foreign, foreign
