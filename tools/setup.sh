#!/usr/bin/env bash
# Create .venv (if missing) and install canasta-ref with its test tools. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test,docs]"
