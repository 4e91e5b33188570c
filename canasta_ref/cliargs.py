"""Command-line arguments checked as they are read, before any work starts.

A conformance run or a match can take minutes; a report path into a missing folder or a timeout of ``nan``
must be refused at once with the option's name, not end the run in a traceback that loses its results.
Each function is an ``argparse`` type: it returns the value or raises ArgumentTypeError with a sentence.
"""

from __future__ import annotations

import argparse
import math
import shlex
from pathlib import Path

from .files import not_regular_problem


def output_file(text: str) -> str:
    """A file this run may write: not a folder, in a folder that exists (the file itself may not yet)."""
    path = Path(text)
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder; give the name of a file to write")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: the folder {str(folder)!r} does not exist")
    return text


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
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, not {text!r}")
    return value


def count(text: str) -> int:
    """A whole number, zero or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected zero or more, not {value}")
    return value


def positive(text: str) -> int:
    """A whole number, one or more."""
    value = count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected one or more, not 0")
    return value


def command_line(text: str) -> str:
    """A command line as a POSIX shell would split it: balanced quotes, at least a program name."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"cannot split {text!r} into words: {error}") from None
    if not words:
        raise argparse.ArgumentTypeError("the command line is empty")
    return text
