"""Reading a file someone named: a regular file only.

A named pipe (FIFO) blocks its reader until a writer comes, a device such as /dev/zero never ends, a folder cannot
be read: any of them, given for a spec, a scenario or a deal-perft file, must be refused with one sentence, not
hang the command. The file is opened without blocking and its kind checked on the open file, so it cannot be
swapped for a pipe between the check and the read.
"""

from __future__ import annotations

import os
import stat

#: Opening a FIFO with this flag returns at once instead of waiting for a writer (0 where the system has none).
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFile(OSError):
    """A path that names something other than a regular file; its text says what it names (``it is a named pipe
    (FIFO), not a regular file``), for a caller's ``cannot read PATH: ...``."""


def kind_of(mode: int) -> str:
    """What a file of this mode is, in words (``a named pipe (FIFO)``)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_regular_problem(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be read as a file (it exists but names a pipe, device, folder...), or None: a path that
    does not exist, or a regular file, is None (the caller says what is missing)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else f"{os.fspath(path)} is {kind_of(mode)}, not a regular file"


def read_regular_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit + 1`` of them when a limit is given, so that a
    caller can tell the file is too long); NotRegularFile for anything else, without waiting on it."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"it is {kind_of(mode)}, not a regular file")
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    with open(fd, "rb") as stream:
        return stream.read() if limit is None else stream.read(limit + 1)


def read_regular_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of the regular file at ``path`` (NotRegularFile for anything else, UnicodeDecodeError)."""
    return read_regular_bytes(path).decode("utf-8")


__all__ = ["NotRegularFile", "kind_of", "not_regular_problem", "read_regular_bytes", "read_regular_text"]
