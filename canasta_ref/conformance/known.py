"""Known failures of an engine: keyed by scenario id (or ``id@variant``), each with a reason, never stale.

A listed test that now passes is an error, and so is a key that names no test, so the file cannot rot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import yaml

from ..errors import CanastaError
from ..spec.safety import control_character_errors
from ..spec.yamldoc import parse
from .runner import Result

_FAILING = ("failed", "errored", "timed out")


def load_known(path: Path) -> dict[str, str]:
    """The known failures listed in ``path``; a file that cannot be read or has the wrong shape is an error
    naming the file, line and column, raised before any test runs."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CanastaError(f"{path}: cannot read the known-failures file: {error}") from None
    doc, errors = parse(text, str(path))
    errors = errors or control_character_errors(doc)  # the reasons are printed in the summary
    if errors:
        raise errors[0]
    data = {} if doc.data is None else doc.data
    if not isinstance(data, dict):
        raise doc.error((), "expected a mapping with a field 'known_failures'")
    if not isinstance(data.get("known_failures", {}), dict):
        raise doc.error(("known_failures",), "field 'known_failures': expected a mapping of scenario id to reason")
    known = data.get("known_failures", {})
    for key, reason in known.items():
        if not isinstance(reason, str) or not reason.strip():
            raise doc.error(("known_failures", key), f"field 'known_failures.{key}': give the reason as text")
    return {str(k): str(v) for k, v in known.items()}


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


def write_known(results: Sequence[Result], path: Path, engine: str) -> int:
    """Write today's failures as a known-failures file; returns how many."""
    failures = {r.key: r.message.splitlines()[0] for r in results if r.status in _FAILING}
    text = yaml.safe_dump({"engine": engine, "known_failures": failures}, sort_keys=True, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    return len(failures)
