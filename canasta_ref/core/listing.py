"""The listing, built by the core: the parts it builds natively, each proved against the Python listing.

Today two parts: the discards block's verdicts card by card (hooks ``discard.allowed`` and ``discard.preferred``),
and one rank's valid meld shapes with how many groups of cards make each (hook ``meld.valid``, as
``legal._rank_shapes`` finds them). The keys are built in C from the core's table values, card facts and shapes,
and answered by its memo (``memo.py``), Python asked only on a miss. Whether a discard may be made at all (the kind
allowed, going out, a binding answer), and which shapes end a turn legally, are still the Python listing's: the
core lists no whole phase yet (README.md).
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.actions import Action
from ..engine.blocks import Block, Listing, SingleMelds, meld_chunk
from ..engine.cards import JOKER, JOKER_RANK
from ..engine.checks import _GO_OUT_ALLOWED as GO_OUT_ALLOWED  # the engine's own questions, asked as it asks them
from ..engine.checks import _KEEP_CARD as KEEP_CARD
from ..engine.checks import (
    ANSWER_BINDING,
    DISCARD_ALLOWED,
    DISCARD_PREFERRED,
    MELD_ACTION,
    MELD_VALID,
    bare_refusal,
    ending_refusal,
    kind_refusal,
    side_tally,
    table_values,
)
from ..engine.hooks import TABLE_VARIABLES
from ..engine.legal import ASK, DISCARDS, END, PASS
from ..engine.movegen import hand_cards, submultisets
from ..engine.rules import QUESTIONS, Rules
from ..engine.state import HandState
from . import LIBRARY, CoreUnavailable
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


#: The values of the meld a shape makes that ``meld.valid`` reads besides the table's, in its order
#: (``movegen.shape_values``): the core builds them in the order of its SHAPE_VALUES, checked equal.
SHAPE_ARGUMENTS: Final = MELD_VALID.names[len(TABLE_VARIABLES) :]

#: A valid shape of one rank as the core gives it: naturals, wild cards, jokers, valid keeping cards, valid going
#: out, the kind of canasta it newly makes (-1: none), and how many different groups of the hand's cards make it.
NativeShape = tuple[int, int, int, bool, bool, int, int]


def rank_shapes_missing(rules: Rules) -> str | None:
    """The mechanism the core's shapes lack for ``rules``, in words, or None when it has them all."""
    if rules.tracks_must_complete:
        return "melds that must be completed before going out (hook meld.must_complete)"
    return None


class NativeRankShapes:
    """One rank's valid meld shapes for a seat, judged by the core (hook ``meld.valid`` through its memo)."""

    def __init__(self, rules: Rules) -> None:
        missing = rank_shapes_missing(rules)
        if LIBRARY is not None and tuple(LIBRARY.SHAPE_VALUES) != SHAPE_ARGUMENTS:
            missing = f"meld.valid's values as the engine passes them ({', '.join(SHAPE_ARGUMENTS)})"
        if missing is not None:
            raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")
        self.valid = NativeQuestion(rules, MELD_VALID, _FAILING).built_natively(SHAPE_ARGUMENTS)
        self.merging = sum(1 << rank for rank, merges in enumerate(rules.merges_same_rank) if merges)
        encoding = self.valid.encoding
        self.kind_codes = (encoding.word_code("kind", "group"), encoding.word_code("kind", "wild"))

    def of(self, position: Any, seat: int, rank: int, initial: bool) -> list[NativeShape]:
        """The shapes of ``rank`` that make a valid meld for ``seat``, in the Python listing's order."""
        group, wild = self.kind_codes
        shapes: list[NativeShape] = position.rank_shapes(
            seat, rank, initial, self.valid.memo, self.merging, group, wild
        )
        return shapes


#: A legal single meld's shape as the core gives it: rank, natural cards, other wild cards, jokers, and how many
#: different groups of the hand's cards make it (each a meld action of the listing).
SingleMeldShape = tuple[int, int, int, int, int]
#: go_out.keep_card's values, all the caller's: the core passes them in this order.
_KEEP_CARD_ARGUMENTS: Final = ("hand_after", "discard_pending", "may_go_out")


class NativeSingleMelds:
    """The single-group melds of a side that has opened (``legal._single_melds``), found by the core: its shapes
    of every rank (``NativeRankShapes``) that end the turn legally (hooks go_out.allowed, go_out.keep_card)."""

    def __init__(self, rules: Rules) -> None:
        self.shapes = NativeRankShapes(rules)
        self.go_out = NativeQuestion(rules, GO_OUT_ALLOWED, _FAILING).built_natively(GO_OUT_ALLOWED.names[6:])
        self.keep_card = NativeQuestion(rules, KEEP_CARD, _FAILING).built_natively(_KEEP_CARD_ARGUMENTS)
        self.pass_refused = "pass" in rules.refused_kinds

    def of(self, position: Any, state: HandState) -> list[SingleMeldShape]:
        """The legal single melds of the seat to act in ``state`` (its side opened), loaded in ``position``: the
        turn's flags they depend on (the partner's permission, a discard pending) and the cards the player has to
        play are read from ``state``, since the core's position does not hold them yet."""
        seat = state.to_act
        shapes = self.shapes
        group, wild = shapes.kind_codes
        permission = self.go_out.encoding.word_code("permission", state.permission)
        ending = (self.go_out.memo, self.keep_card.memo, permission, not state.last_card_bonus, self.pass_refused)
        held = state.cards_held(seat)
        found: list[SingleMeldShape] = position.single_melds(
            seat, held, shapes.valid.memo, shapes.merging, group, wild, ending
        )
        return found


def single_melds_open(rules: Rules, state: HandState) -> bool:
    """Whether the listing lists single melds here (the gate the Python listing keeps): in play, the side opened,
    melding and one group allowed (hooks action.allowed, meld.action)."""
    seat = state.to_act
    if state.phase != "play" or not state.team_opened[state.side_of[seat]]:
        return False
    one_group = (*table_values(rules, state, seat), state.phase, 1, 0, False)
    return kind_refusal(rules, state, seat, "meld") is None and rules.failing_of(MELD_ACTION, one_group) is None


def play_listing_missing(rules: Rules) -> str | None:
    """The mechanism the core's listing of play (a side that has opened) lacks for ``rules``, in words, or None."""
    missing = rank_shapes_missing(rules)
    if missing is None and rules.names_melds:
        missing = "melds an action names (sequences, or two melds of one rank: hook meld.merge_same_rank)"
    if missing is None and rules.special_hands:
        missing = "special hands (hook special_hand.shape)"
    return missing


class NativePlayListing:
    """The legal actions of a player in play whose side has opened, in the reference's order: asking, the melds
    (``NativeSingleMelds``, each shape's groups expanded only when asked for, as ``blocks.SingleMelds`` does), the
    discards (``NativeDiscards``), passing, ending. The blocks are found by the core; the gates that read the turn's
    flags (the kind allowed, asking, passing, a binding answer, going out with a discard) are the Python engine's
    own checks, until the core's position holds those flags."""

    def __init__(self, rules: Rules) -> None:
        missing = play_listing_missing(rules)
        if missing is not None:
            raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")
        self.rules = rules
        self.melds = NativeSingleMelds(rules)
        self.discards = NativeDiscards(rules)

    def of(self, position: Any, state: HandState) -> Listing:
        """The listing of the seat to act in ``state`` (in play, its side opened), loaded in ``position``."""
        rules, seat = self.rules, state.to_act
        blocks: list[Block] = []
        if bare_refusal(rules, state, seat, "ask") is None:
            blocks.append((ASK,))
        melds = self._melds(position, state)
        blocks.append(melds)
        blocks.append(self._discards(position, state, bool(melds)))
        if "pass" not in rules.refused_kinds and bare_refusal(rules, state, seat, "pass") is None:
            blocks.append((PASS,))
        if bare_refusal(rules, state, seat, "end") is None:
            blocks.append((END,))
        return Listing(blocks)

    def _melds(self, position: Any, state: HandState) -> SingleMelds:
        """The core's legal single melds, each shape's groups as the reference fills them."""
        rules = self.rules
        found = SingleMelds(rules.meld_actions)
        if not single_melds_open(rules, state):
            return found
        hand = hand_cards(rules, state, state.to_act)
        for rank, naturals, twos, jokers, _ways in self.melds.of(position, state):
            parts = (submultisets(hand.naturals[rank], naturals), submultisets(hand.twos, twos), (JOKER,) * jokers)
            label = rank if naturals == 0 and rank != JOKER_RANK else None
            found.add(meld_chunk(parts, label))
        return found

    def _discards(self, position: Any, state: HandState, can_meld: bool) -> list[Action]:
        """The core's discards, where a discard may be made at all: the kind allowed, the turn ending legally with
        it, no binding "yes" that still asks for a meld (hook go_out.answer_binding)."""
        rules, seat = self.rules, state.to_act
        hand_after = state.cards_held(seat) - 1
        if kind_refusal(rules, state, seat, "discard") is not None:
            return []
        if ending_refusal(rules, state, seat, hand_after, side_tally(rules, state, seat), False) is not None:
            return []
        can_still = state.permission == "yes" and hand_after > 0 and can_meld
        if rules.failing_of(ANSWER_BINDING, (state.permission, hand_after, can_still)) is not None:
            return []
        return [DISCARDS[card] for card in self.discards.of(position, seat, hand_after)]
