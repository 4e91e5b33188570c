"""A variant bound for play: hook look-ups, per-card tables computed once, and rule-coverage recording."""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..errors import CanastaError, IllegalAction
from ..spec.model import Clause, Variant
from .actions import ACTION_KINDS, Action
from .cards import CARD_TYPES, JOKER, JOKER_RANK, MELD_RANK_NAMES, RANK_NAMES, SEQUENCE_RANK, full_deck, rank_of
from .hooks import (
    CARD_VARIABLES,
    COMPOSITION_VARIABLES,
    HOOKS,
    RANK_FACT_VARIABLES,
    TABLE_VARIABLES,
    special_hand_name,
)


class Coverage:
    """Which clauses were evaluated, and with what outcome (``allowed`` / ``refused`` / ``true`` / ``false``)."""

    def __init__(self) -> None:
        self.outcomes: dict[str, set[str]] = {}

    def record(self, clause_id: str, outcome: str) -> None:
        self.outcomes.setdefault(clause_id, set()).add(outcome)


_BOUND: dict[int, tuple[Variant, Rules]] = {}
#: The most entries a memo or listing cache keeps before it starts again (a bound on memory, not a tuning knob).
CACHE_LIMIT = 200_000
#: The bound for a cache of objects the garbage collector tracks (actions): every full collection walks them
#: all, so a cache as large as the others would cost more in collections than it saves.
TRACKED_CACHE_LIMIT = 4_096


def remember(cache: dict[Any, Any], key: Any, value: Any, limit: int = CACHE_LIMIT) -> Any:
    """Store ``value`` under ``key`` in a cache of at most ``limit`` entries, emptying it first when full;
    return the value."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


#: What ``Rules._asked`` is asked for: the failing clause, a predicate, a value.
_FAILING: Final = 0
_PREDICATE: Final = 1
_VALUE: Final = 2
#: The ``Rules`` method each of those questions is, by its number (what ``Rules.asked`` records).
QUESTIONS: Final = ("failing", "predicate", "value")


def rules_for(variant: Variant) -> Rules:
    """The Rules of a loaded variant, built once per variant object (binding precomputes every card's facts)."""
    known = _BOUND.get(id(variant))
    if known is None or known[0] is not variant:
        known = _BOUND[id(variant)] = (variant, Rules(variant))
    return known[1]


def _position_getter(positions: tuple[int, ...]) -> Callable[[tuple[Any, ...]], Any]:
    """The values at ``positions`` of a tuple, as a cache key (a C-level getter; () when there are none)."""
    return operator.itemgetter(*positions) if positions else lambda values: ()


#: Numbers the Queries as they are made (Query.index).
_QUERY_NUMBERS = itertools.count()


class _Unbound:
    """The marker of a query a Rules has not bound yet."""


_UNBOUND = _Unbound()
#: What a memo holds for a question not asked yet (None is an answer: no clause refuses).
_MISSING: Final = object()
_Binding = tuple[Callable[[tuple[Any, ...]], Any] | None, dict[Any, Any]]


class Query:
    """A call site's question to one hook, with the names of the values it passes, in a fixed order.

    Hot paths ask through a Query with a tuple of values instead of a dict: each Rules binds the query once to
    the positions its hook's clauses read, so a cached answer costs one small tuple and one look-up."""

    def __init__(self, hook: str, names: tuple[str, ...]) -> None:
        self.hook = hook
        self.names = names
        #: Where each Rules keeps this query's binding (a list index: cheaper than a dict keyed on the query).
        self.index = next(_QUERY_NUMBERS)

    def env(self, values: tuple[Any, ...]) -> dict[str, Any]:
        """The values by name, as the clauses read them."""
        return dict(zip(self.names, values, strict=True))

    def __repr__(self) -> str:
        return f"Query({self.hook!r}, {self.names!r})"


class Rules:
    """The clauses of one variant grouped by hook, with the card facts every move needs precomputed."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.coverage: Coverage | None = None
        self._hooks: dict[str, tuple[Clause, ...]] = {}
        for clause in variant.clauses.values():
            self._hooks[clause.hook] = (*self._hooks.get(clause.hook, ()), clause)
        self.players: int = self.param("players")
        self.teams: int = self.param("teams")
        self._initial_sides = [seat % self.teams for seat in range(self.players)]
        #: Whose cumulative score each seat's points go to: its side at the deal (each player's own where there
        #: are as many sides as players).
        self.score_holder: tuple[int, ...] = tuple(self._initial_sides)
        #: Whether sides may re-form during a hand (hook sides.lone_hand), and whether a discard made with the
        #: stock empty may end the play (hook stock.ends_with_discard): asked only by the variants that use them.
        self.forms_sides = bool(self._hooks.get("sides.lone_hand"))
        self.ends_with_discard = bool(self._hooks.get("stock.ends_with_discard"))
        #: Whether a player's hand total has parts of its own (hook score.player).
        self.scores_players = bool(self._hooks.get("score.player"))
        #: The kinds of action an ``action.allowed`` clause refuses whatever the position (it reads the kind
        #: alone): the listing never offers them, so a kind a variant does not have costs it nothing.
        self.refused_kinds = self._kinds_refused_outright()
        self.packs = self.value("deck.packs", {})
        self.jokers_per_pack = self.value("deck.jokers", {})
        self.hand_size = self.value("deal.hand_size", {})
        self.foot_size = self.value("deal.foot_size", {})
        self.draw_count = self.value("draw.count", {})
        wild_rank = [self.predicate("card.wild", {"rank": name}) for name in RANK_NAMES]
        self.is_wild = [wild_rank[rank_of(c)] for c in range(CARD_TYPES)]
        self._card_facts = facts = [self._facts_of(c) for c in range(CARD_TYPES)]
        #: Each card's facts as values in ``hooks.CARD_VARIABLES`` order, for Queries.
        self.card_values = [tuple(f[name] for name in CARD_VARIABLES) for f in facts]
        #: Each card's value melded, and left in hand at the end (hook card.value's ``melded``): by whether the
        #: hand ended with a player going out (``held_values[anyone_went_out]``).
        self.card_value = [self.value("card.value", {**f, "melded": True, "anyone_went_out": False}) for f in facts]
        #: The greatest common divisor of the melded cards' values (1 if all are 0): every total of points a hand
        #: can reach is a multiple of it, so the opening's points cap asks about those only.
        self.points_unit = math.gcd(*(abs(value) for value in self.card_value)) or 1
        self.held_values = [
            [self.value("card.value", {**f, "melded": False, "anyone_went_out": out}) for f in facts]
            for out in (False, True)
        ]
        #: What ``pile.take`` asks of the top card: its rank's name, whether it is wild, a black three, a red three.
        self.top_card_values = [
            (f["rank"], bool(f["is_wild"]), bool(f["is_black_three"]), bool(f["is_red_three"])) for f in facts
        ]
        self.is_bonus = [self.predicate("bonus_card", f) for f in facts]
        #: The bonus cards (red threes), in card order: what a hand is searched for after every draw.
        self.bonus_cards = tuple(c for c in range(CARD_TYPES) if self.is_bonus[c])
        #: Whether dealt bonus cards wait for their holder's first turn (``Game`` lays them out then).
        self.bonus_at_first_turn = self.predicate("bonus_card.at_first_turn", {})
        #: Whether a player may keep a bonus card received in play instead of laying it out (hook bonus_card.keep).
        self.keeps_bonus = bool(self._hooks.get("bonus_card.keep"))
        #: Whether the deal turns no upcard, the pile starting empty (hook deal.no_upcard).
        self.no_upcard = self.predicate("deal.no_upcard", {})
        #: How many cards lie below the turn card after the deal; 0: no turn card (hook stock.turn_card_depth).
        self.turn_card_depth = self._count("stock.turn_card_depth")
        #: Whether a bonus card drawn as the stock's last card stays in hand, ending play (stock.last_card_bonus_kept).
        self.last_card_bonus_kept = self.predicate("stock.last_card_bonus_kept", {})
        #: Whether making a side's initial meld earns bonus cards (hook bonus_draw.count), and whether they come
        #: from talons dealt face down (bonus_draw.from_talons) rather than from the stock.
        self.draws_bonus = bool(self._hooks.get("bonus_draw.count"))
        self.bonus_from_talons = self.predicate("bonus_draw.from_talons", {})
        #: The talons' sizes, the first side to meld's first: one per side under bonus_draw.from_talons, else none.
        self.talon_sizes = self._talon_sizes()
        #: Whether any clause penalises the end of a turn: without one, turns end with no penalty asked for.
        self.penalises_turn_end = bool(self._hooks.get("penalty.turn_end"))
        self.upcard_turns_again = [self.predicate("upcard.turn_again", f) for f in facts]
        self.upcard_freezes = [self.predicate("upcard.freezes", f) for f in facts]
        self.upcard_buried = [self.predicate("upcard.buried", f) for f in facts]
        wild_values = {self.card_value[c] for c in range(52) if self.is_wild[c]}
        self.twos_value: int | None = wild_values.pop() if len(wild_values) == 1 else 0 if not wild_values else None
        self.hand_kind = [
            3 if c == JOKER else 2 if self.is_wild[c] else 0 if self.is_bonus[c] else 1 for c in range(CARD_TYPES)
        ]
        #: The natural cards of each rank, and the wild cards (jokers last), in card order.
        self.natural_cards = [
            tuple(c for c in range(CARD_TYPES) if rank_of(c) == rank and self.hand_kind[c] == 1)
            for rank in range(len(RANK_NAMES))
        ]
        self.wild_cards = tuple(c for c in range(CARD_TYPES) if self.hand_kind[c] in (2, 3))
        #: Bits that hold how many copies of one card a hand has (at most one per pack).
        self.count_bits: int = max(1, self.packs).bit_length()
        #: Per rank, a hand's natural cards of that rank by their code (``movegen.HandCards.codes``): the (card,
        #: copies) pairs and their total, made once per code instead of at every listing.
        self.natural_pools: list[dict[int, tuple[tuple[tuple[int, int], ...], int]]] = [{} for _ in RANK_NAMES]
        #: The same for the non-joker wild cards, by ``HandCards.twos_code``.
        self.wild_pools: dict[int, tuple[tuple[tuple[int, int], ...], int]] = {}
        #: Bits that hold a count of a meld's cards (at most the deck's), where the listing packs a meld's counts.
        self.meld_count_bits: int = len(full_deck(self.packs, self.jokers_per_pack)).bit_length()
        #: The widths of the fields of a hand's key for one rank's melds (``legal._rank_meld_key``): a rank's code (a
        #: card a suit), the twos' code (a card a wild card) and the jokers held (at most the deck's).
        self.hand_key_bits = (
            4 * self.count_bits,
            self.count_bits * len(self.wild_cards),
            max(1, self.packs * self.jokers_per_pack).bit_length(),
        )
        #: By a meld's rank; sequences never merge by rank (each is its own meld).
        self.merges_same_rank = [self.predicate("meld.merge_same_rank", {"rank": name}) for name in RANK_NAMES]
        self.merges_same_rank.append(False)
        #: By a meld's rank (``cards.MELD_RANK_NAMES``: the card ranks, then a sequence's).
        self.canasta_size = [
            self.value("canasta.size", {"rank": name, "kind": _meld_kind_of(rank)})
            for rank, name in enumerate(MELD_RANK_NAMES)
        ]
        #: Whether groups of natural cards of several ranks are sequence melds (hook meld.sequence).
        self.sequences = self.predicate("meld.sequence", {})
        #: Whether a side may come to hold two open melds of one rank, so that an action must name the meld its
        #: cards join: a rank that meld.merge_same_rank does not merge (then also combining melds may be legal).
        self.names_melds = self.sequences or not all(self.merges_same_rank[: JOKER_RANK + 1])
        #: Whether any clause closes melds (hook meld.closed): without one, every meld stays open, unasked.
        self.closes_melds = bool(self._hooks.get("meld.closed"))
        self._variables: dict[str, frozenset[str]] = {}
        #: ``components_of``'s answers, by hook and the values its clauses read.
        self.components_memo: dict[str, dict[tuple[Any, ...], dict[str, int]]] = {}
        #: Whether any clause may keep a take's cards apart from the side's meld of their rank (hook
        #: meld.take_apart): without one, a take's cards join it, unasked.
        self.takes_apart = bool(self._hooks.get("meld.take_apart"))
        #: Whether any clause reads what a side's canastas make of a rank (``hooks.RANK_FACT_VARIABLES``: dead
        #: ranks, an open wild meld): without one, those facts are never computed.
        self.reads_rank_facts = any(
            self.reads(hook, name) for hook, names in RANK_FACT_VARIABLES.items() for name in names
        )
        #: Whether an ``initial_meld.valid`` clause asks what the opening's melds are made of: without one, the
        #: listing's structures carry no composition and every opening is alike in it.
        self.reads_composition = any(self.reads("initial_meld.valid", name) for name in COMPOSITION_VARIABLES)
        #: Whether that composition is judged on the cards from hand alone, the pile's top card set aside (hook
        #: initial_meld.composition_from_hand).
        self.composition_from_hand = self.predicate("initial_meld.composition_from_hand", {})
        self._table_positions: dict[str, tuple[int, ...]] = {}
        #: Whether a side's melds that must be completed before it goes out are counted (hook meld.must_complete,
        #: read by go_out.allowed as ``incomplete_required_melds_after``): without both, no meld is asked about.
        self.tracks_must_complete = bool(self._hooks.get("meld.must_complete")) and self.reads(
            "go_out.allowed", "incomplete_required_melds_after"
        )
        # Per query (by Query.index): the getter of the values its clauses read (None: all of them) and the memo
        # of answers; None for a hook with no clauses; _UNBOUND until first asked.
        self._queries: list[_Binding | _Unbound | None] = []
        #: Where set to a list, every question asked through a Query is appended to it as (query, values, question
        #: by its number in ``QUESTIONS``): the stream the native core's memo is proved and measured on.
        self.asked: list[tuple[Query, tuple[Any, ...], int]] | None = None
        # Listing caches (legal.py). Keys and values are plain tuples of ints, which the garbage collector
        # untracks, or dicts of them (shape verdicts by rank, then by shape).
        self.shape_cache: dict[tuple[Any, ...], Any] = {}
        self.rank_shape_cache: dict[tuple[Any, ...], Any] = {}
        #: ``legal._rank_melds``'s memos, one per table key.
        self.rank_meld_cache: dict[tuple[Any, ...], Any] = {}
        #: checks.kind_refusal's tables: action.allowed for every kind, by phase, seat, seat to act, last card.
        self.kind_refusals: dict[tuple[Any, ...], Any] = {}
        #: checks.keep_card_refusal's table: go_out.keep_card by the cards left, a discard pending and may go out.
        self.keep_card_refusals: dict[int, Clause | None] = {}
        #: Single-group meld actions by their cards (and label), listed again whenever the same group is legal.
        self.meld_actions: dict[Any, Action] = {}
        #: The special hands a player may declare, by name (hook special_hand.shape; the loader refuses two clauses
        #: of one name), and the verdicts of their clauses on hands already asked about.
        self.special_hands = {
            special_hand_name(clause.id): clause for clause in self._hooks.get("special_hand.shape", ())
        }
        self.shape_verdicts: dict[tuple[str, tuple[int, ...]], bool] = {}

    def _kinds_refused_outright(self) -> frozenset[str]:
        """The kinds some ``action.allowed`` clause reading only ``kind`` refuses (decided once, at binding)."""
        clauses = [c for c in self._hooks.get("action.allowed", ()) if c.reads <= {"kind"}]
        return frozenset(k for k in ACTION_KINDS if any(not c.evaluate({"kind": k}) for c in clauses))

    def _count(self, hook: str) -> int:
        """A value hook read once, at binding, that must be a number of cards: a negative one is the spec's error."""
        count = self.value(hook, {})
        if count < 0:
            ids = ", ".join(clause.id for clause in self.clauses(hook))
            raise CanastaError(f"{self.variant.id}: {hook} ({ids}) gives {count}, not a number of cards")
        return count

    def _talon_sizes(self) -> tuple[int, ...]:
        """Under bonus_draw.from_talons, each side's talon by the order the sides meld in (bonus_draw.count with
        that many sides melded before); a talon rule without a count is the spec's error, not a silent no-op."""
        if not self.bonus_from_talons:
            return ()
        if not self.draws_bonus:
            raise CanastaError(f"{self.variant.id}: bonus_draw.from_talons needs bonus_draw.count to size the talons")
        sizes = []
        for before in range(self.teams):
            facts = {"first_side_to_meld": before == 0, "sides_melded_before": before, "taking_pile": False}
            size = self.value("bonus_draw.count", facts)
            if size < 0:
                raise CanastaError(f"{self.variant.id}: bonus_draw.count gives a talon of {size} cards")
            sizes.append(size)
        return tuple(sizes)

    def initial_sides(self) -> list[int]:
        """Each seat's side at the deal: seat s plays for side s mod teams (so partners sit opposite)."""
        return list(self._initial_sides)

    def param(self, name: str) -> Any:
        return self.variant.param(name)

    def card_facts(self, card: int) -> Mapping[str, Any]:
        """The card variables of hooks about one card (computed once, at binding; do not change them)."""
        return self._card_facts[card]

    def _facts_of(self, card: int) -> dict[str, Any]:
        rank = rank_of(card)
        red = card != JOKER and (card & 3) in (1, 2)
        return {
            "rank": RANK_NAMES[rank],
            "is_wild": self.is_wild[card],
            "is_joker": card == JOKER,
            "is_red_three": rank == 1 and red,
            "is_black_three": rank == 1 and not red,
        }

    def variables_of(self, hook: str) -> frozenset[str]:
        """The hook variables that the hook's clauses read: what a cached answer must be keyed on."""
        known = self._variables.get(hook)
        if known is None:
            known = self._variables[hook] = frozenset().union(*(c.reads for c in self._hooks.get(hook, ())))
        return known

    def reads(self, hook: str, name: str) -> bool:
        """Whether any clause of ``hook`` reads the variable ``name``. A value no clause reads is left out of the
        cache key (``_bind``) and cannot change an answer, so a caller may skip computing it when it costs more
        than this question (whether the player could go out, for ``pile.take``)."""
        return name in self.variables_of(hook)

    def note(self, hook: str, env: Mapping[str, Any]) -> None:
        """Record, for rule coverage, a decision the engine read from a table computed at load time."""
        if self.coverage is None:
            return
        clauses = self._hooks.get(hook, ())
        if clauses and clauses[0].kind == "value":
            self.components(hook, env)
        elif clauses and clauses[0].kind == "predicate":
            self.predicate(hook, env)
        else:
            self.failing(hook, env)

    def note_card(self, hook: str, card: int) -> None:
        if self.coverage is not None:
            self.note(hook, self.card_facts(card))

    def note_rank(self, hook: str, rank: int) -> None:
        if self.coverage is not None:
            self.note(hook, {"rank": MELD_RANK_NAMES[rank], "kind": _meld_kind_of(rank)})

    def table_positions_of(self, hook: str) -> tuple[int, ...]:
        """Where the table-wide variables (seat, stock size, ...) that a hook's clauses read are among
        ``hooks.TABLE_VARIABLES``."""
        known = self._table_positions.get(hook)
        if known is None:
            used = self.variables_of(hook)
            known = self._table_positions[hook] = tuple(i for i, name in enumerate(TABLE_VARIABLES) if name in used)
        return known

    def clauses(self, hook: str) -> tuple[Clause, ...]:
        return self._hooks.get(hook, ())

    def first_clause(self, hook: str, env: Mapping[str, Any]) -> Clause | None:
        """The first clause of a ``predicate`` hook that says yes in ``env``: the rule to cite when that yes is
        what refuses an action (a named meld that the spec's merge rule, or its closing rule, already decides)."""
        for clause in self._hooks.get(hook, ()):
            if clause.evaluate(env):
                if self.coverage is not None:
                    self.coverage.record(clause.id, "true")
                return clause
        return None

    def failing(self, hook: str, env: Mapping[str, Any]) -> Clause | None:
        """The first clause of a ``require`` hook that does not hold, or None."""
        coverage = self.coverage
        for clause in self._hooks.get(hook, ()):
            ok = clause.evaluate(env)
            if coverage is not None:
                coverage.record(clause.id, "allowed" if ok else "refused")
            if not ok:
                return clause
        return None

    def failing_of(self, query: Query, values: tuple[Any, ...]) -> Clause | None:
        """As ``failing``, cached on the values the hook's clauses read (they are pure)."""
        result: Clause | None = self._asked(query, values, _FAILING)
        return result

    def predicate_of(self, query: Query, values: tuple[Any, ...]) -> bool:
        """As ``predicate``, cached like ``failing_of``."""
        result: bool = self._asked(query, values, _PREDICATE)
        return result

    def value_of(self, query: Query, values: tuple[Any, ...]) -> int:
        """As ``value``, cached like ``failing_of``."""
        result: int = self._asked(query, values, _VALUE)
        return result

    def _asked(self, query: Query, values: tuple[Any, ...], question: int) -> Any:
        """The cached answer; ``question`` says which of the three is asked (a constant, not a bound method,
        which would be a new object on every call)."""
        if self.asked is not None:
            self.asked.append((query, values, question))
        queries = self._queries
        bound = queries[query.index] if query.index < len(queries) else _UNBOUND
        if isinstance(bound, _Unbound):
            bound = self._bind(query)
        if bound is None:  # a hook without clauses: its answer reads no value
            return self._answer(question, query.hook, {})
        if self.coverage is not None:
            return self._answer(question, query.hook, query.env(values))
        project, memo = bound
        key = values if project is None else project(values)
        known = memo.get(key, _MISSING)  # not memo[key]: a KeyError costs a compiled build a traceback a miss
        if known is _MISSING:
            known = remember(memo, key, self._answer(question, query.hook, query.env(values)))
        return known

    def _answer(self, question: int, hook: str, env: Mapping[str, Any]) -> Any:
        if question == _FAILING:
            return self.failing(hook, env)
        if question == _PREDICATE:
            return self.predicate(hook, env)
        return self.value(hook, env)

    def _bind(self, query: Query) -> _Binding | None:
        """What a query's answers are cached on: the positions of the values its hook's clauses read (None for
        a hook with no clauses: nothing to cache)."""
        declared = HOOKS[query.hook].variables
        unknown = [name for name in query.names if name not in declared]
        if unknown:
            raise ValueError(f"{query!r} passes {', '.join(unknown)}, which the hook does not declare")
        bound: _Binding | None = None
        if query.hook in self._hooks:
            used = self.variables_of(query.hook)
            missing = [name for name in used if name not in query.names]
            if missing:
                raise ValueError(f"{query!r} does not pass {', '.join(missing)}, which the hook's clauses read")
            positions = tuple(query.names.index(name) for name in used)
            reads_all = positions == tuple(range(len(query.names)))
            bound = (None if reads_all else _position_getter(positions), {})
        if query.index >= len(self._queries):
            self._queries.extend([_UNBOUND] * (query.index + 1 - len(self._queries)))
        self._queries[query.index] = bound
        return bound

    @staticmethod
    def refuse(clause: Clause | None) -> None:
        """Raise IllegalAction citing ``clause``, a clause found not to hold; nothing if it is None."""
        if clause is not None:
            raise IllegalAction(clause.id, clause.refusal)

    def predicate(self, hook: str, env: Mapping[str, Any]) -> bool:
        coverage = self.coverage
        answer = False
        for clause in self._hooks.get(hook, ()):
            value = bool(clause.evaluate(env))
            if coverage is not None:
                coverage.record(clause.id, "true" if value else "false")
            answer = answer or value
        return answer

    def value(self, hook: str, env: Mapping[str, Any]) -> int:
        return sum(self.components(hook, env).values())

    def components_of(self, hook: str, env: Mapping[str, Any]) -> dict[str, int]:
        """As ``components``, cached on the values the hook's clauses read (they are pure; asked afresh while rule
        coverage is recorded, which counts every evaluation): a generated game asks a hand's score at every check,
        on both sides, with the same facts step after step. A copy, which the caller may change."""
        if self.coverage is not None:
            return self.components(hook, env)
        memo = self.components_memo.get(hook)
        if memo is None:
            memo = self.components_memo[hook] = {}
        key = tuple([env.get(name) for name in self.variables_of(hook)])
        known = memo.get(key)
        if known is None:
            known = remember(memo, key, self.components(hook, env))
        return dict(known)

    def components(self, hook: str, env: Mapping[str, Any]) -> dict[str, int]:
        """Each clause's number, by clause id: the breakdown of a score."""
        out: dict[str, int] = {}
        for clause in self._hooks.get(hook, ()):
            out[clause.id] = int(clause.evaluate(env))
            if self.coverage is not None:
                self.coverage.record(clause.id, "evaluated")
        return out


def _meld_kind_of(rank: int) -> str:
    """The kind of a meld of ``rank``: a sequence, wild cards alone, or a group of one rank."""
    return "sequence" if rank == SEQUENCE_RANK else "wild" if rank == JOKER_RANK else "group"
