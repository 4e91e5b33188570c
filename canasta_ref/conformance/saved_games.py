"""Failing games kept between runs: each shrunk scenario of a campaign saved, and replayed first by the next run.

A campaign's shrunk scenarios are written to ``<folder>/<engine>/<id>.yaml`` (the folder: ``--saved-games DIR``,
else ``$CANASTA_REF_DIR``, else ``.canasta-ref/failing-games`` in the current folder), with the deviation key of
each in ``index.json``. The next campaign against an engine of that name first runs each saved scenario: one that
passes now is reported as passed (a fix confirmed before new games are spent) and removed; one that still fails
stays, and fails the run, unless a known-failures mask matches its deviation (then it is a known failure).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import CanastaError
from .campaign_report import GeneratedReport
from .deviations import DeviationKey, Mask, best_mask
from .engines import Engine
from .runner import Result, run_case
from .scenario import load_scenarios

#: The folder of saved games when neither ``--saved-games`` nor ``$CANASTA_REF_DIR`` names one.
DEFAULT_FOLDER = Path(".canasta-ref") / "failing-games"
INDEX = "index.json"


def saved_folder(named: str | None, engine_name: str) -> Path:
    """Where the failing games of the engine called ``engine_name`` are kept."""
    base = Path(named) if named else Path(os.environ.get("CANASTA_REF_DIR") or DEFAULT_FOLDER)
    return base / (re.sub(r"[^A-Za-z0-9._-]+", "-", engine_name).strip("-.")[:80] or "engine")


def _index(folder: Path) -> dict[str, Any]:
    path = folder / INDEX
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CanastaError(f"{path}: the index of saved failing games cannot be read: {error}") from None
    if not isinstance(data, dict):
        raise CanastaError(f"{path}: the index of saved failing games should be a JSON object")
    return data


def _key(entry: Any) -> DeviationKey | None:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("check"), str):
        return None
    return DeviationKey(entry["check"], entry.get("rule"), entry.get("action"), entry.get("cause"))


def save_failing(report: GeneratedReport, folder: Path) -> int:
    """Each shrunk scenario of ``report`` written to ``folder``, its deviation in the index; how many."""
    if not report.scenarios:
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    index = _index(folder)
    keys = {d.scenario_id: d.key for d in report.deviations if d.scenario_id}
    for scenario in report.scenarios:
        (folder / f"{scenario.id}.yaml").write_text(scenario.yaml, encoding="utf-8")
        key = keys.get(scenario.id)
        if key is not None:
            index[scenario.id] = {"check": key.check, "rule": key.rule, "action": key.action, "cause": key.cause}
    (folder / INDEX).write_text(json.dumps(index, indent=2, sort_keys=True), encoding="utf-8")
    return len(report.scenarios)


def replay_saved(engine: Engine, folder: Path, masks: Sequence[Mask] = ()) -> list[Result]:
    """Each saved failing game run on ``engine``: passed ones removed, still-failing ones kept (a masked one is
    a known failure)."""
    if not folder.is_dir():
        return []
    index = _index(folder)
    results = []
    for path in sorted(folder.glob("*.yaml")):
        scenario = load_scenarios([path])[0]
        result = run_case(engine, scenario, scenario.variants[0])
        if result.status == "passed":
            path.unlink()
            index.pop(scenario.id, None)
            result = replace(result, message=f"a failing game saved by an earlier run passes now (removed): {path}")
        else:
            result = _masked(result, _key(index.get(scenario.id)), masks)
        results.append(result)
    if (folder / INDEX).exists():
        (folder / INDEX).write_text(json.dumps(index, indent=2, sort_keys=True), encoding="utf-8")
    return results


def _masked(result: Result, key: DeviationKey | None, masks: Sequence[Mask]) -> Result:
    """A saved game that still fails: a known failure if a mask matches its deviation."""
    mask = None if key is None else best_mask(masks, key)
    if mask is None or result.status != "failed":
        return result
    return replace(result, status="known failure", message=f"{mask.reason} (was: {result.message})")


def saved_lines(replayed: Sequence[Result], saved: int, folder: Path) -> list[str]:
    """What the saved failing games came to, for the summary (nothing when there were none)."""
    lines = []
    if replayed:
        fixed = sum(r.status == "passed" for r in replayed)
        lines.append(
            f"saved failing games replayed first: {len(replayed)} ({fixed} pass now and were removed, "
            f"{len(replayed) - fixed} still fail)"
        )
    if saved:
        lines.append(f"failing games saved for the next run: {saved}, in {folder}")
    return lines


__all__ = ["DEFAULT_FOLDER", "replay_saved", "save_failing", "saved_folder", "saved_lines"]
