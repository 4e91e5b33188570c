"""Words of the project's research notes (source ``matrix``, a summary source) are shown to readers as the
project's summary, never in quote marks as if a source said them, and carry no table markup."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from canasta_ref.cli import main
from canasta_ref.render import cite_refs, source_line
from canasta_ref.spec import SourceRef, Variant, list_variants, load_variant

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

from docs_pages.spec_text import quote_line  # noqa: E402


def _refs(variant: Variant) -> list[SourceRef]:
    refs = [ref for clause in variant.clauses.values() for ref in clause.sources]
    for param in variant.parameters.values():
        refs += param.sources
        refs += [ref for option in param.options.values() for ref in option]
        refs += [ref for alternative in param.alternatives for ref in alternative.sources]
    return refs


def test_the_research_notes_are_a_summary_source_and_only_their_quotes_are_summaries() -> None:
    for name in list_variants():
        variant = load_variant(name)
        assert variant.sources["matrix"].summary and not variant.sources["pagat"].summary
        for ref in _refs(variant):
            assert ref.summary == (ref.source == "matrix"), (name, ref)


def test_a_summary_carries_no_table_row_or_emphasis() -> None:
    summaries = [ref.quote for name in list_variants() for ref in _refs(load_variant(name)) if ref.summary]
    assert len(summaries) > 20
    assert [text for text in summaries if "|" in text or "**" in text] == []


def test_a_summary_is_shown_as_one_and_a_quote_in_quote_marks() -> None:
    classic = load_variant("classic")
    summary = next(ref for ref in _refs(classic) if ref.quote == "Exact tie: not specified")
    quote = next(ref for ref in _refs(classic) if ref.source == "pagat")
    assert source_line(summary) == "source matrix (our summary, not a source's words): Exact tie: not specified"
    assert cite_refs([summary, quote]) == (
        f'matrix (our summary, not a source\'s words): Exact tie: not specified; pagat: "{quote.quote}"'
    )
    assert quote_line(summary, classic, None).startswith("Exact tie: not specified — our summary, not a source's")
    assert quote_line(quote, classic, None).startswith(f"“{quote.quote[:20]}")


def test_the_rulebook_shows_no_summary_in_quote_marks() -> None:
    out = io.StringIO()
    assert main(["rules", "modern-american"], out) == 0
    text = out.getvalue()
    assert "matrix (our summary, not a source's words): Going out … 100" in text
    assert 'matrix: "' not in text
