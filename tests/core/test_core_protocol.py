"""The native core proved through the protocol, as any engine under test is: a session serving on the core
(``canasta-ref serve --core native``, here in process) passes bundled scenarios, the deal-perft files and generated
games against the Python reference in every variant. A short run for CI; the whole suite is a tool run
(``canasta-ref conform --impl "canasta-ref serve --core native" --perft --games N``), reported in the core's
README. Each variant's case takes several seconds on pure Python (two whole games against the reference, every step
checked): the short campaign the issue asks CI to run."""

from __future__ import annotations

from types import ModuleType

import pytest

from canasta_ref.conformance.campaign import run_generated_games
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.perft import run_perft_files
from canasta_ref.conformance.runner import Selection, run_suite
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.core.game import NativeGame
from canasta_ref.spec import list_variants

#: Scenarios a variant in the short run (the first ones of the bundled suite that apply to it).
_SCENARIOS = 6


def _native_engine() -> InProcessEngine:
    return InProcessEngine(ReferenceSession(core="native"))


@pytest.mark.parametrize("variant", list_variants())
def test_scenarios_and_generated_games_pass_on_the_core(native_game: ModuleType, variant: str) -> None:
    engine = _native_engine()
    cases = Selection(variants=(variant,)).cases(load_scenarios())[:_SCENARIOS]
    results = run_suite(engine, cases)
    assert len(results) == _SCENARIOS
    assert [(r.scenario, r.status) for r in results] == [(r.scenario, "passed") for r in results]
    assert isinstance(engine.session.game, NativeGame)
    report = run_generated_games(engine, 2, 1, variants=[variant])
    assert [r.status for r in report.results] == ["passed", "passed"], report.report_lines()
    assert report.summary()["disagreements"] == 0


def test_a_deal_perft_file_passes_on_the_core(native_game: ModuleType) -> None:
    results = run_perft_files(_native_engine(), variants=["classic-3p"])
    assert results and [r.status for r in results] == ["passed"] * len(results)
