"""Generated games: random hands played on an engine and on the reference at once, step by step, compared.

``run_generated_games(engine, games, seed, variants=...)`` plays ``games`` hands chosen by Hypothesis (the same seed
gives the same hands against a deterministic engine). Each game draws a variant both sides play, a deck order (from
a seed), the first seat and the scores before the hand; then, step by step, the reference (an in-process
``canasta_ref.game.Game``) lists its legal actions and the game picks a move: a legal action (sometimes first sent
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

Any disagreement fails the Hypothesis example, which then shrinks it (within ``shrink_seconds``) to a short game;
the shrunk game becomes a scenario in the format of ``conformance/scenario.schema.json``: the full deck order,
every move with the *reference's* verdict as the expectation, and at the step where they disagreed the reference's
view, score or legal actions. ``GeneratedReport.report_lines`` prints it ready to save as
``conformance/scenarios/<id>.yaml``. The run stops at the first disagreement. An engine that crashes, hangs or
answers garbage is reported as errored or timed out for that game, restarted, and the run goes on (it stops after
five such games in a row).

The same seed gives the same games whatever else the process has imported (Hypothesis's habit of mixing in
numbers found in local source files is switched off during the run). Requests to a subprocess engine are
pipelined: a step's requests are written at once and the reference computes its side while the engine answers.
The ``rules`` a generated scenario cites are a best guess (the reference's refusal, the score parts that differ,
the rules by which the reference refuses what the engine lists), to be checked when the scenario is saved.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ..actions import Action, parse_action
from ..cards import Card, cards_of
from ..errors import CanastaError
from ..game import Game
from ..spec import list_variants, load_variant
from .engines import Engine, EngineFailure, excerpt
from .report import few, nothing_ran
from .runner import (
    MESSAGE_CHARS,
    Result,
    action_text,
    apply_request,
    clip,
    deal_request,
    failure_status,
    format_deck,
    normalise_view,
    normalised_or_none,
    verdict_problem,
    view_problem,
)
from .session import position_from_json
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
)
from .variants import reference_rules

FailureKind = Literal["setup", "verdict", "view", "conservation", "score", "legal", "replay", "shuffle"]

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
        }

    def report_lines(self) -> list[str]:
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
        for result in self.results:
            if result.status in ("errored", "timed out"):
                lines.append(f"  {result.status.upper()}: {result.key}: {result.message}")
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
@dataclass(frozen=True)
class _Caps:
    views: bool
    score: bool
    legal: str
    rule_ids: bool
    setup_position: bool

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
@dataclass
class Failure:
    """Where the engine and the reference parted: the game up to that step and what differed."""

    setup: Setup
    steps: list[Played]
    kind: FailureKind
    message: str
    seat: int | None = None
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    position: dict[str, Any] | None = None
    game_number: int = 0

    def __post_init__(self) -> None:
        """An engine's text quoted in the message stays short: it goes into the report and the scenario file."""
        self.message = clip(self.message, MESSAGE_CHARS)


class Disagreement(Exception):
    def __init__(self, failure: Failure) -> None:
        self.failure = failure
        super().__init__(failure.message)


class _Skipped(Exception):
    pass


class _Abort(BaseException):
    """Stops the Hypothesis run from inside (too many engine failures, or the shrinking budget is spent)."""


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


def _apply_request(move: Move) -> dict[str, Any]:
    return apply_request(move.action, move.seat)


def _setup_request(setup: Setup) -> dict[str, Any]:
    return deal_request(setup.variant, setup.deck, setup.first_seat, team_scores=setup.team_scores)


def _score_of(game: Game) -> tuple[list[int], bool, str | None, list[dict[str, int]]]:
    score = game.score()
    return score.totals, game.is_over, game.state.end_reason, [dict(side.parts) for side in score.sides]


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

    # comparing ------------------------------------------------------------------------------------------------
    def fail(self, kind: FailureKind, message: str, steps: int, **extra: Any) -> Disagreement:
        assert self.setup is not None
        return Disagreement(Failure(self.setup, list(self.steps[:steps]), kind, message, **extra))

    def flush(self) -> None:
        replies = self.channel.receive()
        expects, self.expects = self.expects, []
        for reply, expect in zip(replies, expects, strict=True):
            self.compare(reply, expect)

    def compare(self, reply: Mapping[str, Any], expect: _Expect) -> None:
        where = f"step {expect.steps}" if expect.steps else "at the deal"
        if not reply.get("ok"):
            if expect.what == "setup":
                if "skip" in reply:
                    raise _Skipped(f"the engine says: {reply['skip']}")
                raise self.fail("setup", f"the engine refused the set-up: {reply.get('error', reply)}", 1)
            kinds: dict[str, FailureKind] = {"apply": "verdict", "view": "view", "score": "score", "legal": "legal"}
            raise self.fail(
                kinds[expect.what],
                f"{where}: the engine answered '{expect.what}' with an error: {reply.get('error', reply)}",
                expect.steps,
                seat=expect.seat,
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
            raise self.fail("verdict", f"{where}: {problem}", expect.steps)
        if accepted != played.accepted:
            if played.accepted:
                got = f"refused it citing {reply.get('rule') or 'no rule'} ({reply.get('message', '')})"
                message = f"{where}: the reference accepts this action; the engine {got}"
            else:
                message = f"{where}: the reference refuses this action ({played.rule}); the engine accepted it"
            rules = [played.rule] if played.rule else []
            if not played.accepted and played.move.kind == "wrong seat":
                message += " (only the seat to act may act)"
            if played.accepted and isinstance(reply.get("rule"), str):
                rules.append(reply["rule"])
            raise self.fail("verdict", message, expect.steps, rules=rules)
        if not accepted and self.caps.rule_ids and reply.get("rule") != played.rule:
            raise self.fail(
                "verdict",
                f"{where}: both refuse it, but the engine cites {reply.get('rule')!r} and the reference {played.rule}",
                expect.steps,
                rules=[played.rule] if played.rule else [],
            )

    def compare_view(self, reply: Mapping[str, Any], expect: _Expect, where: str) -> None:
        seat = expect.seat
        assert seat is not None and expect.view is not None and self.setup is not None
        raw = reply.get("view")
        if not isinstance(raw, Mapping):
            message = f"{where}: seat {seat}'s view is not an object: {excerpt(raw)}"
            raise self.fail("view", message, expect.steps, seat=seat)
        problem = view_problem(raw, seat, len(self.setup.deck), len(expect.view["hand_sizes"]))
        if problem:
            raise self.fail("conservation", f"{where}: seat {seat}'s view: {problem}", expect.steps, seat=seat)
        wanted = normalise_view(expect.view)
        got = normalised_or_none(raw)
        if got is None:
            message = f"{where}: seat {seat}'s view is not a view: {excerpt(raw)}"
            raise self.fail("view", message, expect.steps, seat=seat)
        for key, value in wanted.items():
            if got.get(key) != value:
                raise self.fail(
                    "view",
                    f"{where}: seat {seat}'s view field '{key}' should be {value!r}, got {excerpt(got.get(key))}",
                    expect.steps,
                    seat=seat,
                    rules=_view_rules(key),
                )

    def compare_score(self, reply: Mapping[str, Any], expect: _Expect, where: str) -> None:
        assert expect.score is not None
        totals, over, end, parts = expect.score
        if bool(reply.get("over")) != over:
            raise self.fail(
                "score",
                f"{where}: the hand should {'be over' if over else 'go on'}; "
                f"the engine says over={reply.get('over')!r}",
                expect.steps,
            )
        if reply.get("end") != end:
            raise self.fail(
                "score", f"{where}: the hand's end should be {end!r}, got {reply.get('end')!r}", expect.steps
            )
        got = reply.get("totals")
        if not isinstance(got, list) or list(got) != totals:
            rules: list[str] = []
            got_parts = reply.get("parts")
            if isinstance(got_parts, list):
                for side, wanted in enumerate(parts):
                    theirs = got_parts[side] if side < len(got_parts) and isinstance(got_parts[side], dict) else {}
                    rules.extend(rule for rule, points in wanted.items() if theirs.get(rule) != points)
            raise self.fail(
                "score",
                f"{where}: the scores should be {totals}, got {got!r}",
                expect.steps,
                rules=rules or ["SCORE.CARDS_IN_HAND"],
            )

    def compare_legal(self, reply: Mapping[str, Any], expect: _Expect, where: str) -> None:
        assert expect.legal is not None
        if self.caps.legal == "count" or "actions" not in reply:
            count = reply.get("count")
            if type(count) is not int or count != len(expect.legal):
                message = f"{where}: {len(expect.legal)} legal actions, the engine counts {excerpt(count, 80)}"
                raise self.fail("legal", message, expect.steps)
            return
        listed = reply.get("actions")
        if not isinstance(listed, list):
            raise self.fail("legal", f"{where}: 'actions' is not a list: {excerpt(listed)}", expect.steps)
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
                raise self.fail("legal", message, expect.steps) from None
            if text in theirs:
                twice.append(text)
            theirs.add(text)
        missing = sorted(ours - theirs)
        extra = sorted(theirs - ours)
        if missing or extra or twice:
            game = expect.game
            rules: list[str] = []
            if game is not None:
                for text in extra:
                    try:
                        game.check(parse_action(text))
                    except CanastaError as refusal:
                        rule = getattr(refusal, "rule_id", None)
                        if rule and rule not in rules:
                            rules.append(rule)
            parts = []
            if missing:
                parts.append(f"the engine does not list {len(missing)} legal action(s): {few(missing)}")
            if extra:
                parts.append(f"the engine lists {len(extra)} action(s) the reference refuses: {few(extra)}")
            if twice:
                parts.append(f"the engine lists {len(twice)} action(s) twice: {few(twice)}")
            raise self.fail(
                "legal", f"{where}: " + "; ".join(parts), expect.steps, missing=missing, extra=extra, rules=rules
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
            requests.append({"cmd": "legal"})
        return requests

    def check_expects(self, game: Game, legal: list[Action]) -> list[_Expect]:
        """What the reference says to the requests of ``check_requests``, after the moves so far."""
        caps = self.caps
        steps = len(self.steps)
        expects: list[_Expect] = []
        if caps.views:
            expects.extend(_Expect("view", steps, seat=s, view=game.view(s)) for s in range(game.rules.players))
        if caps.score:
            expects.append(_Expect("score", steps, score=_score_of(game)))
        if caps.legal != "none":
            expects.append(_Expect("legal", steps, legal=legal, game=game))
        return expects

    def play(self) -> int:
        runner = self.runner
        pick = self.pick
        setup = self.setup = self.draw(setups(runner.variants))
        ref = setup.new_game()
        players = ref.rules.players
        self.send([_setup_request(setup)])
        self.expects.append(_Expect("setup", 0))
        prefix = pick(0, runner.max_prefix)
        legal = list(ref.legal_actions())
        self.flush()
        # Right after the deal: every seat's view, the score and the legal actions, before any move.
        self.send(self.check_requests(players))
        self.expects.extend(self.check_expects(ref, legal))
        checked = False
        for index in range(prefix + runner.checked_steps):
            if ref.is_over:
                break
            checked = index >= prefix
            mode = pick(0, 99)
            moves: list[Move] = []
            if legal and mode < 100 - runner.illegal:
                action = choose_legal(pick, legal)
                if mode >= 100 - runner.illegal - runner.probes:
                    wrong = (ref.to_act + choose(pick, range(1, players))) % players
                    moves.append(Move(action, wrong, "wrong seat"))
                moves.append(Move(action))
            else:
                moves.append(draw_illegal(pick, ref, legal))
            # The engine's requests go first; the reference does its part while the engine answers.
            requests = [_apply_request(m) for m in moves]
            if checked:
                requests += self.check_requests(players)
            self.send(requests)
            for move in moves:
                played = play(ref, move)
                self.steps.append(played)
                self.expects.append(_Expect("apply", len(self.steps), played=played))
                if played.accepted:
                    legal = list(ref.legal_actions())
            if checked:
                self.expects.extend(self.check_expects(ref, legal))
                self.flush()
        if not checked:
            self.send(self.check_requests(players))
            self.expects.extend(self.check_expects(ref, legal))
        self.flush()
        if ref.is_over:
            # The hand is over: the engine must refuse anything more.
            move = Move(Action.draw(), kind="out of phase")
            self.send([_apply_request(move)])
            played = play(ref, move)
            self.steps.append(played)
            self.expects.append(_Expect("apply", len(self.steps), played=played))
            self.flush()
        bound = hand_bound(ref.rules)
        if len(ref.history) > bound and not ref.is_over:  # pragma: no cover - the reference's own bound
            raise self.fail("score", f"the hand did not end within {bound} actions", len(self.steps))
        self.replay(ref)
        self.shuffled_view(ref)
        return len(self.steps)

    def replay(self, ref: Game) -> None:
        """The same deck and moves again on the engine: the same verdicts and final views."""
        assert self.setup is not None
        try:
            self.send([_setup_request(self.setup)])
            self.expects.append(_Expect("setup", 0))
            for number, played in enumerate(self.steps, 1):
                self.send([_apply_request(played.move)])
                self.expects.append(_Expect("apply", number, played=played))
            requests = [r for r in self.check_requests(ref.rules.players) if r["cmd"] != "legal"]
            self.send(requests)
            self.expects.extend(e for e in self.check_expects(ref, []) if e.what != "legal")
            self.flush()
        except Disagreement as disagreement:
            failure = disagreement.failure
            failure.message = "replaying the same deck and moves: " + failure.message
            if failure.kind in ("view", "score", "conservation"):
                failure.kind = "replay"
            raise

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
                f"written out): field '{key}' should be {wanted[key]!r}, got {got.get(key)!r}"
            )
        raise self.fail("shuffle", message, len(self.steps), seat=seat, position=position, rules=["TURN.ORDER"])


def _quick_key(action: Mapping[str, Any]) -> tuple[Any, ...]:
    """A key equal for two JSON actions with the same type and multisets of card names in each role."""
    cards = action.get("cards")
    if "card" in action:
        cards = [action["card"]]
    groups = action.get("melds") or ()
    return (
        action["type"],
        tuple(sorted(c.upper() for c in cards or ())),
        tuple(sorted((tuple(sorted(c.upper() for c in g["cards"])), str(g.get("rank", "")).upper()) for g in groups)),
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


def _view_rules(key: str) -> list[str]:
    return [_VIEW_RULES[key]] if key in _VIEW_RULES else []


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
    def __init__(
        self,
        engine: Engine,
        variants: list[str],
        *,
        max_prefix: int,
        checked_steps: int,
        illegal: int,
        probes: int,
    ) -> None:
        self.engine = engine
        self.caps = _Caps.of(engine)
        self.channel = _Channel(engine)
        self.variants = variants
        self.max_prefix = max_prefix
        self.checked_steps = checked_steps
        self.illegal = illegal
        self.probes = probes
        self._json: dict[Action, dict[str, Any]] = {}

    def json_of(self, action: Action) -> dict[str, Any]:
        """An action's JSON, remembered (the same melds stay legal for many steps)."""
        known = self._json.get(action)
        if known is None:
            if len(self._json) > 200_000:
                self._json.clear()
            known = self._json[action] = action.to_json()
        return known

    def game(self, data: st.DataObject) -> tuple[str, int]:
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
        return game.setup.variant, steps

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
    max_prefix: int = 300,
    checked_steps: int = 20,
    illegal: int = 15,
    probes: int = 10,
    shrink_seconds: float = 20.0,
    max_shrink_runs: int = 400,
) -> GeneratedReport:
    """Play ``games`` generated games on ``engine`` against the reference; see the module docstring.

    ``max_prefix``: the most steps a game plays before its checked part (only verdicts compared);
    ``checked_steps``: steps checked in full after that; ``illegal`` and ``probes``: how many steps in a hundred
    try a move meant to be refused, or first send the chosen legal action for a wrong seat; ``shrink_seconds`` and
    ``max_shrink_runs``: the budget for shrinking a disagreement (the smallest failing game found so far is kept).
    """
    report = GeneratedReport(seed=seed, requested=games)
    started = time.monotonic()
    label = f"generated-{seed}" if seed >= 0 else f"generated-m{-seed}"
    playable = [v for v in list_variants() if v in engine.info.variants and (not variants or v in variants)]
    if not playable or games <= 0:
        if games > 0:
            wanted = ", ".join(variants) if variants else "any bundled variant"
            report.results.append(
                Result(label, ",".join(variants or []) or "-", "skipped", f"the engine plays none of: {wanted}")
            )
        return report
    runner = _Runner(
        engine, playable, max_prefix=max_prefix, checked_steps=checked_steps, illegal=illegal, probes=probes
    )
    failures: list[Failure] = []
    in_a_row = 0
    shrink_started = 0.0

    def one_game(data: st.DataObject) -> None:
        nonlocal in_a_row, shrink_started
        shrinking = bool(failures)
        if shrinking:
            report.shrink_runs += 1
            if report.shrink_runs > max_shrink_runs or time.monotonic() - shrink_started > shrink_seconds:
                raise _Abort("shrinking budget spent")
        # A game Hypothesis stops half-way (it caps the size of its first examples) is not counted.
        number = report.games + 1
        try:
            variant, steps = runner.game(data)
        except Disagreement as disagreement:
            disagreement.failure.game_number = failures[0].game_number if failures else number
            if not failures:
                shrink_started = time.monotonic()
                report.games = number
                report.steps += len(disagreement.failure.steps)
            failures.append(disagreement.failure)
            raise
        except _Skipped as skipped:
            if not shrinking:
                report.games = number
                report.results.append(Result(f"{label}-{number}", "-", "skipped", str(skipped)))
            return
        except EngineFailure as failure:
            _restart(engine, report)
            if shrinking:
                return
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
        if not shrinking:
            in_a_row = 0
            report.games = number
            report.steps += steps
            report.results.append(Result(f"{label}-{number}", variant, "passed", f"{steps} steps"))

    test = given(st.data())(one_game)
    test = settings(
        max_examples=games,
        database=None,
        deadline=None,
        derandomize=False,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        print_blob=False,
    )(test)
    test = hypothesis_seed(seed)(test)
    try:
        with _no_local_constants():
            test()
    except _Abort:
        pass
    except Exception:  # the failure is in ``failures``; anything else is re-raised below
        if not failures:
            raise
    if failures:
        best = min(reversed(failures), key=lambda f: len(f.steps))
        report.notes.append(
            f"stopped at the first disagreement (game {failures[0].game_number}); "
            f"{report.shrink_runs} shrinking run{'s' if report.shrink_runs != 1 else ''}"
        )
        scenario_id = f"{label}-{failures[0].game_number}"
        text = scenario_yaml(best, scenario_id, seed)
        message = best.message
        report.scenarios.append(GeneratedScenario(scenario_id, best.setup.variant, message, text, len(best.steps)))
        report.results.append(
            Result(
                scenario_id,
                best.setup.variant,
                "failed",
                message + f"\n(shrunk to {len(best.steps)} steps; the scenario is printed with the generated games)",
                rule=best.rules[0] if best.rules else None,
            )
        )
    report.seconds = time.monotonic() - started
    return report


def _restart(engine: Engine, report: GeneratedReport) -> None:
    try:
        engine.restart()
    except EngineFailure as failure:
        report.notes.append(f"the engine could not be restarted: {failure.detail}")
        raise _Abort("restart failed") from None


# -- scenarios -----------------------------------------------------------------------------------------------------
def scenario_yaml(failure: Failure, scenario_id: str, seed: int) -> str:
    """The shrunk game as a scenario file: the reference's verdict on every step, and at the last one what the
    reference shows where the engine differed (a view, the score, the legal actions)."""
    setup = failure.setup
    rules = reference_rules(setup.variant)
    steps = list(failure.steps)
    position = failure.position
    if failure.kind == "shuffle":
        assert position is not None
        game = Game.from_position(rules, position_from_json(position, rules))
        legal = list(game.legal_actions())
        seat = (game.to_act + 1) % rules.players
        probe = Move(legal[0] if legal else Action.draw(), seat, "wrong seat")
        steps = [play(game, probe)]
    else:
        game = setup.new_game()
        if not steps:  # found at the deal: a move by the wrong seat, refused, leaves the deal to look at
            probe_game = setup.new_game()
            legal = list(probe_game.legal_actions())
            wrong = (probe_game.to_act + 1) % rules.players
            steps = [play(probe_game, Move(legal[0] if legal else Action.draw(), wrong, "wrong seat"))]
        for played in steps:
            again = play(game, played.move)
            assert (again.accepted, again.rule) == (played.accepted, played.rule), "the reference is not replayable"
    last = steps[-1]
    seat = failure.seat if failure.seat is not None else (last.move.seat if last.move.seat is not None else game.to_act)
    expect: dict[str, Any] = {"result": "accepted" if last.accepted else "refused"}
    if last.rule:
        expect["rule"] = last.rule
    if failure.kind == "legal":
        legal_texts = [str(a) for a in game.legal_actions()]
        expect["legal_count"] = len(legal_texts)
        if failure.missing:
            expect["legal_includes"] = failure.missing[:8]
        if failure.extra:
            expect["legal_excludes"] = failure.extra[:8]
    if failure.kind != "legal" or not (failure.missing or failure.extra):
        expect["view"] = game.view(seat)
    totals, over, end, _ = _score_of(game)
    expect["score"] = {"totals": totals}
    expect["over"] = over
    if end is not None:
        expect["end"] = end
    cited = _cited_rules(failure, steps, setup.variant)
    lines = [
        "scenario: 1",
        f"id: {scenario_id}",
        f"title: {_q(f'Generated game: {_headline(failure)}')}",
        "description: "
        + _q(
            f"Found by generated games (seed {seed}, game {failure.game_number}, {setup.variant}) and shrunk. "
            f"The engine under test disagreed with the reference interpreter: {failure.message}. "
            "Every expectation is the reference's; the rules listed are a best guess, to be checked when saving."
        ),
        f"rules: [{', '.join(cited)}]",
        f"variants: [{setup.variant}]",
        "level: must",
        "setup:",
    ]
    if failure.kind == "shuffle":
        assert position is not None
        written = {key: value for key, value in position.items() if key != "team_scores"}
        lines.append(f"  position: {_q(written)}")
        lines.append(f"  team_scores: {_q(position.get('team_scores', list(setup.team_scores)))}")
    else:
        lines += [
            "  deck:",
            f"    order: {_q(format_deck(setup.deck))}",
            f"  first_seat: {setup.first_seat}",
            f"  team_scores: {_q(list(setup.team_scores))}",
        ]
    lines.append("steps:")
    for number, played in enumerate(steps, 1):
        lines.append(f"  - action: {_q(str(played.move.action))}")
        if played.move.seat is not None:
            lines.append(f"    seat: {played.move.seat}")
        if number < len(steps):
            plain: dict[str, Any] = {"result": "accepted" if played.accepted else "refused"}
            if played.rule:
                plain["rule"] = played.rule
            lines.append(f"    expect: {_q(plain)}")
        else:
            lines.append("    expect:")
            lines.extend(f"      {key}: {_q(value)}" for key, value in expect.items())
    return "\n".join(lines) + "\n"


def _headline(failure: Failure) -> str:
    return {
        "setup": "the engine refuses the set-up",
        "verdict": "the engine and the reference disagree on an action",
        "view": "a view differs from the reference's",
        "conservation": "a view loses or invents cards",
        "score": "the score differs from the reference's",
        "legal": "the legal actions differ from the reference's",
        "replay": "replaying the same deck and actions gives another result",
        "shuffle": "a view depends on cards hidden from that seat",
    }[failure.kind]


def _cited_rules(failure: Failure, steps: Sequence[Played], variant: str) -> list[str]:
    """The rules a generated scenario cites: the reference's refusal at the last step, the rules behind what
    differed (score parts, refusals of actions the engine lists), else a guess from the last action's kind."""
    clauses = load_variant(variant).clauses
    wanted = list(failure.rules)
    last = steps[-1] if steps else None
    if last is not None and last.rule:
        wanted.insert(0, last.rule)
    out = [rule for index, rule in enumerate(wanted) if rule in clauses and rule not in wanted[:index]]
    if not out and last is not None:
        guess = {"draw": "TURN.DRAW.COUNT", "take": "PILE.TAKE.MATCH", "meld": "MELD.MIN_CARDS"}
        out = [rule for rule in (guess.get(last.move.action.kind, "TURN.ORDER"),) if rule in clauses]
    return out[:4] or [next(iter(clauses))]


def _q(value: Any) -> str:
    """A value in YAML: JSON's flow syntax is YAML too."""
    return json.dumps(value, ensure_ascii=False)


__all__ = [
    "Disagreement",
    "Failure",
    "GeneratedReport",
    "GeneratedScenario",
    "position_json",
    "run_generated_games",
    "scenario_yaml",
]
