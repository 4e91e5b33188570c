"""Deal-perft: counting the legal action sequences from a dealt position, through the protocol.

Like chess's perft, a deal-perft file fixes a deal and gives, for small depths d, how many sequences of d legal
actions start from it::

    perft: 1
    id: classic-seed-3
    variant: classic
    deck: {seed: 3}            # or {order: "KH 4C ..."}: the whole deck in dealing order
    first_seat: 0
    depths: {1: 5, 2: 37, 3: 74}

Depth 1 is the number of legal actions of the seat to act after the deal; depth 2 sums, over each of those, the
number of legal actions after it; and so on (``perft(d) = sum over a in legal of perft(d - 1)`` after ``a``).
Every kind of action counts, draws included: the stock's order is fixed by the deck, so a ``draw`` is one action
leading to one position, like any other. Asking partner, and partner's answer, are actions too.

Which actions count as different is the protocol's rule (``conformance/PROTOCOL.md``, "When two actions are the
same"): two actions are the same when they have the same type and the same multisets of cards in each role
(``cards``, and each group of ``melds``); the order of cards in a list and the order of groups do not matter, and
the two copies of a card in the double deck are interchangeable. Two groups differ when their cards differ, even
if they only swap a suit. A legal-action list holds each action once, so an engine that lists an action twice
(say ``KH KS`` and ``KS KH``) counts it twice and fails.

``run_perft_files(engine, variants=...)`` plays every file through the protocol: it needs ``legal: "list"`` (the
listed actions are applied to go deeper), goes back with ``undo`` when the engine has it, and otherwise sets the
deal up again and replays the actions leading to the position. On a mismatch, the message gives the *divide*: for
each first action, the number of sequences below it, the reference's against the engine's (only those that
differ, and actions only one side lists), then the first position where the two lists of legal actions differ.

The files' numbers come from the reference interpreter; ``python -m canasta_ref.conformance.perft`` recomputes
them after a rule change (``--check`` only compares).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..engine.actions import parse_action
from ..engine.cards import Card, parse_cards
from ..engine.game import Game, deck_for_seed
from ..engine.rules import Rules
from ..errors import CanastaError, IllegalAction
from ..files import read_regular_text
from ..resources import perft_dir
from ..spec import list_variants
from .engines import Engine, EngineFailure, error_text, excerpt
from .findings import PERFT_PREFIX
from .report import few
from .runner import Result, action_text, deal_request, failure_result, unnamed_melds
from .session import variant_newer_than
from .variants import reference_rules

#: At most this many first actions are shown in a divide.
DIVIDE_LINES = 20


@dataclass(frozen=True)
class PerftFile:
    """One deal-perft file: a deal and the number of legal action sequences of each depth from it."""

    id: str
    variant: str
    deck: tuple[Card, ...]
    deck_spec: Mapping[str, Any]
    first_seat: int
    depths: Mapping[int, int]
    file: str

    def new_game(self, rules: Rules | None = None) -> Game:
        return Game(rules or reference_rules(self.variant), deck=self.deck, first_seat=self.first_seat)

    def setup_request(self) -> dict[str, Any]:
        return deal_request(self.variant, self.deck, self.first_seat)


def read_perft_file(path: Path) -> PerftFile:
    """Read and check one file; a CanastaError names the file and the field."""
    try:
        data = yaml.safe_load(read_regular_text(path))
    except yaml.YAMLError as error:
        raise CanastaError(f"{path}: not YAML: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CanastaError(f"{path}: cannot read the deal-perft file: {error}") from None
    if not isinstance(data, dict):
        raise CanastaError(f"{path}: a deal-perft file is a mapping of fields")
    unknown = sorted(set(data) - {"perft", "id", "variant", "deck", "first_seat", "depths", "description"})
    if unknown:
        raise CanastaError(f"{path}: unknown field {unknown[0]!r}")
    if data.get("perft") != 1:
        raise CanastaError(f"{path}: field 'perft' must be 1 (the format version)")
    ident = data.get("id")
    if ident != path.stem:
        raise CanastaError(f"{path}: field 'id': {ident!r} must equal the file name {path.stem!r}")
    variant = data.get("variant")
    if variant not in list_variants():
        raise CanastaError(f"{path}: field 'variant': unknown variant {variant!r}")
    rules = reference_rules(variant)
    deck_spec = data.get("deck")
    if not isinstance(deck_spec, dict) or len(deck_spec) != 1 or not set(deck_spec) <= {"seed", "order"}:
        raise CanastaError(f"{path}: field 'deck': give exactly one of 'seed' and 'order'")
    if "seed" in deck_spec:
        deck = deck_for_seed(rules, deck_spec["seed"])
    else:
        try:
            deck = parse_cards(str(deck_spec["order"]))
        except CanastaError as error:
            raise CanastaError(f"{path}: field 'deck.order': {str(error).splitlines()[0]}") from None
    first_seat = data.get("first_seat", 0)
    if not isinstance(first_seat, int) or not 0 <= first_seat < rules.players:
        raise CanastaError(f"{path}: field 'first_seat': expected a seat from 0 to {rules.players - 1}")
    depths = data.get("depths")
    if (
        not isinstance(depths, dict)
        or not depths
        or not all(isinstance(d, int) and d >= 1 and isinstance(n, int) and n >= 0 for d, n in depths.items())
    ):
        raise CanastaError(f"{path}: field 'depths': expected a mapping of depths (1, 2, ...) to counts")
    perft = PerftFile(ident, variant, tuple(deck), dict(deck_spec), first_seat, dict(depths), str(path))
    try:
        perft.new_game(rules)
    except CanastaError as error:
        raise CanastaError(f"{path}: field 'deck': {error}") from None
    return perft


def load_perft_files(paths: Sequence[Path] | None = None) -> list[PerftFile]:
    """Every deal-perft file of the given files or folders (default: the bundled ones)."""
    files: list[Path] = []
    for path in paths if paths is not None else [perft_dir()]:
        files.extend(sorted(path.glob("*.yaml")) if path.is_dir() else [path])
    return [read_perft_file(file) for file in files]


# -- counting ------------------------------------------------------------------------------------------------------
class _Tree:
    """One side's way of walking the tree of legal actions: list, go down one action, come back up."""

    def legal(self) -> list[tuple[str, Any]]:
        """The legal actions here: (canonical text, what ``push`` takes)."""
        raise NotImplementedError

    def push(self, text: str, move: Any) -> None:
        raise NotImplementedError

    def pop(self) -> None:
        raise NotImplementedError


class _ReferenceTree(_Tree):
    def __init__(self, game: Game) -> None:
        self.game = game

    def legal(self) -> list[tuple[str, Any]]:
        return [(str(a), a) for a in self.game.legal_actions()]

    def push(self, text: str, move: Any) -> None:
        self.game.apply(move)

    def pop(self) -> None:
        self.game.undo()


class _Mismatch(Exception):
    pass


class _EngineTree(_Tree):
    """The engine through the protocol; ``undo`` if it has it, else a new set-up and the path replayed."""

    def __init__(self, engine: Engine, perft: PerftFile) -> None:
        self.engine = engine
        self.perft = perft
        self.undo = engine.info.can("undo")
        self.path: list[tuple[str, Any]] = []
        # An engine listing far too many actions would make the walk endless: it gets a budget of pushes.
        self.budget = 10 * sum(perft.depths.values()) + 1000
        self.setup()

    def setup(self) -> None:
        reply = self.engine.request(self.perft.setup_request())
        if not reply.get("ok"):
            if "skip" in reply:
                raise _Skip(f"the engine says: {reply['skip']}")
            raise _Mismatch(f"the engine refused the set-up: {error_text(reply)}")

    def where(self) -> str:
        return "after " + ", ".join(f"`{t}`" for t, _ in self.path) if self.path else "at the deal"

    def legal(self) -> list[tuple[str, Any]]:
        reply = self.engine.request({"cmd": "legal"})
        listed = reply.get("actions")
        if not reply.get("ok") or not isinstance(listed, list):
            why = error_text(reply) if not reply.get("ok") else "its 'actions' is not a list (one was expected)"
            raise _Mismatch(f"{self.where()}: the engine did not list the legal actions: {why}")
        out = []
        for raw in listed:
            try:
                out.append((action_text(raw), raw))
            except CanastaError as error:
                raise _Mismatch(
                    f"{self.where()}: the engine lists {excerpt(raw)}, which is not an action: {error}"
                ) from None
        return out

    def push(self, text: str, move: Any) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise _Mismatch(
                f"{self.where()}: the engine lists far more actions than the file counts "
                f"({dict(self.perft.depths)}); stopped walking its tree"
            )
        reply = self.engine.request({"cmd": "apply", "action": move})
        if not reply.get("ok") or reply.get("accepted") is not True:
            why = error_text(reply) if not reply.get("ok") else reply.get("rule") or reply.get("message") or "no rule"
            raise _Mismatch(f"{self.where()}: the engine lists `{text}` as legal but refuses it ({why})")
        self.path.append((text, move))

    def pop(self) -> None:
        self.path.pop()
        if self.undo:
            reply = self.engine.request({"cmd": "undo"})
            if reply.get("ok"):
                return
            raise _Mismatch(f"{self.where()}: the engine could not undo: {error_text(reply)}")
        path, self.path = self.path, []
        self.setup()
        for text, move in path:
            self.push(text, move)


class _Skip(Exception):
    pass


def _subtree(tree: _Tree, depth: int) -> list[int]:
    """Sequences of 1..depth actions from the current position: counts[k] is the number of length k + 1."""
    if depth <= 0:
        return []
    actions = tree.legal()
    counts = [len(actions)] + [0] * (depth - 1)
    if depth > 1:
        for text, move in actions:
            tree.push(text, move)
            below = _subtree(tree, depth - 1)
            tree.pop()
            for k, n in enumerate(below):
                counts[k + 1] += n
    return counts


def _divide(tree: _Tree, depth: int) -> tuple[list[int], dict[str, list[int]], list[str]]:
    """Counts of every depth up to ``depth``, the counts below each first action, and actions listed twice."""
    actions = tree.legal()
    totals = [len(actions)] + [0] * (depth - 1)
    below: dict[str, list[int]] = {}
    twice = []
    for text, move in actions:
        if text in below:
            twice.append(text)
            continue
        tree.push(text, move)
        counts = _subtree(tree, depth - 1)
        tree.pop()
        below[text] = counts
    for text, _ in actions:
        for k, n in enumerate(below[text]):
            totals[k + 1] += n
    return totals, below, twice


def reference_counts(perft: PerftFile, depth: int) -> list[int]:
    """The reference's counts of sequences of 1..depth actions from the file's deal."""
    return _subtree(_ReferenceTree(perft.new_game()), depth)


def run_perft_files(engine: Engine, *, variants: list[str] | None, paths: Sequence[Path] | None = None) -> list[Result]:
    """Run the deal-perft files (default: the bundled ones) on ``engine``: one Result a file."""
    results = []
    for perft in load_perft_files(paths):
        if variants and perft.variant not in variants:
            continue
        results.append(run_perft(engine, perft))
    return results


def run_perft(engine: Engine, perft: PerftFile) -> Result:
    base: dict[str, Any] = {"scenario": f"{PERFT_PREFIX}{perft.id}", "variant": perft.variant, "file": perft.file}
    info = engine.info
    if perft.variant not in info.variants:
        return Result(**base, status="skipped", message=f"the engine does not play {perft.variant}")
    since = variant_newer_than(info.protocol, reference_rules(perft.variant))
    if since:
        return Result(**base, status="skipped", message=unnamed_melds(info.protocol, since, perft.variant))
    if info.capabilities.get("legal") != "list":
        return Result(**base, status="skipped", message='deal-perft needs an engine that lists legal actions ("list")')
    try:
        message = _compare(engine, perft)
    except _Skip as skip:
        return Result(**base, status="skipped", message=str(skip))
    except _Mismatch as mismatch:
        message = str(mismatch)
    except EngineFailure as failure:
        return failure_result(engine, failure, **base)
    if message:
        differs = {"step": None, "check": "perft", "rule": None, "message": message, "cause": PERFT_CAUSE}
        return Result(**base, status="failed", message=message, failures=[differs])
    return Result(**base, status="passed")


#: What differs when a deal-perft file fails (its message says where).
PERFT_CAUSE = "deal-perft: the legal actions below the deal differ"


def _compare(engine: Engine, perft: PerftFile) -> str:
    """'' if the engine's counts are the file's; otherwise the failure message with the divide."""
    depth = max(perft.depths)
    tree = _EngineTree(engine, perft)
    totals, below, twice = _divide(tree, depth)
    wrong = [d for d in sorted(perft.depths) if totals[d - 1] != perft.depths[d]]
    if not wrong and not twice:
        return ""
    lines = []
    first = wrong[0] if wrong else 1
    for d in sorted(perft.depths):
        mark = "  <-" if d in wrong else ""
        lines.append(f"depth {d}: {perft.depths[d]} sequences expected, the engine counts {totals[d - 1]}{mark}")
    if twice:
        lines.append("the engine lists some actions twice at the deal: " + ", ".join(f"`{t}`" for t in twice))
    game = perft.new_game()
    ref_totals, ref_below, _ = _divide(_ReferenceTree(game), depth)
    if ref_totals != [perft.depths.get(d, ref_totals[d - 1]) for d in range(1, depth + 1)]:
        lines.append(f"(the reference counts {ref_totals} now: the file is out of date; regenerate it)")
    lines.append(
        f"divide at depth {first} (sequences of {first} actions by first action, reference vs engine; "
        "only those that differ):"
    )
    counted, unlisted = [], []
    for text in sorted(set(ref_below) | set(below)):
        ours = ref_below[text][first - 2] if text in ref_below and first >= 2 else (1 if text in ref_below else 0)
        theirs = below[text][first - 2] if text in below and first >= 2 else (1 if text in below else 0)
        if text not in below:
            unlisted.append(f"  {text}: {ours} vs -  (the engine does not list it)")
        elif text not in ref_below:
            unlisted.append(f"  {text}: - vs {theirs}  (not legal per the reference{_refusal(game, text)})")
        elif ours != theirs:
            counted.append(f"  {text}: {ours} vs {theirs}")
    shown = counted + unlisted
    lines.extend(shown[:DIVIDE_LINES])
    if len(shown) > DIVIDE_LINES:
        lines.append(f"  ... and {len(shown) - DIVIDE_LINES} more first actions that differ")
    difference = _first_difference(tree, _ReferenceTree(perft.new_game()), first) if first > 1 else ""
    if difference:
        lines.append("first difference: " + difference)
    return "\n".join(lines)


def _refusal(game: Game, text: str) -> str:
    try:
        game.check(parse_action(text))
    except IllegalAction as refusal:
        return f": {refusal.rule_id}"
    except CanastaError:
        return ""
    return ""


def _first_difference(engine: _Tree, reference: _ReferenceTree, depth: int) -> str:
    """Go down where the counts differ until the two lists of legal actions differ; say where and how."""
    path: list[str] = []
    for remaining in range(depth, 0, -1):
        theirs = dict(engine.legal())
        ours = dict(reference.legal())
        where = "after " + ", ".join(f"`{t}`" for t in path) if path else "at the deal"
        missing = sorted(set(ours) - set(theirs))
        extra = sorted(set(theirs) - set(ours))
        if missing or extra:
            parts = []
            if missing:
                parts.append("the engine does not list " + few(missing, limit=6) + " (legal per the reference)")
            if extra:
                refusals = [t + _refusal(reference.game, t) for t in extra]
                parts.append("the engine lists " + few(refusals, limit=6) + " (refused by the reference)")
            return f"{where}: " + "; ".join(parts)
        if remaining == 1:
            return ""
        for text in sorted(ours):
            engine.push(text, theirs[text])
            reference.push(text, ours[text])
            if _subtree(engine, remaining - 1) != _subtree(reference, remaining - 1):
                path.append(text)
                break
            engine.pop()
            reference.pop()
        else:
            return ""
    return ""


# -- writing the files ---------------------------------------------------------------------------------------------
def perft_text(perft: PerftFile, depths: Mapping[int, int]) -> str:
    """A deal-perft file's text with the given counts."""
    deck = (
        f"{{seed: {perft.deck_spec['seed']}}}"
        if "seed" in perft.deck_spec
        else f'{{order: "{" ".join(str(perft.deck_spec["order"]).split())}"}}'
    )
    counts = ", ".join(f"{d}: {n}" for d, n in sorted(depths.items()))
    return (
        f"perft: 1\nid: {perft.id}\nvariant: {perft.variant}\ndeck: {deck}\nfirst_seat: {perft.first_seat}\n"
        f"depths: {{{counts}}}\n"
    )


def main(argv: Sequence[str] | None = None, out: Callable[[str], Any] = print) -> int:
    """Recompute the bundled files' counts with the reference (``--check``: only compare)."""
    parser = argparse.ArgumentParser(prog="python -m canasta_ref.conformance.perft", description=main.__doc__)
    parser.add_argument("files", nargs="*", type=Path, help="deal-perft files (default: the bundled ones)")
    parser.add_argument("--check", action="store_true", help="only say which files are out of date")
    args = parser.parse_args(argv)
    stale = 0
    for perft in load_perft_files(args.files or None):
        counts = reference_counts(perft, max(perft.depths))
        depths = {d: counts[d - 1] for d in perft.depths}
        if depths == dict(perft.depths):
            out(f"{perft.id}: {depths} (up to date)")
            continue
        stale += 1
        out(f"{perft.id}: {dict(perft.depths)} -> {depths}")
        if not args.check:
            Path(perft.file).write_text(perft_text(perft, depths), encoding="utf-8")
    return 1 if stale and args.check else 0


__all__ = [
    "PerftFile",
    "load_perft_files",
    "perft_dir",
    "read_perft_file",
    "reference_counts",
    "run_perft",
    "run_perft_files",
]

if __name__ == "__main__":
    sys.exit(main())
