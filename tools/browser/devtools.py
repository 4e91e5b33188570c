"""Headless Chromium driven through the DevTools protocol, and a static site served from a thread: what the site's
browser tests (tests/docs) and tools/bench_browser.py share.

Debian's Chromium (/usr/bin/chromium) is started with ``--remote-debugging-pipe``: messages are JSON on fds 3 and
4, each ended by a NUL byte. No WebSocket client and no driver package are needed.
"""

from __future__ import annotations

import base64
import fcntl
import functools
import gzip
import http.server
import json
import os
import select
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
WIDTH, HEIGHT = 1280, 2000


class DevTools:
    """Headless Chromium driven through the DevTools protocol on fds 3 and 4 (``--remote-debugging-pipe``)."""

    def __init__(self, profile: Path, log: Path) -> None:
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def wire() -> None:  # in the child, before exec: the pipe ends become fds 3 and 4, inheritable
            high_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)  # out of the way first: either may be 3 or 4
            high_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        with log.open("wb") as stderr:
            self.process = subprocess.Popen(
                [
                    str(CHROMIUM),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--hide-scrollbars",
                    f"--user-data-dir={profile}",
                    f"--window-size={WIDTH},{HEIGHT}",
                    "--remote-debugging-pipe",
                    "about:blank",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                close_fds=False,
                preexec_fn=wire,
            )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session = ""

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chrome], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def send(self, method: str, timeout: float = 30.0, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def open_tab(self) -> None:
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Network.enable")
        self.set_viewport(WIDTH, HEIGHT)

    def set_viewport(self, width: int, height: int) -> None:
        mobile = width < 600
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=mobile)

    def goto(self, url: str) -> None:
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def evaluate(self, expression: str) -> Any:
        reply = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])
        path.write_bytes(data)
        return data

    def requested_urls(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            self.session = ""
            self.send("Browser.close", timeout=5)
        except (OSError, TimeoutError, EOFError, RuntimeError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        os.close(self._to_chrome)
        os.close(self._from_chrome)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


#: What a web server would compress: text and WebAssembly (the standard library's zip and the wheels are zips).
_COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/wasm", "image/svg")


class _GzipHandler(_QuietHandler):
    """Serves files gzip-compressed to a client that accepts it, as a production web server would, so that the
    bytes the browser receives are the ones a visitor would download; ``sent`` gets each body's path and size
    (the server sees the worker's requests too, which the page's DevTools session does not)."""

    def __init__(self, *args: Any, sent: list[tuple[str, int]], **kwargs: Any) -> None:
        self.sent = sent  # before the base class's __init__, which handles the request
        super().__init__(*args, **kwargs)

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        outputfile.write(data)
        self.sent.append((self.path, len(data)))

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        """The module scripts and WebAssembly of the runtime with the types browsers insist on."""
        name = os.fspath(path)
        if name.endswith(".mjs"):
            return "text/javascript"
        return "application/wasm" if name.endswith(".wasm") else super().guess_type(path)

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        kind = self.guess_type(str(path))
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wants and path.is_file() and kind.startswith(_COMPRESSED_TYPES)):
            return super().send_head()
        modified = self.date_time_string(int(path.stat().st_mtime))
        if self.headers.get("If-Modified-Since") == modified:
            self.send_response(304)  # the browser's cached copy is current: a second visit sends no body
            self.end_headers()
            return None
        body = _gzipped(path, path.stat().st_mtime_ns)
        self.send_response(200)
        self.send_header("Last-Modified", modified)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    """A compressed body, read once by SimpleHTTPRequestHandler's copyfile."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, size: int = -1) -> bytes:
        data, self._data = self._data, b""
        return data

    def close(self) -> None:
        pass


@functools.lru_cache(maxsize=64)
def _gzipped(path: Path, stamp: int) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


@contextmanager
def serve(site: Path, *, sent: list[tuple[str, int]] | None = None) -> Iterator[str]:
    """The folder ``site`` served on a free localhost port from a thread; yields its base address. Given a
    ``sent`` list, files are served gzip-compressed where a server would, and each body sent is logged there."""
    if sent is None:
        handler: Any = functools.partial(_QuietHandler, directory=str(site))
    else:
        handler = functools.partial(_GzipHandler, directory=str(site), sent=sent)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def wait_for(chrome: DevTools, expression: str, timeout: float) -> Any:
    """Evaluate ``expression`` in the page every 50 ms until it is truthy; its value, or TimeoutError."""
    deadline = time.monotonic() + timeout
    while True:
        value = chrome.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout:.0f} s: {expression}")
        time.sleep(0.05)
