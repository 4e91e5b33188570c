"""Compile the engine's hot modules with mypyc into ``canasta_ref/engine/_compiled/`` (see ``engine/_native.py``).

mypyc compiles the same type-annotated source to C (as mypy and black ship themselves): about twice the speed
of the interpreter with no second implementation to keep in step. The package uses the result only while the
recorded source digests match, so a stale build can never run. Needs a C compiler and the Python headers;
without them the package simply stays pure Python.

    python tools/build_native.py           # build, unless the build there matches the sources and this Python
    python tools/build_native.py --force   # rebuild anyway
    python tools/build_native.py --clean   # remove the build: pure Python
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canasta_ref.engine import _native  # noqa: E402  (the module list and digests live with the package)


def compile_into(out: Path) -> None:
    """Run mypyc and the C compiler in a child process, so their output is shown only when they fail."""
    sources = [f"canasta_ref/engine/{name}.py" for name in _native.MODULES]
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"ext = mypycify({sources!r}, opt_level='3', group_name='canasta_ref.engine._native',\n"
        f"               target_dir={str(out / 'c')!r})\n"
        "setup(name='canasta-ref-native', packages=[], py_modules=[], ext_modules=ext,\n"
        f"      script_args=['build_ext', '--build-lib', {str(out / 'lib')!r}, '--build-temp', {str(out / 'tmp')!r}])\n"
    )
    run_setup(script, "build_native: mypyc failed (exit {code}); the package stays pure Python")


def build_arguments(argv: list[str] | None, doc: str | None, built: str) -> argparse.Namespace:
    """The options of a build script (this one and tools/build_core.py): --clean and --force, about ``built``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--clean", action="store_true", help=f"remove {built}")
    parser.add_argument("--force", action="store_true", help=f"rebuild even when {built} in place is current")
    return parser.parse_args(argv)


def run_setup(script: str, failure: str) -> None:
    """Run a setuptools build ``script`` in a child process, showing its output only when it fails, and then
    stopping with ``failure`` (its ``{code}``: the exit status). tools/build_core.py builds the same way."""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(failure.format(code=done.returncode))


def current_build() -> list[str] | None:
    """The libraries of the build in place, when it matches the sources and this interpreter and each library
    it recorded is there; None when it must be built (mypyc takes minutes: tools/setup.sh runs this each time)."""
    manifest = _native.read_manifest()
    libraries = manifest.get("libraries") if manifest else None
    if _native.stale_reason() or not isinstance(libraries, list) or not libraries:
        return None
    names = [str(name) for name in libraries]
    return names if all((_native.COMPILED_DIR / name).is_file() for name in names) else None


def main(argv: list[str] | None = None) -> int:
    args = build_arguments(argv, __doc__, "the compiled build")
    built_already = None if args.clean or args.force else current_build()
    if built_already:
        print(f"build_native: up to date ({len(built_already)} libraries for {_native.build_tag()}); --force rebuilds")
        return 0
    shutil.rmtree(_native.COMPILED_DIR, ignore_errors=True)
    if args.clean:
        print("build_native: removed; the package runs as pure Python")
        return 0
    sources = _native.source_digests()  # what is compiled: an edit made while mypyc runs must not pass as built
    with tempfile.TemporaryDirectory(prefix="canasta-native-") as tmp:
        out = Path(tmp)
        compile_into(out)
        built = sorted((out / "lib" / "canasta_ref" / "engine").glob("*.so"))
        _native.COMPILED_DIR.mkdir()
        for library in built:
            shutil.copy2(library, _native.COMPILED_DIR / library.name)
    libraries = [library.name for library in built]
    manifest = {"tag": _native.build_tag(), "sources": sources, "libraries": libraries}
    _native.MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"build_native: {len(built)} libraries in {_native.COMPILED_DIR.relative_to(ROOT)}")
    edited = sorted(path for path, digest in _native.source_digests().items() if sources.get(path) != digest)
    if edited:
        print(f"build_native: edited while it was built, so the build is stale: {', '.join(edited)}; run it again")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
