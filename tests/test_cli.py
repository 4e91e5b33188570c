"""The command line, end to end: play, rules, check, show, legal, hooks; its help, version and shared options."""

from __future__ import annotations

import argparse
import io
import json
import re
import tomllib
from pathlib import Path

import pytest

from canasta_ref import core
from canasta_ref.cli import build_parser, main
from canasta_ref.conformance.session import VERSION
from canasta_ref.engine import _native
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
    assert "\n  scores: North-South 0, East-West 0\n" in out


def test_a_match_stopped_early_gives_each_side_its_total() -> None:
    code, out = run("play", "--seed", "3", "--quiet", "--max-hands", "1")
    assert code == 0
    assert re.fullmatch(
        r"Stopped after 1 hand without a winner: North-South -?\d+, East-West -?\d+", out.splitlines()[-1]
    )


def test_show_reports_an_illegal_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("show", "--seed", "3", "--actions", "discard 7S")
    assert code == 2
    assert "[TURN.DRAW_FIRST]" in capsys.readouterr().err


def test_a_refused_action_is_named_by_its_place_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("show", "--seed", "3", "--actions", "draw; discard KH; discard 7S", "--seat", "1")
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith('canasta-ref: --actions: action 3 of 3, "discard 7S", is refused: ')
    assert err.rstrip().endswith("[TURN.DRAW_FIRST]")  # after North's discard, East must draw first


def test_a_misspelt_action_is_named_by_its_place_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("legal", "--seed", "3", "--actions", "draw;  ; discrd KH")
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith('canasta-ref: --actions: action 2 of 2, "discrd KH", cannot be read: unknown action')


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


def test_perft_runs_a_bundled_file_by_its_id() -> None:
    code, out = run("perft", "classic-seed-3")
    assert code == 0
    assert out.splitlines()[0] == "perft-classic-seed-3 [classic]: passed"
    assert out.strip().endswith("1 passed, 0 failed")


def test_perft_refuses_an_unknown_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("perft", "classic-seed-0")
    assert code == 2
    assert "no deal-perft file 'classic-seed-0': neither a file nor the id of a bundled one" in capsys.readouterr().err


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """The top-level parser and every subcommand's, by name."""
    top = build_parser()
    (commands,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    return [("canasta-ref", top), *commands.choices.items()]


@pytest.mark.parametrize(("name", "parser"), _parsers(), ids=[name for name, _ in _parsers()])
def test_every_command_and_option_is_described_in_plain_text(name: str, parser: argparse.ArgumentParser) -> None:
    assert parser.description, f"{name} has no description"
    assert "`" not in parser.description
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue  # an older spelling kept working, on purpose out of sight
        assert action.help, f"{name} {action.option_strings or action.dest} has no help text"
        assert "`" not in action.help, f"{name} {action.option_strings or action.dest}: {action.help}"
    assert "`" not in parser.format_help()


def test_every_command_is_listed_with_its_summary() -> None:
    listing = build_parser().format_help()
    for name, parser in _parsers()[1:]:
        assert name in listing
        assert parser.description and parser.description.split(".")[0].lower()[:20] in listing.lower()


def test_version_names_the_release_and_the_engine_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"canasta-ref {VERSION}\nengine: {_native.STATUS}\ncore: {core.STATUS}\n"
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == VERSION  # what hello reports is what pip installed


def test_hooks_prints_plain_text() -> None:
    _, out = run("hooks")
    assert "`" not in out
    assert "(team_has_melded: the player's side has melded)" in out


def test_json_is_spelt_json_everywhere() -> None:
    for argv in (["rules", "classic"], ["diff", "classic", "classic-2p"], ["show", "--seed", "3"]):
        _, out = run(*argv, "--json")
        assert isinstance(json.loads(out), dict), argv
    for command in ("conform", "coverage", "perft"):
        assert "--json FILE" in dict(_parsers())[command].format_help()


def test_explain_takes_variant_like_the_other_commands() -> None:
    _, one = run("explain", "dispute-one-card-pile", "--variant", "classic", "--no-alternatives")
    assert run("explain", "dispute-one-card-pile", "--variants", "classic", "--no-alternatives")[1] == one
    _, two = run("explain", "dispute-one-card-pile", "--variant", "classic", "--variant", "hoyle-2p")
    assert run("explain", "dispute-one-card-pile", "--variant", "classic,hoyle-2p")[1] == two
    headings = [line for line in two.splitlines() if line.startswith(("Classic Canasta [", "Hoyle"))]
    assert headings[0] == "Classic Canasta [classic]" and headings[-1].startswith("Hoyle")
    _, every = run("explain", "dispute-one-card-pile", "--variant", "all", "--no-alternatives")
    assert all(f"[{variant}]" in every for variant in list_variants())


@pytest.mark.parametrize("variant", ["classic", "modern-american", "hand-and-foot"])
def test_the_rulebook_states_values_in_words_not_python(variant: str) -> None:
    out = io.StringIO()
    assert main(["rules", variant], out) == 0
    lines = out.getvalue().splitlines()
    start = lines.index("Parameters")
    parameters = "\n".join(line for line in lines[start:] if line.startswith("  ") and " = " in line)
    for python in ("None", "['", "{'", "': ", "True", "False"):
        assert python not in parameters, f"{python!r} in the parameters of {variant}"
    assert "  wild_ranks = 2, JK: " in parameters


def test_a_won_match_gives_the_winners_score_first() -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "1", "--quiet"], out) == 0
    last = out.getvalue().splitlines()[-1]
    winner, loser = (int(n) for n in last.split(", ")[-1].split(" to "))
    assert "win the match" in last and winner > loser, last
