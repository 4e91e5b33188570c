"""The command line, end to end: play, rules, check, show, legal, hooks."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from canasta_ref.cli import main
from canasta_ref.engine.game import Game
from canasta_ref.engine.rules import rules_for
from canasta_ref.render import score_column, side_name
from canasta_ref.spec import list_variants, load_variant


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_play_is_reproducible_and_ends_with_a_score_sheet() -> None:
    code, first = run("play", "--seed", "11")
    assert code == 0
    _, second = run("play", "--seed", "11")
    assert first == second
    assert "Hand 1 (deck seed 11/0); North plays first" in first
    assert "North: draws" in first or "North: takes the pile" in first
    last = first.strip().splitlines()[-1]
    assert "win the match" in last or "drawn" in last
    winner_total = max(int(n) for n in last.split()[-3::2])
    assert winner_total >= 5000


def test_play_writes_the_log_file(tmp_path: Path) -> None:
    log = tmp_path / "match.txt"
    code, out = run("play", "--seed", "3", "--quiet", "--log", str(log))
    assert code == 0
    assert "Hand 1" not in out and "total" in out
    text = log.read_text(encoding="utf-8")
    assert "Hand 1 (deck seed 3/0)" in text and "win the match" in text


def test_play_refuses_a_wrong_number_of_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("play", "--bots", "greedy,random,greedy")
    assert code == 2
    assert "has 4 seats" in capsys.readouterr().err


def test_rules_lists_every_clause_with_its_source() -> None:
    code, out = run("rules", "classic-2p")
    assert code == 0
    for clause in load_variant("classic-2p").clauses.values():
        assert f"  {clause.id}" in out
    assert "GO_OUT.CANASTAS [from classic-2p]: Two canastas to go out" in out
    assert 'source pagat: "A player with only one card in his hand' in out
    title = load_variant("classic-2p").sources["pagat"].title
    assert f"\nSources\n  pagat: {title} <https://www.pagat.com/" in out and "\n  bicycle-2p: Bicycle" in out


def test_rules_json_has_expressions() -> None:
    import json

    code, out = run("rules", "classic", "--json")
    data = json.loads(out)
    assert code == 0
    frozen = next(r for r in data["rules"] if r["id"] == "PILE.TAKE.FROZEN")
    assert frozen["require"].startswith("not frozen")


def test_check_reports_file_line_column_and_caret(tmp_path: Path) -> None:
    bad = tmp_path / "house.yaml"
    bad.write_text(
        "spec: 1\nid: house\nname: House\ndescription: x\nextends: classic\n"
        "rules:\n  - id: MELD.HOUSE\n    section: melds\n    title: t\n    text: t\n"
        "    sources: [{source: pagat, quote: q}]\n    hook: meld.valid\n    require: size >= \n",
        encoding="utf-8",
    )
    code, out = run("check", str(bad))
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{bad}:13:")
    assert "^" in out


def test_check_accepts_the_bundled_specs() -> None:
    code, out = run("check", "spec/classic.yaml", "spec/classic-2p.yaml")
    assert code == 0
    assert out.count(": ok") == 2


def test_show_renders_a_seat_view_after_actions() -> None:
    code, out = run("show", "--seed", "3", "--actions", "draw", "--seat", "0")
    assert code == 0
    assert out.startswith("North's view; North to act (play)")
    assert "hand (12):" in out


def test_show_reports_an_illegal_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("show", "--seed", "3", "--actions", "discard 7S")
    assert code == 2
    assert "[TURN.DRAW_FIRST]" in capsys.readouterr().err


def test_legal_counts_the_actions() -> None:
    code, out = run("legal", "--seed", "3")  # the default variant, classic, and no actions applied
    assert code == 0
    assert out.splitlines()[0] == "draw"
    expected = Game(load_variant("classic"), seed=3).legal_actions().count()
    assert out.splitlines()[-1] == f"{expected} legal actions"
    assert len(out.splitlines()) == expected + 1


@pytest.mark.parametrize("variant_id", list_variants())
def test_every_score_clause_has_a_score_sheet_column(variant_id: str) -> None:
    """The score sheet's columns match clause ids by prefix: a renamed clause must not fall into "other"."""
    variant = load_variant(variant_id)
    clauses = [c for hook in ("score.hand", "score.meld", "score.held") for c in variant.by_hook(hook)]
    assert clauses
    assert [c.id for c in clauses if score_column(c.id) is None] == []


def test_hooks_lists_variables() -> None:
    code, out = run("hooks")
    assert code == 0
    assert "meld.valid (require)" in out and "    wilds: int" in out


def test_an_unknown_bot_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("play", "--bots", "foo")
    assert code == 2
    assert "unknown bot 'foo'; expected one of: greedy, random" in capsys.readouterr().err


def test_explain_names_a_missing_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("explain", "no-such-scenario")
    assert code == 2
    assert "no scenario 'no-such-scenario'" in capsys.readouterr().err


def test_conform_reports_an_unreadable_scenario_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("conform", "--scenarios", "/nonexistent/scenario.yaml", "--no-progress")
    assert code == 2
    assert "/nonexistent/scenario.yaml:1:1: cannot read the scenario file" in capsys.readouterr().err


def test_sides_are_named_by_their_seats_readably_for_every_table() -> None:
    classic, six = rules_for(load_variant("classic")), rules_for(load_variant("classic-6p"))
    assert [side_name(classic, team) for team in range(2)] == ["North-South", "East-West"]
    assert side_name(six, 0) == "North, South-east and South-west"
    code, out = run("play", "--variant", "classic-6p", "--seed", "1")
    assert code == 0 and out.splitlines()[-1].startswith("North, South-east and South-west win the match")
