#!/usr/bin/env python3
"""The live pages' budgets, measured in headless Chromium against the built site served gzip-compressed.

    tools/site.sh build && python tools/bench_browser.py [--site site] [--later 10]

Reports: the bytes a first visit to the dispute page transfers (compressed, as a web server sends them; budget
8 MB), the time from the start of loading to the first verdict on a cold start (fresh browser profile, empty
cache; budget 15 s), each later verdict (budget 300 ms, the slowest of ``--later`` reported), the same page's
second visit (from the browser's cache), and whether any other page loads WebAssembly (it must not).
Figures, not assertions: the tests assert behaviour, this tool measures speed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser.devtools import CHROMIUM, DevTools, serve, wait_for

from canasta_ref import cliargs

BYTES_BUDGET = 8 * 1000 * 1000
COLD_BUDGET_S = 15.0
LATER_BUDGET_MS = 300.0
#: The README's dispute, as its command settles it: ``canasta-ref explain dispute-one-card-pile --variant classic``
#: (without ``--variant`` it is judged under every variant it applies to, and all ten are compiled to find them).
DISPUTE = "/try/settle/#example=dispute-one-card-pile&variants=classic"
OTHER_PAGES = ("/", "/rules/classic/", "/examples/", "/compare/", "/try/house-rules/")
READY = "window.crLiveTimes && window.crLiveTimes.firstVerdict"


def first_visit(chrome: DevTools, base: str, sent: list[tuple[str, int]]) -> dict[str, Any]:
    """Open the dispute page afresh and wait for its first verdict: the bytes the server sent meanwhile (bodies,
    compressed as served; the page's and its worker's requests alike) and the page's own milestones."""
    chrome.goto("about:blank")
    sent.clear()
    chrome.send("Page.navigate", url=base + DISPUTE)
    times = wait_for(chrome, f"{READY} && window.crLiveTimes", timeout=600)
    return {
        "bytes": sum(size for _, size in sent),
        "requests": len(sent),
        "ready_s": times["ready"] / 1000,
        "verdict_s": times["firstVerdict"] / 1000,
    }


def later_verdicts(chrome: DevTools, count: int) -> list[float]:
    """Each verdict after the first: the dispute settled again, as a reader who changed a value would; the time
    from the click to the verdicts drawn."""
    found = []
    for _ in range(count):
        before = chrome.evaluate("window.crLiveTimes.verdicts")
        chrome.evaluate("document.getElementById('cr-settle-button').click()")
        wait_for(chrome, f"window.crLiveTimes.verdicts > {before}", timeout=60)
        found.append(float(chrome.evaluate("window.crLiveTimes.lastVerdictMs")))
    return found


def other_pages(chrome: DevTools, base: str, sent: list[tuple[str, int]]) -> dict[str, list[str]]:
    """For each page that is not the dispute page, the runtime files it was sent (only the house-rules page, the
    other live page, may load any)."""
    found = {}
    for page in OTHER_PAGES:
        chrome.goto("about:blank")
        chrome.send("Network.clearBrowserCache")  # a cached file is not sent: only an empty cache shows all
        sent.clear()
        chrome.goto(base + page)
        if page.startswith("/try/"):
            wait_for(chrome, "window.crLiveTimes && window.crLiveTimes.ready", timeout=600)
        found[page] = sorted({path for path, _ in sent if path.endswith(".wasm") or "/assets/runtime/" in path})
    return found


def run(site: Path, later: int) -> dict[str, Any]:
    sent: list[tuple[str, int]] = []
    with tempfile.TemporaryDirectory() as work:
        chrome = DevTools(Path(work) / "profile", Path(work) / "chromium.log")
        try:
            with serve(site, sent=sent) as base:
                chrome.open_tab()
                cold = first_visit(chrome, base, sent)
                times = later_verdicts(chrome, later)
                second = first_visit(chrome, base, sent)
                others = other_pages(chrome, base, sent)
        finally:
            chrome.close()
    return {"cold": cold, "later_ms": times, "second": second, "others": others}


def report(figures: dict[str, Any]) -> list[str]:
    cold, second, later = figures["cold"], figures["second"], figures["later_ms"]

    def verdict(ok: bool) -> str:
        return "within budget" if ok else "OVER BUDGET"

    lines = [
        f"first visit to the dispute page: {cold['bytes'] / 1e6:.2f} MB transferred compressed in {cold['requests']} "
        f"requests ({verdict(cold['bytes'] <= BYTES_BUDGET)}: 8 MB)",
        f"cold start: runtime ready at {cold['ready_s']:.1f} s, first verdict at {cold['verdict_s']:.1f} s "
        f"({verdict(cold['verdict_s'] <= COLD_BUDGET_S)}: 15 s)",
        f"later verdicts ({len(later)}): median {statistics.median(later):.0f} ms, slowest {max(later):.0f} ms "
        f"({verdict(max(later) <= LATER_BUDGET_MS)}: 300 ms)",
        f"second visit (browser cache): {second['bytes'] / 1e6:.2f} MB transferred in {second['requests']} "
        f"requests, first verdict at {second['verdict_s']:.1f} s",
    ]
    for page, urls in figures["others"].items():
        shown = f"loads the runtime ({len(urls)} files)" if urls else "loads no WebAssembly"
        lines.append(f"{page}: {shown}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--site", type=cliargs.folder, default=Path("site"), help="the built site (default site/: tools/site.sh build)"
    )
    parser.add_argument("--later", type=cliargs.positive, default=10, help="how many later verdicts to time")
    args = parser.parse_args(argv)
    if not (args.site / "assets" / "runtime" / "manifest.json").is_file():
        print(f"bench_browser: {args.site} has no live-page runtime; run tools/site.sh build first", file=sys.stderr)
        return 2
    if not CHROMIUM.exists():
        print(f"bench_browser: {CHROMIUM} is absent (apt-get install -y chromium)", file=sys.stderr)
        return 2
    print("\n".join(report(run(args.site, args.later))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
