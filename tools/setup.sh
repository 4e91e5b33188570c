#!/usr/bin/env bash
# Create .venv (if missing) and install canasta-ref with its test tools. Safe to run again: a second run with
# nothing changed only checks, in seconds (pyproject.toml's hash against a stamp; the compiled build's digests).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
. .venv/bin/activate
# The editable install depends on pyproject.toml (dependencies, entry points) and on where this checkout is;
# -I: the package must import as installed, not merely from the current folder.
stamp=.venv/.canasta-ref-installed
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) $PWD"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] || ! python -I -c "import canasta_ref" 2>/dev/null; then
  python -m pip install --quiet --upgrade pip
  python -m pip install --quiet -e ".[test,docs,native,dask]"
  echo "$wanted" >"$stamp"
fi
# The Python runtime of the site's two live pages: Pyodide from npm at the version tools/browser/package-lock.json
# pins (the site build copies the files it needs into site/). Redone only when the lock file changes.
npm_stamp=tools/browser/node_modules/.canasta-ref-installed
npm_wanted="$(sha256sum tools/browser/package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$npm_stamp" 2>/dev/null)" != "$npm_wanted" ]; then
  if command -v npm >/dev/null 2>&1; then
    (cd tools/browser && npm ci --no-audit --no-fund --loglevel=error) && echo "$npm_wanted" >"$npm_stamp"
  else
    echo "setup: npm is missing; the site cannot be built with its live pages (apt-get install -y nodejs npm)" >&2
  fi
fi
# Compile the engine's hot modules with mypyc (about twice as fast); without a C compiler it stays pure Python.
# The build is skipped while the compiled one matches the sources and this interpreter.
python tools/build_native.py || echo "setup: the compiled engine was not built; canasta-ref runs as pure Python" >&2
# The native core (canasta_ref/core/_core.c), likewise skipped while the library matches the source.
python tools/build_core.py || echo "setup: the native core was not built; canasta-ref runs on the Python engine alone" >&2
