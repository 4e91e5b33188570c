"""A minimal engine written by a newcomer from PROTOCOL.md alone, with two deliberate faults, has each reported
once: the frozen pile taken under its rule, the refused wild discard under its cause (Classic allows the discard by
no clause of its own, so no rule can be named), and nothing else held against it.

About 7 s on pure Python: the conform command is run as a process, as a newcomer runs it, for six games."""

from __future__ import annotations

from pathlib import Path

from broken_engines.kit import engine_command, run_conform

from canasta_ref.conformance import causes
from canasta_ref.conformance.campaign import NO_RESYNC_NOTES
from canasta_ref.conformance.report import SCREEN_WIDTH


def test_both_deliberate_faults_of_a_minimal_engine_are_reported_each_once(tmp_path: Path) -> None:
    code, printed, report = run_conform(
        "--impl", engine_command("stranger"), "--variant", "classic", "--games", "6", "--no-scenarios", cwd=tmp_path
    )
    assert code == 1, printed[-3000:]
    deviations = report["summary"]["variants"]["classic"]["deviations"]
    by_rule = {deviation["rule"]: deviation for deviation in deviations}
    assert set(by_rule) == {"PILE.TAKE.FROZEN", None}, deviations  # no false alarm beside the two faults
    frozen = by_rule["PILE.TAKE.FROZEN"]
    assert frozen["games"] >= 1 and "the engine accepted it" in frozen["example"], frozen
    refused = by_rule[None]
    assert refused["cause"] == causes.refuses("discard"), refused
    assert "A wild card may not be discarded." in refused["example"], refused
    assert "PILE.TAKE.FROZEN" in printed and "refuses `discard`" in printed
    lines = printed.splitlines()
    assert all(f"  {note}" in lines for note in NO_RESYNC_NOTES), printed  # why games were dealt again
    # every line fits the screen, but the folder the failing games went to, which is as long as the path given
    too_wide = [line for line in lines if len(line) > SCREEN_WIDTH and not line.startswith("failing games saved")]
    assert not too_wide, too_wide
