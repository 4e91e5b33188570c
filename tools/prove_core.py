"""Prove the native core against the Python reference on many generated games (the long campaign of issue 40).

    python tools/prove_core.py --games 2000 [--variant classic ...] [--seed 1] [--play]

Each game is played at random by the reference and compared step by step (``canasta_ref.core.proof``); the run
prints one line a variant and the first disagreements found, and exits 1 if there is any (2 without the core).
With ``--play`` each hand is played instead by the core's own random-play loop (``canasta_ref.core.play``) and
replayed through the reference: every action one it lists, the position, the hand's end and its score its own; a
variant the loop does not cover is named with the mechanism it lacks.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_ref import cliargs, core
from canasta_ref.core.play import prove_play
from canasta_ref.core.proof import prove
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import list_variants, load_variant


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=cliargs.positive, default=100, help="games a variant (default 100)")
    parser.add_argument("--variant", type=cliargs.bundled_variant, action="append", help="only this one (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="the games' seeds are SEED/1, SEED/2, ... (default 1)")
    parser.add_argument("--play", action="store_true", help="hands played by the core's loop, replayed")
    args = parser.parse_args(argv)
    if not core.available():
        print(f"prove_core: {core.STATUS}", file=sys.stderr)
        return 2
    failed = False
    for variant in args.variant or list_variants():
        if args.play:
            failed = _prove_play(variant, args.seed, args.games) or failed
            continue
        started = time.perf_counter()
        proof = prove(rules_for(load_variant(variant)), [f"{args.seed}/{n}" for n in range(1, args.games + 1)])
        print(f"{proof.summary()} ({time.perf_counter() - started:.0f} s)", flush=True)
        for disagreement in proof.disagreements:
            print(f"    {disagreement}")
        failed = failed or bool(proof.disagreements)
    return 1 if failed else 0


def _prove_play(variant: str, seed: int, hands: int) -> bool:
    """One variant's hands played by the core's loop and replayed: whether any fault was found."""
    started = time.perf_counter()
    try:
        proof = prove_play(rules_for(load_variant(variant)), seed, hands)
    except core.CoreUnavailable as declined:
        print(f"{variant}: not played by the core's loop: {declined}", flush=True)
        return False
    print(f"{proof.summary()} ({time.perf_counter() - started:.0f} s)", flush=True)
    for fault in proof.faults:
        print(f"    {fault}")
    return bool(proof.faults)


if __name__ == "__main__":
    sys.exit(main())
