"""How the cost of the legal actions grows with the cards in hand: the scaling table of issue 15.

    python tools/bench_scaling.py [--variant classic --variant classic-2p] [--cards 11 20 30 45 60] [--json]

For each variant, hand size, side opened or not and phase (play, draw), the position of
``canasta_ref.scaling.scaling_position`` is listed as the random policy lists it: the listing built and counted
(``count()``), then one action drawn at random (``sample``); the median over ``--repeat`` positions of that kind
(seeds 0, 1, ...), each listed once, with Rules warmed by 50 hands of random play as in issue 15's measurement.
Beside the new figures the table gives those issue 15 measured before the change (compiled, Classic, on random
positions of the same kind; "over 1 s" where the old listing never finished). Figures are CPU time, one core.
Each cell is measured in a fresh process (``--in-process`` measures them one after another in this one, faster):
measured after others, the same cell moved by up to half from one run to the next, with what the big listings
before it left in the allocator and the caches.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from canasta_ref import Rules, cliargs
from canasta_ref.engine import _native as native
from canasta_ref.scaling import play_at_random, scaling_position
from canasta_ref.spec import load_variant

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


def warmed(variant: str) -> Rules:
    """Rules whose caches 50 hands of random play have filled, as a program that has played a while has them."""
    rules = Rules(load_variant(variant))
    play_at_random(rules, range(50), random.Random(0), seed=0)
    return rules


def measure(rules: Rules, cards: int, opened: bool, phase: str, repeat: int) -> tuple[int, float, float]:
    """(median legal actions, median us to build and count, median us to draw one action)."""
    counts, building, drawing = [], [], []
    for seed in range(repeat):
        game = scaling_position(rules, cards, opened=opened, phase=phase, seed=seed)  # type: ignore[arg-type]
        start = time.process_time()
        count = game.legal_actions().count()
        middle = time.process_time()
        if count:
            game.legal_actions().sample(random.Random(cards))
        end = time.process_time()
        counts.append(count)
        building.append(1e6 * (middle - start))
        drawing.append(1e6 * (end - middle))
    return int(statistics.median_low(counts)), statistics.median(building), statistics.median(drawing)


def _time(us: float) -> str:
    return f"{us:,.0f} us" if us < 10_000 else f"{us / 1000:,.1f} ms" if us < 10_000_000 else f"{us / 1e6:,.1f} s"


def measure_apart(variant: str, cards: int, opened: bool, phase: str, repeat: int) -> tuple[int, float, float]:
    """``measure`` in a fresh process with freshly warmed Rules: a cell measured after others moved by up to half
    (the allocator's and caches' state that big listings leave), so each cell starts from the same state."""
    command = [
        sys.executable,
        __file__,
        "--cell",
        variant,
        str(cards),
        phase,
        str(int(opened)),
        "--repeat",
        str(repeat),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    count, build, draw = json.loads(done.stdout)
    return int(count), float(build), float(draw)


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--variant", action="append", type=cliargs.variant_or_spec, help="variant ids (default classic and classic-2p)"
    )
    parser.add_argument("--cards", type=cliargs.positive, nargs="+", default=[11, 20, 30, 45, 60], help="hand sizes")
    parser.add_argument(
        "--repeat", type=cliargs.positive, default=3, help="fresh positions to take the median of (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of the table")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="measure every cell in this process, one after another: faster, but a cell's figure then depends "
        "on the cells before it",
    )
    parser.add_argument("--cell", nargs=4, metavar=("VARIANT", "CARDS", "PHASE", "OPENED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cell:  # one cell, for ``measure_apart``
        variant, cards, phase, opened = args.cell
        print(json.dumps(measure(warmed(variant), int(cards), opened == "1", phase, args.repeat)))
        return 0
    variants = args.variant or ["classic", "classic-2p"]
    problem = unplayable_cell(variants, args.cards)
    if problem:
        parser.error(f"--cards: {problem}")
    rows = []
    for variant in variants:
        rules = warmed(variant) if args.in_process else None
        for cards in args.cards:
            for phase in ("play", "draw"):
                for opened in (True, False):
                    if rules is not None:
                        count, build, draw = measure(rules, cards, opened, phase, args.repeat)
                    else:
                        count, build, draw = measure_apart(variant, cards, opened, phase, args.repeat)
                    situation = f"{phase}, {'opened' if opened else 'not opened'}"
                    before = BEFORE.get((cards, situation), "") if variant == "classic" else ""
                    rows.append((variant, cards, situation, count, build, draw, before))
    if args.json:
        keys = ("variant", "cards", "situation", "actions", "us_count", "us_sample", "before")
        print(json.dumps([dict(zip(keys, row, strict=True)) for row in rows], indent=2))
        return 0
    where = "one process" if args.in_process else "a fresh process a cell"
    print(f"canasta-ref scaling: engine {native.STATUS}, CPU time, median of {args.repeat} positions each, {where}")
    print("| variant | cards | situation | legal actions | build + count | one sample | before (issue 15) |")
    print("|---|---|---|---|---|---|---|")
    for variant, cards, situation, count, build, draw, before in rows:
        print(f"| {variant} | {cards} | {situation} | {count:,} | {_time(build)} | {_time(draw)} | {before} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
