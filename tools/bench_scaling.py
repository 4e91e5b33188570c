"""How the cost of the legal actions grows with the cards in hand: the scaling table of issue 15.

    python tools/bench_scaling.py [--variant classic --variant samba] [--cards 11 20 30 45 60] [--cap 2] [--json]
                                  [--core python|native|both]

For each variant (by default all ten bundled ones), hand size, side opened or not and phase (play, draw), the
position of ``canasta_ref.scaling.scaling_position`` is listed as the random policy lists it: the listing built and
counted (``count()``), then one action drawn at random (``sample``), then the first page of the listing (its first
``PAGE`` actions, as a program showing them would list them); the median over ``--repeat`` positions of that kind
(seeds 0, 1, ...), each listed once, with Rules warmed by 50 hands of random play as in issue 15's measurement.
The page is timed first and apart, on a position whose listing is not built yet (it must not need the count), then
the count and the sample: each part that passes ``--cap`` seconds of CPU time on one position is stopped there and
printed "over" the cap, the other part still measured (the issue's target is 50 ms for each of the three).
Beside the new figures the table gives those issue 15 measured before the change (compiled, Classic, on random
positions of the same kind; "over 1 s" where the old listing never finished). Figures are CPU time, one core
(``--clock wall`` for the wall clock).
``--core native`` times the same cells on a game on the native core (``Game(..., core="native")``, whose listing
is the core's where the core lists the position and the Python engine's elsewhere), its memos warmed by the same
50 hands played on the core; ``--core both`` times each cell on both, one row each. Those tables add which core a
row is on and which engine listed its positions (read from the game's own count of what ran where).
Each cell is measured in a fresh process: measured after others in one process, the same cell moved by up to half from
one run to the next, with what the big listings before it left in the allocator and the caches. ``--in-process``
warms each variant once and measures each cell in a fork of that process: as steady, without a process's start.
``--gc`` adds the garbage collections that ran during the counts and samples, by generation (summed over a cell's
positions): a full collection (generation 2) traverses every object the collector tracks, the count's memos
included, and fires when the tracked objects that survived grow by a quarter of the long-lived ones, so a count
costs more in a leaner process (issue 40).
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from canasta_ref import Rules, cliargs, core
from canasta_ref.engine import _native as native
from canasta_ref.engine.game import Game
from canasta_ref.scaling import play_at_random, scaling_position
from canasta_ref.spec import list_variants, load_variant

#: The clocks a cell can be timed on (``--clock``): this thread's CPU time by default, which other work on the
#: machine moves least, or the wall clock. Not the process's CPU time: while the cap's profiling timer is armed,
#: Linux may count a process's time in ticks of 4 ms, and cells under a tick then read "0 us"; a thread's stays
#: fine (the cells run in the main thread, the engine with them).
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}

_T = TypeVar("_T")

#: The actions a first page of the listing shows.
PAGE = 20

#: A cell's count and sample: (median legal actions, median us to build and count, to draw one action), or None where
#: a position passed the cap.
Counted = tuple[int, float, float] | None

#: A cell's figures: its count and sample (``Counted``), the median us to list the first page (None where a
#: position passed the cap), which engine listed its positions (``listed_by``), and the garbage collections that
#: ran during its counts and samples, by generation (``Collections``).
Cell = tuple[Counted, float | None, str, list[int]]

#: The cores a cell can be timed on (``--core``), as ``Game(..., core=...)`` names them.
CORES = ("python", "native")
#: The engines a listing can run on, as a game on the core counts them (``NativeGame.ran``), in the table's words.
ENGINES = {"listing on the core": "the core", "listing on the Python engine": "the Python engine"}

#: Issue 15's measurement before the change (Classic, compiled): (cards, situation) -> (actions, time).
BEFORE = {
    (11, "play, opened"): "19 actions, 41 us",
    (11, "play, not opened"): "14 actions, 66 us",
    (11, "draw, not opened"): "4 actions, 307 us",
    (20, "play, opened"): "52 actions, 131 us",
    (20, "play, not opened"): "145 actions, 0.8 ms",
    (20, "draw, not opened"): "90 actions, 2.5 ms",
    (30, "play, opened"): "234 actions, 0.4 ms",
    (30, "play, not opened"): "over 175,000 actions, over 1 s",
    (30, "draw, not opened"): "over 19,000, over 1 s",
    (45, "play, opened"): "1,443 actions, 4.3 ms",
    (45, "play, not opened"): "over 149,000, over 1 s",
    (45, "draw, not opened"): "over 16,000, over 1 s",
}


def warmed(variant: str, core: str = "python") -> Rules:
    """Rules whose caches 50 hands of random play have filled, as a program that has played a while has them; on
    the native core, the same hands played on it too, which fills the core's memos of rule answers."""
    rules = Rules(load_variant(variant))
    play_at_random(rules, range(50), random.Random(0), seed=0)
    if core != "python":
        play_at_random(rules, range(50), random.Random(0), seed=0, core=core)
    return rules


class _CapReached(Exception):
    """A cell's position took more CPU time than the cap."""


#: What the cap's signal writes to standard error as it stops a position: a process that dies after it was stopped
#: inside compiled code (mypyc then aborts) is reported as over the cap, not as a crash of the engine.
CAP_MARK = "bench_scaling: the cap stopped the position here"


def _cap_reached(signum: int, frame: object) -> None:
    os.write(2, f"{CAP_MARK}\n".encode())
    raise _CapReached


def measure(
    rules: Rules,
    cards: int,
    opened: bool,
    phase: str,
    repeat: int,
    cap: float,
    clock: str = "cpu",
    core: str = "python",
) -> Cell:
    """The cell's figures (``Cell``) on a game on ``core``, each part of a position stopped once it has taken
    ``cap`` seconds of CPU time."""
    counts, building, drawing, paging = [], [], [], []
    collections = Collections()
    listed: set[str] = set()
    counted_all = paged_all = True
    timer = CLOCKS[clock]
    previous = signal.signal(signal.SIGPROF, _cap_reached)
    try:
        for seed in range(repeat):
            where = {"opened": opened, "phase": phase, "seed": seed, "core": core}
            game, twin = (scaling_position(rules, cards, **where) for _ in range(2))  # type: ignore[arg-type]
            page = _capped(partial(_time_page, twin, timer), cap) if paged_all else None
            paged_all = page is not None
            if page is not None:
                paging.append(page[1])
            with collections:
                found = _capped(partial(_time_count, game, random.Random(cards), timer), cap) if counted_all else None
            counted_all = found is not None
            if found is not None:
                counts.append(found[0])
                building.append(found[1])
                drawing.append(found[2])
                if page is not None and page[0] != min(found[0], PAGE):
                    raise AssertionError(f"the first page shows {page[0]} actions of {found[0]}")
            listed |= engines_listing(game) | engines_listing(twin)
    finally:
        signal.signal(signal.SIGPROF, previous)
    counted: Counted = None
    if counted_all:
        counted = int(statistics.median_low(counts)), statistics.median(building), statistics.median(drawing)
    return counted, statistics.median(paging) if paged_all else None, listed_by(listed), collections.by_generation


class Collections:
    """The garbage collections that run while this is entered (``with``), counted by generation: read from
    ``gc.get_stats`` before and after, not by a callback, since the cap's signal raised inside a collector's callback
    would be swallowed (reported as unraisable) and the position never stopped."""

    def __init__(self) -> None:
        self.by_generation = [0, 0, 0]
        self._before = [0, 0, 0]

    @staticmethod
    def _so_far() -> list[int]:
        return [int(generation["collections"]) for generation in gc.get_stats()]

    def __enter__(self) -> Collections:
        self._before = self._so_far()
        return self

    def __exit__(self, *_: object) -> None:
        for generation, (now, then) in enumerate(zip(self._so_far(), self._before, strict=True)):
            self.by_generation[generation] += now - then


def engines_listing(game: Game) -> set[str]:
    """The engines that listed ``game``'s positions, in the table's words: a game on the core counts them
    (``NativeGame.ran``: nothing where the cap stopped its listing midway), the Python engine's game lists alone."""
    ran = getattr(game, "ran", None)
    if ran is None:
        return {"the Python engine"}
    return {words for what, words in ENGINES.items() if ran[what]}


def listed_by(engines: set[str]) -> str:
    """Which engine listed a cell's positions, in words (both where its positions differ)."""
    if not engines:
        return "not known (stopped by the cap)"
    return " and ".join(sorted(engines))


def _capped(timed: Callable[[], _T], cap: float) -> _T | None:
    """``timed()``, or None once it has taken ``cap`` seconds of CPU time."""
    signal.setitimer(signal.ITIMER_PROF, cap)
    try:
        return timed()
    except _CapReached:
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def _time_count(game: Game, rng: random.Random, clock: Callable[[], float]) -> tuple[int, float, float]:
    """(legal actions, us to build and count, us to draw one)."""
    start = clock()
    count = game.legal_actions().count()
    counted = clock()
    if count:
        game.legal_actions().sample(rng)
    drawn = clock()
    return count, 1e6 * (counted - start), 1e6 * (drawn - counted)


def _time_page(game: Game, clock: Callable[[], float]) -> tuple[int, float]:
    """(actions shown, us to list them): the first page of a position whose listing is not built yet, as a program
    showing it would list it."""
    begun = clock()
    page = list(itertools.islice(game.legal_actions(), PAGE))
    paged = clock()
    return len(page), 1e6 * (paged - begun)


def _time(us: float) -> str:
    return f"{us:,.0f} us" if us < 10_000 else f"{us / 1000:,.1f} ms" if us < 10_000_000 else f"{us / 1e6:,.1f} s"


def measure_apart(
    variant: str, cards: int, opened: bool, phase: str, repeat: int, cap: float, clock: str, core: str = "python"
) -> Cell | str:
    """``measure`` in a fresh process with freshly warmed Rules: a cell measured after others moved by up to half
    (the allocator's and caches' state that big listings leave), so each cell starts from the same state. A cell
    whose process dies gives why, in words, and the table goes on (the cap's signal can stop mypyc-compiled code
    at a point it cannot recover from)."""
    command = [sys.executable, __file__, "--cell", variant, str(cards), phase, str(int(opened))]
    command += ["--repeat", str(repeat), "--cap", str(cap), "--clock", clock, "--core", core]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return _death(done.returncode, done.stderr)
    return _cell_of(json.loads(done.stdout))


def measure_forked(
    rules: Rules, cards: int, opened: bool, phase: str, repeat: int, cap: float, clock: str, core: str = "python"
) -> Cell | str:
    """``measure`` in a fork of this process (``--in-process``): each cell starts from the same warmed Rules without
    a new process's start, and a cell whose fork dies (the cap's signal can stop mypyc-compiled code at a point it
    cannot recover from: mypyc then aborts with "out of memory") is reported in words while the table goes on.
    Where there is no ``fork``, the cell is measured in this process."""
    if not hasattr(os, "fork"):
        return measure(rules, cards, opened, phase, repeat, cap, clock, core)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: measure, write the figures, and leave without running the parent's exit handlers
            status = 0
            try:
                os.dup2(err.fileno(), 2)  # what native code writes (mypyc's "fatal: ...") goes with the cell
                faulthandler.disable()  # its report of a fatal signal would go to the parent's standard error
                out.write(json.dumps(measure(rules, cards, opened, phase, repeat, cap, clock, core)).encode())
                out.flush()
            except BaseException:
                err.write(traceback.format_exc().encode())
                err.flush()
                status = 1
            finally:
                os._exit(status)
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        if code != 0:
            err.seek(0)
            return _death(code, err.read().decode("utf-8", errors="replace"))
        out.seek(0)
        return _cell_of(json.loads(out.read()))


def _cell_of(figures: list[object]) -> Cell:
    """A cell's figures from the JSON a measuring process wrote."""
    counted, page, listed, collections = figures
    found: Counted = None
    if isinstance(counted, list):
        found = int(counted[0]), float(counted[1]), float(counted[2])
    by_generation = [int(n) for n in collections] if isinstance(collections, list) else []
    return found, None if page is None else float(str(page)), str(listed), by_generation


def _death(code: int, stderr: str) -> str:
    """Why a cell's process died, in words: its signal or exit status and the last line it wrote."""
    how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if CAP_MARK in lines[-2:] and last != CAP_MARK:
        return f"over the cap: stopped inside compiled code, which then aborted ({how}: {last[:60]})"
    return f"its process died ({how}{': ' + last[:80] if last else ''})"


def unplayable_cell(variants: Sequence[str], hand_sizes: Sequence[int]) -> str | None:
    """Why a hand size cannot be dealt in a variant (its deck too small), or None: told before any cell is timed."""
    for name in variants:
        rules = Rules(load_variant(name))
        for cards in hand_sizes:
            try:  # an opened side has three cards fewer to deal from: the tightest of the positions measured
                scaling_position(rules, cards, opened=True, phase="play")
            except ValueError as error:
                return str(error)
    return None


def default_variants() -> list[str]:
    """Every bundled variant, Classic first (the one issue 15 measured), then by name."""
    return ["classic", *(name for name in list_variants() if name != "classic")]


def _row_text(row: Row, cap: float, cores: bool = False, collections: bool = False) -> str:
    """One line of the table: a capped part of a cell says so in place of its figures; with ``cores``, the core the
    row is on and the engine that listed it after the situation; with ``collections``, the garbage collections
    during the counts last."""
    variant, cards, situation, cell, before, core = row
    if cores:
        situation += f" | {core} | {'' if isinstance(cell, str) else cell[2]}"
    if isinstance(cell, str):
        return f"| {variant} | {cards} | {situation} | not counted | {cell} | | | {before} |" + " |" * collections
    counted, page, _listed, by_generation = cell
    if collections:
        before += " | " + " / ".join(str(n) for n in by_generation)
    over = f"over {_time(cap * 1e6)} (capped)"
    if counted is None:
        figures = f"not counted | {over} | |"
    else:
        count, build, draw = counted
        figures = f"{count:,} | {_time(build)} | {_time(draw)} |"
    return f"| {variant} | {cards} | {situation} | {figures} {over if page is None else _time(page)} | {before} |"


def _row_json(row: Row, cores: bool = False) -> dict[str, object]:
    """One row as JSON; with ``cores``, the core it is on and the engine that listed it."""
    variant, cards, situation, cell, before, core = row
    on: dict[str, object] = {"core": core} if cores else {}
    if isinstance(cell, str):
        return {"variant": variant, "cards": cards, "situation": situation, **on, "died": cell, "before": before}
    counted, page, listed, by_generation = cell
    if cores:
        on["listed_by"] = listed
    count, build, draw = counted if counted is not None else (None, None, None)
    return {
        **on,
        "variant": variant,
        "cards": cards,
        "situation": situation,
        "capped": counted is None,
        "page_capped": page is None,
        "actions": count,
        "us_count": build,
        "us_sample": draw,
        "us_first_page": page,
        "gc_collections": by_generation,
        "before": before,
    }


#: A row of the table: variant, cards, situation, the cell's figures, issue 15's figure before, the core it ran on.
Row = tuple[str, int, str, Cell | str, str, str]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", action="append", type=cliargs.variant_or_spec, help="variant ids (default all)")
    parser.add_argument("--cards", type=cliargs.positive, nargs="+", default=[11, 20, 30, 45, 60], help="hand sizes")
    parser.add_argument(
        "--repeat", type=cliargs.positive, default=3, help="fresh positions to take the median of (default 3)"
    )
    parser.add_argument(
        "--cap",
        type=cliargs.positive_number,
        default=2.0,
        help="seconds of CPU time after which a position's first page, or its count and sample, is stopped and "
        "printed as over (default 2)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time on this process's CPU time (default) or the wall clock",
    )
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of the table")
    parser.add_argument(
        "--core",
        choices=[*CORES, "both"],
        default="python",
        help="time a game on the Python engine (default), on the native core, or on both (a row each)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="warm each variant once in this process and measure each cell in a fork of it: faster than a fresh "
        "process a cell",
    )
    parser.add_argument(
        "--gc",
        action="store_true",
        help="add the garbage collections that ran during each cell's counts and samples, by generation (0 / 1 / 2)",
    )
    parser.add_argument("--cell", nargs=4, metavar=("VARIANT", "CARDS", "PHASE", "OPENED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cell:  # one cell, for ``measure_apart``
        variant, cards, phase, opened = args.cell
        rules = warmed(variant, args.core)
        figures = measure(rules, int(cards), opened == "1", phase, args.repeat, args.cap, args.clock, args.core)
        print(json.dumps(figures))
        return 0
    variants = args.variant or default_variants()
    problem = unplayable_cell(variants, args.cards)
    if problem:
        parser.error(f"--cards: {problem}")
    cores = list(CORES) if args.core == "both" else [args.core]
    shown = args.core != "python"  # today's table, unchanged, where only the Python engine runs
    rows = measured_rows(variants, args.cards, cores, args)
    if args.json:
        print(json.dumps([_row_json(row, shown) for row in rows], indent=2))
        return 0
    place = "a fork of one warmed process a cell" if args.in_process else "a fresh process a cell"
    print(
        f"canasta-ref scaling: engine {native.STATUS}, {'CPU' if args.clock == 'cpu' else 'wall'} time, "
        f"median of {args.repeat} positions each, {place}, "
        f"the page and the count each capped at {_time(args.cap * 1e6)} a position"
    )
    if shown:
        print(f"native core: {core_status()}")
    columns = " core | listed by |" if shown else ""
    print(
        f"| variant | cards | situation |{columns} legal actions | build + count | one sample | first page "
        f"({PAGE}) | before (issue 15) |" + " collections during the counts (generation 0 / 1 / 2) |" * args.gc
    )
    print("|---|---|---|" + "---|---|" * shown + "---|---|---|---|---|" + "---|" * args.gc)
    for row in rows:
        print(_row_text(row, args.cap, shown, args.gc))
    return 0


def measured_rows(
    variants: Sequence[str], hand_sizes: Sequence[int], cores: Sequence[str], args: argparse.Namespace
) -> list[Row]:
    """Every cell of the table on each of ``cores``, a row each, in the table's order."""
    rows: list[Row] = []
    for variant in variants:
        rules = warmed(variant, cores[-1]) if args.in_process else None
        for cards in hand_sizes:
            for phase in ("play", "draw"):
                for opened in (True, False):
                    situation = f"{phase}, {'opened' if opened else 'not opened'}"
                    before = BEFORE.get((cards, situation), "") if variant == "classic" else ""
                    for on in cores:
                        where = (cards, opened, phase, args.repeat, args.cap, args.clock, on)
                        cell = measure_forked(rules, *where) if rules is not None else measure_apart(variant, *where)
                        rows.append((variant, cards, situation, cell, before, on))
    return rows


def core_status() -> str:
    """Whether the native core is built, in words (without it a game on the core plays on the Python engine)."""
    return "built" if core.LIBRARY is not None else core.STATUS


if __name__ == "__main__":
    sys.exit(main())
