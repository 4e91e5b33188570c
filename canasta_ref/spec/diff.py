"""How two variants differ, parameter by parameter and clause by clause: what ``canasta-ref diff`` prints.

A house rule is best reviewed as a difference from the variant it departs from, so the comparison is made on
the flattened variants (after ``extends``), on what bears on play and on its justification: values, enum
options, expressions, texts and the sources cited. Compiled code, file positions and which file declared a
clause are left out: they change when nothing a player would notice does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .model import Clause, Parameter, SourceRef, Variant
from .valuetext import value_text

Status = Literal["added", "removed", "changed"]

#: Fields shown as "A → B" on one line; the others (long texts) get a line for each side.
_SHORT = frozenset({"type", "value", "bounds", "section", "title", "hook", "level"})


@dataclass(frozen=True)
class Change:
    """One field that differs: its value in A and in B (JSON-ready)."""

    field: str
    a: Any
    b: Any


@dataclass(frozen=True)
class Entry:
    """A parameter or clause present in only one variant, or in both with ``changes``."""

    name: str
    status: Status
    #: A one-line description: a parameter's value, a clause's section and title (from the side that has it, B's
    #: when both do).
    about: str
    changes: tuple[Change, ...] = ()
    #: Parameters only: the clauses whose expressions read it, so a changed value can be traced to its effect.
    read_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class VariantDiff:
    """Everything that differs between variants ``a`` and ``b``, in the order it is printed."""

    a: Variant
    b: Variant
    metadata: tuple[Change, ...]
    parameters: tuple[Entry, ...]
    clauses: tuple[Entry, ...]
    #: Parameters one side restates with the other's value and form but no sources of its own (what
    #: ``canasta-ref new`` writes for every parameter): no difference in the rules, so counted, not listed.
    restated: tuple[str, ...] = ()

    @property
    def identical(self) -> bool:
        return not (self.metadata or self.parameters or self.clauses)

    def count(self, status: Status) -> int:
        """How many clauses have ``status``."""
        return sum(1 for entry in self.clauses if entry.status == status)

    @property
    def parameters_cited_otherwise(self) -> int:
        """How many parameters have the same value, form and doc in both, and differ only in the sources cited."""
        return sum(1 for entry in self.parameters if entry.changes and {c.field for c in entry.changes} == {"sources"})

    def summary(self) -> str:
        cited = self.parameters_cited_otherwise
        n, changed = len(self.parameters) - cited, self.count("changed")
        more = f" ({cited} more only in {'its' if cited == 1 else 'their'} sources)" if cited else ""
        restated = len(self.restated)
        also = (
            f"; {restated} parameter{'' if restated == 1 else 's'} restated with the same value, citing no source"
            if restated
            else ""
        )
        return (
            f"{self.a.id} → {self.b.id}: {n} parameter{'' if n == 1 else 's'} differ{'s' if n == 1 else ''}{more}, "
            f"{changed} clause{'' if changed == 1 else 's'} changed, {self.count('added')} added, "
            f"{self.count('removed')} removed{also}"
        )

    def to_json(self) -> dict[str, Any]:
        """The same content as ``lines`` as plain data, keys in a fixed order, lists in the printed order."""
        return {
            "a": _side(self.a),
            "b": _side(self.b),
            "identical": self.identical,
            "metadata": [_change_json(change) for change in self.metadata],
            "parameters": [_entry_json(entry, parameter=True) for entry in self.parameters],
            "clauses": [_entry_json(entry, parameter=False) for entry in self.clauses],
            "summary": {
                "parameters": len(self.parameters) - self.parameters_cited_otherwise,
                "parameters_cited_otherwise": self.parameters_cited_otherwise,
                "clauses_changed": self.count("changed"),
                "clauses_added": self.count("added"),
                "clauses_removed": self.count("removed"),
                "parameters_restated": list(self.restated),
                "text": self.summary(),
            },
        }

    def lines(self) -> Iterator[str]:
        """The difference for people: sections with differences only, then the one-line summary."""
        la, lb = (self.a.id, self.b.id) if self.a.id != self.b.id else ("A", "B")
        if self.metadata:
            yield "Variant"
            for change in self.metadata:
                yield from _change_lines(change, la, lb)
            yield ""
        if self.parameters:
            yield "Parameters"
            for entry in self.parameters:
                reads = f" (read by {', '.join(entry.read_by)})" if entry.read_by else ""
                yield f"  {entry.name}: {entry.about}{reads}"
                for change in entry.changes:
                    if change.field != "value":  # the first line says it already
                        yield from _change_lines(change, la, lb)
            yield ""
        if self.clauses:
            yield "Clauses"
            for entry in self.clauses:
                verb = "differs" if len(entry.changes) == 1 else "differ"
                what = f"; {', '.join(c.field for c in entry.changes)} {verb}" if entry.changes else ""
                yield f"  {entry.name} {entry.status} ({entry.about}){what}"
                for change in entry.changes:
                    yield from _change_lines(change, la, lb)
            yield ""
        yield self.summary()


def diff_variants(a: Variant, b: Variant) -> VariantDiff:
    """Compare two loaded variants; A is the one the changes are read from (``a → b``)."""
    metadata = [Change("name", a.name, b.name)] if a.name != b.name else []
    if a.sections != b.sections:
        metadata.append(Change("sections", list(a.sections), list(b.sections)))
    added = [s for s in b.sources if s not in a.sources]
    removed = [s for s in a.sources if s not in b.sources]
    if added or removed:
        metadata.append(Change("source documents", removed, added))
    entries = list(_parameter_entries(a, b))
    restated = tuple(entry.name for entry in entries if _restatement(a, b, entry))
    return VariantDiff(
        a=a,
        b=b,
        metadata=tuple(metadata),
        parameters=tuple(entry for entry in entries if entry.name not in restated),
        clauses=tuple(_clause_entries(a, b)),
        restated=restated,
    )


def _restatement(a: Variant, b: Variant, entry: Entry) -> bool:
    """Whether one side only restates the other's parameter: the same value and form, and no sources at all."""
    if not entry.changes or {change.field for change in entry.changes} != {"sources"}:
        return False
    return not a.parameters[entry.name].sources or not b.parameters[entry.name].sources


def _parameter_entries(a: Variant, b: Variant) -> Iterator[Entry]:
    clauses = {**a.clauses, **b.clauses}
    for name in _merge(list(a.parameters), list(b.parameters)):
        pa, pb = a.parameters.get(name), b.parameters.get(name)
        read_by = tuple(c.id for c in clauses.values() if name in c.parameters)
        if pa is None or pb is None:
            status: Status = "added" if pa is None else "removed"
            side, owner = (pb, b) if pa is None else (pa, a)
            assert side is not None
            yield Entry(name, status, f"only in {owner.id} ({value_text(side.value)})", read_by=read_by)
            continue
        changes = tuple(_parameter_changes(pa, pb))
        if changes:
            about = (
                f"{value_text(pa.value)} → {value_text(pb.value)}"
                if pa.value != pb.value
                else f"{value_text(pb.value)} in both"
            )
            yield Entry(name, "changed", about, changes, read_by)


def _parameter_changes(pa: Parameter, pb: Parameter) -> Iterator[Change]:
    if pa.value != pb.value:
        yield Change("value", pa.value, pb.value)
    if pa.type != pb.type:
        yield Change("type", pa.type, pb.type)
    if pa.bounds != pb.bounds:
        yield Change("bounds", _bounds(pa.bounds), _bounds(pb.bounds))
    if pa.doc != pb.doc:
        yield Change("doc", pa.doc, pb.doc)
    if dict(pa.options) != dict(pb.options):
        yield Change("options", _options(pa.options), _options(pb.options))
    if pa.sources != pb.sources:
        yield Change("sources", _refs_json(pa.sources), _refs_json(pb.sources))
    alternatives_a = [{"value": alt.value, "sources": _refs_json(alt.sources)} for alt in pa.alternatives]
    alternatives_b = [{"value": alt.value, "sources": _refs_json(alt.sources)} for alt in pb.alternatives]
    if alternatives_a != alternatives_b:
        yield Change("alternatives", alternatives_a, alternatives_b)


def _clause_entries(a: Variant, b: Variant) -> Iterator[Entry]:
    for cid in _merge(_rulebook_order(a), _rulebook_order(b)):
        ca, cb = a.clauses.get(cid), b.clauses.get(cid)
        if ca is None or cb is None:
            side = cb or ca
            assert side is not None
            yield Entry(cid, "added" if ca is None else "removed", f"{side.section}: {side.title}")
            continue
        changes = tuple(clause_changes(a, ca, b, cb))
        if changes:
            yield Entry(cid, "changed", f"{cb.section}: {cb.title}", changes)


def clause_changes(a: Variant, ca: Clause, b: Variant, cb: Clause) -> Iterator[Change]:
    """What differs between clause ``ca`` of ``a`` and ``cb`` of ``b``, texts compared as each variant words them."""
    for name in ("section", "title", "text", "hook"):
        if getattr(ca, name) != getattr(cb, name):
            yield Change(name, getattr(ca, name), getattr(cb, name))
    if _expression(ca) != _expression(cb):
        yield Change("expression", _expression(ca), _expression(cb))
    if ca.message != cb.message:
        yield Change("message", ca.message, cb.message)
    if _level(a, ca) != _level(b, cb):
        yield Change("level", _level(a, ca), _level(b, cb))
    if ca.sources != cb.sources:
        yield Change("sources", _refs_json(ca.sources), _refs_json(cb.sources))


def _expression(clause: Clause) -> str:
    """The rule as the rulebook shows it, ``kind: expression``; layout inside the expression does not count."""
    return f"{clause.kind}: {' '.join(clause.expression.split())}"


def _level(variant: Variant, clause: Clause) -> str:
    """What other engines owe the clause: a rule from a document must be followed; a convention is the
    project's own choice (implementation-defined)."""
    return "implementation-defined" if variant.is_convention(clause.id) else "must"


def _rulebook_order(variant: Variant) -> list[str]:
    """Clause ids as ``canasta-ref rules`` prints them: by section, then in spec order."""
    rank = {section: index for index, section in enumerate(variant.sections)}
    clauses = sorted(variant.clauses.values(), key=lambda c: rank.get(c.section, len(rank)))
    return [c.id for c in clauses]


def _merge(a: Sequence[str], b: Sequence[str]) -> list[str]:
    """B's order, with the names only A has put back after the name that precedes them in A."""
    order = list(b)
    known = set(order)
    position = 0
    for name in a:
        if name in known:
            position = order.index(name) + 1
        else:
            order.insert(position, name)
            position += 1
    return order


def _bounds(bounds: tuple[int, int] | None) -> list[int] | None:
    return list(bounds) if bounds is not None else None


def _options(options: Mapping[str, tuple[SourceRef, ...]]) -> dict[str, list[dict[str, str]]]:
    return {option: _refs_json(refs) for option, refs in options.items()}


def _refs_json(refs: Iterable[SourceRef]) -> list[dict[str, str]]:
    """Sources as a reader sees them; a quote's internal locator (``ref``) is left out, as every renderer does."""
    result = []
    for ref in refs:
        item = {"source": ref.source, "quote": ref.quote}
        if ref.summary:
            item["summary"] = "the project's summary, not a source's words"
        if ref.section is not None:
            item["section"] = ref.section
        if ref.note is not None:
            item["note"] = ref.note
        result.append(item)
    return result


def _cite(ref: Mapping[str, str]) -> str:
    """A citation in brief: the source id and where in it a reader looks, without the quote."""
    return f"{ref['source']} ({ref['section']})" if "section" in ref else ref["source"]


def _brief(refs: Sequence[Mapping[str, str]]) -> str:
    return ", ".join(_cite(ref) for ref in refs) or "no source"


def _change_lines(change: Change, la: str, lb: str) -> Iterator[str]:
    """A changed field, indented under its parameter or clause, in brief where the full value is long."""
    field, a, b = change.field, change.a, change.b
    if field == "sources":
        same = " (the quotes or notes differ)" if _brief(a) == _brief(b) else ""
        yield f"    sources: {la} cites {_brief(a)}; {lb} cites {_brief(b)}{same}"
    elif field == "options":
        removed, added = [o for o in a if o not in b], [o for o in b if o not in a]
        recited = [o for o in a if o in b and a[o] != b[o]]
        groups = (("removed", removed), ("added", added), ("sources differ for", recited))
        parts = [f"{label} {', '.join(names)}" for label, names in groups if names]
        yield f"    options: {'; '.join(parts)}"
    elif field == "alternatives":
        yield f"    alternatives: {la} {_alternatives(a)}; {lb} {_alternatives(b)}"
    elif field == "source documents":
        parts = [f"{label} {', '.join(names)}" for label, names in (("dropped", a), ("added", b)) if names]
        yield f"  source documents: {'; '.join(parts)}"
    elif field in _SHORT or field in ("name", "sections"):
        indent = "  " if field in ("name", "sections") else "    "
        yield f"{indent}{field}: {_value(a)} → {_value(b)}"
    else:
        yield f"    {field}:"
        yield f"      {la}: {_value(a)}"
        yield f"      {lb}: {_value(b)}"


def _alternatives(alternatives: Sequence[Mapping[str, Any]]) -> str:
    shown = [f"{value_text(alt['value'])} ({_brief(alt['sources'])})" for alt in alternatives]
    return ", ".join(shown) or "none"


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _side(variant: Variant) -> dict[str, Any]:
    return {"id": variant.id, "name": variant.name, "file": variant.file, "lineage": list(variant.lineage)}


def _change_json(change: Change) -> dict[str, Any]:
    return {"field": change.field, "a": change.a, "b": change.b}


def _entry_json(entry: Entry, *, parameter: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name" if parameter else "id": entry.name,
        "status": entry.status,
        "about": entry.about,
        "changes": [_change_json(change) for change in entry.changes],
    }
    if parameter:
        data["read_by"] = list(entry.read_by)
    return data
