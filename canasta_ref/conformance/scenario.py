"""Scenario files: a setup, actions and what must happen, each checked with a message naming file and field."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..engine.actions import parse_action
from ..engine.cards import parse_cards
from ..engine.rules import rules_for
from ..errors import CanastaError, Location, NotationError, SpecError
from ..files import read_regular_text
from ..resources import scenario_dir, scenario_schema_file
from ..spec import list_variants, load_variant
from ..spec.safety import control_character_errors
from ..spec.yamldoc import Document, NodePath, parse
from .plaintext import shown
from .setup import game_from_setup, setup_request, with_parameters

if TYPE_CHECKING:  # imported when a scenario file is read: generated games alone never need it
    from jsonschema import Draft202012Validator, ValidationError

Level = Literal["must", "alternative", "implementation-defined"]


@dataclass(frozen=True)
class Expect:
    """What must follow one step. Only the checks given are made."""

    accepted: bool
    rule: str | None = None
    legal_count: int | None = None
    legal_includes: tuple[str, ...] = ()
    legal_excludes: tuple[str, ...] = ()
    view: Mapping[str, Any] | None = None
    score: Mapping[str, Any] | None = None
    over: bool | None = None
    end: str | None = None
    match_over: bool | None = None


@dataclass(frozen=True)
class Step:
    action: str
    seat: int | None
    expect: Expect
    location: Location
    #: The rule the step exercises (its own ``rule``, else its refusal's): a failure at the step that no check
    #: names a rule for is reported under it.
    rule: str | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    description: str
    rules: tuple[str, ...]
    variants: tuple[str, ...]
    level: Level
    parameters: Mapping[str, Any]
    setup: Mapping[str, Any]
    steps: tuple[Step, ...]
    file: str

    @property
    def uses_position(self) -> bool:
        return "position" in self.setup


@functools.cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(scenario_schema_file().read_text(encoding="utf-8")))


def _field(path: NodePath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the file"


#: JSON Schema's names of types, as a message says them.
TYPE_NAMES = {"string": "text", "integer": "a whole number", "boolean": "true or false", "object": "a mapping"}


def _schema_message(error: ValidationError) -> str:
    """The schema's complaint in plain words: the choices and types it expected, and the value found, never in
    Python's notation (``'answer' is not one of ['draw', 'play']``)."""
    expected: Any = error.validator_value
    if error.validator == "enum":
        choices = ", ".join(_choice_text(choice) for choice in expected)
        return f"expected one of {choices}, got {shown(error.instance)}"
    if error.validator == "const":
        return f"expected {_choice_text(expected)}, got {shown(error.instance)}"
    if error.validator == "type":
        wanted = expected if isinstance(expected, list) else [expected]
        names = " or ".join(TYPE_NAMES.get(str(name), f"a {name}") for name in wanted)
        return f"expected {names}, got {shown(error.instance)}"
    return error.message


def _choice_text(value: Any) -> str:
    """A choice of the schema as written in a scenario: a word as it is, anything else as JSON."""
    return value if isinstance(value, str) else shown(value)


def check_scenario(path: Path) -> tuple[Scenario | None, list[SpecError]]:
    """Read and check one scenario file: every problem, each naming file, line, column and field."""
    display = str(path)
    try:
        text = read_regular_text(path)
    except (OSError, UnicodeDecodeError) as unreadable:
        return None, [SpecError(f"cannot read the scenario file: {unreadable}", Location(display, 1, 1))]
    doc, errors = parse(text, display)
    if errors:
        return None, errors
    if not isinstance(doc.data, dict):
        return None, [doc.error((), "a scenario file must be a mapping of fields")]
    errors = control_character_errors(doc)  # titles and descriptions are printed by explain and the site
    if errors:
        return None, errors
    for error in _validator().iter_errors(doc.data):
        where = tuple(error.absolute_path)
        errors.append(doc.error(where, f"field '{_field(where)}': {_schema_message(error)}"))
    if errors:
        return None, errors
    errors.extend(_semantic_errors(doc, path))
    if not errors:
        errors.extend(_setup_errors(doc))
    if errors:
        return None, errors
    return _build(doc, display), []


def _semantic_errors(doc: Document, path: Path) -> Iterable[SpecError]:
    data = doc.data
    if data["id"] != path.stem:
        yield doc.error(("id",), f"field 'id': {data['id']!r} must equal the file name {path.stem!r}")
    known = set(list_variants())
    for index, name in enumerate(data["variants"]):
        if name not in known:
            yield doc.error(
                ("variants", index),
                f"field 'variants[{index}]': unknown variant {name!r}; known: {', '.join(sorted(known))}",
            )
    for index, rule in enumerate(data["rules"]):
        if not _held(data, rule, known):
            yield doc.error(("rules", index), f"field 'rules[{index}]': no variant listed has a rule {rule!r}")
    setup = data["setup"]
    if ("deck" in setup) == ("position" in setup):
        yield doc.error(("setup",), "field 'setup': give exactly one of 'deck' and 'position'")
    if "deck" in setup and ("seed" in setup["deck"]) == ("order" in setup["deck"]):
        yield doc.error(("setup", "deck"), "field 'setup.deck': give exactly one of 'seed' and 'order'")
    yield from _card_errors(doc, setup)
    for index, step in enumerate(data["steps"]):
        try:
            parse_action(step["action"])
        except NotationError as error:
            first = str(error).splitlines()[0]
            yield doc.error(("steps", index, "action"), f"field 'steps[{index}].action': {first}")
        expect = step["expect"]
        yield from _step_rule_errors(doc, index, known)
        if "rule" in expect and expect["result"] != "refused":
            yield doc.error(
                ("steps", index, "expect", "rule"),
                f"field 'steps[{index}].expect.rule': only a refusal cites a rule",
            )
        elif "rule" in expect and data["level"] == "must":
            yield from _convention_errors(doc, index, expect["rule"], [v for v in data["variants"] if v in known])


def _held(data: Mapping[str, Any], rule: str, known: set[str]) -> bool:
    """Whether a variant the scenario lists has the rule."""
    return any(v in known and rule in load_variant(v).clauses for v in data["variants"])


def _step_rule_errors(doc: Document, index: int, known: set[str]) -> Iterable[SpecError]:
    """A step's ``rule`` must be a rule of a listed variant, and a refusal's must be the one it expects."""
    step = doc.data["steps"][index]
    rule = step.get("rule")
    if rule is None:
        return
    where = ("steps", index, "rule")
    if not _held(doc.data, rule, known):
        yield doc.error(where, f"field 'steps[{index}].rule': no variant listed has a rule {rule}")
    cited = step["expect"].get("rule")
    if cited is not None and cited != rule:
        yield doc.error(
            where,
            f"field 'steps[{index}].rule': {rule} is not the rule the step's refusal cites ({cited}); "
            "a refused step exercises the rule it expects, so give that one or leave the step's rule out",
        )


def _convention_errors(doc: Document, index: int, rule: str, variants: Sequence[str]) -> Iterable[SpecError]:
    """A refusal a ``must`` scenario expects may not rest on the project's convention alone: other engines are
    not bound by canasta-ref's notation, so such a step belongs in an ``implementation-defined`` scenario."""
    for name in variants:
        if load_variant(name).is_convention(rule):
            yield doc.error(
                ("steps", index, "expect", "rule"),
                f"field 'steps[{index}].expect.rule': {rule} rests only on canasta-ref's own convention, which "
                "other engines need not follow; a must scenario cannot expect it (use level: implementation-defined)",
            )
            return


def _setup_errors(doc: Document) -> Iterable[SpecError]:
    """The set-up as the reference reads it, under each variant listed: a position no deck can hold (three
    copies of a card, a hand too many, a seat out of range) is the scenario's mistake, found here rather than
    blamed on the engine that refuses it."""
    data = doc.data
    setup = data["setup"]
    for name in dict.fromkeys(data["variants"]):
        try:
            rules = rules_for(with_parameters(name, data.get("parameters", {})))
        except CanastaError as error:
            yield doc.error(("parameters",), f"field 'parameters': under {name}: {_first_line(error)}")
            continue
        try:
            game_from_setup(rules, setup_request(setup, name, data.get("parameters", {}), rules))
        except CanastaError as error:
            where = _named_field(doc, str(error))
            yield doc.error(where, f"field '{_field(where)}': under {name}: {_unnamed(_first_line(error))}")
        yield from _seat_errors(doc, name, rules.players)


def _seat_errors(doc: Document, variant: str, players: int) -> Iterable[SpecError]:
    """Every seat a step names, the seat that acts and the seat whose view is expected, must be one ``variant``
    has."""
    for index, step in enumerate(doc.data["steps"]):
        view = step["expect"].get("view", {})
        named = (("seat",), step.get("seat")), (("expect", "view", "seat"), view.get("seat"))
        for field, seat in named:
            if seat is not None and not 0 <= seat < players:
                where = ("steps", index, *field)
                yield doc.error(where, f"field '{_field(where)}': {variant} has seats 0 to {players - 1}, not {seat}")


_FIELD = re.compile(r"field '([^']+)': ")


def _named_field(doc: Document, message: str) -> NodePath:
    """Where in the scenario the field an error of the set-up names is written (``hands[2]`` is below
    ``setup.position``, ``first_seat`` below ``setup``); an error naming no field is the deck's or the position's."""
    setup = doc.data["setup"]
    whole: NodePath = ("setup", "position") if "position" in setup else ("setup", "deck")
    match = _FIELD.match(message)
    if match is None:
        return whole
    parts: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", match.group(1)):
        parts.append(int(index) if index else name)
    if parts[:1] == ["position"]:
        parts = parts[1:]
    for base in (("setup", "position"), ("setup",)):
        if (*base, *parts) in doc.nodes or (*base, *parts[:1]) in doc.nodes:
            return (*base, *parts)
    return whole


def _unnamed(message: str) -> str:
    """An error's sentence without its leading ``field '...':``, which the scenario's own field replaces."""
    return _FIELD.sub("", message, count=1)


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0]


def _card_errors(doc: Document, setup: Mapping[str, Any]) -> Iterable[SpecError]:
    def check(text: object, where: NodePath) -> Iterable[SpecError]:
        try:
            parse_cards(str(text))
        except NotationError as error:
            yield doc.error(where, f"field '{_field(where)}': {str(error).splitlines()[0]}")

    if "deck" in setup and "order" in setup["deck"]:
        yield from check(setup["deck"]["order"], ("setup", "deck", "order"))
    position = setup.get("position", {})
    for key in ("pile", "stock"):
        if key in position:
            yield from check(position[key], ("setup", "position", key))
    for key in ("hands", "red_threes"):
        for index, text in enumerate(position.get(key, [])):
            yield from check(text, ("setup", "position", key, index))
    for team, melds in enumerate(position.get("melds", [])):
        for index, text in enumerate(melds):
            yield from check(text, ("setup", "position", "melds", team, index))


def _build(doc: Document, display: str) -> Scenario:
    data = doc.data
    steps = []
    for index, raw in enumerate(data["steps"]):
        expect = raw["expect"]
        steps.append(
            Step(
                action=str(parse_action(raw["action"])),
                seat=raw.get("seat"),
                expect=Expect(
                    accepted=expect["result"] == "accepted",
                    rule=expect.get("rule"),
                    legal_count=expect.get("legal_count"),
                    legal_includes=tuple(str(parse_action(a)) for a in expect.get("legal_includes", [])),
                    legal_excludes=tuple(str(parse_action(a)) for a in expect.get("legal_excludes", [])),
                    view=expect.get("view"),
                    score=expect.get("score"),
                    over=expect.get("over"),
                    end=expect.get("end"),
                    match_over=expect.get("match_over"),
                ),
                location=doc.location(("steps", index)),
                rule=raw.get("rule") or expect.get("rule"),
            )
        )
    return Scenario(
        id=data["id"],
        title=data["title"],
        description=data.get("description", ""),
        rules=tuple(data["rules"]),
        variants=tuple(data["variants"]),
        level=data["level"],
        parameters=dict(data.get("parameters", {})),
        setup=data["setup"],
        steps=tuple(steps),
        file=display,
    )


def load_scenarios(paths: Iterable[Path] | None = None) -> list[Scenario]:
    """Every scenario of the given files or folders (default: the bundled suite); raise on the first bad file."""
    files: list[Path] = []
    for path in paths if paths is not None else [scenario_dir()]:
        files.extend(sorted(path.glob("*.yaml")) if path.is_dir() else [path])
    out = []
    for file in files:
        scenario, errors = check_scenario(file)
        if errors:
            raise errors[0]
        assert scenario is not None
        out.append(scenario)
    seen: dict[str, str] = {}
    for scenario in out:
        if scenario.id in seen:
            raise CanastaError(f"{scenario.file}: scenario id {scenario.id!r} is also used by {seen[scenario.id]}")
        seen[scenario.id] = scenario.file
    return out
