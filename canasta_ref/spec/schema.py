"""Validation against ``spec/schema.json``, with jsonschema's errors reworded and pointed at their YAML nodes.

The schema is the single description of the file's shape (editors use it too); this module only turns each
violation into a sentence a spec author can act on.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import usercache
from ..engine.hooks import HOOKS, HookKind
from ..errors import SpecError
from ..resources import spec_dir
from .wording import did_you_mean, field, found, noun
from .yamldoc import Document, NodePath

if TYPE_CHECKING:  # imported when a document is validated: a process whose specs are known sound never needs it
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

#: The folder of the user's cache where the texts found sound are noted (see ``schema_errors_of_text``).
SOUND_KIND = "schema-sound"

FIELD_OF_KIND: dict[HookKind, str] = {"require": "require", "predicate": "when", "value": "value"}
EXPRESSION_FIELDS = tuple(FIELD_OF_KIND.values())

#: Why a field is required, for the fields whose absence needs saying why.
_REQUIRED_HINTS: dict[tuple[str, ...], str] = {
    ("options",): " (an enum lists its options, each with its sources)",
    ("min", "max"): " (an int parameter declares the range of values it allows)",
    ("min",): " (an int parameter declares the range of values it allows)",
    ("max",): " (an int parameter declares the range of values it allows)",
}

_TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


@functools.cache
def validator() -> Draft202012Validator:
    """The Draft 2020-12 validator of the bundled schema, built once."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(_schema_text()))


@functools.cache
def _checker_text() -> str:
    """This module's own source: how a text is checked, beside the schema (a change of it makes every entry a miss;
    jsonschema's version is not read, since importing it or its metadata is what the cache spares)."""
    try:
        return Path(__file__).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # no source beside the module: the schema and the text still key it
        return ""


@functools.cache
def _schema_text() -> str:
    return (spec_dir() / "schema.json").read_text(encoding="utf-8")


def schema_errors_of_text(doc: Document, text: str) -> list[SpecError]:
    """``schema_errors(doc)`` for the document parsed from ``text``. A text found sound is noted in the user's cache
    under a digest of this module, the schema and the text, and not validated again (nor jsonschema
    imported) by a later process; a text with errors is always validated, so that its messages are made afresh."""
    key = usercache.digest(SOUND_KIND, _checker_text(), _schema_text(), text)
    if usercache.read_entry(SOUND_KIND, key) is True:
        return []
    errors = schema_errors(doc)
    if not errors:
        usercache.write_entry(SOUND_KIND, key, True)
    return errors


def schema_errors(doc: Document) -> list[SpecError]:
    """Every schema violation of ``doc``, reworded; parameter values are left to the parameter checks."""
    errors: list[SpecError] = []
    for error in validator().iter_errors(doc.data):
        path = tuple(error.absolute_path)
        if len(path) >= 3 and path[0] == "parameters" and path[2] == "value":
            continue
        errors.extend(_translate(error, path, doc))
    return errors


def _schema(error: ValidationError) -> dict[str, Any]:
    return dict(error.schema) if isinstance(error.schema, dict) else {}


def _translate(error: ValidationError, path: NodePath, doc: Document) -> Iterator[SpecError]:
    kind, data = str(error.validator), doc.data
    instance: Any = error.instance
    rule: Any = error.validator_value
    if "propertyNames" in error.schema_path:
        yield _bad_key(error, path, doc)
    elif kind == "additionalProperties":
        allowed = sorted(_schema(error).get("properties", {}))
        for key in instance:
            if key not in allowed:
                message = f"unknown field '{key}' in {noun(path, data)}{did_you_mean(key, allowed)}"
                yield doc.error((*path, key), f"{message}; expected one of: {', '.join(allowed)}", key=True)
    elif kind == "required":
        missing = [name for name in rule if name not in instance]
        fields = ", ".join(f"'{name}'" for name in missing)
        hint = _REQUIRED_HINTS.get(tuple(missing), "")
        plural = "s" if len(missing) > 1 else ""
        yield doc.error(path, f"{noun(path, data)} is missing required field{plural} {fields}{hint}")
    elif kind == "dependentRequired":
        yield doc.error(path, f"{noun(path, data)} has a 'type' but no 'doc'; a declaration needs both")
    elif kind == "oneOf" and len(path) == 2 and path[0] == "rules":
        if isinstance(instance, dict):  # else the type error says it all
            yield _expression_count(path, doc)
    elif kind == "uniqueItems":
        index = _first_duplicate(instance)
        yield doc.error((*path, index), f"{field(path, data)} lists {instance[index]!r} more than once")
    else:
        yield doc.error(path, _value_message(error, path, data))


def _value_message(error: ValidationError, path: NodePath, data: Any) -> str:
    kind, what = str(error.validator), field(path, data)
    instance: Any = error.instance
    rule: Any = error.validator_value
    if kind == "type":
        expected = rule if isinstance(rule, list) else [rule]
        words = " or ".join(_TYPE_WORDS.get(str(name), str(name)) for name in expected)
        return f"{what} must be {words}, not {found(instance)}"
    if path == ("spec",):
        return f"unsupported spec format version {instance!r}; expected spec: 1"
    if path[-1:] == ("replaces",):
        return "'replaces' can only be true; leave it out for a clause that replaces nothing"
    if kind == "const":
        return f"{what} must be {rule!r}, not {found(instance)}"
    if kind == "enum":
        choices = [str(choice) for choice in rule]
        hint = did_you_mean(str(instance), choices)
        return f"{what} must be one of: {', '.join(choices)}; not {found(instance)}{hint}"
    if kind == "pattern":
        return _malformed(instance, _schema(error))
    if kind in ("minItems", "minProperties"):
        return f"{what} must not be empty"
    if kind == "minLength":
        return f"{what} must not be empty text"
    return f"{what}: {error.message}"


def _malformed(instance: Any, schema: dict[str, Any]) -> str:
    """``'x' is not a valid rule id: expected ...``, from a description written as ``A rule id: ...``."""
    noun_part, _, expected = str(schema.get("description", "")).partition(": ")
    if not expected:
        return f"'{instance}' does not match the pattern {schema.get('pattern')}"
    noun_part = re.sub(r"^(A|An) ", "", noun_part)
    return f"'{instance}' is not a valid {noun_part}: expected {expected.rstrip('.')}"


def _bad_key(error: ValidationError, path: NodePath, doc: Document) -> SpecError:
    key = str(error.instance)
    return doc.error((*path, key), _malformed(key, _schema(error)), key=True)


def _expression_count(path: NodePath, doc: Document) -> SpecError:
    rule = doc.data["rules"][path[1]]
    present = [name for name in rule if name in EXPRESSION_FIELDS]
    what = noun(path, doc.data)
    choices = ", ".join(EXPRESSION_FIELDS)
    if not present:
        hook = HOOKS.get(rule.get("hook")) if isinstance(rule.get("hook"), str) else None
        hint = f" (hook {hook.name} takes '{FIELD_OF_KIND[hook.kind]}')" if hook else ""
        return doc.error(path, f"{what} has no expression{hint}; expected one of: {choices}")
    return doc.error(
        (*path, present[1]),
        f"{what} has both '{present[0]}' and '{present[1]}'; expected exactly one of: {choices}",
        key=True,
    )


def _first_duplicate(items: list[Any]) -> int:
    """The index of the first item equal to an earlier one."""
    for index, item in enumerate(items):
        if item in items[:index]:
            return index
    return 0
