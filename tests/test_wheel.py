"""The built wheel runs the conformance suite on its own: installed into a fresh venv, run from an empty folder.

An engine developer installs canasta-ref with pip and has no checkout: every command that reads the bundled
scenarios, deal-perft files or schemas must find the copies the wheel carries (``canasta_ref/resources.py``).
The wheel is built with pip (hatchling comes from PyPI, as the dependencies do); the commands run with no
PYTHONPATH, so nothing of this checkout can stand in for what the wheel forgot.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Variables that would let the checkout, or the venv running these tests, leak into the installed one.
LEAKY = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "CANASTA_REF_PURE")


def _environment() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name not in LEAKY}


def _run(command: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, env=_environment(), capture_output=True, text=True, timeout=timeout)
    return done


def _checked(command: list[str], cwd: Path, timeout: float = 120) -> str:
    done = _run(command, cwd, timeout)
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _checked([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(ROOT)], out)
    (built,) = out.glob("canasta_ref-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel, its dependencies and pytest (for the plugin); its bin folder."""
    home = tmp_path_factory.mktemp("venv")
    _checked([sys.executable, "-m", "venv", "--without-pip", str(home)], home)
    python = home / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel), "pytest"]
    _checked(install, home, timeout=300)
    return home / "bin"


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    """A folder with no checkout in it or above it."""
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def test_the_wheel_is_pure_and_carries_the_suite(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if "_compiled" in n or n.endswith((".so", ".pyd", ".c"))]
    data = "canasta_ref/_data/"
    scenarios = sorted(p.name for p in (ROOT / "conformance" / "scenarios").glob("*.yaml"))
    assert sorted(n.rpartition("/")[2] for n in names if n.startswith(f"{data}conformance/scenarios/")) == scenarios
    for name in ("conformance/perft/classic-seed-3.yaml", "conformance/scenario.schema.json"):
        assert f"{data}{name}" in names
    assert f"{data}conformance/not-inherited.yaml" in names
    assert f"{data}spec/classic.yaml" in names and f"{data}grammar/rules.lark" in names


def test_the_installed_package_is_the_one_running(venv: Path, empty: Path) -> None:
    where = _checked([str(venv / "python"), "-c", "import canasta_ref; print(canasta_ref.__file__)"], empty)
    assert Path(where.strip()).is_relative_to(venv.parent)


def test_the_installed_engine_runs_as_pure_python(venv: Path, empty: Path) -> None:
    out = _checked([str(venv / "canasta-ref"), "--version"], empty)
    assert out.startswith("canasta-ref ") and out.endswith(
        "\nengine: pure Python (no compiled build)\n"
        "core: Python engine only (the native core is not installed, as in a wheel)\n"
    )


def test_explain_finds_a_bundled_scenario(venv: Path, empty: Path) -> None:
    out = _checked([str(venv / "canasta-ref"), "explain", "dispute-one-card-pile", "--variant", "classic"], empty)
    assert out.startswith("Scenario dispute-one-card-pile: A dispute: holding one card, may you take a pile")
    assert "step 1 `take`: REFUSED by PILE.TAKE.ONE_CARD" in out


def test_conform_runs_bundled_scenarios(venv: Path, empty: Path) -> None:
    command = [str(venv / "canasta-ref"), "conform", "--variant", "classic-2p", "--rule", "PILE.TAKE.FROZEN"]
    out = _checked([*command, "--no-progress"], empty)
    last = out.strip().splitlines()[-1]
    passed = int(last.split(" passed")[0])
    assert passed > 0 and last.endswith(", 0 failed")


def test_coverage_reads_the_bundled_suite(venv: Path, empty: Path) -> None:
    out = _checked([str(venv / "canasta-ref"), "coverage", "--variant", "classic-2p"], empty)
    assert re.search(r"^classic-2p: (\d+) of \1 clauses covered on every side$", out, re.M), out


def test_perft_runs_a_bundled_file(venv: Path, empty: Path) -> None:
    out = _checked([str(venv / "canasta-ref"), "perft", "classic-seed-3"], empty)
    assert "perft-classic-seed-3 [classic]: passed" in out
    assert out.strip().endswith("1 passed, 0 failed")


def test_the_pytest_plugin_collects_bundled_scenarios(venv: Path, empty: Path) -> None:
    engine = f"{venv / 'canasta-ref'} serve"
    plugin = ["--canasta-impl", engine, "--canasta-variant", "classic-2p", "-k", "PILE.TAKE.FROZEN", "-v"]
    out = _checked([str(venv / "python"), "-m", "pytest", "-p", "no:cacheprovider", *plugin], empty)
    assert "canasta::" in out and "[classic-2p] PASSED" in out
    assert " failed" not in out and " passed" in out
