"""The checks made on an engine's replies after a step: its legal actions, a seat's view, the score, and the
generic properties of every position."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.actions import action_from_json
from ..engine.rules import Rules
from ..errors import CanastaError
from ..render import source_line
from . import causes
from .engines import Engine, excerpt
from .plaintext import shown
from .tally import Differs, Mismatch, Outcome, SkipCheck
from .views import (
    PUBLIC_FIELDS,
    normalise_field,
    normalised_or_none,
    unknown_field_problem,
    view_problem,
)


@dataclass
class _Check:
    name: str
    compare: Callable[[Any], Outcome]
    rule: str | None = None
    #: Why the check cannot be made at all (None: it can).
    skip: str | None = None


@dataclass
class _Group:
    """Checks made on one reply: ``fetch`` asks the engine, raising Mismatch when the reply is of no use."""

    fetch: Callable[[], Any]
    checks: list[_Check]


def _holds(_reply: Any) -> Outcome:
    """A check made whole by its group's request (which raised Mismatch had it failed)."""
    return None


def _legal_reply(engine: Engine, where: str) -> tuple[set[str] | None, int]:
    """The actions a 'legal' reply lists (None when it gives a count only) and how many."""
    reply = engine.request({"cmd": "legal"})
    if "actions" in reply:
        listed = _legal_listed(reply, where)
        return listed, len(listed)
    counted = reply.get("count")
    if type(counted) is not int:
        raise Mismatch(
            f"{where}: the engine's reply to 'legal' was not a list of actions nor a count: {excerpt(reply)}",
            cause=causes.LEGAL_MALFORMED,
        )
    return None, counted


def _includes(where: str, text: str, legal: tuple[set[str] | None, int]) -> Outcome:
    listed = legal[0]
    if listed is None:
        return SkipCheck("legal_includes (the engine's 'legal' gives a count only)")
    return None if text in listed else f"{where}: `{text}` should be legal afterwards but is not listed"


def _excludes(where: str, text: str, legal: tuple[set[str] | None, int]) -> Outcome:
    listed = legal[0]
    if listed is None:
        return SkipCheck("legal_excludes (the engine's 'legal' gives a count only)")
    return None if text not in listed else f"{where}: `{text}` should not be legal afterwards but is listed"


def _count(where: str, wanted: int, legal: tuple[set[str] | None, int]) -> Outcome:
    count = legal[1]
    return None if count == wanted else f"{where}: expected {wanted} legal actions afterwards, got {count}"


def _expected_view(engine: Engine, seat: int, where: str) -> dict[str, Any]:
    """The view a step's expectation names, normalised; one with fields beyond the protocol's fails."""
    raw = _raw_view(engine, seat, where)
    problem = unknown_field_problem(raw)
    if problem:
        raise Mismatch(f"{where}: seat {seat}'s view: {problem}", cause=causes.VIEW_EXTRA_FIELDS)
    return _normalised(raw, seat, where)


def _view_field(where: str, seat: int, key: str, wanted: Any, view: Mapping[str, Any]) -> Outcome:
    got = view.get(key)
    normal = normalise_field(key, wanted)
    if normal == got:
        return None
    message = f"{where}: seat {seat}'s view field '{key}' should be {shown(normal)}, got {shown(got)}"
    return Differs(message, causes.view_cause(key, normal, got))


def _score_reply(engine: Engine) -> Mapping[str, Any]:
    return engine.request({"cmd": "score"})


def _match_over(where: str, wanted: bool, reply: Mapping[str, Any]) -> Outcome:
    if reply.get("match_over") is wanted:
        return None
    return (
        f"{where}: the match should {'end' if wanted else 'go on'} after this hand; "
        f"the engine says match_over={shown(reply.get('match_over'))}"
    )


def _over(where: str, wanted: bool, reply: Mapping[str, Any]) -> Outcome:
    if reply.get("over") is wanted:
        return None
    should = "have ended" if wanted else "go on"
    return f"{where}: the hand should {should}; the engine says over={shown(reply.get('over'))}"


def _end(where: str, wanted: str, reply: Mapping[str, Any]) -> Outcome:
    if reply.get("end") == wanted:
        return None
    return f"{where}: the hand should end by '{wanted}', got {shown(reply.get('end'))}"


def _totals(where: str, wanted: list[int], reply: Mapping[str, Any]) -> Outcome:
    if reply.get("totals", []) == wanted:
        return None
    return f"{where}: scores should be {shown(wanted)}, got {shown(reply.get('totals'))}"


def _part(
    where: str, clauses: Mapping[str, Any], side: int, rule: str, points: int, reply: Mapping[str, Any]
) -> Outcome:
    return _listed_part(where, clauses, ("parts", "side"), side, rule, points, reply)


def _seat_part(
    where: str, clauses: Mapping[str, Any], seat: int, rule: str, points: int, reply: Mapping[str, Any]
) -> Outcome:
    return _listed_part(where, clauses, ("seat_parts", "seat"), seat, rule, points, reply)


def _listed_part(
    where: str,
    clauses: Mapping[str, Any],
    field_and_noun: tuple[str, str],
    index: int,
    rule: str,
    points: int,
    reply: Mapping[str, Any],
) -> Outcome:
    """Whether entry ``index`` of the score answer's list of parts (``parts`` per side, ``seat_parts`` per seat)
    gives ``points`` for ``rule``."""
    key, noun = field_and_noun
    entries = reply.get(key)
    got_parts = entries[index] if isinstance(entries, list) and index < len(entries) else {}
    got = got_parts.get(rule) if isinstance(got_parts, Mapping) else None
    if got == points:
        return None
    return f"{where}: {noun} {index} should score {points} for {rule}, got {shown(got)}" + cite(clauses, rule)


def verdict_problem(accepted: Any) -> str | None:
    """What is wrong with an 'apply' reply's 'accepted', or None when it is true or false."""
    if isinstance(accepted, bool):
        return None
    return f"the engine's reply to 'apply' has 'accepted' {excerpt(accepted, 80)}, not true or false"


def deck_size(rules: Rules) -> int:
    """How many cards the deck of ``rules`` holds."""
    return rules.packs * (52 + rules.jokers_per_pack)


def _raw_view(engine: Engine, seat: int, where: str) -> Mapping[str, Any]:
    """A seat's view as the engine sends it; a reply without an object as its view fails the step."""
    view = engine.request({"cmd": "view", "seat": seat}).get("view")
    if not isinstance(view, Mapping):
        raise Mismatch(
            f"{where}: the engine's reply to 'view' for seat {seat} was not an object: {excerpt(view)}",
            cause=causes.VIEW_MALFORMED,
        )
    return view


def _normalised(view: Mapping[str, Any], seat: int, where: str) -> dict[str, Any]:
    normalised = normalised_or_none(view)
    if normalised is None:
        raise Mismatch(
            f"{where}: the engine's reply to 'view' for seat {seat} was not a view: {excerpt(view)}",
            cause=causes.VIEW_MALFORMED,
        )
    return normalised


def _check_views_agree(engine: Engine, where: str, cards: int, players: int) -> None:
    """Generic properties after every accepted step: each seat sees its own hand of the size the others see,
    every seat sees the same table, no view has fields beyond the protocol's, and the cards add up to the deck."""
    first_raw = _raw_view(engine, 0, where)
    _check_conserved(first_raw, 0, where, cards, players)
    others = [_raw_view(engine, s, where) for s in range(1, players)]
    first = _normalised(first_raw, 0, where)
    for seat, view in enumerate(others, 1):
        _check_conserved(view, seat, where, cards, players)
        seen = _normalised(view, seat, where)
        for key in PUBLIC_FIELDS:
            if seen.get(key) != first.get(key):
                raise Mismatch(
                    f"{where}: seats 0 and {seat} see different '{key}': "
                    f"{excerpt(first.get(key))} / {excerpt(seen.get(key))}"
                )


def _check_conserved(view: Mapping[str, Any], seat: int, where: str, cards: int, players: int) -> None:
    """Fail the step unless a seat's view has only the protocol's fields and its cards add up to the deck."""
    problem = view_problem(view, seat, cards, players)
    if problem:
        cause = causes.VIEW_EXTRA_FIELDS if unknown_field_problem(view) else causes.VIEW_CARDS
        raise Mismatch(f"{where}: seat {seat}'s view: {problem}", cause=cause)


def cite(clauses: Mapping[str, Any], rule: str | None) -> str:
    """The rule's text and its first source, for a failure message."""
    if not rule or rule not in clauses:
        return ""
    clause = clauses[rule]
    return f"\n    rule {rule}: {clause.text}\n    {source_line(clause.sources[0])}"


def _legal_listed(reply: Mapping[str, Any], where: str) -> set[str]:
    """The canonical texts of the actions a 'legal' reply lists; a list of anything else fails the step."""
    listed = reply["actions"]
    if not isinstance(listed, list):
        raise Mismatch(
            f"{where}: the engine's reply to 'legal' was not a list of actions: {excerpt(listed)}",
            cause=causes.LEGAL_MALFORMED,
        )
    texts: set[str] = set()
    for raw in listed:
        try:
            text = action_text(raw)
        except CanastaError as error:
            raise Mismatch(
                f"{where}: the engine's reply to 'legal' was not a list of actions: it lists {excerpt(raw)} ({error})",
                cause=causes.LEGAL_MALFORMED,
            ) from None
        if text in texts:  # the protocol: a legal-action list contains each action once
            raise Mismatch(f"{where}: the engine's reply to 'legal' lists `{text}` twice")
        texts.add(text)
    return texts


def action_text(raw: Any) -> str:
    """The canonical text of an action an engine sent; anything that is not one raises CanastaError (whatever
    the engine sent: a wrong type inside it is not a crash of the runner)."""
    try:
        return str(action_from_json(raw))
    except (TypeError, ValueError, AttributeError, KeyError) as error:
        raise CanastaError(f"not an action ({type(error).__name__})") from None
