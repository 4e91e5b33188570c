"""Committed conformance reports (``conformance/reports/<engine>.json``), read and checked field by field.

A report is what ``canasta-ref conform --json`` writes plus the ``adapter`` object the adapter script adds. The
site is built from these files alone, so a malformed one must stop the build with one message naming the file and
the field, never with a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta_ref.files import read_regular_bytes

#: Every status a result may have, in the order the pages list them.
STATUSES = (
    "passed",
    "partial",
    "differs",
    "failed",
    "known failure",
    "errored",
    "timed out",
    "unexpected pass",
    "skipped",
)
DEVIATION_STATUSES = ("failed", "known failure")
_REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")


class ReportError(Exception):
    """A report file that cannot be read or does not have the report's shape."""

    def __init__(self, file: str, field: str, problem: str) -> None:
        self.file, self.field, self.problem = file, field, problem
        super().__init__(f"{file}: {field}: {problem}")


@dataclass(frozen=True)
class Adapter:
    engine: str
    repository: str
    commit: str
    path: str


@dataclass(frozen=True)
class Outcome:
    """One result: a scenario (or generated game, deal-perft file, handshake) under one variant."""

    scenario: str
    variant: str
    status: str
    message: str = ""
    rule: str | None = None


@dataclass(frozen=True)
class Deviation:
    rule: str | None
    check: str
    action: str | None
    games: int
    first_game: int
    message: str
    status: str
    scenario: str | None = None
    steps: int | None = None
    known: str | None = None


@dataclass(frozen=True)
class Generated:
    seed: int
    games: int
    steps: int
    seconds: float
    disagreements: int
    deviations: tuple[Deviation, ...]


@dataclass(frozen=True)
class Report:
    """One engine's committed report; ``key`` is the file's stem, ``file`` its path as the page shows it."""

    key: str
    file: str
    name: str
    version: str
    protocol: int
    adapter: Adapter | None
    counts: tuple[tuple[str, int], ...]
    results: tuple[Outcome, ...]
    generated: Generated | None


# ------------------------------------------------------------------------------------------------ reading
def load_reports(folder: Path, shown_as: str) -> list[Report]:
    """Every ``*.json`` report in ``folder``, sorted by file name; none if the folder does not exist.

    ``shown_as`` is how the folder is named in pages and errors (such as ``conformance/reports``).
    """
    if not folder.is_dir():
        return []
    return [read_report(path, f"{shown_as}/{path.name}") for path in sorted(folder.glob("*.json"))]


def read_report(path: Path, shown_as: str) -> Report:
    try:
        text = read_regular_bytes(path).decode("utf-8")
    except OSError as error:
        raise ReportError(shown_as, "(file)", f"cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ReportError(shown_as, "(file)", "is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise ReportError(shown_as, "(file)", f"is not JSON: {error.msg} at {where}") from None
    except (ValueError, RecursionError) as error:
        raise ReportError(shown_as, "(file)", f"is not JSON this reader takes: {error}") from None
    return parse_report(data, key=path.stem, file=shown_as)


def parse_report(data: Any, *, key: str, file: str) -> Report:
    """A report from its decoded JSON, or a :class:`ReportError` naming the first field that is wrong."""
    fields = _Fields(file)
    top = fields.obj(data, "(top level)")
    engine = fields.obj(fields.need(top, "engine", "(top level)"), "engine")
    adapter = top.get("adapter")
    generated = top.get("generated")
    return Report(
        key=key,
        file=file,
        name=fields.text(engine, "name", "engine"),
        version=fields.text(engine, "version", "engine"),
        protocol=fields.count(engine, "protocol", "engine"),
        adapter=None if adapter is None else _adapter(fields, adapter),
        counts=_counts(fields, fields.need(top, "counts", "(top level)")),
        results=tuple(_outcome(fields, item, f"results[{i}]") for i, item in enumerate(_results(fields, top))),
        generated=None if generated is None else _generated(fields, generated),
    )


def _results(fields: _Fields, top: Mapping[str, Any]) -> list[Any]:
    results = fields.need(top, "results", "(top level)")
    if not isinstance(results, list):
        raise fields.error("results", f"expected a list, found {_kind(results)}")
    return results


def _adapter(fields: _Fields, value: Any) -> Adapter:
    adapter = fields.obj(value, "adapter")
    repository = fields.text(adapter, "repository", "adapter")
    if not _REPOSITORY.fullmatch(repository):
        raise fields.error("adapter.repository", f"expected owner/name, found {repository!r}")
    commit = fields.text(adapter, "commit", "adapter")
    if not _COMMIT.fullmatch(commit):
        raise fields.error("adapter.commit", f"expected a commit id (7 to 40 lower-case hex digits), found {commit!r}")
    engine, path = fields.text(adapter, "engine", "adapter"), fields.text(adapter, "adapter", "adapter")
    return Adapter(engine, repository, commit, path)


def _counts(fields: _Fields, value: Any) -> tuple[tuple[str, int], ...]:
    counts = fields.obj(value, "counts")
    for status in counts:
        fields.status(status, f"counts[{status!r}]")
        fields.count(counts, status, "counts")
    return tuple((s, counts[s]) for s in STATUSES if counts.get(s))


def _outcome(fields: _Fields, value: Any, where: str) -> Outcome:
    item = fields.obj(value, where)
    status = fields.text(item, "status", where)
    fields.status(status, f"{where}.status")
    return Outcome(
        scenario=fields.text(item, "scenario", where),
        variant=fields.text(item, "variant", where),
        status=status,
        message=fields.maybe_text(item, "message", where) or "",
        rule=fields.maybe_text(item, "rule", where),
    )


def _generated(fields: _Fields, value: Any) -> Generated:
    gen = fields.obj(value, "generated")
    seconds = fields.need(gen, "seconds", "generated")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0:
        raise fields.error("generated.seconds", f"expected a number of seconds, found {_kind(seconds)}")
    deviations = gen.get("deviations", [])
    if not isinstance(deviations, list):
        raise fields.error("generated.deviations", f"expected a list, found {_kind(deviations)}")
    return Generated(
        seed=fields.integer(gen, "seed", "generated"),
        games=fields.count(gen, "games", "generated"),
        steps=fields.count(gen, "steps", "generated"),
        seconds=float(seconds),
        disagreements=fields.count(gen, "disagreements", "generated"),
        deviations=tuple(_deviation(fields, d, f"generated.deviations[{i}]") for i, d in enumerate(deviations)),
    )


def _deviation(fields: _Fields, value: Any, where: str) -> Deviation:
    item = fields.obj(value, where)
    status = fields.text(item, "status", where)
    if status not in DEVIATION_STATUSES:
        raise fields.error(f"{where}.status", f"expected 'failed' or 'known failure', found {status!r}")
    steps = item.get("steps")
    return Deviation(
        rule=fields.maybe_text(item, "rule", where),
        check=fields.text(item, "check", where),
        action=fields.maybe_text(item, "action", where),
        games=fields.count(item, "games", where),
        first_game=fields.count(item, "first_game", where),
        message=fields.text(item, "message", where),
        status=status,
        scenario=fields.maybe_text(item, "scenario", where),
        steps=None if steps is None else fields.count(item, "steps", where),
        known=fields.maybe_text(item, "known", where),
    )


def _kind(value: Any) -> str:
    """What a JSON value is, for an error message."""
    if value is None:
        return "null"
    names = {bool: "a boolean", str: "a string", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


class _Fields:
    """Typed access to a report's fields; each failure is a :class:`ReportError` with the field's path."""

    def __init__(self, file: str) -> None:
        self.file = file

    def error(self, field: str, problem: str) -> ReportError:
        return ReportError(self.file, field, problem)

    def obj(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.error(where, f"expected an object, found {_kind(value)}")
        return value

    def need(self, parent: Mapping[str, Any], key: str, where: str) -> Any:
        if key not in parent:
            raise self.error(_join(where, key), "missing")
        return parent[key]

    def text(self, parent: Mapping[str, Any], key: str, where: str) -> str:
        value = self.need(parent, key, where)
        if not isinstance(value, str):
            raise self.error(_join(where, key), f"expected a string, found {_kind(value)}")
        return value

    def maybe_text(self, parent: Mapping[str, Any], key: str, where: str) -> str | None:
        """An optional string field: ``None`` when absent or null."""
        return None if parent.get(key) is None else self.text(parent, key, where)

    def integer(self, parent: Mapping[str, Any], key: str, where: str) -> int:
        value = self.need(parent, key, where)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(_join(where, key), f"expected a whole number, found {_kind(value)}")
        return value

    def count(self, parent: Mapping[str, Any], key: str, where: str) -> int:
        value = self.integer(parent, key, where)
        if value < 0:
            raise self.error(_join(where, key), f"expected a count (0 or more), found {value}")
        return value

    def status(self, status: str, where: str) -> None:
        if status not in STATUSES:
            raise self.error(where, f"{status!r} is not a status (one of {', '.join(STATUSES)})")


def _join(where: str, key: str) -> str:
    return key if where == "(top level)" else f"{where}.{key}"


def statuses_by_scenario(report: Report) -> dict[str, list[str]]:
    """Each scenario id of the report with the statuses of its results (one a variant it ran under)."""
    out: dict[str, list[str]] = {}
    for outcome in report.results:
        out.setdefault(outcome.scenario, []).append(outcome.status)
    return out


def describe_counts(counts: Sequence[tuple[str, int]]) -> str:
    """``12 passed, 1 failed``: the nonzero counts in the pages' order of statuses."""
    return ", ".join(f"{n} {status}" for status, n in counts) or "no results"
