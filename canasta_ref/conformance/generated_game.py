"""One generated game, played on an engine and on the reference at once, step by step, compared.

``Runner`` holds what the games of a campaign share (the engine, its capabilities, the log of deviations);
``Runner.game(pick)`` plays one game, every choice of which is made by ``pick`` (``choices``): the set-up, the
prefix of steps whose verdicts alone are compared, each move. The checks and generic properties are described in
``generated``'s docstring.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..engine.actions import Action, parse_action
from ..engine.cards import Card, cards_of
from ..engine.game import Game
from ..engine.rules import Rules
from ..errors import CanastaError
from . import causes
from .deviations import DeviationKey, DeviationLog, Mask
from .engines import Engine, EngineFailure, EngineInfo, error_text, excerpt
from .failures import Failure, FailureKind, score_of
from .plaintext import shown
from .report import few
from .runner import (
    action_text,
    apply_request,
    deal_request,
    normalise_view,
    normalised_or_none,
    verdict_problem,
    view_problem,
)
from .session import action_newer_than, position_content_newer_than, position_from_json
from .setup import position_json
from .strategies import (
    Move,
    Pick,
    Played,
    Setup,
    choose,
    choose_by_kind,
    draw_illegal,
    hand_bound,
    pick_setup,
    play,
    verdict,
)
from .variants import reference_rules
from .views import normalise_field, unknown_field_problem

#: At most this many requests are written before their answers are read (pipes hold 64 KiB).
PIPELINE_DEPTH = 24
#: Requests are written to the engine once this many are waiting (or their answers are due).
WRITE_BATCH = [8]


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
    """Requests written ahead of their answers, so engine and reference work overlap; answers come in order.
    Requests are written a few at a time (``WRITE_BATCH``), and all before answers are read: a subprocess engine
    is woken once a batch, not once a request, and the engine still works on one batch while the runner makes the
    next."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._pending = 0
        self._unwritten: list[Mapping[str, Any]] = []

    @property
    def pending(self) -> int:
        """Requests sent and not yet answered, written or not."""
        return self._pending

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        unwritten = self._unwritten
        before = len(unwritten)
        unwritten.extend(messages)
        self._pending += len(unwritten) - before
        if len(unwritten) >= WRITE_BATCH[0]:
            self._write()

    def _write(self) -> None:
        if self._unwritten:
            messages, self._unwritten = self._unwritten, []
            self.engine.send(messages)

    def receive(self) -> list[dict[str, Any]]:
        """The answers to everything sent, in order."""
        self._write()
        self._pending = 0
        return self.engine.receive()

    def call(self, messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        self.send(messages)
        return self.receive()

    def reset(self) -> None:
        """Forget what was sent (after the engine failed: it is restarted)."""
        self._pending = 0
        self._unwritten = []
        self.engine.forget()


# -- disagreements -------------------------------------------------------------------------------------------------
class Disagreement(Exception):
    def __init__(self, failure: Failure) -> None:
        self.failure = failure
        super().__init__(failure.message)


class GameSkipped(Exception):
    """The engine skips a game's set-up (a variant or position it says it cannot play)."""


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
    #: Every seat's view (its hand tells a view of another seat's hand: seats numbered otherwise).
    views: list[dict[str, Any]] = field(default_factory=list)


def _apply_request(move: Move) -> dict[str, Any]:
    return apply_request(move.action, move.seat)


def _setup_request(setup: Setup) -> dict[str, Any]:
    return deal_request(setup.variant, setup.deck, setup.first_seat, team_scores=setup.team_scores)


# -- one game ------------------------------------------------------------------------------------------------------
class _Game:
    """Plays one generated game on the engine and the reference; raises Disagreement at the first difference."""

    def __init__(self, runner: Runner, pick: Pick) -> None:
        self.runner = runner
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
                    raise GameSkipped(f"the engine says: {reply['skip']}")
                message = f"the engine refused the set-up: {error_text(reply)}"
                raise self.fail("setup", message, 1, cause=causes.SETUP_REFUSED)
            kinds: dict[str, FailureKind] = {"apply": "verdict", "view": "view", "score": "score", "legal": "legal"}
            raise self.fail(
                kinds[expect.what],
                f"{where}: the engine answered '{expect.what}' with an error: {error_text(reply)}",
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
        if accepted is played.accepted and (accepted or not self.caps.rule_ids or reply.get("rule") == played.rule):
            return  # the reference's verdict (and rule): the usual answer, told without writing out the move
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
        if raw == expect.view:
            # The reference's view field for field (the usual answer): equal normalised too, and its cards add up
            # as the reference's always do (tests/conformance/test_generated_shortcuts.py), so no count is needed.
            return
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
            hands = [normalise_field("hand", view["hand"]) for view in expect.views]
            turned = [k for k in differing if causes.renumbered(k, wanted[k], got.get(k), hands)]
            key = (turned or differing)[0]
            at_the_deal = expect.steps == 0 and not turned
            raise self.fail(
                "view",
                f"{where}: seat {seat}'s view field '{key}' should be {shown(wanted[key])}, got {shown(got.get(key))}",
                expect.steps,
                seat=seat,
                rules=_view_rules(key, at_the_deal=expect.steps == 0),
                rule=causes.deal_view_rule(self.ref.rules.variant, wanted, got) if at_the_deal else None,
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
            views = reference_views(game)
            expects.extend(_Expect("view", steps, seat=s, view=view, views=views) for s, view in enumerate(views))
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
        setup = self.setup = runner.fixed(pick_setup(pick, runner.variants))
        self._ref = setup.new_game()
        players = self.ref.rules.players
        self.send([_setup_request(setup)])
        self.expects.append(_Expect("setup", 0))
        prefix = pick(0, runner.max_prefix)
        legal = runner.legal(self.ref)
        self.flush()
        # Right after the deal: every seat's view, the score and the legal actions, before any move.
        self.send(self.check_requests(players))
        self.expects.extend(self.check_expects(self.ref, legal.listed()))
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
                self.expects.extend(self.check_expects(self.ref, legal.listed()))
                self.flush()
        if self.rebased:
            self.rebased, legal = False, runner.legal(self.ref)
        if not checked:
            self.send(self.check_requests(players))
            self.expects.extend(self.check_expects(self.ref, legal.listed()))
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

    def moves(self, legal: Legal, players: int) -> list[Move]:
        """The next step's moves: a legal action (perhaps first sent for a wrong seat), or one meant to be refused.
        A move of a feature the engine lacks, one its version cannot write (naming a meld, before version 6), or one
        the reference refuses only by its own notation, is not sent."""
        runner, pick, ref = self.runner, self.pick, self.ref
        mode = pick(0, 99)
        if legal and mode < 100 - runner.illegal:
            action = choose_by_kind(pick, legal)
            moves: list[Move] = []
            if mode >= 100 - runner.illegal - runner.probes:
                wrong = (ref.to_act + choose(pick, range(1, players))) % players
                moves.append(Move(action, wrong, "wrong seat"))
            return [*moves, Move(action)]
        move = draw_illegal(pick, ref, legal.listed())
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
            message = f"the engine refused a written-out position: {error_text(reply)}"
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


def reference_views(game: Game) -> list[dict[str, Any]]:
    """Every seat's view of the reference's position (a function of its own: benchmarks time the reference)."""
    return [game.view(seat) for seat in range(game.rules.players)]


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


class Legal:
    """The reference's legal actions at one position, less those of kinds the engine lacks: counted by kind for a
    move's choice (``choose_by_kind``), listed in full only where a check or a move meant to be refused needs the
    list. Asked before the reference moves on (the listing reads the position as it goes)."""

    def __init__(self, game: Game, lacks: Callable[[str], bool] | None) -> None:
        self._legal = game.legal_actions()
        self._lacks = lacks
        self._kinds: list[tuple[str, int]] | None = None
        self._listed: list[Action] | None = None

    def kinds(self) -> list[tuple[str, int]]:
        if self._kinds is None:
            kinds = self._legal.kinds()
            lacks = self._lacks
            self._kinds = kinds if lacks is None else [(kind, n) for kind, n in kinds if not lacks(kind)]
        return self._kinds

    def of_kind(self, kind: str, index: int) -> Action:
        return self._legal.of_kind(kind, index)

    def listed(self) -> list[Action]:
        """Every action, in listing order."""
        if self._listed is None:
            lacks = self._lacks
            self._listed = list(self._legal) if lacks is None else [a for a in self._legal if not lacks(a.kind)]
        return self._listed

    def __bool__(self) -> bool:
        return bool(self.kinds())


# -- what the games of a campaign share ----------------------------------------------------------------------------
class Runner:
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
        #: Where in its first game each key was first seen (the order of a merged campaign's deviations).
        self.first_order: dict[DeviationKey, int] = {}
        self.found_in_game = 0

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

    def legal(self, game: Game) -> Legal:
        """The reference's legal actions, without those of features the engine lacks (protocol 2), counted by kind
        (listed when first asked)."""
        legal = Legal(game, self.info.lacks_action if self.info.absent_features else None)
        legal.kinds()
        return legal

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
        if key not in self.first:
            self.first[key] = failure
            self.first_order[key] = self.found_in_game
        self.found_in_game += 1

    def game(self, pick: Pick) -> tuple[str, int, bool]:
        """One game, its every choice made by ``pick``: its variant, how many steps it played, and whether it
        deviated anywhere."""
        self.found_in_game = 0
        game = _Game(self, pick)
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


__all__ = ["LEGAL_LIMIT", "Disagreement", "GameSkipped", "Runner", "speaks_position"]
