#!/usr/bin/env python3
"""The browser runtime of the site's two live pages: Pyodide's files and pure wheels of everything they import.

    python tools/browser/bundle.py OUT        # write OUT/pyodide/... and OUT/wheels/... (the site build does this)

Only "Settle a dispute in the browser" and "Try house rules" load it. Pyodide comes from the npm package pinned
in tools/browser/package-lock.json (``npm ci`` there, which tools/setup.sh runs); only the five files the pages need
are copied. The Python side is packed here as pure wheels, so the site needs no package index:

- canasta-ref itself, built pure (the mypyc build in canasta_ref/engine/_compiled is left out, as pyproject.toml's
  wheel target does), with the data pyproject.toml force-includes;
- the site's page modules (tools/docs_pages), which draw positions as every other page draws them;
- lark, jsonschema, referencing, attrs and jsonschema-specifications, packed from this environment (all pure);
- PyYAML's pure-Python half (its C extension and the ``_yaml`` shim left out: ``yaml`` falls back by itself);
- rpds: PyPI's rpds-py is compiled Rust with no browser wheel, so tools/browser/rpds (a pure stand-in for the few
  operations referencing and jsonschema use) is packed under its name. jsonschema stays, so a scenario or a house
  spec typed in the page gets the same located messages as ``canasta-ref explain`` and ``check`` give.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import sys
import tomllib
import zipfile
from collections.abc import Iterable, Iterator
from importlib import metadata
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PYODIDE = HERE / "node_modules" / "pyodide"
#: The files of the npm package the pages load: the loader, the runtime, its WebAssembly, the standard library,
#: and the lock file Pyodide reads at start.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: Top-level modules of Pyodide's standard library the pages never import, left out of its zip (about 450 KB of a
#: first visit, which the 8 MB budget needs): the REPL, debuggers, profilers and test runners, the process pool
#: (a page has no processes) and the mail, RPC and WSGI protocols.
STDLIB_LEFT_OUT = frozenset(
    {
        "_pyrepl",
        "bdb.py",
        "cProfile.py",
        "doctest.py",
        "ftplib.py",
        "imaplib.py",
        "mailbox.py",
        "multiprocessing",
        "pdb.py",
        "pickletools.py",
        "poplib.py",
        "profile.py",
        "pstats.py",
        "pydoc.py",
        "pydoc_data",
        "smtplib.py",
        "trace.py",
        "unittest",
        "wsgiref",
        "xmlrpc",
    }
)
#: Installed distributions whose pure-Python files the pages import (canasta-ref's dependencies and theirs).
#: typing-extensions only matters below Python 3.13 (Pyodide runs 3.14); it is packed so that the same wheels
#: also import in the CPython this repository tests with.
PURE_DEPENDENCIES = (
    "lark",
    "PyYAML",
    "jsonschema",
    "referencing",
    "attrs",
    "jsonschema-specifications",
    "typing-extensions",
)
#: Files of those distributions left out: compiled extensions, bytecode, the install's own records, PyYAML's shim
#: for its C extension.
_LEFT_OUT_SUFFIXES = (".so", ".pyd", ".pyc", ".dll", ".dylib")
_LEFT_OUT_TOP = ("_yaml", "__pycache__")
_LEFT_OUT_META = ("METADATA", "RECORD", "INSTALLER", "REQUESTED", "direct_url.json", "WHEEL")
# A fixed time in every zip entry, so that the same sources always pack to the same bytes.
_EPOCH = (2020, 1, 1, 0, 0, 0)


class BundleError(Exception):
    """The runtime cannot be bundled: the npm package is not installed, or a dependency is missing."""


def _wheel_metadata(name: str, version: str) -> dict[str, bytes]:
    return {
        "METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        "WHEEL": b"Wheel-Version: 1.0\nGenerator: canasta-ref tools/browser/bundle.py\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n",
    }


def write_wheel(out_dir: Path, name: str, version: str, files: Iterable[tuple[str, bytes]]) -> Path:
    """A py3-none-any wheel of ``files`` (path inside site-packages, content), with its METADATA, WHEEL, RECORD."""
    stem = f"{name.replace('-', '_')}-{version}"
    info = f"{stem}.dist-info"
    entries = sorted(files)
    entries += [(f"{info}/{key}", value) for key, value in _wheel_metadata(name, version).items()]
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in entries] + [f"{info}/RECORD,,"]
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    path = out_dir / f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name_in_zip, data in entries:
            wheel.writestr(zipfile.ZipInfo(name_in_zip, _EPOCH), data, compress_type=zipfile.ZIP_DEFLATED)
    return path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _tree(folder: Path, prefix: str) -> Iterator[tuple[str, bytes]]:
    """Every file under ``folder`` (bytecode and compiled builds left out), as ``prefix/relative path``."""
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and not _left_out(PurePosixPath(relative.as_posix())):
            yield f"{prefix}/{relative.as_posix()}", path.read_bytes()


def _left_out(path: PurePosixPath) -> bool:
    return path.suffix in _LEFT_OUT_SUFFIXES or any(part in ("__pycache__", "_compiled") for part in path.parts)


def project_files() -> Iterator[tuple[str, bytes]]:
    """canasta_ref's sources and the data pyproject.toml force-includes into its wheel, pure Python only."""
    yield from _tree(ROOT / "canasta_ref", "canasta_ref")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    includes: dict[str, str] = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    for source, target in includes.items():
        path = ROOT / source
        if path.is_dir():
            yield from _tree(path, target)
        else:
            yield target, path.read_bytes()


def installed_files(distribution: str) -> tuple[str, list[tuple[str, bytes]]]:
    """(version, the pure files) of an installed distribution, as its RECORD lists them."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        raise BundleError(f"{distribution} is not installed here; run tools/setup.sh") from None
    files = []
    for file in dist.files or ():
        path = PurePosixPath(str(file))
        if path.parts[0] in _LEFT_OUT_TOP or _left_out(path) or path.parts[0].startswith(".."):
            continue
        if path.parts[0].endswith(".dist-info") and path.name in _LEFT_OUT_META:
            continue
        files.append((str(path), Path(str(file.locate())).read_bytes()))
    return dist.version, files


def build_wheels(out_dir: Path) -> list[str]:
    """Write every wheel the pages load into ``out_dir``; their file names, in the order they are unpacked."""
    out_dir.mkdir(parents=True, exist_ok=True)
    version = metadata.version("canasta-ref") if _installed("canasta-ref") else "0.0.0"
    wheels = [write_wheel(out_dir, "canasta-ref", version, project_files())]
    wheels.append(
        write_wheel(out_dir, "canasta-ref-pages", version, _tree(ROOT / "tools" / "docs_pages", "docs_pages"))
    )
    wheels.append(write_wheel(out_dir, "rpds-py", "0.0.0+pure", _tree(HERE / "rpds", "rpds")))
    for distribution in PURE_DEPENDENCIES:
        dist_version, files = installed_files(distribution)
        wheels.append(write_wheel(out_dir, distribution, dist_version, files))
    return [wheel.name for wheel in wheels]


def _installed(distribution: str) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def copy_runtime(out_dir: Path) -> str:
    """Copy the Pyodide files the pages load into ``out_dir``; returns Pyodide's version."""
    missing = [name for name in RUNTIME_FILES if not (PYODIDE / name).is_file()]
    if missing:
        raise BundleError(
            f"{PYODIDE.relative_to(ROOT)} lacks {', '.join(missing)}: run tools/setup.sh "
            "(or npm ci in tools/browser) to install the pinned Pyodide"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        if name == "python_stdlib.zip":
            trim_stdlib(PYODIDE / name, out_dir / name)
        else:
            shutil.copyfile(PYODIDE / name, out_dir / name)
    version: str = json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    return version


def trim_stdlib(source: Path, target: Path) -> None:
    """Pyodide's standard library zip without the modules of ``STDLIB_LEFT_OUT``, each entry kept as it was."""
    with zipfile.ZipFile(source) as full, zipfile.ZipFile(target, "w") as trimmed:
        for entry in full.infolist():
            if entry.filename.split("/")[0] not in STDLIB_LEFT_OUT:
                trimmed.writestr(entry, full.read(entry), compress_type=entry.compress_type, compresslevel=9)


def build(out_dir: Path) -> dict[str, object]:
    """The whole runtime under ``out_dir``: ``pyodide/``, ``wheels/`` and ``manifest.json`` (what to load)."""
    manifest: dict[str, object] = {
        "pyodide": copy_runtime(out_dir / "pyodide"),
        "wheels": build_wheels(out_dir / "wheels"),
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path, help="the folder to write the runtime into")
    args = parser.parse_args(argv)
    try:
        manifest = build(args.out)
    except BundleError as error:
        print(f"bundle: {error}", file=sys.stderr)
        return 1
    print(f"bundle: Pyodide {manifest['pyodide']} and {len(manifest['wheels'])} wheels in {args.out}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
