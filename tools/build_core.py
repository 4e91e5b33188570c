"""Compile the native core (``canasta_ref/core/_core.c``) into ``canasta_ref/core/_built/`` with setuptools.

The package loads the library only while the digest recorded here matches the C source and the interpreter (see
``canasta_ref/core/__init__.py``), so an edited source never runs a stale library. Without a C compiler or the
Python headers the build fails with one line, and everything runs on the Python engine.

    python tools/build_core.py           # build, unless the library there matches the source and this Python
    python tools/build_core.py --force   # rebuild anyway
    python tools/build_core.py --clean   # remove the library: the Python engine alone
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from build_native import build_arguments, run_setup  # noqa: E402  (a sibling script: tools/ is on the path when run)

from canasta_ref import core  # noqa: E402  (the digest and the paths live with the package)


def compile_into(out: Path) -> Path:
    """Build the extension in a child process (its output shown only on failure); the library built."""
    script = (
        "from setuptools import Extension, setup\n"
        f"ext = Extension('_core', [{str(core.SOURCE)!r}], extra_compile_args=['-O2', '-std=c11'])\n"
        "setup(name='canasta-ref-core', py_modules=[], ext_modules=[ext],\n"
        f"      script_args=['build_ext', '--build-lib', {str(out / 'lib')!r}, '--build-temp', {str(out / 'tmp')!r}])\n"
    )
    run_setup(script, "build_core: the C build failed (exit {code}); canasta-ref runs on the Python engine alone")
    built = sorted((out / "lib").glob("_core*.so")) + sorted((out / "lib").glob("_core*.pyd"))
    if not built:
        raise SystemExit("build_core: the build made no library; canasta-ref runs on Python alone")
    return built[0]


def main(argv: list[str] | None = None) -> int:
    args = build_arguments(argv, __doc__, "the built library")
    if not (args.clean or args.force) and core.stale_reason() is None:
        print(f"build_core: up to date ({core.BUILT_DIR.relative_to(ROOT)}); --force rebuilds")
        return 0
    shutil.rmtree(core.BUILT_DIR, ignore_errors=True)
    if args.clean:
        print("build_core: removed; canasta-ref runs on the Python engine alone")
        return 0
    source = core.source_digest()  # what is compiled: an edit made while the compiler runs must not pass as built
    with tempfile.TemporaryDirectory(prefix="canasta-core-") as tmp:
        library = compile_into(Path(tmp))
        core.BUILT_DIR.mkdir()
        shutil.copy2(library, core.BUILT_DIR / library.name)
    manifest = {"tag": core.build_tag(), "source": source, "library": library.name}
    core.MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"build_core: {library.name} in {core.BUILT_DIR.relative_to(ROOT)}")
    if core.source_digest() != source:
        print("build_core: the C sources were edited while it was built, so the build is stale; run it again")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
