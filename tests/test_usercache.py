"""The user's cache (``usercache``), and what keeps entries in it: Lark's tables of the rules grammar
(``lang.tables``) and the spec texts found sound by the schema (``spec.schema``). Each is tried on a hit, a miss, a
corrupt entry, the cache disabled and a folder that cannot be written; the answers are the same with and without."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from lark import Lark

from canasta_ref import usercache
from canasta_ref.lang import parser as parser_module
from canasta_ref.lang import tables
from canasta_ref.spec import check_file, clear_cache, list_variants, load_variant
from canasta_ref.spec import schema as schema_module


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of the test's own, the process's parser and loaded variants forgotten before and after."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(usercache.CACHE_ENV, str(folder))
    monkeypatch.setattr(parser_module, "_parser", None)
    clear_cache()
    yield folder
    clear_cache()


def entries(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / kind).glob("*.json")) if (folder / kind).is_dir() else []


# -- the folder ------------------------------------------------------------------------------------------------------
def test_the_folder_is_the_one_named_else_xdg_else_home_and_off_disables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/someone")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    monkeypatch.setenv(usercache.CACHE_ENV, "/mine")
    assert usercache.cache_folder() == Path("/mine")
    monkeypatch.delenv(usercache.CACHE_ENV)
    assert usercache.cache_folder() == Path("/xdg/canasta-ref")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert usercache.cache_folder() == Path("/home/someone/.cache/canasta-ref")
    monkeypatch.delenv("HOME")
    assert usercache.cache_folder() is None
    monkeypatch.setenv(usercache.CACHE_ENV, "OFF")
    assert usercache.cache_folder() is None


def test_an_entry_reads_back_and_a_damaged_one_reads_as_missing(cache: Path) -> None:
    assert usercache.read_entry("kind", "key") is None
    usercache.write_entry("kind", "key", {"a": [1, 2]})
    assert usercache.read_entry("kind", "key") == {"a": [1, 2]}
    assert [p.name for p in (cache / "kind").iterdir()] == ["key.json"]  # no temporary file left behind
    (cache / "kind" / "key.json").write_bytes(b'{"a": [1,')
    assert usercache.read_entry("kind", "key") is None
    (cache / "kind" / "key.json").write_bytes(b"\xff\xfe")
    assert usercache.read_entry("kind", "key") is None


def test_a_folder_that_cannot_be_made_is_skipped_silently(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(usercache.CACHE_ENV, str(blocker / "cache"))
    usercache.write_entry("kind", "key", [1])
    assert usercache.read_entry("kind", "key") is None


def test_digests_keep_their_parts_apart() -> None:
    assert usercache.digest("ab", "c") != usercache.digest("a", "bc")
    assert usercache.digest("ab", "c") == usercache.digest("ab", "c")


# -- Lark's tables ---------------------------------------------------------------------------------------------------
def every_expression() -> list[str]:
    return sorted({clause.expression for name in list_variants() for clause in load_variant(name).clauses.values()})


def test_tables_round_trip_through_their_tagged_json() -> None:
    value = {1: ("a", [2, None]), "b": {(3, "c"): True}}
    assert tables.untagged(json.loads(json.dumps(tables.tagged(value)))) == value
    with pytest.raises(ValueError, match="not a tagged value"):
        tables.untagged({"x": 1})


def test_a_miss_builds_and_stores_the_tables_and_a_hit_parses_alike_without_building(cache: Path) -> None:
    built = parser_module.get_parser()
    assert len(entries(cache, tables.KIND)) == 1
    grammar = parser_module.grammar_text()

    def no_build() -> Lark:
        raise AssertionError("the tables were built again on a hit")

    loaded = tables.cached_parser(grammar + parser_module._OPTIONS_KEY, no_build)
    assert loaded is not built
    texts = every_expression()
    assert len(texts) > 50
    for text in texts:
        assert loaded.parse(text) == built.parse(text), text
    with pytest.raises(Exception, match="Unexpected"):
        loaded.parse("a +")


def test_a_corrupt_entry_is_built_again_and_rewritten(cache: Path) -> None:
    parser_module.get_parser()
    (entry,) = entries(cache, tables.KIND)
    entry.write_text('{"d": [[1, 2]]}')
    grammar = parser_module.grammar_text()
    calls: list[int] = []

    def build() -> Lark:
        calls.append(1)
        return parser_module._build(grammar)

    parser = tables.cached_parser(grammar + parser_module._OPTIONS_KEY, build)
    assert calls == [1] and parser.parse("1 + 2") is not None
    assert tables.loaded(json.loads(entry.read_text())).parse("1 + 2") == parser.parse("1 + 2")  # rewritten whole


def test_another_grammar_is_a_miss(cache: Path) -> None:
    parser_module.get_parser()
    grammar = parser_module.grammar_text()
    tables.cached_parser(grammar + "\n// edited\n" + parser_module._OPTIONS_KEY, lambda: parser_module._build(grammar))
    assert len(entries(cache, tables.KIND)) == 2


def test_disabled_the_tables_are_built_and_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(usercache.CACHE_ENV, "off")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(parser_module, "_parser", None)
    assert parser_module.get_parser().parse("1 + 2") is not None
    assert list(tmp_path.iterdir()) == []


# -- spec texts found sound ------------------------------------------------------------------------------------------
def test_a_sound_spec_is_noted_and_not_validated_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_variant("fournier")
    assert len(entries(cache, schema_module.SOUND_KIND)) == 2  # fournier and classic, which it extends
    clear_cache()

    def no_validation(doc: object) -> list[object]:
        raise AssertionError("a text noted sound was validated again")

    monkeypatch.setattr(schema_module, "schema_errors", no_validation)
    again = load_variant("fournier")
    assert again is not first
    assert {c.id: c.python for c in again.clauses.values()} == {c.id: c.python for c in first.clauses.values()}
    assert {p.name: p.value for p in again.parameters.values()} == {p.name: p.value for p in first.parameters.values()}


def test_a_house_spec_edited_is_validated_again_and_its_errors_never_noted(cache: Path, tmp_path: Path) -> None:
    house = tmp_path / "our-table.yaml"
    text = "spec: 1\nid: our-table\nname: Our table\nextends: classic\n"
    house.write_text(text)
    assert check_file(house) == []
    noted = len(entries(cache, schema_module.SOUND_KIND))
    house.write_text(text + "colour: blue\n")
    errors = check_file(house)
    assert any("unknown field 'colour'" in str(error) for error in errors), errors
    assert len(entries(cache, schema_module.SOUND_KIND)) == noted
    assert [str(e) for e in check_file(house)] == [str(e) for e in errors]  # the same, validated afresh


def test_the_same_errors_with_the_cache_and_without(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    house = tmp_path / "our-table.yaml"
    house.write_text("spec: 1\nid: our-table\nname: Our table\nextends: classic\nparameters: 3\n")
    with_cache = [str(error) for error in check_file(house)]
    monkeypatch.setenv(usercache.CACHE_ENV, "off")
    monkeypatch.setattr(parser_module, "_parser", None)
    clear_cache()
    assert with_cache and [str(error) for error in check_file(house)] == with_cache
