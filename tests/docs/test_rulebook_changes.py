"""A rulebook's list of changes compares the texts as each variant words them: Samba's canasta rule has
Classic's title, so it rewords Classic's rule rather than 'replacing Seven cards make a canasta' by itself."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import gen_docs  # noqa: E402
from docs_pages.rulebook import changes_section  # noqa: E402


def samba_changes() -> list[str]:
    site = gen_docs.Site()
    samba = site.variants["samba"]
    return changes_section(site, samba, site.variants["classic"], site.variant_page("samba"))


def test_a_rule_with_the_parents_worded_title_rewords_it_and_never_replaces_itself() -> None:
    lines = samba_changes()
    [canasta] = [line for line in lines if "`CANASTA.SIZE`" in line]
    assert "*Seven cards make a canasta* rewords [Classic Canasta's]" in canasta
    assert "replaces" not in canasta
    for line in lines:
        if " replaces " in line:
            mine, theirs = line.split(" replaces ", 1)
            assert mine.split("*")[1] != theirs.split("*")[1], line


def test_a_rule_with_another_title_still_replaces_the_parents() -> None:
    [packs] = [line for line in samba_changes() if "`DECK.PACKS`" in line]
    assert "*Three packs* replaces [Classic Canasta's](classic.md#deck-packs) *Two packs*." in packs
