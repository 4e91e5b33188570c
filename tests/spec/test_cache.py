"""load_variant caches by file and the modification times of its whole lineage."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from canasta_ref.spec import clear_cache, list_variants, load_variant
from canasta_ref.spec import loader as loader_module

FAMILY = Path(__file__).resolve().parent / "fixtures" / "family"


@pytest.fixture
def family(tmp_path: Path) -> Path:
    for name in ("base", "child", "grandchild"):
        shutil.copy(FAMILY / f"{name}.yaml", tmp_path)
    return tmp_path


def bump(path: Path, text: str | None = None) -> None:
    """Rewrite (optionally) and move the modification time forward, whatever the clock's resolution."""
    if text is not None:
        path.write_text(text)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


def test_second_load_is_the_same_object(family: Path) -> None:
    first = load_variant("child", search_path=[family])
    assert load_variant("child", search_path=[family]) is first
    assert load_variant(family / "child.yaml") is first


def test_touched_file_reloads(family: Path) -> None:
    first = load_variant("child", search_path=[family])
    bump(family / "child.yaml")
    second = load_variant("child", search_path=[family])
    assert second is not first
    assert second.parameters["deal_size"].value == 15


def test_edited_parent_reloads_child(family: Path) -> None:
    first = load_variant("grandchild", search_path=[family])
    base = family / "base.yaml"
    bump(base, base.read_text().replace("natural_canastas * natural_bonus", "natural_canastas * 7"))
    second = load_variant("grandchild", search_path=[family])
    assert second is not first
    assert first.clauses["SCORE.NATURAL"].evaluate({"natural_canastas": 1}) == 600
    assert second.clauses["SCORE.NATURAL"].evaluate({"natural_canastas": 1}) == 7


def test_unrelated_file_keeps_cache(family: Path) -> None:
    first = load_variant("base", search_path=[family])
    bump(family / "child.yaml")
    assert load_variant("base", search_path=[family]) is first


def test_clear_cache(family: Path) -> None:
    first = load_variant("base", search_path=[family])
    clear_cache()
    assert load_variant("base", search_path=[family]) is not first


def test_list_variants(family: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (family / "notes.txt").write_text("not a spec")
    monkeypatch.setattr(loader_module, "spec_dir", lambda: family)
    assert list_variants() == ["base", "child", "grandchild"]


def test_bundled_parent_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = tmp_path / "bundled"
    shutil.copytree(FAMILY, bundled)
    mine = tmp_path / "mine"
    mine.mkdir()
    text = (FAMILY / "grandchild.yaml").read_text().replace("id: grandchild", "id: house")
    (mine / "house.yaml").write_text(text)
    monkeypatch.setattr(loader_module, "spec_dir", lambda: bundled)
    variant = load_variant(mine / "house.yaml")
    assert variant.lineage == ("base", "child", "house")
    assert load_variant("child").file == str(bundled / "child.yaml")
