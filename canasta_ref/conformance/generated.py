"""Generated games: random hands played on an engine and on the reference at once, step by step, compared.

``run_generated_games(engine, games, seed, variants=...)`` plays ``games`` hands chosen by Hypothesis (the same seed
gives the same hands against a deterministic engine). Each game draws a variant both sides play, a deck order (from
a seed), the first seat and the scores before the hand; then, step by step, the reference (an in-process
``canasta_ref.Game``) lists its legal actions and the game picks a move: a legal action (sometimes first sent
for a seat that is not to act, which must be refused), or, 15 times in a hundred, a move meant to be refused (a
candidate the rules refuse, a card not held, the wrong seat, an action out of its phase, a meld made up from the
hand). The move goes to the engine (``apply``) and to the reference; they must agree on accepted or refused, and
on the rule cited when the engine has the ``rule_ids`` capability.

The deal is checked in full before any move (as the checked steps below are). A game then plays a run of
``prefix`` steps (drawn from 0 to ``max_prefix``) where only the verdicts are compared, so that play reaches the
middle and the end of hands cheaply (with the defaults about half the games reach the end of the hand); the next
``checked_steps`` steps are checked in full: after each, every seat's ``view`` (normalised as the runner does),
the ``score`` (totals, over, end) and the legal actions (as sets of canonical actions, when the engine lists
them; their number when it counts them). A game that ends during its prefix is checked in full at the end.

Generic properties, checked on the engine in every game:

* cards are conserved: in every view, the seat's own hand has the size its ``hand_sizes`` says, and hands, stock,
  pile, melds and bonus cards add up to the whole deck;
* a view has the protocol's fields only (conformance/PROTOCOL.md, ``view``): an extra field could hold hidden cards;
* only the seat to act may act: a legal action sent for another seat first is refused (``TURN.ORDER``);
* the hand ends: the engine's score says ``over`` exactly when the reference's does, and once it is over a further
  ``draw`` is refused (the reference ends every hand within ``hand_bound(rules)`` actions, 868 with two packs and
  four jokers; our games are shorter);
* the same deck and actions give the same transcript: the game is replayed on the engine (set up again, every move
  sent again) and the verdicts and final views must be the same;
* a seat's view does not depend on cards hidden from it: with ``setup_position``, the final position is written
  out with the other hands' cards and the stock dealt anew among them, and that seat's view must not change.

A run goes on past a disagreement, so that one missing feature does not hide the others. Each disagreement has a
key (``deviations.DeviationKey``: the check that failed, the rule behind it when one is known, the kind of action);
the run logs it under its key, and then, if the engine can be set up at a written-out position, sets engine and
reference alike to the reference's position and plays on; otherwise (or where no position can say where the
reference is: a partner asked to answer) it sets the engine up again where the game started and replays the
reference's actions, and plays on if the engine takes them all (else that game ends and the next one starts).
After the games, each distinct deviation is shrunk: the run is played again from the same seed up to the game
where the key was first seen, and Hypothesis shrinks that game, a smaller game counting only if it shows a
deviation of the same key (within ``shrink_seconds`` a key, for at most ``max_shrunk`` keys). The shrunk game
becomes a scenario in the format of ``conformance/scenario.schema.json``: the deck order (or the written-out
position it was re-synchronised at), every move with the *reference's* verdict as the expectation, and at the
step where they disagreed the reference's view, score or legal actions. ``GeneratedReport.report_lines`` prints
each, ready to save as ``conformance/scenarios/<id>.yaml``. Known deviations (``masks``, from a known-failures
file) are reported as known failures and not shrunk; a mask no game needed is reported as stale. An engine that
crashes, hangs or answers garbage is reported as errored or timed out for that game, restarted, and the run goes
on (it stops after five such games in a row).

What an engine declares in protocol 2 is respected: actions of a feature it lacks are neither sent nor expected,
the parameters it fixes are set on the reference too, and an action the reference refuses only by its own
notation (a clause whose every source is the project's convention) is neither sent as a move meant to be refused
nor held against an engine that lists it. An engine speaking a version older than 6 plays no variant whose melds
must be named (``Rules.names_melds``: sequences, or several melds of one rank), which its actions cannot do: the
run leaves those variants out, saying so; nor is it sent a move meant to be refused that names a meld.

The same seed gives the same games whatever else the process has imported (Hypothesis's habit of mixing in
numbers found in local source files is switched off during the run). Requests to a subprocess engine are
pipelined: a step's requests are written at once and the reference computes its side while the engine answers.
The ``rules`` a generated scenario cites are a best guess (the reference's refusal, the score parts that differ,
the rules by which the reference refuses what the engine lists), to be checked when the scenario is saved.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ..engine.actions import Action, parse_action
from ..engine.cards import Card, cards_of
from ..engine.game import Game
from ..engine.rules import Rules
from ..errors import CanastaError
from ..spec import list_variants
from . import causes
from .deviations import Deviation, DeviationKey, DeviationLog, Mask
from .engines import Engine, EngineFailure, EngineInfo, excerpt
from .failures import Failure, FailureKind, scenario_yaml, score_of
from .findings import Campaign
from .plaintext import shown
from .report import few, nothing_ran
from .runner import (
    Result,
    action_text,
    apply_request,
    deal_request,
    failure_status,
    normalise_view,
    normalised_or_none,
    unnamed_melds,
    verdict_problem,
    view_problem,
)
from .session import (
    action_newer_than,
    position_content_newer_than,
    position_from_json,
    variant_newer_than,
)
from .setup import position_json
from .strategies import (
    Draw,
    Move,
    Pick,
    Played,
    Setup,
    choose,
    choose_legal,
    draw_illegal,
    hand_bound,
    picker,
    play,
    setups,
    verdict,
)
from .variants import reference_rules
from .views import normalise_field, unknown_field_problem

#: At most this many requests are written before their answers are read (pipes hold 64 KiB).
PIPELINE_DEPTH = 24
#: The run stops after this many games in a row end with an engine failure.
MAX_FAILED_IN_A_ROW = 5


# -- the report ----------------------------------------------------------------------------------------------------
@dataclass
class GeneratedScenario:
    """A disagreement turned into a scenario file's text."""

    id: str
    variant: str
    message: str
    yaml: str
    steps: int


@dataclass
class GeneratedReport:
    """What a run of generated games found: one Result a game (or a disagreement), and counts."""

    seed: int
    requested: int
    results: list[Result] = field(default_factory=list)
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    shrink_runs: int = 0
    scenarios: list[GeneratedScenario] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The distinct deviations found, in the order first seen (masked ones included).
    deviations: list[Deviation] = field(default_factory=list)
    #: The games played, by variant.
    played: Counter[str] = field(default_factory=Counter)

    def campaign(self) -> Campaign:
        """What a run's summary needs of these games."""
        return Campaign(self.results, self.deviations, dict(self.played))

    @property
    def disagreements(self) -> int:
        return len(self.scenarios)

    def summary(self) -> dict[str, Any]:
        seconds = round(self.seconds, 3)
        return {
            "seed": self.seed,
            "games": self.games,
            "steps": self.steps,
            "disagreements": self.disagreements,
            "seconds": seconds,
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds > 0 else 0.0,
            "shrink_runs": self.shrink_runs,
            "deviations": [d.to_json() for d in self.deviations],
        }

    def headline_lines(self) -> list[str]:
        """The run in a line, with its notes (for the summary: the deviations are among the run's findings)."""
        s = self.summary()
        lines = [
            f"generated games (seed {self.seed}): {s['games']} of {self.requested} played, {s['steps']} steps, "
            f"{s['disagreements']} disagreement{'s' if s['disagreements'] != 1 else ''}, {s['seconds']:.1f} s "
            f"({s['games_per_second']} games/s)"
        ]
        lines.extend(f"  {note}" for note in self.notes)
        if self.requested > 0 and nothing_ran(self.results):
            reasons = sorted({r.message for r in self.results}) or ["no game was played"]
            lines.append(f"  nothing was tested: no generated game was played ({'; '.join(reasons[:3])})")
        if self.scenarios:
            lines.append("  each deviation shrunk to a scenario: --verbose prints them, the JSON report holds them")
        return lines

    def report_lines(self) -> list[str]:
        """Everything: the headline, engine failures, each deviation's key, and each shrunk scenario's file."""
        lines = self.headline_lines()
        for result in self.results:
            if result.status in ("errored", "timed out", "unexpected pass"):
                lines.append(f"  {result.status.upper()}: {result.key}: {result.message}")
        if self.deviations:
            lines.append(f"  {len(self.deviations)} distinct deviation(s), by check / rule / action:")
        for deviation in self.deviations:
            games = len(deviation.games)
            known = f" [known: {deviation.mask.reason}]" if deviation.mask is not None else ""
            lines.append(
                f"    {deviation.key}: {games} game{'s' if games != 1 else ''}, first game {deviation.first_game}"
                f"{known}"
            )
        for scenario in self.scenarios:
            lines.append(f"DISAGREEMENT {scenario.id}@{scenario.variant}: {scenario.message}")
            lines.append(
                f"  shrunk to {scenario.steps} step{'s' if scenario.steps != 1 else ''}; as a scenario (the "
                f"reference's verdicts), save as conformance/scenarios/{scenario.id}.yaml:"
            )
            lines.append(f"# ---- {scenario.id}.yaml ----")
            lines.extend(scenario.yaml.rstrip("\n").splitlines())
            lines.append(f"# ---- end of {scenario.id}.yaml ----")
        return lines


# -- what the engine can do ----------------------------------------------------------------------------------------
def speaks_position(info: EngineInfo, rules: Rules, position: Mapping[str, Any]) -> bool:
    """Whether a written-out position can be sent to the engine: one speaking an older version is never sent
    what a later one added (a classic-3p position once its sides have formed, a wild canasta, a foot, a sequence)."""
    return not position_content_newer_than(info.protocol, rules, position)[1]


#: The longest listing a generated game asks a protocol-4 engine for (``legal`` with a ``limit``); past it, the
#: engine's count is compared with the reference's. A list so long is rare in random play; tests lower it.
LEGAL_LIMIT = [5000]


@dataclass(frozen=True)
class _Caps:
    views: bool
    score: bool
    legal: str
    rule_ids: bool
    setup_position: bool
    #: Protocol 4: the engine answers ``legal`` with a ``limit`` (and ``count``, ``sample``).
    sample: bool = False

    @staticmethod
    def of(engine: Engine) -> _Caps:
        info = engine.info
        legal = info.capabilities.get("legal", "none")
        return _Caps(
            views=info.can("views"),
            score=info.can("score"),
            legal=legal if legal in ("list", "count") else "none",
            rule_ids=info.can("rule_ids"),
            setup_position=info.can("setup_position"),
            sample=info.protocol >= 4 and info.can("sample"),
        )


# -- talking to the engine, pipelined when it is a subprocess --------------------------------------------------------
class _Channel:
    """Requests written ahead of their answers, so engine and reference work overlap; answers come in order."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._pending = 0

    @property
    def pending(self) -> int:
        return self._pending

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        messages = list(messages)
        self._pending += len(messages)
        self.engine.send(messages)

    def receive(self) -> list[dict[str, Any]]:
        """The answers to everything sent, in order."""
        self._pending = 0
        return self.engine.receive()

    def call(self, messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        self.send(messages)
        return self.receive()

    def reset(self) -> None:
        """Forget what was sent (after the engine failed: it is restarted)."""
        self._pending = 0
        self.engine.forget()


# -- disagreements -------------------------------------------------------------------------------------------------
class Disagreement(Exception):
    def __init__(self, failure: Failure) -> None:
        self.failure = failure
        super().__init__(failure.message)


class _Skipped(Exception):
    pass


class _Abort(BaseException):
    """Stops the Hypothesis run from inside (too many engine failures, or the shrinking budget is spent)."""


class _GameOver(Exception):
    """Ends a game after a disagreement the engine cannot be re-synchronised from."""


@dataclass
class _Expect:
    """What one request's answer must say; ``steps`` is how many moves of the game it follows."""

    what: Literal["apply", "view", "score", "legal", "setup"]
    steps: int
    played: Played | None = None
    seat: int | None = None
    view: dict[str, Any] | None = None
    score: tuple[list[int], bool, str | None, list[dict[str, int]]] | None = None
    legal: list[Action] | None = None
    game: Game | None = None
    #: How many actions ``game`` had played when the answer was due (it may have played more since).
    history: int = 0
    #: Every seat's hand, normalised (to tell a view of another seat's hand: seats numbered otherwise).
    hands: list[Any] = field(default_factory=list)


def _apply_request(move: Move) -> dict[str, Any]:
    return apply_request(move.action, move.seat)


def _setup_request(setup: Setup) -> dict[str, Any]:
    return deal_request(setup.variant, setup.deck, setup.first_seat, team_scores=setup.team_scores)


# -- one game ------------------------------------------------------------------------------------------------------
class _Game:
    """Plays one generated game on the engine and the reference; raises Disagreement at the first difference."""

    def __init__(self, runner: _Runner, draw: Draw, pick: Pick) -> None:
        self.runner = runner
        self.draw = draw
        self.pick = pick
        self.caps = runner.caps
        self.channel = runner.channel
        self.expects: list[_Expect] = []
        self.steps: list[Played] = []
        self.setup: Setup | None = None
        self._ref: Game | None = None
        #: Where the steps after the last re-synchronisation start, and how many steps came before it.
        self.start: dict[str, Any] | None = None
        self.start_steps = 0
        #: Set when a disagreement was found in this game, and when the reference was re-based since the last look.
        self.deviated = False
        self.rebased = False
        self.replaying = False

    @property
    def ref(self) -> Game:
        assert self._ref is not None
        return self._ref

    # comparing ------------------------------------------------------------------------------------------------
    def fail(self, kind: FailureKind, message: str, steps: int, **extra: Any) -> Disagreement:
        assert self.setup is not None
        # The kind of action is what a verdict (or a listing) is about; a view or a score after it is about the
        # position, whatever action led there, so those keys leave it out.
        action = extra.pop("action", None)
        if action is None and kind == "verdict" and steps > 0:
            action = self.steps[steps - 1].move.action.kind
        played = list(self.steps[self.start_steps : max(steps, self.start_steps)])
        failure = Failure(self.setup, played, kind, message, start=self.start, action=action, **extra)
        return Disagreement(failure)

    def flush(self) -> None:
        """Compare every answer due; at a disagreement, report it and re-synchronise (or end the game)."""
        replies = self.channel.receive()
        expects, self.expects = self.expects, []
        for reply, expect in zip(replies, expects, strict=True):
            try:
                self.compare(reply, expect)
            except Disagreement as disagreement:
                self.disagree(disagreement, resync=expect.what != "setup" and not self.replaying)
                return

    def disagree(self, disagreement: Disagreement, *, resync: bool) -> None:
        """Hand a disagreement to the run (which raises it when it is the one being shrunk); then go on from the
        reference's position if the engine can be set up there, or end the game."""
        failure = disagreement.failure
        if self.replaying:
            failure.message = "replaying the same deck and moves: " + failure.message
            failure.kind, failure.rule, failure.cause = "replay", None, causes.REPLAY
        self.deviated = True
        self.runner.found(failure, disagreement)
        if not resync or not self.resync():
            raise _GameOver

    def resync(self) -> bool:
        """Set the engine and the reference alike to the reference's position, written out, or (an engine that
        cannot be set up there) deal the engine the game again and replay the reference's actions; False if
        neither can be done."""
        ref = self.ref
        if not self.runner.can_resync or ref.is_over or ref.state.phase not in ("draw", "play"):
            return self.replay_from_the_start()
        position = position_json(ref)
        if not speaks_position(self.runner.info, ref.rules, position):
            return False
        request = {"cmd": "setup", "variant": ref.rules.variant.id, "parameters": {}, "position": position}
        (reply,) = self.channel.call([request])
        if not reply.get("ok"):
            return False
        self._ref = Game.from_position(ref.rules, position_from_json(position, ref.rules))
        self.start, self.start_steps, self.rebased = position, len(self.steps), True
        return True

    def replay_from_the_start(self) -> bool:
        """Set the engine up again where the game started (the deal, or the position it was last re-based at) and
        send every action the reference took since: back in step if it takes them all. This reaches what no
        written position can say (a partner asked to answer, a hand over) and serves an engine that cannot be
        set up at a written position at all."""
        assert self.setup is not None
        if self.start is None:
            setup = _setup_request(self.setup)
        else:
            setup = {"cmd": "setup", "variant": self.ref.rules.variant.id, "parameters": {}, "position": self.start}
        taken = [_apply_request(played.move) for played in self.steps[self.start_steps :] if played.accepted]
        replies = self.channel.call([setup, *taken])
        return bool(replies[0].get("ok")) and all(reply.get("accepted") is True for reply in replies[1:])

    def compare(self, reply: Mapping[str, Any], expect: _Expect) -> None:
        where = f"step {expect.steps}" if expect.steps else "at the deal"
        if not reply.get("ok"):
            if expect.what == "setup":
                if "skip" in reply:
                    raise _Skipped(f"the engine says: {reply['skip']}")
                message = f"the engine refused the set-up: {reply.get('error', reply)}"
                raise self.fail("setup", message, 1, cause=causes.SETUP_REFUSED)
            kinds: dict[str, FailureKind] = {"apply": "verdict", "view": "view", "score": "score", "legal": "legal"}
            raise self.fail(
                kinds[expect.what],
                f"{where}: the engine answered '{expect.what}' with an error: {reply.get('error', reply)}",
                expect.steps,
                seat=expect.seat,
                cause=f"{kinds[expect.what]}: the engine answers with an error",
            )
        if expect.what == "apply":
            self.compare_verdict(reply, expect)
        elif expect.what == "view":
            self.compare_view(reply, expect, where)
        elif expect.what == "score":
            self.compare_score(reply, expect, where)
        elif expect.what == "legal":
            self.compare_legal(reply, expect, where)

    def compare_verdict(self, reply: Mapping[str, Any], expect: _Expect) -> None:
        played = expect.played
        assert played is not None
        accepted = reply.get("accepted")
        where = f"step {expect.steps} `{played.move}`"
        problem = verdict_problem(accepted)
        if problem:
            raise self.fail("verdict", f"{where}: {problem}", expect.steps, cause=causes.VERDICT_MALFORMED)
        kind = played.move.action.kind
        if accepted != played.accepted:
            if played.accepted:
                got = f"refused it citing {reply.get('rule') or 'no rule'} ({reply.get('message', '')})"
                message = f"{where}: the reference accepts this action; the engine {got}"
                # The engine's refusal names the rule, if it is one of the variant's.
                rule = self.runner.cited(reply.get("rule"), self.ref)
                cause = causes.refuses(kind)
            else:
                message = f"{where}: the reference refuses this action ({played.rule}); the engine accepted it"
                rule, cause = played.rule, causes.accepts(kind)
            rules = [played.rule] if played.rule else []
            if not played.accepted and played.move.kind == "wrong seat":
                message += " (only the seat to act may act)"
            if played.accepted and isinstance(reply.get("rule"), str):
                rules.append(reply["rule"])
            raise self.fail("verdict", message, expect.steps, rules=rules, rule=rule, cause=cause)
        if not accepted and self.caps.rule_ids and reply.get("rule") != played.rule:
            raise self.fail(
                "verdict",
                f"{where}: both refuse it, but the engine cites {shown(reply.get('rule'))} "
                f"and the reference {played.rule}",
                expect.steps,
                rules=[played.rule] if played.rule else [],
                rule=played.rule,
                cause=causes.OTHER_RULE,
            )

    def compare_view(self, reply: Mapping[str, Any], expect: _Expect, where: str) -> None:
        seat = expect.seat
        assert seat is not None and expect.view is not None and self.setup is not None
        raw = reply.get("view")
        if not isinstance(raw, Mapping):
            message = f"{where}: seat {seat}'s view is not an object: {excerpt(raw)}"
            raise self.fail("view", message, expect.steps, seat=seat, cause=causes.VIEW_MALFORMED)
        problem = view_problem(raw, seat, len(self.setup.deck), len(expect.view["hand_sizes"]))
        if problem:
            cause = causes.VIEW_EXTRA_FIELDS if unknown_field_problem(raw) else causes.VIEW_CARDS
            message = f"{where}: seat {seat}'s view: {problem}"
            raise self.fail("conservation", message, expect.steps, seat=seat, cause=cause)
        wanted = normalise_view(expect.view)
        got = normalised_or_none(raw)
        if got is None:
            message = f"{where}: seat {seat}'s view is not a view: {excerpt(raw)}"
            raise self.fail("view", message, expect.steps, seat=seat, cause=causes.VIEW_MALFORMED)
        differing = [key for key, value in wanted.items() if got.get(key) != value]
        if differing:
            # Seats numbered otherwise show in one field (another seat's hand, a list by seat turned round) while
            # others just differ (whose turn it is): that field is the one to tell.
            turned = [k for k in differing if causes.renumbered(k, wanted[k], got.get(k), expect.hands)]
            key = (turned or differing)[0]
            raise self.fail(
                "view",
                f"{where}: seat {seat}'s view field '{key}' should be {shown(wanted[key])}, got {shown(got.get(key))}",
                expect.steps,
                seat=seat,
                rules=_view_rules(key, at_the_deal=expect.steps == 0),
                cause=causes.SEAT_NUMBERING if turned else causes.view_field(key),
            )

    def compare_score(self, reply: Mapping[str, Any], expect: _Expect, where: str) -> None:
        assert expect.score is not None
        totals, over, end, parts = expect.score
        if bool(reply.get("over")) != over:
            raise self.fail(
                "score",
                f"{where}: the hand should {'be over' if over else 'go on'}; "
                f"the engine says over={shown(reply.get('over'))}",
                expect.steps,
                cause=causes.CHECK_CAUSES["score.over"],
            )
        if reply.get("end") != end:
            message = f"{where}: the hand's end should be {shown(end)}, got {shown(reply.get('end'))}"
            raise self.fail("score", message, expect.steps, cause=causes.CHECK_CAUSES["score.end"])
        got = reply.get("totals")
        if not isinstance(got, list) or list(got) != totals:
            rules: list[str] = []
            got_parts = reply.get("parts")
            if isinstance(got_parts, list):
                for side, wanted in enumerate(parts):
                    theirs = got_parts[side] if side < len(got_parts) and isinstance(got_parts[side], dict) else {}
                    rules.extend(rule for rule, points in wanted.items() if theirs.get(rule) != points)
            differing = f"; the parts that differ: {', '.join(rules)}" if rules else ""
            raise self.fail(
                "score",
                f"{where}: the scores should be {shown(totals)}, got {shown(got)}{differing}",
                expect.steps,
                rules=rules or ["SCORE.CARDS_IN_HAND"],
                cause=causes.SCORE_PARTS if rules else causes.SCORE_TOTALS,
            )

    def compare_legal(self, reply: Mapping[str, Any], expect: _Expect, where: str) -> None:
        assert expect.legal is not None
        if self.caps.legal == "count" or "actions" not in reply:
            count = reply.get("count")
            if type(count) is not int or count != len(expect.legal):
                message = f"{where}: {len(expect.legal)} legal actions, the engine counts {excerpt(count, 80)}"
                raise self.fail("legal", message, expect.steps, cause=causes.LEGAL_COUNT)
            return
        listed = reply.get("actions")
        if not isinstance(listed, list):
            message = f"{where}: 'actions' is not a list: {excerpt(listed)}"
            raise self.fail("legal", message, expect.steps, cause=causes.LEGAL_MALFORMED)
        if len(listed) == len(expect.legal):
            ours_json = [self.runner.json_of(a) for a in expect.legal]
            if listed == ours_json:
                return  # the reference's own JSON, in its order
            # Quick path: the same multisets of card names in each role (as the protocol defines the same action).
            try:
                if {_quick_key(a) for a in listed} == {_quick_key(a) for a in ours_json}:
                    return
            except (AttributeError, TypeError, KeyError):
                pass
        ours = {str(a) for a in expect.legal}
        theirs: set[str] = set()
        twice: list[str] = []
        for raw in listed:
            try:
                text = action_text(raw)
            except CanastaError as error:
                message = f"{where}: the engine lists an action that is not one: {excerpt(raw)} ({error})"
                raise self.fail("legal", message, expect.steps, cause=causes.LEGAL_MALFORMED) from None
            if text in theirs:
                twice.append(text)
            theirs.add(text)
        missing = sorted(ours - theirs)
        extra = sorted(theirs - ours)
        rules: list[str] = []
        game = expect.game
        if extra and game is not None:
            with _rewound(game, expect.history):
                extra, rules = _refusals(game, extra)
        if missing or extra or twice:
            parts = []
            if missing:
                parts.append(f"the engine does not list {len(missing)} legal action(s): {few(missing)}")
            if extra:
                parts.append(f"the engine lists {len(extra)} action(s) the reference refuses: {few(extra)}")
            if twice:
                parts.append(f"the engine lists {len(twice)} action(s) twice: {few(twice)}")
            if rules:
                parts.append(f"the reference refuses those by {few(rules, 3)}")
            # No rule, no kind of action: one listing that differs is one cause, whatever actions it shows.
            raise self.fail(
                "legal",
                f"{where}: " + "; ".join(parts),
                expect.steps,
                missing=missing,
                extra=extra,
                rules=rules,
                cause=causes.LEGAL_LISTING,
            )

    # playing --------------------------------------------------------------------------------------------------
    def send(self, requests: Sequence[Mapping[str, Any]]) -> None:
        if self.channel.pending + len(requests) > PIPELINE_DEPTH and self.channel.pending:
            self.flush()
        self.channel.send(requests)

    def check_requests(self, players: int) -> list[dict[str, Any]]:
        """A full check of the position: every seat's view, the score, the legal actions (as the engine can)."""
        caps = self.caps
        requests: list[dict[str, Any]] = []
        if caps.views:
            requests.extend({"cmd": "view", "seat": seat} for seat in range(players))
        if caps.score:
            requests.append({"cmd": "score"})
        if caps.legal != "none":
            # Protocol 4: past LEGAL_LIMIT[0] actions the engine answers with their count, which is compared.
            requests.append({"cmd": "legal", "limit": LEGAL_LIMIT[0]} if caps.sample else {"cmd": "legal"})
        return requests

    def check_expects(self, game: Game, legal: list[Action]) -> list[_Expect]:
        """What the reference says to the requests of ``check_requests``, after the moves so far."""
        caps = self.caps
        steps = len(self.steps)
        expects: list[_Expect] = []
        if caps.views:
            views = [game.view(s) for s in range(game.rules.players)]
            hands = [normalise_field("hand", view["hand"]) for view in views]
            expects.extend(_Expect("view", steps, seat=s, view=view, hands=hands) for s, view in enumerate(views))
        if caps.score:
            expects.append(_Expect("score", steps, score=score_of(game)))
        if caps.legal != "none":
            expects.append(_Expect("legal", steps, legal=legal, game=game, history=len(game.history)))
        return expects

    def play(self) -> int:
        """Play the game; a disagreement is handed to the run and the game goes on from the reference's
        position where the engine can be set up there (otherwise the game ends there)."""
        with contextlib.suppress(_GameOver):
            self._play()
        return len(self.steps)

    def _play(self) -> None:
        runner = self.runner
        pick = self.pick
        setup = self.setup = runner.fixed(self.draw(setups(runner.variants)))
        self._ref = setup.new_game()
        players = self.ref.rules.players
        self.send([_setup_request(setup)])
        self.expects.append(_Expect("setup", 0))
        prefix = pick(0, runner.max_prefix)
        legal = runner.legal(self.ref)
        self.flush()
        # Right after the deal: every seat's view, the score and the legal actions, before any move.
        self.send(self.check_requests(players))
        self.expects.extend(self.check_expects(self.ref, legal))
        checked = False
        for index in range(prefix + runner.checked_steps):
            if self.rebased:
                self.rebased, legal = False, runner.legal(self.ref)
            if self.ref.is_over:
                break
            checked = index >= prefix
            moves = self.moves(legal, players)
            # The engine's requests go first; the reference does its part while the engine answers.
            requests = [_apply_request(m) for m in moves]
            if checked:
                requests += self.check_requests(players)
            self.send(requests)
            for move in moves:
                played = play(self.ref, move)
                self.steps.append(played)
                self.expects.append(_Expect("apply", len(self.steps), played=played))
                if played.accepted:
                    legal = runner.legal(self.ref)
            if checked:
                self.expects.extend(self.check_expects(self.ref, legal))
                self.flush()
        if self.rebased:
            self.rebased, legal = False, runner.legal(self.ref)
        if not checked:
            self.send(self.check_requests(players))
            self.expects.extend(self.check_expects(self.ref, legal))
        self.flush()
        if self.ref.is_over:
            # The hand is over: the engine must refuse anything more.
            move = Move(Action.draw(), kind="out of phase")
            self.send([_apply_request(move)])
            played = play(self.ref, move)
            self.steps.append(played)
            self.expects.append(_Expect("apply", len(self.steps), played=played))
            self.flush()
        bound = hand_bound(self.ref.rules)
        if len(self.ref.history) > bound and not self.ref.is_over:  # pragma: no cover - the reference's own bound
            raise self.fail("score", f"the hand did not end within {bound} actions", len(self.steps))
        if self.deviated:
            # Re-synchronised mid-way, the game is no transcript to replay, and a view that differed already would
            # be blamed on the hidden cards: both checks are for games the engine played alike.
            return
        self.replay(self.ref)
        try:
            self.shuffled_view(self.ref)
        except Disagreement as disagreement:
            self.disagree(disagreement, resync=False)

    def moves(self, legal: list[Action], players: int) -> list[Move]:
        """The next step's moves: a legal action (perhaps first sent for a wrong seat), or one meant to be refused.
        A move of a feature the engine lacks, one its version cannot write (naming a meld, before version 6), or one
        the reference refuses only by its own notation, is not sent."""
        runner, pick, ref = self.runner, self.pick, self.ref
        mode = pick(0, 99)
        if legal and mode < 100 - runner.illegal:
            action = choose_legal(pick, legal)
            moves: list[Move] = []
            if mode >= 100 - runner.illegal - runner.probes:
                wrong = (ref.to_act + choose(pick, range(1, players))) % players
                moves.append(Move(action, wrong, "wrong seat"))
            return [*moves, Move(action)]
        move = draw_illegal(pick, ref, legal)
        if (
            runner.info.lacks_action(move.action.kind)
            or action_newer_than(runner.info.protocol, move.action)
            or runner.conventional_refusal(ref, move)
        ):
            return []
        return [move]

    def replay(self, ref: Game) -> None:
        """The same deck and moves again on the engine: the same verdicts and final views."""
        assert self.setup is not None
        self.replaying = True
        self.send([_setup_request(self.setup)])
        self.expects.append(_Expect("setup", 0))
        for number, played in enumerate(self.steps, 1):
            self.send([_apply_request(played.move)])
            self.expects.append(_Expect("apply", number, played=played))
        requests = [r for r in self.check_requests(ref.rules.players) if r["cmd"] != "legal"]
        self.send(requests)
        self.expects.extend(e for e in self.check_expects(ref, []) if e.what != "legal")
        self.flush()
        self.replaying = False

    def shuffled_view(self, ref: Game) -> None:
        """A seat's view of the final position written out with the cards hidden from it dealt anew."""
        caps = self.caps
        state = ref.state
        if not (caps.setup_position and caps.views) or state.phase not in ("draw", "play"):
            return
        rules = ref.rules
        seat = self.pick(0, rules.players - 1)
        shuffle = random.Random(self.pick(0, 2**32 - 1))
        others = [s for s in range(rules.players) if s != seat]
        pool: list[Card] = list(state.stock)
        for other in others:
            pool.extend(cards_of(state.hands[other]))
        shuffle.shuffle(pool)
        stock = pool[: len(state.stock)]
        hands = [cards_of(h) for h in state.hands]
        at = len(stock)
        for other in others:
            size = state.hand_sizes[other]
            hands[other] = sorted(pool[at : at + size])
            at += size
        position = position_json(ref, hands, stock)
        reply, view_reply = self.channel.call(
            [
                {"cmd": "setup", "variant": ref.rules.variant.id, "parameters": {}, "position": position},
                {"cmd": "view", "seat": seat},
            ]
        )
        if not reply.get("ok"):
            if "skip" in reply:
                return
            message = f"the engine refused a written-out position: {reply.get('error', reply)}"
        else:
            wanted = normalise_view(ref.view(seat))
            raw = view_reply.get("view")
            got = (normalised_or_none(raw) if isinstance(raw, Mapping) else None) or {}
            differing = [key for key, value in wanted.items() if got.get(key) != value]
            if not differing:
                return
            key = differing[0]
            message = (
                f"seat {seat}'s view changed when the cards hidden from it were dealt anew (the final position "
                f"written out): field '{key}' should be {shown(wanted[key])}, got {shown(got.get(key))}"
            )
        raise self.fail(
            "shuffle",
            message,
            len(self.steps),
            seat=seat,
            position=position,
            rules=["TURN.ORDER"],
            cause=causes.HIDDEN_CARDS,
        )


@contextlib.contextmanager
def _rewound(game: Game, played: int) -> Iterator[None]:
    """The game as it was after its first ``played`` actions (requests are pipelined, so the reference may be
    ahead of the answer being compared), then as it is again."""
    undone = [game.pop() for _ in range(len(game.history) - played)]
    try:
        yield
    finally:
        for action in reversed(undone):
            game.push(action)


def _refusals(game: Game, texts: Sequence[str]) -> tuple[list[str], list[str]]:
    """Of actions the engine lists and the reference does not: those it refuses by a sourced rule (an action it
    refuses only by its own notation is another way to write a legal play, not a deviation), and those rules."""
    kept: list[str] = []
    rules: list[str] = []
    variant = game.rules.variant
    for text in texts:
        try:
            game.check(parse_action(text))
        except CanastaError as refusal:
            rule = getattr(refusal, "rule_id", None)
            if rule and variant.is_convention(rule):
                continue
            if rule and rule not in rules:
                rules.append(rule)
        kept.append(text)
    return kept, rules


def _quick_key(action: Mapping[str, Any]) -> tuple[Any, ...]:
    """A key equal for two JSON actions with the same type and multisets of card names in each role."""
    cards = action.get("cards")
    if "card" in action:
        cards = [action["card"]]
    groups = action.get("melds") or ()
    if action["type"] == "combine":  # version 6: two meld numbers
        return ("combine", tuple(sorted(groups)))
    return (
        action["type"],
        action.get("meld", 0),  # version 6: the meld a take's top card joins
        tuple(sorted(c.upper() for c in cards or ())),
        tuple(
            sorted(
                (tuple(sorted(c.upper() for c in g["cards"])), str(g.get("rank", "")).upper(), g.get("meld", 0))
                for g in groups
            )
        ),
    )


_VIEW_RULES = {
    "pile_frozen": "PILE.FROZEN.UNMELDED",
    "canastas": "CANASTA.SIZE",
    "bonus_cards": "RED3.LAY_OUT",
    "to_act": "TURN.ORDER",
    "stock_size": "TURN.DRAW.COUNT",
    "hand_sizes": "TURN.DRAW.COUNT",
    "melds": "MELD.MERGE",
}


#: At the deal, before any move, a field differs because of how the hand was dealt.
_DEAL_VIEW_RULES = {
    "pile": "DEAL.UPCARD.TURN_AGAIN",
    "stock_size": "DEAL.UPCARD.TURN_AGAIN",
    "pile_frozen": "DEAL.UPCARD.FREEZES",
    "hand_sizes": "DEAL.HAND_SIZE",
    "hand": "DEAL.HAND_SIZE",
    "bonus_cards": "RED3.REPLACE",
}


def _view_rules(key: str, *, at_the_deal: bool = False) -> list[str]:
    """The rule a differing view field most likely comes from (a best guess, for the deviation's key)."""
    rules = _DEAL_VIEW_RULES if at_the_deal else _VIEW_RULES
    return [rules[key]] if key in rules else []


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """Keep Hypothesis from mixing in literal numbers of the local modules loaded so far.

    Hypothesis sometimes draws a constant found in the source of local (non-library) modules instead of a random
    value; the pool changes with what happens to be imported (the CLI, a test module), so the same seed would give
    other games in another context. During the run the pool is empty (its built-in constants stay)."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - another Hypothesis
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    cache: Any = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if original is None or not hasattr(cache, "clear"):  # pragma: no cover - another Hypothesis
        yield
        return
    empty = Constants()
    setattr(providers, "_get_local_constants", lambda: empty)  # noqa: B010 - a module's private function
    cache.clear()
    try:
        yield
    finally:
        setattr(providers, "_get_local_constants", original)  # noqa: B010
        cache.clear()


def fast_picker(data: st.DataObject) -> Pick:
    """A Pick over ``st.data()`` that asks Hypothesis's choice sequence directly (ten times faster than drawing
    ``st.integers``; the same shrinking), falling back to ``data.draw`` if this Hypothesis lacks it."""
    conjecture = getattr(data, "conjecture_data", None)
    draw_integer = getattr(conjecture, "draw_integer", None)
    if draw_integer is None:
        return picker(data.draw)

    def pick(low: int, high: int) -> int:
        value: int = draw_integer(low, high)
        return value

    return pick


# -- the run -------------------------------------------------------------------------------------------------------
class _Runner:
    """What the games of one run share: the engine, its capabilities, and where disagreements go."""

    def __init__(
        self,
        engine: Engine,
        variants: list[str],
        *,
        max_prefix: int,
        checked_steps: int,
        illegal: int,
        probes: int,
        masks: Sequence[Mask] = (),
    ) -> None:
        self.engine = engine
        self.info = engine.info
        self.caps = _Caps.of(engine)
        self.channel = _Channel(engine)
        self.variants = variants
        self.max_prefix = max_prefix
        self.checked_steps = checked_steps
        self.illegal = illegal
        self.probes = probes
        self._json: dict[Action, dict[str, Any]] = {}
        #: The engine can be set to the reference's position after a disagreement, and play on from there.
        self.can_resync = self.caps.setup_position and not self.info.unheld_position_fields
        self.log = DeviationLog(masks)
        #: The first failure of each key, for its scenario when it is not shrunk.
        self.first: dict[DeviationKey, Failure] = {}
        #: While shrinking: the key being shrunk, and the failures of that key found so far.
        self.target: DeviationKey | None = None
        self.target_failures: list[Failure] = []
        self.game_number = 0

    def json_of(self, action: Action) -> dict[str, Any]:
        """An action's JSON, remembered (the same melds stay legal for many steps)."""
        known = self._json.get(action)
        if known is None:
            if len(self._json) > 200_000:
                self._json.clear()
            known = self._json[action] = action.to_json()
        return known

    def fixed(self, setup: Setup) -> Setup:
        """The set-up under the parameters the engine fixes for its variant (protocol 2), the reference's too."""
        fixed = self.info.fixed_for(setup.variant)
        return replace(setup, parameters=tuple(sorted(fixed.items()))) if fixed else setup

    def legal(self, game: Game) -> list[Action]:
        """The reference's legal actions, without those of features the engine lacks (protocol 2)."""
        if not self.info.absent_features:
            return list(game.legal_actions())
        return [a for a in game.legal_actions() if not self.info.lacks_action(a.kind)]

    def conventional_refusal(self, game: Game, move: Move) -> bool:
        """Whether the reference refuses ``move`` only by its own notation, which another engine need not share."""
        accepted, rule = verdict(game, move)
        return not accepted and rule is not None and game.rules.variant.is_convention(rule)

    def key_of(self, failure: Failure) -> DeviationKey:
        """A failure's key: the rule the check names, else the cause; the kind of action for a verdict."""
        clauses = reference_rules(failure.setup.variant).variant.clauses
        rule = causes.nameable(failure.rule, clauses)
        return DeviationKey(failure.kind, rule, failure.action, None if rule else failure.cause)

    def cited(self, rule: Any, game: Game) -> str | None:
        """The rule an engine's refusal cites, if it can be held to it: it has rule ids and the variant has it."""
        return causes.nameable(rule, game.rules.variant.clauses) if self.caps.rule_ids else None

    def found(self, failure: Failure, disagreement: Disagreement) -> None:
        """A disagreement in game ``game_number``: logged by its key; while shrinking, raised if it is the key."""
        failure.game_number = self.game_number
        key = self.key_of(failure)
        if self.target is not None:
            if key == self.target:
                self.target_failures.append(failure)
                raise disagreement
            return
        self.log.add(key, failure.message, self.game_number, failure.setup.variant)
        self.first.setdefault(key, failure)

    def game(self, data: st.DataObject) -> tuple[str, int, bool]:
        """One game: its variant, how many steps it played, and whether it deviated anywhere."""
        game = _Game(self, data.draw, fast_picker(data))
        try:
            steps = game.play()
        except EngineFailure:
            self.channel.reset()
            raise
        except BaseException:
            self.settle()
            raise
        assert game.setup is not None
        return game.setup.variant, steps, game.deviated

    def settle(self) -> None:
        """Read (and drop) the answers still due after a game stopped half-way, so the next game starts clean."""
        try:
            self.channel.receive()
        except EngineFailure:
            self.channel.reset()
            with contextlib.suppress(EngineFailure):
                self.engine.restart()


def run_generated_games(
    engine: Engine,
    games: int,
    seed: int,
    *,
    variants: list[str] | None,
    masks: Sequence[Mask] = (),
    max_prefix: int = 300,
    checked_steps: int = 20,
    illegal: int = 15,
    probes: int = 10,
    shrink_seconds: float = 20.0,
    max_shrink_runs: int = 400,
    max_shrunk: int = 8,
) -> GeneratedReport:
    """Play ``games`` generated games on ``engine`` against the reference; see the module docstring.

    ``max_prefix``: the most steps a game plays before its checked part (only verdicts compared);
    ``checked_steps``: steps checked in full after that; ``illegal`` and ``probes``: how many steps in a hundred
    try a move meant to be refused, or first send the chosen legal action for a wrong seat; ``masks``: known
    deviations (not shrunk, reported as known failures); ``shrink_seconds`` and ``max_shrink_runs``: the budget for
    shrinking each deviation (the smallest failing game found so far is kept); ``max_shrunk``: how many distinct
    deviations are shrunk (the others keep the game they were first found in).
    """
    report = GeneratedReport(seed=seed, requested=games)
    started = time.monotonic()
    label = f"generated-{seed}" if seed >= 0 else f"generated-m{-seed}"
    played = [v for v in list_variants() if v in engine.info.variants and (not variants or v in variants)]
    # A variant that needs a newer version (melds named, bonus cards for the initial meld) is not played by an
    # engine speaking an older one; each version's variants are named apart.
    needs = {v: variant_newer_than(engine.info.protocol, reference_rules(v)) for v in played}
    playable = [v for v in played if not needs[v]]
    too_old = "; ".join(
        unnamed_melds(engine.info.protocol, since, *[v for v in played if needs[v] == since])
        for since in sorted(set(needs.values()) - {0})
    )
    if not playable or games <= 0:
        if games > 0:
            wanted = ", ".join(variants) if variants else "any bundled variant"
            message = too_old or f"the engine plays none of: {wanted}"
            report.results.append(Result(label, ",".join(variants or []) or "-", "skipped", message))
        return report
    if too_old:
        report.notes.append(f"not played: {too_old}")
    runner = _Runner(
        engine,
        playable,
        max_prefix=max_prefix,
        checked_steps=checked_steps,
        illegal=illegal,
        probes=probes,
        masks=masks,
    )
    _hypothesis_run(runner, report, games, seed, label=label)
    if runner.log.groups and not runner.can_resync:
        report.notes.append(
            "the engine cannot be set up at a written-out position, so after a disagreement each game was dealt "
            "again and the reference's actions replayed (a game ended where the engine did not take them)"
        )
    for index, group in enumerate(runner.log.unmasked()):
        best = None
        if index < max_shrunk:
            best = _shrink(runner, report, group, seed, shrink_seconds, max_shrink_runs)
        if best is None:
            best = runner.first[group.key]
            best.game_number = group.first_game
        _add_scenario(report, group, best, f"{label}-{group.first_game}-{group.key.slug}", seed)
    for group in runner.log.groups.values():
        if group.mask is not None:
            report.results.append(
                Result(
                    f"{label}-{group.key.slug}",
                    runner.first[group.key].setup.variant,
                    "known failure",
                    f"{group.mask.reason} (was: {group.message}; in {len(group.games)} game(s))",
                    rule=group.key.rule,
                )
            )
    if report.games > 0:
        for mask in runner.log.unused_masks():
            report.results.append(
                Result(
                    f"{label}-known-deviation",
                    "*",
                    "unexpected pass",
                    f"a known deviation ({mask.describe()}: {mask.reason}) was not seen in {report.games} games; "
                    "remove it from the known failures",
                )
            )
    report.deviations = list(runner.log.groups.values())
    report.seconds = time.monotonic() - started
    return report


def _settings(games: int, seed: int, phases: tuple[Phase, ...]) -> Any:
    """Hypothesis's settings for a run: ``games`` examples from ``seed``, quiet, no database, no deadline."""

    def apply(test: Any) -> Any:
        test = settings(
            max_examples=games,
            database=None,
            deadline=None,
            derandomize=False,
            phases=phases,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            print_blob=False,
        )(test)
        return hypothesis_seed(seed)(test)

    return apply


def _hypothesis_run(runner: _Runner, report: GeneratedReport, games: int, seed: int, *, label: str) -> None:
    """The campaign: ``games`` games, each going on past its disagreements (logged in ``runner.log``)."""
    engine = runner.engine
    in_a_row = 0

    def one_game(data: st.DataObject) -> None:
        nonlocal in_a_row
        # A game Hypothesis stops half-way (it caps the size of its first examples) is not counted.
        number = runner.game_number = report.games + 1
        try:
            variant, steps, deviated = runner.game(data)
        except _Skipped as skipped:
            report.games = number
            report.results.append(Result(f"{label}-{number}", "-", "skipped", str(skipped)))
            return
        except EngineFailure as failure:
            _restart(engine, report)
            report.games = number
            report.results.append(
                Result(
                    f"{label}-{number}",
                    "-",
                    failure_status(failure),
                    f"engine {failure.kind}: {failure.detail}",
                    stderr=failure.stderr,
                )
            )
            in_a_row += 1
            if in_a_row >= MAX_FAILED_IN_A_ROW:
                report.notes.append(f"stopped after {in_a_row} games in a row ended with an engine failure")
                raise _Abort("engine failures") from None
            return
        in_a_row = 0
        report.games = number
        report.played[variant] += 1
        report.steps += steps
        if not deviated:  # a game that deviated is reported in its deviations' groups
            report.results.append(Result(f"{label}-{number}", variant, "passed", f"{steps} steps"))

    test = _settings(games, seed, (Phase.explicit, Phase.generate))(given(st.data())(one_game))
    try:
        with _no_local_constants():
            test()
    except _Abort:
        pass


def _shrink(
    runner: _Runner, report: GeneratedReport, group: Deviation, seed: int, seconds: float, max_runs: int
) -> Failure | None:
    games = report.requested
    """The shortest game found showing ``group``'s deviation: the campaign is played again from the same seed up
    to the game it was first seen in (the same games, as the engine is deterministic), and Hypothesis shrinks
    that game, a smaller game counting only if it shows a deviation of the same key. None if it is not seen again."""
    engine = runner.engine
    runner.target, runner.target_failures = group.key, []
    runs = played = 0
    started = 0.0

    def one_game(data: st.DataObject) -> None:
        nonlocal runs, started, played
        if runner.target_failures:
            runs += 1
            if runs > max_runs or time.monotonic() - started > seconds:
                raise _Abort("shrinking budget spent")
        # Numbered as the campaign numbers its games: a game Hypothesis stops half-way is not counted.
        runner.game_number = played + 1
        try:
            runner.game(data)
        except Disagreement:
            if runs == 0:
                started = time.monotonic()
            raise
        except _Skipped:
            pass
        except EngineFailure:
            _restart(engine, report)
        played += 1

    test = _settings(games, seed, (Phase.explicit, Phase.generate, Phase.shrink))(given(st.data())(one_game))
    try:
        with _no_local_constants():
            test()
    except _Abort:
        pass
    except Exception:  # the failures are in ``runner.target_failures``; anything else is re-raised below
        if not runner.target_failures:
            raise
    report.shrink_runs += runs
    found, runner.target, runner.target_failures = runner.target_failures, None, []
    if not found:
        report.notes.append(f"the deviation {group.key} was not seen again when its game was played again")
        return None
    best = min(reversed(found), key=lambda f: len(f.steps))
    best.game_number = group.first_game
    return best


def _add_scenario(report: GeneratedReport, group: Deviation, best: Failure, scenario_id: str, seed: int) -> None:
    """A deviation's result and its shrunk game as a scenario file's text."""
    group.scenario_id, group.steps = scenario_id, len(best.steps)
    text = group.scenario_yaml = scenario_yaml(best, scenario_id, seed)
    games = len(group.games)
    message = (
        f"{best.message}\n({group.key}; in {games} game{'s' if games != 1 else ''}, first game {group.first_game})"
    )
    report.scenarios.append(GeneratedScenario(scenario_id, best.setup.variant, best.message, text, len(best.steps)))
    report.results.append(
        Result(
            scenario_id,
            best.setup.variant,
            "failed",
            message + f"\n(shrunk to {len(best.steps)} steps; the scenario is printed with the generated games)",
            rule=group.key.rule,
        )
    )


def _restart(engine: Engine, report: GeneratedReport) -> None:
    try:
        engine.restart()
    except EngineFailure as failure:
        report.notes.append(f"the engine could not be restarted: {failure.detail}")
        raise _Abort("restart failed") from None


__all__ = [
    "Disagreement",
    "Failure",
    "GeneratedReport",
    "GeneratedScenario",
    "position_json",
    "run_generated_games",
    "scenario_yaml",
]
