"""Engines under test, as the runner talks to them: a subprocess speaking the protocol, or the reference in process.

A subprocess that crashes, hangs or prints something that is not a JSON object raises EngineFailure with
what happened and the tail of its stderr; the runner records it and restarts the engine for the next test.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .session import PROTOCOL_VERSION, ReferenceSession

FailureKind = Literal["crashed", "timed out", "garbage", "protocol"]


class EngineFailure(Exception):
    """The engine did not answer properly; ``kind`` says how."""

    def __init__(self, kind: FailureKind, detail: str, stderr: str = "") -> None:
        self.kind = kind
        self.detail = detail
        self.stderr = stderr
        super().__init__(f"engine {kind}: {detail}")


@dataclass
class EngineInfo:
    name: str = "?"
    version: str = "?"
    protocol: int = 0
    variants: list[str] = field(default_factory=list)
    capabilities: dict[str, Any] = field(default_factory=dict)

    def can(self, capability: str) -> bool:
        value = self.capabilities.get(capability)
        return bool(value) and value != "none"


class Engine:
    """Common client side: the handshake, and requests one at a time or written ahead of their answers."""

    info: EngineInfo

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.send([message])
        return self.receive()[0]

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        """Write requests without waiting; ``receive`` returns their answers in order."""
        raise NotImplementedError

    def receive(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def forget(self) -> None:
        """Drop requests sent but not answered (after a failure)."""

    def handshake(self) -> EngineInfo:
        reply = self.request({"cmd": "hello", "protocol": PROTOCOL_VERSION})
        if not reply.get("ok"):
            raise EngineFailure("protocol", f"the handshake was refused: {reply.get('error', reply)}")
        if reply.get("protocol") != PROTOCOL_VERSION:
            raise EngineFailure(
                "protocol", f"the engine speaks protocol {reply.get('protocol')!r}, not {PROTOCOL_VERSION}"
            )
        self.info = EngineInfo(
            name=str(reply.get("name", "?")),
            version=str(reply.get("version", "?")),
            protocol=PROTOCOL_VERSION,
            variants=list(reply.get("variants", [])),
            capabilities=dict(reply.get("capabilities", {})),
        )
        return self.info

    def close(self) -> None:
        """Let the engine go (subprocesses are asked to quit, then stopped)."""

    def restart(self) -> None:
        """Start again after a failure."""


class InProcessEngine(Engine):
    """The reference interpreter called directly, through the same messages (JSON round-tripped)."""

    def __init__(self, session: ReferenceSession | None = None) -> None:
        self.session = session or ReferenceSession()
        self._queued: list[Mapping[str, Any]] = []
        self.handshake()

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        self._queued.extend(messages)

    def receive(self) -> list[dict[str, Any]]:
        queued, self._queued = self._queued, []
        return [json.loads(json.dumps(self.session.handle(json.loads(json.dumps(m))))) for m in queued]

    def forget(self) -> None:
        self._queued = []


#: The reference engine as a subprocess: ``canasta-ref serve``, run by this Python.
REFERENCE_SERVE = shlex.join([sys.executable, "-m", "canasta_ref.cli", "serve"])


class SubprocessEngine(Engine):
    """A long-running process speaking JSON lines on stdin and stdout."""

    def __init__(self, command: str, *, timeout: float = 10.0) -> None:
        self.command = command
        self.timeout = timeout
        self._stderr: deque[str] = deque(maxlen=40)
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._next_id = 0
        self._sent: list[tuple[int, str]] = []
        self.start()

    def start(self) -> None:
        self._sent = []
        self._process = subprocess.Popen(
            shlex.split(self.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._buffer = b""
        self._stderr.clear()
        threading.Thread(target=self._drain_stderr, args=(self._process,), daemon=True).start()
        self.handshake()

    def _drain_stderr(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        for raw in process.stderr:
            self._stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            raise EngineFailure("crashed", self._exit_text(), self.stderr_tail())
        lines = []
        for message in messages:
            self._next_id += 1
            self._sent.append((self._next_id, str(message.get("cmd"))))
            lines.append(json.dumps({"id": self._next_id, **message}))
        assert process.stdin is not None
        try:
            process.stdin.write(("\n".join(lines) + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFailure("crashed", self._exit_text(), self.stderr_tail()) from None

    def receive(self) -> list[dict[str, Any]]:
        sent, self._sent = self._sent, []
        process = self._process
        replies = []
        for number, command in sent:
            if process is None:
                raise EngineFailure("crashed", self._exit_text(), self.stderr_tail())
            line = self._read_line(process, f"no answer to {command!r} within {self.timeout:g} s")
            replies.append(self._decode(line, number))
        return replies

    def forget(self) -> None:
        self._sent = []

    def _decode(self, line: str, number: int) -> dict[str, Any]:
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            raise EngineFailure("garbage", f"not JSON: {line[:200]!r}", self.stderr_tail()) from None
        if not isinstance(reply, dict) or "ok" not in reply:
            raise EngineFailure(
                "garbage", f"not a protocol response (an object with 'ok'): {line[:200]!r}", self.stderr_tail()
            )
        if reply.get("id", number) != number:
            raise EngineFailure("protocol", f"answered id {reply.get('id')!r} to request {number}", self.stderr_tail())
        return reply

    def _read_line(self, process: subprocess.Popen[bytes], late: str) -> str:
        assert process.stdout is not None
        deadline = time.monotonic() + self.timeout
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise EngineFailure("timed out", late, self.stderr_tail())
                chunk = os.read(fd, 65536)
                if not chunk:
                    process.wait(timeout=1)
                    raise EngineFailure("crashed", self._exit_text(), self.stderr_tail())
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _exit_text(self) -> str:
        process = self._process
        code = process.poll() if process is not None else None
        return f"the process exited with status {code}" if code is not None else "the process stopped answering"

    def close(self) -> None:
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(b'{"cmd": "quit"}\n')
                process.stdin.close()
                process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        self._process = None

    def restart(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        self._process = None
        self.start()
