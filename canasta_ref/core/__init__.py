"""The native core: a hand's position, its card moves and its score facts in C, beside the Python engine.

The Python engine (``canasta_ref.engine``) stays the reference: the oracle every answer of the core is checked
against, and the home of every refusal's explanation. The core implements mechanisms, never rules: it is built from
what a variant's spec compiles to (card facts, canasta sizes, card values; ``core_tables``) and asks the spec's
clauses, through ``Rules``, for every rule question, memoising the answers. README.md in this directory says what
it owns, how it is proved, and how a mechanism is added to both engines.

The library is built by ``tools/build_core.py`` (``tools/setup.sh`` runs it) into ``_built/`` and used only while
the digest recorded there matches ``_core.c`` and this interpreter; without a compiler, or with a stale build,
``LIBRARY`` is None and everything runs on the Python engine (``STATUS`` says which).
"""

from __future__ import annotations

import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Final, get_args

from ..engine._native import build_tag as build_tag
from ..engine._native import read_manifest
from ..engine.cards import CARD_TYPES, MELD_RANK_NAMES, rank_of
from ..engine.cores import register_native
from ..engine.rules import Rules
from ..engine.state import HandState, Permission, Phase

CORE_DIR: Final = Path(__file__).parent
SOURCE: Final = CORE_DIR / "_core.c"
#: Parts of the C source that ``_core.c`` includes (one job each); the digest covers them with it.
PARTS_DIR: Final = CORE_DIR / "native"
BUILT_DIR: Final = CORE_DIR / "_built"
MANIFEST: Final = BUILT_DIR / "manifest.json"

#: The mechanisms the core owns, in the words a refusal uses.
MECHANISMS: Final = (
    "the position",
    "card moves",
    "score facts",
    "table values",
    "a memo of rule answers",
    "the discards' verdicts",
    "meld shapes by rank",
    "the turn's flags",
    "the listing of the draw phase and of play, a side opened or not (its takes of the pile and its openings), in "
    "the variants without melds an action names, special hands or melds to complete",
    "the listing of answering and of keeping",
    "applying a whole action in C, in the variants whose mechanisms it has",
    "random play of a whole hand in C",
)


def source_files() -> list[Path]:
    """The C source: ``_core.c`` and the parts it includes, in a fixed order."""
    parts = sorted(PARTS_DIR.glob("*.[ch]")) if PARTS_DIR.is_dir() else []
    return [SOURCE, *parts]


def source_digest() -> str:
    """The SHA-256 of the C source (``_core.c`` and its parts, names and bytes), as the build records it."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def stale_reason() -> str | None:
    """Why the built library cannot be used (none, another Python, an older source), in words, or None when it
    can."""
    if not SOURCE.is_file():
        return "the native core is not installed, as in a wheel"
    manifest = read_manifest(MANIFEST)
    if manifest is None or not (BUILT_DIR / str(manifest.get("library", ""))).is_file():
        return "the native core is not built"
    if manifest.get("tag") != build_tag():
        return "the native core was built for another Python"
    if manifest.get("source") != source_digest():
        return "the native core was built from an older source"
    return None


def _build_hint() -> str:
    """How to build, where that can be done: in a checkout (an installed wheel has no tools/)."""
    return ": run tools/build_core.py" if (CORE_DIR.parent.parent / "tools" / "build_core.py").is_file() else ""


def _load(stale: str | None) -> ModuleType | None:
    """The built library, when it is current (``stale`` is None); None otherwise."""
    if stale is not None:
        return None
    manifest = read_manifest(MANIFEST) or {}
    spec = importlib.util.spec_from_file_location("canasta_ref.core._core", BUILT_DIR / str(manifest["library"]))
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Why the built library cannot be used, found once at import (it hashes the C source), or None.
_STALE: Final = stale_reason()
#: The native library, or None: then everything runs on the Python engine.
LIBRARY: Final = _load(_STALE)
#: Which core this process can run, in words (``canasta-ref --version`` prints it).
STATUS: Final = (
    f"native core built ({', '.join(MECHANISMS)}); Game(..., core='native') plays on it, the Python engine "
    "answering where it cannot"
    if LIBRARY is not None
    else f"Python engine only ({_STALE}{_build_hint()})"
)


def available() -> bool:
    return LIBRARY is not None


def decline_reason(rules: Rules) -> str:
    """Why a game of ``rules`` asking for the native core runs on the Python engine: the core is not built; ''
    where it is (every variant plays on it, the Python engine answering where the core cannot: ``core.game``)."""
    if LIBRARY is None:
        return f"{stale_reason()}; {rules.variant.id} runs on the Python engine"
    return ""


#: The class of a game on the core (``game.py``), imported by the engine when a game first asks for the core.
NATIVE_GAME: Final = "canasta_ref.core.game:NativeGame"

register_native(decline_reason, NATIVE_GAME if LIBRARY is not None else None)


@dataclass(frozen=True)
class CoreTables:
    """What the core is built from: a compiled spec's card facts and sizes, by card type and by meld rank."""

    players: int
    sides: int
    rank: tuple[int, ...]
    is_wild: tuple[int, ...]
    is_red_three: tuple[int, ...]
    is_black_three: tuple[int, ...]
    is_bonus: tuple[int, ...]
    melded_value: tuple[int, ...]
    held_value: tuple[int, ...]
    held_value_out: tuple[int, ...]
    canasta_size: tuple[int, ...]


def core_tables(rules: Rules) -> CoreTables:
    """The tables the core reads, from ``rules`` (hooks card.wild, bonus_card, card.value, canasta.size)."""
    cards = range(CARD_TYPES)
    facts = [rules.card_facts(card) for card in cards]
    return CoreTables(
        players=rules.players,
        sides=rules.teams,
        rank=tuple(rank_of(card) for card in cards),
        is_wild=tuple(int(bool(rules.is_wild[card])) for card in cards),
        is_red_three=tuple(int(bool(f["is_red_three"])) for f in facts),
        is_black_three=tuple(int(bool(f["is_black_three"])) for f in facts),
        is_bonus=tuple(int(bool(rules.is_bonus[card])) for card in cards),
        melded_value=tuple(rules.card_value),
        held_value=tuple(rules.held_values[0]),
        held_value_out=tuple(rules.held_values[1]),
        canasta_size=tuple(rules.canasta_size[: len(MELD_RANK_NAMES)]),
    )


def new_position(rules: Rules, tables: CoreTables | None = None) -> Any:
    """An empty native position for ``rules`` (its ``core_tables``, where the caller keeps them); raises
    CoreUnavailable without the library."""
    if LIBRARY is None:
        raise CoreUnavailable(decline_reason(rules))
    if tables is None:
        tables = core_tables(rules)
    return LIBRARY.Position(**{name: getattr(tables, name) for name in tables.__dataclass_fields__})


class CoreUnavailable(RuntimeError):
    """The native core was asked for where it is not built."""


def position_fields(state: HandState) -> tuple[Any, ...]:
    """The values of a HandState that the core owns, in the order ``Position.load`` takes them."""
    melds = [[(meld.rank, meld.cards, meld.closed) for meld in side] for side in state.melds]
    return (
        state.hands,
        state.stock,
        state.pile,
        melds,
        state.bonus,
        [int(opened) for opened in state.team_opened],
        state.side_of,
        state.to_act,
        state.feet,
        state.penalties,
    )


#: The phases and the partner's permissions, in the order the core numbers them (``load_turn``).
PHASES: Final = get_args(Phase)
PERMISSIONS: Final = get_args(Permission)


#: Where each of the turn's flags stands in ``turn_fields`` (and in ``Position.turn``, which gives them back).
(
    PHASE_AT,
    PERMISSION_AT,
    MELDED_AT,
    ASKED_AT,
    TOOK_AT,
    LAST_CARD_BONUS_AT,
    UPCARD_FROZE_AT,
    ASKED_IN_HAND_AT,
    BONUS_DRAWS_AT,
    ASKER_AT,
    AWAITING_FIRST_TURN_AT,
) = range(11)


def turn_fields(state: HandState) -> tuple[Any, ...]:
    """The turn's flags of a HandState, in the order ``Position.load_turn`` takes them (``PHASE_AT`` ...)."""
    return (
        PHASES.index(state.phase),
        PERMISSIONS.index(state.permission),
        state.melded_this_turn,
        state.asked_this_turn,
        state.took_pile_this_turn,
        state.last_card_bonus,
        state.upcard_froze,
        state.asked_in_hand,
        state.bonus_draws_owed,
        state.asker,
        sum(1 << seat for seat, waiting in enumerate(state.awaiting_first_turn) if waiting),
    )


def load_state(position: Any, state: HandState) -> Any:
    """``position`` holding what the core owns of ``state``."""
    position.load(*position_fields(state))
    position.load_turn(*turn_fields(state))
    return position


def owned_view(state: HandState) -> dict[str, Any]:
    """What the core owns of ``state``, in the form ``Position.export`` gives it: the two compare equal exactly
    when the core holds the same position."""
    return {
        "hands": list(state.hands),
        "stock": tuple(state.stock),
        "pile": tuple(state.pile),
        "melds": [
            [(m.rank, tuple(sorted(m.cards)), m.closed, (m.size, m.naturals, m.wilds, m.jokers)) for m in side]
            for side in state.melds
        ],
        "bonus": list(state.bonus),
        "team_opened": tuple(int(opened) for opened in state.team_opened),
        "side_of": tuple(state.side_of),
        "to_act": state.to_act,
        "feet": list(state.feet),
        "penalties": tuple(state.penalties),
        "hand_sizes": tuple(state.hand_sizes),
        "pile_counts": (state.pile_wilds, state.pile_red_threes, state.pile_black_threes),
        "turn": _owned_turn(state),
    }


def _owned_turn(state: HandState) -> tuple[Any, ...]:
    """The turn's flags as the core holds them, the bonus draws owed as a tuple (the state keeps a list)."""
    fields = turn_fields(state)
    return (*fields[:-3], tuple(state.bonus_draws_owed), *fields[-2:])
