"""A spec file read with PyYAML's safe loader, keeping every value's node so that errors can point at it.

``yaml.safe_load`` throws the positions away; composing the node graph ourselves keeps them, and lets us
catch what safe_load silently accepts (duplicate keys, keys that are not text).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import yaml

from ..errors import Location, SpecError, visible

PathKey = str | int
NodePath = tuple[PathKey, ...]


@dataclass
class Document:
    """The plain data of one YAML file plus, for each path into it, the node it came from."""

    file: str
    lines: list[str]
    data: Any = None
    nodes: dict[NodePath, yaml.Node] = field(default_factory=dict)
    keys: dict[NodePath, yaml.Node] = field(default_factory=dict)
    #: Where a value could not be built (and None stands in): later checks say nothing more about them.
    unreadable: set[Location] = field(default_factory=set)

    def node(self, path: NodePath, *, key: bool = False) -> yaml.Node | None:
        """The node at ``path`` (its key node if ``key``), or that of its nearest ancestor."""
        while True:
            found = self.keys.get(path) if key else None
            found = found or self.nodes.get(path)
            if found is not None or not path:
                return found
            path = path[:-1]

    def location(self, path: NodePath, *, key: bool = False) -> Location:
        node = self.node(path, key=key)
        if node is None:
            return Location(self.file, 1, 1)
        return self.at_mark(node.start_mark)

    def at_mark(self, mark: yaml.Mark) -> Location:
        """The 1-based location in this file of a YAML mark (which counts from 0)."""
        return Location(self.file, mark.line + 1, mark.column + 1)

    def error(self, path: NodePath, message: str, *, key: bool = False) -> SpecError:
        """A SpecError pointing at the node of ``path`` (or at its key), with the line and a caret."""
        return self.error_at(self.location(path, key=key), message)

    def error_at(self, location: Location, message: str) -> SpecError:
        return SpecError(message, location, self.snippet(location.line))

    def scalar_text(self, path: NodePath) -> ScalarText | None:
        """The source text of the scalar at ``path`` and where its first character sits.

        Block scalars (``|``, ``>``) give their lines as written, so a position inside them maps back to the
        file; a folded ``>`` scalar therefore keeps its newlines, which the rules language reads as spaces.
        """
        node = self.nodes.get(path)
        if not isinstance(node, yaml.ScalarNode):
            return None
        start = self.at_mark(node.start_mark)
        line, column = start.line, start.column
        if node.style in ("|", ">"):
            return self._block_text(node) or ScalarText(node.value, line, column, None)
        if node.style in ("'", '"'):
            return ScalarText(node.value, line, column + 1, None)
        return ScalarText(node.value, line, column, None)

    def _block_text(self, node: yaml.ScalarNode) -> ScalarText | None:
        stop = min(node.end_mark.line + 1, len(self.lines))
        first = next((n for n in range(node.start_mark.line + 1, stop) if self.lines[n].strip()), None)
        if first is None:
            return None
        indent = _indent(self.lines[first])
        body: list[str] = []
        for n in range(first, stop):
            text = self.lines[n]
            if text.strip() and _indent(text) < indent:
                break
            body.append(text[indent:])
        return ScalarText("\n".join(body).rstrip(), first + 1, indent + 1, indent + 1)

    def snippet(self, line: int) -> str | None:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1].rstrip("\r\n")
        return None


@dataclass(frozen=True)
class ScalarText:
    """A scalar's text as written, with the 1-based line and column of its first character.

    ``indent`` is set for block scalars: the column at which each of their later lines starts.
    """

    text: str
    line: int
    column: int
    indent: int | None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


# libyaml's safe loader when PyYAML was built with it: the same safe subset, several times faster to compose.
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: The longest text parse() reads: a spec or a scenario is a few tens of kilobytes.
MAX_TEXT: Final = 1 << 20
#: The deepest nesting of lists and mappings: specs nest five levels deep; the converter recurses once a level.
MAX_DEPTH: Final = 64
#: The most values a file may hold once its aliases are expanded, so that a few nested aliases cannot make
#: millions of values (a "billion laughs").
MAX_VALUES: Final = 100_000


def parse(text: str, file: str) -> tuple[Document, list[SpecError]]:
    """Compose ``text`` into a Document; a syntax error leaves ``data`` as None and is returned."""
    if len(text) > MAX_TEXT:
        message = f"the file is too large: {len(text)} characters; at most {MAX_TEXT} are read"
        return Document(file, []), [SpecError(message, Location(file, 1, 1))]
    doc = Document(file, text.splitlines())
    try:
        root = _compose(doc, text)
    except _Refused as refused:
        return doc, [refused.error]
    except yaml.reader.ReaderError as exc:
        return doc, [_reader_error(doc, text, exc)]
    except yaml.YAMLError as exc:
        return doc, [SpecError(f"cannot read YAML: {exc}", Location(file, 1, 1))]
    if root is None:
        return doc, []
    errors: list[SpecError] = []
    doc.data = _Converter(doc, errors).convert(root, ())
    return doc, errors


class _Refused(Exception):
    """A text parse() refuses, with the error that says why."""

    def __init__(self, error: SpecError) -> None:
        super().__init__(str(error))
        self.error = error


def _compose(doc: Document, text: str) -> yaml.Node | None:
    """The node graph of ``text``, by libyaml's safe loader or, when it finds a syntax error, by the pure-Python
    one: its messages are the clearer, and it reads a few texts libyaml refuses (a tab starting a folded line)."""
    try:
        return _checked_compose(doc, text, _SAFE_LOADER)
    except yaml.MarkedYAMLError:
        try:
            return _checked_compose(doc, text, yaml.SafeLoader)
        except yaml.MarkedYAMLError as exc:
            raise _Refused(_syntax_error(doc, exc)) from None


def _checked_compose(doc: Document, text: str, loader: Any) -> yaml.Node | None:
    """Compose ``text`` with ``loader`` once its event stream shows no nesting or alias expansion past the limits
    (libyaml looks ahead, so a syntax error may come before the scan is done: then it raises)."""
    problem = _shape_problem(doc, text, loader)
    if problem is not None:
        raise _Refused(problem)
    node: yaml.Node | None = yaml.compose(text, Loader=loader)
    return node


def _shape_problem(doc: Document, text: str, loader: Any) -> SpecError | None:
    """The first place where ``text`` nests too deeply or expands past MAX_VALUES through aliases, found from
    the event stream (which is read without recursion) before any node is composed."""
    sizes: dict[str, int] = {}  # anchor -> values under it, aliases expanded
    stack: list[tuple[str | None, int]] = []  # open collections: (anchor, values so far)
    total = 0
    aliased = 0  # values that aliases repeat
    for event in yaml.parse(text, Loader=loader):
        size = 0
        if isinstance(event, yaml.AliasEvent):
            if any(anchor == event.anchor for anchor, _ in stack):
                return doc.error_at(_at(doc, event), "an alias may not refer to a list or mapping that contains it")
            size = sizes.get(event.anchor or "", 1)
            aliased += size
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                message = f"lists and mappings are nested too deeply: at most {MAX_DEPTH} levels"
                return doc.error_at(_at(doc, event), message)
            stack.append((event.anchor, 1))
            continue
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionEndEvent) and stack:
            anchor, size = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
        else:
            continue
        if stack:
            stack[-1] = (stack[-1][0], stack[-1][1] + size)
        else:
            total += size
        if total + sum(count for _, count in stack) > MAX_VALUES:
            return doc.error_at(_at(doc, event), _too_many_values(aliased))
    return None


def _too_many_values(aliased: int) -> str:
    """Why a file over MAX_VALUES is refused: by its aliases, or by what it writes out itself."""
    if aliased:
        return (
            f"the file holds too many values once its aliases are expanded: at most {MAX_VALUES:,} "
            f"(lists, mappings and single values, each counted once; {aliased:,} of them repeated by aliases)"
        )
    return (
        f"the file holds too many values: at most {MAX_VALUES:,} lists, mappings and single values in all, "
        "each counted once"
    )


def _reader_error(doc: Document, text: str, exc: yaml.reader.ReaderError) -> SpecError:
    """A character YAML does not accept, at its line and column (the reader counts characters from 0)."""
    position = max(0, min(int(exc.position), len(text)))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character)
    message = f"unacceptable character {visible(char)} ({exc.reason}); YAML files must be printable text"
    return doc.error_at(Location(doc.file, line, column), message)


def _at(doc: Document, event: yaml.Event) -> Location:
    mark = event.start_mark
    return Location(doc.file, 1, 1) if mark is None else Location(doc.file, mark.line + 1, mark.column + 1)


def _syntax_error(doc: Document, exc: yaml.MarkedYAMLError) -> SpecError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or "invalid YAML"
    message = f"YAML syntax error: {problem}"
    if exc.context:
        message += f" ({exc.context}"
        if exc.context_mark is not None and exc.context_mark is not mark:
            message += f" at line {exc.context_mark.line + 1}"
        message += ")"
    if mark is None:
        return SpecError(message, Location(doc.file, 1, 1))
    return doc.error_at(doc.at_mark(mark), message)


class _Converter:
    """Builds plain Python values from nodes, recording each node under its path."""

    def __init__(self, doc: Document, errors: list[SpecError]) -> None:
        self.doc = doc
        self.errors = errors
        self.constructor = yaml.SafeLoader("")

    def convert(self, node: yaml.Node, path: NodePath) -> Any:
        self.doc.nodes[path] = node
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, (*path, i)) for i, item in enumerate(node.value)]
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:  # 40000 digits, or a date like 2025-13-45
            problem = getattr(exc, "problem", None) or str(exc)
            self.errors.append(self.doc.error(path, f"cannot read this value: {problem}"))
            self.doc.unreadable.add(self.doc.location(path))
            return None

    def _mapping(self, node: yaml.MappingNode, path: NodePath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self._scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            here = self.doc.at_mark(key_node.start_mark)
            if not isinstance(key, str):
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a collection"
                self.errors.append(
                    self.doc.error_at(here, f"keys must be text; write '{shown}' in quotes: \"{shown}\"")
                )
                continue
            if key in result:
                first = self.doc.keys[(*path, key)].start_mark.line + 1
                message = f"duplicate key '{key}' (first given at line {first})"
                self.errors.append(self.doc.error_at(here, message))
                continue
            self.doc.keys[(*path, key)] = key_node
            result[key] = self.convert(value_node, (*path, key))
        return result

    def _scalar(self, node: yaml.Node) -> Any:
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError):
            return None
