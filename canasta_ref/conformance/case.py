"""One scenario played on an engine beside the reference, each check tallied, the engine put back in step
when its verdict left it elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ..engine.actions import Action, parse_action
from ..engine.game import Game
from ..engine.rules import Rules
from ..errors import CanastaError
from . import causes
from .case_setup import apply_request
from .causes import nameable
from .checks import (
    _Check,
    _check_views_agree,
    _count,
    _end,
    _excludes,
    _expected_view,
    _Group,
    _holds,
    _includes,
    _legal_reply,
    _match_over,
    _over,
    _part,
    _score_reply,
    _seat_part,
    _totals,
    _view_field,
    cite,
    deck_size,
    verdict_problem,
)
from .engines import Engine, error_text
from .plaintext import shown
from .scenario import Expect, Scenario
from .session import (
    SEAT_PARTS_SINCE,
    action_newer_than,
    position_content_newer_than,
)
from .setup import game_from_setup, position_json, setup_request
from .skips import UNNAMED, feature_lacking
from .tally import (
    NO_LEGAL,
    NO_PARTS,
    NO_RULE_IDS,
    NO_SCORE,
    NO_SEAT_PARTS,
    NO_VIEWS,
    CheckKey,
    Differs,
    Mismatch,
    Skip,
    SkipCheck,
    Tally,
)

#: Where the reference can be that a written-out position cannot say (its ``phase`` is ``draw`` or ``play``):
#: an engine that parted from it there cannot be put back by a set-up.
UNWRITABLE_PHASES = {
    "over": "the reference's hand has ended",
    "answer": "the reference waits for the partner's answer",
    "keep": "the reference waits for a bonus card to be kept or laid out",
}


class _Case:
    """One scenario played on an engine beside the reference, which says where the engine should be."""

    def __init__(
        self,
        engine: Engine,
        scenario: Scenario,
        variant: str,
        rules: Rules,
        tally: Tally,
        *,
        parameters: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        dependent: Mapping[CheckKey, str] | None = None,
    ) -> None:
        self.engine = engine
        self.info = engine.info
        self.scenario = scenario
        self.variant = variant
        self.rules = rules
        self.clauses = rules.variant.clauses
        self.tally = tally
        named = [rule for rule in scenario.rules if rule in self.clauses]
        tally.scenario_rule = named[0] if len(scenario.rules) == 1 and named else None
        if scenario.level == "implementation-defined":
            tally.cited = frozenset(scenario.rules)
            tally.notation = frozenset(
                r for r in scenario.rules if r in self.clauses and rules.variant.is_convention(r)
            )
        self.parameters = dict(scenario.parameters if parameters is None else parameters)
        self.request = setup_request(scenario.setup if setup is None else setup, variant, self.parameters, rules)
        self.reference = self._reference_game()
        self.in_step = True
        #: The checks skipped because their answer depends on what the engine declared (fixed, not held).
        self.dependent = dict(dependent or {})
        #: The actions the reference took since the set-up, with their seats: replayed to put the engine back.
        self.taken: list[tuple[Action, int | None]] = []

    def _reference_game(self) -> Game | None:
        """The reference's hand of the set-up (None if it cannot make it: then only the engine's replies count)."""
        try:
            return game_from_setup(self.rules, self.request)
        except CanastaError:
            return None

    def play(self) -> None:
        reply = self.engine.request(self.request)
        if not reply.get("ok"):
            if "skip" in reply:
                raise Skip(f"the engine says: {reply['skip']}")
            self.tally.failed(None, "setup", f"setup refused: {error_text(reply)}")
            self.in_step = False
        for number, step in enumerate(self.scenario.steps, 1):
            self.tally.step_exercises = step.rule if step.rule in self.clauses else None
            self._step(number, step.action, step.seat, step.expect)

    def _step(self, number: int, text: str, seat: int | None, expect: Expect) -> None:
        where = f"step {number} `{text}`{self._out_of_turn(seat)}"
        action = parse_action(text)
        applied = self._reference_apply(action, seat, expect.accepted)
        if self.in_step:
            reply = self.engine.request(apply_request(action, seat))
            now = self._verdict(number, where, action.kind, expect, reply)
            if now is not applied:
                self.in_step = self._resync(where, now, applied)
        else:
            self.tally.unreached()
            self._rule_unmade(expect)
        failed_before = len(self.tally.failures)
        for group in self._after(where, expect):
            self._run(number, group)
        if applied:
            self._run(number, self._views_agree(where))
        if self.in_step and len(self.tally.failures) > failed_before:
            # The engine's position differs from the reference's: put it back, so later steps are judged afresh.
            self.in_step = self._resync(where, applied, applied)

    def _out_of_turn(self, seat: int | None) -> str:
        """Said after a step played by a seat that is not to act, so an engine that ignores ``seat`` sees why the
        step should be refused; nothing for any other step."""
        if seat is None or self.reference is None or self.reference.is_over or seat == self.reference.to_act:
            return ""
        return f" by seat {seat} (seat {self.reference.to_act} is to act)"

    def _reference_apply(self, action: Action, seat: int | None, expected: bool) -> bool:
        """Play the step on the reference: whether it took the action (the expectation, without a reference)."""
        self.tally.step_rule = None
        if self.reference is None:
            return expected
        try:
            self.reference.apply(action, seat)
        except CanastaError as refusal:
            rule = getattr(refusal, "rule_id", None)
            self.tally.step_rule = rule if rule in self.clauses else None
            return False
        self.taken.append((action, seat))
        return True

    def _verdict(self, number: int, where: str, kind: str, expect: Expect, reply: Mapping[str, Any]) -> bool | None:
        """Check the engine's verdict on an action of ``kind`` (and the rule it cites); returns whether the engine
        took the action (None: it cannot be told)."""
        if not reply.get("ok"):
            message = f"{where}: the engine reported an error: {error_text(reply)}"
            self.tally.failed(number, "verdict", message, cause=causes.VERDICT_ERROR)
            self._rule_unmade(expect)
            return False
        accepted = reply.get("accepted")
        problem = verdict_problem(accepted)
        if not problem and (number, "verdict") in self.dependent:
            self.tally.skipped(self.dependent[number, "verdict"])
            if not expect.accepted and expect.rule:  # the rule a refusal cites depends on it too
                self.tally.skipped(self.dependent[number, "verdict"])
            return bool(accepted)
        if problem:
            self.tally.failed(number, "verdict", f"{where}: {problem}", cause=causes.VERDICT_MALFORMED)
            self._rule_unmade(expect)
            return None
        if accepted != expect.accepted:
            wanted = "accepted" if expect.accepted else f"refused by {expect.rule or 'a rule'}"
            got = (
                "accepted"
                if accepted
                else f"refused by {reply.get('rule') or 'an unnamed rule'} ({reply.get('message', '')})"
            )
            # The rule it is about: the refusal expected, or the engine's refusal by a rule of the variant.
            rule = expect.rule or (nameable(reply.get("rule"), self.clauses) if self.info.can("rule_ids") else None)
            message = f"{where}: expected {wanted}, got {got}{cite(self.clauses, rule)}"
            cause = causes.accepts(kind) if accepted else causes.refuses(kind)
            self.tally.failed(number, "verdict", message, rule, expected=expect.rule, cause=cause)
            self._rule_unmade(expect)
            return bool(accepted)
        self.tally.passed(telling=not accepted)
        if not accepted and expect.rule:
            self._check_rule(number, where, expect.rule, reply.get("rule"))
        return bool(accepted)

    def _check_rule(self, number: int, where: str, wanted: str, cited: Any) -> None:
        if not self.info.can("rule_ids"):
            self.tally.skipped(NO_RULE_IDS)
        elif (number, "rule") in self.dependent:
            self.tally.skipped(self.dependent[number, "rule"])
        elif cited != wanted:
            citing = "no rule" if cited is None else shown(cited)
            message = f"{where}: refused, but citing {citing} instead of {wanted}" + cite(self.clauses, wanted)
            self.tally.failed(number, "rule", message, wanted, expected=wanted)
        else:
            self.tally.passed()

    def _rule_unmade(self, expect: Expect) -> None:
        """The rule a refusal should cite, when the verdict it belongs to did not come: skipped or not reached."""
        if not expect.accepted and expect.rule:
            if self.info.can("rule_ids"):
                self.tally.unreached()
            else:
                self.tally.skipped(NO_RULE_IDS)

    # -- back in step after a verdict that differs --------------------------------------------------------

    def _resync(self, where: str, engine_took: bool | None, reference_took: bool) -> bool:
        """Put the engine back where the reference is: ``undo`` what it should have refused, set up the reference's
        position, or set it up as at the start and replay the actions the reference took. False (the reason noted)
        when it cannot be done: the later checks are not reached."""
        if engine_took and not reference_took and self.info.can("undo"):
            reply = self.engine.request({"cmd": "undo"})
            if reply.get("ok"):
                return True
            return self._lost(f"{where}: the engine refused to undo it ({error_text(reply)})")
        if self.reference is None:
            return self._lost(f"{where}: the reference cannot play this set-up, so the engine cannot be put back")
        unwritten = self._unwritable(engine_took)
        if unwritten is None:
            return self._resync_by_position(where)
        return self._resync_by_replay(where, unwritten)

    def _unwritable(self, engine_took: bool | None) -> str | None:
        """Why the engine cannot be set up at the reference's position (None: it can)."""
        assert self.reference is not None
        if not self.info.can("setup_position") or self.info.unheld_position_fields:
            took = "took it" if engine_took else "did not take it" if engine_took is False else "answered so"
            why = "cannot undo it nor" if engine_took else "cannot"
            return f"the engine {took} and {why} be set up at the reference's position"
        unwritable = UNWRITABLE_PHASES.get(self.reference.state.phase)
        if unwritable:
            return f"{unwritable}, which no set-up can write out"
        since, newer = position_content_newer_than(self.info.protocol, self.rules, position_json(self.reference))
        if newer:
            return (
                f"the reference's position has {' or '.join(newer)}, which the engine's protocol "
                f"{self.info.protocol} cannot set up (version {since} added it)"
            )
        return None

    def _resync_by_position(self, where: str) -> bool:
        reply = self.engine.request(self._position_request())
        if reply.get("ok"):
            return True
        return self._lost(
            f"{where}: the engine refused the set-up that puts it back at the reference's position "
            f"({error_text(reply)})"
        )

    def _resync_by_replay(self, where: str, unwritten: str) -> bool:
        """Set the engine up as at the start and replay every action the reference took: the engine is back in
        step if it takes them all (it refused one, or the set-up: the reason noted)."""
        reply = self.engine.request(self.request)
        if not reply.get("ok"):
            return self._lost(f"{where}: {unwritten}, and it refused the set-up again to replay the actions")
        for number, (action, seat) in enumerate(self.taken, 1):
            reply = self.engine.request(apply_request(action, seat))
            if reply.get("accepted") is not True:
                return self._lost(
                    f"{where}: {unwritten}, and replaying the reference's actions from the set-up, it did not take "
                    f"action {number}, `{action}`"
                )
        return True

    def _position_request(self) -> dict[str, Any]:
        assert self.reference is not None
        position = position_json(self.reference)
        return {"cmd": "setup", "variant": self.variant, "parameters": dict(self.parameters), "position": position}

    def _lost(self, why: str) -> bool:
        self.tally.notes.append(f"{why}; the later checks were not reached")
        return False

    # -- the checks after a step ----------------------------------------------------------------------------

    def _run(self, number: int, group: _Group) -> None:
        """Make a group's checks (skipped ones counted), one request answering them all."""
        live = []
        for check in group.checks:
            skip = check.skip or self.dependent.get((number, check.name))
            if skip:
                self.tally.skipped(skip)
            else:
                live.append(check)
        if not live:
            return
        if not self.in_step:
            self.tally.unreached(len(live))
            return
        try:
            reply = group.fetch()
        except Mismatch as mismatch:
            self.tally.failed(number, live[0].name, str(mismatch), mismatch.rule or live[0].rule, cause=mismatch.cause)
            self.tally.unreached(len(live) - 1)
            return
        for check in live:
            outcome = check.compare(reply)
            if outcome is None:
                self.tally.passed()
            elif isinstance(outcome, SkipCheck):
                self.tally.skipped(outcome.reason)
            elif isinstance(outcome, Differs):
                self.tally.failed(number, check.name, outcome.message, check.rule, cause=outcome.cause)
            else:
                self.tally.failed(number, check.name, outcome, check.rule)

    def _after(self, where: str, expect: Expect) -> list[_Group]:
        return [self._legal_checks(where, expect), self._view_checks(where, expect), self._score_checks(where, expect)]

    def _legal_checks(self, where: str, expect: Expect) -> _Group:
        none = None if self.info.can("legal") else NO_LEGAL
        checks = [
            _Check("legal_includes", partial(_includes, where, text), skip=none or self._lacking(text))
            for text in expect.legal_includes
        ]
        checks += [
            _Check("legal_excludes", partial(_excludes, where, text), skip=none or self._newer("legal_excludes", text))
            for text in expect.legal_excludes
        ]
        if expect.legal_count is not None:
            count = expect.legal_count
            checks.append(_Check("legal_count", partial(_count, where, count), skip=none or self._uncountable()))
        return _Group(partial(_legal_reply, self.engine, where), checks)

    def _lacking(self, text: str) -> str | None:
        feature = feature_lacking(self.info, parse_action(text).kind)
        if feature:
            return f"legal_includes (the engine has no {feature})"
        return self._newer("legal_includes", text)

    def _newer(self, check: str, text: str) -> str | None:
        """Why a check of an action's legality cannot be asked of the engine: its version cannot write the action."""
        if action_newer_than(self.info.protocol, parse_action(text)):
            return f"{check} (the engine speaks protocol {self.info.protocol}, {UNNAMED})"
        return None

    def _uncountable(self) -> str | None:
        """Why the engine's count of legal actions cannot match the reference's: it includes actions of a
        feature the engine lacks (None when it can match, or cannot be told)."""
        if not self.info.absent_features or self.reference is None:
            return None
        for action in self.reference.legal_actions():
            feature = feature_lacking(self.info, action.kind)
            if feature:
                return f"legal_count (the engine has no {feature}, and the legal actions include `{action.kind}`)"
        return None

    def _view_checks(self, where: str, expect: Expect) -> _Group:
        view = expect.view or {}
        seat: int = view.get("seat", 0)
        skip = None if self.info.can("views") else NO_VIEWS
        checks = [
            _Check(f"view.{key}", partial(_view_field, where, seat, key, wanted), skip=skip)
            for key, wanted in view.items()
        ]
        return _Group(partial(_expected_view, self.engine, seat, where), checks)

    def _score_checks(self, where: str, expect: Expect) -> _Group:
        skip = None if self.info.can("score") else NO_SCORE
        checks = []
        if expect.match_over is not None:
            checks.append(_Check("match_over", partial(_match_over, where, expect.match_over), skip=skip))
        if expect.over is not None:
            checks.append(_Check("score.over", partial(_over, where, expect.over), skip=skip))
        if expect.end is not None:
            checks.append(_Check("score.end", partial(_end, where, expect.end), skip=skip))
        score = expect.score or {}
        if "totals" in score:
            checks.append(_Check("score.totals", partial(_totals, where, list(score["totals"])), skip=skip))
        elif ("parts" in score or "seats" in score) and self.reference is not None:
            # Parts alone would pass an engine that reports totals only (its parts are skipped) whatever its
            # totals: where a scenario checks parts, the totals are checked too, against the reference's.
            reference_totals = list(self.reference.score().totals)
            checks.append(_Check("score.totals", partial(_totals, where, reference_totals), skip=skip))
        parts_skip = skip or (None if self.info.score_parts else NO_PARTS)
        for side, parts in enumerate(score.get("parts", [])):
            for rule, points in parts.items():
                compare = partial(_part, where, self.clauses, side, rule, points)
                checks.append(_Check("score.parts", compare, skip=parts_skip))
        seats_skip = parts_skip or (None if self.info.protocol >= SEAT_PARTS_SINCE else NO_SEAT_PARTS)
        for seat, parts in enumerate(score.get("seats", [])):
            for rule, points in parts.items():
                compare = partial(_seat_part, where, self.clauses, seat, rule, points)
                checks.append(_Check("score.seats", compare, skip=seats_skip))
        return _Group(partial(_score_reply, self.engine), checks)

    def _views_agree(self, where: str) -> _Group:
        """The generic properties of the position after an action taken: one check."""
        cards, players = deck_size(self.rules), self.rules.players
        check = _Check("views agree", _holds, skip=None if self.info.can("views") else NO_VIEWS)
        return _Group(partial(_check_views_agree, self.engine, where, cards, players), [check])
