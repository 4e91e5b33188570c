"""tools/build_native.py compiles only when it must: tools/setup.sh runs it on every call, and mypyc takes minutes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from canasta_ref.engine import _native


@pytest.fixture
def build(load_tool: Callable[[str], ModuleType], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """build_native with its output folder in tmp_path and mypyc replaced by a fake that writes one library."""
    tool = load_tool("build_native")
    compiled = tmp_path / "_compiled"
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(_native, "COMPILED_DIR", compiled)
    monkeypatch.setattr(_native, "MANIFEST", compiled / "manifest.json")
    calls: list[Path] = []

    def fake_compile(out: Path) -> None:
        calls.append(out)
        lib = out / "lib" / "canasta_ref" / "engine"
        lib.mkdir(parents=True)
        (lib / "native.so").write_bytes(b"fake")

    monkeypatch.setattr(tool, "compile_into", fake_compile)
    tool.calls = calls  # type: ignore[attr-defined]
    return tool


def test_a_first_run_builds_and_records_its_libraries(build: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert build.main([]) == 0
    assert len(build.calls) == 1
    manifest = json.loads(_native.MANIFEST.read_text(encoding="utf-8"))
    assert manifest == {"tag": _native.build_tag(), "sources": _native.source_digests(), "libraries": ["native.so"]}
    assert "build_native: 1 libraries in _compiled" in capsys.readouterr().out


def test_a_second_run_with_nothing_changed_compiles_nothing(
    build: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    build.main([])
    capsys.readouterr()
    assert build.main([]) == 0
    assert len(build.calls) == 1
    assert capsys.readouterr().out.startswith("build_native: up to date (1 libraries for ")


def test_an_edited_source_a_lost_library_or_force_rebuilds(build: ModuleType) -> None:
    build.main([])
    manifest = json.loads(_native.MANIFEST.read_text(encoding="utf-8"))
    manifest["sources"]["engine/legal"] = "0" * 64
    _native.MANIFEST.write_text(json.dumps(manifest), encoding="utf-8")
    build.main([])
    assert len(build.calls) == 2
    (_native.COMPILED_DIR / "native.so").unlink()
    build.main([])
    assert len(build.calls) == 3
    build.main(["--force"])
    assert len(build.calls) == 4


def test_a_source_edited_while_it_is_built_leaves_the_build_stale(
    build: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The digests are those of the sources compiled: an edit made while mypyc ran once passed as built."""
    before = _native.source_digests()
    edited = {**before, "engine/legal": "0" * 64}
    answers = iter([before, edited])
    monkeypatch.setattr(_native, "source_digests", lambda: next(answers))
    assert build.main([]) == 1
    assert json.loads(_native.MANIFEST.read_text(encoding="utf-8"))["sources"] == before
    assert "edited while it was built, so the build is stale: engine/legal; run it again" in capsys.readouterr().out


def test_a_build_recorded_without_its_libraries_is_rebuilt(build: ModuleType) -> None:
    _native.COMPILED_DIR.mkdir()
    _native.MANIFEST.write_text(json.dumps({"tag": _native.build_tag(), "sources": _native.source_digests()}))
    build.main([])
    assert len(build.calls) == 1
