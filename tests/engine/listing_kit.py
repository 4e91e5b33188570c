"""Helpers for engine tests: a variant written for one test, and an action judged both ways, by ``plan`` and by
the listing, plain and as a structure (``combos.Combinations``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import product
from pathlib import Path
from typing import Any

from canasta_ref import Game, Variant, load_variant, parse_action
from canasta_ref.engine import legal
from canasta_ref.engine.checks import CanastaKinds
from canasta_ref.engine.judge import is_legal
from canasta_ref.engine.named import candidates
from canasta_ref.engine.openings import InitialQuestion, constant_from, initial_refusal
from canasta_ref.engine.rules import Rules
from canasta_ref.engine.state import HandState
from canasta_ref.errors import IllegalAction


def written_variant(folder: Path, name: str, text: str) -> Variant:
    """The variant of the spec ``text``, written to ``folder`` as ``name``.yaml and loaded as a user's would be."""
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return load_variant(path)


def refusal(game: Game, text: str) -> str | None:
    """The id of the rule refusing the action ``text`` in ``game``, or None if it is legal."""
    try:
        game.check(parse_action(text))
    except IllegalAction as refused:
        return refused.rule_id
    return None


def legal_by_plan(rules: Rules, game: Game) -> set[Any]:
    """The listing, checked against every candidate put to plan one by one, and its count against both; returned
    as a set of actions."""
    state = game.state
    listing = legal.listing(rules, state)
    listed = list(listing)
    slow = {a for a in candidates(rules, state) if is_legal(rules, state, a)}
    assert set(listed) == slow and len(listed) == len(slow)
    assert listing.count() == len(slow), "the count agrees with the actions listed"
    return slow


#: The listing's thresholds between a plain list and a structure (``legal``), each a one-item list tests may set.
THRESHOLDS = (legal.STRUCTURE_ABOVE, legal.TAKE_STRUCTURE_ABOVE, legal.TAKE_EXTRAS_STRUCTURE_ABOVE)


def thresholds(value: int) -> Iterator[None]:
    """Once, with every threshold set to ``value`` (0: structures always; huge: plain lists always)."""
    saved = [knob[0] for knob in THRESHOLDS]
    for knob in THRESHOLDS:
        knob[0] = value
    try:
        yield
    finally:
        for knob, before in zip(THRESHOLDS, saved, strict=True):
            knob[0] = before


def forced_structure() -> Iterator[None]:
    """Once, with multi-meld families and a side's takes before opening always kept as structures, however few
    their choices."""
    yield from thresholds(0)


def each_listing() -> Iterator[None]:
    """Once with the plain listing of openings, once with the structure forced on."""
    yield
    yield from forced_structure()


def every_total_cap(
    rules: Rules,
    state: HandState,
    highest: int,
    every_kinds: Iterable[CanastaKinds],
    flags: Sequence[tuple[bool, bool]],
    compositions: Sequence[int],
    *,
    top_points: int = 0,
    taking: bool = False,
) -> int:
    """The initial-meld points cap asked the slow way, as a reference: every total up to ``highest`` of every count
    of canastas, way of going out concealed and composition given, each series' first total from which no answer
    changes, the highest of them."""
    unit, cap = rules.points_unit, 0
    for kinds in every_kinds:
        for (concealed, by_discard), composition in product(flags, compositions):
            question = InitialQuestion(top_points, kinds, (concealed, by_discard), taking, composition)
            answers = [
                initial_refusal(rules, state, state.to_act, question, points)
                for points in range(0, highest + unit, unit)
            ]
            cap = max(cap, constant_from(answers) * unit)
    return cap
