"""Use the engine's mypyc-compiled modules, but only when they were built from the sources as they are now.

``tools/build_native.py`` compiles the hot modules (the ones every listing and move runs through) with mypyc
into ``canasta_ref/engine/_compiled/`` and records a digest of each source. Importing the package puts that directory
first on the engine package's search path only if every digest still matches, so an edited source is never shadowed
by a stale binary: the package falls back to pure Python until it is rebuilt. ``CANASTA_REF_PURE=1`` forces
pure Python (tests use it to check both builds agree); empty, ``0``, ``false``, ``no`` or ``off`` leave the choice
to the build.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

#: The engine modules compiled; the rest of the package (spec loader, rules compiler, command line) stays Python.
MODULES = (
    "cards",
    "actions",
    "state",
    "rules",
    "checks",
    "movegen",
    "combos",
    "blocks",
    "named",
    "rankcount",
    "openings",
    "takecount",
    "takeshare",
    "legal",
    "judge",
    "game",
    "position",
    "scoring",
)
#: Python modules (paths in the package) whose types the compiled ones were built against: a change there makes
#: a build stale too.
INTERFACES = ("errors", "engine/hooks", "spec/model")

ENGINE_DIR = Path(__file__).parent
PACKAGE_DIR = ENGINE_DIR.parent
COMPILED_DIR = ENGINE_DIR / "_compiled"
MANIFEST = COMPILED_DIR / "manifest.json"


def source_paths() -> list[str]:
    """The compiled modules' sources and the interfaces they use, as paths in the package."""
    return [f"engine/{name}" for name in MODULES] + list(INTERFACES)


def source_digests() -> dict[str, str]:
    """The SHA-256 of each compiled module's source and of the interfaces it uses, as the build records it."""
    return {path: hashlib.sha256((PACKAGE_DIR / f"{path}.py").read_bytes()).hexdigest() for path in source_paths()}


def build_tag() -> str:
    """What a compiled build is tied to besides the sources: the interpreter's ABI."""
    return sys.implementation.cache_tag


def read_manifest(path: Path | None = None) -> dict[str, object] | None:
    """The recorded build, or None when there is none (or it cannot be read); ``path``: another build's record
    (the native core's, ``canasta_ref.core``)."""
    try:
        manifest = json.loads((path or MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def stale_reason() -> str | None:
    """Why the compiled build cannot be used (no build, another Python, older sources), or None when it can."""
    manifest = read_manifest()
    if manifest is None:
        return "no compiled build"
    if manifest.get("tag") != build_tag():
        return "the compiled build is for another Python"
    if manifest.get("sources") != source_digests():
        return "the compiled build is older than the sources"
    return None


#: Values of ``CANASTA_REF_PURE`` that do not force pure Python (the variable set to ``0`` once forced it too).
_NOT_FORCED = frozenset({"", "0", "false", "no", "off"})


def pure_forced() -> bool:
    """Whether ``CANASTA_REF_PURE`` asks for pure Python: set to anything but empty, 0, false, no or off."""
    return os.environ.get("CANASTA_REF_PURE", "").strip().lower() not in _NOT_FORCED


def _status() -> str:
    if pure_forced():
        return f"pure Python (CANASTA_REF_PURE={os.environ['CANASTA_REF_PURE']})"
    reason = stale_reason()
    if reason:
        return f"pure Python ({reason}{_build_hint()})"
    return _COMPILED_STATUS


def _build_hint() -> str:
    """How to build, where that can be done: in a checkout (an installed wheel has no tools/ and stays pure)."""
    return ": run tools/build_native.py" if (PACKAGE_DIR.parent / "tools" / "build_native.py").is_file() else ""


#: The status of a process running the compiled build.
_COMPILED_STATUS = "compiled (mypyc)"
#: Which build this process runs, in words (the benchmark prints it).
STATUS = _status()
#: The modules running compiled, or () when the package runs as pure Python.
COMPILED: tuple[str, ...] = MODULES if STATUS == _COMPILED_STATUS else ()

if COMPILED:
    sys.modules[__name__.rpartition(".")[0]].__path__.insert(0, str(COMPILED_DIR))
