"""Which core plays a game: the Python engine (the reference), or the native core.

The native core lives above the engine (``canasta_ref.core``, which imports the engine) and registers here, when
the package is imported, why it would decline a variant and the class of game that plays on it; the engine never
imports it. A game that asks for the native core and is declined runs on the Python engine, and says why
(``Game.core_note``): never silently wrong.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Final

from ..errors import CanastaError
from .rules import Rules

#: The cores a game may ask for.
CORES: Final = ("python", "native")
#: How the native core judges a variant: why it declines a game of it ('' where it plays it).
_NATIVE_DECLINE: list[Callable[[Rules], str]] = []
#: Where the class of game that plays on the native core (one with the public API of ``Game``) is, as
#: "module:name", where the core is built.
_NATIVE_GAME: list[str] = []


def register_native(decline: Callable[[Rules], str], game_class: str | None = None) -> None:
    """Called by ``canasta_ref.core`` on import; ``game_class`` says where the class is ("module:name"), imported
    when first asked for (its module imports the engine's game, which imports this module, and the core's package,
    which registers)."""
    _NATIVE_DECLINE[:] = [decline]
    _NATIVE_GAME[:] = [] if game_class is None else [game_class]


def native_game_class() -> type | None:
    """The class of game that plays on the native core, or None where it is not built."""
    if not _NATIVE_GAME:
        return None
    module, name = _NATIVE_GAME[0].split(":")
    found: type = getattr(importlib.import_module(module), name)
    return found


def choose_core(rules: Rules, wanted: str) -> tuple[str, str]:
    """The core a game of ``rules`` runs on when ``wanted`` is asked for, and why it is not the one asked for
    ('' when it is)."""
    if wanted not in CORES:
        raise CanastaError(f"there is no core {wanted!r}: choose {' or '.join(CORES)}")
    if wanted == "python":
        return "python", ""
    if not _NATIVE_DECLINE:
        return "python", f"the native core is not installed; {rules.variant.id} runs on the Python engine"
    declined = _NATIVE_DECLINE[0](rules)
    return ("python", declined) if declined else ("native", "")
