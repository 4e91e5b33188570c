"""Shrinking a deviating game: the game it was first seen in, played alone from its choices, made smaller.

A game is its list of choices (``choices``); a smaller game is a shorter list or smaller numbers in it, and it
counts only if it still shows a deviation of the same key. The passes, repeated while one helps and the budget
lasts (``seconds`` and ``max_runs`` a deviation): cut the list short (every later choice its lowest value: the
first legal action, no attempt meant to be refused, no prefix), lower each number (to its lowest, else by
halves), and delete runs of choices (a move left out). The smallest game found is kept: fewest steps, then the
shortest list, then the smallest numbers. Only the run count makes a shrink deterministic: with ``seconds``
spent first, a slower machine keeps a larger game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from .campaign_report import Example, GeneratedReport, ScenarioText, scenario_id_of
from .choices import Choices, random_choices, replayed
from .deviations import Deviation, DeviationKey
from .engines import EngineFailure
from .failures import Failure, scenario_yaml
from .generated_game import Disagreement, GameSkipped, Runner

#: A value is lowered by halving at most this many times a pass (a deck's seed would take 32).
HALVINGS = 8
#: The runs of choices a pass tries to delete, longest first.
DELETIONS = (8, 4, 2, 1)


class _Spent(Exception):
    """The shrinking budget of a deviation is spent."""


class GameShrinker:
    """Shrinks one game of a campaign towards the smallest that still shows one deviation key."""

    def __init__(self, runner: Runner, number: int, key: DeviationKey, *, seconds: float, max_runs: int) -> None:
        self.runner = runner
        self.number = number
        self.key = key
        self.max_runs = max_runs
        self.deadline = time.monotonic() + seconds
        self.runs = 0
        #: The engine could not be restarted after a failure: nothing more can be tried.
        self.broken = False
        self.best: Failure | None = None
        self.best_choices: list[int] = []

    def attempt(self, choices: Choices) -> tuple[Failure, list[int]] | None:
        """Play the game of ``choices``; the failure of the key and the choices it took, if it shows one."""
        runner = self.runner
        runner.game_number = self.number
        runner.target, runner.target_failures = self.key, []
        try:
            runner.game(choices)
        except Disagreement:
            return runner.target_failures[-1], list(choices.made)
        except GameSkipped:
            return None
        except EngineFailure:
            runner.channel.reset()
            try:
                runner.engine.restart()
            except EngineFailure:
                self.broken = True
            return None
        finally:
            runner.target = None
        return None

    def shrink(self, first: Choices) -> Failure | None:
        """The smallest failing game found from the game of ``first`` (None if that game does not fail)."""
        found = self.attempt(first)
        if found is None:
            return None
        self.best, self.best_choices = found
        try:
            improved = True
            while improved:
                improved = self.cut_short() | self.lower_each() | self.delete_runs()
        except _Spent:
            pass
        return self.best

    def better(self, candidate: Sequence[int]) -> bool:
        """Whether the game of ``candidate`` still fails and is smaller: then it is the best so far."""
        if self.broken or self.runs >= self.max_runs or time.monotonic() > self.deadline:
            raise _Spent
        self.runs += 1
        found = self.attempt(replayed(candidate))
        if found is None or self.best is None:
            return False
        failure, made = found
        if _size(failure, made) >= _size(self.best, self.best_choices):
            return False
        self.best, self.best_choices = failure, made
        return True

    def cut_short(self) -> bool:
        """The shortest beginning of the choices that still fails (a binary search)."""
        low, high, improved = 0, len(self.best_choices), False
        while low < high:
            middle = (low + high) // 2
            if self.better(self.best_choices[:middle]):
                improved, high = True, min(middle, len(self.best_choices))
            else:
                low = middle + 1
        return improved

    def lower_each(self) -> bool:
        """Each choice lowered: to its lowest value, else halved while that fails."""
        improved, index = False, 0
        while index < len(self.best_choices):
            value = self.best_choices[index]
            if value > 0 and self.better(_with(self.best_choices, index, 0)):
                improved = True
            else:
                for _ in range(HALVINGS):
                    value //= 2
                    if value == 0 or index >= len(self.best_choices):
                        break
                    if not self.better(_with(self.best_choices, index, value)):
                        break
                    improved = True
            index += 1
        return improved

    def delete_runs(self) -> bool:
        """Runs of choices deleted (the choices after them move up), from the end back."""
        improved = False
        for length in DELETIONS:
            index = len(self.best_choices) - length
            while index >= 0:
                choices = self.best_choices
                if self.better(choices[:index] + choices[index + length :]):
                    improved = True
                index = min(index, len(self.best_choices)) - 1
        return improved


def _with(values: Sequence[int], index: int, value: int) -> list[int]:
    out = list(values)
    out[index] = value
    return out


def _size(failure: Failure, choices: Sequence[int]) -> tuple[int, int, list[int]]:
    return len(failure.steps), len(choices), list(choices)


def shrink_deviation(
    runner: Runner, report: GeneratedReport, group: Deviation, *, seconds: float, max_runs: int
) -> Example:
    """The example of ``group`` with its first game shrunk (played again alone, from its own seed)."""
    example = report.examples[group.key]
    shrinker = GameShrinker(runner, group.first_game, group.key, seconds=seconds, max_runs=max_runs)
    best = shrinker.shrink(random_choices(report.seed, group.first_game))
    example.shrink_tried, example.shrink_runs = True, shrinker.runs
    if best is not None:
        best.game_number = group.first_game
        text = scenario_yaml(best, scenario_id_of(report.label, group), report.seed)
        example.shrunk = ScenarioText(best.message, text, len(best.steps), best.setup.variant)
    return example


def to_shrink(report: GeneratedReport) -> list[Deviation]:
    """The deviations a campaign shrinks: the first ``max_shrunk`` unmasked ones in the order first seen."""
    ordered = sorted(report.deviations, key=lambda d: (d.first_game, report.examples[d.key].order))
    return [d for d in ordered if d.mask is None][: report.max_shrunk]


__all__ = ["GameShrinker", "shrink_deviation", "to_shrink"]
