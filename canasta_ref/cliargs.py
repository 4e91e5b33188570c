"""Command-line arguments checked as they are read, before any work starts; and the parts every command shares.

A conformance run or a match can take minutes; a report path into a missing folder or a timeout of ``nan``
must be refused at once with the option's name, not end the run in a traceback that loses its results.
Each function is an ``argparse`` type: it returns the value or raises ArgumentTypeError with a sentence.
"""

from __future__ import annotations

import argparse
import math
import shlex
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import CanastaError
from .files import not_regular_problem
from .spec import list_variants, load_variant
from .spec.wording import did_you_mean, one_of

if TYPE_CHECKING:
    from .conformance.scenario import Scenario


def add_command(sub: Any, name: str, summary: str, details: str = "") -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` opens with the summary the command list shows, then any details."""
    description = f"{summary[0].upper()}{summary[1:]}." + (f" {details}" if details else "")
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=description)
    return parser


def plain(text: str) -> str:
    """Text for a terminal: the backticks that mark code in docstrings and docs dropped (``x`` reads x)."""
    return text.replace("``", "").replace("`", "")


def output_file(text: str) -> str:
    """A file this run may write: not a folder, in a folder that exists (the file itself may not yet)."""
    path = Path(text)
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder; give the name of a file to write")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: the folder {str(folder)!r} does not exist")
    return text


def folder(text: str) -> Path:
    """A folder that exists (to read from)."""
    path = Path(text)
    if not path.is_dir():
        what = "no folder" if not path.exists() else "not a folder"
        raise argparse.ArgumentTypeError(f"{what} {text!r}; give a folder")
    return path


def input_file(text: str) -> str:
    """A file this run reads: it exists and is a regular file (not a folder, a FIFO or a device)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder; give a file")
    problem = not_regular_problem(path)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"{problem}; give a file")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no file {text!r}")
    return text


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    return _finite(text, "a number of seconds", lambda value: value > 0, "a positive, finite number of seconds")


def positive_number(text: str) -> float:
    """A positive, finite number (of MiB, of seconds of CPU time...)."""
    return _finite(text, "a number", lambda value: value > 0, "a positive, finite number")


def non_negative_number(text: str) -> float:
    """A finite number, zero or more."""
    return _finite(text, "a number", lambda value: value >= 0, "a finite number, zero or more")


def percent(text: str) -> float:
    """A percentage, from 0 to 100."""
    return _finite(text, "a percentage", lambda value: 0 <= value <= 100, "a percentage from 0 to 100")


def _finite(text: str, what: str, allowed: Callable[[float], bool], wanted: str) -> float:
    """``text`` as a finite number that ``allowed`` accepts: ``expected {what}`` when it is no number at all,
    ``expected {wanted}`` when it is the wrong one."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
    if not math.isfinite(value) or not allowed(value):
        raise argparse.ArgumentTypeError(f"expected {wanted}, not {text!r}")
    return value


def count(text: str) -> int:
    """A whole number, zero or more."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected zero or more, not {value}")
    return value


def positive(text: str) -> int:
    """A whole number, one or more."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected one or more, not {value}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def command_line(text: str) -> str:
    """A command line as a POSIX shell would split it: balanced quotes, at least a program name."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"cannot split {text!r} into words: {error}") from None
    if not words:
        raise argparse.ArgumentTypeError("the command line is empty")
    return text


def runnable_command(text: str) -> str:
    """A command line (``command_line``) whose program can be found: on the PATH, or a path to an executable file."""
    program = shlex.split(command_line(text))[0]
    if shutil.which(program) is None:
        raise argparse.ArgumentTypeError(f"cannot run {text!r}: no program {program!r} on the PATH or at that path")
    return text


def variant_or_spec(text: str) -> str:
    """A bundled variant's id, or the path of a spec file, loaded to check it: its first error is the refusal."""
    try:
        load_variant(text)
    except CanastaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def bundled_variant(text: str) -> str:
    """The id of a bundled variant."""
    known = list_variants()
    if text not in known:
        raise argparse.ArgumentTypeError(f"unknown variant {text!r}{did_you_mean(text, known)}; known: {one_of(known)}")
    return text


def scenarios_or_exit(parser: argparse.ArgumentParser, paths: Sequence[str] | None) -> list[Scenario]:
    """The scenarios of the files or folders given to ``--scenarios`` (none given: the bundled suite), read before
    any work starts; the first bad one ends the command through ``parser.error``, naming it."""
    from .conformance.scenario import load_scenarios  # the conformance package, only for the tools that need it

    try:
        return load_scenarios([Path(path) for path in paths] if paths else None)
    except CanastaError as error:
        parser.error(f"argument --scenarios: {error}")
