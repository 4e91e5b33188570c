"""Reports for people (a progress bar and a summary) and for machines (JSON)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from .engines import EngineInfo
from .runner import Result

BAD = ("failed", "errored", "timed out", "unexpected pass")


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
        if result.status in BAD or result.status in ("skipped", "known failure"):
            lines.extend(result_lines(result))
    reason = nothing_ran_reason(results, info)
    if reason:
        lines.append(f"nothing was tested: {reason}")
    order = ("passed", "failed", "errored", "timed out", "skipped", "known failure", "unexpected pass")
    lines.append(", ".join(f"{counts.get(s, 0)} {s}" for s in order if counts.get(s) or s in ("passed", "failed")))
    return lines


def nothing_ran(results: Sequence[Result]) -> bool:
    """True when no test ran: none at all, or every one skipped. Such a run proves nothing, so it is no pass."""
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
    if extra:
        data.update(extra)
    return json.dumps(data, indent=2)


def failed(results: Sequence[Result]) -> bool:
    """Whether the run fails: a test did not pass, or nothing was tested at all."""
    return any(r.status in BAD for r in results) or nothing_ran(results)
