"""Type-check a parse tree and generate Python source for it in one pass, folding parameters into constants.

Every node becomes a ``Code``: Python text, a type of the language and, when it is known at load time, its
value. Folding happens node by node, so ``min_count + 1`` with ``min_count = 3`` becomes ``4`` and
``allow_x and size > 3`` with ``allow_x = false`` becomes ``False``; the engine then pays only for what
really depends on the game.
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn

from lark import Token, Tree

from . import functions
from .code import Code, Node
from .origin import Origin
from .values import kind_of, literal, param_type_name
from .wording import type_name

_ARITHMETIC: Final[dict[str, Callable[[int, int], int]]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
}
_ORDERING: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_SCALARS: Final[frozenset[str]] = frozenset({"int", "bool", "str"})
#: The most digits a number in a rule (or one folded from them) may have: a rule counts cards and points.
MAX_DIGITS: Final = 18


def position(node: Node) -> tuple[int, int]:
    """The 1-based line and column where a node starts inside the expression."""
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    return node.meta.line, node.meta.column


#: Operators that chain, by family: a chain is a run of one family down the left operands.
_CHAINS: Final[dict[str, str]] = {"add": "sum", "sub": "sum", "mul": "product", "and_": "and", "or_": "or"}


def chain_links(tree: Tree[Token]) -> list[Tree[Token]]:
    """The binary nodes of the chain that ``tree`` ends, innermost (leftmost) first."""
    family = _CHAINS[str(tree.data)]
    links: list[Tree[Token]] = []
    node: Node = tree
    while isinstance(node, Tree) and _CHAINS.get(str(node.data)) == family:
        links.append(node)
        node = node.children[0]
    links.reverse()
    return links


def chain_family(node: Node) -> str | None:
    """The family of chaining operators ``node`` belongs to, if any."""
    return _CHAINS.get(str(node.data)) if isinstance(node, Tree) else None


def _start(at: Node | Code) -> tuple[int, int]:
    """Where a node or an already compiled node starts inside the expression."""
    return (at.line, at.column) if isinstance(at, Code) else position(at)


def _expressions(node: Node | None) -> list[Tree[Token]]:
    """The expressions of an ``args`` or ``items`` node, without the commas; none when the node is absent
    (``maybe_placeholders`` leaves None for an empty ``[]`` or ``()``)."""
    return [child for child in node.children if isinstance(child, Tree)] if isinstance(node, Tree) else []


class Compiler:
    """Compiles one expression; holds what the generated code needs besides ``v`` (its namespace)."""

    def __init__(
        self,
        text: str,
        origin: Origin,
        variables: Mapping[str, str],
        parameters: Mapping[str, tuple[str, Any]],
    ) -> None:
        self.text = text
        self.origin = origin
        self.variables = variables
        self.parameters = parameters
        self.namespace: dict[str, Any] = {"__builtins__": {}, **functions.BUILTINS}
        self._serial = 0

    # -- helpers shared with functions.py ------------------------------------------------------------

    def fail(self, message: str, at: Node | Code) -> NoReturn:
        raise self.origin.error(self.text, message, *_start(at))

    def constant(self, value: Any, type_: str, at: Node | Code) -> Code:
        return Code(literal(value), type_, *_start(at), value)

    def code(self, text: str, type_: str, at: Node | Code) -> Code:
        return Code(text, type_, *_start(at))

    def want(self, code: Code, type_: str) -> Code:
        if code.type != type_:
            self.fail(f"expected {type_name(type_)}, got {type_name(code.type)}", code)
        return code

    def fresh(self, prefix: str) -> str:
        """A name for the generated code's namespace or a local of its lambda, unique in this expression."""
        self._serial += 1
        return f"_{prefix}{self._serial}"

    def where(self, node: Node) -> str:
        location, _ = self.origin.locate(self.text, *position(node))
        return str(location)

    def parameter(self, token: Token, ptype: str, rule: str) -> Any:
        """The value of a parameter that must be of ``ptype`` (a map, a table); ``rule`` says why."""
        name = str(token)
        if name not in self.parameters:
            if name in self.variables:
                self.fail(f"{rule}; '{name}' is a hook variable", token)
            candidates = [n for n, (t, _) in self.parameters.items() if t == ptype]
            self.unknown(token, candidates)
        found, value = self.parameters[name]
        if found != ptype:
            self.fail(f"{rule}; '{name}' is {param_type_name(found)}", token)
        return value

    def unknown(self, token: Token, candidates: list[str] | None = None) -> NoReturn:
        name = str(token)
        if candidates is None:
            candidates = [*self.variables, *self.parameters]
        close = difflib.get_close_matches(name, candidates, n=1)
        if close:
            self.fail(f"unknown name '{name}'; did you mean '{close[0]}'?", token)
        self.fail(f"unknown name '{name}': neither a variable of this hook nor a spec parameter", token)

    # -- the tree walk ------------------------------------------------------------------------------------

    def compile(self, node: Node) -> Code:
        assert isinstance(node, Tree), node
        handler: Callable[[Tree[Token]], Code] = getattr(self, f"_{node.data}")
        return handler(node)

    def _number(self, tree: Tree[Token]) -> Code:
        digits = str(tree.children[0])
        if len(digits) > MAX_DIGITS:  # parse_expression refuses them; int() would fail beyond 4300 digits
            self.fail(f"this number has {len(digits)} digits; numbers in rules have at most {MAX_DIGITS}", tree)
        return self.constant(int(digits), "int", tree)

    def _string(self, tree: Tree[Token]) -> Code:
        return self.constant(str(tree.children[0])[1:-1], "str", tree)

    def _true(self, tree: Tree[Token]) -> Code:
        return self.constant(True, "bool", tree)

    def _false(self, tree: Tree[Token]) -> Code:
        return self.constant(False, "bool", tree)

    def _paren(self, tree: Tree[Token]) -> Code:
        return self.compile(tree.children[1])

    def _name(self, tree: Tree[Token]) -> Code:
        token = tree.children[0]
        assert isinstance(token, Token)
        name = str(token)
        if name in self.variables:
            return self.code(f'v["{name}"]', self.variables[name], tree)
        if name in self.parameters:
            ptype, value = self.parameters[name]
            if ptype == "map":
                self.fail(f"'{name}' is a map; look a key up in it with {name}[key]", token)
            if ptype == "table":
                self.fail(f"'{name}' is a table; read it with lookup({name}, number)", token)
            type_ = kind_of(value, ptype)
            if type_ is None:
                self.fail(f"parameter '{name}' is declared {ptype} but its value is {value!r}", token)
            return self.constant(tuple(value) if ptype == "list" else value, type_, tree)
        if name in functions.FUNCTIONS:
            self.fail(f"'{name}' is a function; call it as {name}(...)", token)
        self.unknown(token)

    def _neg(self, tree: Tree[Token]) -> Code:
        operand = self.want(self.compile(tree.children[1]), "int")
        if operand.is_const:
            return self.constant(-operand.const, "int", tree)
        return self.code(f"(-{operand.text})", "int", tree)

    def _arithmetic(self, tree: Tree[Token]) -> Code:
        """A chain ``a + b - c`` (or ``a * b * c``) walked without recursion and written flat, folding from the
        left as the nested form would: Python refuses 200 nested parentheses, and a long sum is legitimate."""
        links = chain_links(tree)
        acc = self.want(self.compile(links[0].children[0]), "int")
        terms: list[str] = []
        for link in links:
            op = str(link.children[1])
            right = self.want(self.compile(link.children[2]), "int")
            if acc.is_const and right.is_const:
                acc = self.constant(_ARITHMETIC[str(link.data)](acc.const, right.const), "int", link)
                self._check_size(acc, link)
                continue
            terms = [*(terms or [acc.text]), op, right.text]
            acc = self.code("(" + " ".join(terms) + ")", "int", link)
        return acc

    _add = _sub = _mul = _arithmetic

    def _check_size(self, code: Code, at: Node) -> None:
        """A folded number must stay printable: Python will not write an int of more than 4300 digits."""
        if abs(code.const) >= 10**MAX_DIGITS:
            self.fail(f"this calculation gives a number of more than {MAX_DIGITS} digits", at)

    def _not_(self, tree: Tree[Token]) -> Code:
        operand = self.want(self.compile(tree.children[1]), "bool")
        if operand.is_const:
            return self.constant(not operand.const, "bool", tree)
        return self.code(f"(not {operand.text})", "bool", tree)

    def _and_(self, tree: Tree[Token]) -> Code:
        return self._logic(tree, absorbing=False)

    def _or_(self, tree: Tree[Token]) -> Code:
        return self._logic(tree, absorbing=True)

    def _logic(self, tree: Tree[Token], absorbing: bool) -> Code:
        """A chain of ``and`` (absorbing value False) or of ``or`` (True), walked and written as ``_arithmetic``
        does; a constant side decides or disappears."""
        links = chain_links(tree)
        acc = self.want(self.compile(links[0].children[0]), "bool")
        terms: list[str] = []
        for link in links:
            op = str(link.children[1])
            right = self.want(self.compile(link.children[2]), "bool")
            if acc.is_const:
                if acc.const is not absorbing:
                    acc, terms = (right if right.is_const else self.code(right.text, "bool", link)), []
                else:
                    acc = self.constant(absorbing, "bool", link)
            elif right.is_const:
                acc = self.constant(absorbing, "bool", link) if right.const is absorbing else acc
                acc = acc if acc.is_const else self.code(acc.text, "bool", link)
                terms = [] if acc.is_const else terms
            else:
                terms = [*(terms or [acc.text]), op, right.text]
                acc = self.code("(" + " ".join(terms) + ")", "bool", link)
        return acc

    def _if_expr(self, tree: Tree[Token]) -> Code:
        condition = self.want(self.compile(tree.children[1]), "bool")
        then, else_ = self.compile(tree.children[3]), self.compile(tree.children[5])
        type_ = self._unify(then, else_)
        if condition.is_const:
            chosen = then if condition.const else else_
            return Code(chosen.text, type_, chosen.line, chosen.column, chosen.const)
        return self.code(f"({then.text} if {condition.text} else {else_.text})", type_, tree)

    def _unify(self, then: Code, else_: Code) -> str:
        if then.type == else_.type or (else_.type == "list[]" and then.type.startswith("list[")):
            return then.type
        if then.type == "list[]" and else_.type.startswith("list["):
            return else_.type
        self.fail(
            f"the 'then' and 'else' branches must give the same kind of value; "
            f"'then' gives {type_name(then.type)}, 'else' gives {type_name(else_.type)}",
            else_,
        )

    def _compare(self, tree: Tree[Token]) -> Code:
        op_tree = tree.children[1]
        assert isinstance(op_tree, Tree)
        op = " ".join(str(token) for token in op_tree.children)
        left, right = self.compile(tree.children[0]), self.compile(tree.children[2])
        if op in ("in", "not in"):
            return self._membership(tree, op, left, right)
        if op in ("==", "!="):
            if left.type not in _SCALARS:
                self.fail(f"'{op}' compares numbers, strings or yes/no values, not {type_name(left.type)}", left)
            if right.type != left.type:
                self.fail(f"cannot compare {type_name(left.type)} with {type_name(right.type)}", op_tree)
        else:
            self.want(left, "int")
            self.want(right, "int")
        if left.is_const and right.is_const:
            return self.constant(_ORDERING[op](left.const, right.const), "bool", tree)
        return self.code(f"({left.text} {op} {right.text})", "bool", tree)

    def _membership(self, tree: Tree[Token], op: str, left: Code, right: Code) -> Code:
        if not right.type.startswith("list["):
            self.fail(f"'{op}' needs a list on its right, got {type_name(right.type)}", right)
        element = right.type[5:-1]
        if left.type not in ("int", "str"):
            self.fail(f"'{op}' needs a number or a string on its left, got {type_name(left.type)}", left)
        if element and left.type != element:
            self.fail(f"cannot look for {type_name(left.type)} in {type_name(right.type)}", left)
        if left.is_const and right.is_const:
            return self.constant((left.const in right.const) == (op == "in"), "bool", tree)
        if right.is_const:  # a set display of constants compiles to a frozenset constant
            items = right.const
            container = "{" + ", ".join(literal(item) for item in items) + "}" if items else "()"
        else:
            container = right.text
        return self.code(f"({left.text} {op} {container})", "bool", tree)

    def _list(self, tree: Tree[Token]) -> Code:
        codes = [self.compile(item) for item in _expressions(tree.children[1])]
        element = ""
        for code in codes:
            if code.type not in ("int", "str"):
                self.fail(f"list items must be numbers or strings, not {type_name(code.type)}", code)
            if element and code.type != element:
                self.fail(
                    f"list items must all be of one kind: expected {type_name(element)}, got {type_name(code.type)}",
                    code,
                )
            element = code.type
        type_ = f"list[{element}]"
        if all(code.is_const for code in codes):
            return self.constant(tuple(code.const for code in codes), type_, tree)
        texts = [code.text for code in codes]
        return self.code("(" + ", ".join(texts) + ("," if len(texts) == 1 else "") + ")", type_, tree)

    def _subscript(self, tree: Tree[Token]) -> Code:
        base = tree.children[0]
        assert isinstance(base, Token)
        return functions.subscript(self, tree, base, tree.children[2])

    def _call(self, tree: Tree[Token]) -> Code:
        name = tree.children[0]
        assert isinstance(name, Token)
        return functions.call(self, tree, name, _expressions(tree.children[2]))
