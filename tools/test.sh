#!/usr/bin/env bash
# The project's checks: the test suite, ruff and mypy. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
python -m pytest
ruff check .
ruff format --check .
mypy
