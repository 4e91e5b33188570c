#!/usr/bin/env bash
# Create .venv (if missing) and install canasta-ref with its test tools. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test,docs,native]"
# Compile the engine's hot modules with mypyc (about twice as fast); without a C compiler it stays pure Python.
python tools/build_native.py || echo "setup: the compiled engine was not built; canasta-ref runs as pure Python" >&2
