"""Finding settings that change nothing: a value a file gives an inherited parameter that no rule reads.

A variant may remove or replace the clauses that read one of its parent's parameters (Modern American has no
one-card-pile rule of Classic's), and some parameters are read by no rule at all (a cut bonus, where a deal is a
deck order). A house file that sets such a parameter loads and plays exactly as if it had not: ``check`` says so
rather than let the setting pass silently. Restating the parent's value (as ``canasta-ref new`` does) is no change.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..errors import SpecError
from .model import Variant
from .valuetext import value_text

#: The parameters the engine's mechanisms read directly, not through a rule clause: the seats and the sides.
MECHANISM_PARAMETERS: Final = frozenset({"players", "teams"})


def read_parameters(variant: Variant) -> frozenset[str]:
    """The parameters whose value can change how ``variant`` plays: those its clauses or the mechanisms read."""
    return frozenset(name for clause in variant.clauses.values() for name in clause.parameters) | MECHANISM_PARAMETERS


def unread_settings(variant: Variant, parent: Variant | None) -> Iterator[SpecError]:
    """A warning for each parameter ``variant``'s own file sets to a value other than ``parent``'s that no clause
    of ``variant`` reads; parameters the file declares itself are its author's to document."""
    if parent is None:
        return
    read, read_by_parent = read_parameters(variant), read_parameters(parent)
    for name, parameter in variant.parameters.items():
        inherited = parent.parameters.get(name)
        if parameter.set_in != variant.id or inherited is None or name in read:
            continue
        if parameter.value == inherited.value:
            continue
        why = (
            f"the rules of {parent.id} that read it are removed or replaced here"
            if name in read_by_parent
            else f"no rule of {parent.id} reads it either"
        )
        yield SpecError(
            f"warning: no rule of {variant.id} reads parameter {name}, so setting it to "
            f"{value_text(parameter.value)} changes nothing: {why}",
            parameter.location,
        )
