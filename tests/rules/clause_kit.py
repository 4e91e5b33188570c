"""Helpers of the rule-clause tests: positions written card by card, child specs, and a log of clause sides.

Every test of a clause goes through a ``ClauseLog``: ``allows`` / ``refuses`` for require clauses,
``truth`` for predicates and ``value`` for value clauses. Each records the (clause, side) it exercises, so a
final test per variant can check that every clause was tested both ways; each also runs the engine with rule
coverage switched on, so a second, independent check sees which outcomes the engine itself produced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from canasta_ref import Game, IllegalAction, Rules, load_variant, parse_action, parse_cards
from canasta_ref.engine.actions import Action
from canasta_ref.engine.cards import Card, counts_of, full_deck
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Coverage

# The two sides every clause is tested on, by hook kind: a require clause allows or refuses, a predicate is
# true or false, a value clause gives the number the rule states ("value") or, in another situation or under
# another parameter value, a different number ("other").
# A fixed clause (``Clause.fixed``: it reads no variable and no parameter) has only the side on which it holds.
SIDES: dict[str, tuple[str, str]] = {
    "require": ("allowed", "refused"),
    "predicate": ("true", "false"),
    "value": ("value", "other"),
}


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def act(action: str | Action) -> Action:
    return parse_action(action) if isinstance(action, str) else action


class ClauseLog:
    """Which sides of which clauses of one variant the tests exercised, and what the engine's coverage saw."""

    def __init__(self, variant_id: str) -> None:
        self.variant = load_variant(variant_id)
        self.rules = Rules(self.variant)
        self.kinds = {clause.id: clause.kind for clause in self.variant.clauses.values()}
        self.sides = {
            clause.id: SIDES[clause.kind][:1] if clause.fixed else SIDES[clause.kind]
            for clause in self.variant.clauses.values()
        }
        self.seen: dict[str, set[str]] = {}
        self.coverage = Coverage()

    # -- recording -------------------------------------------------------------------------------------
    def mark(self, clause_id: str, side: str) -> None:
        assert clause_id in self.kinds, f"{clause_id} is not a clause of {self.variant.id}"
        assert side in self.sides[clause_id], f"{side!r} is not a side of {clause_id} ({self.kinds[clause_id]})"
        self.seen.setdefault(clause_id, set()).add(side)

    @contextmanager
    def watch(self, rules: Rules) -> Iterator[Coverage]:
        """Switch rule coverage on for one step; the outcomes are kept for the final coverage check."""
        previous = rules.coverage
        coverage = Coverage()
        rules.coverage = coverage
        try:
            yield coverage
        finally:
            rules.coverage = previous
            for clause_id, outcomes in coverage.outcomes.items():
                self.coverage.outcomes.setdefault(clause_id, set()).update(outcomes)
                if previous is not None:  # a watch inside another: the outer one sees it all too
                    previous.outcomes.setdefault(clause_id, set()).update(outcomes)

    # Each helper records its side before checking, so a test that fails on an engine bug still counts as the
    # test of that side: the failure itself reports the bug, and the meta-test only asks that a test exist.

    # -- require clauses -------------------------------------------------------------------------------
    def allows(self, game: Game, action: str | Action, clause_id: str, seat: int | None = None) -> list[Any]:
        """Apply ``action``; it must be legal, and ``clause_id`` must have been consulted and have held."""
        self.mark(clause_id, "allowed")
        action = act(action)
        assert game.is_legal(action, seat), f"{action} should be legal: {_why(game, action, seat)}"
        if _enumerable(game, seat):
            assert action in list(game.legal_actions()), f"legal_actions() does not list {action}"
        with self.watch(game.rules) as coverage:
            events = game.apply(action, seat)
        assert "allowed" in coverage.outcomes.get(clause_id, set()), f"{clause_id} was not consulted by {action}"
        return events

    def refuses(self, game: Game, action: str | Action, clause_id: str, seat: int | None = None) -> IllegalAction:
        """``action`` must be refused citing exactly ``clause_id``, leaving the position untouched."""
        self.mark(clause_id, "refused")
        action = act(action)
        before = game.state.copy()
        with self.watch(game.rules), pytest.raises(IllegalAction) as info:
            game.apply(action, seat)
        assert info.value.rule_id == clause_id, f"{action}: refused by {info.value.rule_id}, expected {clause_id}"
        assert game.state == before, "a refused action changed the position"
        assert not game.is_legal(action, seat)
        if _enumerable(game, seat):
            assert action not in list(game.legal_actions()), f"legal_actions() lists the refused {action}"
        return info.value

    # -- predicates and values -------------------------------------------------------------------------
    def truth(
        self, rules: Rules, clause_id: str, expected: bool, run: Callable[[], Any], *, mixed_ok: bool = False
    ) -> Any:
        """Run ``run`` (which makes the engine ask the clause's hook); the clause must have said ``expected``,
        and only that. ``mixed_ok``: ``run`` asks the clause many times (a whole match), so it may also have
        said the other answer on the way, as long as it said ``expected`` at least once."""
        side = "true" if expected else "false"
        self.mark(clause_id, side)
        with self.watch(rules) as coverage:
            result = run()
        said = coverage.outcomes.get(clause_id, set())
        assert said, f"{clause_id} was not consulted"
        assert side in said, f"{clause_id} said {sorted(said)}, expected {expected}"
        if not mixed_ok:
            assert said == {side}, f"{clause_id} said {sorted(said)}, expected only {expected}"
        return result

    def predicate(self, rules: Rules, hook: str, env: Mapping[str, Any], clause_id: str, expected: bool) -> bool:
        """Ask a predicate hook directly; ``clause_id`` must say ``expected`` (the hook's answer is returned)."""
        return bool(self.truth(rules, clause_id, expected, lambda: rules.predicate(hook, env)))

    def value(self, clause_id: str, got: object, expected: object, side: str = "value") -> None:
        self.mark(clause_id, side)
        assert got == expected, f"{clause_id}: got {got}, expected {expected}"

    def component(self, rules: Rules, hook: str, env: Mapping[str, Any], clause_id: str) -> int:
        with self.watch(rules):
            return rules.components(hook, env)[clause_id]

    def score_part(self, game: Game, team: int, clause_id: str, expected: int, side: str = "value") -> None:
        with self.watch(game.rules):
            parts = game.score().sides[team].parts
        self.value(clause_id, parts[clause_id], expected, side)

    # -- the final checks -----------------------------------------------------------------------------
    def missing_sides(self) -> list[str]:
        out = []
        for clause_id, sides in self.sides.items():
            for side in sides:
                if side not in self.seen.get(clause_id, set()):
                    out.append(f"{clause_id}: {side}")
        return out

    def missing_coverage(self) -> list[str]:
        out = []
        for clause_id, clause in self.variant.clauses.items():
            got = self.coverage.outcomes.get(clause_id, set())
            for outcome in sorted(set(clause.outcomes) - got):
                out.append(f"{clause_id}: {outcome}")
        return out

    def assert_all_sides(self) -> None:
        """Every side of every clause was exercised by some test (run after all the variant's tests)."""
        missing = self.missing_sides()
        assert not missing, "clause sides no test exercised:\n" + "\n".join(missing)

    def assert_engine_coverage(self) -> None:
        """The engine's rule coverage saw every outcome of every clause (run after all the variant's tests)."""
        missing = self.missing_coverage()
        assert not missing, "outcomes the engine's rule coverage never recorded:\n" + "\n".join(missing)


# Listing every legal action of a hand holding the rest of the deck (see ``table``'s ``stock``) would take
# too long; such positions are checked with ``is_legal`` alone.
ENUMERATE_HAND_LIMIT = 20


def _enumerable(game: Game, seat: int | None) -> bool:
    actor = game.to_act
    return (seat is None or seat == actor) and game.state.hand_sizes[actor] <= ENUMERATE_HAND_LIMIT


def _why(game: Game, action: Action, seat: int | None) -> str:
    try:
        game.check(action, seat)
    except IllegalAction as error:
        return f"refused by {error.rule_id}: {error.explanation}"
    return "legal"


# -- positions -----------------------------------------------------------------------------------------
def _per_seat(given: Mapping[int, str] | Sequence[str] | None, size: int) -> list[list[Card]]:
    out: list[list[Card]] = [[] for _ in range(size)]
    items = given.items() if isinstance(given, Mapping) else enumerate(given or ())
    for index, text in items:
        out[index] = cards(text)
    return out


def table(
    rules: Rules,
    *,
    hands: Mapping[int, str] | Sequence[str],
    pile: str = "",
    melds: Mapping[int, Sequence[str]] | None = None,
    bonus: Mapping[int, str] | None = None,
    stock: str | None = None,
    stock_top: str = "",
    scores: Sequence[int] | None = None,
    phase: str = "draw",
    upcard_froze: bool = False,
    seat_melded: Sequence[int] = (),
) -> Game:
    """A game from a written position, seat 0 to act. Seats not given hold no cards.

    ``stock_top`` puts these cards on top of the stock (first drawn first), the rest of the deck below them.
    ``stock`` makes the stock exactly these cards (``""``: empty); the cards placed nowhere else then go to
    the hand of the last seat, an opponent of seat 0.
    """
    players = rules.players
    hand_cards = _per_seat(hands, players)
    meld_cards = [[cards(m) for m in (melds or {}).get(team, ())] for team in range(rules.teams)]
    bonus_cards = _per_seat(bonus, players)
    pile_cards = cards(pile)
    remaining = counts_of(full_deck(rules.packs, rules.jokers_per_pack))
    placed = [c for h in hand_cards for c in h] + pile_cards
    placed += [c for team in meld_cards for m in team for c in m] + [c for b in bonus_cards for c in b]
    for card in placed:
        remaining[card] -= 1
        assert remaining[card] >= 0, f"too many copies of {card} in the position"
    rest: list[Card] = []
    for card in full_deck(rules.packs, rules.jokers_per_pack):
        if remaining[card]:
            remaining[card] -= 1
            rest.append(card)
    if stock is None:
        top = cards(stock_top)
        for card in top:
            rest.remove(card)
        stock_cards = top + rest
    else:
        assert not stock_top
        stock_cards = cards(stock)
        for card in stock_cards:
            rest.remove(card)
        hand_cards[players - 1].extend(rest)
    position = Position(
        hands=hand_cards,
        pile=pile_cards,
        stock=stock_cards,
        melds=meld_cards,
        bonus=bonus_cards,
        team_scores=list(scores) if scores is not None else [0] * rules.teams,
        phase=phase,  # type: ignore[arg-type]
        upcard_froze=upcard_froze,
        seat_melded=[seat in seat_melded for seat in range(players)],
    )
    return Game.from_position(rules, position)


def dealt(
    rules: Rules,
    *,
    hands: Mapping[int, str],
    upcards: str = "",
    stock_top: str = "",
) -> Game:
    """A game dealt by seat 0 first from a deck built so that each seat gets the cards given (topped up with
    plain cards), then ``upcards`` are turned and ``stock_top`` lies on top of the stock."""
    players = rules.players
    size = rules.hand_size
    remaining = counts_of(full_deck(rules.packs, rules.jokers_per_pack))
    wanted = {seat: cards(text) for seat, text in hands.items()}
    fixed = [c for h in wanted.values() for c in h] + cards(upcards) + cards(stock_top)
    for card in fixed:
        remaining[card] -= 1
        assert remaining[card] >= 0
    # Plain fillers: natural cards of ranks 4 to ace, never wild and never a three.
    fillers = [c for c in full_deck(rules.packs, rules.jokers_per_pack) if 8 <= c < 52]
    pool: list[Card] = []
    for card in fillers:
        if remaining[card]:
            remaining[card] -= 1
            pool.append(card)
    full_hands: list[list[Card]] = []
    for seat in range(players):
        hand = list(wanted.get(seat, []))
        while len(hand) < size:
            hand.append(pool.pop())
        full_hands.append(hand)
    deck: list[Card] = []
    for round_ in range(size):
        for seat in range(players):
            deck.append(full_hands[seat][round_])
    deck += cards(upcards) + cards(stock_top)
    leftover = counts_of(pool)
    for card in range(len(remaining)):
        leftover[card] += remaining[card]
    for card in full_deck(rules.packs, rules.jokers_per_pack):
        if leftover[card]:
            leftover[card] -= 1
            deck.append(card)
    return Game(rules, deck=deck)


def deck_red_threes_last(rules: Rules) -> list[Card]:
    """The unshuffled deck with its bonus cards (red threes) moved to the bottom, so that the deal gives none of
    them out."""
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    return [c for c in deck if not rules.is_bonus[c]] + sorted(c for c in deck if rules.is_bonus[c])


# -- child specs ---------------------------------------------------------------------------------------
def child_spec(
    folder: Path, parent: str, name: str, parameters: Mapping[str, object] | None = None, rules_yaml: str = ""
) -> Rules:
    """Rules of a spec that extends ``parent`` with other parameter values (and optionally replaced clauses)."""
    lines = [
        "spec: 1",
        f"id: {name}",
        f"name: Test variant {name}",
        "description: A variant written by the clause tests.",
        f"extends: {parent}",
    ]
    if parameters:
        lines.append("parameters:")
        for key, value in parameters.items():
            lines.append(f"  {key}: {{value: {_yaml(value)}}}")
    if rules_yaml:
        lines.append("rules:")
        lines.append(rules_yaml.rstrip())
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Rules(load_variant(path))


def _yaml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def replaced_clause(clause_id: str, hook: str, section: str, field: str, expression: str) -> str:
    """YAML for a rule that replaces ``clause_id`` with another expression."""
    return (
        f"  - id: {clause_id}\n"
        "    replaces: true\n"
        f"    section: {section}\n"
        "    title: Replaced by a test\n"
        "    text: Replaced by a test.\n"
        '    sources: [{source: canasta-ref, quote: "test"}]\n'
        f"    hook: {hook}\n"
        f'    {field}: "{expression}"\n'
    )
