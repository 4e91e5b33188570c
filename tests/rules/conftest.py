"""Make the helper modules of the rule-clause tests importable under any pytest import mode, and give each
test module the context its shared scenarios run in."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

if TYPE_CHECKING:
    from shared_scenarios import Ctx


@pytest.fixture(scope="module")
def ctx(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Ctx:
    """The scenario context of the requesting module's variant, built from its ``LOG`` (a ClauseLog)."""
    from shared_scenarios import Ctx

    log = request.module.LOG
    return Ctx(log, Path(tmp_path_factory.mktemp(f"{log.variant.id}-specs")))
