"""The stated ranges of the whole numbers a written position or a set-up gives (a scenario file, a protocol
request, ``Game``): a number outside its range is refused, naming the field, so that no input carries into a
game a number no match reaches (a deal number of 10**30). conformance/PROTOCOL.md and the scenario schema state
the same ranges."""

from __future__ import annotations

from typing import Any, Final

from ..errors import CanastaError, found

#: A side's score before a hand, either way: as far as the numbers of a spec's tables reach (spec.params'
#: TABLE_LIMIT is this bound).
SCORE_LIMIT: Final = 10**9
#: The last deal of a match a set-up may name: far beyond any match played to its target.
HAND_NUMBER_LIMIT: Final = 10_000
#: The largest protocol number that only seeds or bounds (a ``sample`` seed, a ``legal`` limit): a 64-bit word.
WORD_LIMIT: Final = 2**63 - 1


def whole_number(value: Any, field: str, what: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or an error naming ``field`` and the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CanastaError(f"field '{field}': expected {what} from {low:,} to {high:,}, got {found(value)}")
    return value


def hand_number(value: Any, field: str) -> int:
    """``value`` as the deal of the match a set-up names, from 1 to HAND_NUMBER_LIMIT."""
    return whole_number(value, field, "a deal number", 1, HAND_NUMBER_LIMIT)


def team_scores(values: Any, teams: int, field: str) -> list[int]:
    """``values`` as one score a side before the hand, each within SCORE_LIMIT either way."""
    if not isinstance(values, list | tuple) or len(values) != teams:
        raise CanastaError(f"field '{field}': expected {teams} scores, one per side, got {_count(values)}")
    return [whole_number(v, f"{field}[{side}]", "a score", -SCORE_LIMIT, SCORE_LIMIT) for side, v in enumerate(values)]


def _count(values: Any) -> str:
    return f"{len(values)}" if isinstance(values, list | tuple) else found(values)
