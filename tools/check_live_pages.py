#!/usr/bin/env python3
"""Settle many bundled scenarios in the live page and compare each answer with ``canasta-ref explain``'s.

    tools/site.sh build && python tools/check_live_pages.py [--site site] [--per-variant 2]

The scenarios: every bundled dispute (``dispute-*``), then for each of the bundled variants the first
``--per-variant`` scenarios written for it, so that all ten variants are judged in the page. Each is chosen in the
page's example list and settled under the variants it applies to (none ticked, as ``explain`` without
``--variant``); the page's lines must equal explain's. Too slow for CI on pure-Python WebAssembly (every variant
is compiled in the page), so a tool; the CI test settles the one-card-pile dispute and one house-rules case.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser.devtools import CHROMIUM, DevTools, serve, wait_for

from canasta_ref import cliargs
from canasta_ref.conformance.explain import explain_lines
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.variants import applicable_variants
from canasta_ref.spec import list_variants

CHOOSE = """(() => {
  const pick = document.getElementById("cr-example");
  pick.value = %s;
  pick.dispatchEvent(new Event("change"));
  return window.crLiveTimes.verdicts;
})()"""
LINES = '[...document.querySelectorAll("#cr-verdicts .cr-verdict")].map(e => e.textContent)'


def chosen_scenarios(per_variant: int) -> list[Scenario]:
    """Every dispute, then the first ``per_variant`` scenarios written for each variant."""
    everything = sorted(load_scenarios(), key=lambda s: s.id)
    chosen = {s.id: s for s in everything if s.id.startswith("dispute-")}
    for variant in list_variants():
        for scenario in [s for s in everything if variant in s.variants][:per_variant]:
            chosen.setdefault(scenario.id, scenario)
    return list(chosen.values())


def settle_in_page(chrome: DevTools, scenario_id: str) -> list[str]:
    """The page's answer for a bundled scenario chosen in its example list, settled by its button."""
    before = chrome.evaluate(CHOOSE % json.dumps(scenario_id))
    wait_for(chrome, f"document.getElementById('cr-scenario').value.includes('id: {scenario_id}')", timeout=60)
    chrome.evaluate("document.getElementById('cr-settle-button').click()")
    wait_for(chrome, f"window.crLiveTimes.verdicts > {before}", timeout=600)
    return list(chrome.evaluate(LINES))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--site", type=cliargs.folder, default=Path("site"), help="the built site (default site/: tools/site.sh build)"
    )
    parser.add_argument("--per-variant", type=cliargs.positive, default=2, help="scenarios written for each variant")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists() or not (args.site / "assets" / "runtime").is_dir():
        print("check_live_pages: needs /usr/bin/chromium and a built site (tools/site.sh build)", file=sys.stderr)
        return 2
    scenarios = chosen_scenarios(args.per_variant)
    judged = sorted({v for s in scenarios for v in applicable_variants(s)})
    print(f"{len(scenarios)} scenarios, judged under {len(judged)} variants: {', '.join(judged)}")
    differing = 0
    with tempfile.TemporaryDirectory() as work:
        chrome = DevTools(Path(work) / "profile", Path(work) / "chromium.log")
        try:
            with serve(args.site) as base:
                chrome.open_tab()
                chrome.goto(f"{base}/try/settle/#example=dispute-one-card-pile")
                wait_for(chrome, "window.crLiveTimes && window.crLiveTimes.firstVerdict", timeout=600)
                for scenario in scenarios:
                    started = time.monotonic()
                    page = settle_in_page(chrome, scenario.id)
                    expected = list(explain_lines(scenario, applicable_variants(scenario)))
                    same = page == expected
                    differing += not same
                    took = time.monotonic() - started
                    print(f"{'same' if same else 'DIFFERS'}  {scenario.id} ({len(expected)} lines, {took:.1f} s)")
        finally:
            chrome.close()
    print(f"{len(scenarios) - differing} of {len(scenarios)} answers in the page equal canasta-ref explain's")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
