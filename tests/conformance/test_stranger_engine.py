"""A minimal engine written by a newcomer from PROTOCOL.md alone, with two deliberate faults, has each reported
once: the frozen pile taken under its rule; the refused wild discard under PILE.FROZEN.WILD by the scenario whose
step rests on it, and under its cause in the generated games (Classic allows the discard by no clause of its own,
so the games can name no rule); and nothing else held against it.

About 7 s on pure Python: the conform command is run as a process, as a newcomer runs it, for six games and the
one scenario (the others need a written-out position, which a minimal engine cannot set up)."""

from __future__ import annotations

from pathlib import Path

from broken_engines.kit import engine_command, run_conform

from canasta_ref.conformance import causes
from canasta_ref.conformance.campaign import NO_RESYNC_NOTES
from canasta_ref.conformance.report import SCREEN_WIDTH

#: The scenario whose accepted discard of a wild card rests on PILE.FROZEN.WILD, dealt from a seed.
WILD_DISCARD = (
    Path(__file__).resolve().parents[2] / "conformance/scenarios/a-wild-card-may-be-discarded-and-freezes-the-pile.yaml"
)


def test_both_deliberate_faults_of_a_minimal_engine_are_reported_each_once(tmp_path: Path) -> None:
    code, printed, report = run_conform(
        "--impl",
        engine_command("stranger"),
        "--variant",
        "classic",
        "--games",
        "6",
        "--scenarios",
        str(WILD_DISCARD),
        cwd=tmp_path,
    )
    assert code == 1, printed[-3000:]
    deviations = report["summary"]["variants"]["classic"]["deviations"]
    by_rule = {deviation["rule"]: deviation for deviation in deviations}
    assert set(by_rule) == {"PILE.TAKE.FROZEN", "PILE.FROZEN.WILD", None}, deviations  # no false alarm beside
    frozen = by_rule["PILE.TAKE.FROZEN"]
    assert frozen["games"] >= 1 and "the engine accepted it" in frozen["example"], frozen
    refused = by_rule[None]
    assert refused["cause"] == causes.refuses("discard"), refused
    assert "A wild card may not be discarded." in refused["example"], refused
    wild = by_rule["PILE.FROZEN.WILD"]
    assert wild["scenarios"] == [WILD_DISCARD.stem] and wild["games"] == 0, wild
    assert "`discard 2D`: expected accepted, got refused" in wild["example"], wild
    assert "PILE.TAKE.FROZEN" in printed and "refuses `discard`" in printed
    assert "  PILE.FROZEN.WILD: 1 scenario; e.g. " in printed, printed
    lines = printed.splitlines()
    assert all(f"  {note}" in lines for note in NO_RESYNC_NOTES), printed  # why games were dealt again
    # every line fits the screen, but the folder the failing games went to, which is as long as the path given
    too_wide = [line for line in lines if len(line) > SCREEN_WIDTH and not line.startswith("failing games saved")]
    assert not too_wide, too_wide
