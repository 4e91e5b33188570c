"""What a run says of each test: its status, its message, the outcome of each of its checks."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal[
    "passed",
    "partial",
    "failed",
    "differs",
    "skipped",
    "errored",
    "timed out",
    "known failure",
    "unexpected pass",
]
#: What becomes of one check: it ran and passed or failed, it was skipped (the engine lacks what it needs), or it
#: was not reached (the engine could not be put back where the reference is).
CHECK_OUTCOMES = ("passed", "failed", "skipped", "not reached")

#: The most characters a result's message, and its stderr, carry (an engine's text is quoted, never whole).
MESSAGE_CHARS = 4000
STDERR_CHARS = 8000


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (saying how much was cut), and writable as UTF-8 whatever an engine
    sent (lone surrogates are escaped)."""
    if len(text) > limit:
        text = f"{text[:limit]} [... {len(text) - limit} characters cut]"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class Result:
    """The verdict on one scenario for one variant, with what became of each of its checks."""

    scenario: str
    variant: str
    status: Status
    message: str = ""
    rule: str | None = None
    stderr: str = ""
    file: str = ""
    #: How many checks passed, failed, were skipped and were not reached (only the outcomes that occurred).
    checks: dict[str, int] = field(default_factory=dict)
    #: Each failed check: ``{"step": int | None, "check": str, "rule": str | None, "message": str, "cause": str}``
    #: (``rule`` only when the check can name one; ``cause``: what differed, see ``causes``).
    failures: list[dict[str, Any]] = field(default_factory=list)
    #: How many checks were skipped, by reason.
    skips: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Bound what a result carries: a report stays small whatever the engine printed."""
        self.message = clip(self.message, MESSAGE_CHARS)
        self.stderr = clip(self.stderr, STDERR_CHARS)

    @property
    def key(self) -> str:
        return f"{self.scenario}@{self.variant}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"scenario": self.scenario, "variant": self.variant, "status": self.status}
        for name in ("message", "rule", "stderr", "file", "checks", "failures", "skips"):
            value = getattr(self, name)
            if value:
                out[name] = value
        return out


def first_failure(result: Result) -> dict[str, Any] | None:
    """The failed check a result is reported by: its first, or in a failed implementation-defined scenario its
    first that is not about what the scenario leaves open; the later ones are its consequences."""
    if result.status == "failed":
        for failure in result.failures:
            if not failure.get("implementation_defined"):
                return failure
    return result.failures[0] if result.failures else None


def plain(value: Any) -> str:
    """A parameter's value for people: a word as it is, anything else as JSON writes it (true, not True)."""
    return value if isinstance(value, str) else json.dumps(value)
