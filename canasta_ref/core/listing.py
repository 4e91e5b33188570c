"""The listing, built by the core: the parts it builds natively, each proved against the Python listing.

Today one part: the discards block's verdicts card by card (hooks ``discard.allowed`` and ``discard.preferred``),
the keys built in C from the core's table values and card facts and answered by its memo (``memo.py``), Python
asked only on a miss. Whether a discard may be made at all (the kind allowed, going out, a binding answer) is still
the Python listing's: the core lists no whole phase yet (README.md).
"""

from __future__ import annotations

from typing import Any

from ..engine.checks import DISCARD_ALLOWED, DISCARD_PREFERRED
from ..engine.rules import QUESTIONS, Rules
from .memo import NativeQuestion

_FAILING = QUESTIONS.index("failing")


class NativeDiscards:
    """The card types a seat may discard, by the spec's discard hooks, found by the core."""

    def __init__(self, rules: Rules) -> None:
        self.allowed = NativeQuestion(rules, DISCARD_ALLOWED, _FAILING).built_natively(("hand_after",))
        self.preferences = rules.clauses("discard.preferred")
        self.preferred: NativeQuestion | None = None
        if self.preferences:
            self.preferred = NativeQuestion(rules, DISCARD_PREFERRED, _FAILING, self._standing)
            self.preferred.built_natively(("hand_after",))

    def _standing(self, hook: str, values: dict[str, Any]) -> int:
        """How well a discard stands (``checks.discard_standing``): the place of the first ``discard.preferred``
        clause that passes it over, or the number of clauses if none does."""
        passed_over = self.allowed.rules.failing(hook, values)
        return len(self.preferences) if passed_over is None else self.preferences.index(passed_over)

    def of(self, position: Any, seat: int, hand_after: int) -> tuple[int, ...]:
        """The card types ``seat`` may discard from ``position``, leaving ``hand_after`` cards to play."""
        preferred = None if self.preferred is None else self.preferred.memo
        discards: tuple[int, ...] = position.discards(seat, hand_after, self.allowed.memo, preferred)
        return discards
