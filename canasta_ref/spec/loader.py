"""Finding, checking, flattening and caching variant specs.

``check_file`` lists every problem of a file (and of its ancestors); ``load_variant`` raises the first one,
or returns the flattened Variant, cached until a file of its lineage changes.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ..errors import Location, SpecError
from ..files import not_regular_problem, read_regular_bytes
from ..resources import spec_dir
from .clauses import compile_clauses
from .consistency import consistency_errors
from .layers import Flat, apply_layer
from .model import Clause, Variant
from .safety import control_character_errors
from .schema import schema_errors_of_text
from .staleness import stale_literals
from .unread import unread_settings
from .wording import did_you_mean, one_of
from .yamldoc import MAX_TEXT, Document, parse

_VARIANT_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True)
class _Frame:
    """A file on the way down an ``extends`` chain, kept to name and place a cycle."""

    path: Path
    id: str
    doc: Document


@dataclass(frozen=True)
class _Cached:
    stamps: tuple[tuple[Path, int], ...]
    variant: Variant


_cache: dict[Path, _Cached] = {}
_lock = threading.Lock()


def list_variants() -> list[str]:
    """The ids of the bundled variants, sorted."""
    return sorted(path.stem for path in spec_dir().glob("*.yaml"))


def check_file(path: str | os.PathLike[str]) -> list[SpecError]:
    """Every error of the spec file at ``path`` and of the variants it extends; empty when it is sound."""
    return _check(Path(path), os.fspath(path))[2]


def check_warnings(path: str | os.PathLike[str]) -> list[SpecError]:
    """The warnings of a sound spec file: clause texts that state in letters a value their parameters set
    (see staleness.py), and values set that no rule reads (see unread.py); each once, the root's file first
    (clauses are in the root's order), then by position."""
    variant = load_variant(Path(path))
    parent = load_variant(variant.lineage[-2], search_path=(Path(path).parent,)) if len(variant.lineage) > 1 else None
    warnings = [
        warning for clause in variant.clauses.values() for warning in stale_literals(clause, variant.parameters)
    ]
    warnings += unread_settings(variant, parent)
    unique = list({str(warning): warning for warning in warnings}.values())
    files = [warning.location.file for warning in unique if warning.location is not None]
    rank = {file: index for index, file in reversed(list(enumerate(files)))}
    return sorted(unique, key=lambda warning: _order(warning, rank))


def load_variant(name_or_path: str | os.PathLike[str], *, search_path: Sequence[Path] = ()) -> Variant:
    """The flattened variant named ``name_or_path`` (looked up in ``search_path``, then the bundled specs) or
    stored at that path; raises the first SpecError of the file or its ancestors."""
    path = _locate(name_or_path, search_path).resolve()
    with _lock:
        cached = _cache.get(path)
        if cached is not None and _stamps([p for p, _ in cached.stamps]) == cached.stamps:
            return cached.variant
        flat, clauses, errors = _check(path, str(path))
        if errors or flat is None:
            raise errors[0] if errors else SpecError(f"cannot load {path}")
        variant = Variant(
            id=flat.id,
            name=flat.name,
            description=flat.description,
            lineage=tuple(flat.lineage),
            parameters=MappingProxyType(dict(flat.parameters)),
            clauses=MappingProxyType(clauses),
            sources=MappingProxyType(dict(flat.sources)),
            file=flat.file,
            sections=flat.sections,
        )
        _cache[path] = _Cached(_stamps(flat.files), variant)
        return variant


def clear_cache() -> None:
    """Forget every loaded variant."""
    with _lock:
        _cache.clear()


def _stamps(files: Sequence[Path]) -> tuple[tuple[Path, int], ...]:
    result: list[tuple[Path, int]] = []
    for file in files:
        try:
            result.append((file, file.stat().st_mtime_ns))
        except OSError:
            result.append((file, -1))
    return tuple(result)


def _locate(name_or_path: str | os.PathLike[str], search_path: Sequence[Path]) -> Path:
    if isinstance(name_or_path, str) and _VARIANT_ID.fullmatch(name_or_path):
        for folder in (*search_path, spec_dir()):
            candidate = Path(folder) / f"{name_or_path}.yaml"
            if candidate.is_file():
                return candidate
        if not Path(name_or_path).is_dir():
            known = list_variants()
            hint = did_you_mean(name_or_path, known)
            raise SpecError(f"unknown variant '{name_or_path}'{hint}; expected one of: {one_of(known)}")
    path = Path(name_or_path)
    if path.is_dir():
        raise SpecError(f"{path} is a folder; give a spec file or the id of a variant")
    problem = not_regular_problem(path)
    if problem is not None:
        raise SpecError(f"{problem}; give a spec file or the id of a variant")
    if not path.is_file():
        raise SpecError(f"no spec file at {path}")
    return path


def _check(path: Path, display: str) -> tuple[Flat | None, dict[str, Clause], list[SpecError]]:
    """Analyse the whole lineage, compile the clauses if it could be read, and order the errors."""
    flat, errors = _analyse(path, display, ())
    clauses: dict[str, Clause] = {}
    if flat is not None and flat.complete:
        clauses, compile_errors = compile_clauses(flat)
        errors += compile_errors
        if not errors:
            errors += consistency_errors(flat, clauses)
    unique = list({str(error): error for error in errors}.values())
    if flat is not None:
        rank = {file: index for index, file in enumerate(flat.documents)}
        unique.sort(key=lambda error: _order(error, rank))
    return flat, clauses, unique


def _order(error: SpecError, rank: dict[str, int]) -> tuple[int, int, int]:
    """Errors without a place first, then by file from the root of the lineage down, then by position. A file
    outside the lineage's documents is an ancestor that could not be read (the child's own file always is one),
    so it ranks before them all."""
    location = error.location
    if location is None:
        return (-2, 0, 0)
    return (rank.get(location.file, -1), location.line, location.column)


def _analyse(path: Path, display: str, stack: tuple[_Frame, ...]) -> tuple[Flat | None, list[SpecError]]:
    """Read one file, then its ancestors, then lay it over them; errors of ancestors come first (``_check``
    sorts each file's errors by position)."""
    try:
        text = _read(path, display)
    except SpecError as error:
        return None, [error]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [SpecError(f"cannot read {display}: {exc}")]
    doc, errors = parse(text, display)
    if doc.data is None:
        return None, errors or [doc.error((), "the file is empty; expected a variant spec (spec, id, ...)")]
    errors += _readable(doc, schema_errors_of_text(doc, text) + control_character_errors(doc))
    if not isinstance(doc.data, dict):
        return None, errors
    parent: Flat | None = None
    parent_errors: list[SpecError] = []
    extends = doc.data.get("extends")
    if isinstance(extends, str) and _VARIANT_ID.fullmatch(extends):
        frames = (*stack, _Frame(path.resolve(), path.stem, doc))
        parent, parent_errors = _parent(doc, path, extends, frames)
    flat, own = apply_layer(doc, path, parent)
    return flat, parent_errors + errors + _readable(doc, own)


def _readable(doc: Document, errors: list[SpecError]) -> list[SpecError]:
    """``errors`` less those about values that could not be read at all: their one error says it already."""
    return [error for error in errors if error.location not in doc.unreadable]


def _read(path: Path, display: str) -> str:
    """The text of ``path``, read no further than MAX_TEXT bytes: a spec may name a huge file; a FIFO or a device
    is refused unread (NotRegularFile)."""
    data = read_regular_bytes(path, MAX_TEXT)
    if len(data) > MAX_TEXT:
        message = f"the file is too large: more than {MAX_TEXT} bytes; at most {MAX_TEXT} are read"
        raise SpecError(message, Location(display, 1, 1))
    return data.decode("utf-8")


def _parent(doc: Document, path: Path, name: str, frames: tuple[_Frame, ...]) -> tuple[Flat | None, list[SpecError]]:
    """The flattened parent named by ``extends``, or the error of it missing or of a cycle."""
    found = _find_parent(doc, path, name)
    if isinstance(found, SpecError):
        return None, [found]
    if found is None:
        message = f"variant '{name}' not found: expected {name}.yaml beside this file or in the bundled specs"
        return None, [doc.error(("extends",), message)]
    parent_path, display = found
    on_stack = [frame.path for frame in frames]
    if parent_path.resolve() in on_stack:
        start = on_stack.index(parent_path.resolve())
        cycle = " -> ".join([frame.id for frame in frames[start:]] + [frames[start].id])
        return None, [frames[start].doc.error(("extends",), f"extends cycle: {cycle}")]
    return _analyse(parent_path, display, frames)


def _find_parent(doc: Document, path: Path, name: str) -> tuple[Path, str] | SpecError | None:
    """The parent's file and how to name it, None if there is none, or the error of a parent file that links
    out of its folder (it is not read: its lines would be shown in its errors)."""
    beside = path.parent / f"{name}.yaml"
    if beside.is_file():
        if not _inside(beside, path.parent):
            message = f"{name}.yaml is a link to a file outside this spec's folder; a parent must be a file beside it"
            return doc.error(("extends",), message)
        return beside, os.path.join(os.path.dirname(doc.file), f"{name}.yaml")
    bundled = spec_dir() / f"{name}.yaml"
    if bundled.is_file():
        if not _inside(bundled, spec_dir()):
            message = f"the bundled spec {name}.yaml is a link to a file outside the bundled spec folder"
            return doc.error(("extends",), message)
        return bundled, str(bundled)
    return None


def _inside(file: Path, folder: Path) -> bool:
    """Whether ``file``, once every link is followed, lies within ``folder`` (links followed too)."""
    return file.resolve().is_relative_to(folder.resolve())
