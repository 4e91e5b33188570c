"""The README's examples are true: its Python runs, and its dispute is what `canasta-ref explain` prints."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from canasta_ref.cli import main

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_python_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    exec(compile(block.group(1), "README.md", "exec"), {})
    assert capsys.readouterr().out == "TURN.ONE_DRAW You have already drawn this turn.\n"


def test_dispute_output_is_current() -> None:
    block = re.search(r"\$ canasta-ref explain dispute-one-card-pile --variant classic\n(.*?)```", README, re.S)
    assert block is not None
    out = io.StringIO()
    assert main(["explain", "dispute-one-card-pile", "--variant", "classic"], out) == 0
    actual = out.getvalue()
    for paragraph in block.group(1).strip().split("\n\n"):
        assert paragraph in actual, f"README paragraph no longer printed:\n{paragraph}"
