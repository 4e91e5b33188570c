"""Shared paths and helpers of the spec loader tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from canasta_ref.spec import clear_cache

BAD = Path(__file__).resolve().parent / "fixtures" / "bad"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def write_spec(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write ``<name>.yaml`` with ``text`` into a folder holding a copy of the sound ``root`` fixture."""
    (tmp_path / "root.yaml").write_text((BAD / "root.yaml").read_text())

    def write(name: str, text: str) -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        return path

    return write
