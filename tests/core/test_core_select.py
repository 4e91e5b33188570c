"""Choosing the core: a game asking for the native one plays on it where it is built, and says what runs where;
without the library it plays on the Python engine and says why; ``serve --core native`` says so on stderr."""

from __future__ import annotations

import inspect
import io
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from canasta_ref import Game, core
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.core import game as game_module
from canasta_ref.core.game import NativeGame
from canasta_ref.engine import cores
from canasta_ref.engine.cards import format_cards, parse_cards
from canasta_ref.engine.game import deck_for_seed
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import rules_for
from canasta_ref.errors import CanastaError
from canasta_ref.spec import load_variant


def test_the_python_engine_plays_when_asked_for() -> None:
    game = Game(load_variant("classic"), seed=1)
    assert (game.core, game.core_note) == ("python", "")


def test_a_game_asking_for_the_native_core_plays_on_it_and_says_what_runs_where(native_game: ModuleType) -> None:
    game = Game(load_variant("classic"), seed=1, core="native")
    assert isinstance(game, NativeGame)
    assert (game.core, game.core_note) == (
        "native",
        "plays on the native core; on the Python engine: a side that has not opened, its takes of the pile or "
        "openings with more wild cards than the core counts; combining two melds, a lone hand formed, keeping a bonus "
        "card and special hands; the judging of an action the core did not list, views, score and the log",
    )
    assert list(game.legal_actions()) == list(Game(load_variant("classic"), seed=1).legal_actions())


def test_where_the_core_lacks_the_openings_the_note_gives_the_python_engine_a_side_not_opened(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_module, "openings_missing", lambda rules: "wild cards of different values")
    note = game_module.core_note(rules_for(load_variant("classic")))
    assert note.startswith("plays on the native core; on the Python engine: the listing of a side that has not opened;")


def test_the_note_names_what_a_variant_needs_of_the_python_engine(native_game: ModuleType) -> None:
    note = Game(load_variant("modern-american"), seed=1, core="native").core_note
    assert note == (
        "plays on the native core; on the Python engine: every listing but answering and keeping, for melds that "
        "must be completed before going out (hook meld.must_complete); every action, for bonus cards kept in hand "
        "(hook bonus_card.keep); the judging of an action the core did not list, views, score and the log"
    )


def test_without_the_library_a_game_asking_for_the_native_core_plays_on_the_python_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cores, "_NATIVE_GAME", [])
    monkeypatch.setattr(core, "LIBRARY", None)
    monkeypatch.setattr(core, "stale_reason", lambda: "the native core is not built")
    game = Game(load_variant("classic"), seed=1, core="native")
    assert type(game) is Game
    assert (game.core, game.core_note) == ("python", "the native core is not built; classic runs on the Python engine")


def test_without_the_library_the_reason_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "LIBRARY", None)
    monkeypatch.setattr(core, "stale_reason", lambda: "the native core is not built")
    note = core.decline_reason(rules_for(load_variant("classic")))
    assert note == "the native core is not built; classic runs on the Python engine"


def test_an_unknown_core_is_refused() -> None:
    with pytest.raises(CanastaError, match="there is no core 'fast': choose python or native"):
        Game(load_variant("classic"), seed=1, core="fast")


def test_without_a_registered_core_the_engine_says_it_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "_NATIVE_DECLINE", [])
    played, note = cores.choose_core(rules_for(load_variant("classic")), "native")
    assert played == "python"
    assert note == "the native core is not installed; classic runs on the Python engine"


def test_serve_with_the_native_core_says_once_on_stderr_what_runs_where(native_game: ModuleType) -> None:
    notes = io.StringIO()
    session = ReferenceSession(core="native", notes=notes)
    assert session.handle({"cmd": "hello", "version": 8})["ok"]
    for _ in range(2):
        assert session.handle({"cmd": "setup", "variant": "classic", "deck": _deck()}) == {"ok": True}
    assert notes.getvalue() == f"canasta-ref serve: {session.game.core_note}\n"
    assert notes.getvalue().startswith("canasta-ref serve: plays on the native core; on the Python engine: ")
    assert isinstance(session.game, NativeGame)
    assert session.handle({"cmd": "legal"})["ok"]


def test_serve_with_the_python_core_writes_no_note() -> None:
    notes = io.StringIO()
    session = ReferenceSession(notes=notes)
    session.handle({"cmd": "hello", "version": 8})
    assert session.handle({"cmd": "setup", "variant": "classic", "deck": _deck()}) == {"ok": True}
    assert notes.getvalue() == ""


def _deck() -> str:
    """A shuffled deck of Classic, as a 'setup' request writes it."""
    return format_cards(deck_for_seed(rules_for(load_variant("classic")), 1))


def test_an_edited_c_part_makes_the_library_stale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The build's digest covers the parts ``_core.c`` includes, so a library built before a part changed is not
    loaded (it would run the old part)."""
    source = tmp_path / "_core.c"
    source.write_text('#include "native/part.c"\n')
    parts = tmp_path / "native"
    parts.mkdir()
    (parts / "part.c").write_text("static int one = 1;\n")
    monkeypatch.setattr(core, "SOURCE", source)
    monkeypatch.setattr(core, "PARTS_DIR", parts)
    assert core.source_files() == [source, parts / "part.c"]
    before = core.source_digest()
    (parts / "part.c").write_text("static int one = 2;\n")
    assert core.source_digest() != before
    (parts / "notes.md").write_text("not C\n")
    assert core.source_files() == [source, parts / "part.c"]


def test_a_game_asking_for_the_core_plays_on_it_on_the_compiled_engine_and_the_pure_one(library: ModuleType) -> None:
    """The game on the core holds a ``Game`` rather than extending it, so a mypyc build (``engine._native``) changes
    nothing: the same class, the core's listing and apply."""
    game = Game(load_variant("classic"), seed=1, core="native")
    game.apply(game.legal_actions()[0])
    assert type(game) is NativeGame and game.core == "native"
    assert game.ran == Counter({"listing on the core": 1, "apply on the core": 1})
    hands = [parse_cards(hand) for hand in ("5S 6S", "7S 8S", "9S 10S", "JS QS")]
    assert type(Game.from_position(game.rules, Position(hands=hands, phase="play"), core="native")) is NativeGame


def test_a_bad_position_for_a_game_on_the_core_is_refused_by_field(library: ModuleType) -> None:
    """As the Python engine refuses it, on the compiled engine too (where a constructor's error once went astray)."""
    position = Position(hands=[parse_cards("5S"), parse_cards("6S")], phase="play")
    for core_asked in ("native", "python"):
        with pytest.raises(CanastaError, match="field 'hands': expected 4 hands, one per seat, got 2"):
            Game.from_position(load_variant("classic"), position, core=core_asked)


def _methods(cls: type) -> dict[str, list[str]]:
    """A class's public methods, each with its parameters' names (its attributes and properties are read apart: a
    compiled class lists its attributes too)."""
    found = {name: getattr(cls, name) for name in dir(cls) if not name.startswith("_")}
    return {name: list(inspect.signature(method).parameters) for name, method in found.items() if callable(method)}


def test_the_game_on_the_core_has_the_whole_public_api_of_game(native_game: ModuleType) -> None:
    """No ``isinstance(..., Game)`` in the code: callers rely on the API, which the game on the core has whole."""
    python, native = Game(load_variant("classic"), seed=1), Game(load_variant("classic"), seed=1, core="native")
    assert _methods(NativeGame).items() >= _methods(Game).items()
    attributes = (
        "rules",
        "seed",
        "deck",
        "first_seat",
        "events",
        "history",
        "core",
        "core_note",
        "state",
        "to_act",
        "is_over",
    )
    assert [type(getattr(native, name)) for name in attributes] == [type(getattr(python, name)) for name in attributes]
    assert [name for name in dir(type(python.legal_actions())) if not name.startswith("_")] == [
        name for name in dir(type(native.legal_actions())) if not name.startswith("_")
    ]
