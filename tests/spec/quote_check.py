"""Whether each quote of the specs stands, word for word, in the stored document its source id stands for.

The specs cite their sources through four seed documents and the rules matrix, kept in the research folder
(``../shared`` beside the repository). Which document a source id stands for is this checker's own data
(``quote_sources.yaml``), not the specs' titles, which name the public pages. A quote matches after only its
whitespace, typographic quote marks and dashes are made plain; an ellipsis (…) marks words left out, so the
pieces on either side must stand in that order. A ``ref`` narrows the search: ``S0#n`` to that sentence of seed
000, ``2.5`` or ``X25`` to that section or disagreement of the matrix. Quotes from pages outside these
documents are listed, each with its reason, in ``quotes_outside_sources.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from canasta_ref.errors import Location
from canasta_ref.spec.yamldoc import NodePath, parse

HERE = Path(__file__).resolve().parent
SOURCES_FILE = HERE / "quote_sources.yaml"
OUTSIDE_FILE = HERE / "quotes_outside_sources.yaml"

_PLAIN = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015", "-"),
        "*": None,  # Markdown's emphasis in the research notes, which a quote leaves out
    }
)
ELLIPSIS = "\u2026"
#: The part of a ``ref`` that names a sentence of seed 000 (S0#157), a section of the matrix (2.5) or one of
#: its disagreements (X25); the rest of a ref ("section 2.5, Special hands") is for the reader.
_REF_KEY = re.compile(r"S0#\d+|X\d+|\b\d+(?:\.\d+)?\b")
_HEADING = re.compile(r"^(#{2,6}) (\d+(?:\.\d+)?)\.? ")
_ROW = re.compile(r"^\| (X\d+) \|")


def plain(text: str) -> str:
    """``text`` with its whitespace collapsed, its typographic quote marks and dashes made plain and its
    asterisks (emphasis) dropped."""
    return " ".join(text.translate(_PLAIN).split())


def stands_in(quote: str, text: str) -> bool:
    """Whether ``quote`` (plain) stands in ``text`` (plain), its pieces around each ellipsis in order."""
    start = 0
    for piece in (p.strip() for p in quote.split(ELLIPSIS)):
        if not piece:
            continue
        found = text.find(piece, start)
        if found < 0:
            return False
        start = found + len(piece)
    return True


@dataclass(frozen=True)
class Quote:
    """One quote as a spec file writes it."""

    spec: str
    location: Location
    path: str
    source: str
    ref: str | None
    text: str


@dataclass(frozen=True)
class StoredDocument:
    """A document quotes are checked against: its plain text and its parts a ``ref`` can name."""

    name: str
    file: str
    text: str
    parts: Mapping[str, str]

    def __str__(self) -> str:
        return f"{self.name} ({self.file})"


@dataclass(frozen=True)
class Listed:
    """An entry of the reviewed list of quotes from pages outside the stored documents."""

    number: int
    spec: str
    source: str
    quote: str
    why: str

    def matches(self, quote: Quote) -> bool:
        return (self.spec, self.source, plain(self.quote)) == (quote.spec, quote.source, plain(quote.text))


@dataclass(frozen=True)
class Problem:
    """One thing wrong: where, what, and for a quote not found, the quote and where it was looked for."""

    where: str
    what: str
    quote: Quote | None = None
    expected: str | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


class DataError(ValueError):
    """A data file of this checker that does not say what it must."""


# --- the specs' quotes -----------------------------------------------------------------------------------------


def spec_quotes(spec_file: Path) -> tuple[list[Quote], dict[str, bool]]:
    """Every quote the spec file writes, and the sources it defines (each id: whether it is a convention)."""
    display = f"spec/{spec_file.name}"
    doc, errors = parse(spec_file.read_text(encoding="utf-8"), display)
    if errors:
        raise DataError("; ".join(str(e) for e in errors))
    quotes = [
        Quote(
            spec=spec_file.stem,
            location=doc.location((*path, "quote")),
            path=_dotted(path),
            source=str(entry.get("source")),
            ref=None if entry.get("ref") is None else str(entry["ref"]),
            text=str(entry["quote"]),
        )
        for path, entry in _quoting(doc.data, ())
    ]
    sources = {
        str(source_id): isinstance(entry, dict) and entry.get("convention") is True
        for source_id, entry in (doc.data.get("sources") or {}).items()
    }
    return quotes, sources


def _quoting(data: Any, path: NodePath) -> Iterator[tuple[NodePath, dict[str, Any]]]:
    """Each mapping under ``data`` that has a ``quote``, wherever it sits, with its path."""
    if isinstance(data, dict):
        if "quote" in data:
            yield path, data
        for key, value in data.items():
            yield from _quoting(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _quoting(value, (*path, index))


def _dotted(path: NodePath) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")


# --- the stored documents ---------------------------------------------------------------------------------------


def load_documents(shared: Path, data_file: Path = SOURCES_FILE) -> dict[str, StoredDocument | None]:
    """Each source id's stored document, from ``data_file``; None for a source no stored document holds."""
    data = _yaml(data_file)
    documents = {
        name: _document(shared, data_file, name, entry) for name, entry in _mapping(data, "documents", data_file)
    }
    by_source: dict[str, StoredDocument | None] = {}
    for source_id, name in _mapping(data, "sources", data_file):
        if name is not None and name not in documents:
            raise DataError(f"{data_file.name}: source '{source_id}' names no document '{name}'")
        by_source[source_id] = None if name is None else documents[name]
    return by_source


def _document(shared: Path, data_file: Path, name: str, entry: Any) -> StoredDocument:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        raise DataError(f"{data_file.name}: document '{name}' needs a 'file' under the research folder")
    file = entry["file"]
    text = _part_between(
        (shared / file).read_text(encoding="utf-8"), entry.get("from"), entry.get("until"), f"{data_file.name}: {name}"
    )
    parts: dict[str, str] = {}
    if isinstance(entry.get("sentences"), str):
        parts.update(_numbered_sentences((shared / entry["sentences"]).read_text(encoding="utf-8")))
        file = f"{file}, sentences in {entry['sentences']}"
    if entry.get("sections") is True:
        parts.update(_sections(text))
    for marker in ("from", "until"):
        if isinstance(entry.get(marker), str):
            file = f"{file}, {marker} {entry[marker]!r}"
    return StoredDocument(name, file, plain(text), {key: plain(part) for key, part in parts.items()})


def _part_between(text: str, start: Any, stop: Any, what: str) -> str:
    """The part of ``text`` from the marker ``start`` (or its beginning) up to the marker ``stop`` (or its end)."""
    for marker in (start, stop):
        if marker is not None and text.count(marker) != 1:
            raise DataError(f"{what}: the marker {marker!r} must stand exactly once in the file")
    begin = 0 if start is None else text.index(start)
    end = len(text) if stop is None else text.index(stop)
    return text[begin:end]


def _numbered_sentences(text: str) -> dict[str, str]:
    """``S0#n`` → sentence, from lines of the form ``n sentence``."""
    sentences: dict[str, str] = {}
    for line in text.splitlines():
        number, _, sentence = line.partition(" ")
        if number.isdigit():
            sentences[f"S0#{number}"] = sentence
    return sentences


def _sections(markdown: str) -> dict[str, str]:
    """Numbered sections (``2.5`` → its text up to the next heading of its level or above) and ``| X25 |`` rows."""
    lines = markdown.splitlines()
    parts: dict[str, str] = {}
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            end = next((n for n in range(index + 1, len(lines)) if _is_heading_within(lines[n], level)), len(lines))
            parts[heading.group(2)] = "\n".join(lines[index:end])
        row = _ROW.match(line)
        if row:
            parts[row.group(1)] = line
    return parts


def _is_heading_within(line: str, level: int) -> bool:
    marks = len(line) - len(line.lstrip("#"))
    return 0 < marks <= level and line[marks : marks + 1] == " "


# --- the reviewed list ------------------------------------------------------------------------------------------


def load_listed(data_file: Path = OUTSIDE_FILE) -> list[Listed]:
    """The reviewed quotes from pages outside the stored documents, each entry checked for its four fields."""
    data = _yaml(data_file)
    if not isinstance(data, list):
        raise DataError(f"{data_file.name}: expected a list of entries with spec, source, quote and why")
    listed = []
    for number, entry in enumerate(data, start=1):
        if not _is_entry(entry):
            raise DataError(f"{data_file.name}: entry {number} must give exactly {', '.join(_FIELDS)}, each as text")
        listed.append(Listed(number, entry["spec"], entry["source"], entry["quote"], entry["why"]))
    return listed


_FIELDS = ("spec", "source", "quote", "why")


def _is_entry(entry: Any) -> bool:
    if not isinstance(entry, dict) or sorted(entry) != sorted(_FIELDS):
        return False
    return all(isinstance(entry[f], str) and entry[f].strip() for f in _FIELDS)


# --- the check --------------------------------------------------------------------------------------------------


def check(
    quotes: Sequence[Quote],
    conventions: set[str],
    documents: Mapping[str, StoredDocument | None],
    listed: Sequence[Listed],
) -> list[Problem]:
    """Every quote neither found where its source points nor on the list, and every entry of the list that is
    stale: no spec holds its quote any more, or its quote is found after all."""
    problems: list[Problem] = []
    used: set[int] = set()
    for quote in quotes:
        if quote.source in conventions:
            continue
        entry = next((e for e in listed if e.matches(quote)), None)
        problem = _problem(quote, documents)
        if entry is None:
            problems.extend([problem] if problem else [])
            continue
        used.add(entry.number)
        if problem is None:
            problems.append(_listed_but_found(entry, quote))
    problems.extend(_stale(entry) for entry in listed if entry.number not in used)
    return problems


def _problem(quote: Quote, documents: Mapping[str, StoredDocument | None]) -> Problem | None:
    """What is wrong with ``quote`` where its source points, or None if it stands there."""
    where = f"{quote.location} ({quote.path}, source {quote.source})"
    if quote.source not in documents:
        what = f"source '{quote.source}' has no entry in {SOURCES_FILE.name}; say which stored document holds it"
        return Problem(where, what, quote)
    document = documents[quote.source]
    if document is None:
        expected = f"the reviewed list {OUTSIDE_FILE.name} (source '{quote.source}' is in no stored document)"
        return Problem(where, f'quote "{quote.text}" is not on {expected}', quote, expected)
    text, expected = document.text, str(document)
    if quote.ref is not None:
        key = _REF_KEY.search(quote.ref)
        if key is None or key.group() not in document.parts:
            what = f"ref '{quote.ref}' names no sentence or section of {document}"
            return Problem(where, what, quote, expected)
        text, expected = document.parts[key.group()], f"{key.group()} of {document}"
    if stands_in(plain(quote.text), text):
        return None
    return Problem(where, f'quote "{quote.text}" is not found in {expected}', quote, expected)


def _listed_but_found(entry: Listed, quote: Quote) -> Problem:
    what = f'quote "{entry.quote}" of {entry.spec} is found where its source points; take it off the list'
    return Problem(f"{OUTSIDE_FILE.name} entry {entry.number}", what, quote)


def _stale(entry: Listed) -> Problem:
    what = f'no spec quotes "{entry.quote}" under source {entry.source} in {entry.spec} any more; take it off'
    return Problem(f"{OUTSIDE_FILE.name} entry {entry.number}", what)


# --- reading the data files -------------------------------------------------------------------------------------


def _yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise DataError(f"{path.name}: cannot read YAML: {exc}") from exc


def _mapping(data: Any, key: str, path: Path) -> Iterator[tuple[str, Any]]:
    section = data.get(key) if isinstance(data, dict) else None
    if not isinstance(section, dict):
        raise DataError(f"{path.name}: expected a mapping '{key}'")
    yield from ((str(k), v) for k, v in section.items())
