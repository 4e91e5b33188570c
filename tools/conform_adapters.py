"""Run the conformance suite against the adapted open-source engines and write their reports.

    python tools/conform_adapters.py [--games 200] [--engine cos] [--no-known-failures] [--write-known-failures]

Each engine's checkout is named by an environment variable (``FEUD_ENGINE``, ``COS_ENGINE``) and its runtime by
another (``TSX``, ``COS_PYTHON``; else ``tsx`` and ``python3`` on PATH): nothing defaults to a folder of one machine.
For each adapter in ``conformance/adapters/`` whose engine is named and present, runs
``canasta-ref conform --impl "<adapter command>" --games N --json conformance/reports/<engine>.json
--known-failures conformance/adapters/<engine>/known-failures.yaml``, then adds to the report an ``"adapter"``
object naming the engine's repository and commit. Paths of this machine are replaced by placeholders, so the
reports can be committed. An engine that is absent is reported as skipped, with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta_ref import cliargs

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "conformance" / "adapters"
REPORTS = ROOT / "conformance" / "reports"


@dataclass(frozen=True)
class Adapter:
    """One adapted engine: where its code must be, what runs it, what it was written against."""

    key: str
    engine: str
    repository: str
    commit: str
    #: Environment variable naming the engine's checkout (no default: every machine keeps it elsewhere).
    env: str
    #: A file that must exist inside the engine's checkout.
    marker: str
    #: The program the adapter needs (an interpreter): its environment variable, else this name on PATH.
    runtime_env: str
    runtime_default: str

    @property
    def folder(self) -> Path:
        return ADAPTERS / self.key

    @property
    def engine_dir(self) -> Path | None:
        """The engine's checkout as its environment variable names it, or None when it is not set."""
        value = os.environ.get(self.env, "")
        return Path(value) if value else None

    @property
    def runtime(self) -> Path | None:
        """The runtime's program as found (a path, or a name on PATH), or None when it is not found."""
        found = shutil.which(os.environ.get(self.runtime_env) or self.runtime_default)
        return Path(found) if found else None

    @property
    def command(self) -> str:
        return str(self.folder / "run.sh")

    def missing(self) -> str | None:
        """Why the adapter cannot run here, or None."""
        checkout = f"a checkout of {self.repository} at commit {self.commit}"
        if self.engine_dir is None:
            return f"{self.key} engine not found: set {self.env} to {checkout}: see {self.readme}"
        if not (self.engine_dir / self.marker).is_file():
            return (
                f"{self.key} engine not found at {self.engine_dir} (set {self.env}): it must be {checkout}, "
                f"with {self.marker}: see {self.readme}"
            )
        if self.runtime is None:
            program = os.environ.get(self.runtime_env) or self.runtime_default
            return f"{program} not found (set {self.runtime_env}): see {self.readme}"
        return None

    @property
    def readme(self) -> str:
        return f"conformance/adapters/{self.key}/README.md"

    def record(self) -> dict[str, str]:
        return {
            "engine": self.engine,
            "repository": self.repository,
            "commit": self.commit,
            "adapter": f"conformance/adapters/{self.key}",
        }


ALL = (
    Adapter(
        key="cos",
        engine="canasta-openspiel",
        repository="jhtschultz/canasta-openspiel",
        commit="a6ba187",
        env="COS_ENGINE",
        marker="canasta/canasta_game.py",
        runtime_env="COS_PYTHON",
        runtime_default="python3",
    ),
    Adapter(
        key="feud",
        engine="feudalism-dev/Canasta",
        repository="feudalism-dev/Canasta",
        commit="8aa7f0a",
        env="FEUD_ENGINE",
        marker="src/core/rules.ts",
        runtime_env="TSX",
        runtime_default="tsx",
    ),
)


def placeholders(adapter: Adapter) -> list[tuple[str, str]]:
    """This machine's paths and what replaces each, longest first (so a path inside another goes first)."""
    pairs = [
        (adapter.engine_dir, f"<{adapter.env}>"),
        (adapter.runtime, f"<{adapter.runtime_env}>"),
        (ROOT, "<repo>"),
        (Path.home(), "<home>"),
    ]
    named = [(str(path), placeholder) for path, placeholder in pairs if path is not None]
    return sorted(((p, r) for p, r in named if p not in ("", "/", ".")), key=lambda pair: -len(pair[0]))


def scrub(value: Any, pairs: Sequence[tuple[str, str]]) -> Any:
    """``value`` with every path of ``pairs`` in its texts replaced by its placeholder."""
    if isinstance(value, str):
        for path, placeholder in pairs:
            value = value.replace(path, placeholder)
        return value
    if isinstance(value, list):
        return [scrub(item, pairs) for item in value]
    if isinstance(value, dict):
        return {scrub(key, pairs): scrub(item, pairs) for key, item in value.items()}
    return value


def conform_command(adapter: Adapter, games: int, *, known: bool, write_known: bool) -> list[str]:
    """The ``canasta-ref conform`` command line for one adapter."""
    folder = adapter.folder
    command = [
        conform_program(),
        "conform",
        "--impl",
        adapter.command,
        "--games",
        str(games),
        "--json",
        str(REPORTS / f"{adapter.key}.json"),
        "--no-progress",
    ]
    known_file = folder / "known-failures.yaml"
    if write_known:
        command += ["--write-known-failures", str(known_file)]
    elif known and known_file.is_file():
        command += ["--known-failures", str(known_file)]
    return command


def conform_program() -> str:
    """``canasta-ref`` beside this Python (the project's venv), else on PATH."""
    beside = Path(sys.executable).parent / "canasta-ref"
    return str(beside) if beside.is_file() else (shutil.which("canasta-ref") or "canasta-ref")


def finish_report(adapter: Adapter, path: Path) -> dict[str, Any]:
    """Add the ``adapter`` object to a report and replace this machine's paths in it."""
    report = json.loads(path.read_text(encoding="utf-8"))
    report["adapter"] = adapter.record()
    report = dict(scrub(report, placeholders(adapter)))
    path.write_text(json.dumps(report, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return report


def scrub_file(adapter: Adapter, path: Path) -> None:
    """A written known-failures file without this machine's paths."""
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        path.write_text(scrub(text, placeholders(adapter)), encoding="utf-8")


Runner = Callable[[list[str]], int]


def run_command(command: list[str]) -> int:
    env = {**os.environ, "CANASTA_REF_PURE": os.environ.get("CANASTA_REF_PURE", "1")}
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def run_adapter(adapter: Adapter, args: argparse.Namespace, runner: Runner = run_command) -> dict[str, Any]:
    """One adapter's run: its status, and the report's counts when it ran."""
    why = adapter.missing()
    if why is not None:
        return {"engine": adapter.key, "status": "skipped", "reason": why}
    REPORTS.mkdir(parents=True, exist_ok=True)
    command = conform_command(
        adapter, args.games, known=not args.no_known_failures, write_known=args.write_known_failures
    )
    code = runner(command)
    path = REPORTS / f"{adapter.key}.json"
    if not path.is_file():
        return {
            "engine": adapter.key,
            "status": "error",
            "reason": f"canasta-ref conform exited {code} without a report",
        }
    report = finish_report(adapter, path)
    if args.write_known_failures:
        scrub_file(adapter, adapter.folder / "known-failures.yaml")
    return {"engine": adapter.key, "status": "ran", "exit": code, "counts": report.get("counts", {})}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=cliargs.count, default=200, help="generated games per engine (default 200)")
    parser.add_argument("--engine", action="append", choices=[a.key for a in ALL], help="only this adapter")
    parser.add_argument("--no-known-failures", action="store_true", help="do not pass the known-failures file")
    parser.add_argument(
        "--write-known-failures", action="store_true", help="write today's failures as each known-failures file"
    )
    args = parser.parse_args(argv)
    chosen = [a for a in ALL if not args.engine or a.key in args.engine]
    outcomes = [run_adapter(adapter, args) for adapter in chosen]
    for outcome in outcomes:
        print(json.dumps(outcome))
    return 1 if any(o["status"] == "error" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
