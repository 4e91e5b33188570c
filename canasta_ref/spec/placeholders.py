"""Clause texts that refer to parameters: ``{canasta_size:word}`` is worded from the variant's own value.

A rule's title, text and refusal message are written once, in the root spec; a child that changes a parameter
must not inherit a sentence that states the parent's number. So texts name the parameter, and the loader words
it when the variant is flattened (``word_text``). The syntax, documented in docs/spec-format.md:

- ``{name}``: the value: digits, an option's words, cards as ``twos and jokers``, a table's values as
  ``15, 50, 90 or 120``; ``{name:word}`` / ``{name:Word}`` a number in words (``seven`` / ``Seven``);
  ``{name:s}`` is ``s`` unless the number is 1 (``card{draw_count:s}``); ``{name:Word}`` also capitalises other
  values; ``{name:bands}`` a table band by band.
- ``{name.key}``: one entry of a map parameter (``{card_values.JK}``), or the value a table gives for a number
  (``{red_three_table.5}``), with the formats of a number.
- ``{name=a:text for a|b:text for b}``: a choice by an enum's option (``true``/``false`` of a bool, whole numbers
  of an int, which also needs ``*``); every option is given (``*`` stands for the options not named), and the
  chosen text may hold placeholders itself.
- ``{=packs * (52 + jokers_per_pack)}``: a number the rules language computes from parameters alone; the
  formats of an int follow a colon (``{=packs * jokers_per_pack:Word}``).
- ``{{`` and ``}}`` stand for literal braces.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..errors import SpecError
from ..lang import Origin, compile_expression
from .model import ClauseEntry, Parameter, Written
from .wording import did_you_mean, one_of

#: Number words up to twenty; larger numbers stay in digits in every format.
_NUMBER_WORDS: Final = tuple(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ]
)
_TENS: Final = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}

#: Cards of a list parameter, in words (plural: a list names kinds of card).
_CARD_WORDS: Final = {
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "10": "tens",
    "J": "jacks",
    "Q": "queens",
    "K": "kings",
    "A": "aces",
    "JK": "jokers",
}

#: The formats each type of parameter takes after a colon ("" is none).
FORMATS: Final[dict[str, tuple[str, ...]]] = {
    "int": ("", "word", "Word", "s"),
    "enum": ("", "Word"),
    "list": ("", "Word"),
    "table": ("", "bands"),
    "str": ("", "Word"),
    "map": (),
    "bool": (),
}

_NAME: Final = re.compile(r"\b[a-z_][a-z0-9_]*\b")


class PlaceholderError(ValueError):
    """A placeholder that cannot be worded; ``offset`` is where it starts in the text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Placeholder:
    """One ``{...}`` of a text: its parameter, its key into a map, its format or its choices."""

    name: str
    key: str | None
    format: str
    choices: Mapping[str, str] | None
    start: int
    end: int
    #: ``{=packs * 54}``: a rules-language expression over parameters, worded as a number.
    expression: str | None = None


def number_words(value: int) -> str:
    """``seven``, ``forty``; digits where no plain word is (``15`` stays ``15`` above twenty)."""
    if 0 <= value < len(_NUMBER_WORDS):
        return _NUMBER_WORDS[value]
    return _TENS.get(value, str(value))


def card_words(cards: list[Any]) -> str:
    """``twos and jokers``: the cards of a list, in words, joined as a reader lists them."""
    return join_words([_CARD_WORDS.get(str(card), str(card)) for card in cards])


def join_words(words: list[str], last: str = "and") -> str:
    if not words:
        return "none"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def option_words(option: str) -> str:
    """An enum option as words: ``wild_or_red_three`` is ``wild or red three``."""
    return option.replace("_", " ")


def table_values(rows: list[Any]) -> str:
    """``15, 50, 90 or 120``: the values a table can give, in its order."""
    return join_words([str(row.get("value")) for row in rows if isinstance(row, dict)], "or")


def table_bands(rows: list[Any]) -> str:
    """``15 below 0, 50 from 0, 90 from 1500 and 120 from 3000``: each band of a table with its value."""
    items = [row for row in rows if isinstance(row, dict)]
    words: list[str] = []
    for index, row in enumerate(items):
        start = row.get("from")
        following = items[index + 1].get("from") if index + 1 < len(items) else None
        where = f"from {start}" if start is not None else f"below {following}" if following is not None else "always"
        words.append(f"{row.get('value')} {where}")
    return join_words(words)


#: A brace, where a placeholder may open or close (the scan jumps from one to the next: texts are mostly words).
_BRACE: Final = re.compile(r"[{}]")


def placeholders(text: str) -> Iterator[Placeholder]:
    """The placeholders of ``text`` in order (not those inside choices); raises PlaceholderError on a brace
    that does not close or a placeholder that does not parse."""
    brace = _BRACE.search(text)
    while brace is not None:  # from brace to brace: the text between holds no placeholder
        index = brace.start()
        if text.startswith(("{{", "}}"), index):
            index += 2
        elif text[index] == "}":
            raise PlaceholderError("a '}' closes no placeholder; write '}}' for a brace", index)
        else:
            end = _closing(text, index)
            yield _parse(text[index + 1 : end], index, end + 1)
            index = end + 1
        brace = _BRACE.search(text, index)


def _closing(text: str, start: int) -> int:
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    raise PlaceholderError("a '{' opens a placeholder that is not closed; write '{{' for a brace", start)


def _parse(body: str, start: int, end: int) -> Placeholder:
    if body.startswith("="):
        expression, colon, fmt = body[1:].rpartition(":")
        if colon and fmt.strip() in FORMATS["int"]:
            return Placeholder("", None, fmt.strip(), None, start, end, expression.strip())
        return Placeholder("", None, "", None, start, end, body[1:].strip())
    head, _, choice_text = body.partition("=")
    if _:
        return Placeholder(head.strip(), None, "", _choices(choice_text, start), start, end)
    reference, _, fmt = head.partition(":")
    name, _, key = reference.strip().partition(".")
    if not _NAME.fullmatch(name):
        message = f"'{{{body}}}' is not a placeholder: expected {{parameter}} or {{parameter:format}}"
        raise PlaceholderError(message, start)
    return Placeholder(name, key or None, fmt.strip(), None, start, end)


def _choices(text: str, start: int) -> dict[str, str]:
    """``a:text|b:text`` split at the bars that are not inside a nested placeholder."""
    parts: list[str] = []
    depth, begin = 0, 0
    for index, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(text[begin:index])
            begin = index + 1
    parts.append(text[begin:])
    choices: dict[str, str] = {}
    for part in parts:
        option, colon, said = part.partition(":")
        if not colon:
            raise PlaceholderError(f"the choice '{part.strip()}' has no ':'; expected option:text", start)
        choices[option.strip()] = said
    return choices


def word_text(text: str, parameters: Mapping[str, Parameter]) -> str:
    """``text`` with each placeholder worded from ``parameters``; raises PlaceholderError on one that names an
    unknown parameter, key, format or option."""
    pieces: list[str] = []
    position = 0
    for holder in placeholders(text):
        pieces.append(_unescape(text[position : holder.start]))
        pieces.append(_word(holder, parameters))
        position = holder.end
    pieces.append(_unescape(text[position:]))
    return "".join(pieces)


def _unescape(text: str) -> str:
    return text.replace("{{", "{").replace("}}", "}")


def _word(holder: Placeholder, parameters: Mapping[str, Parameter]) -> str:
    if holder.expression is not None:
        return _formatted(holder, "int", _evaluated(holder, holder.expression, parameters))
    param = parameters.get(holder.name)
    if param is None:
        hint = did_you_mean(holder.name, parameters)
        raise PlaceholderError(f"unknown parameter '{holder.name}' in a placeholder{hint}", holder.start)
    if holder.choices is not None:
        return _chosen(holder, param, parameters)
    value = param.value
    if holder.key is not None and param.type == "table":
        return _formatted(holder, "int", _table_entry(holder, holder.key, value))
    if holder.key is not None:
        if param.type != "map":
            message = f"'.{holder.key}' picks an entry of a map or a table; {param.name} is {param.type}"
            raise PlaceholderError(message, holder.start)
        if holder.key not in value:
            hint = did_you_mean(holder.key, value)
            message = f"parameter {param.name} has no entry '{holder.key}'{hint}; expected one of: {one_of(value)}"
            raise PlaceholderError(message, holder.start)
        return _formatted(holder, "int", value[holder.key])
    return _formatted(holder, param.type, value)


def _formatted(holder: Placeholder, ptype: str, value: Any) -> str:
    formats = FORMATS[ptype]
    if holder.format not in formats:
        if not formats:
            hint = "a choice {name=true:...|false:...}" if ptype == "bool" else "{name.key}"
            message = f"a {ptype} parameter ({holder.name}) is worded by {hint}"
        else:
            shown = ", ".join(f"'{name}'" if name else "none" for name in formats)
            message = f"unknown format '{holder.format}' for {ptype} parameter {holder.name}; expected {shown}"
        raise PlaceholderError(message, holder.start)
    if ptype == "int":
        if holder.format in ("", "s"):
            return ("" if value == 1 else "s") if holder.format == "s" else str(value)
        words = number_words(value)
        return words[:1].upper() + words[1:] if holder.format == "Word" else words
    words = _WORDERS[holder.format if holder.format == "bands" else ptype](value)
    return words[:1].upper() + words[1:] if holder.format == "Word" else words


def _table_entry(holder: Placeholder, key: str, rows: list[Any]) -> Any:
    """The value a table gives for the whole number ``key``: that of the last band starting at or below it."""
    if not re.fullmatch(r"-?\d+", key):
        raise PlaceholderError(
            f"'.{key}' looks a number up in table {holder.name}; expected a whole number", holder.start
        )
    found = None
    for row in rows:
        start = row.get("from") if isinstance(row, dict) else None
        if start is None or start <= int(key):
            found = row.get("value") if isinstance(row, dict) else None
    if found is None:
        raise PlaceholderError(f"table {holder.name} has no band for {key}", holder.start)
    return found


def _evaluated(holder: Placeholder, expression: str, parameters: Mapping[str, Parameter]) -> int:
    """The value of an expression placeholder, computed from the parameters alone."""
    values = {name: (param.type, param.value) for name, param in parameters.items()}
    try:
        compiled = compile_expression(
            expression, variables={}, parameters=values, expect="int", origin=Origin("placeholder", 1, 1)
        )
        return int(compiled.fn({}))
    except SpecError as error:
        raise PlaceholderError(f"in {{={expression}}}: {error.reason}", holder.start) from None
    except (ArithmeticError, LookupError, TypeError, ValueError) as error:
        raise PlaceholderError(f"cannot work out {{={expression}}}: {error}", holder.start) from None


_WORDERS: Final[dict[str, Callable[[Any], str]]] = {
    "enum": option_words,
    "list": card_words,
    "table": table_values,
    "bands": table_bands,
    "str": str,
}


def _chosen(holder: Placeholder, param: Parameter, parameters: Mapping[str, Parameter]) -> str:
    assert holder.choices is not None
    if param.type == "int":
        return _chosen_number(holder, param, parameters)
    if param.type == "bool":
        options = ["true", "false"]
        current = "true" if param.value else "false"
    elif param.type == "enum":
        options, current = list(param.options), str(param.value)
    else:
        message = f"only an enum, bool or int parameter takes a choice; {param.name} is {param.type}"
        raise PlaceholderError(message, holder.start)
    unknown = [option for option in holder.choices if option not in (*options, "*")]
    if unknown:
        hint = did_you_mean(unknown[0], options)
        message = f"parameter {param.name} has no option '{unknown[0]}'{hint}; expected one of: {one_of(options)}"
        raise PlaceholderError(message, holder.start)
    missing = [option for option in options if option not in holder.choices]
    if missing and "*" not in holder.choices:
        message = f"the choice on {param.name} gives no text for option {', '.join(missing)}: "
        message += "give one per option, or '*' for the rest"
        raise PlaceholderError(message, holder.start)
    return _chosen_text(holder, current, parameters)


def _chosen_number(holder: Placeholder, param: Parameter, parameters: Mapping[str, Parameter]) -> str:
    """A choice on an int: ``{draw_count=1:card|*:cards}``; whole numbers, and ``*`` for every other."""
    assert holder.choices is not None
    unknown = [option for option in holder.choices if option != "*" and not re.fullmatch(r"-?\d+", option)]
    if unknown or "*" not in holder.choices:
        message = f"a choice on int parameter {param.name} names whole numbers and ends with '*' for the rest"
        raise PlaceholderError(message, holder.start)
    return _chosen_text(holder, str(param.value), parameters)


def _chosen_text(holder: Placeholder, current: str, parameters: Mapping[str, Parameter]) -> str:
    """The text the choice takes for ``current``, worded; every other text is checked to name known parameters,
    so that a typo in a branch no variant takes yet is found now."""
    assert holder.choices is not None
    try:
        for said in holder.choices.values():
            for name in sorted(_named(said) - set(parameters)):
                hint = did_you_mean(name, parameters)
                raise PlaceholderError(f"unknown parameter '{name}' in a placeholder{hint}", 0)
        return word_text(holder.choices.get(current, holder.choices.get("*", "")), parameters)
    except PlaceholderError as error:
        raise PlaceholderError(str(error), holder.start) from None


def _named(text: str) -> set[str]:
    """The parameters ``text``'s placeholders name (not those its expressions read), choices' texts included."""
    names: set[str] = set()
    for holder in placeholders(text):
        names |= {holder.name} if holder.expression is None else set()
        for said in (holder.choices or {}).values():
            names |= _named(said)
    return names


def referenced(text: str) -> set[str]:
    """The parameters ``text`` names in placeholders, those inside choices included."""
    names: set[str] = set()
    for holder in placeholders(text):
        names.add(holder.name)
        names.update(_NAME.findall(holder.expression or ""))
        for said in (holder.choices or {}).values():
            names |= referenced(said)
    return names


def literal_text(text: str) -> str:
    """``text`` without its placeholders: what it states whatever the parameters are."""
    pieces: list[str] = []
    position = 0
    for holder in placeholders(text):
        pieces.append(text[position : holder.start])
        pieces.append(" ")
        position = holder.end
    pieces.append(text[position:])
    return "".join(pieces)


_Entry = TypeVar("_Entry", bound=ClauseEntry)


def word_entry(entry: _Entry, parameters: Mapping[str, Parameter]) -> _Entry:
    """``entry`` with its title, text and message worded from ``parameters``; raises SpecError located at the
    first placeholder that cannot be worded."""
    worded, errors = word_entry_errors(entry, parameters)
    if errors:
        raise errors[0]
    return worded


def word_entry_errors(entry: _Entry, parameters: Mapping[str, Parameter]) -> tuple[_Entry, list[SpecError]]:
    """``entry`` worded from ``parameters``, and an error for each of its texts that cannot be (that text is
    left as written)."""
    written = entry.written
    if written is None:
        return entry, []
    errors: list[SpecError] = []
    worded: dict[str, str] = {}
    for name in ("title", "text", "message"):
        text = getattr(written, name)
        if text is None:
            continue
        try:
            worded[name] = word_text(text, parameters)
        except PlaceholderError as error:
            errors.append(_located(entry, written, name, text, error))
            worded[name] = text
    message = worded.get("message")
    return dataclasses.replace(entry, title=worded["title"], text=worded["text"], message=message), errors


def _located(entry: ClauseEntry, written: Written, name: str, text: str, error: PlaceholderError) -> SpecError:
    """The error of a placeholder in field ``name`` of ``entry``, at its line and column in the file."""
    closing = text.find("}", error.offset)
    piece = text[error.offset : closing + 1 if closing >= 0 else len(text)]
    return locate_in_text(entry, written, name, piece, f"'{name}' of rule {entry.id}: {error}")


def locate_in_text(entry: ClauseEntry, written: Written, name: str, piece: str, message: str) -> SpecError:
    """A SpecError saying ``message`` at the first ``piece`` of field ``name`` of ``entry`` as written in its
    file (at the field's start if it cannot be found there, at the rule's id if the field's place is unknown)."""
    for field_name, source, origin in written.at:
        if field_name != name:
            continue
        found = re.search(rf"(?<![\w.]){re.escape(piece)}(?!\w)", source, re.IGNORECASE) if piece else None
        index = found.start() if found else source.find(piece) if piece else -1
        if index < 0:
            return origin.error(source, message)
        before = source[:index]
        line = before.count("\n") + 1
        column = index - (before.rfind("\n") + 1) + 1
        return origin.error(source, message, line, column)
    return SpecError(message, entry.location)
