"""``canasta-ref new``: a house variant's file restates every parameter of its parent, and check accepts it as
written and refuses an edit out of range, with the file, line and column."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from canasta_ref.cli import main
from canasta_ref.house import house_spec
from canasta_ref.spec import check_file, list_variants, load_variant


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


@pytest.mark.parametrize("parent", list_variants())
def test_a_new_house_file_is_accepted_as_written_and_plays_as_its_parent(parent: str, tmp_path: Path) -> None:
    path = tmp_path / "our-table.yaml"
    code, said = run("new", str(path), "--extends", parent)
    assert code == 0, said
    assert check_file(path) == []
    house, base = load_variant(path), load_variant(parent)
    assert house.lineage[-1] == "our-table" and parent in house.lineage
    assert {name: p.value for name, p in house.parameters.items()} == {
        name: p.value for name, p in base.parameters.items()
    }
    text = path.read_text(encoding="utf-8")
    for name in base.parameters:
        assert f"\n  {name}:\n    value: " in text, f"{name} is not restated"


def test_the_file_says_each_parameters_range_options_and_sources() -> None:
    text = house_spec(load_variant("classic"), "our-table")
    assert "  # A whole number from 3 to 20.\n  # Sources: " in text  # canasta_size
    assert "  # - forbid: hoyle-software: " in text  # one_card_pile's options with their sources
    assert "(the value here)" in text


def test_an_edited_value_plays_and_one_out_of_range_is_refused_where_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "eight.yaml"
    assert run("new", str(path), "--extends", "classic")[0] == 0
    text = path.read_text(encoding="utf-8")
    edited = text.replace("  canasta_size:\n    value: 7\n", "  canasta_size:\n    value: 8\n")
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    assert check_file(path) == []
    assert load_variant(path).param("canasta_size") == 8
    line = edited[: edited.index("  canasta_size:\n    value: 8")].count("\n") + 2
    path.write_text(edited.replace("    value: 8\n", "    value: 80\n", 1), encoding="utf-8")
    errors = [str(error) for error in check_file(path)]
    assert len(errors) == 1 and errors[0].startswith(f"{path}:{line}:"), errors
    assert "20" in errors[0]


@pytest.mark.parametrize(
    ("name", "complaint"),
    [("Our Table.yaml", "lowercase letters and digits"), ("house.yml", "ends in .yaml")],
)
def test_a_file_name_that_cannot_be_a_variant_id_is_refused(
    name: str, complaint: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("new", str(tmp_path / name))
    assert code == 2
    assert complaint in capsys.readouterr().err
    assert not (tmp_path / name).exists()


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("mine\n", encoding="utf-8")
    assert run("new", str(path))[0] == 2
    assert "exists already" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "mine\n"
    assert run("new", str(path), "--force")[0] == 0
    assert check_file(path) == []
