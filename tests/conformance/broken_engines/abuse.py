"""Broken engines by definition: the reference, except that on one request it does something no engine may do.

``python abuse.py MODE [--on CMD] [--once FILE] [--pid-file FILE]``: MODE says what goes wrong, on the first
request whose ``cmd`` is CMD (default: the mode's own). The runner must report each for what it is and go on.

Output abuse (the runner reads it): ``close-stdout`` (closes its output and stays alive), ``nested`` (a reply
100,000 arrays deep), ``big-int`` (a number of 5,000 digits), ``long-line`` (9 MiB without a newline),
``stderr-flood`` (20 MiB on stderr in one line, then a crash), ``hang`` (sleeps forever), ``nan`` (``NaN`` where
a boolean is due, which Python reads but JSON does not have), ``key-twice`` (``accepted`` given twice, false then
true).

Shape abuse (the reply is JSON, of the wrong types): ``caps-list``, ``variants-text``, ``variants-number``,
``name-object``, ``protocol-text`` (in ``hello``), ``no-variants`` (hello lists none), ``actions-number``
(``legal``), ``view-list`` (``view``), ``accepted-text`` (``apply`` says ``"accepted": "false"``),
``over-text`` (``score`` says ``"over": "false"``), ``legal-twice`` (``legal`` lists its first action twice).

View leaks (extra fields): ``view-hands`` (every seat's hand in a field ``hands``), ``view-stock-top`` (the
stock's top card in ``stock_top``), ``meld-extra`` (a meld object carrying the next seat's hand).

Answer leaks (fields beside ``view``): ``answer-hands`` (every seat's hand in a top-level field ``hands``),
``extension-hands`` (the same in an extension field ``x-hands``), ``extension-clean`` (an extension field
``x-engine`` with no card in it, which the protocol allows).

Escape from the process group: ``setsid-child`` (at start, forks a child that calls ``setsid()`` and sleeps,
holding the engine's output open), ``setsid-daemon`` (the same child forks again and exits, leaving a grandchild
whose parent is gone and whose output is closed). Otherwise the engine is the reference.

With ``--pid-file FILE`` the engine adds its pid to FILE at start (to check it is gone afterwards), and so does
each process it forks.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from _common import BrokenSession, misbehave_now, serve

from canasta_ref.engine.cards import card_name

MODE = sys.argv[1]
DEFAULT_ON = {
    "caps-list": "hello",
    "variants-text": "hello",
    "variants-number": "hello",
    "name-object": "hello",
    "protocol-text": "hello",
    "no-variants": "hello",
    "actions-number": "legal",
    "legal-twice": "legal",
    "over-text": "score",
    "view-list": "view",
    "view-hands": "view",
    "view-stock-top": "view",
    "meld-extra": "view",
    "answer-hands": "view",
    "extension-hands": "view",
    "extension-clean": "view",
}
#: The top-level field each answer-leak mode adds beside the view.
ANSWER_FIELD = {"answer-hands": "hands", "extension-hands": "x-hands", "extension-clean": "x-engine"}
ON = sys.argv[sys.argv.index("--on") + 1] if "--on" in sys.argv else DEFAULT_ON.get(MODE, "apply")
MISBEHAVE = misbehave_now()


def raw(text: str) -> None:
    """Write ``text`` as it is on stdout (not a reply the serve loop would encode)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def output_abuse(mode: str) -> None:
    """The modes that write something no JSON reply is, or stop writing."""
    if mode == "close-stdout":
        sys.stdout.flush()
        os.close(1)
        time.sleep(3600)
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "nested":
        raw("[" * 100_000 + "]" * 100_000 + "\n")
    elif mode == "nan":
        raw('{"ok": true, "accepted": NaN}\n')
    elif mode == "key-twice":
        raw('{"ok": true, "accepted": false, "accepted": true}\n')
    elif mode == "big-int":
        raw('{"ok": true, "accepted": ' + "9" * 5000 + "}\n")
    elif mode == "long-line":
        raw("x" * (9 * 1024 * 1024))
        time.sleep(3600)
    elif mode == "stderr-flood":
        block = "E" * (1024 * 1024)
        for _ in range(20):
            sys.stderr.write(block)
        sys.stderr.write("\nabuse.py: flooded stderr (on purpose)\n")
        sys.stderr.flush()
        sys.exit(7)


def hello_abuse(reply: dict[str, Any]) -> dict[str, Any]:
    """A hello reply with one field of the wrong type (or no variants)."""
    changes: dict[str, dict[str, Any]] = {
        "caps-list": {"capabilities": ["views", "score"]},
        "variants-text": {"variants": "classic"},
        "variants-number": {"variants": 7},
        "name-object": {"name": {"first": "bad"}},
        "protocol-text": {"protocol": "1"},
        "no-variants": {"variants": []},
    }
    return {**reply, **changes[MODE]}


def view_abuse(session: BrokenSession, reply: dict[str, Any]) -> dict[str, Any]:
    """A view with hidden cards in fields the protocol does not define."""
    game = session.game
    if game is None or not reply.get("ok"):
        return reply
    view = dict(reply["view"])
    hands = [game.view(seat)["hand"] for seat in range(game.rules.players)]
    if MODE == "view-hands":
        view["hands"] = hands
    elif MODE == "view-stock-top":
        stock = game.state.stock
        view["stock_top"] = card_name(stock[-1]) if stock else None
    elif MODE == "meld-extra":
        view["melds"] = [[{"cards": ["KH", "KS", "KD"], "canasta": False, "note": hands[1]}], []]
    elif MODE == "view-list":
        return {"ok": True, "view": ["KH", "KS"]}
    elif MODE in ANSWER_FIELD:
        beside = {"checked": True} if MODE == "extension-clean" else hands
        return {**reply, ANSWER_FIELD[MODE]: beside}
    return {**reply, "view": view}


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if not MISBEHAVE or request.get("cmd") != ON:
        return None
    output_abuse(MODE)
    reply = session.reference(request)
    if ON == "hello" and MODE in DEFAULT_ON and DEFAULT_ON[MODE] == "hello":
        return hello_abuse(reply)
    if MODE == "actions-number":
        return {"ok": True, "actions": 5}
    if MODE == "legal-twice" and reply.get("actions"):
        return {**reply, "actions": [reply["actions"][0], *reply["actions"]]}
    if MODE == "over-text":
        return {**reply, "over": "false" if reply.get("over") else "true"}
    if MODE == "accepted-text":
        return {**reply, "accepted": "false" if reply.get("accepted") else "true"}
    if ON == "view":
        return view_abuse(session, reply)
    return reply


def note_pid() -> None:
    """Add this process's pid to the ``--pid-file``, if one was given."""
    if "--pid-file" in sys.argv:
        with Path(sys.argv[sys.argv.index("--pid-file") + 1]).open("a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")


def leave_the_session(daemon: bool) -> None:
    """Fork a child that leaves the engine's session and sleeps; as a daemon it forks once more, its parent exits
    and its output is closed. The engine itself goes on."""
    if os.fork() != 0:
        return
    os.setsid()
    if daemon and os.fork() != 0:
        os._exit(0)
    note_pid()
    if daemon:
        null = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):
            os.dup2(null, stream)
    time.sleep(3600)
    os._exit(0)


if __name__ == "__main__":
    note_pid()
    if MODE in ("setsid-child", "setsid-daemon"):
        leave_the_session(daemon=MODE == "setsid-daemon")
    serve(hook)
