"""``canasta-ref serve`` writes the replies to requests already read together (``held``), and the runner writes its
requests a batch at a time: fewer writes and wake-ups on both sides of the pipe, the same lines in the same
order, and never a reply kept back while ``serve`` waits for input (which would stall a runner waiting for it)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any

from canasta_ref.conformance import generated_game
from canasta_ref.conformance.engines import Engine
from canasta_ref.conformance.serve import MAX_LINE_BYTES, serve
from canasta_ref.conformance.session import ReferenceSession

SHORT = [
    b'{"id": 1, "cmd": "hello", "protocol": 8}\n',
    b"\n",
    b'{"id": 2, "cmd": "setup", "variant": "classic", "seed": 5}\n',
    b"not json\n",
    b'{"id": 3, "cmd": "apply", "action": {"type": "draw"}}\r\n',
    b'{"id": 4, "cmd": "view", "seat": 0}\n',
    b'{"id": 5, "cmd": "score"}',
]
#: With a line too long between them (read in several chunks: the replies before it are written at its start).
REQUESTS = b"".join([*SHORT[:5], b"x" * (MAX_LINE_BYTES + 10) + b"\n", *SHORT[5:]])


class _Writes(io.StringIO):
    """An output counting its writes and flushes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.flushes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)

    def flush(self) -> None:
        self.flushes += 1


class _Trickle(io.RawIOBase):
    """An input handing out ``step`` bytes a read, telling at each read how many lines were written by then."""

    def __init__(self, data: bytes, step: int, out: io.StringIO) -> None:
        self.data, self.at, self.step, self.out = data, 0, step, out
        self.written_at_reads: list[int] = []

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        self.written_at_reads.append(self.out.getvalue().count("\n"))
        chunk = self.data[self.at : self.at + min(self.step, size)]
        self.at += len(chunk)
        return chunk


def _served(data: bytes, *, held: bool) -> _Writes:
    out = _Writes()
    assert serve(ReferenceSession(), io.BytesIO(data), out, held=held) == 0
    return out


def test_held_replies_are_the_same_lines_written_at_once() -> None:
    one_by_one, held = _served(REQUESTS, held=False), _served(REQUESTS, held=True)
    assert held.getvalue() == one_by_one.getvalue()
    assert one_by_one.getvalue().count("\n") == 7  # the blank line has no answer
    assert one_by_one.writes == 7 and one_by_one.flushes == 7
    assert held.writes < 7
    short = b"".join(SHORT) + b"\n"
    assert _served(short, held=True).getvalue() == _served(short, held=False).getvalue()
    assert _served(short, held=True).writes == 1 and _served(short, held=False).writes == 6


def test_the_answers_do_not_hang_on_how_the_input_is_cut() -> None:
    whole = _served(REQUESTS, held=False).getvalue()
    for step in (1, 7, 4096):
        for held in (False, True):
            out = io.StringIO()
            assert serve(ReferenceSession(), _Trickle(REQUESTS, step, out), out, held=held) == 0  # type: ignore[arg-type]
            assert out.getvalue() == whole


def test_every_reply_is_written_before_serve_reads_more() -> None:
    """Held or not, each read that may wait comes after every reply to the lines read before it."""
    for held in (False, True):
        out = io.StringIO()
        lines = [b'{"id": %d, "cmd": "hello", "protocol": 1}\n' % n for n in range(5)]
        stream = _Trickle(b"".join(lines), len(lines[0]), out)  # a whole line a read
        serve(ReferenceSession(), stream, out, held=held)  # type: ignore[arg-type]
        assert stream.written_at_reads == [0, 1, 2, 3, 4, 5]


def test_held_replies_stop_at_quit_and_are_written() -> None:
    data = b'{"id": 1, "cmd": "hello", "protocol": 1}\n{"id": 2, "cmd": "quit"}\n{"id": 3, "cmd": "hello"}\n'
    out = _served(data, held=True)
    assert [line[:8] for line in out.getvalue().splitlines()] == ['{"id": 1', '{"id": 2']


class _Recording(Engine):
    """An engine recording what reaches it, answering every request with ok."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.waiting: list[str] = []

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        batch = [str(m["cmd"]) for m in messages]
        self.writes.append(batch)
        self.waiting += batch

    def receive(self) -> list[dict[str, Any]]:
        answered, self.waiting = self.waiting, []
        return [{"ok": True, "cmd": cmd} for cmd in answered]


def test_the_runner_writes_requests_a_batch_at_a_time_and_all_before_reading() -> None:
    engine = _Recording()
    channel = generated_game._Channel(engine)
    batch = generated_game.WRITE_BATCH[0]
    for number in range(batch - 1):
        channel.send([{"cmd": f"r{number}"}])
    assert engine.writes == [] and channel.pending == batch - 1
    channel.send([{"cmd": "last"}])
    assert len(engine.writes) == 1 and len(engine.writes[0]) == batch
    channel.send([{"cmd": "a"}, {"cmd": "b"}])
    replies = channel.receive()
    assert [r["cmd"] for r in replies] == [*(f"r{n}" for n in range(batch - 1)), "last", "a", "b"]
    assert engine.writes[-1] == ["a", "b"] and channel.pending == 0
    channel.send([{"cmd": "dropped"}])
    channel.reset()
    assert channel.receive() == [] and engine.writes[-1] == ["a", "b"]
