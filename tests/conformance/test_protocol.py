"""``canasta-ref serve`` speaks protocol 1 (conformance/PROTOCOL.md): every request, bad lines, ids.

The server is a real process; lines go in raw, so malformed ones can be sent too.
"""

from __future__ import annotations

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
from broken_engines.kit import CANASTA_REF_PATH

from canasta_ref.cards import card_name, full_deck, parse_cards

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
FROZEN = {
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
    """``canasta-ref serve`` as a subprocess: one raw line in, one decoded line out (5 s at most)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [CANASTA_REF_PATH, "serve"],
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
        deadline = time.monotonic() + 5
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
    assert reply["ok"] is False and f"got {seat!r}" in reply["error"], f"a view was given for seat {seat!r}"
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
