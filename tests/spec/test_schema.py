"""spec/schema.json is a valid Draft 2020-12 schema that editors can use, and agrees with the loader."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from canasta_ref.resources import spec_dir
from canasta_ref.spec.params import PARAM_TYPES

HERE = Path(__file__).resolve().parent
SCHEMA: dict[str, Any] = json.loads((spec_dir() / "schema.json").read_text())


def subschemas(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from subschemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from subschemas(value)


def test_schema_is_valid_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] and SCHEMA["title"] and SCHEMA["description"]


def test_every_fixed_object_forbids_unknown_fields() -> None:
    for schema in subschemas(SCHEMA):
        if "properties" in schema and schema.get("type") == "object":
            assert schema.get("additionalProperties") is False, schema.get("description")


def test_every_definition_is_described() -> None:
    for name, definition in SCHEMA["$defs"].items():
        assert definition.get("description") or name == "sourceRefs", name
    for name, prop in SCHEMA["properties"].items():
        assert prop.get("description"), name


def test_pattern_descriptions_read_as_noun_and_form() -> None:
    """The loader words a pattern error from 'A <noun>: <expected form>.'."""
    for schema in subschemas(SCHEMA):
        if "pattern" in schema:
            noun, _, form = schema["description"].partition(": ")
            assert noun.startswith("A ") and form.endswith("."), schema["description"]


def test_parameter_types_agree_with_the_model() -> None:
    assert tuple(SCHEMA["$defs"]["parameter"]["properties"]["type"]["enum"]) == PARAM_TYPES


def test_good_fixtures_validate() -> None:
    validator = Draft202012Validator(SCHEMA)
    for path in sorted((HERE / "fixtures" / "family").glob("*.yaml")):
        assert list(validator.iter_errors(yaml.safe_load(path.read_text()))) == [], path.name
