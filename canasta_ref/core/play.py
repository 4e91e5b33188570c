"""Random play of whole hands on the native core (issue 40): the loop in C (``native/play.c``), Python only where
the core does not list a position.

The core lists, chooses uniformly by index with a generator the position holds (splitmix64: the same seed, the
same hand) and applies, all in C (an opening made from its index there too, its groups sharing the hand's wild
cards; and the takes of a side that has not opened, counted with the opening, each made from its index), until the
hand ends or a position it does not list: openings or takes it does not count (more wild cards than its counting
tracks, more actions than its count holds). There the driver lists with the core's Python-side listing
(``NativeListing``) or, where that lists nothing, with the Python engine on a ``HandState`` made from the core's
position (``state_of``), chooses with the same generator (``Position.below``), applies through ``NativeApply`` and
resumes the loop.

The proof (``replay``) plays every recorded action again through the reference ``Game``: each must be one its
listing offers, and the position, the hand's end and its score must be the reference's at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..engine.actions import Action, MeldGroup
from ..engine.checks import _MINIMUM as MINIMUM  # the engine's own question, asked as it asks it
from ..engine.game import Game
from ..engine.legal import listing as reference_listing
from ..engine.rules import Rules
from ..engine.scoring import score_hand
from ..engine.state import HandState
from . import PHASES, CoreUnavailable, load_state, new_position, owned_view
from .apply import NATIVE_KINDS, Applied, NativeApply, applied_of, encode
from .listing import NativeListing, bound_context
from .proof import _ending_text as ending_text
from .rebuild import beside_of, rebuild_state
from .score import score

#: Why ``Position.play`` stopped (``native/play.c``'s STOP_ codes).
_OVER, _PYTHON, _MOST = range(1, 4)
#: The most actions one call of the loop applies: a hand is far shorter; a loop that never ends is a fault.
MOST_ACTIONS: Final = 100_000
_OVER_PHASE: Final = PHASES.index("over")
#: The actions with no cards, by kind.
_BARE: Final = {
    "draw": Action.draw(),
    "ask": Action.ask(),
    "yes": Action.answer(True),
    "no": Action.answer(False),
    "pass": Action("pass"),
    "end": Action("end"),
}


@dataclass
class PlayedHand:
    """One hand played at random on the core: its deal's seed and the generator's, how it ended, how many
    actions the C loop chose and applied and how many went to Python, and the actions (encoded) where recorded."""

    deal: str
    seed: int
    ended: Applied = field(default_factory=Applied)
    #: The sides' scores carried into the hand (none: a match's first hand) and the hand's number.
    scores: tuple[int, ...] = ()
    hand_number: int = 1
    in_c: int = 0
    in_python: int = 0
    actions: list[tuple[int, ...]] = field(default_factory=list)
    #: How many actions each recorded action was chosen among (its listing's count).
    counts: list[int] = field(default_factory=list)
    #: The core's position at the hand's end (``Position.export``), where the actions are recorded.
    final: dict[str, Any] = field(default_factory=dict)


class RandomPlay:
    """Plays whole hands of one variant at random on the core; raises CoreUnavailable where the core lists or
    applies too little of it (a mechanism it lacks, named)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.listing = NativeListing(rules)
        play, draw = self.listing.play, self.listing.draw
        if play is None or draw is None:
            reason = self.listing.play_missing or self.listing.draw_missing
            raise CoreUnavailable(f"the native core does not list {rules.variant.id}: it lacks {reason}")
        self.apply = NativeApply(rules)
        if self.apply.context is None:
            raise CoreUnavailable(f"the native core does not apply {rules.variant.id}'s actions in C")
        self.context = bound_context(play.melds, play=play.play_part(), draw=(draw.memos, draw.codes))
        openings, takes = self.listing.openings, self.listing.takes
        self.openings = None if openings is None else openings.questions
        #: Hook initial_meld.composition_from_hand, with which the loop chooses the takes of a side that has not
        #: opened in C; None: they are chosen in Python, as ``_chosen`` lists them (the same action at the same
        #: index: a test sets it to compare both).
        self.takes: bool | None = None if takes is None or openings is None else takes.from_hand
        self.answers = self.listing.kind_codes[:2]  # action.allowed's codes of yes and no (``_BARE_KINDS``)
        self._minimums: tuple[tuple[int, ...], ...] = ()
        self.position = new_position(rules)

    def hand(
        self, deal: str, seed: int, record: bool = False, scores: Sequence[int] = (), hand_number: int = 1
    ) -> PlayedHand:
        """Deal a hand from ``deal`` (as ``Game(rules, seed=deal)`` does, the sides carrying ``scores`` into hand
        ``hand_number``) and play it to its end, choosing with the generator started from ``seed``; the actions
        recorded where ``record`` asks."""
        start = _dealt(self.rules, deal, tuple(scores), hand_number)
        position = load_state(self.position, start)
        position.seed(seed)
        self._minimums = self.minimums(start)
        position.set_minimums(self._minimums)
        played = PlayedHand(deal, seed, scores=tuple(scores), hand_number=hand_number)
        record_in = (played.actions, played.counts) if record else None
        while position.where()[0] != _OVER_PHASE:
            stop, ended, applied = position.play(
                self.context, self.apply.context, self.openings, self.answers, record_in, MOST_ACTIONS, self.takes
            )
            played.in_c += applied
            if applied:
                played.ended = applied_of(ended)
            if stop == _OVER:
                break
            if stop == _MOST:
                raise RuntimeError(f"native core: hand {deal} not over after {MOST_ACTIONS} actions")
            action, count = self._chosen(start)
            played.ended = self._applied(action)
            played.in_python += 1
            if record:
                played.actions.append(encode(action))
                played.counts.append(count)
        if record:
            played.final = position.export()
        return played

    def minimums(self, start: HandState) -> tuple[tuple[int, ...], ...]:
        """Each seat's initial meld minimum by the side it is on (hook initial_meld.minimum): it reads the sides'
        scores and the hand's number, which a hand does not change, so it is asked once a hand."""
        scores, holder = start.team_scores, self.rules.score_holder
        return tuple(
            tuple(self.rules.value_of(MINIMUM, (score, scores[holder[seat]], start.hand_number)) for score in scores)
            for seat in range(self.rules.players)
        )

    def _minimum(self) -> int:
        """The seat to act's minimum, as the hand's start gave it."""
        seat = self.position.where()[1]
        minimum: int = self._minimums[seat][self.position.side_of(seat)]
        return minimum

    def _chosen(self, start: HandState) -> tuple[Action, int]:
        """An action chosen with the core's generator where the loop does not list, by the core's Python-side
        listing or by the Python engine on the position made a ``HandState``; and how many it was chosen among."""
        position = self.position
        found = self.listing.of(position, self._minimum())
        if found is None:
            found = reference_listing(self.rules, state_of(self.rules, position, start))
        count = found.count()
        if count == 0:
            raise RuntimeError("native core: a position of random play lists no action")
        return found[position.below(count)], count

    def _applied(self, action: Action) -> Applied:
        outcome = self.apply.apply(self.position, action)
        if isinstance(outcome, str):
            raise CoreUnavailable(f"the native core does not apply `{action}`: {outcome}")
        return outcome


def _dealt(rules: Rules, deal: str, scores: tuple[int, ...], hand_number: int) -> HandState:
    """The hand dealt from ``deal``, as a match deals hand ``hand_number`` with the sides' ``scores``."""
    return Game(rules, seed=deal, team_scores=scores or None, hand_number=hand_number).state


def state_of(rules: Rules, position: Any, start: HandState) -> HandState:
    """The ``HandState`` of the core's ``position`` where the seat to act's side has not opened, for the Python
    engine's listing (``rebuild.rebuild_state``): what the core does not hold comes from the hand's ``start``, as
    it stands for a side that has not melded this hand (no melds this turn), and a seat has melded where its side
    has opened."""
    if position.where()[2]:
        raise CoreUnavailable("the native core's position is made a HandState only where the side has not opened")
    state = rebuild_state(rules, position, beside_of(start))
    state.seat_melded = [state.team_opened[side] for side in state.side_of]
    return state


def decode(encoded: tuple[int, ...]) -> Action:
    """An encoded action (``apply.encode``) as the reference's ``Action``, in canonical form."""
    kind, target, count = NATIVE_KINDS[encoded[0]], encoded[1], encoded[2]
    cards, at = encoded[3 : 3 + count], 3 + count
    groups = []
    for _ in range(encoded[at]):
        label, group_target, size = encoded[at + 1 : at + 4]
        groups.append(MeldGroup.of(encoded[at + 4 : at + 4 + size], None if label < 0 else label, group_target))
        at += 3 + size
    if kind == "meld":
        return Action.meld(groups)
    if kind == "take":
        return Action.take(cards, groups, target)
    if kind == "discard":
        return Action.discard(cards[0])
    if kind == "combine":
        return Action.combine(groups[0].target, groups[1].target)
    return _BARE[kind]


def replay(rules: Rules, played: PlayedHand) -> list[str]:
    """``played``'s actions through the reference ``Game`` from the same deal: the faults found, in words (none:
    every action one the reference lists, chosen among as many actions as it lists, and the position, the hand's
    end and who went out the reference's)."""
    game = Game(rules, seed=played.deal, team_scores=played.scores or None, hand_number=played.hand_number)
    where = f"hand {played.deal}, seed {played.seed}"
    for step, (encoded, count) in enumerate(zip(played.actions, played.counts, strict=True), 1):
        action, legal = decode(encoded), game.legal_actions()
        if game.state.phase == "over" or action not in legal:
            return [f"{where}: action {step}, `{action}`, is not legal in the reference"]
        if len(legal) != count:
            return [f"{where}: action {step}, `{action}`, chosen among {count} actions, the reference's {len(legal)}"]
        game.apply(action)
    return _ending_faults(rules, game.state, played)


def _ending_faults(rules: Rules, state: HandState, played: PlayedHand) -> list[str]:
    """How the core's position and hand's end differ from the reference's after the same actions."""
    where = f"hand {played.deal}, seed {played.seed}"
    faults = [f"{where}: the reference's hand is not over"] if state.phase != "over" else []
    reference = owned_view(state)
    faults += [
        f"{where}: {name} differs at the end" for name, value in reference.items() if played.final[name] != value
    ]
    if (played.ended.ended, played.ended.went_out) != (state.end_reason, state.went_out):
        mine, theirs = (
            ending_text(played.ended.ended, played.ended.went_out),
            ending_text(state.end_reason, state.went_out),
        )
        faults.append(f"{where}: the hand's end differs: core {mine}, reference {theirs}")
    if state.phase == "over" and score(rules, state).to_json() != score_hand(rules, state).to_json():
        faults.append(f"{where}: the core's score of the hand differs from the reference's")
    return faults


@dataclass
class PlayProof:
    """Hands played by the core's loop and replayed through the reference, for one variant: the counts, and the
    faults found (the first few)."""

    variant: str
    hands: int = 0
    in_c: int = 0
    in_python: int = 0
    faults: list[str] = field(default_factory=list)

    def summary(self) -> str:
        actions = self.in_c + self.in_python
        share = f"{100 * self.in_python / actions:.1f} %" if actions else "none"
        verdict = (
            f"{len(self.faults)} faults" if self.faults else "every action one it lists, chosen among as many, no fault"
        )
        return (
            f"{self.variant}: {self.hands} hands played by the core's loop, {actions:,} actions ({self.in_c:,} in C, "
            f"{share} from Python), replayed through the reference: {verdict}"
        )


def prove_play(rules: Rules, seed: int, hands: int, most_reported: int = 10) -> PlayProof:
    """Play ``hands`` hands on the core (deals ``seed``/1, ``seed``/2, ...; the generator seeded with the hand's
    number) and replay each through the reference (``replay``)."""
    proof = PlayProof(rules.variant.id)
    play = RandomPlay(rules)
    for number in range(1, hands + 1):
        played = play.hand(f"{seed}/{number}", number, record=True)
        proof.hands += 1
        proof.in_c += played.in_c
        proof.in_python += played.in_python
        proof.faults += replay(rules, played)
    del proof.faults[most_reported:]
    return proof
