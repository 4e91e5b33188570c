"""Starting a house variant: a spec file that extends a bundled variant and restates every one of its parameters.

Most people who write rules down write their own table's: "Classic, but a canasta needs eight cards". Such a
writer does not know the parameter names, their ranges or what each source says, so ``canasta-ref new`` writes
them all out, each with its value in the parent, its range or options and their sources as comments. The file is
valid as written (a value equal to the parent's changes nothing), so ``canasta-ref check`` accepts it before a
single edit, and each change after that is checked against the same ranges the comments state.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from .errors import CanastaError
from .render import cite_refs
from .spec import Parameter, Variant
from .spec.unread import read_parameters

#: A variant id, as spec/schema.json defines it; a spec file is named after its id.
VARIANT_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
WIDTH = 116


class BadHouseFile(CanastaError):
    """A house variant that cannot be written where it was asked for."""


def variant_id_for(path: Path) -> str:
    """The id a spec file at ``path`` must carry: its name without ``.yaml``."""
    if path.suffix != ".yaml":
        raise BadHouseFile(f"{path}: a spec file's name ends in .yaml (for example house.yaml)")
    if not VARIANT_ID.match(path.stem):
        raise BadHouseFile(
            f"{path}: a variant id is lowercase letters and digits in groups joined by hyphens (like our-table), "
            f"and the file is named after it; {path.stem!r} is not one"
        )
    return path.stem


def yaml_value(value: Any) -> str:
    """A parameter value as one line of YAML (a table as a flow sequence of mappings)."""
    text: str = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10_000)
    return text.removesuffix("\n...\n").strip()


def _comment(text: str, indent: str) -> Iterator[str]:
    for line in textwrap.wrap(" ".join(text.split()), WIDTH - len(indent) - 2) or [""]:
        yield f"{indent}# {line}"


def _range_text(param: Parameter) -> str:
    if param.bounds is not None:
        low, high = param.bounds
        return f"A whole number from {low} to {high}."
    kinds = {
        "bool": "true or false.",
        "str": "A text.",
        "list": "A list, written [a, b].",
        "map": "A mapping, written {key: value}.",
        "table": "A table of rows, as the value below shows.",
    }
    return kinds.get(param.type, "")


def parameter_lines(param: Parameter) -> Iterator[str]:
    """One parameter as the house file writes it: its doc, range or options with their sources, then its value."""
    indent = "  "
    yield from _comment(param.doc, indent)
    if param.type == "enum":
        yield f"{indent}# One of:"
        for option, refs in param.options.items():
            marker = " (the value here)" if option == param.value else ""
            yield from _comment(f"- {option}{marker}: {cite_refs(refs)}", indent)
    else:
        if range_text := _range_text(param):
            yield from _comment(range_text, indent)
        if param.sources:
            yield from _comment(f"Sources: {cite_refs(param.sources)}", indent)
        for alternative in param.alternatives:
            yield from _comment(f"Some play {yaml_value(alternative.value)}: {cite_refs(alternative.sources)}", indent)
    yield f"{indent}{param.name}:"
    yield f"{indent}  value: {yaml_value(param.value)}"


def house_spec(parent: Variant, variant_id: str, name: str | None = None) -> str:
    """The text of a spec file ``variant_id`` that extends ``parent`` and restates every parameter it has."""
    title = name or f"Our house rules ({parent.name})"
    lines = [
        f"# {title}: {parent.name} with the changes our table plays.",
        "#",
        f"# Every parameter of {parent.name} is listed below with its value there, what it means, the values",
        "# it may take and the sources behind them. Change the values your table plays otherwise; a value left",
        "# as it is changes nothing, and a parameter may also be deleted. Then:",
        "#   canasta-ref check FILE      checks the file, naming the line of each mistake",
        "#   canasta-ref rules FILE      prints the rulebook it makes",
        f"#   canasta-ref diff {parent.id} FILE   lists what differs from {parent.name}",
        "spec: 1",
        f"id: {variant_id}",
        f"name: {yaml_value(title)}",
        f"description: {yaml_value(f'{parent.name} as our table plays it.')}",
        f"extends: {parent.id}",
        "",
        "parameters:",
    ]
    read = read_parameters(parent)
    for param in parent.parameters.values():
        if param.name not in read:
            lines.extend(_comment(f"No rule of {parent.name} reads this parameter: changing it changes nothing.", "  "))
        lines.extend(parameter_lines(param))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def write_house_spec(path: Path, parent: Variant, *, name: str | None = None, force: bool = False) -> str:
    """Write the house spec to ``path`` (never over an existing file unless ``force``); returns its id."""
    variant_id = variant_id_for(path)
    if path.exists() and not force:
        raise BadHouseFile(f"{path} exists already; choose another name, or give --force to replace it")
    path.write_text(house_spec(parent, variant_id, name), encoding="utf-8")
    return variant_id


__all__ = ["BadHouseFile", "house_spec", "variant_id_for", "write_house_spec"]
