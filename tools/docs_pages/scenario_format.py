"""The scenario format page: the fields of conformance/scenario.schema.json as a table, with an example."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .markup import code, header, md, slug
from .model import Site
from .paths import SCENARIO_SCHEMA
from .tutorial import tutorial_scenario


def _schema_type(node: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        target = defs.get(name, {})
        if target.get("type") == "object":
            return f"object ([{name}](#{def_anchor(name)}))"
        return f"[{name}](#{def_anchor(name)})"
    if "const" in node:
        return f"always {code(json.dumps(node['const']))}"
    if "enum" in node:
        return "one of " + ", ".join(code(e) for e in node["enum"])
    kind = node.get("type", "any")
    text = " or ".join(kind) if isinstance(kind, list) else str(kind)
    if text == "array" and "items" in node:
        text = f"list of {_schema_type(node['items'], defs)}"
    if text == "object" and isinstance(node.get("additionalProperties"), dict):
        text = f"map to {_schema_type(node['additionalProperties'], defs)}"
    if "pattern" in node:
        text += f" matching {code(node['pattern'])}"
    if "minItems" in node:
        text += f", at least {node['minItems']}"
    if "minimum" in node:
        text += f", from {node['minimum']}"
    return text


def def_anchor(name: str) -> str:
    return f"def-{slug(name)}"


# Fields the schema gives no description yet; the page says what they are.
SCHEMA_NOTES = {
    "title": "A one-line title for people.",
    "description": "What the position shows and why, for people.",
    "setup.deck.seed": "Shuffle the deck with this seed, as `canasta-ref play --seed` does.",
    "setup.team_scores": "Each side's score before this hand (it decides the minimum count of the first melds).",
    "setup.position": "The table written out card by card.",
    "steps": "The actions in order, each with what must happen.",
    "steps[].expect": "What must follow the action. Only the checks given are made.",
    "steps[].expect.score.totals": "Each side's total for the hand.",
    "steps[].expect.score.parts": "Per side, the hand's score by the rule id of each part (such as SCORE.GOING_OUT).",
}


def _schema_rows(node: Mapping[str, Any], defs: Mapping[str, Any], prefix: str) -> Iterator[tuple[str, str, bool, str]]:
    required = set(node.get("required", []))
    for name, sub in node.get("properties", {}).items():
        path = f"{prefix}{name}"
        description = sub.get("description", "")
        target = sub
        if "$ref" in sub:
            target = defs.get(sub["$ref"].rsplit("/", 1)[-1], {})
            description = description or target.get("description", "")
        yield path, _schema_type(sub, defs), name in required, description or SCHEMA_NOTES.get(path, "")
        if target.get("type") == "object" and "properties" in target:
            yield from _schema_rows(target, defs, path + ".")
        items = target.get("items")
        if isinstance(items, Mapping):
            if "$ref" in items:
                items = defs.get(items["$ref"].rsplit("/", 1)[-1], {})
            if items.get("type") == "object" and "properties" in items:
                yield from _schema_rows(items, defs, path + "[].")


def scenario_format_page(site: Site) -> str:
    schema = json.loads(SCENARIO_SCHEMA.read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    example = tutorial_scenario(site)
    out = [header("conformance/scenario.schema.json"), "# The scenario format", ""]
    out += [md(schema.get("description", "")), ""]
    out += [
        f"A scenario is a YAML file in `conformance/scenarios/`, checked against the JSON Schema "
        f"[`conformance/scenario.schema.json`](schemas/scenario.schema.json) (`{schema.get('$id', '')}`, "
        "draft 2020-12) and then for meaning: its `id` equals the file name, its variants exist, each cited "
        "rule exists in a listed variant, the cards and actions parse, and only a refusal cites a rule. Every "
        "problem is reported with file, line, column and field. [Settle a dispute](settle-a-dispute.md) walks "
        "through writing one.",
        "",
        "Where a scenario cites several rules, a step may name the one it exercises (`rule:` beside its "
        "`action:`): a rule of a listed variant, and for a refused step the rule its refusal cites. When an engine "
        "fails a check of that step and the check names no rule itself (an accepted action refused, a view or a "
        "score that differs), `conform` reports the failure under the step's rule; without it, under the "
        "scenario's rule if it cites one, else under what differed. It changes no answer: only where a failure "
        "is filed.",
        "",
    ]
    out += ["## Fields {#fields}", "", "| field | type | required | meaning |", "|---|---|---|---|"]
    for path, kind, required, description in _schema_rows(schema, defs, ""):
        out.append(f"| {code(path)} | {kind} | {'yes' if required else ''} | {md(description)} |")
    out.append("")
    out += ["## Definitions {#definitions}", ""]
    for name, node in defs.items():
        kind = _schema_type({k: v for k, v in node.items() if k != "description"}, defs)
        if node.get("type") == "object":
            kind = "an object whose fields the table above lists"
        out.append(f'- <span id="{def_anchor(name)}">**{name}**</span>: {kind}. {md(node.get("description", ""))}')
    out += [
        "",
        "## An example {#example}",
        "",
        f"`conformance/scenarios/{example.id}.yaml`, drawn on [its page]({site.example_page(example.id)}):",
        "",
        "```yaml",
    ]
    out += [Path(example.file).read_text(encoding="utf-8").rstrip(), "```", ""]
    out += ["## The schema {#schema}", "", '??? abstract "conformance/scenario.schema.json"', "", "    ```json"]
    out += ["    " + line for line in json.dumps(schema, indent=2).splitlines()]
    out += ["    ```", ""]
    return "\n".join(out)
