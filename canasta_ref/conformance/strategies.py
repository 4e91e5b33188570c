"""Hypothesis strategies for Canasta: deck orders, reachable positions, actions (legal or not) and whole games.

They are public, for anyone testing an engine with Hypothesis::

    from hypothesis import given
    from canasta_ref.conformance.strategies import actions, games, positions

    @given(games("classic"))
    def test_my_engine_agrees(played):
        ...  # replay played.setup and played.steps on your engine, compare with played.game

Every choice is a Hypothesis draw (no hidden ``random``), so failing examples shrink: towards deck seed 0, the
first seat, scores of 0, the first legal action of the reference's listing, fewer steps and no illegal attempts.

The reference interpreter (``canasta_ref.engine.game.Game``) decides what is legal; a move drawn as "illegal" is only
*meant* to be refused (the verdict is always asked of the reference, see :func:`verdict`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from ..engine.actions import Action, MeldGroup
from ..engine.cards import CARD_TYPES, JOKER, Card, cards_of, rank_of
from ..engine.game import Game, deck_for_seed
from ..engine.named import candidates
from ..engine.rules import Rules, rules_for
from ..errors import IllegalAction
from ..spec import list_variants
from .runner import deck_size
from .variants import reference_rules, with_parameters

if TYPE_CHECKING:  # Hypothesis is imported by the strategies when they are made: a campaign, which picks from its
    # own random choices, never imports it (half a second of every ``conform --games``)
    from hypothesis import strategies as st

T = TypeVar("T")

MoveKind = Literal["legal", "candidate", "not held", "wrong seat", "out of phase", "made up"]


class Draw(Protocol):
    """What draws a value from a strategy: ``st.DataObject.draw`` or the ``draw`` of ``st.composite``."""

    def __call__(self, strategy: st.SearchStrategy[T], /) -> T: ...


class Pick(Protocol):
    """What chooses a whole number from ``low`` to ``high`` (both included), shrinking towards ``low``."""

    def __call__(self, low: int, high: int, /) -> int: ...


def picker(draw: Draw) -> Pick:
    """A Pick drawing from Hypothesis through ``draw`` (of ``st.data()`` or of ``st.composite``)."""

    from hypothesis import strategies as st

    def pick(low: int, high: int) -> int:
        return draw(st.integers(low, high))

    return pick


@dataclass(frozen=True)
class Move:
    """An action sent for ``seat`` (``None``: the seat to act); ``kind`` says how it was made up."""

    action: Action
    seat: int | None = None
    kind: MoveKind = "legal"

    def __str__(self) -> str:
        return str(self.action) + (f" (seat {self.seat})" if self.seat is not None else "")


@dataclass(frozen=True)
class Setup:
    """How a hand starts: the variant, the deck in dealing order, the first seat and the scores before it."""

    variant: str
    deck: tuple[Card, ...]
    first_seat: int = 0
    team_scores: tuple[int, ...] = (0, 0)
    #: Parameters set apart from the variant's values (those an engine under test fixes), as sorted pairs.
    parameters: tuple[tuple[str, Any], ...] = ()

    def rules(self) -> Rules:
        """The reference's rules for this hand: the variant, with ``parameters`` set."""
        if not self.parameters:
            return reference_rules(self.variant)
        return rules_for(with_parameters(self.variant, dict(self.parameters)))

    def new_game(self) -> Game:
        return Game(self.rules(), deck=self.deck, team_scores=self.team_scores, first_seat=self.first_seat)


@dataclass(frozen=True)
class Played:
    """One move and the reference's verdict on it."""

    move: Move
    accepted: bool
    rule: str | None = None


@dataclass
class PlayedGame:
    """A hand played by the reference: its set-up, every move with its verdict, and the game afterwards."""

    setup: Setup
    steps: list[Played] = field(default_factory=list)
    game: Game | None = None


def hand_bound(rules: Rules) -> int:
    """How many actions a hand can last at most (see tests/engine/test_properties.py for the count): with a deck
    of n cards, draws <= n + 1, takes + melds <= n, and at most an ask, an answer and a discard besides each draw
    or take (868 for two packs with four jokers)."""
    cards = deck_size(rules)
    return 4 * (cards + 1) + 4 * cards


def starting_scores(rules: Rules) -> tuple[int, ...]:
    """Scores before the hand that a generated game may start from: the score at which each row of the
    variant's ``initial_meld_table`` starts (the rows are what the scores decide), a negative score standing for
    the row with no lower bound, after the others."""
    if "initial_meld_table" not in rules.variant.parameters:
        return (0,)
    table = rules.param("initial_meld_table")
    starts = [row["from"] for row in table if row["from"] is not None]
    below = [min(starts, default=0) - 100] if any(row["from"] is None for row in table) else []
    return tuple(starts + below) or (0,)


def choose(pick: Pick, options: Sequence[T]) -> T:
    """One of ``options`` (no draw at all when there is only one); shrinks towards the first."""
    if len(options) == 1:
        return options[0]
    return options[pick(0, len(options) - 1)]


def verdict(game: Game, move: Move) -> tuple[bool, str | None]:
    """Whether the reference accepts ``move`` now, and the rule it cites if not (nothing is applied)."""
    try:
        game.check(move.action, move.seat)
    except IllegalAction as refusal:
        return False, refusal.rule_id
    return True, None


def play(game: Game, move: Move) -> Played:
    """Apply ``move`` to the reference if it is legal; the verdict either way."""
    try:
        game.apply(move.action, move.seat)
    except IllegalAction as refusal:
        return Played(move, False, refusal.rule_id)
    return Played(move, True)


# -- choosing moves ------------------------------------------------------------------------------------------------
def choose_legal(pick: Pick, legal: Sequence[Action]) -> Action:
    """A legal action: first its kind (draw, take, meld, discard, ...), then one of that kind.

    Choosing the kind first keeps random play moving (a hand before its initial meld can have thousands of meld
    actions and a dozen discards)."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(action.kind, []).append(action)
    return choose(pick, choose(pick, list(kinds.values())))


class ByKind(Protocol):
    """Legal actions counted by kind (``LegalActions.kinds``, ``of_kind``): the kinds in the order each first
    appears in the listing with their counts, and the ``index``-th action of a kind."""

    def kinds(self) -> Sequence[tuple[str, int]]: ...

    def of_kind(self, kind: str, index: int) -> Action: ...


def choose_by_kind(pick: Pick, legal: ByKind) -> Action:
    """``choose_legal`` on the actions ``legal`` counts, from its counts by kind: the same picks with the same
    bounds, hence the same action, without making every action (a hand before its initial meld can have thousands
    of melds)."""
    kind, count = choose(pick, legal.kinds())
    return legal.of_kind(kind, choose(pick, range(count)))


def draw_move(pick: Pick, game: Game, legal: Sequence[Action] | None = None, *, illegal: int = 15) -> Move:
    """A move for the position of ``game``: legal, or (``illegal`` times in a hundred) one meant to be refused.

    ``legal`` is the reference's listing of the position, if the caller has it already."""
    if legal is None:
        legal = list(game.legal_actions())
    if legal and pick(0, 99) < 100 - illegal:
        return Move(choose_legal(pick, legal))
    return draw_illegal(pick, game, legal)


def draw_illegal(pick: Pick, game: Game, legal: Sequence[Action]) -> Move:
    """A move meant to be refused: a candidate the rules refuse, cards not held, the wrong seat, an action out of
    its phase, or a meld or take made up from the hand."""
    makers = (_candidate, _not_held, _wrong_seat, _out_of_phase, _made_up)
    start = pick(0, len(makers) - 1)
    for offset in range(len(makers)):
        move = makers[(start + offset) % len(makers)](pick, game, legal)
        if move is not None:
            return move
    return Move(Action.answer(True), kind="out of phase")


def _candidate(pick: Pick, game: Game, legal: Sequence[Action]) -> Move | None:
    """An action of the move generator's candidates that the rules refuse now."""
    listed = set(legal)
    refused = [a for a in itertools.islice(candidates(game.rules, game.state), 300) if a not in listed]
    return Move(choose(pick, refused), kind="candidate") if refused else None


def _missing(game: Game) -> list[Card]:
    hand = game.state.hands[game.to_act]
    return [c for c in range(CARD_TYPES) if hand[c] == 0]


def _not_held(pick: Pick, game: Game, legal: Sequence[Action]) -> Move | None:
    """A discard, meld or take naming a card the player does not hold."""
    missing = _missing(game)
    if not missing:
        return None
    card = choose(pick, missing)
    held = cards_of(game.state.hands[game.to_act])
    phase = game.state.phase
    if phase == "draw":
        return Move(Action.take([card, *held[:1]]), kind="not held")
    if phase == "play" and held and pick(0, 1):
        same = [c for c in held if rank_of(c) == rank_of(card)][:2]
        return Move(Action.meld([MeldGroup.of([card, *(same or held[:2])])]), kind="not held")
    return Move(Action.discard(card), kind="not held")


def _wrong_seat(pick: Pick, game: Game, legal: Sequence[Action]) -> Move | None:
    """A legal action, sent for a seat that is not to act."""
    if not legal:
        return None
    players = game.rules.players
    seat = (game.to_act + choose(pick, range(1, players))) % players
    return Move(choose_legal(pick, legal), seat, kind="wrong seat")


def _out_of_phase(pick: Pick, game: Game, legal: Sequence[Action]) -> Move | None:
    """An action of a kind the phase does not allow (a draw after drawing, a discard before, an answer unasked)."""
    held = cards_of(game.state.hands[game.to_act])
    some = held[0] if held else JOKER
    phase = game.state.phase
    options: list[Action]
    if phase == "draw":
        options = [Action.discard(some), Action.ask(), Action.answer(True), Action.answer(False)]
    elif phase == "play":
        options = [Action.draw(), Action.take(), Action.answer(True), Action.answer(False)]
    elif phase == "answer":
        options = [Action.draw(), Action.discard(some), Action.ask()]
    else:
        options = [Action.draw(), Action.discard(some)]
    return Move(choose(pick, options), kind="out of phase")


def _made_up(pick: Pick, game: Game, legal: Sequence[Action]) -> Move | None:
    """A meld (or a take, before drawing) made up from cards in hand: one rank, some wild cards."""
    rules = game.rules
    held = cards_of(game.state.hands[game.to_act])
    naturals = [c for c in held if not rules.is_wild[c]]
    wilds = [c for c in held if rules.is_wild[c]]
    phase = game.state.phase
    if phase == "draw" and game.state.pile and len(held) >= 2:
        first = pick(0, len(held) - 1)
        second = pick(0, len(held) - 1)
        pair = [held[first]] if first == second else [held[first], held[second]]
        return Move(Action.take(pair), kind="made up")
    if phase != "play" or not naturals:
        return None
    rank = rank_of(choose(pick, naturals))
    of_rank = [c for c in naturals if rank_of(c) == rank]
    group = of_rank[: pick(1, len(of_rank))] + wilds[: pick(0, min(3, len(wilds)))]
    return Move(Action.meld([MeldGroup.of(group)]), kind="made up")


# -- strategies ----------------------------------------------------------------------------------------------------
def _variants(variant: str | Sequence[str] | None) -> list[str]:
    if variant is None:
        return list_variants()
    return [variant] if isinstance(variant, str) else list(variant)


def decks(variant: str) -> st.SearchStrategy[list[Card]]:
    """Deck orders of the variant (every card of its packs, in dealing order), each from a seed: ``deck_for_seed``.

    Shrinks towards seed 0; the deck order of a seed is the same for every engine and Python version."""
    from hypothesis import strategies as st

    rules = reference_rules(variant)
    return st.integers(0, 2**32 - 1).map(lambda seed: deck_for_seed(rules, seed))


def pick_setup(pick: Pick, variants: Sequence[str]) -> Setup:
    """A set-up chosen by ``pick``: a variant (one of ``variants``), a deck order (from a seed, as ``decks``), the
    first seat and the scores before the hand."""
    name = choose(pick, variants)
    rules = reference_rules(name)
    deck = deck_for_seed(rules, pick(0, 2**32 - 1))
    first = pick(0, rules.players - 1)
    options = starting_scores(rules)
    scores = tuple(choose(pick, options) for _ in range(rules.teams))
    return Setup(name, tuple(deck), first, scores)


def setups(variant: str | Sequence[str] | None = None) -> st.SearchStrategy[Setup]:
    """A set-up: a variant (one of those given), a deck order, the first seat and the scores before the hand."""
    from hypothesis import strategies as st

    @st.composite
    def one(draw: Any) -> Setup:
        return pick_setup(picker(draw), _variants(variant))

    return one()


def positions(variant: str | Sequence[str] | None = None, max_steps: int = 200) -> st.SearchStrategy[Game]:
    """A random reachable position: a deal, then up to ``max_steps`` random legal actions (fewer if the hand ends).

    The position is the reference's ``Game`` (its ``history`` lists the actions played)."""
    from hypothesis import strategies as st

    @st.composite
    def one(draw: Any) -> Game:
        setup: Setup = draw(setups(variant))
        game = setup.new_game()
        steps: int = draw(st.integers(0, max_steps))
        for _ in range(steps):
            legal = list(game.legal_actions())
            if not legal:
                break
            game.apply(choose_legal(picker(draw), legal))
        return game

    return one()


def actions(game: Game, *, illegal: int = 15) -> st.SearchStrategy[Move]:
    """A move for the current position of ``game``: a legal action, or (``illegal``% of the time) a move meant to
    be refused (a candidate the rules refuse, a card not held, the wrong seat, an action out of its phase, a meld
    made up from the hand). The position is read when the strategy is drawn from, so draw right away."""
    from hypothesis import strategies as st

    @st.composite
    def one(draw: Any) -> Move:
        return draw_move(picker(draw), game, illegal=illegal)

    return one()


def games(
    variant: str | Sequence[str] | None = None, max_steps: int = 120, *, illegal: int = 15
) -> st.SearchStrategy[PlayedGame]:
    """A hand played by the reference for up to ``max_steps`` moves (legal ones and attempts meant to be refused),
    with the reference's verdict on each. Use ``played.setup`` and ``[s.move for s in played.steps]`` to replay it on
    an engine, and ``played.game`` (the reference afterwards) to compare."""
    from hypothesis import strategies as st

    @st.composite
    def one(draw: Any) -> PlayedGame:
        setup = draw(setups(variant))
        game = setup.new_game()
        played = PlayedGame(setup)
        for _ in range(max_steps):
            if game.is_over:
                break
            played.steps.append(play(game, draw_move(picker(draw), game, illegal=illegal)))
        played.game = game
        return played

    return one()


__all__ = [
    "Draw",
    "Move",
    "Pick",
    "Played",
    "PlayedGame",
    "Setup",
    "actions",
    "choose",
    "choose_by_kind",
    "choose_legal",
    "decks",
    "draw_illegal",
    "draw_move",
    "games",
    "hand_bound",
    "pick_setup",
    "picker",
    "play",
    "positions",
    "setups",
    "starting_scores",
    "verdict",
]
