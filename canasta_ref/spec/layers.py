"""Applying one spec file on top of its parent's flattened state, checking what needs the parent to check.

The checks go on past an error wherever they can: a bad entry is reported and skipped (or, for a parameter
value, replaced by a well-typed stand-in) so that one run lists every problem of the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard, cast

from ..engine.hooks import HOOKS
from ..errors import SpecError
from ..lang import Origin
from .model import Alternative, ClauseEntry, Parameter, ParamType, Source, SourceRef, Written
from .params import PARAM_TYPES, placeholder, value_problems
from .schema import EXPRESSION_FIELDS, FIELD_OF_KIND
from .wording import did_you_mean, found, one_of
from .yamldoc import Document, NodePath


@dataclass
class Flat:
    """A variant flattened so far; ``complete`` is False when an ancestor could not be read."""

    id: str = ""
    name: str = ""
    description: str = ""
    file: str = ""
    lineage: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    documents: dict[str, Document] = field(default_factory=dict)
    sections: tuple[str, ...] = ()
    sources: dict[str, Source] = field(default_factory=dict)
    parameters: dict[str, Parameter] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    clauses: dict[str, ClauseEntry] = field(default_factory=dict)
    complete: bool = True


def apply_layer(doc: Document, path: Path, parent: Flat | None) -> tuple[Flat, list[SpecError]]:
    """Lay ``doc`` (a parsed spec whose data is a mapping) over ``parent`` (None: a root, or unknown)."""
    layer = _Layer(doc, path, parent)
    layer.run()
    return layer.flat, layer.errors


def _text(mapping: dict[str, Any], key: str, default: str | None = None) -> str | None:
    value = mapping.get(key, default)
    return value if isinstance(value, str) else default


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _restates(entry: dict[str, Any], inherited: Parameter | None, value: Any) -> bool:
    """Whether a layer only restates an inherited parameter: the parent's value, with no sources or alternatives of
    its own (as ``canasta-ref new`` writes each parameter of a house file)."""
    if inherited is None or "sources" in entry or "alternatives" in entry:
        return False
    return bool(value == inherited.value and type(value) is type(inherited.value))


def _inherit_alternatives(
    inherited: tuple[Alternative, ...], value: Any
) -> tuple[tuple[Alternative, ...], Alternative | None]:
    """A child's alternatives when it does not restate them: the parent's, less the one equal to the child's new
    value (returned apart: its sources argue for that value). The parent's own value is not added: its sources
    argued for the parent's variant, not for the child's."""
    promoted = next((alternative for alternative in inherited if alternative.value == value), None)
    return tuple(alternative for alternative in inherited if alternative is not promoted), promoted


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class _Layer:
    def __init__(self, doc: Document, path: Path, parent: Flat | None) -> None:
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.path = path
        self.is_child = "extends" in self.data
        self.errors: list[SpecError] = []
        base = parent or Flat()
        self.id = _text(self.data, "id") or path.stem
        self.parent_id = base.id
        self.flat = Flat(
            id=self.id,
            name=_text(self.data, "name", "") or "",
            description=_text(self.data, "description", "") or "",
            file=str(path),
            lineage=[*base.lineage, self.id],
            files=[*base.files, path],
            documents={**base.documents, doc.file: doc},
            sections=base.sections,
            sources=dict(base.sources),
            parameters=dict(base.parameters),
            broken=set(base.broken),
            clauses=dict(base.clauses),
            complete=base.complete and (parent is not None or not self.is_child),
        )

    @property
    def known(self) -> bool:
        """Whether everything inherited is known, so that absence from it is an error."""
        return self.flat.complete

    def error(self, path: NodePath, message: str, *, key: bool = False) -> None:
        self.errors.append(self.doc.error(path, message, key=key))

    def run(self) -> None:
        self._identity()
        self._sections()
        self._sources()
        self._parameters()
        self._rules()

    def _identity(self) -> None:
        given = self.data.get("id")
        if isinstance(given, str) and given != self.path.stem:
            self.error(("id",), f"id '{given}' must equal the file name '{self.path.stem}' (without .yaml)")

    def _sections(self) -> None:
        if self.is_child:
            if "sections" in self.data:
                message = "only the root variant lists 'sections'; this variant extends another"
                self.error(("sections",), message, key=True)
            return
        if "sections" not in self.data:
            self.error((), "a root variant must list its 'sections' in order of play")
        self.flat.sections = tuple(s for s in _list(self.data.get("sections")) if isinstance(s, str))

    def _sources(self) -> None:
        for source_id, entry in _dict(self.data.get("sources")).items():
            if source_id in self.flat.sources:
                message = f"source '{source_id}' is already defined by variant {self.parent_id}; use a new id"
                self.error(("sources", source_id), message, key=True)
                continue
            entry = _dict(entry)
            title = _text(entry, "title", "") or ""
            self.flat.sources[source_id] = Source(
                source_id,
                title,
                _text(entry, "file"),
                _text(entry, "url"),
                _text(entry, "note"),
                convention=entry.get("convention") is True,
                summary=entry.get("summary") is True,
            )

    def _refs(self, path: NodePath, refs: Any) -> tuple[SourceRef, ...]:
        """The well-formed source references at ``path``, reporting the unknown source ids."""
        result: list[SourceRef] = []
        for index, ref in enumerate(_list(refs)):
            ref = _dict(ref)
            source, quote = _text(ref, "source"), _text(ref, "quote")
            if source is None or quote is None:
                continue
            if source not in self.flat.sources:
                if self.known:
                    known = self.flat.sources
                    hint = did_you_mean(source, known)
                    message = f"unknown source '{source}'{hint}; expected one of: {one_of(known)}"
                    self.error((*path, index, "source"), message)
                continue
            summary = self.flat.sources[source].summary
            notes = _text(ref, "ref"), _text(ref, "note"), _text(ref, "section")
            result.append(SourceRef(source, quote, *notes, summary=summary))
        return tuple(result)

    def _parameters(self) -> None:
        for name, entry in _dict(self.data.get("parameters")).items():
            if isinstance(entry, dict):
                self._parameter(name, entry)

    def _parameter(self, name: str, entry: dict[str, Any]) -> None:
        path: NodePath = ("parameters", name)
        declaration = self._declaration(name, entry)
        if declaration is None:
            return
        ptype, doc, declared_in, options, bounds = declaration
        if "options" in entry and ptype != "enum":
            message = f"only enum parameters have options; {name} is of type {ptype}"
            self.error((*path, "options"), message, key=True)
        bounds = self._bounds(name, entry, ptype, bounds)
        for option, refs in _dict(entry.get("options")).items():
            options[option] = self._refs((*path, "options", option), refs)
        if "value" not in entry:
            return
        value = entry["value"]
        missing = ptype == "enum" and not options  # the schema reported the missing options
        problems = [] if missing else value_problems(name, ptype, value, options, bounds)
        for below, message, at_key in problems:
            self.error((*path, "value", *below), message, key=at_key)
        if missing or problems:
            value = placeholder(ptype, options)
            self.flat.broken.add(name)
        else:
            self.flat.broken.discard(name)
        sources = self._refs((*path, "sources"), entry.get("sources"))
        inherited = self.flat.parameters.get(name)
        set_in = self.id
        if _restates(entry, inherited, value):
            assert inherited is not None
            # the value is the parent's, with its sources: "set in" names where a reader finds them
            sources, set_in = inherited.sources, inherited.set_in
        if "alternatives" in entry:
            alternatives = self._alternatives(name, ptype, value, bool(missing or problems), entry, options, bounds)
        elif inherited is not None:
            alternatives, promoted = _inherit_alternatives(inherited.alternatives, value)
            if promoted is not None and "sources" not in entry:
                sources = promoted.sources
        else:
            alternatives = ()
        self.flat.parameters[name] = Parameter(
            name=name,
            type=ptype,
            value=value,
            doc=doc,
            options=options,
            sources=sources,
            declared_in=declared_in,
            set_in=set_in,
            location=self.doc.location((*path, "value")),
            bounds=bounds,
            alternatives=alternatives,
        )

    def _alternatives(
        self,
        name: str,
        ptype: str,
        value: Any,
        value_broken: bool,
        entry: dict[str, Any],
        options: dict[str, tuple[SourceRef, ...]],
        bounds: tuple[int, int] | None,
    ) -> tuple[Alternative, ...]:
        """The ``alternatives`` of a non-enum parameter, checked: each of the parameter's type and range, none
        equal to its value or to another, each with sources declared somewhere in the lineage."""
        path: NodePath = ("parameters", name, "alternatives")
        if ptype == "enum":
            message = f"only non-enum parameters have alternatives; {name} is an enum, so list each value a "
            message += "source gives as one of its options, with its sources"
            self.error(path, message, key=True)
            return ()
        result: list[Alternative] = []
        seen: list[tuple[int, Any]] = []
        for index, item in enumerate(_list(entry.get("alternatives"))):
            if not isinstance(item, dict) or "value" not in item:
                continue  # the schema reported it
            where = f"alternative {index + 1} of parameter {name}"
            alternative = item["value"]
            problems = value_problems(name, ptype, alternative, options, bounds)
            for below, message, at_key in problems:
                head = f"value of parameter {name}"
                if head in message:
                    message = message.replace(head, f"the value of {where}", 1)
                else:
                    message = f"{where}: {message}"
                self.error((*path, index, "value", *below), message, key=at_key)
            refs = self._refs((*path, index, "sources"), item.get("sources"))
            if problems:
                continue
            if not value_broken and alternative == value:
                message = f"{where} is {found(alternative)}, the parameter's own value; an alternative is a value "
                message += "some source gives instead of it: drop it, or cite its sources under 'sources'"
                self.error((*path, index, "value"), message)
                continue
            earlier = next((number for number, other in seen if other == alternative), None)
            if earlier is not None:
                message = f"{where} repeats alternative {earlier} ({found(alternative)}); list each value once, "
                message += "with all its sources"
                self.error((*path, index, "value"), message)
                continue
            seen.append((index + 1, alternative))
            result.append(Alternative(alternative, refs))
        return tuple(result)

    def _bounds(
        self, name: str, entry: dict[str, Any], ptype: str, inherited: tuple[int, int] | None
    ) -> tuple[int, int] | None:
        """The range of an int parameter: inherited, or declared here by ``min`` and ``max``; reports a range
        given where it cannot be (a child's override, another type) or one that is empty."""
        path: NodePath = ("parameters", name)
        given = [key for key in ("min", "max") if key in entry]
        if not given:
            return inherited
        if "type" not in entry:
            message = f"parameter {name} takes its range from variant {self.parent_id}; "
            message += "a child may change its value, not its range"
            self.error((*path, given[0]), message, key=True)
            return inherited
        if ptype != "int":
            self.error((*path, given[0]), f"only int parameters have min and max; {name} is of type {ptype}", key=True)
            return None
        low, high = entry.get("min"), entry.get("max")
        if not _is_int(low) or not _is_int(high):
            return None  # the schema reported it
        if low > high:
            self.error((*path, "min"), f"min of parameter {name} ({low}) must not be above its max ({high})")
            return None
        return low, high

    def _declaration(
        self, name: str, entry: dict[str, Any]
    ) -> tuple[ParamType, str, str, dict[str, tuple[SourceRef, ...]], tuple[int, int] | None] | None:
        """(type, doc, declaring variant, options, range) of a parameter, inherited or declared by ``entry``."""
        inherited = self.flat.parameters.get(name)
        given_type = entry.get("type")
        doc = _text(entry, "doc")
        if inherited is not None:
            if given_type is not None and given_type != inherited.type:
                message = (
                    f"parameter {name} is declared {inherited.type} by variant {inherited.declared_in}; "
                    f"a child may change its value, not its type"
                )
                self.error(("parameters", name, "type"), message)
                return None
            return (
                inherited.type,
                doc or inherited.doc,
                inherited.declared_in,
                dict(inherited.options),
                inherited.bounds,
            )
        if given_type is None:
            if self.known:
                where = f"variant {self.parent_id} has" if self.is_child else "there is"
                message = f"parameter {name} is not declared ({where} no such parameter); "
                message += "declare it with 'type' and 'doc'"
                self.error(("parameters", name), message, key=True)
            return None
        if given_type not in PARAM_TYPES:
            return None
        return cast(ParamType, given_type), doc or "", self.id, {}, None

    def _rules(self) -> None:
        removed = self._removed()
        seen: dict[str, int] = {}
        own: list[ClauseEntry] = []
        for index, rule in enumerate(_list(self.data.get("rules"))):
            rule_id = _text(_dict(rule), "id")
            if rule_id is None:
                continue
            if rule_id in seen:
                line = self.doc.location(("rules", seen[rule_id], "id")).line
                message = f"duplicate rule id {rule_id}; it is already used at line {line}"
                self.error(("rules", index, "id"), message)
                continue
            seen[rule_id] = index
            if rule_id in removed:
                message = f"rule {rule_id} is both removed and defined here; to change it, use replaces: true"
                self.error(("rules", index, "id"), message)
                continue
            clause = self._clause(index, rule)
            if clause is not None:
                own.append(clause)
        self._merge(own, removed)

    def _removed(self) -> set[str]:
        if "remove" in self.data and not self.is_child:
            self.error(("remove",), "only a variant that extends another can remove rules", key=True)
            return set()
        removed: set[str] = set()
        for index, rule_id in enumerate(_list(self.data.get("remove"))):
            if not isinstance(rule_id, str):
                continue
            if self.known and rule_id not in self.flat.clauses:
                hint = did_you_mean(rule_id, self.flat.clauses)
                message = f"cannot remove rule {rule_id}: variant {self.parent_id} has no such rule{hint}"
                self.error(("remove", index), message)
                continue
            removed.add(rule_id)
        return removed

    def _clause(self, index: int, rule: dict[str, Any]) -> ClauseEntry | None:
        path: NodePath = ("rules", index)
        rule_id = str(rule["id"])
        replaces = self._replaces(path, rule_id, rule)
        section, hook = _text(rule, "section"), _text(rule, "hook")
        if section is not None and self.known and self.flat.sections and section not in self.flat.sections:
            hint = did_you_mean(section, self.flat.sections)
            sections = ", ".join(self.flat.sections)
            message = f"unknown section '{section}' in rule {rule_id}{hint}; expected one of: {sections}"
            self.error((*path, "section"), message)
            section = None
        sources = self._refs((*path, "sources"), rule.get("sources"))
        if hook is None:
            return None
        if hook not in HOOKS:
            hint = did_you_mean(hook, HOOKS)
            message = f"unknown hook '{hook}' in rule {rule_id}{hint}; `canasta-ref hooks` lists them"
            self.error((*path, "hook"), message)
            return None
        kind = HOOKS[hook].kind
        present = [name for name in EXPRESSION_FIELDS if name in rule]
        if len(present) != 1:
            return None
        expected = FIELD_OF_KIND[kind]
        if present[0] != expected:
            used = present[0]
            message = f"hook {hook} is a {kind} hook, so rule {rule_id} takes '{expected}', not '{used}'"
            self.error((*path, present[0]), message, key=True)
            return None
        expression = self.doc.scalar_text((*path, expected))
        title, text = _text(rule, "title"), _text(rule, "text")
        if expression is None or section is None or title is None or text is None:
            return None
        return ClauseEntry(
            id=rule_id,
            section=section,
            title=title,
            text=text,
            sources=sources,
            hook=hook,
            kind=kind,
            expression=expression.text,
            origin=Origin(self.doc.file, expression.line, expression.column, expression.indent),
            message=_text(rule, "message"),
            declared_in=self.id,
            replaces=replaces,
            location=self.doc.location((*path, "id")),
            written=Written(title, text, _text(rule, "message"), self._text_origins(path)),
        )

    def _text_origins(self, path: NodePath) -> tuple[tuple[str, str, Origin], ...]:
        """Where each text of the rule at ``path`` starts, with its text as written, to locate its placeholders."""
        found: list[tuple[str, str, Origin]] = []
        for name in ("title", "text", "message"):
            scalar = self.doc.scalar_text((*path, name))
            if scalar is not None:
                origin = Origin(self.doc.file, scalar.line, scalar.column, scalar.indent)
                found.append((name, scalar.text, origin))
        return tuple(found)

    def _replaces(self, path: NodePath, rule_id: str, rule: dict[str, Any]) -> str | None:
        """The parent id if this clause replaces the parent's; reports a missing or pointless ``replaces``."""
        wants = rule.get("replaces") is True
        if not self.is_child:
            if "replaces" in rule:
                message = f"rule {rule_id} has nothing to replace: this variant extends none; drop 'replaces'"
                self.error((*path, "replaces"), message, key=True)
            return None
        if not self.known:
            return self.parent_id if wants else None
        exists = rule_id in self.flat.clauses
        if exists and not wants:
            message = f"rule {rule_id} is already defined by variant {self.parent_id}; to replace it, add "
            message += "'replaces: true'"
            self.error((*path, "id"), message)
        elif wants and not exists:
            hint = did_you_mean(rule_id, self.flat.clauses)
            message = f"rule {rule_id} has 'replaces: true' but variant {self.parent_id} has no such rule"
            message += hint
            self.error((*path, "replaces"), message, key=True)
        return self.parent_id if exists and wants else None

    def _merge(self, own: list[ClauseEntry], removed: set[str]) -> None:
        """Parent order kept, replacements in place, removals dropped, additions appended."""
        replacing = {clause.id: clause for clause in own if clause.replaces is not None}
        merged: dict[str, ClauseEntry] = {}
        for clause_id, clause in self.flat.clauses.items():
            if clause_id not in removed:
                merged[clause_id] = replacing.get(clause_id, clause)
        for clause in own:
            merged.setdefault(clause.id, clause)
        self.flat.clauses = merged
