"""The rules language in which spec clauses write their conditions and formulas.

An expression is parsed with ``grammar/rules.lark``, type-checked against the hook's variables and the spec's
parameters, and compiled once into a Python ``lambda v: ...``; parameters are folded in as constants.
"""

from __future__ import annotations

from .compiler import CompiledExpression, compile_expression
from .functions import FUNCTIONS
from .origin import Origin
from .parser import get_parser, parse_expression
from .runtime import RuleRuntimeError

__all__ = [
    "FUNCTIONS",
    "CompiledExpression",
    "Origin",
    "RuleRuntimeError",
    "compile_expression",
    "get_parser",
    "parse_expression",
]
