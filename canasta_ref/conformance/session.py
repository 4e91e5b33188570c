"""The reference interpreter behind the engine protocol: one request in, one response out.

``canasta-ref serve`` wraps this in a JSON-lines loop; the runner can also call it in process. A mutation
(one clause negated, or a parameter changed) turns it into a deliberately wrong engine, to measure how many
wrong engines the suite catches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..actions import action_from_json
from ..cards import parse_cards
from ..errors import CanastaError, IllegalAction
from ..game import Game
from ..match import match_end
from ..position import Position
from ..rules import Coverage, Rules, rules_for
from ..spec import Variant, list_variants
from .variants import with_parameters

PROTOCOL_VERSION = 1
VERSION = "0.1.0"


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


class ReferenceSession:
    """Answers protocol requests with the reference interpreter."""

    def __init__(self, *, mutate_rule: str | None = None, mutate_parameter: tuple[str, Any] | None = None) -> None:
        self.mutate_rule = mutate_rule
        self.mutate_parameter = mutate_parameter
        self.game: Game | None = None
        self.coverage: Coverage | None = None
        # The Rules recording into ``coverage`` during the request being handled (reset when it is answered).
        self._recorder: Rules | None = None
        # Rules of a mutated clause, per variant (with parameters) object: kept by this session, not shared.
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
            # Rules are shared (canasta_ref.rules.rules_for): they record only while this session answers.
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
        name = "canasta-ref" + (f" (mutant: {self._mutation_text()})" if self._mutated() else "")
        return {
            "ok": True,
            "name": name,
            "version": VERSION,
            "protocol": PROTOCOL_VERSION,
            "variants": list_variants(),
            "capabilities": {
                "setup_position": True,
                "parameters": True,
                "legal": "list",
                "rule_ids": True,
                "views": True,
                "score": True,
                "undo": True,
            },
        }

    def _mutated(self) -> bool:
        return self.mutate_rule is not None or self.mutate_parameter is not None

    def _mutation_text(self) -> str:
        if self.mutate_rule:
            return f"{self.mutate_rule} negated"
        assert self.mutate_parameter is not None
        return f"{self.mutate_parameter[0]} = {self.mutate_parameter[1]!r}"

    def rules_for(self, variant_id: str, parameters: Mapping[str, Any]) -> Rules:
        """The Rules of a set-up: shared with every user of the same variant and parameters (with_parameters
        keeps the variant), except with a clause negated, which only this session uses."""
        overrides = dict(parameters)
        if self.mutate_parameter is not None:
            overrides[self.mutate_parameter[0]] = self.mutate_parameter[1]
        variant = with_parameters(variant_id, overrides)
        if self.mutate_rule is None or self.mutate_rule not in variant.clauses:
            return rules_for(variant)
        known = self._mutants.get(id(variant))
        if known is None or known[0] is not variant:
            known = self._mutants[id(variant)] = (variant, Rules(negate_clause(variant, self.mutate_rule)))
        return known[1]

    def _cmd_setup(self, request: Mapping[str, Any]) -> dict[str, Any]:
        variant = request.get("variant")
        if variant not in list_variants():
            return {"ok": False, "skip": f"unknown variant {variant!r}"}
        parameters = request.get("parameters") or {}
        if not isinstance(parameters, Mapping):
            raise CanastaError("field 'parameters': expected an object of parameter names and values")
        rules = self.rules_for(str(variant), parameters)
        self._record(rules)  # the deal itself exercises rules (upcard, red threes, hand size)
        self.game = game_from_setup(rules, request)
        return {"ok": True}

    def _need_game(self) -> Game:
        if self.game is None:
            raise CanastaError("no hand is set up; send 'setup' first")
        return self.game

    def _cmd_apply(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        action = action_from_json(request.get("action"))
        seat = request.get("seat")
        if seat is not None:
            seat = _seat(seat, game.rules.players, "seat")
        self._recording()
        try:
            game.apply(action, seat)
        except IllegalAction as refusal:
            return {"ok": True, "accepted": False, "rule": refusal.rule_id, "message": refusal.explanation}
        return {"ok": True, "accepted": True}

    def _cmd_legal(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        return {"ok": True, "actions": [a.to_json() for a in game.legal_actions()]}

    def _cmd_view(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        return {"ok": True, "view": game.view(_seat(request.get("seat"), game.rules.players, "seat"))}

    def _cmd_score(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        self._recording()
        score = game.score()
        totals = [before + now for before, now in zip(game.state.team_scores, score.totals, strict=True)]
        match_over = game.is_over and match_end(game.rules, totals, 1).over
        return {
            "ok": True,
            "over": game.is_over,
            "end": game.state.end_reason,
            "totals": score.totals,
            "parts": [side.parts for side in score.sides],
            "match_over": match_over,
        }

    def _cmd_undo(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self._need_game().undo()
        return {"ok": True}

    def _cmd_quit(self, request: Mapping[str, Any]) -> dict[str, Any]:
        return {"ok": True, "bye": True}


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise CanastaError(f"field '{field}': expected cards as text, such as \"KH KS 2C\"")
    return value


def _seat(value: Any, players: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise CanastaError(f"field '{field}': expected a seat from 0 to {players - 1}, got {value!r}")
    return value


def _scores(value: Any, teams: int) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != teams or not all(type(v) is int for v in value):
        raise CanastaError(f"field 'team_scores': expected {teams} whole numbers, got {value!r}")
    return value


def _choice(value: Any, field: str, choices: tuple[str, ...]) -> Any:
    if value not in choices:
        raise CanastaError(f"field '{field}': expected one of {', '.join(choices)}, got {value!r}")
    return value


def game_from_setup(rules: Rules, request: Mapping[str, Any]) -> Game:
    """The hand a 'setup' request starts under ``rules``: its written-out position, or its deck dealt."""
    if "position" in request:
        return Game.from_position(rules, position_from_json(request["position"], rules))
    return Game(
        rules,
        deck=parse_cards(_text(request.get("deck", ""), "deck")),
        team_scores=_scores(request.get("team_scores"), rules.teams),
        first_seat=_seat(request.get("first_seat", 0), rules.players, "first_seat"),
    )


def position_from_json(data: Mapping[str, Any], rules: Rules) -> Position:
    """A position as the protocol and scenario files write it: cards as text, one string per hand."""
    if not isinstance(data, Mapping) or not isinstance(data.get("hands"), list):
        raise CanastaError("field 'position': expected an object with 'hands', a list of cards as text")
    melded = data.get("melded", [])
    if not isinstance(melded, list) or (melded and len(melded) != rules.players):
        raise CanastaError(f"field 'position.melded': expected {rules.players} true/false values, one per seat")
    sides = data.get("melds", [])
    bonus = data.get("red_threes", [])
    if not isinstance(sides, list) or not all(isinstance(side, list) for side in sides):
        raise CanastaError("field 'position.melds': expected a list per side of melds written as text")
    if not isinstance(bonus, list):
        raise CanastaError("field 'position.red_threes': expected a list per seat of cards as text")
    return Position(
        hands=[parse_cards(_text(t, "position.hands")) for t in data["hands"]],
        pile=parse_cards(_text(data.get("pile", ""), "position.pile")),
        stock=parse_cards(_text(data["stock"], "position.stock")) if "stock" in data else None,
        melds=[[parse_cards(_text(m, "position.melds")) for m in side] for side in sides],
        bonus=[parse_cards(_text(t, "position.red_threes")) for t in bonus],
        team_scores=_scores(data.get("team_scores"), rules.teams) or [],
        to_act=_seat(data.get("to_act", 0), rules.players, "position.to_act"),
        phase=_choice(data.get("phase", "draw"), "position.phase", ("draw", "play")),
        upcard_froze=bool(data.get("upcard_froze", False)),
        seat_melded=[bool(m) for m in melded],
        permission=_choice(data.get("permission", "none"), "position.permission", ("none", "yes", "no")),
    )


__all__ = ["PROTOCOL_VERSION", "ReferenceSession", "game_from_setup", "negate_clause", "position_from_json"]
