"""Benchmark the native core beside the Python engine, on the same random games, in one run.

    python tools/bench_core.py --variant classic --hands 100 --seed 1 [--clock cpu]

The Python engine (compiled by mypyc where tools/build_native.py built it, else pure) plays the hands that
``tools/bench.py`` plays (deals ``"<seed>/<n>"``, each action ``rng.choice`` of the listing). Timed per action:
the Python listing (by phase) and ``apply``; beside them, what the core does today, on the same positions: loading
a position from the Python state (the cost of every crossing between the engines), the discards' verdicts the core
finds in each position of play and the valid shapes of every rank the seat to act could meld (``core.listing``: keys
built in C, its memo asked; beside the Python listing's own ``_rank_shapes``), the legal single melds of a side that
has opened (beside ``_single_melds``), the whole listing of such a position and its count (``NativePlayListing``), of
a position of play whose side has not opened (``NativeOpeningCount.of``, its openings counted, not made), and
of the draw phase (``NativeDrawListing``; a side not opened with a pile to take, ``NativeTakeCount.of``), each
beside the Python listing on a fresh copy of the same position and with the call into C alone (the variant's
``ListingContext`` bound once), the core's card move for each plain draw, discard, meld and take
(``canasta_ref.core.proof`` says which are plain), the core's apply of the whole action where it applies it
(``core.apply``: through ``NativeApply``, the C entry alone and the core's Python path; beside the Python engine's
apply of the same actions), and an undo by snapshot, next to the Python engine's snapshot and restore. The core
does not judge actions yet, so it plays no hand on its own: the report says so, and which engine each figure is
from. Each figure is the median of ``--repeat`` passes over the same games.

    python tools/bench_core.py --draw --hands 20

``--draw`` times only the draw phase's listing in C as the core's random play calls it (``time_draw_listing``: no
Python object, its answers kept, each position listed ``--calls`` times within C and timed there with the CPU
clock; and again with the Python objects ``draw_listing`` gives made, as that loop paid them before it chose
from the listing in C), on every draw-phase position of the same games, by kind: the side opened; not opened and
able to take nothing; not opened with takes (there the listing declines, and the takes counted with the opening,
``time_take_count``, are timed too). Beside each: the rule questions a listing asks and the part of its time spent
building their keys and looking them up in the memos. Then the core's own random play of the same deals, after
``--warm-up`` hands of others, its draw steps timed within the loop by kind (``_core.draw_steps_timed``: the
monotonic clock, the memo misses counted, the steps that missed none timed apart). ``--clock`` is not read there.

    python tools/bench_core.py --apply --hands 40 --clock cpu [--profile]

``--apply`` times only ``apply`` of a game on the core (``Game(..., core="native")``, a ``NativeGame``: the core's
apply and the bookkeeping beside it) against the Python engine's ``Game.apply``, on the same actions of the same
games (each chosen by index from the Python engine's listing, the game on the core handed the same one by its own
listing, as a player's policy is), by kind of action: µs an apply, each the median of ``--repeat`` passes of the
mean, one clock read around each call (its cost, printed, is in both figures). ``--profile`` then runs one more
pass under cProfile and prints where the game on the core's applies spend their time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_ref import Action, Game, cliargs, core
from canasta_ref.core.apply import Applied, NativeApply
from canasta_ref.core.listing import (
    NativeDiscards,
    NativeDrawListing,
    NativeListing,
    NativeOpeningCount,
    NativePlayListing,
    NativeRankShapes,
    NativeSingleMelds,
    NativeTakeCount,
    openings_missing,
    play_listing_missing,
    rank_shapes_missing,
    single_melds_open,
    takes_missing,
)
from canasta_ref.core.memo import NativeAnswers
from canasta_ref.core.play import RandomPlay
from canasta_ref.core.proof import make_moves, moves_of_action, plain
from canasta_ref.engine import _native
from canasta_ref.engine.blocks import Listing
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.legal import _Listing, _rank_shapes, _single_melds, listing  # the Python listing's own
from canasta_ref.engine.movegen import hand_cards
from canasta_ref.engine.rules import QUESTIONS, Query, Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.match import hand_seed
from canasta_ref.spec import load_variant

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}

#: Microseconds by what was timed, and how many times each was.
Timings = dict[str, list[float]]


def one_pass(rules: Rules, hands: int, seed: int, clock: Callable[[], float]) -> tuple[Timings, float]:
    """Play the hands once, timing each step's parts; the seconds of the hands played without the core's work."""
    spent: Timings = defaultdict(list)
    position = core.new_position(rules)
    discards = NativeDiscards(rules)
    shapes = None if rank_shapes_missing(rules) else NativeRankShapes(rules)
    melds = None if rank_shapes_missing(rules) else NativeSingleMelds(rules)
    play = None if play_listing_missing(rules) else NativePlayListing(rules)
    draw = NativeListing(rules).draw
    appliers = (NativeApply(rules), NativeApply(rules, native=False))
    openings = None if play is None or openings_missing(rules) else OpeningsAt(NativeOpeningCount(play))
    takes = None
    if draw is not None and play is not None and not takes_missing(rules):
        takes = TakesAt(NativeOpeningCount(play), NativeTakeCount(rules, draw))
    rng = random.Random(seed)
    played = 0.0
    for number in range(hands):
        game = Game(rules, seed=hand_seed(seed, number))
        while not game.is_over:
            played += _step(game, position, discards, appliers, rng, spent, clock)
            if shapes is not None:
                _time_shapes(game.state, position, shapes, spent, clock)
            if melds is not None and single_melds_open(rules, game.state):
                _time_single_melds(game.state, position, melds, spent, clock)
            opened = game.state.team_opened[_side_to_act(game.state)]
            unopened = None if opened or openings is None else openings.at(game.state)
            taking = None if opened or takes is None or not game.state.pile else takes.at(game.state)
            native = {"play": play if opened else unopened, "draw": taking or draw}.get(game.state.phase)
            listed = native is not None and _time_listing(rules, game.state, position, native, spent, clock)
            if listed and native is not None:
                _time_call(native, position, spent, clock)
    return spent, played


class OpeningsAt:
    """The core's listing of play of a side that has not opened, with the side's minimum read from the Python state
    (hook initial_meld.minimum reads the scores, which the core's position does not hold)."""

    def __init__(self, openings: NativeOpeningCount) -> None:
        self.openings = openings
        self.minimum = 0

    def at(self, state: HandState) -> OpeningsAt:
        self.minimum = initial_minimum(self.openings.rules, state, state.to_act)
        return self

    def of(self, position: Any) -> Listing:
        return self.openings.of(position, self.minimum)


class TakesAt(OpeningsAt):
    """The core's listing of the draw phase of a side that has not opened, its pile not empty (its takes counted
    with its opening: ``NativeTakeCount``), with the side's minimum read from the Python state as ``OpeningsAt``
    reads it."""

    def __init__(self, openings: NativeOpeningCount, takes: NativeTakeCount) -> None:
        super().__init__(openings)
        self.takes = takes

    def of(self, position: Any) -> Listing | None:  # type: ignore[override]  # None where the core declines it
        return None if self.takes.declined(position) else self.takes.of(position, self.minimum)


def _time_shapes(
    state: HandState, position: Any, shapes: NativeRankShapes, spent: Timings, clock: Callable[[], float]
) -> None:
    """Every meldable rank's valid shapes for the seat to act: the core's (its memo of answers warm, no cache of
    shapes), and the Python listing's own ``_rank_shapes`` (its caches of shapes warm, as in play)."""
    rules = shapes.valid.rules
    core.load_state(position, state)
    seat = state.to_act
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    hand = hand_cards(rules, state, seat)
    ranks = hand.meld_ranks(state.melds[team])
    start = clock()
    for rank in ranks:
        shapes.of(position, seat, rank, initial)
    middle = clock()
    found = _Listing(rules, state)
    for rank in ranks:
        _rank_shapes(found, rank, hand.count(rank), hand.twos_total, hand.jokers, initial)
    spent["core shapes of every meldable rank"].append(middle - start)
    spent["python shapes of every meldable rank (_rank_shapes)"].append(clock() - middle)


def _time_single_melds(
    state: HandState, position: Any, melds: NativeSingleMelds, spent: Timings, clock: Callable[[], float]
) -> None:
    """The legal single melds of a side that has opened: the core's, and the Python listing's ``_single_melds``
    (caches warm, as in play; the ``_Listing`` and hand it needs built included)."""
    rules = melds.shapes.valid.rules
    core.load_state(position, state)
    start = clock()
    melds.of(position, state)
    middle = clock()
    _single_melds(_Listing(rules, state), hand_cards(rules, state, state.to_act))
    spent["core single melds (play, side opened)"].append(middle - start)
    spent["python single melds (play, side opened; _single_melds)"].append(clock() - middle)


def _side_to_act(state: HandState) -> int:
    return state.side_of[state.to_act]


def _time_listing(
    rules: Rules,
    state: HandState,
    position: Any,
    native: NativePlayListing | NativeDrawListing | OpeningsAt | TakesAt,
    spent: Timings,
    clock: Callable[[], float],
) -> bool:
    """The whole listing and its count in a position of play (a side opened) or of the draw phase: the core's, from
    its own position (then once more, every rule answer it needs kept in its memo), and the Python engine's on a
    fresh copy of the position (no facts computed before); whether the core lists the position."""
    core.load_state(position, state)
    theirs = state.copy()
    start = clock()
    found = native.of(position)
    if found is None:
        return False
    found.count()
    middle = clock()
    _count(native.of(position))
    again = clock()
    listing(rules, theirs).count()
    what = f"{state.phase}, side {'opened' if state.team_opened[_side_to_act(state)] else 'not opened'}"
    if isinstance(native, TakesAt):
        what = f"{what}, its pile taken with the opening"
    spent[f"core listing + count ({what})"].append(middle - start)
    spent[f"core listing + count ({what}), answers kept"].append(again - middle)
    spent[f"python listing + count ({what}), same positions"].append(clock() - again)
    return True


def _count(found: Listing | None) -> int:
    return 0 if found is None else found.count()


def _time_call(
    native: NativePlayListing | NativeDrawListing | OpeningsAt | TakesAt,
    position: Any,
    spent: Timings,
    clock: Callable[[], float],
) -> None:
    """The core's own part of a listing (loaded by ``_time_listing``, its answers kept): the call into C with the
    variant's bound context (``ListingContext``), without the Python ``Listing`` built from it."""
    if isinstance(native, NativeDrawListing):
        start = clock()
        position.draw_listing(native.context)
        spent["core draw-phase call alone, answers kept"].append(clock() - start)
    elif isinstance(native, TakesAt):
        start = clock()
        takes = native.takes
        position.take_listing(takes.context, takes.questions, native.minimum, takes.from_hand)
        spent["core draw-phase call alone (side not opened, its pile taken with the opening), answers kept"].append(
            clock() - start
        )
    elif isinstance(native, OpeningsAt):
        start = clock()
        position.opening_listing(native.openings.context, native.openings.questions, native.minimum)
        spent["core play call alone (side not opened), answers kept"].append(clock() - start)
    else:
        start = clock()
        position.play_listing(native.context)
        spent["core play call alone (side opened), answers kept"].append(clock() - start)


def _step(
    game: Game,
    position: Any,
    discards: NativeDiscards,
    appliers: tuple[NativeApply, NativeApply],
    rng: random.Random,
    spent: Timings,
    clock: Callable[[], float],
) -> float:
    """One action, timed on both engines; the Python engine's seconds for it."""
    before = game.state.copy()
    phase = _phase(game)
    begin = clock()
    legal = game.legal_actions()
    total = legal.count()
    listed = clock()
    action = legal[rng.randrange(total)]
    events = game.apply(action)
    applied = clock()
    spent[f"python listing, {phase}"].append(listed - begin)
    spent["python apply"].append(applied - listed)
    _time_python_undo(before, spent, clock)
    start = clock()
    core.load_state(position, before)
    spent["core load"].append(clock() - start)
    start = clock()
    snapshot = position.snapshot()
    position.restore(snapshot)
    spent["core snapshot + restore"].append(clock() - start)
    if before.phase == "play":
        start = clock()
        discards.of(position, before.to_act, before.cards_held(before.to_act) - 1)
        spent["core discards' verdicts (play)"].append(clock() - start)
    moves = moves_of_action(before, game.state, before.to_act, action) if plain(action, events) else None
    if moves is not None:
        start = clock()
        make_moves(position, moves)
        spent[f"core move, {action.kind}"].append(clock() - start)
        spent[f"python apply, {action.kind}"].append(applied - listed)
    _time_whole_apply(appliers, position, snapshot, action, spent, clock)
    if f"core apply, whole {action.kind}" in spent:
        spent[f"python apply, whole {action.kind}, the same actions"].append(applied - listed)
    return applied - begin


def _time_whole_apply(
    appliers: tuple[NativeApply, NativeApply],
    position: Any,
    snapshot: bytes,
    action: Action,
    spent: Timings,
    clock: Callable[[], float],
) -> None:
    """The core's apply of the whole action, each time from the position before it: through ``NativeApply`` (in C
    where it can) and the C entry alone (the action encoded beforehand, as its cache keeps it), each in a batch
    (``_batched``: a call costs less than reading the clock), and the core's Python path
    (``NativeApply(native=False)``); only where the core applies the action."""
    in_c, in_python = appliers
    position.restore(snapshot)
    start = clock()
    outcome = in_python.apply(position, action)
    if not isinstance(outcome, Applied):
        return
    spent[f"core apply, python path, {action.kind}"].append(clock() - start)
    whole = _batched(lambda: in_c.apply(position, action), position, snapshot, clock)
    spent[f"core apply, whole {action.kind}"].append(whole)
    if in_c.context is not None and action.kind in in_c.native_kinds:
        context, encoded = in_c.context, in_c.encoded(action)
        alone = _batched(lambda: position.apply(context, encoded), position, snapshot, clock)
        spent[f"core apply, C entry alone, {action.kind}"].append(alone)


#: How many times a batch makes a call.
BATCH: int = 20


def _batched(call: Callable[[], object], position: Any, snapshot: bytes, clock: Callable[[], float]) -> float:
    """Seconds a call of ``call`` takes from ``snapshot``: ``BATCH`` restores and calls, less ``BATCH`` restores
    alone, divided by ``BATCH`` (the clock read twice in all, the restores and the loop taken out)."""
    start = clock()
    for _ in range(BATCH):
        position.restore(snapshot)
        call()
    middle = clock()
    for _ in range(BATCH):
        position.restore(snapshot)
        (lambda: None)()
    return max(0.0, 2 * middle - start - clock()) / BATCH


#: The rule questions a run asked: (query, values, question by its number in ``QUESTIONS``).
Stream = list[tuple[Query, tuple[Any, ...], int]]


def answer_stream(rules: Rules, hands: int, seed: int) -> Stream:
    """The rule questions the Python engine asks playing the hands (untimed)."""
    rng = random.Random(seed)
    rules.asked = []
    try:
        for number in range(hands):
            game = Game(rules, seed=hand_seed(seed, number))
            while not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(legal.count())])
        return rules.asked
    finally:
        rules.asked = None


def time_answers(rules: Rules, stream: Stream, clock: Callable[[], float]) -> dict[str, float]:
    """Microseconds a question, by how it was asked, and the core memo's hit rate, from empty memos (a new Rules)."""
    asked = len(stream) or 1
    python = Rules(rules.variant)
    methods = [getattr(python, f"{name}_of") for name in QUESTIONS]
    start = clock()
    for query, values, question in stream:
        methods[question](query, values)
    python_us = (clock() - start) * 1e6 / asked
    native = NativeAnswers(Rules(rules.variant))
    start = clock()
    for query, values, question in stream:
        native.ask(query, question, values)
    from_python_us = (clock() - start) * 1e6 / asked
    hits, misses = native.counts()
    within = NativeAnswers(Rules(rules.variant))
    keys: dict[tuple[int, int], list[tuple[int, ...]]] = defaultdict(list)
    for query, values, question in stream:
        keys[query.index, question].append(within.question(query, question).encoding.encode(values))
    cold, warm = 0.0, 0.0
    for (index, question), batch in keys.items():
        memo = within.questions[index, question].memo
        start = clock()
        memo.ask_all(batch)
        middle = clock()
        memo.ask_all(batch)
        cold, warm = cold + middle - start, warm + clock() - middle
    return {
        "questions": float(len(stream)),
        "hit rate": 100 * hits / ((hits + misses) or 1),
        "python memo": python_us,
        "core memo, asked from python": from_python_us,
        "core memo, within C, from empty": cold * 1e6 / asked,
        "core memo, within C, every answer kept": warm * 1e6 / asked,
    }


def _time_python_undo(state: HandState, spent: Timings, clock: Callable[[], float]) -> None:
    start = clock()
    HandState.restore(state.snapshot())
    spent["python snapshot + restore"].append(clock() - start)


def _phase(game: Game) -> str:
    state = game.state
    if state.phase != "play":
        return state.phase
    return "play, side opened" if state.team_opened[state.side_of[state.to_act]] else "play, side not opened"


def _native_hands(rules: Rules, args: argparse.Namespace, clock: Callable[[], float]) -> str:
    """Hands a second of the core's own random play (``core/play.py``: listed, chosen and applied in C; its own
    choices, so not the Python engine's games above), the median of ``--repeat`` passes of ``--hands`` hands dealt
    as they are; or why the core plays none of this variant."""
    try:
        play = RandomPlay(rules)
    except core.CoreUnavailable as reason:
        return f"none: {reason}"
    rates = []
    for _ in range(args.repeat):
        start = clock()
        for number in range(args.hands):
            play.hand(hand_seed(args.seed, number), number)
        rates.append(args.hands / (clock() - start))
    return f"{statistics.median(rates):10.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", type=cliargs.bundled_variant, default="classic", help="default: classic")
    parser.add_argument("--hands", type=cliargs.positive, default=100, help="hands of random play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and of the random policy")
    parser.add_argument("--repeat", type=cliargs.positive, default=3, help="passes over the same games (default 3)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="wall time or this process's CPU")
    parser.add_argument("--draw", action="store_true", help="time only the draw phase's listing in C, by kind")
    parser.add_argument("--apply", action="store_true", help="time only apply on a game on the core, by kind")
    parser.add_argument("--profile", action="store_true", help="with --apply: a pass under cProfile, printed")
    parser.add_argument(
        "--calls", type=cliargs.positive, default=200, help="with --draw: listings of a position timed (default 200)"
    )
    parser.add_argument(
        "--warm-up", type=cliargs.count, default=300, help="with --draw: hands of random play before its loop is timed"
    )
    args = parser.parse_args(argv)
    if not core.available():
        print(f"bench_core: {core.STATUS}", file=sys.stderr)
        return 1
    rules = rules_for(load_variant(args.variant))
    if args.draw:
        return print_draw_phase(rules, args)
    if args.apply:
        return print_applies(rules, args)
    passes = [one_pass(rules, args.hands, args.seed, CLOCKS[args.clock]) for _ in range(args.repeat)]
    print(f"canasta-ref core benchmark: {args.variant}, {args.hands} hands, seed {args.seed}, {args.clock} clock")
    print(f"python engine: {_native.STATUS}")
    print(f"core: {core.STATUS}")
    print(f"a game asking for the native core: {Game(rules, seed=args.seed, core='native').core_note}")
    seconds = statistics.median(played for _, played in passes)
    print(f"{'hands per second, python engine (listing + apply)':58s} {args.hands / seconds:10.1f}")
    print(f"{'hands per second, native core (random play in C)':58s} {_native_hands(rules, args, CLOCKS[args.clock])}")
    names = sorted({name for spent, _ in passes for name in spent})
    print(f"{'us per action (median of passes of the mean)':58s} {'us':>10s} {'count':>8s}")
    for name in names:
        means = [statistics.fmean(spent[name]) * 1e6 for spent, _ in passes if spent.get(name)]
        count = len(passes[0][0].get(name, ()))
        print(f"  {name:56s} {statistics.median(means):10.2f} {count:8d}")
    _print_answers(rules, args.hands, args.seed, args.repeat, CLOCKS[args.clock])
    return 0


#: What ``time_draw_listing`` gives back: the CPU seconds of a listing, of its questions asked (keys built and looked
#: up), of their keys built alone, and how many questions a listing asks.
DRAW_PARTS = ("listing", "asking", "building keys", "questions")


def draw_phase_pass(rules: Rules, hands: int, seed: int, calls: int) -> Timings:
    """One pass over the games: every draw-phase position's listing in C timed ``calls`` times within C, by kind;
    each entry of a kind ``DRAW_PARTS`` in order (seconds, seconds, seconds, questions)."""
    found: Timings = defaultdict(list)
    position = core.new_position(rules)
    native = NativeListing(rules)
    if native.draw is None:
        raise core.CoreUnavailable(f"the core has no draw-phase listing of {rules.variant.id}: {native.draw_missing}")
    rng = random.Random(seed)
    for number in range(hands):
        game = Game(rules, seed=hand_seed(seed, number))
        while not game.is_over:
            if game.state.phase == "draw":
                _time_draw_phase(game.state, position, native, calls, found)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(legal.count())])
    return found


def _time_draw_phase(state: HandState, position: Any, native: NativeListing, calls: int, found: Timings) -> None:
    """The draw phase's listing of ``state`` in C, timed, under its kind; where it declines (a side not opened that
    may take the pile), the takes counted in C too, where the core counts them."""
    assert native.draw is not None  # checked by draw_phase_pass
    core.load_state(position, state)
    opened = state.team_opened[_side_to_act(state)]
    takes = not opened and position.draw_listing(native.draw.context) is None
    kind = "side opened" if opened else "side not opened, with takes" if takes else "side not opened, takes none"
    context = native.draw.context
    found[f"draw listing in C ({kind})"].extend(position.time_draw_listing(context, calls))
    found[f"draw listing in C + Python objects ({kind})"].extend(position.time_draw_listing(context, calls, True))
    if takes and native.takes is not None and native.takes.declined(position) is None:
        minimum = initial_minimum(native.rules, state, state.to_act)
        arguments = (native.takes.context, native.takes.questions, minimum, native.takes.from_hand)
        found["takes counted in C (side not opened, with takes)"].extend(position.time_take_count(arguments, calls))


#: The kinds of the random-play loop's draw steps, in ``draw_steps_timed``'s order.
LOOP_DRAW_KINDS = ("side opened", "side not opened, takes none", "side not opened, with takes")


#: A kind of the loop's draw steps, timed: (steps, µs a step, memo misses a step, steps cut, µs a step with no miss).
LoopSteps = tuple[int, float, float, int, float]


def loop_draw_steps(rules: Rules, hands: int, seed: int, warm_up: int) -> list[LoopSteps]:
    """The core's own random play of ``hands`` hands (``RandomPlay``) after ``warm_up`` hands of other deals (so
    that its memos hold what a long run's do), its draw steps timed within the loop, one clock reading taken out,
    by kind in ``LOOP_DRAW_KINDS``' order; a step interrupted (over 1 ms) is cut, and counted."""
    library = core.LIBRARY
    assert library is not None  # main checked core.available()
    play = RandomPlay(rules)
    for number in range(warm_up):
        play.hand(hand_seed(seed + 1, number), number)
    library.draw_steps_timed(True)
    try:
        for number in range(hands):
            play.hand(hand_seed(seed, number), number)
    finally:
        kinds, reading = library.draw_steps_timed(False)
    return [
        (steps, _step_us(seconds, steps, reading), misses / (steps or 1), cut, _step_us(clean, unmissed, reading))
        for steps, seconds, misses, cut, unmissed, clean in kinds
    ]


def _step_us(seconds: float, steps: int, reading: float) -> float:
    """µs a step of ``steps`` timed ``seconds`` in all, one reading of the clock taken out."""
    return (seconds / steps - reading) * 1e6 if steps else 0.0


def print_draw_phase(rules: Rules, args: argparse.Namespace) -> int:
    """The ``--draw`` report: by kind, µs a listing in C and its parts, then the loop's draw steps."""
    load = os.getloadavg()[0]
    print(f"canasta-ref draw phase in C: {args.variant}, {args.hands} hands, seed {args.seed}")
    print(f"core: {core.STATUS}")
    print(f"load {load:.1f} at the start; each position listed {args.calls} times within C, CPU clock read in C")
    _print_listings([draw_phase_pass(rules, args.hands, args.seed, args.calls) for _ in range(args.repeat)])
    loops = [loop_draw_steps(rules, args.hands, args.seed, args.warm_up) for _ in range(args.repeat)]
    print(f"the core's random play of the {args.hands} hands after {args.warm_up} others, its draw steps timed in")
    print("the loop (wall clock, one reading taken out; the median of passes):")
    _print_loop(loops)
    return 0


def _print_listings(passes: list[Timings]) -> None:
    """Each kind's µs a listing, asking its questions, building their keys, and its questions: median of passes of
    the mean over positions."""
    header = ("listed (median of passes of the mean)", "positions", "us", "asking us", "keys us", "questions")
    print(f"{header[0]:60s} {header[1]:>9s} {header[2]:>8s} {header[3]:>10s} {header[4]:>8s} {header[5]:>10s}")
    width = len(DRAW_PARTS)
    for name in sorted({name for found in passes for name in found}):
        means = [[statistics.fmean(found[name][i::width]) for i in range(width)] for found in passes if name in found]
        seconds = [statistics.median(mean[i] for mean in means) * 1e6 for i in range(width - 1)]
        questions = statistics.median(mean[-1] for mean in means)
        positions = len(passes[0].get(name, ())) // width
        row = f"{seconds[0]:8.2f} {seconds[1]:10.2f} {seconds[2]:8.2f} {questions:10.1f}"
        print(f"  {name:58s} {positions:9d} {row}")


def _print_loop(loops: list[list[LoopSteps]]) -> None:
    """Each kind of the loop's draw steps: how many, µs a step, memo misses a step, steps cut, µs a step that
    missed no answer."""
    print(f"{'':60s} {'steps':>9s} {'us':>8s} {'misses':>10s} {'cut':>8s} {'no-miss us':>10s}")
    for at, kind in enumerate(LOOP_DRAW_KINDS):
        steps, us, misses, cut, clean = (statistics.median(loop[at][part] for loop in loops) for part in range(5))
        row = f"{steps:9.0f} {us:8.2f} {misses:10.3f} {cut:8.0f} {clean:10.2f}"
        print(f"  {'draw step in the loop (' + kind + ')':58s} {row}")


def apply_pass(
    rules: Rules, hands: int, seed: int, clock: Callable[[], float], profile: cProfile.Profile | None = None
) -> Timings:
    """One pass over the games, both engines side by side: each apply timed, by engine and kind (``profile``, where
    given, enabled around the game on the core's applies alone)."""
    spent: Timings = defaultdict(list)
    rng = random.Random(seed)
    for number in range(hands):
        python = Game(rules, seed=hand_seed(seed, number))
        native = Game(rules, seed=hand_seed(seed, number), core="native")
        while not python.is_over:
            listed = python.legal_actions()
            index = rng.randrange(listed.count())
            action, handed_out = listed[index], native.legal_actions()[index]
            start = clock()
            python.apply(action)
            middle = clock()
            if profile is not None:
                profile.enable()
            native.apply(handed_out)
            if profile is not None:
                profile.disable()
            spent[f"{action.kind}, on the core"].append(clock() - middle)
            spent[f"{action.kind}, python engine"].append(middle - start)
    return spent


def _clock_read_us(clock: Callable[[], float]) -> float:
    """µs of one clock read, the least of a few batches."""
    reads = 10_000
    batches = []
    for _ in range(5):
        start = clock()
        for _ in range(reads):
            clock()
        batches.append((clock() - start) / reads)
    return min(batches) * 1e6


def print_applies(rules: Rules, args: argparse.Namespace) -> int:
    """The ``--apply`` report: µs an apply by kind, on the core and on the Python engine, then every kind together;
    with ``--profile``, where the game on the core's applies spend their time."""
    clock = CLOCKS[args.clock]
    passes = [apply_pass(rules, args.hands, args.seed, clock) for _ in range(args.repeat)]
    print(f"canasta-ref apply of a game on the core: {args.variant}, {args.hands} hands, seed {args.seed}")
    print(f"python engine: {_native.STATUS}")
    print(f"core: {core.STATUS}")
    print(f"{args.clock} clock, one read around each apply ({_clock_read_us(clock):.2f} us, in both figures); load")
    print(f"{os.getloadavg()[0]:.1f} at the end; µs an apply, the median of {args.repeat} passes of the mean:")
    kinds = sorted({name.rsplit(", ", 1)[0] for name in passes[0]})
    print(f"  {'kind':12s} {'actions':>8s} {'on the core':>12s} {'python engine':>14s}")
    for kind in [*kinds, "every kind"]:
        names = [f"{each}, {engine}" for each in kinds if kind in (each, "every kind") for engine in ("on the core",)]
        core_us, count = _pooled(passes, names)
        python_us, _ = _pooled(passes, [name.replace("on the core", "python engine") for name in names])
        print(f"  {kind:12s} {count:8d} {core_us:12.2f} {python_us:14.2f}")
    if args.profile:
        profile = cProfile.Profile()
        apply_pass(rules, args.hands, args.seed, clock, profile)
        print("one more pass, the game on the core's applies under cProfile (its overhead included):")
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(20)
    return 0


def _pooled(passes: list[Timings], names: list[str]) -> tuple[float, int]:
    """µs a call over every timing named, the median of passes of the mean, and how many calls a pass made."""
    means = [statistics.fmean([t for name in names for t in spent[name]]) * 1e6 for spent in passes]
    return statistics.median(means), sum(len(passes[0][name]) for name in names)


def _print_answers(rules: Rules, hands: int, seed: int, repeat: int, clock: Callable[[], float]) -> None:
    stream = answer_stream(rules, hands, seed)
    runs = [time_answers(rules, stream, clock) for _ in range(repeat)]
    hit_rate = runs[0]["hit rate"]
    print(f"rule questions asked: {len(stream)}; the core memo's hit rate from empty: {hit_rate:.1f} %")
    print(f"{'us per rule question (median of passes)':58s} {'us':>10s}")
    for name in runs[0]:
        if name not in ("questions", "hit rate"):
            print(f"  {name:56s} {statistics.median(run[name] for run in runs):10.3f}")


if __name__ == "__main__":
    sys.exit(main())
