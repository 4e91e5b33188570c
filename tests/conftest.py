"""What tests share: loading a script of ``tools/`` (not a package) as a module; a folder of its own for each
test's saved failing games (``canasta-ref conform`` keeps them, by default under the current folder)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def _load(name: str) -> ModuleType:
    """``tools/<name>.py`` as a fresh module, with ``tools/`` on the path while it loads (a tool may import its
    siblings, as it does when run as a script)."""
    sys.path.insert(0, str(TOOLS))
    try:
        spec = importlib.util.spec_from_file_location(f"{name}_under_test", TOOLS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(TOOLS))


@pytest.fixture
def load_tool() -> Callable[[str], ModuleType]:
    return _load


@pytest.fixture(autouse=True)
def saved_games_apart(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Failing games a test's campaign saves go to a folder of that test's, never into the source tree, and no
    other test replays them."""
    monkeypatch.setenv("CANASTA_REF_DIR", str(tmp_path_factory.mktemp("saved-games")))


@pytest.fixture(autouse=True)
def user_cache_apart(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec load's user cache (``canasta_ref.usercache``) in the run's own folder, shared by its workers and
    the processes its tests start, never the home of whoever runs the tests."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    monkeypatch.setenv("CANASTA_REF_CACHE", str(shared / "user-cache"))
