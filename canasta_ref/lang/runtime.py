"""What generated code calls at run time: only the failure paths, which must name the rule expression."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from ..errors import CanastaError


class RuleRuntimeError(CanastaError):
    """A rule expression met a value its spec does not cover: a map key it lacks, a value below every band."""


def shown(value: Any) -> str:
    """A map key or value as a message writes it: strings in double quotes, as the rules language does."""
    return f'"{value}"' if isinstance(value, str) else repr(value)


def in_expression(where: str, source: str) -> str:
    """The tail every run-time message shares: which expression, and where it is written."""
    one_line = " ".join(source.split())
    return f"in the rule expression `{one_line}` at {where}"


class ParameterMap(dict[str, Any]):
    """A map parameter as subscripted by generated code: a missing key raises RuleRuntimeError.

    A dict subclass rather than a helper function so that the generated code stays a plain ``m[key]``.
    """

    def __init__(self, name: str, values: Mapping[str, Any], where: str, source: str) -> None:
        super().__init__(values)
        self.name = name
        self.where = where
        self.source = source

    def __missing__(self, key: Any) -> NoReturn:
        known = ", ".join(shown(k) for k in self)
        raise RuleRuntimeError(
            f"map '{self.name}' has no entry for {shown(key)} (it has {known}); "
            + in_expression(self.where, self.source)
        )


def no_band(name: str, first: int, where: str, source: str) -> Callable[[int], NoReturn]:
    """The function generated code calls when a lookup falls below the first band of a table."""

    def fail(value: int) -> NoReturn:
        raise RuleRuntimeError(
            f"table '{name}' has no band for {value} (its first band starts at {first}); "
            + in_expression(where, source)
        )

    return fail
