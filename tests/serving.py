"""Helpers for ``ginlog serve``'s tests: a match, a client that has joined, a hand's taps, a real server.

Every server here listens on 127.0.0.1 only and is stopped by the test that started it: in a thread of
the test process (:func:`server_thread`, cheap: no interpreter to start) or as the real command in a
child process (:class:`ServeProcess`, for a kill and a restart).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from ginlog.game.rules import preset
from ginlog.match.session import MatchSession

#: The README's walkthrough hand as taps: who deals, the upcard, two passes, Bob draws and knocks with the Q♣,
#: both hands shown (the solver arranges them). Bob scores 61.
HAND_TAPS: list[dict[str, Any]] = [
    {"word": "dealer", "player": 0},
    {"word": "upcard", "cards": ["7H"]},
    {"word": "pass"},
    {"word": "pass"},
    {"word": "stock", "cards": []},
    {"word": "knock", "cards": ["QC"]},
    {"word": "show", "cards": "2H 3H 4H 8C 8D 8S 5S 6S 7S AD".split()},
    {"word": "show", "cards": "5H 6H 8H JC QH KD 9D 9C 4C TD".split()},
]
#: The same hand as the terminal types it.
HAND_ENTRIES = [
    "dealer Ann", "upcard 7h", "pass", "pass", "stock", "knock qc",
    "show 2h 3h 4h 8c 8d 8s 5s 6s 7s ad", "show 5h 6h 8h jc qh kd 9d 9c 4c td",
]
TOKEN = "T" * 43

__all__ = ["HAND_TAPS", "HAND_ENTRIES", "TOKEN", "TestClient", "new_match", "bodies", "client", "tap", "server_thread",
           "ServeProcess"]

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # (Starlette's notice that it would rather have httpx2, which is not installed)
    from starlette.testclient import TestClient


def new_match(path: Path, players: tuple[str, str] = ("Ann", "Bob"), rules: str = "standard") -> Path:
    MatchSession.create(path, players, preset(rules))
    return path


def bodies(path: Path) -> list[dict[str, Any]]:
    """The file's events without what a time changes (``ts``, and ``prev``, the chain that covers it)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [{k: v for k, v in r.items() if k not in ("ts", "prev")} for r in rows]


def client(paths: list[Path], token: str = TOKEN, joined: bool = True, host: str = "127.0.0.1:8025") -> Any:
    """A Starlette TestClient on the app serving ``paths``; ``joined``: it followed the join link (has the cookie)."""
    from ginlog.app.serve.routes import Served, build_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = TestClient(build_app(Served.of([str(p) for p in paths], token=token)), base_url=f"http://{host}")
    c.origin = f"http://{host}"
    if joined:
        r = c.get(f"/?t={token}", follow_redirects=False)
        assert r.status_code == 303, r.text
    return c


def tap(c: Any, body: dict[str, Any], match: int = 0, expect: int | None = None, tap_id: str | None = None,
        token: str = TOKEN) -> Any:
    """POST one tap as the page does (token header, own origin); ``expect`` defaults to the state's seq now."""
    if expect is None:
        expect = c.get(f"/api/m/{match}/state").json()["seq"]
    full = {"id": tap_id or "tap-" + os.urandom(8).hex(), "expect": expect, **body}
    return c.post(f"/api/m/{match}/tap", json=full, headers={"x-ginlog-token": token, "origin": c.origin})


@contextmanager
def server_thread(paths: list[Path], token: str = TOKEN) -> Iterator[str]:
    """uvicorn serving ``paths`` on 127.0.0.1 (a free port) in a thread; its address. Stopped on leaving."""
    import uvicorn

    from ginlog.app.serve.routes import Served, build_app

    served = Served.of([str(p) for p in paths], token=token)
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(build_app(served), log_level="warning", access_log=False, lifespan="off",
                                           ws="none", timeout_graceful_shutdown=1))
    served.stopping = lambda: server.should_exit
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        t.join(10)
        sock.close()


class ServeProcess:
    """The real ``ginlog serve`` in a child process on 127.0.0.1 (a free port unless ``port``); ``url`` is
    the join link it printed. :meth:`kill` ends it as a power cut would (SIGKILL), :meth:`stop` as Ctrl-C."""

    def __init__(self, *args: str, port: int = 0, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ginlog.app.cli", "serve", *args, "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
        )
        assert self.proc.stdout is not None
        self.said: list[str] = []
        for line in self.proc.stdout:
            self.said.append(line)
            m = re.search(r"open (http://127\.0\.0\.1:(\d+)/\?t=(\S+))", line)
            if m:
                self.url, self.port, self.token = m.group(1), int(m.group(2)), m.group(3)
                self.base = f"http://127.0.0.1:{self.port}"
                break
        else:
            raise AssertionError("ginlog serve did not start: " + "".join(self.said) + self.proc.stderr.read())  # type: ignore[union-attr]

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> tuple[int, str, str]:
        self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, out, err


class _Child(Protocol):
    """A child process as ``subprocess.Popen`` and ``tests.forked.Forked`` both are."""

    def send_signal(self, sig: int) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...


def interrupted(child: _Child, out: int, err: int) -> tuple[int, bytes, bytes]:
    """Ctrl-C to a ``ginlog serve`` child (as at the table); its exit status and what it wrote after, read to the
    end from the two pipes' read ends ``out`` and ``err``, which are closed."""
    child.send_signal(signal.SIGINT)
    code = child.wait(30)
    said: list[bytes] = [b"", b""]
    for i, fd in enumerate((out, err)):
        while data := os.read(fd, 1 << 16):
            said[i] += data
        os.close(fd)
    return code, said[0], said[1]

