"""A hand of Canasta: deal, legal actions (lazy), apply and undo, views and the score.

Modelled on python-chess: ``legal_actions()`` is a lazy collection with ``count()`` and ``in``; ``apply`` /
``undo`` push and pop; an illegal action raises IllegalAction (a ValueError) citing the rule it breaks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Final, NamedTuple

from ..errors import CanastaError
from ..spec.model import Variant
from .actions import BARE_KINDS, Action, MeldGroup
from .blocks import Listing
from .cards import CARD_TYPES, Card, card_name, cards_of, format_cards, full_deck
from .checks import (
    BONUS_REPLACE,
    ENDS_WITH_DISCARD,
    LAST_CARD_BONUS_ENDS,
    Plan,
    answerer,
    apply_combine,
    apply_meld,
    canastas,
    concealed_now,
    derived,
    is_canasta,
    may_keep_bonus,
    meld_kind,
    must_take_pile,
    opening_bonus,
    pile_frozen,
    takes_top_only,
    turn_card_drawn,
)
from .cores import choose_core, native_game_class
from .judge import is_legal, plan, plan_checked
from .legal import listing
from .numbers import hand_number as checked_hand_number
from .numbers import team_scores as checked_scores
from .position import Position, build_state, push_pile
from .rules import Rules, rules_for
from .scoring import HandScore, score_hand
from .sides import maybe_form_lone_hand
from .special import declared_cards, declared_counts
from .state import HandState, Meld


class Event(NamedTuple):
    """Something that happened, for logs: who, what, which cards."""

    seat: int
    what: str
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return f"{self.what} {format_cards(self.cards)}".strip()


class LegalActions:
    """The legal actions of a position (like python-chess's ``legal_moves``), kept as blocks that count and index
    without listing every action: ``len`` and ``count()``, ``legal[i]`` (so ``random.choice(legal)`` is a uniform
    choice), ``sample(rng)`` and ``in`` cost what the structure costs, not what the list would; iterating lists
    them in canonical order."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Action]:
        return self._game._list_legal()

    def __len__(self) -> int:
        return self._game._listing().count()

    def __getitem__(self, index: int) -> Action:
        action = self._game._listing()[index]
        self._game._issued().append(action)
        return action

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._game.is_legal(action)

    def __bool__(self) -> bool:
        return bool(self._game._listing())

    def count(self) -> int:
        """How many legal actions there are, exactly (``len`` too, up to ``sys.maxsize``)."""
        return self._game._listing().count()

    def kinds(self) -> list[tuple[str, int]]:
        """The kinds of the legal actions, in the order each first appears in the listing, each with how many
        actions it has (``blocks.Listing.kinds``): a choice of kind, then of one action of it, costs no listing."""
        return self._game._listing().kinds()

    def of_kind(self, kind: str, index: int) -> Action:
        """The ``index``-th legal action of ``kind`` in listing order (``blocks.Listing.of_kind``)."""
        action = self._game._listing().of_kind(kind, index)
        self._game._issued().append(action)
        return action

    def sample(self, rng: random.Random) -> Action:
        """One legal action drawn uniformly at random with ``rng``, the same for the same seed: the action at
        ``rng.randrange(len(legal))``, which is ``legal[that index]`` in every variant and position except two kinds
        of a side not opened where the listing walks actions that lay a sequence or two groups of one rank (Samba,
        Bolivia): its openings, and its takes of the pile. An index among those gives the action the counter orders
        there (``blocks.CountedWalk.draw``; ``takecount.TakeCounter``), not the walk's, so that a big hand draws
        without walking. Raises IndexError when there is none."""
        total = self.count()
        if not total:
            raise IndexError("there is no legal action to sample")
        action = self._game._listing().draw(rng.randrange(total))
        self._game._issued().append(action)
        return action

    def __repr__(self) -> str:
        total = self.count()
        if total > 50:
            return f"<LegalActions ({total} actions: {', '.join(str(self[i]) for i in range(5))}, ...)>"
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


def deck_for_seed(rules: Rules, seed: int | str) -> list[Card]:
    """The shuffled deck for a seed: the same seed always gives the same order."""
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    random.Random(seed).shuffle(deck)
    return deck


def _lift_top_card(rules: Rules, state: HandState) -> None:
    """Take the pile's top card away alone, keeping the counts that decide whether the rest is frozen."""
    card = state.pile.pop()
    if rules.is_wild[card]:
        state.pile_wilds -= 1
    facts = rules.card_facts(card)
    state.pile_red_threes -= facts["is_red_three"]
    state.pile_black_threes -= facts["is_black_three"]


#: What the log says when laying out a bonus card empties the stock (its replacement was the stock's last card).
_LAID_OUT_LAST: Final = "laid out a bonus card and the stock ran out"


def _event(seat: int, what: str, cards: tuple[Card, ...] = ()) -> Event:
    """An Event, built without the named tuple's Python-level constructor (every action logs one or more)."""
    return tuple.__new__(Event, (seat, what, cards))


def _meld_event(seat: int, group: MeldGroup) -> Event:
    """What a group laid says in the log: the meld it joins, where the action names one."""
    return _event(seat, f"adds to meld @{group.target}" if group.target else "melds", group.cards)


def _meld_view(rules: Rules, meld: Meld) -> dict[str, Any]:
    """A meld as views show it; whether it is closed only in a variant that closes melds (hook meld.closed)."""
    shown: dict[str, Any] = {"cards": [card_name(c) for c in meld.cards], "canasta": is_canasta(rules, meld)}
    if rules.closes_melds:
        shown["closed"] = meld.closed
    if rules.names_melds:
        shown["kind"] = meld_kind(meld.rank)
    return shown


def _check_deck(rules: Rules, deck: Sequence[Card]) -> None:
    expected = sorted(full_deck(rules.packs, rules.jokers_per_pack))
    if sorted(deck) != expected:
        raise CanastaError(
            f"the deck must hold exactly the {len(expected)} cards of {rules.packs} packs with "
            f"{rules.jokers_per_pack * rules.packs} jokers; got {len(deck)} cards"
        )


class Game:
    """One hand. ``deck`` lists the cards in dealing order: the first card goes to the first player."""

    def __new__(cls, *positional: Any, **arguments: Any) -> Any:
        """A game asking for the native core (``core="native"``) is a game of the class that plays on it, where the
        core is built (``engine.cores``): made whole here, as it holds a ``Game`` rather than extending one (a mypyc
        build compiles this class), so Python does not run ``__init__`` on it again; it has this class's public
        API. Any other game is of this class (a copy too, made without arguments). ``Any``: a declared ``Game``
        would be checked by mypyc on the way out."""
        if cls is Game and arguments.get("core") == "native":
            native = native_game_class()
            if native is not None:
                return native(*positional, **arguments)
        return super().__new__(cls)  # as written: mypyc compiles this call to the class's own set-up

    def __init__(
        self,
        variant: Variant | Rules,
        *,
        seed: int | str | None = None,
        deck: Sequence[Card] | None = None,
        team_scores: Sequence[int] | None = None,
        first_seat: int = 0,
        position: Position | None = None,
        hand_number: int = 1,
        core: str = "python",
    ) -> None:
        self.rules = variant if isinstance(variant, Rules) else rules_for(variant)
        rules = self.rules
        #: The core that plays this hand ("python" or "native", see ``engine.cores``), and why it is not the one
        #: asked for ('' when it is).
        self.core, self.core_note = choose_core(rules, core)
        self.seed = seed
        self.events: list[Event] = []
        self.history: list[Action] = []
        self._stack: list[tuple[Any, ...]] = []  # a snapshot of the position before each action
        self._event_counts: list[int] = []  # and how many events there were (a list apart: no tuple to track)
        if position is not None:
            self.state, position_deck = build_state(rules, position)
            self.deck = tuple(position_deck)
            self.first_seat = position.to_act
            return
        if deck is None:
            deck = deck_for_seed(rules, 0 if seed is None else seed)
        else:
            _check_deck(rules, deck)  # (a seed's deck is a shuffle of the full deck: complete by construction)
        self.deck = tuple(deck)
        self.first_seat = self._seat(first_seat)
        scores = [0] * rules.teams if team_scores is None else checked_scores(team_scores, rules.teams, "team_scores")
        number = checked_hand_number(hand_number, "hand_number")
        self.state = self._deal(list(deck), scores, first_seat, self.events)
        self.state.hand_number = number

    @classmethod
    def from_position(cls, variant: Variant | Rules, position: Position, core: str = "python") -> Game:
        """A hand starting from a position written out card by card, rather than from a deal. On the native core
        ``Game(...)``, not ``cls(...)``: mypyc checks that the latter made a ``Game``, and a game on the core is not
        one (``__new__``); elsewhere ``cls(...)``, as mypyc's direct ``Game(...)`` loses an error ``__init__``
        raises (a SystemError)."""
        if cls is Game and core == "native":
            return Game(variant, position=position, core=core)
        return cls(variant, position=position, core=core)

    # -- dealing ---------------------------------------------------------------------------------------
    def _deal(self, deck: list[Card], team_scores: list[int], first: int, events: list[Event]) -> HandState:
        rules = self.rules
        players = rules.players
        if (rules.hand_size + rules.foot_size) * players + sum(rules.talon_sizes) >= len(deck):
            set_aside = f" and talons of {sum(rules.talon_sizes)}" if rules.talon_sizes else ""
            raise CanastaError(
                f"a deal of {rules.hand_size + rules.foot_size} cards to {players} players{set_aside} needs more than "
                f"{len(deck)} cards"
            )
        order = [(first + i) % players for i in range(players)]
        dealt = [[0] * CARD_TYPES for _ in range(players)]
        position = 0
        for _ in range(rules.hand_size):
            for seat in order:
                dealt[seat][deck[position]] += 1
                position += 1
        hands = [tuple(counts) for counts in dealt]
        in_hands = position
        # The feet are dealt after the hands, one card a seat in turn (the order is this project's convention:
        # the sources deal them as separate piles, which gives each seat a foot just as random).
        dealt_feet: list[list[Card]] = [[] for _ in range(players)] if rules.foot_size else []
        for _ in range(rules.foot_size):
            for seat in order:
                dealt_feet[seat].append(deck[position])
                position += 1
        # The talons follow, the first side to meld's first (the sources set them aside "during the deal"; when
        # is this project's convention).
        talons: list[tuple[Card, ...]] = []
        for size in rules.talon_sizes:
            talons.append(tuple(deck[position : position + size]))
            position += size
        stock = list(reversed(deck[position:]))
        state = HandState(
            stock=stock,
            pile=[],
            hands=hands,
            hand_sizes=[rules.hand_size] * players,
            melds=[() for _ in range(rules.teams)],
            bonus=[() for _ in range(players)],
            team_scores=team_scores,
            to_act=first,
            team_opened=[False] * rules.teams,
            seat_melded=[False] * players,
            side_of=rules.initial_sides(),
            feet=[tuple(foot) for foot in dealt_feet],
            talons=talons,
        )
        if rules.coverage is not None:
            for hook in ("deck.packs", "deck.jokers", "deal.hand_size", "deal.foot_size", "deal.no_upcard"):
                rules.note(hook, {})
            for hook in ("stock.turn_card_depth", "bonus_draw.from_talons"):
                rules.note(hook, {})
            for card in set(deck[:in_hands]):
                rules.note_card("bonus_card", card)
        if not rules.no_upcard:
            self._turn_upcard(state, events)
        if rules.coverage is not None:
            rules.note("bonus_card.at_first_turn", {})
        if rules.bonus_at_first_turn:
            state.awaiting_first_turn = [True] * players
            self._begin_first_turn(state, events)
            return state
        for seat in order:
            self._lay_out_bonus_cards(state, seat, events)
        return state

    def _begin_first_turn(self, state: HandState, events: list[Event]) -> None:
        """At the first turn of a seat whose dealt bonus cards waited for it, lay them out and replace them."""
        seat = state.to_act
        if not state.awaiting_first_turn[seat]:
            return
        state.awaiting_first_turn[seat] = False
        dealt = cards_of(state.hands[seat])
        self._lay_out_or_end(state, seat, events, _LAID_OUT_LAST, dealt)

    def _lay_out_or_end(
        self, state: HandState, seat: int, events: list[Event], ending: str, received: Sequence[Card] = ()
    ) -> None:
        """Lay out the bonus cards a player has just ``received`` (and any held); if the stock runs out replacing
        them, say so (``ending``) and end play."""
        if not self._lay_out_bonus_cards(state, seat, events, received):
            self._stock_ran_out(state, seat, events, ending)

    def _stock_ran_out(self, state: HandState, seat: int, events: list[Event], ending: str) -> None:
        """Play ends because laying out a bonus card emptied the stock; ``ending`` says how."""
        events.append(_event(seat, ending))
        self._end(state, "last stock card was a bonus card")

    def _note_received(self, cards: Sequence[Card]) -> None:
        """Record, for rule coverage, that each card a player received was asked whether it is a bonus card."""
        for card in set(cards):
            self.rules.note_card("bonus_card", card)

    def _turn_upcard(self, state: HandState, events: list[Event]) -> None:
        rules = self.rules
        burials = len(state.stock)  # a stock of nothing but cards to bury turns each once, then stops
        while state.stock:
            card = state.stock.pop()
            rules.note_card("upcard.buried", card)
            if rules.upcard_buried[card] and burials:
                # The bottom of the stock: the seed says only "buried"; where is this project's convention.
                burials -= 1
                state.stock.insert(0, card)
                events.append(_event(-1, "upcard buried in the stock", (card,)))
                continue
            push_pile(self.rules, state, card)
            rules.note_card("upcard.freezes", card)
            rules.note_card("upcard.turn_again", card)
            if rules.upcard_freezes[card]:
                state.upcard_froze = True
            events.append(_event(-1, "upcard", (card,)))
            if not rules.upcard_turns_again[card]:
                break

    def _lay_out_bonus_cards(
        self, state: HandState, seat: int, events: list[Event], received: Sequence[Card] = ()
    ) -> bool:
        """Lay out bonus cards (red threes) from a hand and replace them; False if play must end. Where the player
        may keep one of the cards just ``received`` (hook bonus_card.keep), play waits for that choice instead
        (phase keep), and a card kept before stays in hand until then."""
        rules = self.rules
        while True:
            if rules.keeps_bonus and may_keep_bonus(rules, state, seat):
                if any(rules.is_bonus[card] for card in received):
                    state.resume_phase = state.phase
                    state.phase = "keep"
                return True
            found = self._bonus_cards_held(state, seat)
            if not found:
                return True
            replacements = self._lay_out(state, seat, found, events)
            if replacements is None:
                return False
            received = replacements

    def _lay_out(self, state: HandState, seat: int, cards: Sequence[Card], events: list[Event]) -> list[Card] | None:
        """Lay out these bonus cards from a hand and draw their replacements (hook bonus_card.replace); the cards
        drawn, or None if play must end."""
        rules = self.rules
        replacements: list[Card] = []
        for card in dict.fromkeys(cards):  # each kind once, in the order given
            count = cards.count(card)
            state.take_away(seat, (card,) * count)
            state.bonus[seat] += (card,) * count
            events.append(_event(seat, "lays out", (card,) * count))
            if not rules.predicate_of(BONUS_REPLACE, (False, len(state.stock))):
                continue
            for _ in range(count):
                if not state.stock:
                    if rules.predicate_of(LAST_CARD_BONUS_ENDS, (0,)):
                        return None
                    state.last_card_bonus = True
                    events.append(_event(seat, "drew a bonus card as the last card of the stock: no discard"))
                    break
                drawn = state.stock.pop()
                state.give(seat, (drawn,))
                replacements.append(drawn)
                events.append(_event(seat, "replaces with", (drawn,)))
                self._announce_turn_card(state, seat, events)
                if self._last_card_kept(state, (drawn,), seat, events):
                    return None
        return replacements

    def _apply_keep(self, seat: int, action: Action, events: list[Event]) -> None:
        """The player's choice while play waits on bonus cards: keep one in hand (``keep``), laying out the
        others, or lay them all out (``layout``); then the turn goes on where it stood."""
        state = self.state
        state.phase = state.resume_phase
        cards = self._bonus_cards_held(state, seat)
        if action.kind == "keep":
            cards.remove(action.cards[0])
            events.append(_event(seat, "keeps a bonus card in hand"))
        replacements = self._lay_out(state, seat, cards, events) if cards else []
        if replacements is None:
            self._stock_ran_out(state, seat, events, _LAID_OUT_LAST)
        else:
            self._lay_out_or_end(state, seat, events, _LAID_OUT_LAST, replacements)

    def _bonus_cards_held(self, state: HandState, seat: int) -> list[Card]:
        """The bonus cards in a seat's hand, a copy each, in card order."""
        hand = state.hands[seat]
        return [card for card in self.rules.bonus_cards for _ in range(hand[card])]

    def _announce_turn_card(self, state: HandState, seat: int, events: list[Event], drawn: int = 1) -> None:
        """After ``drawn`` cards left the top of the stock at once: if the turn card (hook stock.turn_card_depth)
        was among them, its drawer announces it, so that everyone knows no more bonus cards are earned."""
        depth = self.rules.turn_card_depth
        if depth and len(state.stock) <= depth < len(state.stock) + drawn:
            events.append(_event(seat, f"draws the turn card: {depth} cards are left and no bonus cards"))

    def _last_card_kept(self, state: HandState, drawn: Sequence[Card], seat: int, events: list[Event]) -> bool:
        """Whether the draw that emptied the stock ends play with its last card, a bonus card, kept in the hand
        (hook stock.last_card_bonus_kept); the caller then ends play."""
        rules = self.rules
        if state.stock or not drawn or not rules.last_card_bonus_kept:
            return False
        rules.note_card("bonus_card", drawn[-1])
        if not rules.is_bonus[drawn[-1]]:
            return False
        rules.note("stock.last_card_bonus_kept", {})
        events.append(_event(seat, "drew a bonus card as the last card of the stock: it stays in hand"))
        return True

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def _listing(self) -> Listing:
        """The position's legal actions as blocks, built once per position."""
        facts = derived(self.rules, self.state)
        known: Listing | None = facts.listing
        if known is None:
            known = facts.listing = listing(self.rules, self.state)
        return known

    def bare_legal_actions(self) -> list[Action]:
        """The legal actions that lay no cards of their own choosing (draw, ask, answers, end, pass, declaring a
        special hand): few, and listed apart."""
        blocks = self._listing().blocks
        return [
            a
            for block in blocks
            if isinstance(block, (tuple, list))
            for a in block
            if a.kind in BARE_KINDS or a.kind == "declare"
        ]

    def _issued(self) -> list[Action]:
        """The actions the listing handed out for this position: ``apply`` need not check them again (a
        position that changes meanwhile gets new facts, so nothing stale is kept)."""
        facts = derived(self.rules, self.state)
        if facts.listed is None:
            facts.listed = []
        issued: list[Action] = facts.listed
        return issued

    def _list_legal(self) -> Iterator[Action]:
        """The listing's actions, one by one. The listing is lazy (its structures and walks read the position as
        they go), so if the position changes meanwhile (``apply``, then ``undo`` as a search does between two
        actions: the old state object is left as it was after ``apply``), the rest is listed once in full from the
        position then current, which ``undo`` has made the same; actions listed so from then on are not marked as
        issued, so ``apply`` checks them in full whatever the position."""
        facts = derived(self.rules, self.state)
        issued: list[Action] | None = self._issued()
        walk = iter(self._listing())
        place = 0
        while True:
            if issued is not None and self.state.derived is not facts:
                walk = iter(list(self._listing())[place:])
                issued = None
            action = next(walk, None)
            if action is None:
                return
            if issued is not None:
                issued.append(action)
            place += 1
            yield action

    def _was_listed(self, action: Action) -> bool:
        listed: list[Action] | None = derived(self.rules, self.state).listed
        return listed is not None and any(a is action for a in listed)

    def _seat(self, seat: object) -> int:
        """``seat`` if the game has it: a seat that does not exist is the caller's mistake, not an illegal
        action, and must not reach a list index (where -1 would quietly mean the last seat)."""
        players = self.rules.players
        if type(seat) is not int or not 0 <= seat < players:
            raise CanastaError(f"there is no seat {seat!r}: {self.rules.variant.id} has seats 0 to {players - 1}")
        return seat

    def check(self, action: Action, seat: int | None = None) -> Plan:
        """The plan of a legal action; raises IllegalAction citing the rule it breaks."""
        return plan(self.rules, self.state, action, None if seat is None else self._seat(seat))

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        return is_legal(self.rules, self.state, action, None if seat is None else self._seat(seat))

    def pile_frozen(self, seat: int | None = None) -> bool:
        return pile_frozen(self.rules, self.state, self.state.to_act if seat is None else self._seat(seat))

    def must_take_pile(self) -> bool:
        return must_take_pile(self.rules, self.state, self.state.to_act)

    # -- moves -----------------------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Play ``action`` for the seat to act (``seat``, if given, must be that seat); return what happened."""
        if seat is not None:
            seat = self._seat(seat)
        if (seat is None or seat == self.state.to_act) and self._was_listed(action):
            result = plan_checked(self.rules, self.state, action)
        else:
            result = plan(self.rules, self.state, action, seat)
        stack = self._stack
        stack.append(self.state.snapshot(stack[-1] if stack else None))
        self._event_counts.append(len(self.events))
        actor = self.state.to_act
        events: list[Event] = []
        self._carry_out(action.kind, actor, result, events)
        self.state.derived = None  # a new position: nothing computed from the old one holds
        self.history.append(action)
        self.events.extend(events)
        return events

    def _carry_out(self, kind: str, seat: int, result: Plan, events: list[Event]) -> None:
        """Dispatch on the kind of action, most frequent first (direct calls: a name looked up per action
        cost more than the smaller moves themselves)."""
        if kind == "draw":
            self._apply_draw(seat, result, events)
        elif kind == "discard":
            self._apply_discard(seat, result, events)
        elif kind == "meld":
            self._apply_meld(seat, result, events)
        elif kind == "take":
            self._apply_take(seat, result, events)
        elif kind == "ask":
            self._apply_ask(seat, result, events)
        elif kind == "yes" or kind == "no":
            self._answer(seat, kind, events)
        elif kind == "end":
            self._apply_end(seat, result, events)
        elif kind == "pass":
            self._apply_pass(seat, events)
        elif kind == "keep" or kind == "layout":
            self._apply_keep(seat, result.action, events)
        elif kind == "declare":
            self._apply_declare(seat, result.action.hand, events)
        elif kind == "combine":
            apply_combine(self.state, seat, result)
            first, second = (group.target for group in result.action.melds)
            events.append(_event(seat, f"combines meld {second} into meld {first}"))
        else:
            raise CanastaError(f"unknown kind of action {kind!r}")

    def push(self, action: Action, seat: int | None = None) -> list[Event]:
        """python-chess's name for ``apply``."""
        return self.apply(action, seat)

    def undo(self) -> Action:
        """Take back the last action, restoring the exact prior state."""
        if not self._stack:
            raise CanastaError("there is no action to undo")
        self.state = HandState.restore(self._stack.pop())
        del self.events[self._event_counts.pop() :]
        return self.history.pop()

    def pop(self) -> Action:
        """python-chess's name for ``undo``."""
        return self.undo()

    def _apply_draw(self, seat: int, result: Plan, events: list[Event]) -> None:
        state = self.state
        rules = self.rules
        if not state.stock:
            events.append(_event(seat, "cannot draw: the stock is empty"))
            self._end(state, "stock exhausted")
            return
        drawn: list[Card] = []
        rules.note("draw.count", {})
        for _ in range(rules.draw_count):
            if not state.stock:
                break
            card = state.stock.pop()
            rules.note_card("bonus_card", card)
            drawn.append(card)
        state.give(seat, drawn)
        events.append(_event(seat, "draws", tuple(drawn)))
        state.phase = "play"
        self._announce_turn_card(state, seat, events, len(drawn))
        if rules.last_card_bonus_kept and self._last_card_kept(state, drawn, seat, events):
            self._end(state, "last stock card was a bonus card")
            return
        self._lay_out_or_end(state, seat, events, "drew a bonus card as the last card of the stock", drawn)

    def _apply_take(self, seat: int, result: Plan, events: list[Event]) -> None:
        state = self.state
        rules = self.rules
        team = state.side_of[seat]
        top = state.pile[-1]
        top_only = takes_top_only(rules, state, seat)
        earned = opening_bonus(rules, state, seat, taking_pile=True)  # as the plan counted it, before replacements
        rest = [] if top_only else state.pile[:-1]
        apply_meld(rules, state, seat, result)
        onto = f" onto meld @{result.action.target}" if result.action.target else ""
        if result.action.cards:
            events.append(
                _event(seat, f"takes the pile, melding its top card {card_name(top)}{onto} with", result.action.cards)
            )
        elif onto:
            joined = f"meld @{result.action.target}"
            events.append(_event(seat, f"takes the pile, adding its top card {card_name(top)} to {joined}"))
        else:
            events.append(_event(seat, f"takes the pile, adding its top card {card_name(top)} to the side's meld"))
        for group in result.action.melds:
            events.append(_meld_event(seat, group))
        if top_only:
            _lift_top_card(rules, state)
            events.append(_event(seat, "takes only the top card; the rest stays as the pile"))
        else:
            state.pile = []
            state.pile_wilds = state.pile_red_threes = state.pile_black_threes = 0
            state.upcard_froze = False
        picked: list[Card] = []
        for card in rest:
            rules.note_card("bonus_card", card)
            if rules.is_bonus[card]:
                state.bonus[seat] += (card,)
                events.append(_event(seat, "lays out from the pile", (card,)))
            else:
                picked.append(card)
        state.give(seat, picked)
        for _ in range(result.pile_replacements):
            drawn = state.stock.pop()
            state.give(seat, (drawn,))
            events.append(_event(seat, "replaces with", (drawn,)))
            self._announce_turn_card(state, seat, events)
        if not top_only:
            events.append(_event(seat, f"picks up {len(rest)} card{'s' if len(rest) != 1 else ''}"))
        self._after_melding(state, seat, team, result, earned, events)
        state.took_pile_this_turn = True
        state.phase = "play"
        if rules.forms_sides and maybe_form_lone_hand(rules, state, seat, "take"):
            events.append(_event(seat, "takes the pile first and plays alone; the others are partners"))
        self._after_hand_shrinks(state, seat, result, events)

    def _apply_meld(self, seat: int, result: Plan, events: list[Event]) -> None:
        state = self.state
        earned = opening_bonus(self.rules, state, seat)
        apply_meld(self.rules, state, seat, result)
        for group in result.action.melds:
            events.append(_meld_event(seat, group))
        self._after_melding(state, seat, state.side_of[seat], result, earned, events)
        self._after_hand_shrinks(state, seat, result, events)

    def _after_hand_shrinks(self, state: HandState, seat: int, result: Plan, events: list[Event]) -> None:
        """After a meld or take: going out, or playing on from what the emptied hand was owed (the foot, bonus
        cards for the initial meld) within the turn, as there is no card left to discard."""
        if result.going_out:
            self._go_out(state, seat, result, events)
        elif state.feet:
            self._pick_up_foot(state, seat, events)
        elif state.bonus_draws_owed and state.bonus_draws_owed[seat] and not state.hand_sizes[seat]:
            self._draw_bonus(state, seat, events)

    def _after_melding(
        self, state: HandState, seat: int, team: int, result: Plan, earned: int, events: list[Event]
    ) -> None:
        if earned:
            self._owe_bonus(state, seat, earned, events)
        state.team_opened[team] = True
        state.seat_melded[seat] = True
        state.melded_this_turn = True
        state.added_to_existing_this_turn = state.added_to_existing_this_turn or result.added_existing
        state.created_this_turn = [*state.created_this_turn, *result.created]
        rules = self.rules
        if rules.keeps_bonus and not may_keep_bonus(rules, state, seat) and self._bonus_cards_held(state, seat):
            # A bonus card kept while the rules allowed it (hook bonus_card.keep) goes down once they no longer do,
            # as the side melds: the player who melds lays it out at once, and is never left holding a card it may
            # not play.
            self._lay_out_or_end(state, seat, events, "laid out a kept bonus card and the stock ran out")

    def _apply_discard(self, seat: int, result: Plan, events: list[Event]) -> None:
        state = self.state
        card = result.action.cards[0]
        state.take_away(seat, (card,))
        push_pile(self.rules, state, card)
        events.append(_event(seat, "discards", (card,)))
        if result.going_out:
            self._go_out(state, seat, result, events)
            return
        if state.feet:
            self._pick_up_foot(state, seat, events)
            if state.phase == "over":
                return
        if self.rules.penalises_turn_end:
            self._penalise_turn_end(state, seat, events)
        if not state.stock and self.rules.ends_with_discard and self.rules.predicate_of(ENDS_WITH_DISCARD, (0,)):
            events.append(_event(seat, "discarded with the stock empty: play ends"))
            self._end(state, "stock exhausted")
            return
        self._next_turn(state)
        if state.awaiting_first_turn:
            self._begin_first_turn(state, events)
        if state.bonus_draws_owed and state.phase != "over" and state.bonus_draws_owed[state.to_act]:
            self._draw_bonus(state, state.to_act, events)

    def _owe_bonus(self, state: HandState, seat: int, earned: int, events: list[Event]) -> None:
        """The player who makes the side's initial meld is owed bonus cards (hook bonus_draw.count), drawn at the
        start of their next turn."""
        if not state.bonus_draws_owed:
            state.bonus_draws_owed = [0] * self.rules.players
        state.bonus_draws_owed[seat] = earned
        source = "talon" if self.rules.bonus_from_talons else "stock"
        events.append(_event(seat, f"earns {earned} bonus cards from the {source} for the initial meld"))

    def _draw_bonus(self, state: HandState, seat: int, events: list[Event]) -> None:
        """Give a seat the bonus cards it is owed for its side's initial meld: its talon, or cards from the stock
        (fewer only if the stock runs out first); bonus cards among them are laid out as if drawn. The turn card
        ends the earning of bonus cards, not the drawing of those earned before it (pagat S0#154 sets the
        condition at the initial meld): a player who discarded their last card on the strength of the bonus is
        never left unable to play."""
        rules = self.rules
        owed = state.bonus_draws_owed[seat]
        state.bonus_draws_owed[seat] = 0
        if rules.bonus_from_talons:
            drawn = list(state.talons.pop(0))
            state.give(seat, drawn)
            events.append(_event(seat, f"takes the talon ({len(drawn)} cards)", tuple(drawn)))
        else:
            drawn = [state.stock.pop() for _ in range(min(owed, len(state.stock)))]
            state.give(seat, drawn)
            if drawn:
                events.append(_event(seat, "draws bonus cards for the initial meld", tuple(drawn)))
                self._announce_turn_card(state, seat, events, len(drawn))
            if len(drawn) < owed:
                events.append(_event(seat, f"draws {len(drawn)} of the {owed} bonus cards: the stock is empty"))
            if self._last_card_kept(state, drawn, seat, events):
                self._end(state, "last stock card was a bonus card")
                return
        self._note_received(drawn)
        self._lay_out_or_end(state, seat, events, _LAID_OUT_LAST, drawn)

    def _pick_up_foot(self, state: HandState, seat: int, events: list[Event]) -> None:
        """A player who has played out their hand picks up their foot and plays on from it: within the turn if
        the hand was melded away, from the next turn if the last card was discarded. Bonus cards in the foot are
        laid out as if drawn."""
        foot = state.feet[seat]
        if state.hand_sizes[seat] or not foot:
            return
        state.feet[seat] = ()
        state.give(seat, foot)
        events.append(_event(seat, f"picks up the foot ({len(foot)} cards)"))
        self._note_received(foot)
        self._lay_out_or_end(state, seat, events, "laid out a bonus card from the foot and the stock ran out", foot)

    def _penalise_turn_end(self, state: HandState, seat: int, events: list[Event]) -> None:
        """Add to the side's penalty tally what the spec charges for this turn's end (hook penalty.turn_end)."""
        rules = self.rules
        facts = {
            "asked_this_turn": state.asked_this_turn,
            "permission": state.permission,
            "took_pile_this_turn": state.took_pile_this_turn,
        }
        points = rules.value("penalty.turn_end", facts)
        if not points:
            return
        if not state.penalties:
            state.penalties = [0] * rules.teams
        state.penalties[state.side_of[seat]] += points
        events.append(_event(seat, f"is penalised {points} points"))

    def _apply_end(self, seat: int, result: Plan, events: list[Event]) -> None:
        events.append(_event(seat, "ends the hand without discarding"))
        self._end(self.state, "last stock card was a bonus card")

    def _apply_pass(self, seat: int, events: list[Event]) -> None:
        """End the turn without a discard (Hoyle's "pass the discard"): the player keeps the card."""
        events.append(_event(seat, "passes: ends the turn without discarding"))
        self._next_turn(self.state)
        if self.state.bonus_draws_owed and self.state.bonus_draws_owed[self.state.to_act]:
            self._draw_bonus(self.state, self.state.to_act, events)

    def _apply_ask(self, seat: int, result: Plan, events: list[Event]) -> None:
        state = self.state
        state.asked_this_turn = True
        state.asked_in_hand |= 1 << seat
        state.asker = seat
        state.phase = "answer"
        state.to_act = answerer(self.rules, state, seat)
        events.append(_event(seat, "asks partner: may I go out?"))

    def _answer(self, seat: int, answer: str, events: list[Event]) -> None:
        state = self.state
        state.permission = "yes" if answer == "yes" else "no"
        state.phase = "play"
        state.to_act = state.asker
        events.append(_event(seat, f"answers {answer}"))

    def _next_turn(self, state: HandState) -> None:
        state.to_act = (state.to_act + 1) % self.rules.players
        state.phase = "draw"
        state.permission = "none"
        state.melded_this_turn = state.asked_this_turn = state.took_pile_this_turn = False
        state.added_to_existing_this_turn = False
        state.created_this_turn = []
        state.melded_before_turn = state.seat_melded[state.to_act]
        state.turns += 1

    def _apply_declare(self, seat: int, hand: str, events: list[Event]) -> None:
        """Lay the whole hand down as a special hand: the hand ends, and the side scores the special hand alone
        (hook special_hand.score)."""
        state = self.state
        cards = declared_cards(declared_counts(state, seat))
        if state.phase == "draw" and state.pile:  # declared before the draw: the pile's top card completes it
            top = state.pile[-1]
            _lift_top_card(self.rules, state)
            events.append(_event(seat, f"takes the pile's top card {card_name(top)} to complete a special hand"))
        state.take_away(seat, declared_cards(state.hands[seat]))
        state.special_hand = hand
        state.special_cards = cards
        state.went_out = seat
        events.append(_event(seat, f"declares the special hand {hand}", cards))
        self._end(state, "special hand")

    def _go_out(self, state: HandState, seat: int, result: Plan, events: list[Event]) -> None:
        state.went_out = seat
        state.concealed = concealed_now(self.rules, state, seat, [], state.melds[state.side_of[seat]])
        events.append(_event(seat, "goes out" + (" concealed" if state.concealed else "")))
        if self.rules.forms_sides and maybe_form_lone_hand(self.rules, state, seat, "going_out"):
            events.append(_event(seat, "went out before anyone took the pile: plays alone; the others are partners"))
        self._end(state, "went out")

    def _end(self, state: HandState, reason: str) -> None:
        state.phase = "over"
        state.end_reason = reason

    # -- what players see, and the score ----------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any]:
        """Exactly what ``seat`` may see: its own hand, hand sizes, the table, the pile, scores."""
        seat = self._seat(seat)
        state = self.state
        rules = self.rules
        return {
            "seat": seat,
            "to_act": state.to_act,
            "phase": state.phase,
            "hand": [card_name(c) for c in cards_of(state.hands[seat])],
            "hand_sizes": list(state.hand_sizes),
            **({"foot_sizes": [len(f) for f in state.feet]} if state.feet else {}),
            "stock_size": len(state.stock),
            "pile": [card_name(c) for c in state.pile],
            "pile_frozen": pile_frozen(rules, state, seat),
            "melds": [[_meld_view(rules, m) for m in state.melds[team]] for team in range(rules.teams)],
            "canastas": [canastas(rules, state.melds[t]) for t in range(rules.teams)],
            "bonus_cards": [[card_name(c) for c in b] for b in state.bonus],
            **self._bonus_draw_view(),
            "team_scores": list(state.team_scores),
            "permission": state.permission,
            "end": state.end_reason,
            **self._special_hand_view(),
        }

    def _special_hand_view(self) -> dict[str, Any]:
        """The special hand that ended the hand, which everyone sees laid down; nothing before one is declared."""
        state = self.state
        if not state.special_hand:
            return {}
        cards = [card_name(c) for c in state.special_cards]
        return {"special_hand": {"seat": state.went_out, "hand": state.special_hand, "cards": cards}}

    def _bonus_draw_view(self) -> dict[str, Any]:
        """What everyone sees of the initial meld's bonus cards, in a variant that has them: whether the turn card
        has been drawn, the talons' sizes (face down), and the bonus cards each seat is owed."""
        rules = self.rules
        state = self.state
        shown: dict[str, Any] = {}
        if rules.turn_card_depth:
            shown["turn_card_drawn"] = turn_card_drawn(rules, state)
        if rules.bonus_from_talons:
            shown["talon_sizes"] = [len(talon) for talon in state.talons]
        if rules.draws_bonus:
            shown["bonus_draws_owed"] = list(state.bonus_draws_owed) or [0] * rules.players
        return shown

    def score(self) -> HandScore:
        """The hand's score per side, broken down by the clause behind each part."""
        return score_hand(self.rules, self.state)

    def hand_of(self, seat: int) -> list[Card]:
        return cards_of(self.state.hands[self._seat(seat)])
