"""Applying a whole action on the core's position: its card moves, the turn's flags, the hand's end.

The reference is ``Game.apply`` (``engine/game.py``); this follows it mechanism by mechanism: the draw and the
bonus cards it brings laid out and replaced (hook bonus_card.replace; the last stock card a bonus card,
stock.last_card_bonus_ends), a discard passing the turn or going out, the stock running out (stock.ends_with_discard),
penalties at a turn's end (penalty.turn_end), the dealt bonus cards laid out at a seat's first turn, melds laid,
takes of the pile, asking and answering, passing and ending. Each rule question goes through the core's memo
(``NativeAnswers``). What the core does not apply yet is declined by mechanism, in words, with the position left as
it was: a mechanism the variant uses (``apply_missing``), a kind of action, or a moment of the hand (a kept last
card); never applied wrongly.

Where the variant's mechanisms allow it (``c_declined``), an action is applied whole in C (``native/apply.c``: one
call, the position and its turn's flags moved there, every question through memos bound once in an apply context),
encoded as a flat tuple of small ints (``encode``). The C entry declines, with nothing moved, what it cannot apply
(cards not held, a meld not there), and this module's Python path, over the core's card moves, applies or refuses
it: the path every kind and variant the C entry lacks takes too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.actions import Action, MeldGroup
from ..engine.cards import MELD_RANK_NAMES, RANK_NAMES, rank_of
from ..engine.checks import _ANSWERER as ANSWERER
from ..engine.checks import _MELD_CLOSED as MELD_CLOSED
from ..engine.checks import _PILE_FROZEN as PILE_FROZEN
from ..engine.checks import _TAKE_APART as TAKE_APART
from ..engine.checks import _TOP_ONLY as TOP_ONLY
from ..engine.checks import BONUS_REPLACE, ENDS_WITH_DISCARD, LAST_CARD_BONUS_ENDS, _combined_into, group_rank
from ..engine.hooks import TABLE_VARIABLES
from ..engine.rules import QUESTIONS, Query, Rules
from ..engine.sides import LONE_HAND
from ..engine.state import Meld
from . import (
    ASKED_AT,
    ASKED_IN_HAND_AT,
    ASKER_AT,
    AWAITING_FIRST_TURN_AT,
    LAST_CARD_BONUS_AT,
    LIBRARY,
    MELDED_AT,
    PERMISSION_AT,
    PERMISSIONS,
    PHASE_AT,
    PHASES,
    TOOK_AT,
    UPCARD_FROZE_AT,
    CoreUnavailable,
    decline_reason,
)
from .memo import NativeAnswers, NativeQuestion

#: The hand's end, as ``HandState.end_reason`` words it.
WENT_OUT: Final = "went out"
STOCK_EXHAUSTED: Final = "stock exhausted"
LAST_CARD_BONUS: Final = "last stock card was a bonus card"

#: Hook penalty.turn_end as ``Game._penalise_turn_end`` asks it.
TURN_END_PENALTY: Final = Query("penalty.turn_end", ("asked_this_turn", "permission", "took_pile_this_turn"))
_PREDICATE: Final = QUESTIONS.index("predicate")
_VALUE: Final = QUESTIONS.index("value")
#: The stock's and the hand's sizes among the table values (``hooks.TABLE_VARIABLES``).
_STOCK_SIZE: Final = TABLE_VARIABLES.index("stock_size")
_HAND_SIZE: Final = TABLE_VARIABLES.index("hand_size")
_OVER: Final = PHASES.index("over")
_PLAY: Final = PHASES.index("play")
_ANSWER: Final = PHASES.index("answer")
_DRAW: Final = PHASES.index("draw")
_NO_PERMISSION: Final = PERMISSIONS.index("none")

#: The kinds the C entry applies, by their code there (``native/apply.c``'s DO_DRAW ...).
NATIVE_KINDS: Final = ("draw", "discard", "meld", "take", "ask", "yes", "no", "pass", "end", "combine")
_NATIVE_CODES: Final = {kind: code for code, kind in enumerate(NATIVE_KINDS)}
#: The triggers of hook sides.lone_hand, in the C entry's order (TRIGGER_TAKE, TRIGGER_GOING_OUT).
TRIGGERS: Final = ("take", "going_out")
#: The C entry's answers: declined (nothing moved), or the hand's end; a seat went out from ``_WENT_OUT_CODE`` on.
_C_DECLINED: Final = -1
_WENT_OUT_CODE: Final = 3
#: The encoded actions kept, at most (actions are tuples the garbage collector tracks: the cache stays small).
_ENCODED_LIMIT: Final = 4096

_KINDS_DECLINED: Final = {
    "keep": "keeping a bonus card",
    "layout": "keeping a bonus card",
    "declare": "special hands",
}


@dataclass(frozen=True)
class Applied:
    """An action applied: the hand's end reason if it ended (``HandState.end_reason``), and who went out."""

    ended: str | None = None
    went_out: int | None = None


#: The C entry's hand's ends below ``_WENT_OUT_CODE``, as ``Applied``.
_OUTCOMES: Final = (Applied(), Applied(STOCK_EXHAUSTED), Applied(LAST_CARD_BONUS))


def applied_of(ended: int) -> Applied:
    """The C entry's hand's end (not declined) as ``Applied``."""
    return _OUTCOMES[ended] if ended < _WENT_OUT_CODE else Applied(WENT_OUT, ended - _WENT_OUT_CODE)


class _Declined(Exception):
    """Raised midway where the action reaches a moment the core does not apply; the position is restored."""


def apply_missing(rules: Rules) -> str | None:
    """The mechanism ``rules`` uses that the core's apply lacks, in words, or None (read from what the variant's
    spec compiles to, never from its name)."""
    lacking = (
        (rules.keeps_bonus, "bonus cards kept in hand (hook bonus_card.keep)"),
        (rules.draws_bonus, "bonus cards drawn for the initial meld (hook bonus_draw.count)"),
    )
    return next((words for used, words in lacking if used), None)


def c_declined(rules: Rules) -> str | None:
    """The mechanism ``rules`` uses that the C entry leaves to the Python path, in words, or None (read from what
    the spec compiles to): one the core's apply lacks, or a bonus card kept as the stock's last card, which the
    Python path declines midway."""
    if rules.last_card_bonus_kept:
        return "a bonus card kept as the stock's last card (hook stock.last_card_bonus_kept)"
    return apply_missing(rules)


def encode(action: Action) -> tuple[int, ...]:
    """``action`` as the C entry reads it: its kind's code, the meld a take's top card joins, its cards, then its
    groups, each the rank its label names (-1: none), the meld it names and its cards."""
    ints = [_NATIVE_CODES[action.kind], action.target, len(action.cards), *action.cards, len(action.melds)]
    for group in action.melds:
        ints += (-1 if group.rank is None else group.rank, group.target, len(group.cards), *group.cards)
    return tuple(ints)


class ApplyContext:
    """What one variant's actions are applied with in C, bound once: the memos of its questions (their keys built
    in C from the query's own values, ``Encoding.recipe``), the codes of their words and the spec's parameters."""

    def __init__(self, rules: Rules, merging: int) -> None:
        if LIBRARY is None:
            raise CoreUnavailable(decline_reason(rules))
        questions = tuple(
            None if query is None else NativeQuestion(rules, query, question).built_natively(query.names)
            for query, question in self._questions(rules)
        )
        *_, penalty, _, lone_hand = questions
        codes = [0 if penalty is None else penalty.encoding.word_code("permission", word) for word in PERMISSIONS]
        triggers = [0 if lone_hand is None else lone_hand.encoding.word_code("trigger", word) for word in TRIGGERS]
        memos = tuple(None if question is None else question.memo for question in questions)
        self.bound = LIBRARY.Position.bind_apply(
            memos, rules.draw_count, rules.sequences, merging, codes, triggers, rules.initial_sides()
        )

    @staticmethod
    def _questions(rules: Rules) -> tuple[tuple[Query | None, int], ...]:
        """Each question the C entry asks, in ``bind_apply``'s order; None where the spec has no clause for it."""
        top_only = bool(rules.clauses(TOP_ONLY.hook))
        return (
            (BONUS_REPLACE, _PREDICATE),
            (LAST_CARD_BONUS_ENDS, _PREDICATE),
            (ENDS_WITH_DISCARD if rules.ends_with_discard else None, _PREDICATE),
            (PILE_FROZEN if top_only else None, _PREDICATE),
            (TOP_ONLY if top_only else None, _PREDICATE),
            (TAKE_APART if rules.takes_apart else None, _PREDICATE),
            (MELD_CLOSED if rules.closes_melds else None, _PREDICATE),
            (TURN_END_PENALTY if rules.penalises_turn_end else None, _VALUE),
            (ANSWERER if rules.clauses(ANSWERER.hook) else None, _VALUE),
            (LONE_HAND if rules.forms_sides else None, _PREDICATE),
        )


class NativeApply:
    """Applies the actions of one variant on a core position (``core.new_position``), as ``Game.apply`` does: in C
    where it can (``native``), else on the Python path."""

    def __init__(self, rules: Rules, answers: NativeAnswers | None = None, native: bool = True) -> None:
        self.rules = rules
        self.answers = answers or NativeAnswers(rules)
        self.missing = apply_missing(rules)
        self.asks_top_only = bool(rules.clauses(TOP_ONLY.hook))
        #: The meld ranks that merge (hook meld.merge_same_rank), as bits: how melds are pooled when sides form.
        self._merging = sum(1 << rank for rank, merges in enumerate(rules.merges_same_rank) if merges)
        self._bonus = tuple(card for card in range(len(rules.is_bonus)) if rules.is_bonus[card])
        use_c = native and c_declined(rules) is None
        self.context = ApplyContext(rules, self._merging).bound if use_c else None
        #: The kinds applied in C.
        self.native_kinds = frozenset(NATIVE_KINDS)
        self._encoded: dict[Action, tuple[int, ...]] = {}
        #: Actions applied in C, and on the Python path (the C entry's declines included): what a test checks.
        self.applied_in_c = 0
        self.applied_in_python = 0

    def declined(self, action: Action) -> str | None:
        """Why the core does not apply ``action`` in this variant, whatever the position, or None."""
        if self.missing is not None:
            return self.missing
        return _KINDS_DECLINED.get(action.kind)

    def apply(self, position: Any, action: Action) -> Applied | str:
        """Apply ``action`` (one the listing offered) for the seat to act: what happened, or why it is declined
        (the position then unchanged). A move the position cannot make (cards not held) raises ValueError from the
        core, naming them, and leaves the position as it was: judging an action is not the core's yet. A count past the
        core's bounds raises ValueError, before anything moves where the C entry can foresee it; an error a rule
        question raises midway in C (a clause that cannot be evaluated), or a bound passed by what rule answers decide
        midway (the README's apply row), propagates with the position part moved (no snapshot is taken for it: one
        costs about what the C apply does)."""
        context = self.context  # a context only where the variant has no mechanism declined or left to Python
        if context is not None and action.kind in self.native_kinds:
            ended = position.apply(context, self._encoded.get(action) or self.encoded(action))
            if ended != _C_DECLINED:
                self.applied_in_c += 1
                return _OUTCOMES[ended] if ended < _WENT_OUT_CODE else applied_of(ended)
        reason = self.declined(action)
        if reason is not None:
            return reason
        self.applied_in_python += 1
        saved = position.snapshot()
        try:
            return self._carry_out(position, action)
        except _Declined as declined:
            position.restore(saved)
            return str(declined)
        except ValueError:  # a move the position cannot make (an action not listed): nothing half done stays
            position.restore(saved)
            raise

    def encoded(self, action: Action) -> tuple[int, ...]:
        """``encode(action)``, kept per action (the cache emptied at its limit)."""
        known = self._encoded.get(action)
        if known is None:
            if len(self._encoded) >= _ENCODED_LIMIT:
                self._encoded.clear()
            known = self._encoded[action] = encode(action)
        return known

    def _carry_out(self, position: Any, action: Action) -> Applied:
        seat = position.where()[1]
        kind = action.kind
        if kind == "draw":
            return self._draw(position, seat)
        if kind == "discard":
            return self._discard(position, seat, action.cards[0])
        if kind == "meld":
            return self._meld(position, seat, action.melds)
        if kind == "take":
            return self._take(position, seat, action)
        if kind == "ask":
            return self._ask(position, seat)
        if kind in ("yes", "no"):
            return _answer(position, PERMISSIONS.index(kind))
        if kind == "combine":
            return self._combine(position, seat, action.melds)
        if kind == "pass":
            return _next_turn(position)
        return _end(position, LAST_CARD_BONUS)  # "end": the hand ends without a discard

    def _draw(self, position: Any, seat: int) -> Applied:
        """Hook draw.count cards from the stock (play ends where it is empty), then their bonus cards laid out."""
        if not _stock_size(position):
            return _end(position, STOCK_EXHAUSTED)
        drawn = position.draw(seat, self.rules.draw_count)
        _set_turn(position, {PHASE_AT: _PLAY})
        self._refuse_kept_last_card(position, drawn)
        return self._lay_out_bonus_cards(position, seat)

    def _refuse_kept_last_card(self, position: Any, drawn: Sequence[int]) -> None:
        """A bonus card drawn as the stock's last card that stays in hand (stock.last_card_bonus_kept) is not the
        core's yet."""
        if self.rules.last_card_bonus_kept and drawn and not _stock_size(position) and self.rules.is_bonus[drawn[-1]]:
            raise _Declined("a bonus card kept as the stock's last card (hook stock.last_card_bonus_kept)")

    def _lay_out_bonus_cards(self, position: Any, seat: int) -> Applied:
        """Lay out every bonus card in the hand, in card order, and draw their replacements (which may be bonus
        cards in turn), as ``Game._lay_out_bonus_cards``; play ends where the stock runs out and the spec says so."""
        while True:
            hand = position.hand(seat)
            found = [(card, hand[card]) for card in self._bonus if hand[card]]
            if not found:
                return Applied()
            for card, count in found:
                position.lay_out(seat, card, count)
                if not self._replace(position, seat, count):
                    return _end(position, LAST_CARD_BONUS)

    def _replace(self, position: Any, seat: int, count: int) -> bool:
        """Draw ``count`` replacements where hook bonus_card.replace says so; False where the stock ran out and
        hook stock.last_card_bonus_ends ends play (else the player has no discard: the turn's flag)."""
        if not self._holds(BONUS_REPLACE, (False, _stock_size(position))):
            return True
        for _ in range(count):
            if not _stock_size(position):
                if self._holds(LAST_CARD_BONUS_ENDS, (0,)):
                    return False
                _set_turn(position, {LAST_CARD_BONUS_AT: True})
                return True
            self._refuse_kept_last_card(position, position.draw(seat, 1))
        return True

    def _holds(self, query: Any, values: tuple[Any, ...]) -> bool:
        return bool(self.answers.ask(query, _PREDICATE, values))

    def _discard(self, position: Any, seat: int, card: int) -> Applied:
        """The card onto the pile; the player goes out with an empty hand, play ends on a discard at an empty stock
        where hook stock.ends_with_discard says so, else the turn passes."""
        position.discard(seat, card)
        if not self._cards_held(position, seat):
            return self._go_out(position, seat)
        if self.rules.foot_size:
            ended = self._pick_up_foot(position, seat)
            if ended.ended:
                return ended
        if self.rules.penalises_turn_end:
            self._penalise_turn_end(position, seat)
        stock_empty = not _stock_size(position)
        if stock_empty and self.rules.ends_with_discard and self._holds(ENDS_WITH_DISCARD, (0,)):
            return _end(position, STOCK_EXHAUSTED)
        _next_turn(position)
        return self._begin_first_turn(position)

    def _penalise_turn_end(self, position: Any, seat: int) -> None:
        """What hook penalty.turn_end charges the side for this turn's end, read from the turn's flags."""
        turn = _turn(position)
        values = (turn[ASKED_AT], PERMISSIONS[turn[PERMISSION_AT]], turn[TOOK_AT])
        points = int(self.answers.ask(TURN_END_PENALTY, _VALUE, values))
        if points:
            position.penalise(position.side_of(seat), points)

    def _begin_first_turn(self, position: Any) -> Applied:
        """At the first turn of a seat whose dealt bonus cards waited for it (hook bonus_card.at_first_turn), they
        are laid out and replaced (``Game._begin_first_turn``)."""
        seat = position.where()[1]
        awaiting = _turn(position)[AWAITING_FIRST_TURN_AT]
        if not awaiting >> seat & 1:
            return Applied()
        _set_turn(position, {AWAITING_FIRST_TURN_AT: awaiting & ~(1 << seat)})
        return self._lay_out_bonus_cards(position, seat)

    def _meld(self, position: Any, seat: int, groups: Sequence[MeldGroup]) -> Applied:
        """Each group laid on its meld (the one it names, the side's meld of its rank, or a new one); the side has
        opened, the player has melded this turn, and goes out with an empty hand."""
        for group in groups:
            self._lay_group(position, seat, group)
        _set_turn(position, {MELDED_AT: True})
        return self._after_hand_shrinks(position, seat)

    def _take(self, position: Any, seat: int, action: Action) -> Applied:
        """The whole pile into the hand, its bonus cards laid out (and replaced from the stock where hook
        bonus_card.replace says so), or its top card alone where hook pile.take_top_only says so; then the top card
        and the cards offered with it laid as a meld, and any further melds; a pile taken whole is empty and no
        longer frozen by its upcard; the player has taken it and melded this turn, and goes out with an empty hand
        (``Game._apply_take``)."""
        pile = position.pile()
        top_only = self._takes_top_only(position, seat, pile[-1])
        if top_only:
            position.lift_top(seat)
        else:
            self._pick_up_pile(position, seat, pile)
        top_group = MeldGroup((pile[-1], *action.cards), target=action.target)
        rank = group_rank(self.rules, top_group)
        index = action.target - 1 if action.target else self._meld_taken_onto(position, seat, rank, top_group.cards)
        self._lay(position, seat, index, rank, top_group.cards)
        for group in action.melds:
            self._lay_group(position, seat, group)
        flags = {PHASE_AT: _PLAY, MELDED_AT: True, TOOK_AT: True}
        _set_turn(position, flags if top_only else {**flags, UPCARD_FROZE_AT: False})
        self._maybe_form_lone_hand(position, seat, "take")
        return self._after_hand_shrinks(position, seat)

    def _go_out(self, position: Any, seat: int) -> Applied:
        """The player goes out (where sides form in play, perhaps as the lone hand), and the hand ends."""
        self._maybe_form_lone_hand(position, seat, "going_out")
        return _end(position, WENT_OUT, seat)

    def _maybe_form_lone_hand(self, position: Any, seat: int, trigger: str) -> None:
        """Where hook sides.lone_hand says so on this trigger ("take" or "going_out"), ``seat`` plays alone and
        the others join one side, their melds pooled (``sides.maybe_form_lone_hand``)."""
        if not self.rules.forms_sides:
            return
        sides = [position.side_of(other) for other in range(self.rules.players)]
        if self._holds(LONE_HAND, (trigger, sides != self.rules.initial_sides())):
            position.form_lone_hand(seat, self._merging)

    def _after_hand_shrinks(self, position: Any, seat: int) -> Applied:
        """After a meld or a take: going out with nothing left to play, or playing on from the foot picked up where
        the hand was melded away (``Game._after_hand_shrinks``)."""
        if not self._cards_held(position, seat):
            return self._go_out(position, seat)
        if self.rules.foot_size:
            return self._pick_up_foot(position, seat)
        return Applied()

    def _pick_up_foot(self, position: Any, seat: int) -> Applied:
        """A seat that has played out its hand picks up its foot (hook deal.foot_size), its bonus cards laid out
        as if drawn (``Game._pick_up_foot``)."""
        if int(position.table_values(seat)[_HAND_SIZE]) or not position.pick_up_foot(seat):
            return Applied()
        return self._lay_out_bonus_cards(position, seat)

    def _cards_held(self, position: Any, seat: int) -> int:
        """The cards a seat has to play: its hand and its foot (the variants applied owe no bonus cards:
        ``apply_missing`` declines those), counted by the core rather than read from its whole export."""
        return int(position.cards_held(seat))

    def _pick_up_pile(self, position: Any, seat: int, pile: Sequence[int]) -> None:
        """The whole pile into the hand, its bonus cards under the top laid out and replaced where hook
        bonus_card.replace says so."""
        bonus_under_top = sum(1 for card in pile[:-1] if self.rules.is_bonus[card])
        replaced = 0
        if bonus_under_top and self._holds(BONUS_REPLACE, (True, _stock_size(position))):
            replaced = min(bonus_under_top, _stock_size(position))
        position.pick_up(seat, 0)
        position.draw(seat, replaced)

    def _takes_top_only(self, position: Any, seat: int, top: int) -> bool:
        """Whether hook pile.take_top_only moves the top card alone (``checks.takes_top_only``): asked with the
        table, whether the pile is frozen (hook pile.frozen) and whether the top card fits the side's open meld."""
        if not self.asks_top_only:
            return False
        table = tuple(position.table_values(seat))
        wilds, red_threes, black_threes = position.export()["pile_counts"]
        upcard_froze = _turn(position)[UPCARD_FROZE_AT]
        frozen = self._holds(PILE_FROZEN, (*table, wilds > 0, red_threes > 0, black_threes > 0, upcard_froze))
        fits = not self.rules.is_wild[top] and position.open_meld(position.side_of(seat), rank_of(top))[0] >= 0
        return self._holds(TOP_ONLY, (*table, frozen, fits))

    def _ask(self, position: Any, seat: int) -> Applied:
        """The partner answers next (``checks.answerer``): the one hook go_out.answerer names, else the next seat
        on the same side; the player has asked this turn and this hand."""
        answerer = self._answerer(position, seat)
        asked_in_hand = _turn(position)[ASKED_IN_HAND_AT] | 1 << seat
        _set_turn(position, {ASKED_AT: True, ASKED_IN_HAND_AT: asked_in_hand, ASKER_AT: seat, PHASE_AT: _ANSWER})
        position.turn_to(answerer)
        return Applied()

    def _answerer(self, position: Any, seat: int) -> int:
        players = self.rules.players
        side_of = [position.side_of(other) for other in range(players)]
        if self.rules.clauses(ANSWERER.hook):
            chosen = int(self.answers.ask(ANSWERER, _VALUE, (seat,))) % players
            if chosen == seat or side_of[chosen] != side_of[seat]:
                raise _Declined(f"hook go_out.answerer names seat {chosen}, who is not seat {seat}'s partner")
            return chosen
        partners = [(seat + step) % players for step in range(1, players)]
        partner = next((other for other in partners if side_of[other] == side_of[seat]), None)
        if partner is None:
            raise _Declined(f"seat {seat} has no partner to ask")
        return partner

    def _lay_group(self, position: Any, seat: int, group: MeldGroup) -> None:
        rank = group_rank(self.rules, group)
        index = group.target - 1 if group.target else self._meld_of_rank(position, seat, rank)
        self._lay(position, seat, index, rank, group.cards)

    def _combine(self, position: Any, seat: int, groups: Sequence[MeldGroup]) -> Applied:
        """Two of the side's melds made one in the first one's place, of the rank of the meld the other joins, as
        the engine chooses it (``checks._combined_into``), closed where hook meld.closed says so."""
        side = position.side_of(seat)
        first, second = (group.target - 1 for group in groups)
        melds = position.export()["melds"][side]
        joined, _ = _combined_into(self.rules, _meld_of(melds[first]), _meld_of(melds[second]))
        position.combine(side, first, second, joined.rank)
        self._settle(position, side, first)
        return Applied()

    def _settle(self, position: Any, side: int, index: int) -> None:
        """Close a side's meld where hook meld.closed says so (``checks.settled``)."""
        if not self.rules.closes_melds:
            return
        meld_rank, _, _, (size, naturals, wilds, _) = position.export()["melds"][side][index]
        if self._holds(MELD_CLOSED, (MELD_RANK_NAMES[meld_rank], size, naturals, wilds)):
            position.close(side, index)

    def _lay(self, position: Any, seat: int, index: int, rank: int, cards: Sequence[int]) -> None:
        """Cards laid on a meld (-1: a new one of ``rank``), which then closes where hook meld.closed says so
        (``checks.settled``)."""
        laid = position.lay(seat, index, rank, list(cards))
        self._settle(position, position.side_of(seat), laid)

    def _meld_taken_onto(self, position: Any, seat: int, rank: int, cards: Sequence[int]) -> int:
        """The side's meld of the top card's rank a take joins, as ``_meld_of_rank``, unless hook meld.take_apart
        keeps the take apart as a meld of its own (-1)."""
        if not self.rules.merges_same_rank[rank]:
            return -1
        index, counts = position.open_meld(position.side_of(seat), rank)
        if index < 0 or not self.rules.takes_apart:
            return int(index)
        size, _, wilds, _ = counts
        onto_canasta = size >= self.rules.canasta_size[rank]
        added_wilds = sum(1 for card in cards if self.rules.is_wild[card])
        apart = self._holds(TAKE_APART, (RANK_NAMES[rank], onto_canasta, wilds, added_wilds))
        return -1 if apart else int(index)

    def _meld_of_rank(self, position: Any, seat: int, rank: int) -> int:
        """The index of the side's meld of ``rank`` a group joins where its rank merges, else -1 (a new meld)."""
        if not self.rules.merges_same_rank[rank]:
            return -1
        return int(position.open_meld(position.side_of(seat), rank)[0])


def _meld_of(exported: tuple[Any, ...]) -> Meld:
    """A meld as the core exports it, as the engine holds it (``state.Meld``; its cards in the core's order)."""
    rank, cards, closed, (size, naturals, wilds, jokers) = exported
    return Meld(rank, tuple(cards), naturals, wilds, jokers, size, bool(closed))


def _turn(position: Any) -> list[Any]:
    return list(position.turn())


def _set_turn(position: Any, changes: dict[int, Any]) -> None:
    """Write some of the turn's flags, the others kept."""
    turn = _turn(position)
    for place, value in changes.items():
        turn[place] = value
    position.load_turn(*turn)


def _stock_size(position: Any) -> int:
    return int(position.table_values(0)[_STOCK_SIZE])


def _end(position: Any, reason: str, went_out: int | None = None) -> Applied:
    _set_turn(position, {PHASE_AT: _OVER})
    return Applied(reason, went_out)


def _answer(position: Any, permission: int) -> Applied:
    """The partner's answer given, the asker plays on (``Game._answer``); declined out of the answer phase, whatever
    the listing offered."""
    turn = _turn(position)
    if turn[PHASE_AT] != _ANSWER:
        raise _Declined(
            f'answering in the {PHASES[turn[PHASE_AT]]} phase: a partner answers only when asked "may I go out?"'
        )
    asker = turn[ASKER_AT]
    _set_turn(position, {PERMISSION_AT: permission, PHASE_AT: _PLAY})
    position.turn_to(asker)
    return Applied()


def _next_turn(position: Any) -> Applied:
    """The next seat's draw phase, the turn's flags cleared (``Game._next_turn``)."""
    position.pass_turn()
    cleared = {PHASE_AT: _DRAW, PERMISSION_AT: _NO_PERMISSION, MELDED_AT: False, ASKED_AT: False, TOOK_AT: False}
    _set_turn(position, cleared)
    return Applied()
