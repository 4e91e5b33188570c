"""Engines under test, as the runner talks to them: a subprocess speaking the protocol, or the reference in process.

A subprocess that crashes, hangs or prints something that is not a JSON object raises EngineFailure with
what happened and the tail of its stderr; the runner records it and restarts the engine for the next test.
An engine under test is untrusted: its lines, its stderr and its handshake are bounded and checked, it runs in
a session of its own, and stopping it kills every process it started (a wrapper script's children, a child that
left its session).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.cards import CARD_TYPES, card_name
from ..spec import list_variants, load_variant
from . import strictjson
from .session import (
    FEATURE_ACTIONS,
    POSITION_FIELDS,
    PROTOCOL_VERSION,
    PROTOCOLS,
    ReferenceSession,
    features_newer_than,
)
from .setup import parameter_value_error

FailureKind = Literal["crashed", "timed out", "garbage", "protocol"]


class EngineFailure(Exception):
    """The engine did not answer properly; ``kind`` says how."""

    def __init__(self, kind: FailureKind, detail: str, stderr: str = "") -> None:
        self.kind = kind
        self.detail = detail
        self.stderr = stderr
        super().__init__(f"engine {kind}: {detail}")


#: What the report calls an engine whose hello gives no name, or no version.
NO_NAME = "an engine with no name"
NO_VERSION = "no version given"


@dataclass
class EngineInfo:
    name: str = NO_NAME
    version: str = NO_VERSION
    protocol: int = 0
    variants: list[str] = field(default_factory=list)
    capabilities: dict[str, Any] = field(default_factory=dict)
    #: Protocol 2: optional features the engine does not have (names of FEATURE_ACTIONS), e.g. {"ask"}.
    absent_features: frozenset[str] = frozenset()
    #: Protocol 2: per variant id, parameters the engine plays at fixed values it cannot change (name -> value).
    fixed_parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Protocol 2: False when the engine's score gives totals but not the parts by rule id.
    score_parts: bool = True
    #: Protocol 2: fields of a written-out position the engine cannot hold (names of POSITION_FIELDS).
    unheld_position_fields: frozenset[str] = frozenset()

    def title(self) -> str:
        """The engine as the report names it: its name and version, leaving out a version it did not give."""
        return self.name if self.version == NO_VERSION else f"{self.name} {self.version}"

    def can(self, capability: str) -> bool:
        value = self.capabilities.get(capability)
        return bool(value) and value != "none"

    def fixed_for(self, variant: str) -> dict[str, Any]:
        """The parameters the engine fixes in ``variant`` (empty when it fixes none)."""
        return dict(self.fixed_parameters.get(variant, {}))

    def lacking_feature(self, action_type: str) -> str | None:
        """The absent feature an action of this protocol type (``ask``, ``end``...) belongs to, or None."""
        return next(
            (name for name in sorted(self.absent_features) if action_type in FEATURE_ACTIONS.get(name, ())), None
        )

    def lacks_action(self, action_type: str) -> bool:
        """Whether an action of this protocol type belongs to a feature the engine lacks."""
        return self.lacking_feature(action_type) is not None


#: The capabilities that are true or false; ``legal`` is one of LEGAL_CAPABILITIES.
BOOLEAN_CAPABILITIES = ("setup_position", "parameters", "rule_ids", "views", "score", "undo")
LEGAL_CAPABILITIES = ("list", "count", "none")
#: Every capability a hello may declare, whichever version added it (PROTOCOL.md, ``hello``).
CAPABILITY_NAMES = (
    *BOOLEAN_CAPABILITIES,
    "legal",
    "sample",
    "absent_features",
    "fixed_parameters",
    "unheld_position_fields",
)
#: Said after a line that is not JSON: the most common cause is a word of the engine's own on its output.
STDOUT_HINT = " (standard output carries nothing but answers, a JSON object a line: write anything else to stderr)"
#: How many characters of an engine's text a message quotes.
EXCERPT_CHARS = 200


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """A short quotation of something an engine sent (its repr, cut), for a failure message."""
    text = _safe_repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _safe_repr(value: Any) -> str:
    """``repr``, even of something too deep or too big to write out (it is cut anyway)."""
    try:
        return repr(value)
    except (RecursionError, ValueError) as error:
        return f"<{type(value).__name__} that cannot be shown: {type(error).__name__}>"


def _protocol_error(field: str, wanted: str, got: Any) -> EngineFailure:
    return EngineFailure("protocol", f"the handshake's '{field}' must be {wanted}, got {excerpt(got, 80)}")


def engine_info(reply: Mapping[str, Any], protocols: tuple[int, ...] = PROTOCOLS) -> EngineInfo:
    """What a ``hello`` reply says, its fields' types checked: a wrong type is a protocol failure, not a crash.

    ``protocols`` are the versions the reply may speak; protocol 2's own capabilities are read only in a
    reply of version 2 or later (protocol 1 ignores keys it does not know)."""
    protocol = reply.get("protocol")
    if type(protocol) is not int or protocol not in protocols:
        raise EngineFailure("protocol", _version_problem(reply, protocols))
    name, version = reply.get("name", NO_NAME), reply.get("version", NO_VERSION)
    if not isinstance(name, str):
        raise _protocol_error("name", "a text", name)
    if not isinstance(version, str | int | float) or isinstance(version, bool):
        raise _protocol_error("version", "a text", version)
    variants = reply.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise _protocol_error("variants", "a list of variant ids", variants)
    capabilities = reply.get("capabilities", {})
    if not isinstance(capabilities, dict):
        raise _protocol_error("capabilities", "an object", capabilities)
    _check_common_capabilities(capabilities, totals_allowed=protocol >= 2)
    if protocol >= 2:
        _check_capability_names(capabilities)
    info = EngineInfo(
        name=name[:80],
        version=str(version)[:40],
        protocol=protocol,
        variants=list(variants),
        capabilities=dict(capabilities),
    )
    info = _with_protocol_2_capabilities(info) if protocol >= 2 else info
    if protocol >= 4 and not isinstance(capabilities.get("sample", False), bool):
        raise _protocol_error("capabilities.sample", "true or false", capabilities["sample"])
    info.absent_features |= features_newer_than(protocol)
    return info


def _version_problem(reply: Mapping[str, Any], protocols: tuple[int, ...]) -> str:
    """What is wrong with the version a hello reply names, in plain words: none given, not a whole number, or
    one the runner does not speak."""
    wanted = " or ".join(map(str, protocols))
    protocol = reply.get("protocol")
    if protocol is None:
        return f"its hello answer has no protocol version (a field 'protocol' giving {wanted} was expected)"
    if type(protocol) is not int:
        return f"its hello answer gives the protocol version as {excerpt(protocol, 80)}, not a number ({wanted})"
    return f"the engine speaks protocol {protocol}, not {wanted}"


def _check_common_capabilities(capabilities: Mapping[str, Any], *, totals_allowed: bool) -> None:
    """Protocol 1's capabilities are true or false, ``legal`` a word; protocol 2 also lets ``score`` be
    ``"totals"``."""
    for key in BOOLEAN_CAPABILITIES:
        value = capabilities.get(key, False)
        if key == "score" and totals_allowed and value == "totals":
            continue
        if not isinstance(value, bool):
            wanted = 'true, false or "totals"' if key == "score" and totals_allowed else "true or false"
            raise _protocol_error(f"capabilities.{key}", wanted, value)
    if "legal" in capabilities and capabilities["legal"] not in LEGAL_CAPABILITIES:
        raise _protocol_error("capabilities.legal", '"list", "count" or "none"', capabilities["legal"])


def _check_capability_names(capabilities: Mapping[str, Any]) -> None:
    """From version 2, a capability the protocol does not define fails the start, naming it: a misspelt one
    (``rule_id``) would otherwise be taken silently as false. An engine's own are named ``x-...``."""
    for key in sorted(map(str, capabilities)):
        if key not in CAPABILITY_NAMES and not key.startswith(EXTENSION_PREFIX):
            raise EngineFailure(
                "protocol",
                f"the handshake's 'capabilities' name {excerpt(key, 80)}, which the protocol does not define "
                f"(expected one of {', '.join(CAPABILITY_NAMES)}, or a name of the engine's own, x-...)",
            )


def _with_protocol_2_capabilities(info: EngineInfo) -> EngineInfo:
    """``info`` with what protocol 2's capabilities add: features absent, parameters fixed, totals-only
    scores, position fields not held."""
    capabilities = info.capabilities
    info.score_parts = capabilities.get("score") != "totals"
    info.absent_features = _names(capabilities, "absent_features", FEATURE_ACTIONS, "optional features")
    info.unheld_position_fields = _names(capabilities, "unheld_position_fields", POSITION_FIELDS, "position fields")
    info.fixed_parameters = _fixed_parameters(capabilities.get("fixed_parameters", {}), info.variants)
    return info


def _names(capabilities: Mapping[str, Any], key: str, known: Iterable[str], what: str) -> frozenset[str]:
    """A capability that lists names, each one of ``known``."""
    value = capabilities.get(key, [])
    choices = sorted(known)
    wanted = f"a list of the protocol's {what} ({', '.join(choices)})"
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _protocol_error(f"capabilities.{key}", wanted, value)
    unknown = [item for item in value if item not in choices]
    if unknown:
        raise _protocol_error(f"capabilities.{key}", wanted, unknown[0])
    return frozenset(value)


def _fixed_parameters(value: Any, variants: list[str]) -> dict[str, dict[str, Any]]:
    """``fixed_parameters``: per variant the engine lists, parameters of that variant at values valid for it.
    A variant listed but not bundled cannot be checked: its entry is kept as it is (it is never run)."""
    key = "capabilities.fixed_parameters"
    if not isinstance(value, dict):
        raise _protocol_error(key, "an object of variant ids, each an object of parameter names and values", value)
    bundled = list_variants()
    fixed: dict[str, dict[str, Any]] = {}
    for variant, parameters in value.items():
        field_name = f"{key}.{variant}"
        if variant not in variants:
            raise _protocol_error(key, f"keyed by variants the engine lists ({', '.join(variants) or 'none'})", variant)
        if not isinstance(parameters, dict):
            raise _protocol_error(field_name, "an object of parameter names and values", parameters)
        if variant in bundled:
            _check_fixed(variant, parameters, field_name)
        fixed[variant] = dict(parameters)
    return fixed


def _check_fixed(variant: str, parameters: Mapping[str, Any], field_name: str) -> None:
    """Each fixed parameter is one of the variant's, at a value the variant allows."""
    known = load_variant(variant).parameters
    for name, value in parameters.items():
        if name not in known:
            raise _protocol_error(field_name, f"parameters of {variant}", name)
        error = parameter_value_error(variant, name, value)
        if error is not None:
            raise _protocol_error(f"{field_name}.{name}", f"a value {variant} allows ({error[:120]})", value)


#: The fields an answer may have beside ``id``, ``ok`` and ``error``, by request (conformance/PROTOCOL.md, in every
#: version it serves); the answer to ``quit`` is not read.
ANSWER_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"name", "version", "protocol", "variants", "capabilities"}),
    "setup": frozenset({"skip"}),
    "apply": frozenset({"accepted", "rule", "message"}),
    "legal": frozenset({"actions", "count", "truncated"}),
    "count": frozenset({"count"}),
    "sample": frozenset({"count", "actions"}),
    "view": frozenset({"view"}),
    "score": frozenset({"over", "end", "totals", "parts", "seat_parts", "match_over"}),
    "undo": frozenset(),
}
COMMON_ANSWER_FIELDS = frozenset({"id", "ok", "error"})
#: An answer's own fields (an engine's diagnostics) are named so; they may hold anything but a card.
EXTENSION_PREFIX = "x-"
_CARD_NAMES = frozenset(card_name(card) for card in range(CARD_TYPES))
_WORD = re.compile(r"[A-Za-z0-9]+")


def answer_field_problem(command: str, reply: Mapping[str, Any]) -> str | None:
    """What an answer has beyond the protocol's fields for its request, or None. A field the protocol does not
    define could carry hidden cards no test reads, so it is refused; an extension (``x-...``) is allowed, but
    holding a card it is refused too, since no test could tell a hidden card there from a shown one."""
    defined = ANSWER_FIELDS.get(command)
    if defined is None:
        return None
    for key in sorted(map(str, reply)):
        if key in COMMON_ANSWER_FIELDS or key in defined:
            continue
        if not key.startswith(EXTENSION_PREFIX):
            return (
                f"the answer to {command!r} has a field the protocol does not define: {excerpt(key, 80)} (an "
                f"engine's own fields are named {EXTENSION_PREFIX}...)"
            )
        card = _first_card(reply[key])
        if card is not None:
            return f"the answer to {command!r} has a card, {card}, in its extension field {excerpt(key, 80)}"
    return None


def _first_card(value: Any) -> str | None:
    """The first card named anywhere in a JSON value (a word of a text, or of an object's key), or None."""
    pending: list[Any] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            cards = [word for word in _WORD.findall(item) if word in _CARD_NAMES]
            if cards:
                return str(cards[0])
    return None


def error_text(reply: Mapping[str, Any]) -> str:
    """What an answer with ``ok: false`` says: its ``error`` sentence, cut short; else, in plain words, that it
    gave none where the protocol asks for a sentence (never the answer's Python form)."""
    error = reply.get("error")
    if isinstance(error, str) and error.strip():
        return error if len(error) <= EXCERPT_CHARS else f"{error[:EXCERPT_CHARS]}..."
    if error is None:
        return "ok: false with no 'error' (a sentence saying why was expected)"
    shown = json.dumps(error, ensure_ascii=False)
    return f"ok: false with an 'error' that is not a sentence: {shown[:80]}{'...' if len(shown) > 80 else ''}"


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
        """Offer every version, and read the reply in the one it speaks; an engine that refuses the offer or
        answers a version it cannot read is greeted once more in protocol 1 (which a strict one may insist on)."""
        reply = self.request({"cmd": "hello", "protocol": PROTOCOL_VERSION, "protocols": list(PROTOCOLS)})
        protocol = reply.get("protocol")
        if reply.get("ok") is True and type(protocol) is int and protocol in PROTOCOLS:
            self.info = engine_info(reply)
            return self.info
        reply = self.request({"cmd": "hello", "protocol": 1})
        if not reply.get("ok"):
            raise EngineFailure("protocol", f"the handshake was refused: {error_text(reply)}")
        self.info = engine_info(reply, protocols=(1,))
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

#: The longest line an engine may answer with (a legal-action list of the reference stays far below).
MAX_LINE_BYTES = 8 * 1024 * 1024
#: How much of an engine's stderr is kept: the last lines, each cut to so many bytes.
STDERR_LINES = 40
STDERR_LINE_BYTES = 500
#: How long an engine has to exit after ``quit``, or after closing its output, before it is killed.
GRACE_SECONDS = 1.0


class _StderrTail:
    """The last lines of an engine's stderr, each cut short: an engine writing gigabytes keeps a few KiB here."""

    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=STDERR_LINES)
        self.partial = ""

    def drain(self, stream: Any) -> None:
        """Read the stream to its end (so the engine never blocks on it), keeping only a bounded tail."""
        kept, cut, fresh = b"", 0, True
        for chunk in iter(lambda: stream.readline(STDERR_LINE_BYTES), b""):
            if fresh:
                kept, cut = chunk, 0
            else:
                cut += len(chunk) - chunk.endswith(b"\n")
            fresh = chunk.endswith(b"\n")
            if fresh:
                self.lines.append(_stderr_line(kept, cut))
                self.partial = ""
            else:
                self.partial = _stderr_line(kept, cut)
        with contextlib.suppress(OSError):
            stream.close()

    def text(self) -> str:
        return "\n".join([*self.lines, *([self.partial] if self.partial else [])])


def _stderr_line(kept: bytes, cut: int) -> str:
    text = kept.decode("utf-8", "replace").rstrip("\r\n")
    return text + (f" [... {cut} bytes cut]" if cut else "")


#: Seconds an engine is given to start and answer its first 'hello', unless its answers may take longer: an
#: interpreter or a virtual machine can take seconds to start on a busy machine, long after it answers moves at once.
START_TIMEOUT = 10.0


class SubprocessEngine(Engine):
    """A long-running process speaking JSON lines on stdin and stdout, in a process group of its own."""

    def __init__(self, command: str, *, timeout: float = 10.0, start_timeout: float = START_TIMEOUT) -> None:
        self.command = command
        self.timeout = timeout
        self.start_timeout = start_timeout
        self._starting = False
        self._stderr = _StderrTail()
        self._drainer: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._next_id = 0
        self._sent: list[tuple[int, str]] = []
        self._cookie = ""
        self.start()

    def start(self) -> None:
        """Start the engine in a session of its own, its environment marked with a cookie of this start (so all it
        starts can be found and killed together), and greet it; a failed greeting stops it again before the
        failure is raised."""
        self._sent = []
        self._cookie = secrets.token_hex(8)
        self._process = subprocess.Popen(
            shlex.split(self.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1", ENGINE_COOKIE_VARIABLE: self._cookie},
            start_new_session=True,
        )
        self._buffer = bytearray()
        self._stderr = _StderrTail()
        self._drainer = threading.Thread(target=self._stderr.drain, args=(self._process.stderr,), daemon=True)
        self._drainer.start()
        self._starting = True
        try:
            self.handshake()
        except BaseException:
            self._stop()
            raise
        finally:
            self._starting = False

    def stderr_tail(self) -> str:
        return self._stderr.text()

    def _allowance(self) -> float:
        """Seconds to wait for the next answer: the start's allowance while the engine is starting, if longer."""
        return max(self.timeout, self.start_timeout) if self._starting else self.timeout

    def _crashed(self) -> EngineFailure:
        """The engine has exited: say how, with its last words (the stderr reader is given a moment to finish)."""
        if self._drainer is not None:
            self._drainer.join(timeout=0.5)
        return EngineFailure("crashed", self._exit_text(), self.stderr_tail())

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            raise self._crashed()
        lines = []
        for message in messages:  # nothing to send writes nothing (an empty line is no request)
            self._next_id += 1
            self._sent.append((self._next_id, str(message.get("cmd"))))
            lines.append(json.dumps({"id": self._next_id, **message}))
        assert process.stdin is not None
        if not lines:
            return
        try:
            process.stdin.write(("\n".join(lines) + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed() from None

    def receive(self) -> list[dict[str, Any]]:
        sent, self._sent = self._sent, []
        process = self._process
        replies = []
        for number, command in sent:
            if process is None:
                raise self._crashed()
            line = self._read_line(process, f"no answer to {command!r} within {self._allowance():g} s")
            replies.append(self._decode(line, number, command))
        return replies

    def forget(self) -> None:
        self._sent = []

    def _decode(self, line: str, number: int, command: str) -> dict[str, Any]:
        """One reply to ``command``; anything but a strict JSON object with a boolean 'ok' (too deep, a number too
        long for Python, NaN or a key twice, not JSON at all) is garbage, quoted short, and a field the protocol
        does not define for the answer (``answer_field_problem``) a protocol failure."""
        try:
            reply = strictjson.loads(line)
        except (ValueError, RecursionError) as error:
            why = "nested too deep" if isinstance(error, RecursionError) else "not JSON"
            if isinstance(error, strictjson.NotStrictJSON):
                why = f"not JSON ({error})"
            elif isinstance(error, ValueError) and not isinstance(error, json.JSONDecodeError):
                why = f"not JSON that can be read ({str(error).split(';')[0][:120]})"
            said = f"{why}: {excerpt(line)}, as the answer to {command!r}{STDOUT_HINT}"
            raise EngineFailure("garbage", said, self.stderr_tail()) from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise EngineFailure(
                "garbage",
                f"not a protocol response (an object with 'ok': true or false): {excerpt(line)}",
                self.stderr_tail(),
            )
        if reply.get("id", number) != number:
            raise EngineFailure(
                "protocol",
                f"the answer to {command!r} (request {number}) carries id {excerpt(reply.get('id'), 40)}: each "
                f"answer carries its request's id, in the order of the requests",
                self.stderr_tail(),
            )
        problem = answer_field_problem(command, reply)
        if problem is not None:
            raise EngineFailure("protocol", problem, self.stderr_tail())
        return reply

    def _read_line(self, process: subprocess.Popen[bytes], late: str) -> str:
        """The next line of the engine's output, within the timeout and at most MAX_LINE_BYTES long."""
        end = self._buffer.find(b"\n")
        if end < 0:  # pipelined answers often came in one read: no waiting for those
            end = self._wait_for_line(process, late)
        if end > MAX_LINE_BYTES:
            raise self._too_long()
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line.decode("utf-8", "replace")

    def _wait_for_line(self, process: subprocess.Popen[bytes], late: str) -> int:
        """Read the engine's output until the buffer holds a whole line, within the timeout; where it ends."""
        assert process.stdout is not None
        deadline = time.monotonic() + self._allowance()
        fd = process.stdout.fileno()
        searched = 0
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while (end := self._buffer.find(b"\n", searched)) < 0:
                if len(self._buffer) > MAX_LINE_BYTES:
                    raise self._too_long()
                searched = len(self._buffer)
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise EngineFailure("timed out", late, self.stderr_tail())
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._output_closed(process)
                self._buffer += chunk
        return end

    def _too_long(self) -> EngineFailure:
        """A line past the limit: quote its start and drop the rest (the engine is restarted after this)."""
        start = bytes(self._buffer[:EXCERPT_CHARS]).decode("utf-8", "replace")
        self._buffer = bytearray()
        return EngineFailure(
            "garbage",
            f"a line longer than {MAX_LINE_BYTES} bytes (the most a reply may have), starting {start!r}",
            self.stderr_tail(),
        )

    def _output_closed(self, process: subprocess.Popen[bytes]) -> EngineFailure:
        """End of the engine's output: it exited (crashed), or it closed its output and lives on (then it is
        stopped here, so the runner can go on)."""
        if _exited_within(process, GRACE_SECONDS):
            return self._crashed()
        self._stop()
        return EngineFailure(
            "protocol", "the engine closed its output but is still running (it was stopped)", self.stderr_tail()
        )

    def _exit_text(self) -> str:
        process = self._process
        code = process.poll() if process is not None else None
        return f"the process exited with status {code}" if code is not None else "the process stopped answering"

    def close(self) -> None:
        """Ask the engine to quit, give it a moment, then stop it and every process it started."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(b'{"cmd": "quit"}\n')
                process.stdin.close()
            except OSError:
                pass
            else:
                _exited_within(process, GRACE_SECONDS)
        self._stop()

    def restart(self) -> None:
        self._stop()
        self.start()

    def _stop(self) -> None:
        """Kill the engine and whatever it started (``_kill_tree``), reap the engine, close its pipes."""
        process = self._process
        self._process = None
        if process is None:
            return
        _kill_tree(process, self._cookie)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._drainer is not None:
            self._drainer.join(timeout=0.5)


def _exited_within(process: subprocess.Popen[bytes], seconds: float) -> bool:
    """Whether the engine exits within ``seconds``, without reaping it (its process group stays its own, so
    killing the group afterwards cannot hit a stranger that took the number)."""
    deadline = time.monotonic() + seconds
    while True:
        if process.returncode is not None:
            return True
        try:
            exited = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        except AttributeError:  # pragma: no cover - no waitid: reap it
            return process.poll() is not None
        if exited is not None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


#: How many times the process table is searched for an engine's new processes before they are killed.
_TREE_ROUNDS = 50
#: The environment variable that marks an engine's processes, set to a text unique to each start.
ENGINE_COOKIE_VARIABLE = "CANASTA_REF_ENGINE_RUN"
_PROC = "/proc"


def _kill_tree(process: subprocess.Popen[bytes], cookie: str) -> None:
    """SIGKILL everything the engine started, then the engine itself, and reap it.

    Where /proc can be read (Linux), every process descending from the engine or carrying its run's ``cookie`` in
    its environment is stopped first (a stopped process cannot fork, and its children stay its own), until no new
    one turns up, then all are killed: a child that left the engine's session (``setsid``), or whose parent
    exited, goes too. Elsewhere the engine's process group is killed, as it leads a session of its own."""
    stopped: set[int] = set()
    for _ in range(_TREE_ROUNDS):
        found = _engine_processes(process.pid, cookie) - stopped
        if not found:
            break
        for pid in found:
            _signal(pid, signal.SIGSTOP)
        stopped |= found
    for pid in stopped:
        _signal(pid, signal.SIGKILL)
    killpg = getattr(os, "killpg", None)
    if killpg is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    process.wait()


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def _engine_processes(root: int, cookie: str) -> set[int]:
    """``root`` and the processes descending from it (by their parents) or marked with ``cookie``, read from /proc;
    empty where there is no /proc."""
    marker = f"{ENGINE_COOKIE_VARIABLE}={cookie}".encode()
    children: dict[int, list[int]] = {}
    marked: set[int] = set()
    for pid in _process_ids():
        parent = _parent_of(pid)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
        if marker in _environment_of(pid).split(b"\0"):
            marked.add(pid)
    if not children:
        return set()  # no /proc to read
    found, pending = {root, *marked}, [root, *marked]
    while pending:
        for child in children.get(pending.pop(), ()):
            if child not in found:
                found.add(child)
                pending.append(child)
    found.discard(os.getpid())
    return found


def _process_ids() -> list[int]:
    try:
        return [int(name) for name in os.listdir(_PROC) if name.isdigit()]
    except OSError:
        return []


def _parent_of(pid: int) -> int | None:
    """A process's parent, from /proc/PID/stat (after the command name, which may hold spaces and parentheses)."""
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[-1].split()
        return int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


def _environment_of(pid: int) -> bytes:
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as environ:
            return environ.read(1 << 20)
    except OSError:
        return b""
