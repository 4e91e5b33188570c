"""What compiling a node gives (``Code``) and what the built-in functions need of the compiler (``Builder``): kept
apart from ``codegen`` so that ``functions`` compiles its calls without importing the compiler that calls it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

from lark import Token, Tree

from .values import NOT_CONSTANT

Node = Tree[Token] | Token


@dataclass(frozen=True)
class Code:
    """A compiled node: Python text, its type, where it starts, and its value if known at load time."""

    text: str
    type: str
    line: int
    column: int
    const: Any = NOT_CONSTANT

    @property
    def is_const(self) -> bool:
        return self.const is not NOT_CONSTANT


class Builder(Protocol):
    """The compiler as the built-in functions use it (``codegen.Compiler`` is the one implementation)."""

    text: str
    variables: Mapping[str, str]
    parameters: Mapping[str, tuple[str, Any]]
    namespace: dict[str, Any]

    def fail(self, message: str, at: Node | Code) -> NoReturn: ...

    def constant(self, value: Any, type_: str, at: Node | Code) -> Code: ...

    def code(self, text: str, type_: str, at: Node | Code) -> Code: ...

    def want(self, code: Code, type_: str) -> Code: ...

    def fresh(self, prefix: str) -> str: ...

    def where(self, node: Node) -> str: ...

    def parameter(self, token: Token, ptype: str, rule: str) -> Any: ...

    def compile(self, node: Node) -> Code: ...
