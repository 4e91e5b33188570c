"""Known failures of an engine: keyed by scenario id (or ``id@variant``), each with a reason, never stale.

A listed test that now passes is an error, and so is a key that names no test, so the file cannot rot. The same
file may list ``known_deviations`` of generated games, each masking the deviations that agree with the fields it
gives (``rule``, an id or a prefix; ``check``; ``action``, a kind of action) and saying why; a mask no generated
game needed is reported too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from ..errors import CanastaError
from ..files import read_regular_text
from ..spec.safety import control_character_errors
from ..spec.yamldoc import Document, parse
from .deviations import MASK_FIELDS, Deviation, Mask, masks_from
from .runner import Result, first_failure

_FAILING = ("failed", "errored", "timed out")


def load_known(path: Path) -> dict[str, str]:
    """The known failures listed in ``path``; a file that cannot be read or has the wrong shape is an error
    naming the file, line and column, raised before any test runs."""
    doc, data = _read(path)
    if not isinstance(data.get("known_failures", {}), dict):
        raise doc.error(("known_failures",), "field 'known_failures': expected a mapping of scenario id to reason")
    known = data.get("known_failures", {})
    for key, reason in known.items():
        if not isinstance(reason, str) or not reason.strip():
            raise doc.error(("known_failures", key), f"field 'known_failures.{key}': give the reason as text")
    return {str(k): str(v) for k, v in known.items()}


def load_known_deviations(path: Path) -> list[Mask]:
    """The masks of generated games' deviations listed in ``path`` (``known_deviations``; none if absent), each
    checked: a mapping giving a reason and at least one of rule, check, action and cause, as text."""
    doc, data = _read(path)
    entries = data.get("known_deviations", [])
    if not isinstance(entries, list):
        raise doc.error(("known_deviations",), "field 'known_deviations': expected a list of masks")
    for index, entry in enumerate(entries):
        where = f"known_deviations[{index}]"
        if not isinstance(entry, dict):
            raise doc.error(("known_deviations", index), f"field '{where}': expected a mapping")
        unknown = sorted(str(k) for k in entry if k not in (*MASK_FIELDS, "reason"))
        if unknown:
            raise doc.error(
                ("known_deviations", index, unknown[0]),
                f"field '{where}.{unknown[0]}': unknown field; expected {', '.join(MASK_FIELDS)} and reason",
            )
        if not any(entry.get(name) is not None for name in MASK_FIELDS):
            fields = ", ".join(MASK_FIELDS)
            raise doc.error(("known_deviations", index), f"field '{where}': give at least one of {fields}")
        for name in (*MASK_FIELDS, "reason"):
            value = entry.get(name)
            if (value is not None or name == "reason") and (not isinstance(value, str) or not value.strip()):
                raise doc.error(("known_deviations", index), f"field '{where}.{name}': give it as text")
    return masks_from(entries)


def _read(path: Path) -> tuple[Document, dict[str, Any]]:
    """The known-failures file parsed and checked as a mapping (its errors name the file, line and column)."""
    try:
        text = read_regular_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise CanastaError(f"{path}: cannot read the known-failures file: {error}") from None
    doc, errors = parse(text, str(path))
    errors = errors or control_character_errors(doc)  # the reasons are printed in the summary
    if errors:
        raise errors[0]
    data = {} if doc.data is None else doc.data
    if not isinstance(data, dict):
        raise doc.error((), "expected a mapping with a field 'known_failures'")
    return doc, data


def apply_known(results: Sequence[Result], known: Mapping[str, str], source: str) -> list[Result]:
    """Mark listed failures as known, listed passes as unexpected, and add an error for each unknown key."""
    out: list[Result] = []
    used: set[str] = set()
    for result in results:
        key = result.key if result.key in known else result.scenario if result.scenario in known else None
        if key is None:
            out.append(result)
            continue
        used.add(key)
        if result.status in _FAILING:
            out.append(replace(result, status="known failure", message=f"{known[key]} (was: {result.message})"))
        elif result.status == "passed":
            out.append(
                replace(
                    result,
                    status="unexpected pass",
                    message=f"listed in {source} as failing ({known[key]}) but passes; remove it",
                )
            )
        else:
            out.append(result)
    for key in sorted(set(known) - used):
        scenario, _, variant = key.partition("@")
        out.append(Result(scenario, variant or "*", "errored", f"{source} lists {key!r}, which names no test that ran"))
    return out


def write_known(results: Sequence[Result], path: Path, engine: str, deviations: Iterable[Deviation] = ()) -> int:
    """Write today's failures as a known-failures file: the scenarios that fail by id, and the deviations of
    generated games as masks by check, rule and action (their scenarios' ids change with the seed); returns how
    many entries it wrote."""
    deviations = list(deviations)
    masks = [_mask_of(d) for d in deviations]
    generated = {d.scenario_id for d in deviations if d.scenario_id}
    failures = {
        r.key: failure_line(r)
        for r in sorted(results, key=lambda r: r.key)
        if r.status in _FAILING and r.scenario not in generated
    }
    data: dict[str, Any] = {"engine": engine, "known_failures": failures}
    if masks:
        data["known_deviations"] = masks
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return len(failures) + len(masks)


def failure_line(result: Result) -> str:
    """The line that says why a test fails: its first real failed check (a scenario's message may start with an
    implementation-defined difference), else the first line of its message (an engine failure)."""
    first = first_failure(result) if result.status == "failed" else None
    if first is not None:
        return str(first["message"]).splitlines()[0]
    return result.message.splitlines()[0] if result.message else ""


def _mask_of(deviation: Deviation) -> dict[str, str]:
    """A deviation as the mask that would match it: its key's fields, and its message (or known reason) as why."""
    key = deviation.key
    reason = deviation.mask.reason if deviation.mask else deviation.message.splitlines()[0]
    return Mask(reason, rule=key.rule, check=key.check, action=key.action, cause=key.cause).to_json()
