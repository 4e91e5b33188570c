"""Benchmark the reference interpreter: random play on one core, and the time to load a variant.

    python tools/bench.py --variant classic --hands 200 --seed 1 [--json]

Hands are dealt from the seeds ``"<seed>/<n>"`` (as a match deals them) and played to the end by a uniformly random
policy: ``random.Random(seed).choice(game.legal_actions())``, which asks the listing its length and one index
(``--policy index``, the default), or ``choice(list(game.legal_actions()))``, which lists every action first
(``--policy list``, the policy before issue 15). Both draw the same action, so both play the same games. Hands per
second come from a pass with no clock read inside the loop; a second pass over the same games times the listing of
the legal actions (by phase) and ``apply`` apart (their figures include the clock reads around them). Both are
timed on the wall clock or (``--clock cpu``) on this process's CPU time, which is steadier when other work shares
the machine. The untimed pass also reports the garbage collector's share of its wall time and its
collections by generation (``gc.callbacks``): a cost the engine's allocations cause that no profile of its
functions shows. Loading is timed cold (the first load in this process: building the rule grammar, reading and checking
the YAML, compiling every clause) and warm (the median of repeated loads after ``canasta_ref.spec.clear_cache()``,
with the grammar built and the expression caches of ``canasta_ref.lang`` kept). The report says which engine ran: the
mypyc-compiled modules (``tools/build_native.py``, built by ``tools/setup.sh``) or pure Python
(``CANASTA_REF_PURE=1``, or no current build). Every pass starts with new ``Rules``, so with empty caches: the cost of
a short run. ``--warm-up HANDS`` first plays that many other deals on each pass's ``Rules``, for the steady state of a
long campaign. ``--core native`` plays the hands on the native core (``Game(..., core="native")``: the core lists and
applies where it can, the Python engine answers the rest); the report says which core played, and what ran where.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from canasta_ref import Action, Game, Rules, cliargs
from canasta_ref.engine import _native as native
from canasta_ref.engine.cores import CORES
from canasta_ref.engine.game import LegalActions
from canasta_ref.match import hand_seed
from canasta_ref.scaling import play_at_random
from canasta_ref.spec import clear_cache, load_variant


@dataclass
class Result:
    variant: str
    hands: int
    seed: int
    cpu: str
    python: str
    clock: str = "wall"
    build: str = ""
    load_cold_ms: float = 0.0
    load_warm_ms: float = 0.0
    warm_loads: int = 0
    seconds: float = 0.0
    repeats: int = 1
    run_seconds: list[float] = field(default_factory=list)  # each untimed pass; ``seconds`` is their median
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    actions: int = 0  # each action was chosen from one listing of the legal actions
    legal_listed: int = 0
    listing_seconds: float = 0.0
    apply_seconds: float = 0.0
    end_reasons: dict[str, int] = field(default_factory=dict)
    policy: str = "index"
    #: Hands played on each pass's new Rules before it is timed (other deals than the measured ones), so that the
    #: figures are those of a long campaign's steady state rather than of a first pass with empty caches.
    warm_up: int = 0
    #: Per phase (draw, play with the side opened or not, answer): listings, seconds listing, actions listed.
    phases: dict[str, list[float]] = field(default_factory=dict)
    #: Of the median untimed pass: wall seconds spent in the garbage collector, and its collections by generation.
    gc_seconds: float = 0.0
    gc_collections: list[int] = field(default_factory=lambda: [0, 0, 0])
    #: The core asked to play the hands ("python" or "native"), what played them (``Game.core_note`` where it says
    #: something), and, on the native core, how many listings and applies ran on each engine (``NativeGame.ran``).
    core: str = "python"
    core_note: str = ""
    ran: dict[str, int] = field(default_factory=dict)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions applied per second of ``apply`` alone."""
        return self.actions / self.apply_seconds if self.apply_seconds else 0.0

    @property
    def actions_per_second_overall(self) -> float:
        """Actions played per second of the whole loop: dealing, listing, choosing and applying."""
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def listings(self) -> int:
        return self.actions

    @property
    def us_per_listing(self) -> float:
        return 1e6 * self.listing_seconds / self.listings if self.listings else 0.0

    @property
    def us_per_apply(self) -> float:
        return 1e6 * self.apply_seconds / self.actions if self.actions else 0.0

    @property
    def actions_per_hand(self) -> float:
        return self.actions / self.hands if self.hands else 0.0

    @property
    def legal_per_listing(self) -> float:
        return self.legal_listed / self.listings if self.listings else 0.0

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, value in asdict(self).items():
            out[name] = value
            if name == "actions":
                out["listings"] = self.listings
        for name in (
            "hands_per_second",
            "actions_per_second",
            "actions_per_second_overall",
            "us_per_listing",
            "us_per_apply",
            "actions_per_hand",
            "legal_per_listing",
        ):
            out[name] = round(getattr(self, name), 3)
        for name in (
            "load_cold_ms",
            "load_warm_ms",
            "seconds",
            "wall_seconds",
            "cpu_seconds",
            "listing_seconds",
            "apply_seconds",
            "gc_seconds",
        ):
            out[name] = round(float(getattr(self, name)), 6)
        return out


def pin_to_one_core() -> str:
    """Run on a single core where the platform allows it; name the core."""
    if sys.platform == "linux":
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"cpu {core}"
    return "unpinned"


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def time_loads(variant: str, repeats: int, clock: Callable[[], float]) -> tuple[float, float]:
    """(cold, warm median) load times in milliseconds; the cold one must be the first load of the process."""
    start = clock()
    load_variant(variant)
    cold = clock() - start
    warm: list[float] = []
    for _ in range(repeats):
        clear_cache()
        start = clock()
        load_variant(variant)
        warm.append(clock() - start)
    return 1000 * cold, 1000 * statistics.median(warm)


def play(result: Result, variant: str) -> None:
    """Play ``result.hands`` hands with the uniformly random policy, each pass with new Rules (so every pass starts
    with empty caches, or with those of ``result.warm_up`` other hands) and so on the same games:
    ``result.repeats`` times with no clock read inside, for hands per second (the median pass counts), and once
    timing listing and apply apart. Four clock reads an action would otherwise count against the engine: a
    CPU-clock read is a system call, about 0.6 us, some 8 % of a hand on the CPU clock."""
    clock = CLOCKS[result.clock]
    passes: list[tuple[float, float, float, int, dict[str, int], GcTimes]] = []
    for _ in range(result.repeats):
        rules = _warmed(result, Rules(load_variant(variant)))
        with GcTimer() as collector:
            run = _untimed_pass(result, rules, clock)
        passes.append((*run, collector.times))
    result.run_seconds = [seconds for seconds, *_ in passes]
    median = sorted(passes, key=lambda run: run[0])[(len(passes) - 1) // 2]
    result.seconds, result.wall_seconds, result.cpu_seconds, result.actions, result.end_reasons, gc_times = median
    result.gc_seconds, result.gc_collections = gc_times.seconds, list(gc_times.collections)
    timed = _timed_pass(result, _warmed(result, Rules(load_variant(variant))), clock)
    if any(run[3] != timed[0] for run in passes):
        raise RuntimeError(f"the passes played different numbers of actions ({timed[0]} timed): not reproducible")
    _, result.legal_listed, result.listing_seconds, result.apply_seconds = timed


def _warmed(result: Result, rules: Rules) -> Rules:
    """``rules`` after ``result.warm_up`` hands of random play on deals numbered after the measured ones (so its
    caches hold what a campaign would have met, not the measured hands themselves), with a policy seeded apart."""
    deals = range(result.hands, result.hands + result.warm_up)
    play_at_random(rules, deals, random.Random(f"warm-up/{result.seed}"), seed=result.seed)
    return rules


@dataclass
class GcTimes:
    seconds: float = 0.0
    collections: list[int] = field(default_factory=lambda: [0, 0, 0])


class GcTimer:
    """Within its ``with`` block, the wall time the garbage collector spends collecting, by ``gc.callbacks``: a
    share of the loop the engine's allocations cause but no profile of its functions shows."""

    def __init__(self) -> None:
        self.times = GcTimes()
        self._started = 0.0

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self._observe)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.times.seconds += time.perf_counter() - self._started
        self.times.collections[info["generation"]] += 1


def _untimed_pass(
    result: Result, rules: Rules, clock: Callable[[], float]
) -> tuple[float, float, float, int, dict[str, int]]:
    """The hands with no clock read inside the loop: (seconds on ``clock``, wall seconds, CPU seconds, actions,
    how the hands ended)."""
    ends: Counter[str] = Counter()
    ran: Counter[str] = Counter()
    rng = random.Random(result.seed)
    actions = 0
    start, wall_start, cpu_start = clock(), time.perf_counter(), time.process_time()
    for number in range(result.hands):
        game = Game(rules, seed=hand_seed(result.seed, number), core=result.core)
        if result.policy == "list":
            while not game.is_over:
                game.apply(rng.choice(list(game.legal_actions())))
                actions += 1
        else:
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
                actions += 1
        ends[game.state.end_reason or "?"] += 1
        ran.update(getattr(game, "ran", {}))
        result.core_note = game.core_note
    seconds = clock() - start
    result.ran = dict(sorted(ran.items()))
    return (
        seconds,
        time.perf_counter() - wall_start,
        time.process_time() - cpu_start,
        actions,
        dict(sorted(ends.items())),
    )


def _timed_pass(result: Result, rules: Rules, clock: Callable[[], float]) -> tuple[int, int, float, float]:
    """The same hands again, timing each listing (as the policy lists: its length, or every action) and each apply:
    (actions, legal actions listed, seconds listing, seconds applying); the listings by phase go to
    ``result.phases``."""
    rng = random.Random(result.seed)
    listing = applying = 0.0
    actions = listed = 0
    phases: dict[str, list[float]] = {}
    whole = result.policy == "list"
    for number in range(result.hands):
        game = Game(rules, seed=hand_seed(result.seed, number), core=result.core)
        while not game.is_over:
            phase = _phase(game)
            t0 = clock()
            legal: list[Action] | LegalActions = list(game.legal_actions()) if whole else game.legal_actions()
            size = len(legal)
            t1 = clock()
            action = rng.choice(legal)
            t2 = clock()
            game.apply(action)
            t3 = clock()
            listing += t1 - t0
            applying += t3 - t2
            actions += 1
            listed += size
            entry = phases.setdefault(phase, [0, 0.0, 0])
            entry[0] += 1
            entry[1] += t1 - t0
            entry[2] += size
    result.phases = phases
    return actions, listed, listing, applying


def _phase(game: Game) -> str:
    state = game.state
    if state.phase != "play":
        return state.phase
    return "play, side opened" if state.team_opened[state.side_of[state.to_act]] else "play, side not opened"


def table(result: Result) -> str:
    per_pass = sorted(result.hands / seconds for seconds in result.run_seconds if seconds)
    rows = [
        (
            "hands per second" + (f" (median of {result.repeats} passes)" if result.repeats > 1 else ""),
            f"{result.hands_per_second:,.1f}",
        ),
        ("actions applied per second (apply alone)", f"{result.actions_per_second:,.0f}"),
        ("actions played per second (whole loop)", f"{result.actions_per_second_overall:,.0f}"),
        ("us per legal_actions() listing", f"{result.us_per_listing:,.1f}"),
        ("us per apply", f"{result.us_per_apply:,.1f}"),
        ("actions per hand (average)", f"{result.actions_per_hand:,.1f}"),
        ("legal actions per listing (average)", f"{result.legal_per_listing:,.1f}"),
        (
            "garbage collection, % of the loop's wall time",
            f"{100 * result.gc_seconds / result.wall_seconds if result.wall_seconds else 0.0:,.1f}",
        ),
        ("  collections by generation (0 / 1 / 2)", " / ".join(str(n) for n in result.gc_collections)),
        ("load variant, cold: first load (ms)", f"{result.load_cold_ms:,.1f}"),
        (f"load variant, warm: median of {result.warm_loads} (ms)", f"{result.load_warm_ms:,.1f}"),
    ]
    if len(per_pass) > 1:
        rows.insert(1, ("hands per second, slowest and fastest pass", f"{per_pass[0]:,.0f} - {per_pass[-1]:,.0f}"))
    for phase, (count, seconds, size) in sorted(result.phases.items()):
        rows.append(
            (f"us per listing, {phase} ({count / max(1, result.listings):.0%})", f"{1e6 * seconds / count:,.1f}")
        )
        rows.append((f"  legal actions per listing, {phase}", f"{size / count:,.1f}"))
    width = max(len(name) for name, _ in rows)
    head = (
        f"canasta-ref benchmark: {result.variant}, {result.hands} hands, seed {result.seed}, "
        f"{result.cpu}, {result.clock} clock, Python {result.python}, policy {result.policy}"
        + (f", {result.warm_up} warm-up hands a pass" if result.warm_up else "")
    )
    core = f"core: {result.core}" + (f" ({result.core_note})" if result.core_note else "")
    lines = [head, f"engine: {result.build}", core, "-" * len(head)]
    lines += [f"{name:<{width}}  {value:>12}" for name, value in rows]
    ends = ", ".join(f"{reason} {count}" for reason, count in result.end_reasons.items())
    lines.append(f"hands ended: {ends}")
    if result.ran:
        lines.append("ran: " + ", ".join(f"{what} {count}" for what, count in result.ran.items()))
    lines.append(f"play took {result.wall_seconds:.2f} s of wall time and {result.cpu_seconds:.2f} s of CPU time")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--variant",
        default="classic",
        type=cliargs.variant_or_spec,
        help="a bundled variant id or a spec path (default classic)",
    )
    parser.add_argument("--hands", type=cliargs.positive, default=200, help="hands of random play (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and of the random policy")
    parser.add_argument(
        "--repeat",
        type=cliargs.positive,
        default=1,
        help="untimed passes over the hands, the median reported (default 1)",
    )
    parser.add_argument(
        "--warm-loads", type=cliargs.positive, default=20, help="warm loads to take the median of (default 20)"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="time with the wall clock (default) or this process's CPU time, steadier on a shared machine",
    )
    parser.add_argument(
        "--policy",
        choices=("index", "list"),
        default="index",
        help="choose by the listing's length and an index (default) or from the full list; the same games",
    )
    parser.add_argument(
        "--warm-up",
        type=cliargs.count,
        default=0,
        metavar="HANDS",
        help="hands played on each pass's new Rules before timing it, on other deals: a campaign's steady state "
        "(default 0: every pass starts with empty caches)",
    )
    parser.add_argument(
        "--core",
        choices=CORES,
        default="python",
        help="the core that plays the hands: the Python engine (default) or the native one",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object instead of the table")
    args = parser.parse_args(argv)
    result = Result(
        variant=args.variant,
        hands=args.hands,
        seed=args.seed,
        cpu=pin_to_one_core(),
        python=platform.python_version(),
        clock=args.clock,
        warm_loads=args.warm_loads,
        repeats=args.repeat,
        build=native.STATUS,
        policy=args.policy,
        warm_up=args.warm_up,
        core=args.core,
    )
    result.load_cold_ms, result.load_warm_ms = time_loads(args.variant, args.warm_loads, CLOCKS[args.clock])
    play(result, args.variant)
    print(json.dumps(result.to_json(), indent=2) if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
