"""The native core's memo of rule answers: each hook question a key of small ints, kept in C, Python on a miss.

A question (a ``Query`` of one hook, asked for a clause that fails, a yes or no, or a number) is keyed, as
``Rules`` keys it, on the values its clauses read; here each value is encoded as one int: a number as itself, a
yes or no as 1 or 0, a word (a rank, a phase, a kind of action) by its place in a vocabulary. A rank's vocabulary
starts with ``cards.MELD_RANK_NAMES``, so that its code is the meld rank the core holds. The core keeps the
answers by key (``_core.RuleMemo``); on a miss it calls back here, where the key is decoded and the spec's clauses
are asked through ``Rules``, as the Python engine asks them: the same clause comes back, with its rule, text and
source.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..engine.cards import MELD_RANK_NAMES
from ..engine.hooks import CARD_VARIABLES, HOOKS, TABLE_VARIABLES, VarType
from ..engine.rules import CACHE_LIMIT, QUESTIONS, Query, Rules
from . import LIBRARY, CoreUnavailable, decline_reason

#: The variables whose words are meld ranks: their codes are the core's meld ranks.
_RANK_VARIABLES: Final = frozenset({"rank", "top_rank", "lowest"})
#: Where a natively built key finds a value (``_core.c``'s KEY_TABLE, KEY_CARD, KEY_ARGUMENT): the table values,
#: a card's values (its facts, then whether any side has a canasta of its rank), the caller's values.
KEY_TABLE: Final = 0
KEY_CARD: Final = 1
KEY_ARGUMENT: Final = 2
#: A card's values as the core builds them, in its order.
CARD_KEY_VARIABLES: Final = (*CARD_VARIABLES, "canasta_of_rank")
#: What a miss is answered by: a hook and the values its clauses read, by name.
Answerer = Callable[[str, dict[str, Any]], Any]


@dataclass
class Vocabulary:
    """The words one variable has been asked with, each coded by its place (a word is coded when first seen)."""

    words: list[object] = field(default_factory=list)
    codes: dict[object, int] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str) -> Vocabulary:
        vocabulary = cls()
        for word in MELD_RANK_NAMES if name in _RANK_VARIABLES else ():
            vocabulary.code(word)
        return vocabulary

    def code(self, word: object) -> int:
        known = self.codes.get(word)
        if known is None:
            known = self.codes[word] = len(self.words)
            self.words.append(word)
        return known


class EncodingError(ValueError):
    """A question passed a value the core cannot encode as its hook declares the variable."""


@dataclass(frozen=True)
class Encoding:
    """Where the values a query's clauses read are among its values, and how each is coded."""

    query: Query
    positions: tuple[int, ...]
    names: tuple[str, ...]
    types: tuple[VarType, ...]
    vocabularies: tuple[Vocabulary | None, ...]

    @classmethod
    def of(cls, rules: Rules, query: Query) -> Encoding:
        used = rules.variables_of(query.hook)
        missing = sorted(name for name in used if name not in query.names)
        if missing:
            raise ValueError(f"{query.hook}: the question does not pass {', '.join(missing)}, which its clauses read")
        positions = tuple(i for i, name in enumerate(query.names) if name in used)
        names = tuple(query.names[i] for i in positions)
        declared = HOOKS[query.hook].variables
        types = tuple(declared[name] for name in names)
        words = zip(names, types, strict=True)
        vocabularies = tuple(Vocabulary.of(name) if kind == "str" else None for name, kind in words)
        return cls(query, positions, names, types, vocabularies)

    def encode(self, values: Sequence[Any]) -> tuple[int, ...]:
        """The key of a question asked with ``values`` (all the query's values, in its order)."""
        return tuple(self._code(i, values[position]) for i, position in enumerate(self.positions))

    def _code(self, i: int, value: Any) -> int:
        vocabulary = self.vocabularies[i]
        if vocabulary is not None:
            return vocabulary.code(value)
        wanted = bool if self.types[i] == "bool" else int
        if type(value) is not wanted:
            expected = "a yes or no" if wanted is bool else "a number"
            raise EncodingError(f"{self.query.hook}: {self.names[i]} is {value}, expected {expected}")
        return int(value)

    def recipe(self, arguments: Sequence[str]) -> tuple[tuple[int, int], ...]:
        """How the core builds this key itself: each value's source (a table value, a card's value, or one of the
        caller's ``arguments``) and its place there. The core codes a rank as its meld rank (the vocabulary's code,
        ``Vocabulary.of``); any other word among the caller's values is coded by ``word_code``."""
        return tuple(self._source(name, arguments) for name in self.names)

    def _source(self, name: str, arguments: Sequence[str]) -> tuple[int, int]:
        """The caller's values first (a word among them coded as ``word_code`` codes it), then the table's, then
        the card's."""
        if name in arguments:
            return KEY_ARGUMENT, list(arguments).index(name)
        if name in TABLE_VARIABLES:
            return KEY_TABLE, TABLE_VARIABLES.index(name)
        if name in CARD_KEY_VARIABLES:
            return KEY_CARD, CARD_KEY_VARIABLES.index(name)
        raise ValueError(f"{self.query.hook}: the core cannot build {name} itself")

    def word_code(self, name: str, word: str) -> int:
        """The code of ``word`` as a value of ``name``, for a caller building keys natively (0 where no clause reads
        ``name``: it is not in the key)."""
        if name not in self.names:
            return 0
        vocabulary = self.vocabularies[self.names.index(name)]
        if vocabulary is None:
            raise ValueError(f"{self.query.hook}: {name} is not a word")
        return vocabulary.code(word)

    def decode(self, key: Sequence[int]) -> dict[str, Any]:
        """The values a key stands for, by name: what the clauses read."""
        return {name: self._value(i, code) for i, (name, code) in enumerate(zip(self.names, key, strict=True))}

    def _value(self, i: int, code: int) -> Any:
        vocabulary = self.vocabularies[i]
        if vocabulary is not None:
            return vocabulary.words[code]
        return bool(code) if self.types[i] == "bool" else code


class NativeQuestion:
    """One query's question (``QUESTIONS``) with its answers kept by the core."""

    def __init__(self, rules: Rules, query: Query, question: int, answerer: Answerer | None = None) -> None:
        """``answerer`` answers a miss where the core keeps something else than the hook's own answer (a discard's
        standing, not the clause that passes it over)."""
        if LIBRARY is None:
            raise CoreUnavailable(decline_reason(rules))
        self.rules = rules
        self.encoding = Encoding.of(rules, query)
        self.method: Answerer = answerer or getattr(rules, QUESTIONS[question])
        self.memo = LIBRARY.RuleMemo(len(self.encoding.positions), self._miss, CACHE_LIMIT)

    def built_natively(self, arguments: Sequence[str] = ()) -> NativeQuestion:
        """This question, its keys also built by the core itself (``Encoding.recipe``)."""
        self.memo.set_recipe(self.encoding.recipe(arguments))
        return self

    def ask(self, values: Sequence[Any]) -> Any:
        """The answer to the question asked with ``values``, as ``Rules.failing_of`` (or its kin) gives it."""
        return self.memo.ask(self.encoding.encode(values))

    def _miss(self, key: tuple[int, ...]) -> Any:
        """The core's call on a miss: the spec's clauses asked with the decoded values."""
        return self.method(self.encoding.query.hook, self.encoding.decode(key))


class NativeAnswers:
    """Every question of one ``Rules`` the core keeps answers to, made when first asked."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.questions: dict[tuple[int, int], NativeQuestion] = {}

    def question(self, query: Query, question: int) -> NativeQuestion:
        known = self.questions.get((query.index, question))
        if known is None:
            known = self.questions[query.index, question] = NativeQuestion(self.rules, query, question)
        return known

    def ask(self, query: Query, question: int, values: Sequence[Any]) -> Any:
        return self.question(query, question).ask(values)

    def counts(self) -> tuple[int, int]:
        """Hits and misses over every question."""
        counted = [question.memo.counts() for question in self.questions.values()]
        return sum(c["hits"] for c in counted), sum(c["misses"] for c in counted)
