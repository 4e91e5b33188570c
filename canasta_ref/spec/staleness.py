"""Finding clause texts that state a parameter's value in letters instead of through a placeholder.

Such a text reads right only while the parameter keeps its value: a child that changes it inherits a sentence
its own rules contradict. ``check`` reports each as a warning, located at the words in the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from ..errors import SpecError
from .model import Clause, Parameter, Written
from .placeholders import (
    PlaceholderError,
    card_words,
    literal_text,
    locate_in_text,
    number_words,
    option_words,
    referenced,
)

#: Ints below this are stated in digits only when checked: "one card", "a pile of two" are too often other
#: counts than the parameter's.
_SMALLEST_WORDED = 2


def literal_forms(param: Parameter) -> list[str]:
    """The ways a text could state ``param``'s value in letters: digits, a number word, an option's words, card
    names; none for values that have no distinctive spelling (bools, maps)."""
    value = param.value
    if param.type == "int" and isinstance(value, int):
        forms = [str(value)]
        word = number_words(value)
        return [*forms, word] if value >= _SMALLEST_WORDED and word != str(value) else forms
    if param.type == "enum" and isinstance(value, str):
        words = option_words(value)
        return [words] if " " in words else []  # "counts", "allow": too common a word to be the option
    if param.type == "list" and isinstance(value, list):
        return [card_words([card]) for card in value]
    if param.type == "table" and isinstance(value, list):
        return [str(row["value"]) for row in value if isinstance(row, dict) and "value" in row]
    return []


def stale_literals(clause: Clause, parameters: Mapping[str, Parameter]) -> Iterator[SpecError]:
    """A warning for each value of a parameter ``clause`` reads (or names in its texts) that one of its texts
    states in letters."""
    written = clause.written
    if written is None:
        return
    for name in ("title", "text", "message"):
        text = getattr(written, name)
        if text is None:
            continue
        yield from _stale_in(clause, written, name, text, parameters)


def _stale_in(
    clause: Clause, written: Written, field: str, text: str, parameters: Mapping[str, Parameter]
) -> Iterator[SpecError]:
    try:
        plain = literal_text(text)
        named = set(clause.parameters) | referenced(text)
    except PlaceholderError:
        return  # an error of its own
    for param_name in sorted(named):
        param = parameters.get(param_name)
        if param is None:
            continue
        for form in literal_forms(param):
            match = re.search(rf"(?<![\w.]){re.escape(form)}(?![\w])", plain, re.IGNORECASE)
            if match is None:
                continue
            message = (
                f"warning: '{field}' of rule {clause.id} states '{match.group()}', the value of parameter "
                f"{param_name} it reads; write {{{param_name}}} (or a format of it) so the text follows the value"
            )
            yield locate_in_text(clause, written, field, match.group(), message)
