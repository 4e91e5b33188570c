"""Files that are not regular files (a FIFO, a device, a folder), given where a spec, a scenario, a deal-perft or a
known-failures file is read: each refused at once in one sentence naming what it is, never waited on.

A reader that opened a FIFO the ordinary way would block until a writer came: each case runs in a thread with a
deadline, so a regression fails the test instead of hanging it.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from canasta_ref.cli import main
from canasta_ref.conformance.known import load_known
from canasta_ref.conformance.perft import load_perft_files
from canasta_ref.conformance.scenario import check_scenario, load_scenarios
from canasta_ref.errors import CanastaError
from canasta_ref.files import NotRegularFile, read_regular_bytes, read_regular_text
from canasta_ref.spec import check_file

#: How long a refusal may take; reading a regular file of these sizes takes milliseconds.
DEADLINE = 30.0


def within_deadline(work: Callable[[], Any]) -> Any:
    """``work()``'s value, or its exception raised here; fails if it has not finished within DEADLINE seconds (the
    thread is left blocked, as a daemon, for the process to end)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    assert not thread.is_alive(), "still waiting on the file"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return path


def test_check_of_a_fifo_says_what_it_is_and_fails(fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    code = within_deadline(lambda: main(["check", str(fifo)], out))
    assert code == 1
    assert out.getvalue() == f"cannot read {fifo}: it is a named pipe (FIFO), not a regular file\n"


@pytest.mark.parametrize(("path", "kind"), [("/dev/null", "a character device"), ("/dev/zero", "a character device")])
def test_check_of_a_device_says_what_it_is(path: str, kind: str) -> None:
    (error,) = within_deadline(lambda: check_file(path))
    assert str(error) == f"cannot read {path}: it is {kind}, not a regular file"


def test_check_of_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    (error,) = within_deadline(lambda: check_file(tmp_path))
    assert str(error) == f"cannot read {tmp_path}: it is a folder, not a regular file"


def test_a_scenario_that_is_a_fifo_is_refused_alone_or_in_a_folder(fifo: Path) -> None:
    scenario, errors = within_deadline(lambda: check_scenario(fifo))
    assert scenario is None
    assert [str(e) for e in errors] == [
        f"{fifo}:1:1: cannot read the scenario file: it is a named pipe (FIFO), not a regular file"
    ]
    with pytest.raises(CanastaError, match="it is a named pipe"):
        within_deadline(lambda: load_scenarios([fifo.parent]))


def test_a_perft_file_that_is_a_fifo_is_refused(fifo: Path) -> None:
    with pytest.raises(CanastaError) as refused:
        within_deadline(lambda: load_perft_files([fifo]))
    assert str(refused.value) == (
        f"{fifo}: cannot read the deal-perft file: it is a named pipe (FIFO), not a regular file"
    )


def test_a_known_failures_file_that_is_a_fifo_is_refused(fifo: Path) -> None:
    with pytest.raises(CanastaError) as refused:
        within_deadline(lambda: load_known(fifo))
    assert "cannot read the known-failures file: it is a named pipe (FIFO), not a regular file" in str(refused.value)


def test_a_regular_file_is_read_whole_or_to_its_limit(tmp_path: Path, fifo: Path) -> None:
    path = tmp_path / "plain.yaml"
    path.write_text("spec: 1\n", encoding="utf-8")
    assert read_regular_text(path) == "spec: 1\n"
    assert read_regular_bytes(path, 3) == b"spec"  # one byte past the limit says the file is longer
    with pytest.raises(NotRegularFile):
        within_deadline(lambda: read_regular_bytes(fifo))
