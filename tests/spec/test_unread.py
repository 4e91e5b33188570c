"""``check`` warns of a value set that no rule reads (it would change nothing), and says nothing of a value a rule
reads, of the parent's value restated, or of the seats and sides the engine itself reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref.cli import main
from canasta_ref.house import house_spec
from canasta_ref.resources import spec_dir
from canasta_ref.spec import check_warnings, load_variant
from canasta_ref.spec.unread import MECHANISM_PARAMETERS, read_parameters

HEAD = """\
spec: 1
id: our-table
name: Our table
description: A house variant.
extends: {parent}
"""


def _house(tmp_path: Path, parent: str, body: str) -> Path:
    path = tmp_path / "our-table.yaml"
    path.write_text(HEAD.format(parent=parent) + body, encoding="utf-8")
    return path


def _warnings(path: Path) -> list[str]:
    return [str(warning) for warning in check_warnings(path) if "reads parameter" in str(warning)]


def test_a_value_for_a_parameter_whose_rule_is_removed_is_warned_at_its_line(tmp_path: Path) -> None:
    path = _house(
        tmp_path, "classic", "remove: [PILE.TAKE.ONE_CARD]\nparameters:\n  one_card_pile:\n    value: forbid\n"
    )
    assert _warnings(path) == [
        f"{path}:9:12: warning: no rule of our-table reads parameter one_card_pile, so setting it to forbid changes "
        "nothing: the rules of classic that read it are removed or replaced here"
    ]


def test_the_cut_bonus_set_to_an_amount_is_warned_since_no_rule_reads_it(tmp_path: Path) -> None:
    path = _house(tmp_path, "modern-american", "parameters:\n  exact_cut_bonus:\n    value: 100\n")
    [warning] = _warnings(path)
    assert (
        "exact_cut_bonus, so setting it to 100 changes nothing: no rule of modern-american reads it either" in warning
    )


@pytest.mark.parametrize(
    ("parent", "body"),
    [
        ("classic", "parameters:\n  one_card_pile:\n    value: forbid\n"),  # PILE.TAKE.ONE_CARD reads it
        ("modern-american", "parameters:\n  exact_cut_bonus:\n    value: 0\n"),  # the parent's value restated
        ("classic", "parameters:\n  players:\n    value: 2\n  teams:\n    value: 2\n"),  # the engine reads them
    ],
    ids=["read by a rule", "restated", "read by the engine"],
)
def test_no_warning_where_the_value_can_change_the_game(tmp_path: Path, parent: str, body: str) -> None:
    assert _warnings(_house(tmp_path, parent, body)) == []


def test_check_prints_the_warning_and_still_accepts_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _house(tmp_path, "modern-american", "parameters:\n  one_card_pile:\n    value: forbid\n")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{path}: ok" and "one_card_pile" in out[0] and "warning" in out[0]


def test_no_bundled_spec_sets_a_value_no_rule_reads() -> None:
    """The bundled variants restate nothing dead: every warning would be a rule silently lost."""
    assert [warning for path in sorted(spec_dir().glob("*.yaml")) for warning in _warnings(path)] == []


def test_a_new_house_file_says_which_parameters_change_nothing() -> None:
    parent = load_variant("modern-american")
    text = house_spec(parent, "our-table")
    unread = [name for name in parent.parameters if name not in read_parameters(parent)]
    assert unread and "one_card_pile" in unread and not MECHANISM_PARAMETERS & set(unread)
    for name in unread:
        note = "  # No rule of Modern American Canasta reads this parameter: changing it changes nothing.\n"
        assert note in text.split(f"\n  {name}:\n")[0].rsplit("\n\n", 1)[-1] + "\n", name
