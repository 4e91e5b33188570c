"""Checks that need several settings at once: what the engine needs of the seats, the deck and the deal.

Each parameter's range is checked where it is set; these checks catch combinations that no range can (three
players in two sides, eleven cards each to eight players from one pack). The deck and deal sizes are read from
their hooks' clauses, which take no variables, so a clause that computes them is checked as well as one that
names a parameter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ..engine.hooks import special_hand_name
from ..errors import Location, SpecError
from .layers import Flat
from .model import Clause, Parameter

#: What the engine can play, per hook the deal reads once: (fewest, most). Beyond these, a hand's moves are
#: too many to list in time.
ENGINE_LIMITS: Final[dict[str, tuple[int, int]]] = {
    "deck.packs": (1, 10),
    "deck.jokers": (0, 10),
    "deal.hand_size": (1, 30),
    "draw.count": (1, 10),
}
_CARDS_PER_PACK: Final = 52

#: A problem: where to point (None: nowhere known) and what to say.
Problem = tuple[Location | None, str]


def consistency_errors(flat: Flat, clauses: Mapping[str, Clause]) -> list[SpecError]:
    """The problems of ``consistency_problems`` as errors in the file that set the value to blame."""
    errors: list[SpecError] = []
    for location, message in consistency_problems(flat.parameters, clauses, flat.lineage):
        doc = flat.documents.get(location.file) if location else None
        errors.append(doc.error_at(location, message) if doc and location else SpecError(message, location))
    return errors


def consistency_problems(
    parameters: Mapping[str, Parameter], clauses: Mapping[str, Clause], lineage: Sequence[str] = ()
) -> list[Problem]:
    """What cannot work together; each points at the value set last among those involved (see ``_blame``)."""
    blame = _Blame(parameters, lineage)
    problems = _seat_problems(parameters, blame) + _lone_hand_problems(parameters, clauses, blame)
    problems += _special_hand_problems(clauses, blame)
    sizes: dict[str, int] = {}
    for hook, (low, high) in ENGINE_LIMITS.items():
        chosen = [clause for clause in clauses.values() if clause.hook == hook]
        if not chosen:
            continue
        where = blame.of(chosen)
        try:
            total = sum(int(clause.evaluate({})) for clause in chosen)
        except (ArithmeticError, LookupError, TypeError, ValueError) as exc:
            problems.append((where, f"cannot work out {hook} when the spec is loaded: {exc}"))
            continue
        if not low <= total <= high:
            problems.append((where, f"{hook} comes to {total}; the engine plays {low} to {high}"))
            continue
        sizes[hook] = total
    problems += _deal_problems(parameters, clauses, sizes, blame)
    return problems


def _seat_problems(parameters: Mapping[str, Parameter], blame: _Blame) -> list[Problem]:
    """Seat s plays for side s mod teams and asks seat s + teams: every side needs as many seats."""
    players, teams = _int(parameters, "players"), _int(parameters, "teams")
    if players is None or teams is None or teams <= 0 or players % teams == 0:
        return []
    message = (
        f"{players} players cannot sit in {teams} equal sides: players must be a multiple of teams "
        f"(seat s plays for side s mod teams)"
    )
    return [(blame.of_names(["players", "teams"]), message)]


def _lone_hand_problems(
    parameters: Mapping[str, Parameter], clauses: Mapping[str, Clause], blame: _Blame
) -> list[Problem]:
    """A lone hand (hook sides.lone_hand) leaves every other player on one side, and the cumulative scores are
    kept per side at the deal: so each player must start alone, with as many sides as players."""
    chosen = [clause for clause in clauses.values() if clause.hook == "sides.lone_hand"]
    players, teams = _int(parameters, "players"), _int(parameters, "teams")
    if not chosen or players is None or teams is None or players == teams:
        return []
    message = (
        f"sides.lone_hand needs each player to start on a side of their own: teams must equal players "
        f"({players} players, {teams} sides)"
    )
    return [(blame.of(chosen, ["players", "teams"]), message)]


def _special_hand_problems(clauses: Mapping[str, Clause], blame: _Blame) -> list[Problem]:
    """A special hand is declared by the last part of its clause's id: two ``special_hand.shape`` clauses may
    not share it, or a declaration could not say which it means."""
    named: dict[str, Clause] = {}
    problems: list[Problem] = []
    for clause in clauses.values():
        if clause.hook != "special_hand.shape":
            continue
        name = special_hand_name(clause.id)
        first = named.setdefault(name, clause)
        if first is not clause:
            message = (
                f"special_hand.shape clauses {first.id} and {clause.id} both name the special hand {name!r} "
                "(a hand is declared by the last part of its clause's id)"
            )
            problems.append((blame.of([clause]), message))
    return problems


def _deal_problems(
    parameters: Mapping[str, Parameter], clauses: Mapping[str, Clause], sizes: Mapping[str, int], blame: _Blame
) -> list[Problem]:
    """The deal and the upcard must leave at least one card in the stock."""
    players = _int(parameters, "players")
    wanted = ("deck.packs", "deck.jokers", "deal.hand_size")
    if players is None or players <= 0 or any(hook not in sizes for hook in wanted):
        return []
    packs, jokers, hand = (sizes[hook] for hook in wanted)
    deck = packs * (_CARDS_PER_PACK + jokers)
    needed = players * hand + 2
    if needed <= deck:
        return []
    message = (
        f"the deck is too small for the deal: {players} players of {hand} cards, the upcard and one card of "
        f"stock need {needed} cards, but {packs} packs with {jokers} jokers each make {deck}"
    )
    chosen = [clause for clause in clauses.values() if clause.hook in wanted]
    return [(blame.of(chosen, also=["players"]), message)]


def _int(parameters: Mapping[str, Parameter], name: str) -> int | None:
    param = parameters.get(name)
    if param is None or param.type != "int" or not isinstance(param.value, int):
        return None
    return param.value


class _Blame:
    """Where to point for a problem: at what was set last (deepest in the lineage, then latest in its file)
    among the parameters and clauses involved, for a child that breaks its parent is the one to fix."""

    def __init__(self, parameters: Mapping[str, Parameter], lineage: Sequence[str]) -> None:
        self.parameters = parameters
        self.depth = {variant: index for index, variant in enumerate(lineage)}

    def of(self, clauses: Sequence[Clause], also: Sequence[str] = ()) -> Location | None:
        names = [*also, *(name for clause in clauses for name in clause.parameters)]
        candidates = self._parameters(names)
        for clause in clauses:
            origin = clause.origin
            candidates.append(
                (self.depth.get(clause.declared_in, -1), Location(origin.file, origin.line, origin.column))
            )
        return self._last(candidates)

    def of_names(self, names: Sequence[str]) -> Location | None:
        return self._last(self._parameters(names))

    def _parameters(self, names: Sequence[str]) -> list[tuple[int, Location]]:
        params = [self.parameters[name] for name in names if name in self.parameters]
        return [(self.depth.get(param.set_in, -1), param.location) for param in params if param.location is not None]

    @staticmethod
    def _last(candidates: list[tuple[int, Location]]) -> Location | None:
        if not candidates:
            return None
        return max(candidates, key=lambda found: (found[0], found[1].line, found[1].column))[1]
