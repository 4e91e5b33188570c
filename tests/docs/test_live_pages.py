"""The two live pages (docs/try/): the Python they call gives the command line's answers, the runtime they load is
pure Python on Pyodide, and in headless Chromium they settle a dispute and write house rules exactly as
``canasta-ref explain`` and ``canasta-ref check`` do. Speed is measured by tools/bench_browser.py, not here."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import urllib.parse
import zipfile
from pathlib import Path

import pytest
from browser.bundle import RUNTIME_FILES, build_wheels  # tools/ is on the path: conftest.py
from browser.devtools import DevTools, wait_for
from docs_pages import live
from docs_pages.examples import live_link

from canasta_ref.conformance.explain import explain_lines
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.resources import scenario_dir
from canasta_ref.spec import check_file

ROOT = Path(__file__).resolve().parents[2]
DISPUTE = "dispute-one-card-pile"
RUNTIME_BUDGET = 16 * 1024 * 1024  # bytes on disk: Pyodide's five files and the wheels


def explain(scenario_id: str, variants: list[str]) -> list[str]:
    """``canasta-ref explain ID --variant ...``'s lines."""
    scenario = load_scenarios([scenario_dir() / f"{scenario_id}.yaml"])[0]
    return list(explain_lines(scenario, variants))


# ------------------------------------------------------------------------------------ the Python the pages call
def test_settle_answers_as_explain() -> None:
    answer = json.loads(live.settle(live.example_text(DISPUTE), "classic"))
    assert [line["text"] for line in answer["lines"]] == explain(DISPUTE, ["classic"])
    kinds = {line["text"].strip(): line["kind"] for line in answer["lines"]}
    assert kinds["step 1 `take`: allowed"] == "allowed"
    assert kinds["step 1 `take`: REFUSED by PILE.TAKE.ONE_CARD (One card in hand, one card in the pile)"] == "refused"
    assert 'data-scenario="dispute-one-card-pile"' in answer["position"] and "cr-card" in answer["position"]


def test_settle_names_the_file_line_and_column_of_a_mistake() -> None:
    typed = live.example_text(DISPUTE).replace('pile: "9D"', 'pile: "9X"')
    answer = json.loads(live.settle(typed, "classic"))
    assert "lines" not in answer
    assert any(e.startswith(f"{DISPUTE}.yaml:") and "9X" in e for e in answer["errors"]), answer["errors"]
    unknown = json.loads(live.settle(live.example_text(DISPUTE), "classic,no-such-game"))
    assert unknown["errors"] and "no-such-game" in unknown["errors"][0]


def test_a_parameter_set_in_the_page_is_one_explain_reads(tmp_path: Path) -> None:
    typed = json.loads(live.with_parameter(live.example_text(DISPUTE), "one_card_pile", '"forbid"'))["text"]
    saved = tmp_path / live.file_name(typed)
    saved.write_text(typed, encoding="utf-8")
    scenario = load_scenarios([saved])[0]
    assert scenario.parameters == {"one_card_pile": "forbid"}
    lines = [line["text"] for line in json.loads(live.settle(typed, "classic"))["lines"]]
    assert lines == list(explain_lines(scenario, ["classic"]))
    assert any("REFUSED by PILE.TAKE.ONE_CARD" in line for line in lines[:12])
    removed = json.loads(live.with_parameter(typed, "one_card_pile", "null"))["text"]
    assert "parameters" not in removed


def test_house_rules_file_is_one_check_accepts(tmp_path: Path) -> None:
    answer = json.loads(live.house_rules("classic", json.dumps({"canasta_size": 8, "one_card_pile": "forbid"})))
    assert answer["errors"] == []
    saved = tmp_path / "our-table.yaml"
    saved.write_text(answer["yaml"], encoding="utf-8")
    assert check_file(saved) == []
    assert "Eight cards make a canasta" in answer["rulebook"]
    assert "canasta_size: 7 → 8" in answer["diff"] and "one_card_pile" in answer["diff"]
    assert "players" not in answer["diff"], "a value the base has is not a difference"


def test_house_rules_out_of_range_is_refused_with_its_line() -> None:
    answer = json.loads(live.house_rules("classic", json.dumps({"canasta_size": 99})))
    assert answer["errors"] and answer["errors"][0].startswith("our-table.yaml:")
    assert "from 3 to 20" in answer["errors"][0] and "rulebook" not in answer
    unknown = json.loads(live.house_rules("classic", json.dumps({"canasta_sizes": 8})))
    assert unknown["errors"] == ["classic has no parameter canasta_sizes"]


def test_house_form_offers_sourced_values_only() -> None:
    form = json.loads(live.house_form("classic"))
    pile = next(p for p in form["parameters"] if p["name"] == "one_card_pile")
    assert [json.loads(c["value"]) for c in pile["choices"]] == ["allow", "forbid", "pumpa"]
    assert all(c["sources"] for p in form["parameters"] for c in p["choices"])


def test_example_pages_link_the_live_page() -> None:
    assert 'href="../../try/settle/#example=dispute-one-card-pile"' in live_link(DISPUTE)


# ------------------------------------------------------------------------------------------- the runtime
def test_wheels_are_pure_and_import_without_site_packages(tmp_path: Path) -> None:
    """The browser's wheels, unpacked alone (no site-packages, rpds replaced by the pure stand-in), check a bad
    spec with the same messages as this install."""
    path = tmp_path / "path"
    for name in build_wheels(tmp_path / "wheels"):
        with zipfile.ZipFile(tmp_path / "wheels" / name) as wheel:
            assert not [n for n in wheel.namelist() if n.endswith((".so", ".pyd"))], name
            wheel.extractall(path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("spec: 1\nid: bad\nname: Bad\nextends: classic\nparameters:\n  canasta_size: {value: 2}\n")
    script = (
        f"import sys; sys.path.insert(0, {str(path)!r}); import rpds, canasta_ref.spec as s;"
        f"print(rpds.__file__); print(*s.check_file({str(bad)!r}), sep='\\n')"
    )
    run = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    shim, *errors = run.stdout.splitlines()
    assert shim.startswith(str(path)), shim
    assert "\n".join(errors) == "\n".join(str(e) for e in check_file(bad))


def test_runtime_holds_only_what_the_pages_load(site: Path) -> None:
    runtime = site / "assets" / "runtime"
    assert sorted(p.name for p in (runtime / "pyodide").iterdir()) == sorted(RUNTIME_FILES)
    manifest = json.loads((runtime / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in (runtime / "wheels").iterdir()) == sorted(manifest["wheels"])
    size = sum(p.stat().st_size for p in runtime.rglob("*") if p.is_file())
    assert size < RUNTIME_BUDGET, f"the runtime is {size / 2**20:.1f} MB"


# ------------------------------------------------------------------------------------------- in the browser
VERDICT_LINES = "[...document.querySelectorAll('#cr-verdicts .cr-verdict')].map(e => e.textContent)"


#: The page's width and the window's once the page has answered, and the elements reaching past the window: on a
#: phone, a page wider than the screen makes the browser zoom out, so the window widens too.
WIDTHS = """(() => {
  const over = [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > screen.width + 1 && e.getClientRects().length)
    .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > screen.width + 1))
    .map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : ""));
  return {page: document.documentElement.scrollWidth, window: window.innerWidth, over: over.slice(0, 8)};
})()"""


def _open(chrome: DevTools, url: str, ready: str) -> None:
    chrome.goto(url)
    wait_for(chrome, f"window.crLiveTimes && window.crLiveTimes.{ready}", timeout=240)


def _fits_a_phone(chrome: DevTools, shot: Path) -> None:
    """The answered page laid out again at 390 px (a phone): the table, the verdicts and the YAML wrap or scroll
    in their own boxes, never the page."""
    chrome.set_viewport(390, 844)
    widths = chrome.evaluate(WIDTHS)
    chrome.screenshot(shot)
    assert widths["window"] == 390 and widths["page"] <= 390, f"the page is wider than a phone: {widths}"


def test_browser_settles_the_one_card_pile_as_explain(browser: tuple[DevTools, str], site: Path) -> None:
    chrome, base = browser
    chrome.set_viewport(1280, 2000)
    _open(chrome, f"{base}/try/settle/#example={DISPUTE}&variants=classic", "firstVerdict")
    assert chrome.evaluate(VERDICT_LINES) == explain(DISPUTE, ["classic"])
    assert chrome.evaluate("document.querySelectorAll('#cr-position .cr-card').length") >= 13
    chrome.screenshot(site / "screenshot-live-settle.png")
    _fits_a_phone(chrome, site / "screenshot-live-settle-390.png")
    # the address keeps the scenario as typed (base64url) and the variants: a link settles it for whoever opens it
    state = urllib.parse.parse_qs(chrome.evaluate("location.hash")[1:])
    assert state["variants"] == ["classic"]
    kept = base64.urlsafe_b64decode(state["scenario"][0] + "=" * (-len(state["scenario"][0]) % 4)).decode()
    assert kept == live.example_text(DISPUTE)


def test_browser_writes_house_rules_as_check_accepts(browser: tuple[DevTools, str], site: Path, tmp_path: Path) -> None:
    chrome, base = browser
    chrome.set_viewport(1280, 2000)
    values = json.dumps({"one_card_pile": "forbid"})
    _open(chrome, f"{base}/try/house-rules/#base=classic&values={values}", "houseRules")
    expected = json.loads(live.house_rules("classic", values))
    assert chrome.evaluate("document.getElementById('cr-house-diff').textContent") == expected["diff"]
    saved = tmp_path / "our-table.yaml"
    saved.write_text(chrome.evaluate("document.getElementById('cr-house-yaml').textContent"), encoding="utf-8")
    assert check_file(saved) == []
    assert chrome.evaluate("document.querySelector('select[name=one_card_pile]').value") == '"forbid"'
    chrome.evaluate("document.getElementById('cr-house-play').click()")
    wait_for(chrome, "window.crLiveTimes.hands", timeout=120)
    assert chrome.evaluate("document.querySelectorAll('#cr-hand-table .cr-card').length") > 0
    assert chrome.evaluate("document.getElementById('cr-hand-score').textContent").startswith("Hand ends:")
    chrome.screenshot(site / "screenshot-live-house-rules.png")
    _fits_a_phone(chrome, site / "screenshot-live-house-rules-390.png")


@pytest.mark.parametrize("page", ["/", "/rules/classic/", "/examples/"])
def test_browser_other_pages_load_no_webassembly(browser: tuple[DevTools, str], page: str) -> None:
    chrome, base = browser
    chrome.events.clear()
    chrome.goto(f"{base}{page}")
    loaded = [u for u in chrome.requested_urls() if u.endswith(".wasm") or "/assets/runtime/" in u]
    assert not loaded, loaded
