"""Deal-perft (canasta_ref.conformance.perft): the bundled files hold the reference's counts, pass on the
reference in process and through ``canasta-ref serve`` (with and without ``undo``), and a wrong engine fails with
the divide: the count below each first action, the reference's against the engine's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import engine_command, reference_command

from canasta_ref.conformance.engines import InProcessEngine, SubprocessEngine
from canasta_ref.conformance.perft import (
    PerftFile,
    load_perft_files,
    main,
    perft_dir,
    read_perft_file,
    reference_counts,
    run_perft_files,
)
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.errors import CanastaError
from canasta_ref.spec import list_variants

FILES = load_perft_files()
SMALL = [perft_dir() / "classic-seed-3.yaml", perft_dir() / "classic-2p-seed-2.yaml"]


def test_the_bundled_files() -> None:
    assert len(FILES) >= 6
    assert {f.variant for f in FILES} == set(list_variants()), "every bundled variant has a deal-perft file"
    assert any("order" in f.deck_spec for f in FILES) and any("seed" in f.deck_spec for f in FILES)
    for perft in FILES:
        assert sorted(perft.depths) == [1, 2, 3], perft.id
        assert Path(perft.file).stem == perft.id


@pytest.mark.parametrize("perft", FILES, ids=[f.id for f in FILES])
def test_the_counts_are_the_references(perft: PerftFile) -> None:
    counts = reference_counts(perft, max(perft.depths))
    assert {d: counts[d - 1] for d in perft.depths} == dict(perft.depths)


def test_perft_passes_on_the_reference_in_process() -> None:
    results = run_perft_files(InProcessEngine(), variants=None)
    assert [r.status for r in results] == ["passed"] * len(FILES), [r.message for r in results]
    assert {r.scenario for r in results} == {f"perft-{f.id}" for f in FILES}


def test_perft_passes_through_canasta_ref_serve() -> None:
    engine = SubprocessEngine(reference_command())
    try:
        results = run_perft_files(engine, variants=None)
    finally:
        engine.close()
    assert [r.status for r in results] == ["passed"] * len(FILES), [r.message for r in results]


class NoUndo(ReferenceSession):
    def _cmd_hello(self, request: Any) -> dict[str, Any]:
        reply = super()._cmd_hello(request)
        reply["capabilities"]["undo"] = False
        return reply

    def _cmd_undo(self, request: Any) -> dict[str, Any]:
        raise AssertionError("undo is not offered")


def test_without_undo_the_position_is_set_up_again() -> None:
    results = run_perft_files(InProcessEngine(NoUndo()), variants=None, paths=SMALL)
    assert [r.status for r in results] == ["passed", "passed"], [r.message for r in results]


def test_a_mutant_fails_with_the_divide() -> None:
    engine = SubprocessEngine(reference_command("--mutate-rule", "CARDS.VALUES"))
    try:
        results = run_perft_files(engine, variants=None, paths=SMALL)
    finally:
        engine.close()
    assert [r.status for r in results] == ["failed", "failed"]
    two = results[1].message
    assert "depth 1: 25 sequences expected, the engine counts 25\n" in two
    assert "depth 2: 265 sequences expected, the engine counts 276  <-" in two
    assert "divide at depth 2 (sequences of 2 actions by first action, reference vs engine" in two
    assert "\n  draw: 31 vs 42\n" in two
    assert "first difference: after `draw`: the engine lists `meld" in two
    assert "INITIAL_MELD.REQUIRED" in two
    one = results[0].message
    assert "divide at depth 1" in one and "(not legal per the reference: INITIAL_MELD.REQUIRED)" in one


def test_a_restart_that_fails_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    """As for scenarios (run_case): an engine that crashes and cannot be restarted errors each file, no raise."""
    engine = SubprocessEngine(engine_command("crash", "--start-once", str(tmp_path / "started")))
    try:
        results = run_perft_files(engine, variants=None, paths=SMALL)
    finally:
        engine.close()
    assert [r.status for r in results] == ["errored", "errored"]
    assert "exited with status 3; restarting the engine failed too" in results[0].message
    assert "will not start again" in results[1].stderr


class ListsATakeTwice(ReferenceSession):
    """Lists each take with cards a second time, its cards in reverse order (the same action)."""

    def _cmd_legal(self, request: Any) -> dict[str, Any]:
        reply = super()._cmd_legal(request)
        extra = [
            {**a, "cards": list(reversed(a["cards"]))}
            for a in reply["actions"]
            if a["type"] == "take" and len(a["cards"]) == 2
        ]
        reply["actions"] += extra
        return reply


def test_an_action_listed_twice_counts_twice_and_fails() -> None:
    results = run_perft_files(InProcessEngine(ListsATakeTwice()), variants=None, paths=SMALL[:1])
    assert results[0].status == "failed"
    message = results[0].message
    assert "depth 1: 5 sequences expected, the engine counts 7  <-" in message
    assert "the engine lists some actions twice at the deal: `take 4D 4S + KD KH 2C`" in message


class ListsNothing(ReferenceSession):
    def _cmd_hello(self, request: Any) -> dict[str, Any]:
        reply = super()._cmd_hello(request)
        reply["capabilities"]["legal"] = "count"
        reply["variants"] = ["classic"]
        return reply


def test_skipped_without_a_list_of_legal_actions_or_the_variant() -> None:
    results = run_perft_files(InProcessEngine(ListsNothing()), variants=None, paths=SMALL)
    assert [r.status for r in results] == ["skipped", "skipped"]
    assert "list" in results[0].message and "classic-2p" in results[1].message
    assert run_perft_files(InProcessEngine(), variants=["classic-2p"], paths=SMALL)[0].variant == "classic-2p"
    assert len(run_perft_files(InProcessEngine(), variants=["classic-2p"], paths=SMALL)) == 1


def test_a_bad_file_names_its_field(tmp_path: Path) -> None:
    bad = tmp_path / "not-the-id.yaml"
    bad.write_text("perft: 1\nid: other\nvariant: classic\ndeck: {seed: 1}\ndepths: {1: 1}\n", encoding="utf-8")
    with pytest.raises(CanastaError, match="field 'id'"):
        read_perft_file(bad)
    bad.write_text("perft: 1\nid: not-the-id\nvariant: classic\ndeck: {seed: 1, order: 'KH'}\ndepths: {1: 1}\n")
    with pytest.raises(CanastaError, match="field 'deck'"):
        read_perft_file(bad)
    bad.write_text("perft: 1\nid: not-the-id\nvariant: classic\ndeck: {order: 'KH KS'}\ndepths: {1: 1}\n")
    with pytest.raises(CanastaError, match="field 'deck'"):
        read_perft_file(bad)


def test_the_files_are_up_to_date_and_can_be_regenerated(tmp_path: Path) -> None:
    out: list[str] = []
    assert main(["--check"], out.append) == 0
    assert all(line.endswith("(up to date)") for line in out)
    stale = tmp_path / "classic-seed-3.yaml"
    stale.write_text((perft_dir() / "classic-seed-3.yaml").read_text().replace("2: 37", "2: 36"))
    assert main(["--check", str(stale)], out.append) == 1
    assert main([str(stale)], out.append) == 0
    assert read_perft_file(stale).depths == read_perft_file(perft_dir() / "classic-seed-3.yaml").depths


def test_the_readme_table_gives_every_file_with_its_counts() -> None:
    rows = [line.split("|") for line in (perft_dir() / "README.md").read_text(encoding="utf-8").splitlines()]
    table = {
        cells[1].strip().strip("`"): (cells[2].strip(), tuple(int(cells[n]) for n in (4, 5, 6)))
        for cells in rows
        if len(cells) == 8 and cells[1].strip().startswith("`")
    }
    assert table == {f.id: (f.variant, tuple(f.depths[d] for d in (1, 2, 3))) for f in FILES}
