"""The package finds its data in a checkout or, installed, under canasta_ref/_data (see tests/test_wheel.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref import resources


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site-packages holding the package with its data, and no checkout around it."""
    package = tmp_path / "site-packages" / "canasta_ref"
    (package / "_data" / "conformance").mkdir(parents=True)
    (package / "_data" / "conformance" / "scenario.schema.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    monkeypatch.setattr(resources, "_REPO", package.parent)
    return package / "_data"


def test_a_checkout_reads_its_own_folders() -> None:
    root = Path(resources.__file__).resolve().parent.parent
    assert resources.scenario_dir() == root / "conformance" / "scenarios"
    assert resources.perft_dir() == root / "conformance" / "perft"
    assert resources.not_inherited_file().is_file() and resources.scenario_schema_file().is_file()


def test_an_installed_package_reads_the_copies_it_carries(installed: Path) -> None:
    assert resources.scenario_dir() == installed / "conformance" / "scenarios"
    assert resources.perft_dir() == installed / "conformance" / "perft"
    assert resources.not_inherited_file() == installed / "conformance" / "not-inherited.yaml"


def test_another_distribution_s_conformance_folder_is_not_taken_for_the_suite(installed: Path) -> None:
    (installed.parent.parent / "conformance").mkdir()  # site-packages/conformance, of some other package
    assert resources.conformance_dir() == installed / "conformance"
