"""What a loaded, flattened variant looks like: parameters, sources and compiled rule clauses."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.hooks import HookKind
from ..errors import Location
from ..lang import Origin

ParamType = Literal["int", "bool", "str", "enum", "list", "map", "table"]


@dataclass(frozen=True)
class SourceRef:
    """Where a clause or a parameter value comes from: a source id, a short quote and optional pointers."""

    source: str
    quote: str
    #: The project's own locator of the quote in its research copy of the source (a numbered sentence, a section
    #: of its notes), read by the quote check; never shown to readers, who do not have that copy.
    ref: str | None = None
    #: What the quote does and does not support, where it supports the rule only in part.
    note: str | None = None
    #: Where a reader finds the quote in the published source: a heading, a numbered rule, a page.
    section: str | None = None
    #: The words are the project's summary of what sources say (its source is a summary, ``Source.summary``), not
    #: a source's own: readers see them as such, never in quote marks.
    summary: bool = False


@dataclass(frozen=True)
class Source:
    """A document the rules are taken from."""

    id: str
    title: str
    file: str | None = None
    url: str | None = None
    note: str | None = None
    #: The project's own convention, not a rule from a document: a clause citing only such sources is never
    #: required of other engines (its scenarios are of level implementation-defined).
    convention: bool = False
    #: The project's research notes summing up sources they do not quote: a quote citing it is the notes' own
    #: words, shown to readers as a summary, not in quote marks.
    summary: bool = False


@dataclass(frozen=True)
class Alternative:
    """A value some source gives for a non-enum parameter instead of its default."""

    value: Any
    sources: tuple[SourceRef, ...]


@dataclass(frozen=True)
class Parameter:
    """A typed, named setting; where sources disagree, an enum whose options name their sources."""

    name: str
    type: ParamType
    value: Any
    doc: str
    options: Mapping[str, tuple[SourceRef, ...]] = field(default_factory=dict)
    sources: tuple[SourceRef, ...] = ()
    declared_in: str = ""
    set_in: str = ""
    location: Location | None = None
    #: The declared range (min, max) of an int parameter, both ends included; None for the other types.
    bounds: tuple[int, int] | None = None
    #: Non-enum parameters only: the other values sources give, each with its sources (an enum's are its options).
    alternatives: tuple[Alternative, ...] = ()


#: What the engine's rule coverage records when a clause of each kind is evaluated, the holding side first.
OUTCOMES: dict[HookKind, tuple[str, ...]] = {
    "require": ("allowed", "refused"),
    "predicate": ("true", "false"),
    "value": ("evaluated",),
}


@dataclass(frozen=True)
class Written:
    """A clause's texts as its spec gives them, placeholders and all (see placeholders.py), and for each field
    (title, text, message) its text as written in the file and where that starts, to locate a bad placeholder."""

    title: str
    text: str
    message: str | None
    at: tuple[tuple[str, str, Origin], ...] = ()


@dataclass(frozen=True, kw_only=True)
class ClauseEntry:
    """One rule as its spec file gives it, checked, with its expression not yet compiled.

    ``origin`` is where the expression starts in its file, for errors found when it is compiled (again).
    """

    id: str
    section: str
    title: str
    text: str
    sources: tuple[SourceRef, ...]
    hook: str
    kind: HookKind
    expression: str
    origin: Origin
    message: str | None = None
    declared_in: str = ""
    replaces: str | None = None
    location: Location | None = None
    #: The texts before their placeholders were worded; title, text and message are worded from the variant's
    #: parameters when it is flattened (None: the texts hold no placeholders).
    written: Written | None = None


@dataclass(frozen=True, kw_only=True)
class Clause(ClauseEntry):
    """One rule: a permanent id, its text, its sources and its compiled expression."""

    evaluate: Callable[[Mapping[str, Any]], Any]
    python: str
    #: The hook variables its compiled code reads, after parameters were folded in; what cached answers are keyed
    #: on.
    reads: frozenset[str]
    parameters: tuple[str, ...]

    @property
    def fixed(self) -> bool:
        """A condition that reads no hook variable and no parameter: a fact of the variant's structure with one
        outcome (it holds), so coverage can ask only for that one."""
        return self.kind != "value" and not self.reads and not self.parameters

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcomes rule coverage must record for this clause, the one on which it holds first; a fixed
        clause has only that one."""
        outcomes = OUTCOMES[self.kind]
        return outcomes[:1] if self.fixed else outcomes

    @property
    def refusal(self) -> str:
        """The sentence shown to a player whose action this clause refuses."""
        return self.message or self.text


@dataclass(frozen=True)
class Variant:
    """A variant with ``extends`` resolved: every parameter and clause it has, in file order."""

    id: str
    name: str
    description: str
    lineage: tuple[str, ...]
    parameters: Mapping[str, Parameter]
    clauses: Mapping[str, Clause]
    sources: Mapping[str, Source]
    file: str
    sections: tuple[str, ...] = ()

    def by_hook(self, hook: str) -> tuple[Clause, ...]:
        """The clauses attached to one hook, in spec order."""
        return tuple(c for c in self.clauses.values() if c.hook == hook)

    def is_convention(self, rule: str) -> bool:
        """Whether the clause ``rule`` rests on the project's convention alone: every source it cites is one."""
        clause = self.clauses.get(rule)
        if clause is None or not clause.sources:
            return False
        return all((source := self.sources.get(ref.source)) is not None and source.convention for ref in clause.sources)

    def param(self, name: str) -> Any:
        return self.parameters[name].value
