"""The disputes and comparison pages list every disputed parameter: an enum's options, and the alternatives of a
number, table, list or map, each value with its sources. Made with the small variant in fixtures/specs/."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "specs" / "classic-alternatives.yaml"
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import gen_docs  # noqa: E402
from docs_pages.compare import compare_page  # noqa: E402
from docs_pages.disputes import disputes_page  # noqa: E402
from docs_pages.rulebook import rulebook_page  # noqa: E402
from docs_pages.spec_text import fmt_value  # noqa: E402

from canasta_ref.conformance.explain import disputed_values  # noqa: E402
from canasta_ref.spec import load_variant  # noqa: E402

DEFAULT_TABLE = "below 0: 15; from 0: 50; from 1500: 90; from 3000: 120"
LOWER_TABLE = "below 0: 15; from 0: 30; from 1500: 90; from 3000: 120"


@pytest.fixture(scope="module")
def site() -> gen_docs.Site:
    """A site of Classic with alternatives alone, so that what the bundled specs dispute does not matter."""
    site = gen_docs.Site()
    extra = load_variant(FIXTURE)
    site.variants = {extra.id: extra}
    return site


def section(page: str, heading: str) -> str:
    start = page.index(heading)
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else len(page)]


def test_a_table_shows_as_its_bands() -> None:
    table = [{"from": None, "value": 15}, {"from": 0, "value": 30}, {"from": 1500, "value": 90}]
    assert fmt_value(table) == "below 0: 15; from 0: 30; from 1500: 90"
    assert fmt_value([{"from": None, "value": 50}]) == "always: 50"
    assert fmt_value([1, 2]) == "1, 2" and fmt_value({"a": 1}) == "a 1" and fmt_value(True) == "true"


def test_disputes_page_lists_a_tables_value_then_its_alternative(site: gen_docs.Site) -> None:
    page = disputes_page(site)
    assert "| [`initial_meld_table`](#param-initial-meld-table) | 2 |" in page
    entry = section(page, "## `initial_meld_table` {#param-initial-meld-table}")
    default = entry.index(f"**`{DEFAULT_TABLE}`** (default) — taken by [Classic with alternatives](")
    alternative = entry.index(f"**`{LOWER_TABLE}`** — taken by no variant")
    assert default < alternative
    assert "(rules/classic-alternatives.md#param-initial-meld-table)" in entry[default:alternative]
    assert "“With a score from 0 the first melds must count 50” — [" in entry[default:alternative]
    assert "“With a score from 0 the first melds must count 30” — [Canasta rules as defined by Hoyle" in entry
    assert "](rules/classic-alternatives.md#source-hoyle-software), p. 3" in entry[alternative:]
    assert "Rules that read it:" in entry and "INITIAL_MELD.MINIMUM" in entry


def test_disputes_page_lists_a_numbers_alternative(site: gen_docs.Site) -> None:
    entry = section(disputes_page(site), "## `going_out_bonus` {#param-going-out-bonus}")
    assert "**`100`** (default) — taken by [Classic with alternatives](" in entry and "“Going out earns 100”" in entry
    assert "**`200`** — taken by no variant" in entry and "“Going out earns 200”" in entry
    assert entry.index("**`100`**") < entry.index("**`200`**")


def test_a_parameter_no_source_disputes_is_left_out(site: gen_docs.Site) -> None:
    undisputed = [
        name for name, param in site.variants["classic-alternatives"].parameters.items() if not disputed_values(param)
    ]
    assert undisputed
    disputes, compare = disputes_page(site), compare_page(site)
    for name in undisputed:
        assert f"{{#param-{name.replace('_', '-')}}}" not in disputes, name
        assert f"[`{name}`](disputes.md" not in compare, name


def test_comparison_links_a_disputed_parameter_to_its_entry(site: gen_docs.Site) -> None:
    page = compare_page(site)
    assert "[`initial_meld_table`](disputes.md#param-initial-meld-table)" in page
    assert "[`going_out_bonus`](disputes.md#param-going-out-bonus)" in page
    assert "[`one_card_pile`](disputes.md#param-one-card-pile)" in page  # an enum, as before


def test_rulebook_lists_a_parameters_alternatives_after_its_sources(site: gen_docs.Site) -> None:
    page = rulebook_page(site, site.variants["classic-alternatives"])
    start = page.index('<div class="cr-param" id="param-initial-meld-table" markdown>')
    entry = page[start : page.index("</div>", start)]
    own = entry.index("“With a score from 0 the first melds must count 50”")
    other = entry.index(
        f"- `{LOWER_TABLE}`: “With a score from 0 the first melds must count 30” — [Canasta rules as defined by Hoyle"
    )
    assert own < entry.index("Other sources give another value:") < other
    assert "](#source-hoyle-software), p. 3" in entry[other:]
    assert "A number, table, list or map the sources disagree about lists" in page
