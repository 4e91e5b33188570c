"""``canasta-ref serve`` speaks protocol 2 (conformance/PROTOCOL.md) and still protocol 1
(conformance/protocol-history/PROTOCOL-1.md): every request, bad lines, ids; the runner's handshake in either
version, protocol 2's capabilities read and checked;
serve's deliberately limited engines and its mutants with several faults.

The server is a real process; lines go in raw, so malformed ones can be sent too.
"""

from __future__ import annotations

import io
import json
import os
import re
import selectors
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import CANASTA_REF_PATH, engine_command, reference_command, write_scenarios

from canasta_ref.cli import main
from canasta_ref.conformance.engines import EngineFailure, EngineInfo, InProcessEngine, SubprocessEngine, engine_info
from canasta_ref.conformance.runner import up_front_skip
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.engine.cards import card_name, full_deck, parse_cards
from canasta_ref.spec import list_variants

CAPABILITIES = {"setup_position", "parameters", "legal", "rule_ids", "views", "score", "undo"}
VIEW_FIELDS = {
    "seat",
    "to_act",
    "phase",
    "hand",
    "hand_sizes",
    "stock_size",
    "pile",
    "pile_frozen",
    "melds",
    "canastas",
    "bonus_cards",
    "team_scores",
    "permission",
    "end",
}
FROZEN: dict[str, Any] = {
    "hands": ["KH JK 9C 9D 5S", "4C 4D 6S", "7C 7D 8H", "8C 8D 10H"],
    "pile": "6H 2C KD",
    "melds": [["QH QS QD"], []],
    "to_act": 0,
    "phase": "draw",
}


def plain_deck() -> list[str]:
    """The 108 cards with no red three, black three or wild card among the first 60: a deal with no surprises."""
    names = [card_name(c) for c in full_deck(2, 2)]
    special = [n for n in names if n[:-1] in ("2", "3") or n == "JK"]
    return [n for n in names if n not in special] + special


class Server:
    """``canasta-ref serve`` (with options) as a subprocess: one raw line in, one decoded line out (5 s at most)."""

    def __init__(self, *options: str) -> None:
        self.process = subprocess.Popen(
            [CANASTA_REF_PATH, "serve", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.buffer = b""

    def line(self, raw: str) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(raw.encode() + b"\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + 30  # a bound on a hang, not a speed target
        fd = self.process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                assert left > 0 and selector.select(left), f"no answer to {raw!r}"
                chunk = os.read(fd, 65536)
                if not chunk:
                    stderr = self.process.stderr.read().decode() if self.process.stderr else ""
                    pytest.fail(f"the server exited after {raw!r}:\n{stderr[-1500:]}")
                self.buffer += chunk
        answer, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(answer)

    def ask(self, **request: Any) -> dict[str, Any]:
        reply: dict[str, Any] = self.line(json.dumps(request))
        return reply

    def alive(self) -> bool:
        return bool(self.ask(id="ping", cmd="hello", protocol=1).get("ok"))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    server = Server()
    yield server
    server.close()


@pytest.fixture
def fresh() -> Iterator[Server]:
    server = Server()
    yield server
    server.close()


def setup_frozen(server: Server) -> None:
    assert server.ask(id="s", cmd="setup", variant="classic", position=FROZEN) == {"id": "s", "ok": True}


# -- hello ------------------------------------------------------------------------------------------------------


def test_hello_names_the_engine_protocol_1_and_its_capabilities(server: Server) -> None:
    reply = server.ask(id=1, cmd="hello", protocol=1)
    assert reply["id"] == 1 and reply["ok"] is True
    assert reply["protocol"] == 1
    assert reply["name"] == "canasta-ref" and isinstance(reply["version"], str)
    assert {"classic", "classic-2p"} <= set(reply["variants"])
    capabilities = reply["capabilities"]
    assert set(capabilities) == CAPABILITIES
    assert capabilities["legal"] == "list"
    assert all(capabilities[c] is True for c in CAPABILITIES - {"legal"})


def test_a_mutant_says_so_in_its_name() -> None:
    done = subprocess.run(
        [CANASTA_REF_PATH, "serve", "--mutate-parameter", "one_card_pile=forbid"],
        input='{"id": 1, "cmd": "hello", "protocol": 1}\n',
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert json.loads(done.stdout)["name"] == "canasta-ref (mutant: one_card_pile = 'forbid')"


#: Today's answer to a protocol-1 hello, byte for byte: protocol 2 must not change what a protocol-1 engine reads.
V1_HELLO_REPLY = (
    '{"id": 1, "ok": true, "name": "canasta-ref", "version": "0.1.0", "protocol": 1, '
    '"variants": ' + json.dumps(list_variants()) + ', "capabilities": {"setup_position": true, "parameters": true, '
    '"legal": "list", "rule_ids": true, "views": true, "score": true, "undo": true}}\n'
)


def serve_once(*options: str, lines: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    """``canasta-ref serve OPTIONS`` fed ``lines`` and the end of its input."""
    return subprocess.run(
        [CANASTA_REF_PATH, "serve", *options],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
    )


def hello_of(*options: str, protocol: int = 2) -> dict[str, Any]:
    """The reply of ``canasta-ref serve OPTIONS`` to a hello offering ``protocol``."""
    done = serve_once(*options, lines=[{"id": 1, "cmd": "hello", "protocol": protocol}])
    assert done.returncode == 0, done.stderr
    reply: dict[str, Any] = json.loads(done.stdout)
    return reply


def test_a_hello_for_protocol_1_is_answered_byte_for_byte_as_before() -> None:
    done = serve_once(lines=[{"id": 1, "cmd": "hello", "protocol": 1}])
    assert done.stdout == V1_HELLO_REPLY


@pytest.mark.parametrize(
    "hello",
    [{"protocol": 2}, {"protocol": 2, "protocols": [1, 2]}, {"protocol": 1, "protocols": [1, 2]}],
    ids=["protocol 2", "the runner's offer", "protocols lists 2"],
)
def test_a_hello_for_protocol_2_is_answered_in_protocol_2(server: Server, hello: dict[str, Any]) -> None:
    reply = server.ask(id=1, cmd="hello", **hello)
    assert (reply["ok"], reply["protocol"]) == (True, 2)
    assert reply["capabilities"] == json.loads(V1_HELLO_REPLY)["capabilities"]  # nothing absent, fixed or unheld


def test_a_hello_naming_no_version_is_answered_in_protocol_1(server: Server) -> None:
    assert server.ask(id=1, cmd="hello")["protocol"] == 1


@pytest.mark.parametrize(
    "hello",
    [{"protocol": 9}, {"protocol": "2"}, {"protocol": True}, {"protocol": None}, {"protocol": 9, "protocols": [9, 10]}],
    ids=["9", "text", "true", "null", "9 and 10"],
)
def test_a_hello_for_another_version_is_refused_with_a_sentence(server: Server, hello: dict[str, Any]) -> None:
    reply = server.ask(id=1, cmd="hello", **hello)
    assert reply["ok"] is False and "speaks protocol 1, 2, 3, 4, 5, 6, 7 or 8" in reply["error"]
    assert "protocol" not in reply
    assert server.alive()


# -- setup ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "dealt", "first"), [("classic", 4, 11, 0), ("classic-2p", 2, 15, 1)])
def test_setup_from_a_deck_deals_one_card_at_a_time_from_the_first_seat(
    server: Server, variant: str, players: int, dealt: int, first: int
) -> None:
    deck = plain_deck()
    reply = server.ask(id=2, cmd="setup", variant=variant, parameters={}, deck=" ".join(deck), first_seat=first)
    assert reply == {"id": 2, "ok": True}
    for offset in range(players):
        seat = (first + offset) % players
        view = server.ask(id=3, cmd="view", seat=seat)["view"]
        assert sorted(view["hand"]) == sorted(deck[offset : players * dealt : players])
        assert view["to_act"] == first
    upcard = players * dealt
    assert view["pile"] == [deck[upcard]]
    assert view["stock_size"] == 108 - upcard - 1
    assert view["hand_sizes"] == [dealt] * players
    assert server.ask(id=4, cmd="apply", action={"type": "draw"}) == {"id": 4, "ok": True, "accepted": True}
    hand = server.ask(id=5, cmd="view", seat=first)["view"]["hand"]
    drawn = deck[upcard + 1 : upcard + 1 + (2 if variant == "classic-2p" else 1)]  # the stock, top first
    assert sorted(hand) == sorted(deck[0 : players * dealt : players] + drawn)


def test_setup_from_a_position(server: Server) -> None:
    setup_frozen(server)
    view = server.ask(id=1, cmd="view", seat=0)["view"]
    assert set(view) == VIEW_FIELDS
    assert sorted(view["hand"]) == sorted(["KH", "JK", "9C", "9D", "5S"])
    assert view["hand_sizes"] == [5, 3, 3, 3]
    assert view["pile"] == ["6H", "2C", "KD"]
    assert view["pile_frozen"] is True
    assert [[sorted(m["cards"]) for m in side] for side in view["melds"]] == [[["QD", "QH", "QS"]], []]
    assert view["stock_size"] == 108 - 14 - 3 - 3
    assert (view["seat"], view["to_act"], view["phase"]) == (0, 0, "draw")
    assert (view["permission"], view["end"]) == ("none", None)


def test_setup_with_parameters_and_team_scores(server: Server) -> None:
    position = {**FROZEN, "team_scores": [1500, 3000]}
    reply = server.ask(id=1, cmd="setup", variant="classic", parameters={"one_card_pile": "forbid"}, position=position)
    assert reply == {"id": 1, "ok": True}
    assert server.ask(id=2, cmd="view", seat=1)["view"]["team_scores"] == [1500, 3000]


def test_setup_of_an_unknown_variant_is_skipped(server: Server) -> None:
    reply = server.ask(id=1, cmd="setup", variant="pinochle", deck="")
    assert reply["id"] == 1 and reply["ok"] is False and "pinochle" in reply["skip"]


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": "setup", "variant": "classic", "deck": "KH KS"},
        {"cmd": "setup", "variant": "classic", "parameters": {"nope": 1}, "position": FROZEN},
        {"cmd": "setup", "variant": "classic", "parameters": {"one_card_pile": "bogus"}, "position": FROZEN},
        {"cmd": "setup", "variant": "classic", "position": {"hands": ["KH"]}},
        {"cmd": "setup", "variant": "classic", "position": "KH"},
        {"cmd": "setup", "variant": "classic", "position": {**FROZEN, "to_act": 7}},
        {"cmd": "setup", "variant": "classic", "position": {**FROZEN, "hands": ["KH KH KH", "", "", ""]}},
    ],
    ids=["short deck", "unknown parameter", "bad option", "hands", "position text", "to_act", "three KH"],
)
def test_a_bad_setup_is_an_error(server: Server, request_: dict[str, Any]) -> None:
    reply = server.ask(id="bad", **request_)
    assert reply["id"] == "bad" and reply["ok"] is False and isinstance(reply["error"], str) and reply["error"]
    assert server.alive()


# -- apply ------------------------------------------------------------------------------------------------------


def test_apply_accepts_and_refuses_with_the_rule_id(server: Server) -> None:
    setup_frozen(server)
    before = server.ask(id=1, cmd="view", seat=0)
    reply = server.ask(id=2, cmd="apply", seat=0, action={"type": "take", "cards": ["KH", "JK"]})
    assert reply["id"] == 2 and reply["ok"] is True and reply["accepted"] is False
    assert reply["rule"] == "PILE.TAKE.FROZEN"
    assert isinstance(reply["message"], str) and reply["message"]
    assert server.ask(id=1, cmd="view", seat=0) == before, "a refused action must leave the hand as it was"
    assert server.ask(id=3, cmd="apply", action={"type": "draw"}) == {"id": 3, "ok": True, "accepted": True}


def test_an_action_out_of_turn_is_refused_by_turn_order(server: Server) -> None:
    setup_frozen(server)
    reply = server.ask(id=1, cmd="apply", seat=2, action={"type": "draw"})
    assert (reply["accepted"], reply["rule"]) == (False, "TURN.ORDER")


# -- legal, view, score, undo -----------------------------------------------------------------------------------


def test_legal_lists_each_action_once(server: Server) -> None:
    setup_frozen(server)
    assert server.ask(id=1, cmd="legal") == {"id": 1, "ok": True, "actions": [{"type": "draw"}]}
    server.ask(id=2, cmd="apply", action={"type": "draw"})
    actions = server.ask(id=3, cmd="legal")["actions"]
    assert {"type": "discard", "card": "5S"} in actions
    assert len({json.dumps(a, sort_keys=True) for a in actions}) == len(actions)
    assert {"type": "draw"} not in actions


def test_view_shows_only_the_seats_own_hand(server: Server) -> None:
    setup_frozen(server)
    for seat, hand in enumerate(FROZEN["hands"]):
        view = server.ask(id=seat, cmd="view", seat=seat)["view"]
        assert view["seat"] == seat
        assert sorted(view["hand"]) == sorted(str(hand).split())
        assert view["hand_sizes"] == [5, 3, 3, 3]


def test_score_gives_totals_and_parts_by_rule_id(server: Server) -> None:
    setup_frozen(server)
    reply = server.ask(id=1, cmd="score")
    assert set(reply) == {"id", "ok", "over", "end", "totals", "parts", "match_over"}
    assert (reply["over"], reply["end"], reply["match_over"]) == (False, None, False)
    assert len(reply["totals"]) == len(reply["parts"]) == 2
    for total, parts in zip(reply["totals"], reply["parts"], strict=True):
        assert all(key.startswith("SCORE.") for key in parts)
        assert sum(parts.values()) == total
    assert reply["parts"][0]["SCORE.MELDED_CARDS"] == 30


def test_a_hand_played_out_scores_went_out(server: Server) -> None:
    position = {
        "hands": ["9C", "4C 4D 6S 7H", "5C 5D 8H 8S", "6C 6D 10H JS"],
        "pile": "9D",
        "melds": [["KH KS KD KC KH KS 2C", "9D 9H 9S"], []],
    }
    server.ask(id=1, cmd="setup", variant="classic", position=position)
    assert server.ask(id=2, cmd="apply", action={"type": "take", "cards": []})["accepted"] is True
    assert server.ask(id=3, cmd="apply", action={"type": "meld", "melds": [{"cards": ["9C"]}]})["accepted"] is True
    reply = server.ask(id=4, cmd="score")
    assert (reply["over"], reply["end"]) == (True, "went out")
    assert reply["parts"][0]["SCORE.GOING_OUT"] > 0
    assert server.ask(id=5, cmd="view", seat=1)["view"]["phase"] == "over"


def test_undo_takes_back_the_last_accepted_action(server: Server) -> None:
    setup_frozen(server)
    start = server.ask(id=1, cmd="view", seat=0)
    server.ask(id=2, cmd="apply", action={"type": "draw"})
    after_draw = server.ask(id=1, cmd="view", seat=0)
    assert after_draw != start
    server.ask(id=3, cmd="apply", action={"type": "discard", "card": "ZZ"})  # an error: not an action
    server.ask(id=3, cmd="apply", action={"type": "discard", "card": "KS"})  # refused: not held
    assert server.ask(id=4, cmd="undo") == {"id": 4, "ok": True}
    assert server.ask(id=1, cmd="view", seat=0) == start
    reply = server.ask(id=5, cmd="undo")
    assert reply["ok"] is False and reply["error"]


def test_quit_answers_then_ends_the_process(fresh: Server) -> None:
    assert fresh.ask(id=9, cmd="quit")["ok"] is True
    assert fresh.process.wait(timeout=5) == 0


def test_end_of_input_ends_the_process() -> None:
    done = subprocess.run([CANASTA_REF_PATH, "serve"], input="\n\n", capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "")


# -- malformed lines and ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "this is not json",
        '{"id": 1, "cmd": ',
        "[1, 2, 3]",
        '"hello"',
        '{"id": 1}',
        '{"id": 1, "cmd": "fly"}',
        '{"id": 1, "cmd": 5}',
        '{"id": 1, "cmd": "view", "seat": 9}',
        '{"id": 1, "cmd": "view", "seat": "north"}',
        '{"id": 1, "cmd": "view"}',
        '{"id": 1, "cmd": "apply"}',
        '{"id": 1, "cmd": "apply", "action": "draw"}',
        '{"id": 1, "cmd": "apply", "action": {"type": "fly"}}',
        '{"id": 1, "cmd": "apply", "action": {"type": "discard", "card": "ZZ"}}',
        '{"id": 1, "cmd": "apply", "action": {"type": "meld", "melds": "KH"}}',
        '{"id": 1, "cmd": "apply", "action": {"type": "meld", "melds": [{"rank": "Z", "cards": ["2C"]}]}}',
        '{"id": 1, "cmd": "apply", "action": {"type": "take", "cards": [1, 2]}}',
    ],
)
def test_a_malformed_line_gets_an_error_and_the_server_goes_on(server: Server, line: str) -> None:
    setup_frozen(server)
    reply = server.line(line)
    assert isinstance(reply, dict) and reply["ok"] is False
    assert isinstance(reply["error"], str) and reply["error"]
    assert server.alive()
    assert server.ask(id=2, cmd="view", seat=0)["view"]["hand_sizes"] == [5, 3, 3, 3]


def test_a_request_before_setup_is_an_error(fresh: Server) -> None:
    for command in ("apply", "legal", "view", "score", "undo"):
        reply = fresh.ask(id=command, cmd=command, seat=0, action={"type": "draw"})
        assert reply["id"] == command and reply["ok"] is False and "setup" in reply["error"]


@pytest.mark.parametrize("ident", [7, "abc", 0, None, 2.5, [1, "x"], {"n": 1}])
def test_ids_are_echoed(server: Server, ident: Any) -> None:
    assert server.ask(id=ident, cmd="hello", protocol=1)["id"] == ident
    assert server.ask(id=ident, cmd="no-such-command")["id"] == ident


def test_no_id_no_id_in_the_answer(server: Server) -> None:
    assert "id" not in server.ask(cmd="hello", protocol=1)


def test_blank_lines_are_skipped(server: Server) -> None:
    assert server.line('\n\n{"id": 3, "cmd": "hello", "protocol": 1}')["id"] == 3


# -- set-ups that should be refused, not crash the server (bugs found once) ------------------------------------

DECK = " ".join(plain_deck())


@pytest.mark.parametrize(
    ("lines", "field"),
    [
        ([{"cmd": "setup", "variant": "classic", "deck": DECK, "first_seat": "north"}], "first_seat"),
        ([{"cmd": "setup", "variant": "classic", "parameters": ["one_card_pile"], "position": FROZEN}], "parameters"),
        ([{"cmd": "setup", "variant": "classic", "deck": DECK, "team_scores": "ab"}, {"cmd": "score"}], "team_scores"),
        (
            [
                {"cmd": "setup", "variant": "classic", "position": {**FROZEN, "melded": [True]}},
                {"cmd": "apply", "action": {"type": "draw"}},
                {"cmd": "apply", "action": {"type": "discard", "card": "5S"}},
            ],
            "position.melded",
        ),
    ],
    ids=["first_seat text", "parameters list", "team_scores text", "melded too short"],
)
def test_a_malformed_setup_does_not_kill_the_server(fresh: Server, lines: list[dict[str, Any]], field: str) -> None:
    """The set-up is refused naming the field; what follows finds no hand set up."""
    first, *rest = lines
    reply = fresh.ask(id=0, **first)
    assert reply["id"] == 0 and reply["ok"] is False and f"field '{field}'" in reply["error"]
    for number, request in enumerate(rest, 1):
        reply = fresh.ask(id=number, **request)
        assert reply == {"id": number, "ok": False, "error": "no hand is set up; send 'setup' first"}
    assert fresh.alive()


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": "setup", "variant": "classic", "deck": DECK, "first_seat": 9},
        {"cmd": "setup", "variant": "classic", "position": {**FROZEN, "phase": "dancing"}},
        {"cmd": "setup", "variant": "classic", "position": {**FROZEN, "permission": "maybe"}},
    ],
    ids=["first_seat 9", "phase", "permission"],
)
def test_an_invalid_setup_is_refused(server: Server, request_: dict[str, Any]) -> None:
    reply = server.ask(id="bad", **request_)
    assert reply["ok"] is False, f"accepted an invalid set-up: {request_}"
    assert server.alive()


def test_an_apply_with_a_seat_that_is_not_a_number_is_an_error(server: Server) -> None:
    setup_frozen(server)
    reply = server.ask(id=1, cmd="apply", seat="north", action={"type": "draw"})
    assert reply["ok"] is False, "a seat that is not a number was taken for 'the seat to act'"


@pytest.mark.parametrize("seat", [True, -1, 4, "0", None])
def test_a_view_for_a_seat_that_is_not_one_is_an_error(server: Server, seat: Any) -> None:
    setup_frozen(server)
    reply = server.ask(id=1, cmd="view", seat=seat)
    assert reply["ok"] is False and f"got {json.dumps(seat)}" in reply["error"], f"a view was given for seat {seat!r}"
    assert server.ask(id=2, cmd="view", seat=1)["ok"] is True


def test_the_plain_deck_alone_is_a_valid_set_up(server: Server) -> None:
    """So the set-ups above are refused for their malformed field, not for the deck."""
    assert sorted(parse_cards(DECK)) == sorted(full_deck(2, 2))
    assert server.ask(id=1, cmd="setup", variant="classic", deck=DECK, first_seat=1, team_scores=[0, 0]) == {
        "id": 1,
        "ok": True,
    }


def test_the_position_set_up_of_protocol_md_is_accepted(server: Server) -> None:
    """The example in conformance/PROTOCOL.md, less its placeholder stock, is a set-up the reference takes."""
    text = (Path(__file__).parents[2] / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")
    examples = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.DOTALL)]
    (example,) = [e for e in examples if e.get("cmd") == "setup" and "position" in e]
    position = {key: value for key, value in example["position"].items() if key != "stock"}
    reply = server.ask(**{**example, "position": position})
    assert reply == {"id": example["id"], "ok": True}
    assert server.ask(id=3, cmd="view", seat=0)["view"]["bonus_cards"] == [[], [], [], []]


# -- the runner's handshake: protocol 2 offered, protocol 1 still spoken ---------------------------------------


def versions_engine(tmp_path: Path, *options: str) -> tuple[str, Path]:
    """The command of broken_engines/protocol_versions.py with ``options``, and the file its hellos are logged to."""
    log = tmp_path / "hellos.jsonl"
    return engine_command("protocol_versions", "--log", str(log), *options), log


def hellos(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_the_reference_agrees_on_protocol_8() -> None:
    engine = SubprocessEngine(reference_command())
    try:
        assert engine.info.protocol == 8 and engine.info.capabilities["sample"] is True
    finally:
        engine.close()
    assert InProcessEngine().info.protocol == 8


def test_the_runner_offers_every_version_then_greets_a_strict_protocol_1_engine_in_protocol_1(tmp_path: Path) -> None:
    command, log = versions_engine(tmp_path, "--accept", "1")
    engine = SubprocessEngine(command)
    try:
        assert engine.info.protocol == 1 and engine.info.can("views")
        assert engine.request({"cmd": "legal"})["ok"] is False  # a working engine: no hand set up yet
    finally:
        engine.close()
    assert hellos(log) == [
        {"id": 1, "cmd": "hello", "protocol": 8, "protocols": [1, 2, 3, 4, 5, 6, 7, 8]},
        {"id": 2, "cmd": "hello", "protocol": 1},
    ]


def test_an_engine_answering_protocol_1_to_the_offer_is_greeted_once(tmp_path: Path) -> None:
    command, log = versions_engine(tmp_path, "--speaks", "1")
    engine = SubprocessEngine(command)
    try:
        assert engine.info.protocol == 1
    finally:
        engine.close()
    assert len(hellos(log)) == 1


@pytest.mark.parametrize(
    ("options", "says", "greetings"),
    [
        (("--speaks", "9"), "the engine speaks protocol 9, not 1", 2),
        (("--accept", "9"), "the handshake was refused: this engine speaks protocol 9 only", 2),
        (("--speaks", "2", "--capabilities", '{"absent_features": ["fly"]}'), "capabilities.absent_features", 1),
    ],
    ids=["speaks 9", "refuses both", "bad protocol-2 capability"],
)
def test_a_handshake_that_agrees_on_no_version_fails_the_start(
    tmp_path: Path, options: tuple[str, ...], says: str, greetings: int
) -> None:
    command, log = versions_engine(tmp_path, *options)
    with pytest.raises(EngineFailure) as failure:
        SubprocessEngine(command)
    assert failure.value.kind == "protocol" and says in failure.value.detail
    assert len(hellos(log)) == greetings  # a malformed protocol-2 reply is a finding, not a reason to retry


# -- protocol 2's capabilities, read and checked ---------------------------------------------------------------


def v2_hello(**capabilities: Any) -> dict[str, Any]:
    """The reference's protocol-2 hello reply with some capabilities added or replaced."""
    reply = ReferenceSession().handle({"cmd": "hello", "protocol": 2, "protocols": [1, 2]})
    return {**reply, "capabilities": {**reply["capabilities"], **capabilities}}


def test_a_plain_protocol_2_hello_declares_no_limit() -> None:
    """No limit but the features later versions added, pass (3) and declare (8), which a version-2 engine cannot
    have."""
    info = engine_info(v2_hello())
    assert info.protocol == 2 and info.score_parts is True
    assert (info.absent_features, info.unheld_position_fields, info.fixed_parameters) == (
        {"pass", "declare"},
        frozenset(),
        {},
    )
    assert "absent_features" not in v2_hello()["capabilities"]


@pytest.mark.parametrize(("protocol", "has_pass"), [(1, False), (2, False), (3, True)])
def test_pass_is_a_version_3_action_never_sent_to_an_older_engine(protocol: int, has_pass: bool) -> None:
    session = ReferenceSession()
    reply = session.handle({"cmd": "hello", "protocol": protocol, "protocols": list(range(1, protocol + 1))})
    assert engine_info(reply).lacks_action("pass") is not has_pass
    position = {
        "hands": ["5H", "5C 2D 6S 8H"],
        "pile": "6C 7D 4S",
        "melds": [["KH KS KD KC 2H KH KS"], ["QH QS QD"]],
        "melded": [True, True],
        "phase": "play",
    }
    assert session.handle({"cmd": "setup", "variant": "hoyle-2p", "position": position})["ok"]
    listed = session.handle({"cmd": "legal"})["actions"]
    assert listed == ([{"type": "pass"}] if has_pass else [])
    applied = session.handle({"cmd": "apply", "action": {"type": "pass"}})
    assert (applied["accepted"], applied.get("rule")) == (has_pass, None)


def test_scores_with_totals_only_keep_the_score_capability() -> None:
    info = engine_info(v2_hello(score="totals"))
    assert info.score_parts is False and info.can("score")
    assert engine_info(v2_hello(score=False)).can("score") is False


def test_absent_features_name_the_actions_the_engine_lacks() -> None:
    info = engine_info(v2_hello(absent_features=["ask"]))
    assert info.absent_features == {"ask", "pass", "declare"}  # pass: a version-3 action; declare: version 8
    assert info.lacks_action("ask") and info.lacks_action("yes") and info.lacks_action("no")
    assert not info.lacks_action("end") and not info.lacks_action("draw")


def test_fixed_parameters_are_kept_per_variant() -> None:
    info = engine_info(v2_hello(fixed_parameters={"classic": {"one_card_pile": "forbid", "match_target": 3000}}))
    assert info.fixed_for("classic") == {"one_card_pile": "forbid", "match_target": 3000}
    assert info.fixed_for("classic-2p") == {}


def test_fixed_parameters_of_a_variant_not_bundled_are_kept_unchecked() -> None:
    reply = {**v2_hello(fixed_parameters={"house": {"anything": 1}}), "variants": ["classic", "house"]}
    assert engine_info(reply).fixed_for("house") == {"anything": 1}


def test_unheld_position_fields_are_read() -> None:
    assert engine_info(v2_hello(unheld_position_fields=["melded", "stock"])).unheld_position_fields == {
        "melded",
        "stock",
    }


FIXED = "'capabilities.fixed_parameters"
#: The first variant the engine lists (its messages name it first).
FIRST = list_variants()[0]
FEATURES = "'capabilities.absent_features' must be a list of the protocol's optional features"
FIELDS = "'capabilities.unheld_position_fields' must be a list of the protocol's position fields"
BAD_V2: list[tuple[dict[str, Any], str]] = [
    ({"score": "parts"}, "'capabilities.score' must be true, false or \"totals\", got 'parts'"),
    ({"score": 1}, "'capabilities.score' must be true, false or \"totals\", got 1"),
    ({"absent_features": "ask"}, FEATURES),
    ({"absent_features": ["fly"]}, f"{FEATURES} (ask, declare, end, pass), got 'fly'"),
    ({"absent_features": [1]}, FEATURES),
    ({"fixed_parameters": []}, f"{FIXED}' must be an object of variant ids"),
    ({"fixed_parameters": {"pinochle": {}}}, f"{FIXED}' must be keyed by variants the engine lists ({FIRST}, "),
    ({"fixed_parameters": {"classic": "forbid"}}, f"{FIXED}.classic' must be an object"),
    ({"fixed_parameters": {"classic": {"nope": 1}}}, f"{FIXED}.classic' must be parameters of classic, got 'nope'"),
    ({"fixed_parameters": {"classic": {"one_card_pile": "bogus"}}}, f"{FIXED}.classic.one_card_pile' must be a value"),
    ({"fixed_parameters": {"classic": {"match_target": "many"}}}, f"{FIXED}.classic.match_target' must be a value"),
    ({"unheld_position_fields": "stock"}, FIELDS),
    ({"unheld_position_fields": ["hand"]}, f"{FIELDS} (awaiting_first_turn, feet, hand_number, hands, melded"),
]


@pytest.mark.parametrize(("capabilities", "says"), BAD_V2, ids=[str(c) for c, _ in BAD_V2])
def test_a_malformed_protocol_2_capability_is_a_protocol_failure_naming_the_field(
    capabilities: dict[str, Any], says: str
) -> None:
    with pytest.raises(EngineFailure) as failure:
        engine_info(v2_hello(**capabilities))
    assert failure.value.kind == "protocol"
    assert says in failure.value.detail


def test_protocol_1_ignores_protocol_2_capabilities_but_not_a_score_of_totals() -> None:
    v1 = ReferenceSession().handle({"cmd": "hello", "protocol": 1})
    odd = {"absent_features": "nonsense", "fixed_parameters": 7, "unheld_position_fields": ["hand"]}
    info = engine_info({**v1, "capabilities": {**v1["capabilities"], **odd}})
    assert info.protocol == 1 and info.absent_features == {"pass", "declare"} and not info.fixed_parameters
    with pytest.raises(EngineFailure) as failure:
        engine_info({**v1, "capabilities": {**v1["capabilities"], "score": "totals"}})
    assert "'capabilities.score' must be true or false, got 'totals'" in failure.value.detail


def test_a_reply_may_speak_only_the_versions_allowed() -> None:
    with pytest.raises(EngineFailure) as failure:
        engine_info(v2_hello(), protocols=(1,))
    assert "the engine speaks protocol 2, not 1" in failure.value.detail


# -- serve's deliberately limited engines ----------------------------------------------------------------------

ONE_CARD_PILE = {
    "hands": ["9C", "4C 4D 6S 7H", "5C 5D 8H 8S", "6C 6D 10H JS"],
    "pile": "9D",
    "melds": [["KH KS KD KC KH KS 2C", "9D 9H 9S"], []],
}
TAKE = {"type": "take", "cards": []}


def test_a_fixed_parameter_shows_in_a_protocol_2_hello_only() -> None:
    fixed = hello_of("--fixed-parameter", "one_card_pile=forbid")["capabilities"]["fixed_parameters"]
    assert fixed == {variant: {"one_card_pile": "forbid"} for variant in list_variants()}
    assert "fixed_parameters" not in hello_of("--fixed-parameter", "one_card_pile=forbid", protocol=1)["capabilities"]


def take_one_card_pile(server: Server) -> dict[str, Any]:
    """The answer to taking a pile of one card with one card in hand (refused only under one_card_pile=forbid)."""
    assert server.ask(id=1, cmd="setup", variant="classic", position=ONE_CARD_PILE) == {"id": 1, "ok": True}
    reply: dict[str, Any] = server.ask(id=2, cmd="apply", action=TAKE)
    return reply


def test_a_fixed_parameter_is_played_and_another_value_is_skipped() -> None:
    fixed, plain = Server("--fixed-parameter", "one_card_pile=forbid"), Server()
    try:
        refused = take_one_card_pile(fixed)
        assert (refused["accepted"], refused["rule"]) == (False, "PILE.TAKE.ONE_CARD")
        assert take_one_card_pile(plain)["accepted"] is True
        same = fixed.ask(id=5, cmd="setup", variant="classic", parameters={"one_card_pile": "forbid"}, deck=DECK)
        assert same == {"id": 5, "ok": True}
        other = fixed.ask(id=6, cmd="setup", variant="classic", parameters={"one_card_pile": "allow"}, deck=DECK)
        assert other["ok"] is False and "one_card_pile fixed at 'forbid'" in other["skip"]
        assert plain.ask(id=6, cmd="setup", variant="classic", parameters={"one_card_pile": "allow"}, deck=DECK)["ok"]
    finally:
        fixed.close()
        plain.close()


def ask_after_drawing(server: Server) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The legal actions after seat 0 draws from the frozen position, and the answer to asking partner."""
    setup_frozen(server)
    server.ask(id=1, cmd="apply", action={"type": "draw"})
    return server.ask(id=2, cmd="legal")["actions"], server.ask(id=3, cmd="apply", action={"type": "ask"})


def test_an_absent_feature_is_declared_never_listed_and_refused_citing_no_rule() -> None:
    assert hello_of("--absent-feature", "ask")["capabilities"]["absent_features"] == ["ask"]
    assert "absent_features" not in hello_of()["capabilities"]
    limited, plain = Server("--absent-feature", "ask"), Server()
    try:
        actions, answer = ask_after_drawing(limited)
        assert {"type": "ask"} not in actions and {"type": "discard", "card": "5S"} in actions
        assert answer["ok"] is True and answer["accepted"] is False and answer["rule"] is None
        assert "no 'ask' action" in answer["message"]
        actions, answer = ask_after_drawing(plain)
        assert {"type": "ask"} in actions and answer == {"id": 3, "ok": True, "accepted": True}
    finally:
        limited.close()
        plain.close()


def test_both_features_may_be_absent() -> None:
    capabilities = hello_of("--absent-feature", "end", "--absent-feature", "ask")["capabilities"]
    assert capabilities["absent_features"] == ["ask", "end"]


def test_scores_with_totals_only_are_declared_and_sent_without_parts() -> None:
    assert hello_of("--score-totals-only")["capabilities"]["score"] == "totals"
    assert hello_of("--score-totals-only", protocol=1)["capabilities"]["score"] is True
    lines: list[dict[str, Any]] = [{"cmd": "setup", "variant": "classic", "position": FROZEN}, {"cmd": "score"}]
    totals_only = json.loads(serve_once("--score-totals-only", lines=lines).stdout.splitlines()[1])
    full = json.loads(serve_once(lines=lines).stdout.splitlines()[1])
    assert "parts" not in totals_only and "parts" in full
    assert totals_only["totals"] == full["totals"]
    engine = SubprocessEngine(reference_command("--score-totals-only"))
    try:
        assert engine.info.score_parts is False and engine.info.can("score")
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--fixed-parameter", "one_card_pil=forbid"), "--fixed-parameter: expected NAME=VALUE"),
        (("--fixed-parameter", "one_card_pile"), "--fixed-parameter: expected NAME=VALUE"),
        (("--fixed-parameter", "one_card_pile=bogus"), f"fixed parameter one_card_pile='bogus' in {FIRST}"),
        (("--fixed-parameter", "x=1", "--fixed-parameter", "x=2"), "--fixed-parameter: expected NAME=VALUE"),
        (
            ("--fixed-parameter", "one_card_pile=forbid", "--fixed-parameter", "one_card_pile=allow"),
            "'one_card_pile' is given twice",
        ),
        (
            ("--fixed-parameter", "one_card_pile=forbid", "--mutate-parameter", "one_card_pile=allow"),
            "both set 'one_card_pile'",
        ),
        (("--absent-feature", "fly"), "invalid choice: 'fly'"),
    ],
    ids=["misspelt", "no value", "bad value", "unknown", "twice", "fixed and mutated", "unknown feature"],
)
def test_a_bad_limit_is_a_clear_error(options: tuple[str, ...], says: str) -> None:
    done = serve_once(*options, lines=[])
    assert done.returncode != 0 and says in done.stderr and done.stdout == ""


# -- mutants with several faults -------------------------------------------------------------------------------

GO_OUT_NEEDS_A_CANASTA = """\
scenario: 1
id: go-out-needs-a-canasta
title: No going out without a canasta
rules: [GO_OUT.CANASTAS]
variants: [classic]
level: must
setup:
  position:
    hands: ["5S", "4C 4D 6S", "7C 7D 8H", "8C 8D 10H"]
    pile: "6H"
    melds: [["9D 9H 9S"], []]
    to_act: 0
    phase: play
steps:
  - action: discard 5S
    expect: {result: refused, rule: GO_OUT.CANASTAS}
"""


def run_mutant(tmp_path: Path, *rules: str) -> dict[str, str]:
    """Status per scenario of ``serve`` with each rule negated, on frozen-take (PILE.TAKE.FROZEN) and
    go-out-needs-a-canasta (GO_OUT.CANASTAS), run through ``canasta-ref conform`` in process."""
    suite = write_scenarios(tmp_path / "suite", ("frozen-take",))
    (suite / "go-out-needs-a-canasta.yaml").write_text(GO_OUT_NEEDS_A_CANASTA, encoding="utf-8")
    options = [word for rule in rules for word in ("--mutate-rule", rule)]
    report = tmp_path / f"report-{len(rules)}-{'-'.join(rules)}.json"
    argv = ["conform", "--no-progress", "--scenarios", str(suite), "--json", str(report)]
    main([*argv, "--impl", reference_command(*options)], out=io.StringIO())
    data = json.loads(report.read_text(encoding="utf-8"))
    return {r["scenario"]: r["status"] for r in data["results"]}


def test_a_mutant_with_two_faults_fails_where_either_fault_does(tmp_path: Path) -> None:
    assert run_mutant(tmp_path) == {"frozen-take": "passed", "go-out-needs-a-canasta": "passed"}
    assert run_mutant(tmp_path, "PILE.TAKE.FROZEN") == {"frozen-take": "failed", "go-out-needs-a-canasta": "passed"}
    assert run_mutant(tmp_path, "GO_OUT.CANASTAS") == {"frozen-take": "passed", "go-out-needs-a-canasta": "failed"}
    both = run_mutant(tmp_path, "PILE.TAKE.FROZEN", "GO_OUT.CANASTAS")
    assert both == {"frozen-take": "failed", "go-out-needs-a-canasta": "failed"}


def test_two_negated_rules_each_let_their_action_through() -> None:
    session = ReferenceSession(mutate_rule=["PILE.TAKE.FROZEN", "GO_OUT.CANASTAS"])
    go_out = {"hands": ["5S", "4C 4D 6S", "7C 7D 8H", "8C 8D 10H"], "pile": "6H", "melds": [["9D 9H 9S"], []]}
    for position, action in (
        (FROZEN, {"type": "take", "cards": ["KH", "JK"]}),
        ({**go_out, "phase": "play"}, {"type": "discard", "card": "5S"}),
    ):
        assert session.handle({"cmd": "setup", "variant": "classic", "position": position})["ok"] is True
        assert session.handle({"cmd": "apply", "action": action})["accepted"] is True
        plain = ReferenceSession()
        plain.handle({"cmd": "setup", "variant": "classic", "position": position})
        assert plain.handle({"cmd": "apply", "action": action})["accepted"] is False


def test_a_mutant_with_several_faults_names_them_all() -> None:
    name = hello_of(
        "--mutate-rule",
        "PILE.TAKE.FROZEN",
        "--mutate-rule",
        "GO_OUT.CANASTAS",
        "--mutate-parameter",
        "one_card_pile=forbid",
        "--mutate-parameter",
        "match_target=3000",
    )["name"]
    assert name == (
        "canasta-ref (mutant: PILE.TAKE.FROZEN negated, GO_OUT.CANASTAS negated, "
        "one_card_pile = 'forbid', match_target = 3000)"
    )
    assert hello_of("--mutate-rule", "PILE.TAKE.FROZEN")["name"] == "canasta-ref (mutant: PILE.TAKE.FROZEN negated)"


def test_several_mutated_parameters_are_all_played() -> None:
    session = ReferenceSession(mutate_parameter={"one_card_pile": "forbid", "match_target": 3000})
    rules = session.rules_for("classic", {})
    assert (rules.variant.param("one_card_pile"), rules.variant.param("match_target")) == ("forbid", 3000)
    assert ReferenceSession().rules_for("classic", {}).variant.param("one_card_pile") == "allow"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--mutate-rule", "PILE.TAKE.FROZEN", "--mutate-rule", "PILE.TAKE.FROZE"), "has a rule 'PILE.TAKE.FROZE'"),
        (("--mutate-parameter", "one_card_pile=forbid", "--mutate-parameter", "one_card=allow"), "not 'one_card'"),
        (("--mutate-parameter", "one_card_pile=forbid", "--mutate-parameter", "one_card_pile=pumpa"), "given twice"),
    ],
    ids=["unknown rule", "unknown parameter", "parameter twice"],
)
def test_a_bad_mutation_among_several_is_a_clear_error(options: tuple[str, ...], says: str) -> None:
    done = serve_once(*options, lines=[])
    assert done.returncode != 0 and says in done.stderr


# -- protocol 3: what an older engine is never sent -------------------------------------------------------------


@pytest.mark.parametrize("protocol", [1, 2, 3])
def test_a_position_with_sides_is_sent_only_to_a_protocol_3_engine(protocol: int) -> None:
    scenario = next(s for s in load_scenarios() if s.id == "three-players-own-minimum-refused")
    assert "sides" in scenario.setup["position"]
    info = EngineInfo(protocol=protocol, variants=["classic-3p"], capabilities={"setup_position": True})
    skip = up_front_skip(info, scenario, "classic-3p")
    if protocol == 3:
        assert skip is None
    else:
        assert skip == f"the engine speaks protocol {protocol}, whose set-ups have no 'sides' (version 3 added it)"


@pytest.mark.parametrize("protocol", [1, 2, 3])
def test_a_position_with_a_wild_canasta_is_sent_only_to_a_protocol_3_engine(protocol: int) -> None:
    scenario = next(s for s in load_scenarios() if s.id == "hoyle-wild-canasta-scores-1000")
    info = EngineInfo(protocol=protocol, variants=["hoyle-2p"], capabilities={"setup_position": True})
    skip = up_front_skip(info, scenario, "hoyle-2p")
    if protocol == 3:
        assert skip is None
    else:
        expected = f"the engine speaks protocol {protocol}, whose set-ups have no melds of wild cards alone"
        assert skip == expected + " (version 3 added it)"
