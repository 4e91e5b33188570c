"""The reference interpreter behind the engine protocol: one request in, one response out.

``canasta-ref serve`` wraps this in a JSON-lines loop; the runner can also call it in process. Mutations
(clauses negated, parameters changed, any number of each) turn it into a deliberately wrong engine, to
measure how many wrong engines the suite catches. Limits (a feature absent, a parameter fixed, scores
without parts) turn it into a deliberately limited one that says so in protocol 2's ``hello``, to test how
the runner treats what an engine declares it cannot do.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, TextIO

from ..engine.actions import Action, action_from_json
from ..engine.cards import JOKER_RANK, parse_cards, rank_of
from ..engine.checks import settled
from ..engine.game import Game
from ..engine.numbers import WORD_LIMIT, whole_number
from ..engine.rules import Coverage, Rules, rules_for
from ..engine.state import Meld
from ..errors import CanastaError, IllegalAction
from ..match import match_end, outright_winner
from ..spec import Variant, list_variants, load_variant
from .setup import (
    game_from_setup,
    parameters_error,
    position_from_json,
    seat_field,
    with_parameters,
)

#: The newest protocol version, and every version this side of the protocol speaks (oldest first).
PROTOCOL_VERSION = 8
#: The protocol version whose score answer gives each seat's parts (``seat_parts``) where players keep their own.
SEAT_PARTS_SINCE = 8
PROTOCOLS = (1, 2, 3, 4, 5, 6, 7, 8)
#: The most actions one ``sample`` request may ask for (version 4).
SAMPLE_LIMIT = 10_000
VERSION = "0.1.0"
#: How many characters of a request's value an error message quotes.
_QUOTE_CHARS = 80

#: The position fields version 3 added: an engine speaking an older version is never sent them.
VERSION_3_POSITION_FIELDS = frozenset({"sides", "awaiting_first_turn"})
#: The set-up and position fields version 5 added (a foot, the deal's number): likewise.
VERSION_5_POSITION_FIELDS = frozenset({"feet", "hand_number"})
#: The version that gave melds an identity: actions naming a meld (``meld @2: 7H``, ``take @2``, ``combine @1 @3``),
#: sequence melds, a side's several open melds of one rank, and the ``kind`` of a view's meld. An engine speaking an
#: older version is never sent any of them, nor run in a variant whose melds must be named (Rules.names_melds).
NAMED_MELDS_SINCE = 6
#: The version that added the initial meld's bonus cards (hooks bonus_draw.count, bonus_draw.from_talons,
#: stock.turn_card_depth): a position's talons and bonus cards owed, and a view's turn card, talons and bonus
#: cards owed. An engine speaking an older version is never sent them, nor run in a variant that deals them.
BONUS_DRAWS_SINCE = 7
#: The position fields version 7 added.
VERSION_7_POSITION_FIELDS = frozenset({"talons", "bonus_draws_owed"})
#: The version that added special hands (hook special_hand.shape): the action ``declare`` (an optional feature,
#: ``declare``) and a view's ``special_hand``; and a turn that waits for a player to keep a bonus card or lay them
#: out (hook bonus_card.keep: phase ``keep``, actions ``keep`` and ``layout``). An engine speaking an older version
#: is neither sent a declaration nor offered one in ``legal``, and is not run in a variant where a player may keep
#: a bonus card.
SPECIAL_HANDS_SINCE = 8
#: What an engine speaking a version older than each of these cannot do, as a skip message says it.
VARIANT_NEEDS = {
    NAMED_MELDS_SINCE: "whose actions cannot name a meld",
    BONUS_DRAWS_SINCE: "whose positions and views cannot hold the initial meld's bonus cards",
    SPECIAL_HANDS_SINCE: "whose turns cannot wait for a bonus card to be kept or laid out",
}


def position_content_newer_than(protocol: int, rules: Rules, position: Mapping[str, Any]) -> tuple[int, list[str]]:
    """What a written-out position (or a set-up's fields) says that ``protocol`` cannot, and the oldest version
    that added it: (0, []) when it says nothing newer. An engine speaking an older version is never sent it."""
    if protocol < 3:
        found = version_3_position_content(rules, position)
        if found:
            return 3, found
    if protocol < 5:
        found = [f"'{name}'" for name in sorted(VERSION_5_POSITION_FIELDS & set(position))]
        if found:
            return 5, found
    if protocol < NAMED_MELDS_SINCE:
        found = version_6_position_content(rules, position)
        if found:
            return NAMED_MELDS_SINCE, found
    if protocol < BONUS_DRAWS_SINCE:
        found = [f"'{name}'" for name in sorted(VERSION_7_POSITION_FIELDS & set(position))]
        if found:
            return BONUS_DRAWS_SINCE, found
    return 0, []


def version_3_position_content(rules: Rules, position: Mapping[str, Any]) -> list[str]:
    """What a written-out position says that only version 3 can: the fields it added, and a meld of wild cards
    alone (a wild canasta). An engine speaking an older version is never sent such a position."""
    found = [f"'{name}'" for name in sorted(VERSION_3_POSITION_FIELDS & set(position))]
    sides = position.get("melds")
    texts = [m for side in sides if isinstance(side, list) for m in side] if isinstance(sides, list) else []
    for text in texts:
        try:
            cards = parse_cards(text) if isinstance(text, str) else []
        except CanastaError:
            continue  # a malformed meld is the set-up's error to report, not a version's
        if cards and all(rules.is_wild[card] for card in cards):
            found.append("melds of wild cards alone")
            break
    return found


def version_6_position_content(rules: Rules, position: Mapping[str, Any]) -> list[str]:
    """What a written-out position says that only version 6 can: a sequence meld (natural cards of several ranks,
    in a variant with sequences), or two open melds of one rank on a side (in a variant that does not merge them).
    Elsewhere such melds are the set-up's error to report, not a version's."""
    if not rules.names_melds:
        return []
    found: list[str] = []
    sides = position.get("melds")
    for side in sides if isinstance(sides, list) else ():
        open_ranks: set[int] = set()
        for text in side if isinstance(side, list) else ():
            try:
                cards = parse_cards(text) if isinstance(text, str) else []
            except CanastaError:
                continue
            ranks = {rank_of(card) for card in cards if not rules.is_wild[card]}
            if len(ranks) > 1:
                if rules.sequences and "sequence melds" not in found:
                    found.append("sequence melds")
                continue
            rank = ranks.pop() if ranks else JOKER_RANK
            if not cards or settled(rules, Meld.build(rank, cards, rules.is_wild)).closed:
                continue
            if rank in open_ranks and "two open melds of one rank on a side" not in found:
                found.append("two open melds of one rank on a side")
            open_ranks.add(rank)
    return found


def variant_newer_than(protocol: int, rules: Rules) -> int:
    """The version a variant needs that ``protocol`` is older than (0: none): one whose melds have an identity
    (Rules.names_melds: sequences, or several melds of one rank) needs version 6, whose actions can name a meld;
    one that deals bonus cards for the initial meld (Rules.draws_bonus) needs version 7, whose positions and views
    hold them; one where a player may keep a bonus card (Rules.keeps_bonus) needs version 8, whose turns wait for
    that choice."""
    if protocol < NAMED_MELDS_SINCE and rules.names_melds:
        return NAMED_MELDS_SINCE
    if protocol < BONUS_DRAWS_SINCE and rules.draws_bonus:
        return BONUS_DRAWS_SINCE
    if protocol < SPECIAL_HANDS_SINCE and rules.keeps_bonus:
        return SPECIAL_HANDS_SINCE
    return 0


#: Why a session speaking an older version does not set a variant up, by the version it needs.
_SETUP_NEEDS = {
    NAMED_MELDS_SINCE: "{variant}'s melds are named by number",
    BONUS_DRAWS_SINCE: "{variant} deals bonus cards for the initial meld",
    SPECIAL_HANDS_SINCE: "in {variant} a player may keep a bonus card",
}


def names_a_meld(action: Action) -> bool:
    """Whether an action names one of the side's melds by its number (``@2``), as a combine does: version 6's."""
    return action.kind == "combine" or bool(action.target) or any(group.target for group in action.melds)


def action_newer_than(protocol: int, action: Action) -> int:
    """The version an action needs that ``protocol`` is older than (0: none): naming a meld needs version 6."""
    return NAMED_MELDS_SINCE if protocol < NAMED_MELDS_SINCE and names_a_meld(action) else 0


#: Protocol 2's optional features, each with the action types that only it has.
FEATURE_ACTIONS: dict[str, frozenset[str]] = {
    "ask": frozenset({"ask", "yes", "no"}),
    "end": frozenset({"end"}),
    "pass": frozenset({"pass"}),
    "declare": frozenset({"declare"}),
}
#: The features a later version added, with that version: an engine speaking an older one has none of their
#: actions, and is neither sent them nor offered them in ``legal``.
FEATURE_SINCE: dict[str, int] = {"pass": 3, "declare": SPECIAL_HANDS_SINCE}


def features_newer_than(protocol: int) -> frozenset[str]:
    """The optional features that an engine speaking ``protocol`` cannot know."""
    return frozenset(name for name, since in FEATURE_SINCE.items() if protocol < since)


#: The fields of a written-out position (the protocol's ``setup`` with ``position``).
POSITION_FIELDS = (
    "hands",
    "pile",
    "melds",
    "red_threes",
    "stock",
    "team_scores",
    "to_act",
    "phase",
    "upcard_froze",
    "melded",
    "permission",
    "sides",  # version 3
    "awaiting_first_turn",  # version 3
    "feet",  # version 5
    "hand_number",  # version 5
)


def negate_clause(variant: Variant, clause_id: str) -> Variant:
    """The variant with one clause turned round: a condition negated, or a value off by a hundred."""
    if clause_id not in variant.clauses:
        raise CanastaError(f"cannot mutate {clause_id!r}: {variant.id} has no such rule")
    clause = variant.clauses[clause_id]
    original = clause.evaluate
    if clause.kind == "value":

        def evaluate(env: Mapping[str, Any]) -> Any:
            return original(env) + 100

    else:

        def evaluate(env: Mapping[str, Any]) -> Any:
            return not original(env)

    clauses = dict(variant.clauses)
    clauses[clause_id] = dataclasses.replace(clause, evaluate=evaluate)
    return dataclasses.replace(variant, clauses=clauses)


def negate_clauses(variant: Variant, clause_ids: Iterable[str]) -> Variant:
    """The variant with each of several clauses turned round, independently of one another."""
    for clause_id in clause_ids:
        variant = negate_clause(variant, clause_id)
    return variant


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _QUOTE_CHARS else f"{text[:_QUOTE_CHARS]}..."


def hello_version(request: Mapping[str, Any]) -> int:
    """The protocol version to answer a ``hello`` in: the newest one both sides speak (``protocol`` and the
    list ``protocols`` both offer versions). A hello offering none (protocol 1's clients may send none) is
    answered as protocol 1, as it always was; one offering only versions unknown here is a CanastaError."""
    if "protocol" not in request and "protocols" not in request:
        return 1
    offered = request.get("protocols")
    candidates = [request.get("protocol"), *(offered if isinstance(offered, list) else [])]
    spoken = [v for v in candidates if type(v) is int and v in PROTOCOLS]
    if spoken:
        return max(spoken)
    asked = f"protocol {_quote(request.get('protocol'))}"
    if "protocols" in request:
        asked += f", protocols {_quote(offered)}"
    spoken_here = ", ".join(map(str, PROTOCOLS[:-1])) + f" or {PROTOCOLS[-1]}"
    raise CanastaError(f"this engine speaks protocol {spoken_here}, and the hello offers none of them ({asked})")


def _feature_actions(features: Collection[str]) -> frozenset[str]:
    """The action types of the features named, each checked to be one of protocol 2's optional features."""
    actions: set[str] = set()
    for feature in features:
        if feature not in FEATURE_ACTIONS:
            known = ", ".join(sorted(FEATURE_ACTIONS))
            raise CanastaError(f"absent feature {feature!r}: protocol 2's optional features are {known}")
        actions |= FEATURE_ACTIONS[feature]
    return frozenset(actions)


def checked_fixed_parameters(fixed: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per bundled variant, the fixed parameters it has (name -> value): each name must be a parameter of some
    bundled variant, and every variant that has some must play them together (a CanastaError names what is
    not)."""
    for name in fixed:
        if not any(name in load_variant(v).parameters for v in list_variants()):
            raise CanastaError(f"fixed parameter {name!r}: no bundled variant has such a parameter")
    return _per_variant(fixed, "fixed")


def checked_mutated_parameters(mutated: Mapping[str, Any]) -> dict[str, Any]:
    """The mutated parameters, checked as fixed ones are: the session mutates each variant that has them. A value
    no variant can play (teams = 0) is refused here, once, rather than in every set-up of the session."""
    _per_variant(mutated, "mutated")
    return dict(mutated)


def _per_variant(values: Mapping[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    """Per bundled variant, the ``values`` of parameters it has, which it must play together: else a CanastaError
    names the ``kind`` of parameters, their values and the variant."""
    per_variant: dict[str, dict[str, Any]] = {}
    for variant in list_variants():
        has = {name: value for name, value in values.items() if name in load_variant(variant).parameters}
        if not has:
            continue
        error = parameters_error(variant, has)
        if error is not None:
            shown = ", ".join(f"{name}={_quote(value)}" for name, value in has.items())
            raise CanastaError(f"{kind} parameter{'s' if len(has) > 1 else ''} {shown} in {variant}: {error}")
        per_variant[variant] = has
    return per_variant


def _rule_list(rules: str | Sequence[str] | None) -> tuple[str, ...]:
    if rules is None:
        return ()
    return (rules,) if isinstance(rules, str) else tuple(rules)


def _parameter_map(parameters: tuple[str, Any] | Mapping[str, Any] | None) -> dict[str, Any]:
    if parameters is None:
        return {}
    if isinstance(parameters, tuple):
        name, value = parameters
        return {name: value}
    return dict(parameters)


class ReferenceSession:
    """Answers protocol requests with the reference interpreter.

    ``mutate_rule`` is one rule id or several, each clause negated; ``mutate_parameter`` one ``(name, value)``
    or a mapping of several, each played at that value without saying so. ``fixed_parameters`` are played at
    their value and declared (protocol 2); ``absent_features`` names features of FEATURE_ACTIONS this engine
    goes without; ``score_totals_only`` drops the parts of its scores."""

    def __init__(
        self,
        *,
        mutate_rule: str | Sequence[str] | None = None,
        mutate_parameter: tuple[str, Any] | Mapping[str, Any] | None = None,
        fixed_parameters: Mapping[str, Any] | None = None,
        absent_features: Collection[str] = (),
        score_totals_only: bool = False,
        core: str = "python",
        notes: TextIO | None = None,
    ) -> None:
        #: The core asked to play each hand (``engine.cores``); where it declines a variant, the Python engine plays
        #: and ``notes`` (stderr, for ``serve``) is told why, once a variant.
        self.core = core
        self._notes = notes
        self._noted: set[str] = set()
        self.mutate_rules = _rule_list(mutate_rule)
        self.mutate_parameters = checked_mutated_parameters(_parameter_map(mutate_parameter))
        self.fixed_parameters = checked_fixed_parameters(fixed_parameters or {})
        self.absent_features = frozenset(absent_features)
        self._absent_actions = _feature_actions(self.absent_features)
        self._protocol = 1
        self.score_totals_only = score_totals_only
        self.game: Game | None = None
        self.coverage: Coverage | None = None
        # The Rules recording into ``coverage`` during the request being handled (reset when it is answered).
        self._recorder: Rules | None = None
        # Rules of mutated clauses, per variant (with parameters) object: kept by this session, not shared.
        self._mutants: dict[int, tuple[Variant, Rules]] = {}

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        command = request.get("cmd")
        handler = getattr(self, f"_cmd_{command}", None) if isinstance(command, str) else None
        if handler is None:
            return {"ok": False, "error": f"unknown command {command!r}"}
        try:
            response: dict[str, Any] = handler(request)
        except CanastaError as error:
            return {"ok": False, "error": str(error)}
        finally:
            # Rules are shared (canasta_ref.engine.rules.rules_for): they record only while this session answers.
            if self._recorder is not None:
                self._recorder.coverage = None
                self._recorder = None
        return response

    def _record(self, rules: Rules) -> None:
        """Record rule coverage for what the scenario does (set-up, actions, scores), not for listings."""
        if self.coverage is not None:
            rules.coverage = self.coverage
            self._recorder = rules

    def _recording(self) -> None:
        if self.game is not None:
            self._record(self.game.rules)

    def _cmd_hello(self, request: Mapping[str, Any]) -> dict[str, Any]:
        protocol = hello_version(request)
        self._absent_actions = _feature_actions(self.absent_features | features_newer_than(protocol))
        name = "canasta-ref" + (f" (mutant: {self._mutation_text()})" if self._mutated() else "")
        capabilities: dict[str, Any] = {
            "setup_position": True,
            "parameters": True,
            "legal": "list",
            "rule_ids": True,
            "views": True,
            "score": True,
            "undo": True,
        }
        if protocol >= 2:
            capabilities.update(self._declared_limits())
        if protocol >= 4:
            capabilities["sample"] = True
        self._protocol = protocol
        return {
            "ok": True,
            "name": name,
            "version": VERSION,
            "protocol": protocol,
            "variants": list_variants(),
            "capabilities": capabilities,
        }

    def _declared_limits(self) -> dict[str, Any]:
        """Protocol 2's capabilities for what this engine cannot do (none for the plain reference)."""
        limits: dict[str, Any] = {}
        if self.score_totals_only:
            limits["score"] = "totals"
        if self.absent_features:
            limits["absent_features"] = sorted(self.absent_features)
        if self.fixed_parameters:
            limits["fixed_parameters"] = {v: dict(fixed) for v, fixed in self.fixed_parameters.items()}
        return limits

    def _mutated(self) -> bool:
        return bool(self.mutate_rules or self.mutate_parameters)

    def _mutation_text(self) -> str:
        rules = [f"{rule} negated" for rule in self.mutate_rules]
        parameters = [f"{name} = {value!r}" for name, value in self.mutate_parameters.items()]
        return ", ".join(rules + parameters)

    def rules_for(self, variant_id: str, parameters: Mapping[str, Any]) -> Rules:
        """The Rules of a set-up: shared with every user of the same variant and parameters (with_parameters
        keeps the variant), except with clauses negated, which only this session uses. Fixed parameters, then
        mutated ones (each where the variant has it), override those asked for."""
        overrides = {**parameters, **self.fixed_parameters.get(variant_id, {})}
        has = load_variant(variant_id).parameters
        overrides.update({name: value for name, value in self.mutate_parameters.items() if name in has})
        variant = with_parameters(variant_id, overrides)
        negated = [rule for rule in self.mutate_rules if rule in variant.clauses]
        if not negated:
            return rules_for(variant)
        known = self._mutants.get(id(variant))
        if known is None or known[0] is not variant:
            known = self._mutants[id(variant)] = (variant, Rules(negate_clauses(variant, negated)))
        return known[1]

    def _cmd_setup(self, request: Mapping[str, Any]) -> dict[str, Any]:
        variant = request.get("variant")
        if variant not in list_variants():
            return {"ok": False, "skip": f"unknown variant {variant!r}"}
        parameters = request.get("parameters") or {}
        if not isinstance(parameters, Mapping):
            raise CanastaError("field 'parameters': expected an object of parameter names and values")
        clash = self._fixed_clash(str(variant), parameters)
        if clash:
            return {"ok": False, "skip": clash}
        rules = self.rules_for(str(variant), parameters)
        since = variant_newer_than(self._protocol, rules)
        if since:  # listed in every version's hello, as every variant is, but played only in a version that can
            needs = _SETUP_NEEDS[since].format(variant=variant)
            return {"ok": False, "skip": f"{needs}, which protocol {since} added; this session speaks {self._protocol}"}
        self._record(rules)  # the deal itself exercises rules (upcard, red threes, hand size)
        self.game = game_from_setup(rules, request, self.core)
        self._note_core(self.game)
        return {"ok": True}

    def _note_core(self, game: Game) -> None:
        """Say once a variant why the core asked for does not play it."""
        if self._notes is not None and game.core_note and game.core_note not in self._noted:
            self._noted.add(game.core_note)
            self._notes.write(f"canasta-ref serve: {game.core_note}\n")
            self._notes.flush()

    def _fixed_clash(self, variant: str, parameters: Mapping[str, Any]) -> str | None:
        """Why a set-up asks for a fixed parameter at another value than this engine plays it (or None)."""
        fixed = self.fixed_parameters.get(variant, {})
        for name, value in parameters.items():
            if name in fixed and value != fixed[name]:
                return f"this engine plays {name} fixed at {fixed[name]!r} in {variant}, not {_quote(value)}"
        return None

    def _need_game(self) -> Game:
        if self.game is None:
            raise CanastaError("no hand is set up; send 'setup' first")
        return self.game

    def _cmd_apply(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        action = action_from_json(request.get("action"))
        since = action_newer_than(self._protocol, action)
        if since:
            raise CanastaError(
                f"field 'action': `{action}` names a meld, which protocol {since} added; this session speaks "
                f"{self._protocol}"
            )
        seat = request.get("seat")
        if seat is not None:
            seat = seat_field(seat, game.rules.players, "seat")
        if action.kind in self._absent_actions:
            # What PROTOCOL.md asks of an engine without the feature: a refusal citing no rule.
            message = f"this engine has no '{action.kind}' action (a feature it declares absent)"
            return {"ok": True, "accepted": False, "rule": None, "message": message}
        self._recording()
        try:
            game.apply(action, seat)
        except IllegalAction as refusal:
            return {"ok": True, "accepted": False, "rule": refusal.rule_id, "message": refusal.explanation}
        return {"ok": True, "accepted": True}

    def _cmd_legal(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        limit = request.get("limit") if self._protocol >= 4 else None
        if limit is not None:
            whole_number(limit, "limit", "a number of actions", 0, WORD_LIMIT)
            count = self._count(game)
            if count > limit:
                return {"ok": True, "count": count, "truncated": True}
        actions = [a for a in game.legal_actions() if a.kind not in self._absent_actions]
        return {"ok": True, "actions": [a.to_json() for a in actions]}

    def _cmd_count(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self._need_version(4, "count")
        return {"ok": True, "count": self._count(self._need_game())}

    def _cmd_sample(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self._need_version(4, "sample")
        game = self._need_game()
        wanted, seed = request.get("n", 1), request.get("seed", 0)
        if type(wanted) is not int or not 1 <= wanted <= SAMPLE_LIMIT:
            wanted_text = _quote(wanted)
            raise CanastaError(f"field 'n': expected a number of actions from 1 to {SAMPLE_LIMIT}, got {wanted_text}")
        whole_number(seed, "seed", "a seed", -WORD_LIMIT - 1, WORD_LIMIT)
        count = self._count(game)
        rng = random.Random(seed)
        legal = game.legal_actions()
        drawn: list[dict[str, Any]] = []
        while count and len(drawn) < wanted:
            action = legal.sample(rng)
            if action.kind not in self._absent_actions:  # a few bare actions at most: redrawing stays uniform
                drawn.append(action.to_json())
        return {"ok": True, "count": count, "actions": drawn}

    def _count(self, game: Game) -> int:
        """The legal actions of the seat to act, less those of the features this engine declares absent (all of
        them bare actions, which the listing keeps in its short blocks)."""
        legal = game.legal_actions()
        absent = sum(1 for a in game.bare_legal_actions() if a.kind in self._absent_actions)
        return legal.count() - absent

    def _need_version(self, version: int, command: str) -> None:
        if self._protocol < version:
            raise CanastaError(f"'{command}' is a request of protocol {version}; this session speaks {self._protocol}")

    def _cmd_view(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        return {"ok": True, "view": game.view(seat_field(request.get("seat"), game.rules.players, "seat"))}

    def _cmd_score(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        self._recording()
        score = game.score()
        totals = [before + now for before, now in zip(game.state.team_scores, score.totals, strict=True)]
        # The hands played so far are this hand's number in the match (1 unless the set-up gave hand_number).
        outright = outright_winner(game.rules, game.state)
        match_over = game.is_over and match_end(game.rules, totals, game.state.hand_number, outright).over
        reply = {
            "ok": True,
            "over": game.is_over,
            "end": game.state.end_reason,
            "totals": score.totals,
            "parts": [side.parts for side in score.sides],
            "match_over": match_over,
        }
        seat_parts = score.seat_parts()
        if seat_parts is not None and self._protocol >= SEAT_PARTS_SINCE:
            reply["seat_parts"] = seat_parts
        if self.score_totals_only:
            del reply["parts"]
            reply.pop("seat_parts", None)
        return reply

    def _cmd_undo(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self._need_game().undo()
        return {"ok": True}

    def _cmd_quit(self, request: Mapping[str, Any]) -> dict[str, Any]:
        return {"ok": True, "bye": True}


__all__ = [
    "BONUS_DRAWS_SINCE",
    "FEATURE_ACTIONS",
    "FEATURE_SINCE",
    "NAMED_MELDS_SINCE",
    "POSITION_FIELDS",
    "PROTOCOLS",
    "PROTOCOL_VERSION",
    "VARIANT_NEEDS",
    "VERSION_3_POSITION_FIELDS",
    "VERSION_5_POSITION_FIELDS",
    "VERSION_7_POSITION_FIELDS",
    "ReferenceSession",
    "action_newer_than",
    "checked_fixed_parameters",
    "features_newer_than",
    "game_from_setup",
    "hello_version",
    "names_a_meld",
    "negate_clause",
    "negate_clauses",
    "position_content_newer_than",
    "position_from_json",
    "variant_newer_than",
    "version_3_position_content",
    "version_6_position_content",
]
