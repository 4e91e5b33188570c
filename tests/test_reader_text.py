"""What readers see names sources as they would cite them, never the project's research files.

The specs keep an internal locator on each quote (``ref``: a numbered sentence of a stored copy, a section of the
research notes) for the quote check; readers have neither, so no command output or docs page may show one, nor a
research file's name or path. Checked on every bundled variant's rulebook, the explanation of a representative
set of scenarios (every dispute, and two of each variant's own), every generated docs page, the hand-written
pages and the README.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from canasta_ref.cli import main
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.spec import list_variants

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import gen_docs  # noqa: E402

#: What only the project's research files say: a stored copy's name (seed 000, seed-000), a sentence number of
#: it (S0#145), the research folder, the research notes' file, a stored copy's file name, a code of the notes.
#: ("seed 0" alone is a random seed of a generated game, which readers may see.)
FORBIDDEN = re.compile(r"seed[ -]?00\d|S0#|shared/|rules-matrix|\d{3}_[0-9a-f]{16}|matrix code")


def leaks(text: str) -> list[str]:
    """Each forbidden match of ``text`` with the words around it."""
    return [text[max(m.start() - 50, 0) : m.end() + 30].replace("\n", " ") for m in FORBIDDEN.finditer(text)]


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return out.getvalue()


def representative(scenarios: list[Scenario]) -> list[str]:
    """Every dispute scenario, and the first two (by id) written for each variant."""
    chosen = [s.id for s in scenarios if "dispute" in s.id]
    for variant in list_variants():
        own = sorted(s.id for s in scenarios if s.variants == (variant,))
        chosen += [sid for sid in own[:2] if sid not in chosen]
    return chosen


def test_the_forbidden_patterns_are_found() -> None:
    assert leaks("as found in seed 000 (numbered S0#n in shared/research/seed000_sentences.txt)") != []
    for text in ("source seed-000", "S0#179", "rules-matrix.md", "seeds/004_4f2c10ecae689f8b.txt", "matrix code EBB"):
        assert leaks(text) != [], text
    assert leaks("200 generated games, seed 0; deck seed 11/0") == []


@pytest.mark.parametrize("variant", list_variants())
def test_rulebook_shows_no_research_file(variant: str) -> None:
    text = run("rules", variant)
    assert "\nSources\n" in text
    assert leaks(text) == []
    assert leaks(run("rules", variant, "--json")) == []


def test_explain_shows_no_research_file() -> None:
    chosen = representative(load_scenarios())
    assert len(chosen) >= 20 and any("dispute" in sid for sid in chosen)
    found = {sid: leaks(run("explain", sid, "--variants", "all")) for sid in chosen}
    assert {sid: found for sid, found in found.items() if found} == {}


@pytest.fixture(scope="module")
def pages() -> Mapping[Path, str]:
    return gen_docs.generate()


def test_generated_pages_show_no_research_file(pages: Mapping[Path, str]) -> None:
    assert len(pages) > 100 and any(path.name == "disputes.md" for path in pages)
    found = {str(path): leaks(text) for path, text in pages.items() if leaks(text)}
    assert found == {}


def test_hand_written_pages_and_readme_show_no_research_file(pages: Mapping[Path, str]) -> None:
    written = [path for path in (ROOT / "docs").rglob("*.md") if path not in pages and "api" not in path.parts]
    assert any(path.name == "spec-format.md" for path in written)
    found = {str(path): leaks(path.read_text(encoding="utf-8")) for path in [ROOT / "README.md", *written]}
    assert {path: found for path, found in found.items() if found} == {}


HOUSE = """\
spec: 1
id: house
name: House Canasta
description: Classic, its going-out rule cited at a heading of the source.
extends: classic
rules:
  - {id: GO_OUT.CANASTAS, replaces: true, section: going-out, title: A canasta to go out, hook: go_out.allowed,
     text: A side needs a canasta to go out., require: canastas_after >= canastas_to_go_out,
     sources: [{source: pagat, ref: "internal-locator-17", section: "Going out", quote: "melded at least one canasta"}]}
"""


def test_a_quote_shows_its_section_and_never_its_internal_locator(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    rulebook, json_rules = run("rules", str(house)), run("rules", str(house), "--json")
    assert 'source pagat (Going out): "melded at least one canasta"' in rulebook
    assert '"section": "Going out"' in json_rules
    out = io.StringIO()
    assert main(["diff", "classic", str(house), "--format", "json"], out) == 1
    assert '"section": "Going out"' in out.getvalue()
    for text in (rulebook, json_rules, out.getvalue()):
        assert "internal-locator-17" not in text
