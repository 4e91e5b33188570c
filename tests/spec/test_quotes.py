"""Every quote of every bundled spec stands, word for word, in the stored document its source id points to.

The documents are the seeds and the rules matrix in the research folder ``../shared`` beside the repository
(CI has it there); without it these tests skip. Which document each source stands for is quote_sources.yaml;
quotes from pages outside them are on the reviewed list quotes_outside_sources.yaml.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from quote_check import (
    Listed,
    Problem,
    Quote,
    StoredDocument,
    check,
    load_documents,
    load_listed,
    plain,
    spec_quotes,
    stands_in,
)

from canasta_ref.resources import spec_dir

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


@dataclasses.dataclass(frozen=True)
class Bundled:
    """The quotes of all bundled specs, the sources they define and the stored documents."""

    quotes: list[Quote]
    sources: dict[str, bool]
    documents: dict[str, StoredDocument | None]

    @property
    def conventions(self) -> set[str]:
        return {source for source, convention in self.sources.items() if convention}


@pytest.fixture(scope="module")
def bundled() -> Bundled:
    if not SHARED.is_dir():
        pytest.skip(f"the research folder {SHARED} (seeds and rules matrix) is absent here; CI has it")
    quotes: list[Quote] = []
    sources: dict[str, bool] = {}
    for spec_file in sorted(spec_dir().glob("*.yaml")):
        found, defined = spec_quotes(spec_file)
        quotes.extend(found)
        sources.update(defined)
    return Bundled(quotes, sources, load_documents(SHARED))


def _report(problems: list[Problem]) -> str:
    return f"{len(problems)} problem(s):\n" + "\n".join(str(p) for p in problems)


def test_every_quote_stands_where_its_source_points(bundled: Bundled) -> None:
    assert len(bundled.quotes) > 500, "the walk over the specs finds their quotes"
    problems = check(bundled.quotes, bundled.conventions, bundled.documents, load_listed())
    assert problems == [], _report(problems)


def test_every_source_is_mapped_and_every_mapping_names_a_source(bundled: Bundled) -> None:
    unmapped = sorted(set(bundled.sources) - bundled.conventions - set(bundled.documents))
    stale = sorted(set(bundled.documents) - set(bundled.sources))
    assert unmapped == [], f"sources with no entry in quote_sources.yaml: {', '.join(unmapped)}"
    assert stale == [], f"entries of quote_sources.yaml that no spec defines: {', '.join(stale)}"


# --- the check can fail --------------------------------------------------------------------------------------------


def _standing_quote(bundled: Bundled, document: str, *, ref: bool) -> Quote:
    """A real quote of at least four words that stands in ``document`` (with a ref, or without one)."""
    for quote in bundled.quotes:
        stored = bundled.documents.get(quote.source)
        if stored is None or stored.name != document or (quote.ref is not None) != ref:
            continue
        if len(quote.text.split()) >= 4 and not check([quote], set(), bundled.documents, []):
            return quote
    raise AssertionError(f"no standing quote of {document} to mutate")


def _one_word_changed(text: str) -> str:
    """``text`` with its third word replaced by a word no source uses."""
    words = text.split(" ")
    words[2] = "zeppelin"
    return " ".join(words)


@pytest.mark.parametrize(
    ("document", "ref"),
    [
        ("seed 000", True),
        ("seed 002, GameDesire half", False),
        ("seed 002, Hoyle half", False),
        ("seed 003", False),
        ("seed 004", False),
        ("the rules matrix", False),
    ],
)
def test_a_quote_changed_by_one_word_is_reported(bundled: Bundled, document: str, ref: bool) -> None:
    real = _standing_quote(bundled, document, ref=ref)
    changed = dataclasses.replace(real, text=_one_word_changed(real.text))
    problems = check([changed], bundled.conventions, bundled.documents, [])
    assert len(problems) == 1, _report(problems)
    problem = problems[0]
    assert problem.quote == changed
    assert f"spec/{real.spec}.yaml:{real.location.line}:" in str(problem)
    assert changed.text in str(problem) and "zeppelin" in str(problem)
    assert problem.expected is not None and document in problem.expected
    assert real.ref is None or problem.expected.startswith(f"{real.ref} of seed 000")


def test_a_quote_given_another_sentence_is_reported(bundled: Bundled) -> None:
    real = _standing_quote(bundled, "seed 000", ref=True)
    other = "S0#0" if real.ref != "S0#0" else "S0#1"
    problems = check([dataclasses.replace(real, ref=other)], set(), bundled.documents, [])
    assert [p.expected for p in problems] == [f"{other} of {bundled.documents[real.source]}"]


def test_a_ref_that_names_no_part_is_reported(bundled: Bundled) -> None:
    real = _standing_quote(bundled, "the rules matrix", ref=False)
    problems = check([dataclasses.replace(real, ref="section 9.9")], set(), bundled.documents, [])
    assert len(problems) == 1 and "ref 'section 9.9' names no sentence or section" in str(problems[0])


def test_a_source_with_no_document_entry_is_reported(bundled: Bundled) -> None:
    real = _standing_quote(bundled, "seed 004", ref=False)
    problems = check([dataclasses.replace(real, source="nowhere")], set(), bundled.documents, [])
    assert len(problems) == 1 and "source 'nowhere' has no entry in quote_sources.yaml" in str(problems[0])


def test_a_convention_needs_no_document(bundled: Bundled) -> None:
    convention = next(q for q in bundled.quotes if q.source in bundled.conventions)
    assert check([convention], bundled.conventions, bundled.documents, []) == []
    assert check([convention], set(), bundled.documents, []) != []


# --- the reviewed list ---------------------------------------------------------------------------------------------


def test_a_listed_quote_passes_and_a_stale_or_found_entry_is_reported(bundled: Bundled) -> None:
    real = _standing_quote(bundled, "seed 004", ref=False)
    changed = dataclasses.replace(real, text=_one_word_changed(real.text))
    listing = Listed(1, changed.spec, changed.source, changed.text, "a test")
    assert check([changed], set(), bundled.documents, [listing]) == []

    stale = check([], set(), bundled.documents, [listing])
    assert len(stale) == 1 and stale[0].where == "quotes_outside_sources.yaml entry 1"
    assert "no spec quotes" in stale[0].what and changed.text in stale[0].what

    found = Listed(2, real.spec, real.source, real.text, "a test")
    problems = check([real], set(), bundled.documents, [found])
    assert len(problems) == 1 and "take it off the list" in str(problems[0])


def test_every_listed_entry_says_why() -> None:
    listed = load_listed()
    assert all(len(entry.why.split()) >= 4 for entry in listed), "each entry gives its reason"


# --- matching --------------------------------------------------------------------------------------------------


def test_only_whitespace_quote_marks_and_dashes_are_made_plain() -> None:
    assert plain("\u201cBlack\u201d   threes \u2013 it\u2019s\n so") == '"Black" threes - it\'s so'
    assert stands_in(plain("A, 2 \u2026 20 \u2026 K"), plain("A, 2 . . . 20 / K"))
    assert not stands_in(plain("K \u2026 A"), plain("A then K"))  # the pieces keep their order
    assert not stands_in(plain("black threes"), plain("Black threes"))  # case is not made plain
