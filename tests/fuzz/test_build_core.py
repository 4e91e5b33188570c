"""tools/build_core.py records the digest of the C sources it compiled, not of those found after the build."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from canasta_ref import core


@pytest.fixture
def build(load_tool: Callable[[str], ModuleType], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """build_core with its output folder in tmp_path and the C compiler replaced by a fake library."""
    tool = load_tool("build_core")
    built = tmp_path / "_built"
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(core, "BUILT_DIR", built)
    monkeypatch.setattr(core, "MANIFEST", built / "manifest.json")

    def fake_compile(out: Path) -> Path:
        library = out / "lib" / "_core.so"
        library.parent.mkdir(parents=True)
        library.write_bytes(b"fake")
        return library

    monkeypatch.setattr(tool, "compile_into", fake_compile)
    return tool


def test_a_build_records_the_digest_of_what_it_compiled(build: ModuleType) -> None:
    assert build.main(["--force"]) == 0
    manifest = json.loads(core.MANIFEST.read_text(encoding="utf-8"))
    assert manifest == {"tag": core.build_tag(), "source": core.source_digest(), "library": "_core.so"}


def test_a_source_edited_while_it_is_built_leaves_the_build_stale(
    build: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["before", "edited"])
    monkeypatch.setattr(core, "source_digest", lambda: next(answers))
    assert build.main(["--force"]) == 1
    assert json.loads(core.MANIFEST.read_text(encoding="utf-8"))["source"] == "before"
    assert "edited while it was built, so the build is stale; run it again" in capsys.readouterr().out
