"""Spec values and source quotations as page text, the same way on every page that shows them."""

from __future__ import annotations

from typing import Any

from canasta_ref.spec import SourceRef, Variant
from canasta_ref.spec.valuetext import value_text

from .markup import md


def fmt_value(value: Any) -> str:
    """A parameter value as short text, as ``canasta-ref explain`` prints it (a table as its bands)."""
    return value_text(value)


def quote_line(ref: SourceRef, variant: Variant, link: str | None) -> str:
    """“quote” — source title, section (the title linked to the page's list of sources), or the project's summary
    marked as one, without quote marks; never the quote's internal locator, which points into the project's
    research copy."""
    source = variant.sources.get(ref.source)
    title = md(source.title) if source else md(ref.source)
    where = f", {md(ref.section)}" if ref.section else ""
    cite = f"[{title}]({link})" if link else title
    if ref.summary:
        return f"{md(ref.quote)} — our summary, not a source's words: {cite}{where}"
    return f"“{md(ref.quote)}” — {cite}{where}"
