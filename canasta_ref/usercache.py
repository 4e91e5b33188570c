"""A cache of derived data in the user's own cache folder, so that each new process does not build it again.

The folder is ``$CANASTA_REF_CACHE`` when set (``off`` disables the cache), else ``$XDG_CACHE_HOME/canasta-ref``,
else ``~/.cache/canasta-ref``; never a shared temporary folder. An entry is JSON text, named by a digest of what it
was derived from, written atomically (a temporary file in the same folder, then renamed), and never unpickled. The
cache is an optimisation only: a folder that cannot be made or written (a read-only or missing home, as in the
browser's Pyodide) is skipped silently, and an entry that cannot be read or decoded is treated as missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

#: The environment variable naming the cache folder, or ``off``.
CACHE_ENV = "CANASTA_REF_CACHE"
#: Entries larger than this are not read (an entry is a few tens of KiB; a larger file is not one of ours).
MAX_ENTRY_BYTES = 4 << 20


def cache_folder() -> Path | None:
    """The cache folder the environment names, or None when the cache is off or no home is known."""
    chosen = os.environ.get(CACHE_ENV, "")
    if chosen.strip().lower() == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base:
        return Path(base) / "canasta-ref"
    home = os.environ.get("HOME", "")
    return Path(home) / ".cache" / "canasta-ref" if home else None


def digest(*parts: str) -> str:
    """A name for an entry derived from ``parts`` (each part's length is hashed too, so parts cannot run together)."""
    hashed = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        hashed.update(f"{len(data)}:".encode("ascii"))
        hashed.update(data)
    return hashed.hexdigest()[:40]


def read_entry(kind: str, key: str) -> Any | None:
    """The JSON value stored for ``key`` in the folder of ``kind``; None when there is none or it cannot be read."""
    folder = cache_folder()
    if folder is None:
        return None
    path = folder / kind / f"{key}.json"
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_ENTRY_BYTES + 1)
        if len(data) > MAX_ENTRY_BYTES:
            return None
        return json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def write_entry(kind: str, key: str, value: Any) -> None:
    """Store ``value`` (JSON) for ``key``, atomically; silently nothing when the folder cannot be written."""
    folder = cache_folder()
    if folder is None:
        return
    target = folder / kind
    with contextlib.suppress(OSError, ValueError, TypeError, RecursionError):
        target.mkdir(parents=True, exist_ok=True)
        text = json.dumps(value, separators=(",", ":"))
        handle, temporary = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=target)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, target / f"{key}.json")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
