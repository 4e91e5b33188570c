"""Reports for people (a progress bar and a summary) and for machines (JSON)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from .engines import EngineInfo
from .runner import Result

#: The statuses that fail a run. ``differs`` (an implementation-defined scenario the engine plays otherwise) and
#: ``partial`` (every check that ran passed, some were skipped) are shown and counted, but fail nothing.
BAD = ("failed", "errored", "timed out", "unexpected pass")
#: The statuses a summary lists result by result, besides the bad ones.
SHOWN = ("partial", "differs", "skipped", "known failure")
#: The order of the summary's counts; passed and failed are always given, the others when they occur.
ORDER = (
    "passed",
    "partial",
    "failed",
    "differs",
    "errored",
    "timed out",
    "skipped",
    "known failure",
    "unexpected pass",
)


class Progress:
    """A one-line progress bar on a terminal stream, rewritten in place."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.bad = 0

    def __call__(self, done: int, total: int, result: Result) -> None:
        self.bad += result.status in BAD
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total}  {self.bad} bad ")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def stderr_lines(stderr: str, label: str = "stderr") -> list[str]:
    """The last ten lines of an engine's stderr under a label, indented for a result's text (none if empty)."""
    if not stderr:
        return []
    return [f"    {label}:", *("      " + line for line in stderr.splitlines()[-10:])]


def result_lines(result: Result, *, stderr_label: str = "stderr") -> list[str]:
    """A result for people: its status, test and file, then its message and the tail of the engine's stderr."""
    head = f"{result.status.upper()}: {result.key}" + (f"  ({result.file})" if result.file else "")
    return [head, *("    " + line for line in result.message.splitlines()), *stderr_lines(result.stderr, stderr_label)]


def few(texts: Sequence[str], limit: int = 5) -> str:
    """The first ``limit`` texts, in backquotes, and how many more there are."""
    shown = ", ".join(f"`{t}`" for t in texts[:limit])
    return shown + (f" and {len(texts) - limit} more" if len(texts) > limit else "")


def summary(results: Sequence[Result], info: EngineInfo) -> list[str]:
    counts: Counter[str] = Counter(r.status for r in results)
    lines = [f"engine: {info.name} {info.version} (protocol {info.protocol})"]
    for result in results:
        if result.status in BAD or result.status in SHOWN:
            lines.extend(result_lines(result))
    reason = nothing_ran_reason(results, info)
    if reason:
        lines.append(f"nothing was tested: {reason}")
    lines.append(", ".join(f"{counts.get(s, 0)} {s}" for s in ORDER if counts.get(s) or s in ("passed", "failed")))
    return lines


def nothing_ran(results: Sequence[Result]) -> bool:
    """True when no test ran: none at all, or every one skipped. Such a run proves nothing, so it is no pass (a
    ``partial`` test ran some checks: it counts as something tested)."""
    return all(r.status == "skipped" for r in results)


def nothing_ran_reason(results: Sequence[Result], info: EngineInfo | None = None) -> str | None:
    """Why nothing was tested, for the summary (None when something was): no test selected, or every test
    skipped, with the commonest reasons (and the engine's empty list of variants, when that is the cause)."""
    if not nothing_ran(results):
        return None
    if not results:
        return "no test was selected (check --scenarios, --variant, --rule and --level)"
    reasons = Counter(r.message for r in results)
    common = "; ".join(f"{reason or 'no reason given'} ({n})" for reason, n in reasons.most_common(3))
    text = f"all {len(results)} tests were skipped: {common}"
    if info is not None and not info.variants:
        text += "; the engine's hello lists no variants"
    return text


def json_report(results: Sequence[Result], info: EngineInfo, extra: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {
        "engine": {"name": info.name, "version": info.version, "protocol": info.protocol},
        "counts": dict(Counter(r.status for r in results)),
        "results": [r.to_json() for r in results],
    }
    checks: Counter[str] = Counter()
    for result in results:
        checks.update(result.checks)
    if checks:
        data["checks"] = dict(checks)
    if extra:
        data.update(extra)
    return json.dumps(data, indent=2)


def failed(results: Sequence[Result]) -> bool:
    """Whether the run fails: a test failed (``differs`` and ``partial`` do not fail it), or nothing was tested."""
    return any(r.status in BAD for r in results) or nothing_ran(results)
