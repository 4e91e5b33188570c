"""Running scenarios against an engine and judging each step: passed, failed, skipped, errored, timed out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..actions import Action, action_from_json, parse_action
from ..errors import CanastaError
from ..render import source_line
from ..rules import Rules, rules_for
from .engines import Engine, EngineFailure, excerpt
from .scenario import Expect, Scenario
from .setup import deal_request, format_deck, setup_request
from .variants import applicable_variants, reference_rules, with_parameters

Status = Literal["passed", "failed", "skipped", "errored", "timed out", "known failure", "unexpected pass"]

#: The most characters a result's message, and its stderr, carry (an engine's text is quoted, never whole).
MESSAGE_CHARS = 4000
STDERR_CHARS = 8000


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (saying how much was cut), and writable as UTF-8 whatever an engine
    sent (lone surrogates are escaped)."""
    if len(text) > limit:
        text = f"{text[:limit]} [... {len(text) - limit} characters cut]"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class Result:
    """The verdict on one scenario for one variant."""

    scenario: str
    variant: str
    status: Status
    message: str = ""
    rule: str | None = None
    stderr: str = ""
    file: str = ""

    def __post_init__(self) -> None:
        """Bound what a result carries: a report stays small whatever the engine printed."""
        self.message = clip(self.message, MESSAGE_CHARS)
        self.stderr = clip(self.stderr, STDERR_CHARS)

    @property
    def key(self) -> str:
        return f"{self.scenario}@{self.variant}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"scenario": self.scenario, "variant": self.variant, "status": self.status}
        for name in ("message", "rule", "stderr", "file"):
            value = getattr(self, name)
            if value:
                out[name] = value
        return out


@dataclass
class Selection:
    """Which tests to run: by variant, rule id and level (empty = all)."""

    variants: Sequence[str] = ()
    rules: Sequence[str] = ()
    levels: Sequence[str] = ()

    def cases(self, scenarios: Iterable[Scenario]) -> list[tuple[Scenario, str]]:
        out = []
        for scenario in scenarios:
            if self.levels and scenario.level not in self.levels:
                continue
            if self.rules and not any(rule_matches(r, scenario.rules) for r in self.rules):
                continue
            for variant in applicable_variants(scenario):
                if not self.variants or variant in self.variants:
                    out.append((scenario, variant))
        return out


def rule_matches(pattern: str, rules: Sequence[str]) -> bool:
    """Whether ``pattern`` (a rule id, or a prefix such as ``PILE.TAKE`` or ``PILE.TAKE.*``) names one of ``rules``."""
    return any(rule == pattern or rule.startswith(pattern.rstrip("*").rstrip(".") + ".") for rule in rules)


class Mismatch(Exception):
    """A step whose outcome differs from the scenario's expectation."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(message)


class Skip(Exception):
    pass


def case_rules(scenario: Scenario, variant: str) -> Rules:
    """The rules a scenario runs under in ``variant``: the variant with the scenario's parameters set (the plain
    variant if they cannot be: the engine's answer to the set-up then says what is wrong with them)."""
    if scenario.parameters:
        try:
            return rules_for(with_parameters(variant, scenario.parameters))
        except CanastaError:
            pass
    return reference_rules(variant)


def apply_request(action: Action, seat: int | None = None) -> dict[str, Any]:
    """The protocol's apply request: ``action`` for ``seat`` (``None``: the seat to act)."""
    message: dict[str, Any] = {"cmd": "apply", "action": action.to_json()}
    if seat is not None:
        message["seat"] = seat
    return message


def setup_message(scenario: Scenario, variant: str, rules: Rules | None = None) -> dict[str, Any]:
    """The protocol's setup request for a scenario under ``variant`` (a seed dealt by ``rules``, by default the
    variant with the scenario's parameters)."""
    return setup_request(scenario.setup, variant, scenario.parameters, rules or case_rules(scenario, variant))


def run_case(engine: Engine, scenario: Scenario, variant: str) -> Result:
    """Run one scenario for one variant; engine failures are reported, never raised."""
    base = {"scenario": scenario.id, "variant": variant, "file": scenario.file}
    try:
        _play(engine, scenario, variant)
    except Skip as skip:
        return Result(**base, status="skipped", message=str(skip))
    except Mismatch as mismatch:
        return Result(**base, status="failed", message=str(mismatch), rule=mismatch.rule)
    except EngineFailure as failure:
        return failure_result(engine, failure, **base)
    return Result(**base, status="passed")


def failure_status(failure: EngineFailure) -> Status:
    """The status of a test the engine failed: it did not answer in time, or answered wrongly."""
    return "timed out" if failure.kind == "timed out" else "errored"


def failure_result(engine: Engine, failure: EngineFailure, **base: Any) -> Result:
    """An engine failure as the result of a test (timed out, or errored), the engine restarted for the next one;
    a restart that fails too is told in the message, not raised (the next test finds the engine down, and tries
    again)."""
    status = failure_status(failure)
    message = failure.detail
    try:
        engine.restart()
    except (EngineFailure, OSError) as again:
        message += f"; restarting the engine failed too: {again}"
    return Result(**base, status=status, message=message, stderr=failure.stderr)


def _play(engine: Engine, scenario: Scenario, variant: str) -> None:
    info = engine.info
    if variant not in info.variants:
        raise Skip(f"the engine does not play {variant}")
    if scenario.uses_position and not info.can("setup_position"):
        raise Skip("the engine cannot set up a written-out position")
    if scenario.parameters and not info.can("parameters"):
        raise Skip("the engine cannot change parameters: " + ", ".join(scenario.parameters))
    rules = case_rules(scenario, variant)
    reply = engine.request(setup_message(scenario, variant, rules))
    if not reply.get("ok"):
        if "skip" in reply:
            raise Skip(f"the engine says: {reply['skip']}")
        raise Mismatch(f"setup refused: {reply.get('error', reply)}")
    clauses = rules.variant.clauses
    cards = deck_size(rules)
    for number, step in enumerate(scenario.steps, 1):
        where = f"step {number} `{step.action}`"
        reply = engine.request(apply_request(parse_action(step.action), step.seat))
        if not reply.get("ok"):
            raise Mismatch(f"{where}: the engine reported an error: {reply.get('error', reply)}")
        accepted = verdict(reply, where)
        expect = step.expect
        if accepted != expect.accepted:
            wanted = "accepted" if expect.accepted else f"refused by {expect.rule or 'a rule'}"
            got = (
                "accepted"
                if accepted
                else f"refused by {reply.get('rule') or 'an unnamed rule'} ({reply.get('message', '')})"
            )
            raise Mismatch(f"{where}: expected {wanted}, got {got}{cite(clauses, expect.rule)}", expect.rule)
        if not accepted and expect.rule and info.can("rule_ids") and reply.get("rule") != expect.rule:
            raise Mismatch(
                f"{where}: refused, but citing {reply.get('rule')!r} instead of {expect.rule}"
                + cite(clauses, expect.rule),
                expect.rule,
            )
        _check_after(engine, step.expect, where, clauses)
        if accepted and info.can("views"):
            _check_views_agree(engine, where, cards, rules.players)


def verdict(reply: Mapping[str, Any], where: str) -> bool:
    """An 'apply' reply's 'accepted'; anything but true or false fails the step (a text "false" is not false)."""
    accepted = reply.get("accepted")
    problem = verdict_problem(accepted)
    if problem:
        raise Mismatch(f"{where}: {problem}")
    return bool(accepted)


def verdict_problem(accepted: Any) -> str | None:
    """What is wrong with an 'apply' reply's 'accepted', or None when it is true or false."""
    if isinstance(accepted, bool):
        return None
    return f"the engine's reply to 'apply' has 'accepted' {excerpt(accepted, 80)}, not true or false"


def deck_size(rules: Rules) -> int:
    """How many cards the deck of ``rules`` holds."""
    return rules.packs * (52 + rules.jokers_per_pack)


_PUBLIC = ("to_act", "phase", "hand_sizes", "stock_size", "pile", "melds", "canastas", "bonus_cards", "team_scores")
#: Every field a view may have (conformance/PROTOCOL.md, `view`): any other might carry hidden cards.
VIEW_FIELDS = frozenset({"seat", "hand", "pile_frozen", "permission", "end", *_PUBLIC})
#: The fields of a meld written as an object.
MELD_FIELDS = frozenset({"cards", "canasta"})


def unknown_field_problem(view: Mapping[str, Any]) -> str | None:
    """What a view has beyond the protocol's fields, or None: a field the protocol does not define (at the top,
    or in a meld) is refused, since only the protocol's fields are checked for cards the seat may not see."""
    unknown = sorted(str(key) for key in view if key not in VIEW_FIELDS)
    if unknown:
        return (
            f"it has a field the protocol does not define: {excerpt(unknown[0], 80)} (a view holds only what the "
            "seat may see, in the protocol's fields)"
        )
    melds = view.get("melds")
    for side in melds if isinstance(melds, list) else ():
        for meld in side if isinstance(side, list) else ():
            extra = sorted(str(key) for key in meld if key not in MELD_FIELDS) if isinstance(meld, Mapping) else []
            if extra:
                return f"a meld has a field the protocol does not define: {excerpt(extra[0], 80)}"
    return None


def view_problem(view: Mapping[str, Any], seat: int, deck_size: int, players: int | None = None) -> str | None:
    """What is wrong with a view as the engine sent it, or None: fields beyond the protocol's, then its cards
    (``conservation_problem``), and the number of seats it shows (when ``players`` is given)."""
    problem = unknown_field_problem(view) or conservation_problem(view, seat, deck_size)
    if problem is None and players is not None and len(view["hand_sizes"]) != players:
        problem = f"hand_sizes lists {len(view['hand_sizes'])} seats, not {players}"
    return problem


def conservation_problem(view: Mapping[str, Any], seat: int, deck_size: int) -> str | None:
    """What is wrong with the cards a view (as the engine sent it) shows, or None: its own hand must have the
    size ``hand_sizes`` says, and hands, stock, pile, melds and bonus cards must make the whole deck."""
    try:
        hand = view.get("hand", [])
        hand = hand.split() if isinstance(hand, str) else list(hand)
        sizes = [int(n) for n in view["hand_sizes"]]
        pile = view.get("pile", [])
        pile = pile.split() if isinstance(pile, str) else list(pile)
        melded = sum(
            len(m["cards"] if isinstance(m, Mapping) else str(m).split()) for side in view["melds"] for m in side
        )
        bonus = sum(len(b.split() if isinstance(b, str) else b) for b in view.get("bonus_cards", []))
        total = sum(sizes) + int(view["stock_size"]) + len(pile) + melded + bonus
    except (KeyError, TypeError, ValueError, IndexError) as error:
        return f"cannot count its cards ({type(error).__name__}: {error})"
    if not 0 <= seat < len(sizes) or len(hand) != sizes[seat]:
        return f"it shows {len(hand)} cards in its hand but hand_sizes says {sizes}"
    if total != deck_size:
        return (
            f"the cards do not add up to the {deck_size} of the deck: hands {sum(sizes)} + "
            f"stock {view['stock_size']} + pile {len(pile)} + melds {melded} + bonus cards {bonus} = {total}"
        )
    return None


def _raw_view(engine: Engine, seat: int, where: str) -> Mapping[str, Any]:
    """A seat's view as the engine sends it; a reply without an object as its view fails the step."""
    view = engine.request({"cmd": "view", "seat": seat}).get("view")
    if not isinstance(view, Mapping):
        raise Mismatch(f"{where}: the engine's reply to 'view' for seat {seat} was not an object: {excerpt(view)}")
    return view


def _normalised(view: Mapping[str, Any], seat: int, where: str) -> dict[str, Any]:
    normalised = normalised_or_none(view)
    if normalised is None:
        raise Mismatch(f"{where}: the engine's reply to 'view' for seat {seat} was not a view: {excerpt(view)}")
    return normalised


def normalised_or_none(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """A view as an engine sent it, normalised; None if its fields have shapes no view has."""
    try:
        return normalise_view(view)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


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
        for key in _PUBLIC:
            if seen.get(key) != first.get(key):
                raise Mismatch(
                    f"{where}: seats 0 and {seat} see different '{key}': "
                    f"{excerpt(first.get(key))} / {excerpt(seen.get(key))}"
                )


def _check_conserved(view: Mapping[str, Any], seat: int, where: str, cards: int, players: int) -> None:
    """Fail the step unless a seat's view has only the protocol's fields and its cards add up to the deck."""
    problem = view_problem(view, seat, cards, players)
    if problem:
        raise Mismatch(f"{where}: seat {seat}'s view: {problem}")


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
        raise Mismatch(f"{where}: the engine's reply to 'legal' was not a list of actions: {excerpt(listed)}")
    texts: set[str] = set()
    for raw in listed:
        try:
            text = action_text(raw)
        except CanastaError as error:
            raise Mismatch(
                f"{where}: the engine's reply to 'legal' was not a list of actions: it lists {excerpt(raw)} ({error})"
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


def _check_after(engine: Engine, expect: Expect, where: str, clauses: Mapping[str, Any]) -> None:
    info = engine.info
    if (expect.legal_count is not None or expect.legal_includes or expect.legal_excludes) and info.can("legal"):
        reply = engine.request({"cmd": "legal"})
        if "actions" in reply:
            listed = _legal_listed(reply, where)
            count = len(listed)
            for text in expect.legal_includes:
                if text not in listed:
                    raise Mismatch(f"{where}: `{text}` should be legal afterwards but is not listed")
            for text in expect.legal_excludes:
                if text in listed:
                    raise Mismatch(f"{where}: `{text}` should not be legal afterwards but is listed")
        else:
            counted = reply.get("count")
            if type(counted) is not int:
                raise Mismatch(
                    f"{where}: the engine's reply to 'legal' was not a list of actions nor a count: {excerpt(reply)}"
                )
            count = counted
        if expect.legal_count is not None and count != expect.legal_count:
            raise Mismatch(f"{where}: expected {expect.legal_count} legal actions afterwards, got {count}")
    if expect.view is not None and info.can("views"):
        seat = expect.view["seat"]
        raw = _raw_view(engine, seat, where)
        problem = unknown_field_problem(raw)
        if problem:
            raise Mismatch(f"{where}: seat {seat}'s view: {problem}")
        view = _normalised(raw, seat, where)
        for key, wanted in expect.view.items():
            got = view.get(key)
            if normalise_field(key, wanted) != got:
                raise Mismatch(f"{where}: seat {seat}'s view field '{key}' should be {wanted!r}, got {excerpt(got)}")
    wants_score = expect.score is not None or expect.over is not None or expect.end is not None
    if (wants_score or expect.match_over is not None) and info.can("score"):
        reply = engine.request({"cmd": "score"})
        if expect.match_over is not None and reply.get("match_over") is not expect.match_over:
            raise Mismatch(
                f"{where}: the match should {'end' if expect.match_over else 'go on'} after this hand; "
                f"the engine says match_over={reply.get('match_over')!r}"
            )
        if expect.over is not None and reply.get("over") is not expect.over:
            raise Mismatch(
                f"{where}: the hand should {'have ended' if expect.over else 'go on'}; "
                f"the engine says over={reply.get('over')!r}"
            )
        if expect.end is not None and reply.get("end") != expect.end:
            raise Mismatch(f"{where}: the hand should end by '{expect.end}', got {reply.get('end')!r}")
        if expect.score is not None:
            if "totals" in expect.score and reply.get("totals", []) != list(expect.score["totals"]):
                raise Mismatch(f"{where}: scores should be {expect.score['totals']}, got {reply.get('totals')}")
            sides = reply.get("parts")
            for side, parts in enumerate(expect.score.get("parts", [])):
                got_parts = sides[side] if isinstance(sides, list) and side < len(sides) else {}
                if not isinstance(got_parts, Mapping):
                    got_parts = {}
                for rule, points in parts.items():
                    if got_parts.get(rule) != points:
                        raise Mismatch(
                            f"{where}: side {side} should score {points} for {rule}, got {got_parts.get(rule)!r}"
                            + cite(clauses, rule),
                            rule,
                        )


_CARD_LIST_FIELDS = ("hand",)


def normalise_field(key: str, value: Any) -> Any:
    """One view field in comparable form: a hand is a multiset (sorted), melds as sorted card lists."""
    if key in _CARD_LIST_FIELDS and isinstance(value, str):
        value = value.split()
    if key in _CARD_LIST_FIELDS and isinstance(value, list):
        return sorted(str(c).upper() for c in value)
    if key == "pile" and isinstance(value, str):
        return value.upper().split()
    if key == "melds" and isinstance(value, list):
        return [
            sorted(sorted(m["cards"]) if isinstance(m, dict) else sorted(str(m).split()) for m in side)
            for side in value
        ]
    return value


def normalise_view(view: Mapping[str, Any]) -> dict[str, Any]:
    return {key: normalise_field(key, value) for key, value in view.items()}


def run_suite(
    engine: Engine,
    cases: Sequence[tuple[Scenario, str]],
    *,
    progress: Callable[[int, int, Result], None] | None = None,
) -> list[Result]:
    results: list[Result] = []
    for index, (scenario, variant) in enumerate(cases, 1):
        result = run_case(engine, scenario, variant)
        results.append(result)
        if progress is not None:
            progress(index, len(cases), result)
    return results


__all__ = [
    "Result",
    "Selection",
    "action_text",
    "apply_request",
    "case_rules",
    "clip",
    "conservation_problem",
    "deal_request",
    "deck_size",
    "failure_result",
    "format_deck",
    "normalised_or_none",
    "rule_matches",
    "run_case",
    "run_suite",
    "setup_message",
    "unknown_field_problem",
    "verdict",
    "verdict_problem",
    "view_problem",
]
