"""The compiled engine is used only when it was built from the sources as they are now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta_ref.engine import _native


@pytest.fixture
def manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "manifest.json"
    monkeypatch.setattr(_native, "MANIFEST", path)
    monkeypatch.delenv("CANASTA_REF_PURE", raising=False)
    return path


def _write(path: Path, tag: str, sources: dict[str, str]) -> None:
    path.write_text(json.dumps({"tag": tag, "sources": sources}), encoding="utf-8")


def test_a_current_build_is_used(manifest: Path) -> None:
    _write(manifest, _native.build_tag(), _native.source_digests())
    assert _native._status() == "compiled (mypyc)"


def test_an_edited_source_falls_back_to_pure_python(manifest: Path) -> None:
    sources = _native.source_digests()
    sources["legal"] = "0" * 64
    _write(manifest, _native.build_tag(), sources)
    assert "older than the sources" in _native._status()


def test_a_build_for_another_python_is_not_used(manifest: Path) -> None:
    _write(manifest, "cpython-39", _native.source_digests())
    assert "another Python" in _native._status()


def test_no_build_or_a_damaged_manifest_means_pure_python(manifest: Path) -> None:
    assert "no compiled build" in _native._status()
    manifest.write_text("{not json", encoding="utf-8")
    assert "no compiled build" in _native._status()


def test_pure_python_can_be_forced(manifest: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(manifest, _native.build_tag(), _native.source_digests())
    monkeypatch.setenv("CANASTA_REF_PURE", "1")
    assert "CANASTA_REF_PURE" in _native._status()


@pytest.mark.parametrize("value", ["", "0", "false", "No", "off"])
def test_pure_python_is_not_forced_by_a_value_that_says_no(
    manifest: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """``CANASTA_REF_PURE=0`` once forced pure Python too: only the variable's presence was read."""
    _write(manifest, _native.build_tag(), _native.source_digests())
    monkeypatch.setenv("CANASTA_REF_PURE", value)
    assert _native._status() == "compiled (mypyc)"


def test_the_status_matches_the_modules_loaded() -> None:
    import canasta_ref.engine.legal

    compiled = not canasta_ref.engine.legal.__file__ or not canasta_ref.engine.legal.__file__.endswith(".py")
    assert compiled == bool(_native.COMPILED), (_native.STATUS, canasta_ref.engine.legal.__file__)


def test_the_way_to_build_is_given_only_where_it_can_be_done(
    manifest: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert _native._status() == "pure Python (no compiled build: run tools/build_native.py)"  # a checkout
    monkeypatch.setattr(_native, "PACKAGE_DIR", tmp_path / "site-packages" / "canasta_ref")
    assert _native._status() == "pure Python (no compiled build)"  # an installed wheel: no tools/
