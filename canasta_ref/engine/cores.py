"""Which core plays a game: the Python engine (the reference), or the native core where it has every mechanism the
game needs.

The native core lives above the engine (``canasta_ref.core``, which imports the engine) and registers how it
judges a variant here when the package is imported; the engine never imports it. A game that asks for the native
core and is declined runs on the Python engine, and says why (``Game.core_note``): never silently wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..errors import CanastaError
from .rules import Rules

#: The cores a game may ask for.
CORES: Final = ("python", "native")
#: How the native core judges a variant: why it declines a game of it. It declines every game for now: it has no
#: listing of legal actions yet (canasta_ref/core/README.md).
_NATIVE_DECLINE: list[Callable[[Rules], str]] = []


def register_native(decline: Callable[[Rules], str]) -> None:
    """Called by ``canasta_ref.core`` on import."""
    _NATIVE_DECLINE[:] = [decline]


def choose_core(rules: Rules, wanted: str) -> tuple[str, str]:
    """The core a game of ``rules`` runs on when ``wanted`` is asked for, and why it is not the one asked for
    ('' when it is)."""
    if wanted not in CORES:
        raise CanastaError(f"there is no core {wanted!r}: choose {' or '.join(CORES)}")
    if wanted == "python":
        return "python", ""
    if not _NATIVE_DECLINE:
        return "python", f"the native core is not installed; {rules.variant.id} runs on the Python engine"
    return "python", _NATIVE_DECLINE[0](rules)
