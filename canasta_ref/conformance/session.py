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
from ..errors import CanastaError, IllegalAction
from ..game import Game
from ..match import match_end
from ..rules import Coverage, Rules, rules_for
from ..spec import Variant, list_variants
from .setup import game_from_setup, position_from_json, seat_field, with_parameters

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
            seat = seat_field(seat, game.rules.players, "seat")
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
        return {"ok": True, "view": game.view(seat_field(request.get("seat"), game.rules.players, "seat"))}

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


__all__ = ["PROTOCOL_VERSION", "ReferenceSession", "game_from_setup", "negate_clause", "position_from_json"]
