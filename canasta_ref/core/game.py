"""A game played on the native core: ``Game(variant, ..., core="native")``.

The core's position is the truth, with what it does not hold kept beside it (``rebuild.Beside``). The Python engine
answers exactly where the core cannot, on a ``HandState`` rebuilt from the position (``rebuild.rebuild_state``, once
per position): the listing of a position the core does not cover (``NativeListing.uncovered``), an action the core
does not apply (``NativeApply`` declines it, or it forms a lone hand or combines two melds, whose bookkeeping of the
fields kept beside is the Python engine's), the judgement of an action the core's listing does not hold (so a
refusal keeps its rule, text and source: ``_listed_on_core``), the views and the score. Actions the core applies
produce no events (the log is the Python engine's: ``apply`` returns an empty list for them, and ``events`` holds
only those of the Python engine).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Final

from ..engine.actions import BARE_KINDS, Action
from ..engine.blocks import Listing
from ..engine.cards import Card
from ..engine.checks import Plan, concealed_now
from ..engine.game import Event, Game
from ..engine.judge import plan
from ..engine.legal import listing
from ..engine.position import Position
from ..engine.rules import Query, Rules
from ..engine.scoring import HandScore
from ..engine.state import HandState
from ..errors import CanastaError
from ..spec.model import Variant
from . import PHASES, core_tables, load_state, new_position
from .apply import Applied, NativeApply, apply_missing
from .listing import NativeListing, NativeMelds, openings_missing, play_listing_missing, takes_missing
from .rebuild import Beside, MeldCache, beside_of, rebuild_state

#: What always runs on the Python engine in a game on the core (``core_note``).
_ALWAYS_IN_PYTHON: Final = "the judging of an action the core did not list, views, score and the log"
#: Kinds of action whose fields kept beside the position the Python engine keeps (the places of the melds made this
#: turn move when two melds combine). Every action is applied by the Python engine while rule coverage is recorded
#: (``Rules.coverage``): the core's apply notes no rule.
_APPLIED_BY_PYTHON: Final = frozenset({"combine"})
_OVER: Final = PHASES.index("over")
_PLAY: Final = PHASES.index("play")
_DRAW: Final = PHASES.index("draw")
#: The question ``checks.initial_minimum`` asks, with the same values, of the scores kept beside the position.
_INITIAL_MINIMUM: Final = Query("initial_meld.minimum", ("team_score", "player_score", "hand_number"))
#: The kinds of action that lay cards on the side's melds, whose steps the turn's record keeps (``_Step``).
_MELDING: Final = frozenset({"meld", "take"})
#: The kinds of action that may pass the turn to the next seat.
_PASSING: Final = frozenset({"discard", "pass"})

#: A step the core applied that changes the fields kept beside the position, noted as it is applied and folded into
#: them only when they are asked for (``NativeGame._beside_now``): a meld or a take (the seat, and the sizes of its
#: side's melds before and after: cards are only added to a meld on the core, so a meld that grew is one added to),
#: or the turn passed (the seat whose turn it is).
_Step = int | tuple[int, tuple[int, ...], tuple[int, ...]]
#: The counts of ``NativeGame.ran``, by what ran.
_LISTED_ON_CORE: Final = "listing on the core"
_LISTED_IN_PYTHON: Final = "listing on the Python engine"
_APPLIED_ON_CORE: Final = "apply on the core"
_APPLIED_IN_PYTHON: Final = "apply on the Python engine"


class _Natives:
    """The core's listing and apply for one Rules, made once (binding a variant's memos costs more than a hand)."""

    def __init__(self, rules: Rules) -> None:
        self.listing = NativeListing(rules)
        self.apply = NativeApply(rules)
        #: The melds rebuilt states hold, shared by every game of ``rules`` (``rebuild_state``'s ``melds``).
        self.melds: MeldCache = {}
        #: The tables an empty position is made from (``core_tables``), read from the spec once, not every deal.
        self.tables = core_tables(rules)
        #: What runs where (``core_note``), worded once, not every deal.
        self.note = core_note(rules)


#: The core's listing and apply of the Rules most recently played, the newest last: a few, as each keeps its Rules
#: alive (a process that makes a new Rules a pass, as the benchmarks do, would otherwise keep them all).
_NATIVES: list[tuple[Rules, _Natives]] = []
_NATIVES_KEPT: Final = 8


def natives_of(rules: Rules) -> _Natives:
    for place, (known, natives) in enumerate(_NATIVES):
        if known is rules:
            _NATIVES.append(_NATIVES.pop(place))
            return natives
    made = _Natives(rules)
    _NATIVES.append((rules, made))
    del _NATIVES[:-_NATIVES_KEPT]
    return made


def core_note(rules: Rules) -> str:
    """What runs where in a game of ``rules`` on the core, in words (``Game.core_note``): read from the mechanisms
    the variant uses that the core lacks, never from its name."""
    listed = _listed_by_python(rules)
    apply_lacks = apply_missing(rules)
    applied = (
        f"every action, for {apply_lacks}"
        if apply_lacks
        else "combining two melds, a lone hand formed, keeping a bonus card and special hands"
    )
    return f"plays on the native core; on the Python engine: {listed}; {applied}; {_ALWAYS_IN_PYTHON}"


def _listed_by_python(rules: Rules) -> str:
    """The listings of a game of ``rules`` that run on the Python engine, in words (``core_note``)."""
    listing_missing = play_listing_missing(rules)
    if listing_missing:
        return f"every listing but answering and keeping, for {listing_missing}"
    if openings_missing(rules):
        return "the listing of a side that has not opened"
    if takes_missing(rules):
        return (
            "a side that has not opened: its takes of the pile; its openings with more wild cards than the core counts"
        )
    return "a side that has not opened, its takes of the pile or openings with more wild cards than the core counts"


class NativeLegalActions:
    """``Game.legal_actions`` of a game on the core: the same queries over the core's listing (or the Python
    engine's where the core does not cover the position), each action handed out noted so ``apply`` need not judge
    it again. (The engine's ``LegalActions`` takes a ``Game``, which a mypyc build checks.)"""

    def __init__(self, game: NativeGame) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Action]:
        """The listing's actions, one by one, each noted as handed out (as ``Game._list_legal`` walks them: a
        first page of a huge listing builds no more). If the position moves meanwhile (``apply``, then ``undo``),
        the rest is listed in full from the position then current, and no longer noted."""
        game = self._game
        listed = game._listing()
        handed_out: list[Action] | None = game._handed_out
        walk = iter(listed)
        place = 0
        while True:
            if handed_out is not None and game._listed is not listed:
                walk = iter(list(game._listing())[place:])
                handed_out = None
            action = next(walk, None)
            if action is None:
                return
            if handed_out is not None:
                handed_out.append(action)
            place += 1
            yield action

    def count(self) -> int:
        """How many legal actions there are (``LegalActions.count``; ``len`` too)."""
        return self._listing().count()

    __len__ = count

    def __getitem__(self, index: int) -> Action:
        return self._handing_out(self._listing()[index])

    def kinds(self) -> list[tuple[str, int]]:
        """The kinds of the legal actions in listing order, each with its count (``LegalActions.kinds``)."""
        return self._listing().kinds()

    def of_kind(self, kind: str, index: int) -> Action:
        """The ``index``-th legal action of ``kind`` in listing order (``LegalActions.of_kind``), noted as handed
        out."""
        return self._handing_out(self._listing().of_kind(kind, index))

    def sample(self, rng: random.Random) -> Action:
        """One legal action drawn uniformly with ``rng``: the one ``LegalActions.sample`` draws."""
        total = self.count()
        if total == 0:
            raise IndexError("there is no legal action to sample")
        return self._handing_out(self._listing().draw(rng.randrange(total)))

    def __bool__(self) -> bool:
        return bool(self._listing())

    def __contains__(self, action: object) -> bool:
        """Judged by the Python engine on the rebuilt state, as ``LegalActions`` judges it."""
        return isinstance(action, Action) and self._game.is_legal(action)

    def _listing(self) -> Listing:
        return self._game._listing()

    def _handing_out(self, action: Action) -> Action:
        self._game._handed_out.append(action)
        return action

    def __repr__(self) -> str:
        return f"<LegalActions on the native core ({self.count()} actions)>"


class NativeGame:
    """A hand played on the core, with the public API of ``Game`` (``Game.__new__`` makes one for
    ``core="native"`` where the core is built). It holds a ``Game`` of the Python engine rather than extending it,
    as a mypyc build compiles ``Game`` and an interpreted class cannot extend a compiled one: that game deals, and
    answers on the state rebuilt from the position where the core cannot. ``state`` is a ``HandState`` rebuilt from
    the position when read, and loaded into it when set; it is a view to read, not to change in place."""

    _rebuilt: HandState | None
    _listed: Listing | None
    _handed_out: list[Action]
    #: The fields kept beside the position as they stood after the first ``_folded`` of ``_steps``: the steps after
    #: those are folded in when the fields are asked for (``_beside_now``), not at every action. Their scores and
    #: hand's number, which no step changes, are read from it as they are.
    _beside: Beside
    _steps: list[_Step]
    _folded: int

    def __init__(self, variant: Variant | Rules, **arguments: Any) -> None:
        self._python = Game(variant, **{**arguments, "core": "python"})
        reference = self._python
        self.rules: Rules = reference.rules
        self.seed = reference.seed
        self.deck = reference.deck
        self.first_seat = reference.first_seat
        self.events: list[Event] = list(reference.events)
        self.history: list[Action] = []
        self.core = "native"
        #: How many listings and applies ran on the core and on the Python engine ("listing on the core", ...).
        self.ran: Counter[str] = Counter()
        self._natives = natives_of(self.rules)
        self.core_note = self._natives.note
        self._forms_sides = self.rules.forms_sides
        #: What undo restores: the core's snapshot, ``_beside``, ``_folded``, how many steps and events there were.
        self._undo: list[tuple[Any, Beside, int, int, int]] = []
        self._position: Any = new_position(self.rules, self._natives.tables)
        self._steps = []
        self.state = reference.state

    @classmethod
    def from_position(cls, variant: Variant | Rules, position: Position, core: str = "native") -> Game:
        """``Game.from_position``: a hand from a position written out card by card, on the core asked for."""
        return Game.from_position(variant, position, core)

    # -- the position ----------------------------------------------------------------------------------
    @property
    def state(self) -> HandState:
        """The position as a HandState, rebuilt once per position."""
        if self._rebuilt is None:
            self._rebuilt = rebuild_state(self.rules, self._position, self._beside_now(), self._natives.melds)
        return self._rebuilt

    @state.setter
    def state(self, value: HandState) -> None:
        load_state(self._position, value)
        self._beside = beside_of(value)
        self._folded = len(self._steps)
        self._moved()
        self._rebuilt = value

    def _beside_now(self) -> Beside:
        """The fields kept beside the position as they stand: the steps applied since they were last asked for
        folded in, once (a turn of steps costs one copy of them, not one an action)."""
        steps = self._steps
        if self._folded < len(steps):
            self._beside = _after_steps(self._beside, steps[self._folded :])
            self._folded = len(steps)
        return self._beside

    def _moved(self) -> None:
        """The position changed: nothing computed from the old one holds."""
        self._rebuilt = None
        self._listed = None
        self._handed_out = []

    def _reference(self) -> Game:
        """The Python engine's game, on the state rebuilt from the position, to answer what the core does not."""
        state = self.state
        if self._python.state is not state:
            self._python.state = state
        return self._python

    @property
    def to_act(self) -> int:
        return int(self._position.where()[1])

    @property
    def is_over(self) -> bool:
        return bool(self._position.where()[0] == _OVER)

    # -- the listing and the questions the Python engine answers ---------------------------------------
    def legal_actions(self) -> NativeLegalActions:
        return NativeLegalActions(self)

    def _listing(self) -> Listing:
        """The core's listing where it covers the position, else the Python engine's of the rebuilt state."""
        if self._listed is None:
            native = self._natives.listing.of(self._position, self._initial_minimum())
            self.ran[_LISTED_ON_CORE if native is not None else _LISTED_IN_PYTHON] += 1
            self._listed = native if native is not None else listing(self.rules, self.state)
        return self._listed

    def _initial_minimum(self) -> int | None:
        """The initial meld's minimum of the side to act where it draws or plays not yet opened (the core lists its
        takes of the pile and its openings with it), else None: asked of the scores kept beside the position as
        ``checks.initial_minimum`` asks."""
        phase, seat, opened = self._position.where()
        if opened or phase not in (_PLAY, _DRAW):
            return None
        scores = self._beside.team_scores
        values = (scores[self._position.side_of(seat)], scores[self.rules.score_holder[seat]], self._beside.hand_number)
        return self.rules.value_of(_INITIAL_MINIMUM, values)

    def _was_listed(self, action: Action) -> bool:
        """Whether the listing handed out ``action`` or one equal to it (as the protocol's actions arrive, parsed
        from text) for this position: equal actions are equally legal, so it need not be judged again."""
        return action in self._handed_out

    def _listed_on_core(self, action: Action) -> bool:
        """Whether the core's listing of this position holds ``action``, so it need not be judged on a state rebuilt
        for it (most actions arrive unlisted: a protocol client applies without asking ``legal``). Only the blocks
        held whole (bare actions, discards, takes of a side opened) and single melds are searched; an action
        elsewhere (an opening, a take of a side not opened), or in a position the core does not list, is judged by
        the Python engine as before, which also gives a refusal its rule and text; so is every action while rule
        coverage is recorded (``Rules.coverage``), which counts the rules a judgement asks, not a listing's."""
        if self.rules.coverage is not None:
            return False
        listed = self._listed
        if listed is None:
            alone = self._natives.listing.holds_alone(self._position, action)
            if alone is not None:
                return alone
            listed = self._natives.listing.of(self._position, self._initial_minimum())
            if listed is None:
                return False
            self.ran[_LISTED_ON_CORE] += 1
            self._listed = listed
        melding = action.kind == "meld"
        return any(
            action in block
            for block in listed.blocks
            if isinstance(block, (tuple, list)) or (melding and isinstance(block, NativeMelds))
        )

    def bare_legal_actions(self) -> list[Action]:
        """``Game.bare_legal_actions``, of the listing this game uses."""
        bare = [*BARE_KINDS, "declare"]
        return [
            action
            for block in self._listing().blocks
            if isinstance(block, (tuple, list))
            for action in block
            if action.kind in bare
        ]

    def check(self, action: Action, seat: int | None = None) -> Plan:
        return self._reference().check(action, seat)

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        return self._reference().is_legal(action, seat)

    def pile_frozen(self, seat: int | None = None) -> bool:
        return self._reference().pile_frozen(seat)

    def must_take_pile(self) -> bool:
        return self._reference().must_take_pile()

    def view(self, seat: int) -> dict[str, Any]:
        return self._reference().view(seat)

    def score(self) -> HandScore:
        return self._reference().score()

    def hand_of(self, seat: int) -> list[Card]:
        return self._reference().hand_of(seat)

    # -- moves -----------------------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Play ``action``: on the core where it applies it, else on the Python engine; an action neither handed out
        by the listing nor held by the core's listing is judged by the Python engine first (IllegalAction citing its
        rule)."""
        if seat is not None:
            seat = self._python._seat(seat)
        if not ((seat is None or seat == self.to_act) and (self._was_listed(action) or self._listed_on_core(action))):
            plan(self.rules, self.state, action, seat)
        snapshot = self._position.snapshot()
        saved = (snapshot, self._beside, self._folded, len(self._steps), len(self.events))
        by_python = action.kind in _APPLIED_BY_PYTHON or self.rules.coverage is not None
        events: list[Event] = []
        if not by_python and self._apply_natively(action, snapshot):
            self.ran[_APPLIED_ON_CORE] += 1
            self._moved()
        else:
            self.ran[_APPLIED_IN_PYTHON] += 1
            events = self._apply_in_python(action, seat)
        self.history.append(action)
        self._undo.append(saved)
        return events

    def push(self, action: Action, seat: int | None = None) -> list[Event]:
        """python-chess's name for ``apply``."""
        return self.apply(action, seat)

    def _apply_natively(self, action: Action, saved: Any) -> bool:
        """Apply ``action`` on the core, noting the step it makes in the fields kept beside (``_Step``); False (the
        position as it was: ``saved``, its snapshot) where the core declines it or it formed a lone hand."""
        position = self._position
        seat = position.where()[1]
        melding = action.kind in _MELDING
        side = position.side_of(seat) if melding else 0
        melds_before = position.meld_sizes(side) if melding else ()
        sides = self._sides() if self._forms_sides else None
        outcome = self._natives.apply.apply(position, action)
        if not isinstance(outcome, Applied):
            return False
        if sides is not None and self._sides() != sides:
            position.restore(saved)
            return False
        if melding:
            self._steps.append((seat, melds_before, position.meld_sizes(side)))
        elif action.kind in _PASSING:
            now = position.where()[1]
            if now != seat:
                self._steps.append(now)
        if outcome.ended is not None:
            self._end(outcome.ended, outcome.went_out)
        return True

    def _end(self, reason: str, went_out: int | None) -> None:
        """The hand ended on the core: how, who went out and whether concealed, kept beside the position."""
        beside = self._beside_now().changed(end_reason=reason, went_out=went_out)
        if went_out is not None:
            beside = beside.changed(concealed=self._concealed(beside, went_out))
        self._beside = beside

    def _sides(self) -> list[int]:
        """Each seat's side (where sides form during a hand, a lone hand is applied by the Python engine)."""
        return [self._position.side_of(seat) for seat in range(self.rules.players)]

    def _concealed(self, beside: Beside, seat: int) -> bool:
        """Whether ``seat`` went out concealed (hook go_out.concealed), asked of the position it went out in."""
        state = rebuild_state(self.rules, self._position, beside, self._natives.melds)
        return concealed_now(self.rules, state, seat, [], state.melds[state.side_of[seat]])

    def _apply_in_python(self, action: Action, seat: int | None) -> list[Event]:
        """The Python engine's apply on the rebuilt state, loaded back into the core (its undo record, history and
        log dropped: the core's snapshot is kept instead, and this game's own)."""
        reference = self._reference()
        events = reference.apply(action, seat)
        for kept in (reference._stack, reference._event_counts, reference.history, reference.events):
            kept.clear()
        self.events.extend(events)
        self.state = reference.state
        return events

    def undo(self) -> Action:
        """Take back the last action: the core's position and the fields kept beside it as they were."""
        if not self._undo:
            raise CanastaError("there is no action to undo")
        snapshot, self._beside, self._folded, steps, events = self._undo.pop()
        self._position.restore(snapshot)
        del self._steps[steps:]
        self._moved()
        del self.events[events:]
        return self.history.pop()

    def pop(self) -> Action:
        """python-chess's name for ``undo``."""
        return self.undo()


def _after_steps(beside: Beside, steps: Sequence[_Step]) -> Beside:
    """The fields kept beside after ``steps`` (``_Step``), in order, as ``Game`` keeps them. A meld or take by a
    seat: the seat has melded; its side's melds after it that are new are this turn's, and cards laid on a meld not
    made this turn are added to an existing one (``checks`` keeps them so). The next seat's turn
    (``Game._next_turn``): the turn's record cleared, whether the seat had melded before, one turn more."""
    melded = list(beside.seat_melded)
    made = list(beside.created_this_turn)
    grown, melded_before, turns = beside.added_to_existing_this_turn, beside.melded_before_turn, beside.turns
    for step in steps:
        if isinstance(step, int):
            made, grown, melded_before, turns = [], False, melded[step], turns + 1
            continue
        seat, before, after = step
        grown = grown or any(place not in made and after[place] != before[place] for place in range(len(before)))
        melded[seat] = True
        made.extend(range(len(before), len(after)))
    return beside.changed(
        seat_melded=tuple(melded),
        created_this_turn=tuple(made),
        added_to_existing_this_turn=grown,
        melded_before_turn=melded_before,
        turns=turns,
    )
