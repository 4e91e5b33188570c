"""The native core proved against the Python engine, step by step, on generated games of any variant.

Random games are played by the reference. Before every action the core loads the position and must give it back
unchanged; after every action that is a plain card move (a draw, a discard, a meld, a take whose events are only
that move: no bonus card laid out, no replacement drawn, nobody going out), the core makes the same move on its own
copy of the position before and must reach the reference's position after. The core's table values (what every hook
about the table reads) must be the reference's for every seat at every step, and every rule question the reference
asks (``Rules.asked``) is asked again of the core's memo (``memo.py``), whose answer must be the same clause, yes or
no, or number. The card types the core finds discardable (``listing.py``) must be those the reference judges
discardable one by one, and, where the reference's listing offers discards, exactly the ones it lists, in its order;
for every rank the seat to act could meld, the core's valid shapes must be the reference listing's own
(``legal._rank_shapes``, the function its listing calls), in its order, and each shape's count of groups the number
of groups the reference fills it with (``movegen.submultisets``). Where the side to act has opened and may meld, the
core's legal single melds must be the reference listing's meld block, shape by shape in its order, each shape's
count its number of actions there; and there, where the variant does not decline it, the core's whole listing of
the position must be the reference's: the same count, the same actions in the same order, and a sample drawn by
index one of them. The core's score must be the reference's (facts,
parts and totals) at each hand's end, and at every step as the hand would score if it ended there. Any difference is
reported in words.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.actions import Action
from ..engine.blocks import Block, Listing, SingleMelds
from ..engine.cards import JOKER, JOKER_RANK, rank_of
from ..engine.checks import discard_refusal, initial_minimum, table_values
from ..engine.game import Event, Game
from ..engine.legal import _Listing, _melds, _rank_shapes, listing  # the reference listing's own shapes, compared whole
from ..engine.movegen import hand_cards, submultisets
from ..engine.rules import QUESTIONS, Query, Rules
from ..engine.scoring import score_hand
from ..engine.state import HandState, Meld
from ..spec.model import Clause
from . import load_state, new_position, owned_view
from .apply import Applied, NativeApply
from .listing import (
    NativeDiscards,
    NativeListing,
    NativeOpeningCount,
    NativeOpenings,
    NativePlayListing,
    NativeRankShapes,
    NativeShape,
    NativeSingleMelds,
    NativeTakeCount,
    SingleMeldShape,
    openings_missing,
    play_listing_missing,
    rank_shapes_missing,
    single_melds_open,
    takes_missing,
)
from .memo import NativeAnswers
from .score import score

#: The events of a plain move, by kind of action (anything else happened too: the move is not compared).
_PLAIN_EVENTS = {
    "draw": ("draws",),
    "discard": ("discards",),
    "meld": ("melds", "adds to meld"),
    "take": ("takes the pile, ", "picks up ", "melds", "adds to meld"),
}


@dataclass
class Proof:
    """What one variant's run compared, and every disagreement found (empty: the core agrees)."""

    variant: str
    games: int = 0
    positions: int = 0
    moves: Counter[str] = field(default_factory=Counter)
    scores: int = 0
    #: Rule questions asked again of the core's memo, and how many of those it answered without Python.
    answers: int = 0
    answer_hits: int = 0
    #: Positions whose discards the core listed, and of those, how many the reference's listing offered discards in.
    discard_listings: int = 0
    discard_blocks: int = 0
    #: Ranks whose valid shapes the core found, and why it found none (a mechanism it lacks), if so.
    shape_ranks: int = 0
    shapes_missing: str | None = None
    #: Positions whose single melds the core listed (a side opened, melding allowed).
    meld_listings: int = 0
    #: Positions of play (a side opened) the core listed whole, and why it lists none (a mechanism it lacks).
    play_listings: int = 0
    play_missing: str | None = None
    #: Positions of play of a side that has not opened whose openings the core counted (``NativeOpeningCount``).
    opening_counts: int = 0
    #: Positions of the draw phase of a side that has not opened whose actions the core counted
    #: (``NativeTakeCount``), and those it declined, by reason.
    take_counts: int = 0
    #: Of those, the positions whose reference listed a take (its actions compared in order and by index).
    take_listings: int = 0
    takes_declined: Counter[str] = field(default_factory=Counter)
    #: Positions the core listed whole, by phase (play counted above too), and those it does not cover, by reason.
    listings: Counter[str] = field(default_factory=Counter)
    uncovered: Counter[str] = field(default_factory=Counter)
    #: Actions the core applied whole (``apply.py``), by kind, and those it declined, by reason.
    applied: Counter[str] = field(default_factory=Counter)
    apply_declined: Counter[str] = field(default_factory=Counter)
    #: Of the actions applied whole, those applied in C (``native/apply.c``), the rest on the Python path.
    applied_in_c: int = 0
    disagreements: list[str] = field(default_factory=list)

    def summary(self) -> str:
        moves = ", ".join(f"{count} {kind}" for kind, count in sorted(self.moves.items())) or "none"
        found = f"{len(self.disagreements)} disagreements" if self.disagreements else "no disagreement"
        counted = f"{self.games} games, {self.positions} positions, moves {moves}; {self.scores} scores"
        hit_rate = f"{100 * self.answer_hits / self.answers:.1f} % kept" if self.answers else "none asked"
        listed = f"{self.discard_listings} discard listings ({self.discard_blocks} against the reference's block)"
        shapes = (
            f"shapes of {self.shape_ranks} ranks, {self.meld_listings} meld listings"
            if self.shapes_missing is None
            else f"no shapes: {self.shapes_missing}"
        )
        play = (
            f"{self.play_listings} whole listings of play"
            if self.play_missing is None
            else f"no whole listing of play: {self.play_missing}"
        )
        if self.opening_counts:
            play = f"{play}, {self.opening_counts} counts of openings"
        if self.take_counts or self.takes_declined:
            declined = ", ".join(f"{count} ({why})" for why, count in sorted(self.takes_declined.items())) or "none"
            play = (
                f"{play}, {self.take_counts} counts of a draw phase before opening ({self.take_listings} with takes; "
                f"declined: {declined})"
            )
        answered = f"{self.answers} rule answers ({hit_rate})"
        whole = ", ".join(f"{count} {phase}" for phase, count in sorted(self.listings.items())) or "none"
        left = ", ".join(f"{count} ({why})" for why, count in sorted(self.uncovered.items())) or "none"
        covered = f"whole listings by phase: {whole}; not listed: {left}"
        applied = ", ".join(f"{count} {kind}" for kind, count in sorted(self.applied.items())) or "none"
        declined = ", ".join(f"{count} ({why})" for why, count in sorted(self.apply_declined.items())) or "none"
        whole_actions = f"actions applied whole: {applied} ({self.applied_in_c} in C); declined: {declined}"
        return f"{self.variant}: {counted}; {answered}; {listed}; {shapes}; {play}; {covered}; {whole_actions}; {found}"


def prove(rules: Rules, seeds: Iterable[str], most_reported: int = 10) -> Proof:
    """Play a random game from each seed with the reference, comparing the core at every step."""
    proof = Proof(rules.variant.id)
    position = new_position(rules)
    answers = NativeAnswers(rules)
    proof.shapes_missing = rank_shapes_missing(rules)
    proof.play_missing = play_listing_missing(rules)
    natives = _Natives(
        NativeDiscards(rules),
        None if proof.shapes_missing else NativeRankShapes(rules),
        None if proof.shapes_missing else NativeSingleMelds(rules),
        NativeListing(rules),
        NativeApply(rules),
    )
    if openings_missing(rules) is None:
        natives = replace(natives, openings=NativeOpeningCount(NativePlayListing(rules)))
    draw = natives.listing.draw
    if draw is not None and takes_missing(rules) is None:
        natives = replace(natives, takes=NativeTakeCount(rules, draw))
    try:
        for seed in seeds:
            finished = _prove_game(rules, position, answers, natives, seed, proof)
            _prove_score(rules, finished, f"{seed}: the score", proof)
    finally:
        rules.asked = None
    proof.answer_hits = answers.counts()[0]
    proof.applied_in_c = natives.apply.applied_in_c
    del proof.disagreements[most_reported:]
    return proof


@dataclass(frozen=True)
class _Natives:
    """The parts of the listing the core builds, for one Rules (shapes: None where a mechanism is missing)."""

    discards: NativeDiscards
    shapes: NativeRankShapes | None
    single_melds: NativeSingleMelds | None
    listing: NativeListing
    apply: NativeApply
    openings: NativeOpeningCount | None = None
    takes: NativeTakeCount | None = None


def _prove_game(
    rules: Rules, position: Any, answers: NativeAnswers, natives: _Natives, seed: str, proof: Proof
) -> HandState:
    """One game compared step by step; the hand's final state."""
    rules.asked = []
    game = Game(rules, seed=seed)
    pick = random.Random(seed)
    sampler = random.Random(f"{seed}/sample")  # the listing's samples, apart: the game's choices stay the seed's
    proof.games += 1
    step = 0
    while game.state.phase != "over":
        step += 1
        before = game.state.copy()
        load_state(position, before)
        _compare(position, before, f"{seed} step {step}: loaded", proof)
        _compare_table_values(rules, position, before, f"{seed} step {step}", proof)
        _prove_score(rules, before, f"{seed} step {step}: the score if the hand ended here", proof)
        proof.positions += 1
        seat = before.to_act
        legal = game.legal_actions()
        reference = listing(rules, before)  # built once, its rule questions asked once
        _prove_discards(rules, natives.discards, position, before, reference, f"{seed} step {step}", proof)
        if natives.shapes is not None:
            _prove_rank_shapes(rules, natives.shapes, position, before, f"{seed} step {step}", proof)
        if natives.single_melds is not None and single_melds_open(rules, before):
            _prove_single_melds(rules, natives.single_melds, position, before, reference, f"{seed} step {step}", proof)
        _prove_listing(natives.listing, position, before, reference, sampler, f"{seed} step {step}", proof)
        if natives.openings is not None and before.phase == "play" and not before.team_opened[before.side_of[seat]]:
            _prove_opening_count(rules, natives.openings, position, before, f"{seed} step {step}", proof)
        if natives.takes is not None and before.phase == "draw" and not before.team_opened[before.side_of[seat]]:
            _prove_take_count(rules, natives.takes, position, before, reference, f"{seed} step {step}", proof)
        loaded = position.snapshot()
        action = legal[pick.randrange(legal.count())]
        events = game.apply(action)
        _prove_answers(rules, answers, f"{seed} step {step}", proof)
        _prove_apply(natives.apply, position, action, game.state, f"{seed} step {step}", proof)
        position.restore(loaded)
        moves = moves_of_action(before, game.state, seat, action) if plain(action, events) else None
        if moves is not None:
            make_moves(position, moves)
            proof.moves[action.kind] += 1
            _compare(position, game.state, f"{seed} step {step}: after `{action}`", proof, _CARD_MOVES_LEAVE)
    return game.state


def _prove_apply(
    native: NativeApply, position: Any, action: Action, after: HandState, where: str, proof: Proof
) -> None:
    """The core applies the reference's chosen action on the position before it, where it does not decline: the
    position and the turn's flags after must be the reference's, and the hand's end and its reason with them (the
    caller restores the position)."""
    outcome = native.apply(position, action)
    if not isinstance(outcome, Applied):
        proof.apply_declined[outcome] += 1
        return
    proof.applied[action.kind] += 1
    _compare(position, after, f"{where}: after applying `{action}`", proof)
    ended = (after.end_reason, after.went_out) if after.phase == "over" else (None, None)
    if (outcome.ended, outcome.went_out) != ended:
        mine, reference = _ending_text(outcome.ended, outcome.went_out), _ending_text(*ended)
        proof.disagreements.append(f"{where}: after applying `{action}`: core {mine}, reference {reference}")


def _ending_text(reason: str | None, went_out: int | None) -> str:
    if reason is None:
        return "the hand goes on"
    return f"the hand ends ({reason})" + ("" if went_out is None else f", seat {went_out} out")


def plain(action: Action, events: Sequence[Event]) -> bool:
    """Whether an action's events are its card move alone."""
    wanted = _PLAIN_EVENTS.get(action.kind)
    return wanted is not None and all(event.what.startswith(wanted) for event in events)


#: One call of the core's moves: the method's name and its arguments.
Move = tuple[str, tuple[Any, ...]]


def moves_of_action(before: HandState, after: HandState, seat: int, action: Action) -> list[Move] | None:
    """The core's moves that make ``action``'s card move from ``before``; None where it is not one the core makes
    alone (a take of the top card only). Where cards go and which melds close are rules, which the reference decided
    (read from ``after``); the core moves the cards and keeps the counts."""
    if action.kind == "draw":
        return [("draw", (seat, len(before.stock) - len(after.stock)))]
    if action.kind == "discard":
        return [("discard", (seat, action.cards[0])), ("pass_turn", ())]
    if action.kind == "take" and after.pile:
        return None
    moves: list[Move] = [("pick_up", (seat, 0))] if action.kind == "take" else []
    side = before.side_of[seat]
    old, new = before.melds[side], after.melds[side]
    for index, meld in enumerate(new):
        known = old[index] if index < len(old) else None
        gained = _gained(known, meld)
        if gained:
            moves.append(("lay", (seat, -1 if known is None else index, meld.rank, gained)))
        if meld.closed and not (known is not None and known.closed):
            moves.append(("close", (side, index)))
    return moves


def make_moves(position: Any, moves: Sequence[Move]) -> None:
    """Make the moves on the core's position."""
    for name, arguments in moves:
        getattr(position, name)(*arguments)


def _gained(before: Meld | None, after: Meld) -> list[int]:
    """The cards ``after`` holds that ``before`` did not."""
    grown = Counter(after.cards) - Counter(before.cards if before else ())
    return sorted(grown.elements())


def _compare_table_values(rules: Rules, position: Any, state: HandState, where: str, proof: Proof) -> None:
    for seat in range(rules.players):
        mine, reference = position.table_values(seat), table_values(rules, state, seat)
        if mine != reference:
            differ = f"core {_text(mine)}, reference {_text(reference)}"
            proof.disagreements.append(f"{where}: seat {seat}'s table values differ: {differ}")


def _prove_answers(rules: Rules, answers: NativeAnswers, where: str, proof: Proof) -> None:
    """Every question the reference asked since the last call, asked again of the core's memo and of ``Rules``
    (not recording: these are the proof's questions), the answers compared."""
    asked, rules.asked = rules.asked or [], None
    for query, values, question in asked:
        mine = answers.ask(query, question, values)
        reference = _reference_answer(rules, query, question, values)
        proof.answers += 1
        if mine is not reference and mine != reference:
            proof.disagreements.append(
                f"{where}: {query.hook} asked with {_text(values)}: core {_text(mine)}, reference {_text(reference)}"
            )
    rules.asked = []


def _prove_discards(
    rules: Rules,
    discards: NativeDiscards,
    position: Any,
    state: HandState,
    reference_listing: Listing,
    where: str,
    proof: Proof,
) -> None:
    """The core's discardable card types against the reference's verdict on each card held, and against the
    discards its listing offers (where it offers any: whether a discard may be made at all is not the core's yet)."""
    seat = state.to_act
    mine = discards.of(position, seat, state.cards_held(seat) - 1)
    hand = state.hands[seat]
    judged = tuple(
        card for card in range(len(hand)) if hand[card] and discard_refusal(rules, state, seat, card) is None
    )
    listed = tuple(a.cards[0] for block in reference_listing.blocks for a in _discard_block(block))
    proof.discard_listings += 1
    proof.discard_blocks += bool(listed)
    for what, reference in (("judged one by one", judged), ("listed", listed or mine)):
        if mine != reference:
            proof.disagreements.append(
                f"{where}: discards differ: core {_text(mine)}, reference {what} {_text(reference)}"
            )


def _prove_rank_shapes(
    rules: Rules, shapes: NativeRankShapes, position: Any, state: HandState, where: str, proof: Proof
) -> None:
    """For each rank the seat to act could meld, the core's valid shapes against the reference listing's."""
    seat = state.to_act
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    found = _Listing(rules, state)
    hand = hand_cards(rules, state, seat)
    for rank in hand.meld_ranks(state.melds[team]):
        mine = shapes.of(position, seat, rank, initial)
        listed = _rank_shapes(found, rank, hand.count(rank), hand.twos_total, hand.jokers, initial)
        reference: list[NativeShape] = [
            (
                n,
                t,
                j,
                staying,
                leaving,
                kind,
                len(submultisets(hand.naturals[rank], n)) * len(submultisets(hand.twos, t)),
            )
            for n, t, j, staying, leaving, kind, _unfinished in listed
        ]
        proof.shape_ranks += 1
        if mine != reference:
            differ = f"core {_text(mine)}, reference {_text(reference)}"
            proof.disagreements.append(f"{where}: the shapes of rank {rank} differ: {differ}")


def _prove_single_melds(
    rules: Rules,
    melds: NativeSingleMelds,
    position: Any,
    state: HandState,
    reference_listing: Listing,
    where: str,
    proof: Proof,
) -> None:
    """The core's legal single melds against the reference listing's block of them, shape by shape."""
    mine = melds.of(position, state)
    reference = reference_single_melds(rules, reference_listing)
    proof.meld_listings += 1
    if mine != reference:
        proof.disagreements.append(f"{where}: single melds differ: core {_text(mine)}, reference {_text(reference)}")


def _prove_listing(
    native: NativeListing,
    position: Any,
    state: HandState,
    reference: Listing,
    pick: random.Random,
    where: str,
    proof: Proof,
) -> None:
    """The core's whole listing of a position it covers against the reference's: count, list, and a sample."""
    minimum = initial_minimum(native.rules, state, state.to_act)  # the scores it reads are not the core's
    mine = native.of(position, minimum)
    if mine is None:
        proof.uncovered[native.uncovered(position, minimum) or "none"] += 1
        return
    proof.listings[state.phase] += 1
    proof.play_listings += state.phase == "play"
    if mine.count() != reference.count():
        proof.disagreements.append(f"{where}: the listing counts {mine.count()}, the reference {reference.count()}")
    elif list(mine) != list(reference):
        proof.disagreements.append(f"{where}: the listing differs from the reference's, same count")
    elif mine and mine[pick.randrange(mine.count())] not in set(reference):
        proof.disagreements.append(f"{where}: a sample of the listing is not among the reference's actions")


def _prove_opening_count(
    rules: Rules, openings: NativeOpeningCount, position: Any, state: HandState, where: str, proof: Proof
) -> None:
    """The core's openings of a side that has not opened against the reference's meld block: the count, the
    actions walked in order, and each one found by its index (the first ``_INDEXED`` of them)."""
    minimum = initial_minimum(rules, state, state.to_act)
    count = openings.count(position, minimum)
    reference = _melds(rules, state, _Listing(rules, state))
    proof.opening_counts += 1
    if count != len(reference):
        proof.disagreements.append(f"{where}: the core counts {count} openings, the reference {len(reference)}")
        return
    melds = openings.of(position, minimum).blocks
    mine = next((block for block in melds if isinstance(block, NativeOpenings)), ())
    listed = list(reference)
    if list(mine) != listed:
        proof.disagreements.append(f"{where}: the core's openings differ from the reference's, same count")
    elif any(mine[index] != listed[index] for index in range(min(count, _INDEXED))):
        proof.disagreements.append(f"{where}: an opening found by its index differs from the reference's")


def _prove_take_count(
    rules: Rules, takes: NativeTakeCount, position: Any, state: HandState, reference: Listing, where: str, proof: Proof
) -> None:
    """The core's draw phase of a side that has not opened against the reference's listing: the count, the actions
    walked in order, and each one found by its index (the first ``_INDEXED`` of them)."""
    minimum = initial_minimum(rules, state, state.to_act)
    declined = takes.declined(position) or takes.past_count(position, minimum)
    if declined is not None:
        proof.takes_declined[declined] += 1
        return
    count = takes.count(position, minimum)
    proof.take_counts += 1
    if count != reference.count():
        proof.disagreements.append(
            f"{where}: the core counts {count} actions of the draw phase before opening, the reference "
            f"{reference.count()}"
        )
        return
    mine = takes.of(position, minimum)
    listed = list(reference)
    proof.take_listings += any(action.kind == "take" for action in listed)
    if mine.count() != count or list(mine) != listed:
        proof.disagreements.append(f"{where}: the core's draw phase before opening differs from the reference's")
    elif any(mine[index] != listed[index] for index in range(min(count, _INDEXED))):
        proof.disagreements.append(f"{where}: an action of the draw phase before opening found by its index differs")


#: How many openings of a position the proof finds by index (each call counts the whole block again).
_INDEXED = 200


def reference_single_melds(rules: Rules, reference: Listing) -> list[SingleMeldShape]:
    """The reference listing's single melds, shape by shape in its order, each with its number of actions."""
    found: list[SingleMeldShape] = []
    for block in reference.blocks:
        for action in block if isinstance(block, SingleMelds) else ():
            shape = _meld_shape(rules, action)
            if found and found[-1][:4] == shape:
                found[-1] = (*shape, found[-1][4] + 1)
            else:
                found.append((*shape, 1))
    return found


def _meld_shape(rules: Rules, action: Action) -> tuple[int, int, int, int]:
    """A single meld's rank and its natural cards, other wild cards and jokers."""
    group = action.melds[0]
    naturals = [card for card in group.cards if not rules.is_wild[card]]
    jokers = group.cards.count(JOKER)
    rank = rank_of(naturals[0]) if naturals else JOKER_RANK if group.rank is None else group.rank
    return rank, len(naturals), len(group.cards) - len(naturals) - jokers, jokers


def _discard_block(block: Block) -> Sequence[Action]:
    """A listing's block if it is its discards (a plain sequence of discard actions), else nothing."""
    if isinstance(block, (list, tuple)) and block and isinstance(block[0], Action) and block[0].kind == "discard":
        return block
    return ()


def _reference_answer(rules: Rules, query: Query, question: int, values: tuple[Any, ...]) -> Any:
    return getattr(rules, f"{QUESTIONS[question]}_of")(query, values)


#: What card moves leave as it was: the turn's flags are a whole action's (apply), not a card move's.
_CARD_MOVES_LEAVE = frozenset({"turn"})


def _compare(position: Any, state: HandState, where: str, proof: Proof, unmoved: frozenset[str] = frozenset()) -> None:
    mine, reference = position.export(), owned_view(state)
    for name, value in reference.items():
        if name not in unmoved and mine[name] != value:
            proof.disagreements.append(f"{where}: {name} differs: core {_text(mine[name])}, reference {_text(value)}")


def _text(value: Any) -> str:
    """A value as plain text (card lists by name where they are cards would be guesswork: numbers it is)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_text(item) for item in value) + "]"
    if isinstance(value, Clause):
        return f"clause {value.id}"
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "none"}[value]
    return str(value)


def _prove_score(rules: Rules, state: HandState, what: str, proof: Proof) -> None:
    """The core's score of a hand (finished, or as it would stand if it ended now: every count it reads is there
    mid-hand too) against the reference's: facts, parts and totals."""
    mine, reference = score(rules, state).to_json(), score_hand(rules, state).to_json()
    proof.scores += 1
    if mine != reference:
        proof.disagreements.append(f"{what} differs: core {mine}, reference {reference}")
