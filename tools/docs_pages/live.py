"""What the site's two live pages call in the browser (Pyodide): settle a dispute, try house rules.

The pages' JavaScript only draws, edits and calls these functions; every verdict and every rule text comes from
the same functions the command line uses (``explain_lines`` for ``canasta-ref explain``, ``check_file`` and
``rulebook`` for ``check`` and ``rules``, ``diff_variants`` for ``diff``). Each function takes and returns JSON
text, the one shape JavaScript and Python both read without conversions. Files typed in the page are written to a
scratch folder first, so every message names a file, a line and a column as the command line's do.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from canasta_ref.bots import RandomBot
from canasta_ref.conformance.explain import disputed_values, explain_lines
from canasta_ref.conformance.scenario import Scenario, check_scenario
from canasta_ref.conformance.variants import applicable_variants
from canasta_ref.engine.game import Game
from canasta_ref.engine.rules import Rules
from canasta_ref.errors import CanastaError
from canasta_ref.house import VARIANT_ID, house_spec, yaml_value
from canasta_ref.render import cite_refs, rulebook, seat_name, side_name
from canasta_ref.resources import scenario_dir, spec_dir
from canasta_ref.spec import Parameter, Variant, check_file, list_variants, load_variant
from canasta_ref.spec.diff import diff_variants
from canasta_ref.spec.unread import read_parameters
from canasta_ref.spec.valuetext import value_text

from .drawings import position_html
from .model import draw, drawn_game

#: Where typed files are written before they are read back: the browser's in-memory file system.
SCRATCH = Path(tempfile.gettempdir()) / "canasta-live"
#: The name a house spec is saved under in the page (``canasta-ref check`` wants the id to match the file name).
HOUSE_ID = "our-table"
_ID_LINE = re.compile(r"^id:[ \t]*['\"]?([^'\"\s#]+)", re.M)
#: Moves of a random hand kept for the page to replay, at most (a hand of Classic is rarely over 300).
MAX_MOVES = 2000


def _reply(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def _scratch_file(name: str, text: str) -> Path:
    SCRATCH.mkdir(parents=True, exist_ok=True)
    path = SCRATCH / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ settle a dispute
def variants_json() -> str:
    """Every bundled variant, id and name, in the order ``canasta-ref`` lists them. The names are read from the
    files' ``name:`` lines, not by loading each variant: a variant compiled in the browser costs seconds."""
    return _reply({"variants": [{"id": v, "name": _variant_name(v)} for v in list_variants()]})


_NAME_LINE = re.compile(r"^name:(.*)$", re.M)


def _variant_name(variant_id: str) -> str:
    found = _NAME_LINE.search((spec_dir() / f"{variant_id}.yaml").read_text(encoding="utf-8"))
    name = yaml.safe_load(found.group(1)) if found else None
    return name if isinstance(name, str) else variant_id


def examples_json() -> str:
    """The ids of the bundled scenarios, the disputes first: the examples the page offers."""
    ids = sorted(path.stem for path in scenario_dir().glob("*.yaml"))
    return _reply({"examples": sorted(ids, key=lambda i: not i.startswith("dispute-"))})


def example_text(scenario_id: str) -> str:
    """A bundled scenario's file as it is written ("" for an id no bundled scenario has)."""
    path = scenario_dir() / f"{scenario_id}.yaml"
    return path.read_text(encoding="utf-8") if path.is_file() and path.parent == scenario_dir() else ""


def file_name(text: str) -> str:
    """The name a typed scenario is saved under: its id's (a scenario file is named after its id), else
    ``scenario.yaml``, and the check says what the id should be."""
    found = _ID_LINE.search(text)
    return f"{found.group(1)}.yaml" if found and VARIANT_ID.match(found.group(1)) else "scenario.yaml"


def _read_scenario(text: str) -> tuple[Scenario | None, list[str]]:
    scenario, errors = check_scenario(_scratch_file(file_name(text), text))
    return scenario, [_shown(str(error)) for error in errors]


def _shown(message: str) -> str:
    """A message as the page shows it: the file named as the reader saves it, without the scratch folder."""
    return message.replace(f"{SCRATCH}/", "")


def _line_kind(line: str) -> str:
    """How the page styles one line of explain's answer (the text itself is never changed)."""
    stripped = line.lstrip()
    if not line or line.startswith("Scenario ") or (line.startswith("  ") and not stripped.startswith("step ")):
        return "detail" if line.startswith("      ") else "about"
    if stripped.startswith("step "):
        return "refused" if ": REFUSED by " in line else "allowed" if line.endswith(": allowed") else "step"
    return "heading"


def settle(text: str, variants: str = "") -> str:
    """A typed scenario judged as ``canasta-ref explain FILE --variant ...`` judges it (``variants``: ids joined by
    commas; none: the ones it applies to): the answer's lines, each with its kind, and the position drawn under
    the first variant; or every error of the file."""
    scenario, errors = _read_scenario(text)
    if scenario is None:
        return _reply({"errors": errors})
    known = set(list_variants())
    named = [v for v in variants.split(",") if v]
    unknown = [v for v in named if v not in known]
    if unknown:
        return _reply({"errors": [f"no bundled variant {', '.join(unknown)}; choose among {', '.join(sorted(known))}"]})
    chosen = list(dict.fromkeys(named)) or applicable_variants(scenario)
    if not chosen:
        return _reply({"errors": [f"no variant to explain {scenario.id} under: choose one"]})
    try:
        lines = list(explain_lines(scenario, chosen))
    except CanastaError as error:
        return _reply({"errors": [str(error)]})
    return _reply(
        {
            "id": scenario.id,
            "variants": chosen,
            "lines": [{"text": line, "kind": _line_kind(line)} for line in lines],
            "position": position_html(draw(scenario, chosen[0]), scenario.id),
        }
    )


def draw_position(text: str, variant: str = "") -> str:
    """The typed scenario's position drawn as the site draws it, under ``variant`` (else the first it applies
    to), as the page redraws it while the reader types; or the file's errors."""
    scenario, errors = _read_scenario(text)
    if scenario is None:
        return _reply({"errors": errors})
    chosen = variant if variant in list_variants() else next(iter(applicable_variants(scenario)), "classic")
    return _reply({"position": position_html(draw(scenario, chosen), scenario.id), "variant": chosen})


def with_parameter(text: str, name: str, value_json: str) -> str:
    """The typed scenario with ``parameters[name]`` set to a value (JSON; null removes it), written out again."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        return _reply({"errors": ["the scenario is not a mapping of fields; fix it before setting a parameter"]})
    parameters = dict(data.get("parameters") or {})
    value = json.loads(value_json)
    if value is None:
        parameters.pop(name, None)
    else:
        parameters[name] = value
    data.pop("parameters", None)
    if parameters:
        data = _insert_after(data, "level", "parameters", parameters)
    return _reply({"text": yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=116)})


def _insert_after(data: Mapping[str, Any], after: str, key: str, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field, item in data.items():
        out[field] = item
        if field == after:
            out[key] = value
    out.setdefault(key, value)
    return out


# ------------------------------------------------------------------------------------------ try house rules
def _choice(value: Any, refs: Sequence[Any]) -> dict[str, Any]:
    return {"value": json.dumps(value), "label": value_text(value), "sources": cite_refs(refs)}


def _parameter_form(param: Parameter) -> dict[str, Any]:
    """One parameter as the house-rules form offers it: its value here and the values its sources give."""
    return {
        "name": param.name,
        "doc": param.doc,
        "value": json.dumps(param.value),
        "choices": [_choice(value, refs) for value, refs in disputed_values(param)],
    }


def house_form(base: str) -> str:
    """The parameters of ``base`` that sources dispute and a rule reads, each with its sourced values: what the
    form offers (a parameter whose rules the variant removed would change nothing)."""
    variant = load_variant(base)
    read = read_parameters(variant)
    params = [_parameter_form(p) for p in variant.parameters.values() if disputed_values(p) and p.name in read]
    return _reply({"base": base, "name": variant.name, "parameters": params})


def house_text(base: Variant, values: Mapping[str, Any]) -> str:
    """``canasta-ref new --extends BASE``'s file, with the chosen values written in place of the base's."""
    lines = house_spec(base, HOUSE_ID).splitlines()
    out = []
    current = None
    for line in lines:
        if line.startswith("  ") and not line.startswith("  #") and line.endswith(":") and line[2] != " ":
            current = line.strip().removesuffix(":")
        if current is not None and current in values and line.startswith("    value: "):
            line = f"    value: {yaml_value(values[current])}"
        out.append(line)
    return "\n".join(out) + "\n"


def house_rules(base: str, values_json: str) -> str:
    """The house spec for ``values`` (JSON, by parameter) over ``base``: its file, what ``check`` says of it, and,
    when it is sound, the rulebook it makes and its difference from ``base``."""
    variant = load_variant(base)
    values: dict[str, Any] = json.loads(values_json)
    unknown = sorted(set(values) - set(variant.parameters))
    if unknown:
        return _reply({"errors": [f"{base} has no parameter {', '.join(unknown)}"]})
    text = house_text(variant, values)
    path = _scratch_file(f"{HOUSE_ID}.yaml", text)
    errors = [_shown(str(error)) for error in check_file(path)]
    if errors:
        return _reply({"yaml": text, "errors": errors})
    house = load_variant(path)
    return _reply(
        {
            "yaml": text,
            "errors": [],
            "rulebook": "\n".join(rulebook(house)),
            "diff": "\n".join(diff_variants(variant, house).lines()),
        }
    )


def _moves(game: Game, rules: Rules, seed: int) -> Iterator[dict[str, Any]]:
    """Each move of a hand played by random players from ``seed``, with the table drawn after it."""
    bots = [RandomBot(f"{seed}/{seat}") for seat in range(rules.players)]
    for _ in range(MAX_MOVES):
        if game.is_over:
            return
        seat = game.to_act
        action = bots[seat].choose(game)
        game.apply(action)
        yield {
            "who": seat_name(rules, seat),
            "action": str(action),
            "table": position_html(drawn_game(rules, game), HOUSE_ID),
        }


def play_hand(base: str, values_json: str, seed: int | None = None) -> str:
    """One hand of the house rules (the spec ``house_rules`` last wrote) dealt from ``seed`` (else a random
    one) and played by random players: the table at the deal and after each move, and the score."""
    checked = json.loads(house_rules(base, values_json))
    if checked.get("errors"):
        return _reply({"errors": checked["errors"]})
    rules = Rules(load_variant(SCRATCH / f"{HOUSE_ID}.yaml"))
    deal = seed if seed is not None else random.SystemRandom().randrange(1 << 30)
    game = Game(rules, seed=deal)
    start = position_html(drawn_game(rules, game), HOUSE_ID)
    moves = list(_moves(game, rules, deal))
    score = list(_score_lines(rules, game)) if game.is_over else []
    return _reply({"seed": deal, "start": start, "moves": moves, "score": score, "over": game.is_over})


def _score_lines(rules: Rules, game: Game) -> Iterator[str]:
    """How the hand ended and each side's score, by rule, as ``canasta-ref play`` prints them."""
    score = game.score()
    yield f"Hand ends: {score.end_reason}"
    for side in score.sides:
        parts = ", ".join(f"{rule} {points:+d}" for rule, points in side.parts.items() if points)
        yield f"{side_name(rules, side.team)}: {side.total:+d} ({parts or 'nothing'})"


__all__ = [
    "draw_position",
    "example_text",
    "examples_json",
    "file_name",
    "house_form",
    "house_rules",
    "house_text",
    "play_hand",
    "settle",
    "variants_json",
    "with_parameter",
]
