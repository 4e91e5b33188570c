#!/usr/bin/env bash
# The project's checks: the test suite, ruff and mypy. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
python -c "from canasta_ref.engine import _native; print('engine:', _native.STATUS)"
python -c "from canasta_ref import core; print('core:', core.STATUS)"
# Where a C compiler is found the native core must have been built: its tests fail rather than skip without it.
if command -v cc >/dev/null 2>&1; then export CANASTA_REF_REQUIRE_CORE=1; fi
# -n auto: one pytest worker a core (pytest-xdist); the suite is CPU-bound and its test files are independent.
# --dist loadfile: a file's tests run in order on one worker (a rules module checks last what its tests covered);
# the workers share one build of the site (tests/docs/conftest.py).
python -m pytest -n auto --dist loadfile
# The rules and engine tests once more on pure Python: the compiled build must not change a single answer.
# Without a compiled build in use the first pass already ran on pure Python. The second pass plays half the
# properties' random hands (tests/engine/test_properties.py): the first pass played them all.
if python -c "import sys; from canasta_ref.engine import _native; sys.exit(not _native.COMPILED)"; then
    CANASTA_REF_PURE=1 CANASTA_REF_SECOND_PASS=1 python -m pytest -n auto --dist loadfile -p no:cacheprovider tests/rules tests/engine
fi
ruff check .
ruff format --check .
mypy
