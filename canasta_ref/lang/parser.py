"""Parse rule expressions with the Lark grammar, and turn Lark's errors into SpecErrors in plain English."""

from __future__ import annotations

from typing import Any, Final

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..errors import SpecError
from ..resources import grammar_dir
from . import wording
from .origin import Origin
from .tables import cached_parser

#: The deepest nesting of an expression (parentheses, 'not', 'if', calls, lists; a chain such as ``a + b + c``
#: is one level): the compiler walks it recursively and Python refuses 200 nested parentheses in its code.
MAX_DEPTH: Final = 64
#: The most terms of one chain of ``+``/``-``, ``*``, ``and`` or ``or``: Python's own compiler recurses on them.
MAX_CHAIN: Final = 500
#: The most digits of a number (as codegen.MAX_DIGITS, which checks the numbers it folds).
MAX_DIGITS: Final = 18

_CHAINS: Final[dict[str, str]] = {"add": "sum", "sub": "sum", "mul": "product", "and_": "and", "or_": "or"}

#: The most entries a cache keyed by expression text keeps (a few variants' worth many times over); beyond it,
#: the cache starts again, so that a long-running process does not grow without bound.
CACHE_LIMIT: Final = 20_000

_parser: Lark | None = None
_parsed: dict[str, tuple[Tree[Token], tuple[Token, ...]]] = {}

#: Hints for characters the lexer cannot read, keyed by the character.
_CHAR_HINTS: Final[dict[str, str]] = {
    '"': "a string must be closed with '\"' on the same line",
    "'": 'strings are written in double quotes, as in "K"',
    "=": "use '==' to compare",
    "!": "use 'not' to negate, or '!=' to compare",
    "&": "use 'and'",
    "|": "use 'or'",
    "/": "the rules language has no division",
}


def get_parser() -> Lark:
    """The one LALR parser of the process, built on first use from the tables cached by ``tables`` (building them
    takes a tenth of a second, reading them a few milliseconds)."""
    global _parser
    if _parser is None:
        grammar = grammar_text()
        _parser = cached_parser(grammar + _OPTIONS_KEY, lambda: _build(grammar))
    return _parser


def grammar_text() -> str:
    """The rules language's grammar, as Lark reads it."""
    return (grammar_dir() / "rules.lark").read_text(encoding="utf-8")


def _build(grammar: str) -> Lark:
    return Lark(grammar, **_OPTIONS)


#: How the parser is built; part of its cache key, so that a change of them is a miss.
_OPTIONS: Final[dict[str, Any]] = {
    "parser": "lalr",
    "lexer": "basic",  # keywords must never be read as names, whatever the parser state
    "propagate_positions": True,
    "maybe_placeholders": True,
}
_OPTIONS_KEY: Final = "\n# options: " + repr(sorted(_OPTIONS.items()))


def parse_expression(text: str, origin: Origin) -> Tree[Token]:
    """The parse tree of ``text``; a syntax error raises SpecError located in the file ``origin`` names."""
    try:
        tree = get_parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(text, origin, exc) from None
    _check_size(tree, text, origin)
    return tree


def _check_size(tree: Tree[Token], text: str, origin: Origin) -> None:
    """Refuse, at the node that goes too far, an expression nested deeper than MAX_DEPTH, a chain longer than
    MAX_CHAIN or a number longer than MAX_DIGITS; walked without recursion, as the tree may be deep."""
    pending: list[tuple[Tree[Token], int, bool]] = [(tree, 1, False)]
    while pending:
        node, depth, in_chain = pending.pop()
        family = _CHAINS.get(str(node.data))
        problem = _size_problem(node, depth, family is not None and not in_chain)
        if problem is not None:
            raise origin.error(text, problem, node.meta.line, node.meta.column)
        for index, child in reversed(list(enumerate(node.children))):  # the leftmost child is taken first
            if isinstance(child, Tree):
                continues = index == 0 and family is not None and _CHAINS.get(str(child.data)) == family
                pending.append((child, depth if continues else depth + 1, continues))


def _size_problem(node: Tree[Token], depth: int, chain_head: bool) -> str | None:
    if depth > MAX_DEPTH:
        return f"the expression is nested too deeply (more than {MAX_DEPTH} levels); simplify it or split the rule"
    if node.data == "number" and len(str(node.children[0])) > MAX_DIGITS:
        digits = len(str(node.children[0]))
        return f"this number has {digits} digits; numbers in rules have at most {MAX_DIGITS}"
    if chain_head:
        family, terms = _CHAINS[str(node.data)], 1
        link: Tree[Token] | Token = node
        while isinstance(link, Tree) and _CHAINS.get(str(link.data)) == family:
            terms, link = terms + 1, link.children[0]
        if terms > MAX_CHAIN:
            return f"this chain has {terms} terms; at most {MAX_CHAIN} are allowed (split it with parentheses)"
    return None


def parse_cached(text: str, origin: Origin) -> tuple[Tree[Token], tuple[Token, ...]]:
    """The parse tree of ``text`` and its names of variables or parameters (function names excluded), in
    text order; both are shared between calls, so callers must not modify the tree. Raises as parse_expression.
    """
    parsed = _parsed.get(text)
    if parsed is None:
        if len(_parsed) >= CACHE_LIMIT:
            _parsed.clear()
        tree = parse_expression(text, origin)
        parsed = _parsed[text] = (tree, _mentioned(tree))
    return parsed


def _mentioned(tree: Tree[Token]) -> tuple[Token, ...]:
    found: list[Token] = []
    for node in tree.iter_subtrees():
        if node.data in ("name", "subscript"):
            token = node.children[0]
            assert isinstance(token, Token)
            found.append(token)
    return tuple(sorted(found, key=lambda token: (token.line or 0, token.column or 0)))


def _accepted(exc: UnexpectedInput) -> set[str]:
    parser = getattr(exc, "interactive_parser", None)
    if parser is None:  # pragma: no cover - Lark attaches one to every LALR error
        return set(getattr(exc, "expected", ()) or ())
    return {name for name in parser.accepts() if name in wording.TERMINALS}


def _syntax_error(text: str, origin: Origin, exc: UnexpectedInput) -> SpecError:
    accepted = _accepted(exc)
    expected = f"expected {wording.expected(accepted)}" if accepted else ""
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char
        message = f"unexpected character '{char}'"
        hint = _CHAR_HINTS.get(char)
        if hint is None and char.isalpha() and char.isupper():
            hint = "names and keywords are written in lower case"
        parts = [message, hint or expected]
        return origin.error(text, "; ".join(p for p in parts if p), exc.line, exc.column)
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    if token.type == "$END":
        line, column = _end_position(text, token)
        head = "empty expression" if _is_blank(text) else "unexpected end of expression"
        return origin.error(text, f"{head}; {expected}" if expected else head, line, column)
    message = f"unexpected {wording.token_name(token)}"
    hint = _token_hint(token.type, accepted)
    return origin.error(text, "; ".join(p for p in (message, hint or expected) if p), token.line, token.column)


def _token_hint(kind: str, accepted: set[str]) -> str | None:
    """A plainer explanation for the few mistakes that a bare 'expected ...' list explains badly."""
    if kind in wording.COMPARISONS and "PLUS" in accepted and "EQ" not in accepted:
        return "comparisons cannot be chained; join them with 'and'"
    if kind == "IF" and "INT" in accepted:
        return "an 'if' inside a larger expression must be in parentheses"
    if kind == "NOT" and "INT" in accepted:
        return "'not' inside a comparison or a sum must be in parentheses"
    return None


def _is_blank(text: str) -> bool:
    return not any(line.split("#", 1)[0].strip() for line in text.split("\n"))


def _end_position(text: str, token: Token) -> tuple[int, int]:
    """Just after the last token: Lark puts the end marker at the start of the last token."""
    line = getattr(token, "end_line", None)
    column = getattr(token, "end_column", None)
    if not isinstance(line, int) or not isinstance(column, int) or _is_blank(text):
        return 1, 1
    return line, column
