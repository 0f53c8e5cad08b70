"""``ginlog serve``'s HTTP input as a hostile client on the same Wi-Fi sends it (the files' campaign is
``tests/test_hostile.py``; this is the server's).

Every route of ``ginlog/app/serve/routes.py`` (the join link the QR code holds, the page, its assets, the
matches, the state, the event stream, the replay page, the tap, the preview, the rematch) gets: no token, a
wrong one, one in the wrong place or given twice; bodies too big or never ending, not JSON, JSON of the wrong
shape, type, depth or size, keys given twice; record text with escape codes, C1 controls, bidi overrides and
markup; stale, future and negative seqs; path traversal and odd methods; a ``Host`` or ``Origin`` that is not
this server's (DNS rebinding); many taps at once. What must hold: never a 5xx nor a traceback (an exception
out of the app is this test's failure), memory bounded, the match file's bytes unchanged by a refused
request, every text a tap records shown escaped in the JSON and the page, every request without the right
token refused.

Most requests go to the ASGI app in this process through :class:`Wire`, a raw ASGI call whose headers (a
header twice too), body chunks (one that never ends, a client gone half-way) and disconnect are the test's
own: Starlette's TestClient and httpx add their own ``Host``, ``Content-Length`` and cookies and read a
stream to its end. Real sockets twice: uvicorn in a thread with the command's own settings
(:func:`ginlog.app.serve.server.server_config`, a short head wait) for the slow clients, and one real ``ginlog
serve`` child on 127.0.0.1 for bytes that are not HTTP, stopped at the end. About 2 CPU-s in all.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
import unicodedata
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import attrs
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("segno")

from ginlog.app.serve.server import server_config
from ginlog.app.serve.hub import Hub
from ginlog.app.serve.routes import COOKIE, HEADER, MAX_BODY, MAX_MATCHES, Served, build_app
from ginlog.text import visible

from forked import can_fork, spawn_forked
from serving import TOKEN, interrupted, new_match

HOST = "127.0.0.1:8025"
ORIGIN = f"http://{HOST}"
Headers = list[tuple[str, str]]
READ: Headers = [("host", HOST), (HEADER, TOKEN)]
WRITE: Headers = [*READ, ("origin", ORIGIN), ("content-type", "application/json")]
#: Every route, as a request that the right token makes succeed (or fail only for what the body says).
READS = ["/", "/assets/serve.js", "/assets/serve.css", "/api/matches", "/api/m/0/state", "/api/m/0/events",
         "/api/m/0/replay"]
WRITES = ["/api/m/0/tap", "/api/m/0/preview", "/api/m/0/rematch"]
GINLOG = Path(sys.executable).parent / "ginlog"


@attrs.frozen
class Reply:
    """One answer: its status, headers (each name's values), body, and how often the app asked for more body."""

    status: int
    headers: dict[str, list[str]]
    body: bytes
    reads: int

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        return self.headers.get(name, [None])[-1]


def ticking() -> Callable[[], float]:
    """A clock a second further on at each look: the entries-a-second bound never bites (it is tested apart)."""
    ticks = iter(range(10**9))
    return lambda: float(next(ticks))


class Wire:
    """The app serving one match (``m.jsonl`` in ``folder``), called over raw ASGI; what it holds at start, to
    compare with after the refused requests."""

    def __init__(self, folder: Path, players: tuple[str, str] = ("Ann", "Bob"), *,
                 clock: Callable[[], float] | None = None, body_wait: float = 10.0) -> None:
        self.folder = folder
        self.path = new_match(folder / "m.jsonl", players)
        self.served = Served([Hub(0, str(self.path), clock=clock or ticking())], token=TOKEN)
        self.app = build_app(self.served, body_wait=body_wait)
        self.mark()

    def mark(self) -> None:
        """Take the file's bytes and the folder's names as they are now: :meth:`unchanged` compares with them."""
        self.bytes, self.names = self.path.read_bytes(), sorted(os.listdir(self.folder))

    def unchanged(self, *, taps_kept: bool = False) -> None:
        assert self.path.read_bytes() == self.bytes, "a refused request changed the match file"
        now = sorted(os.listdir(self.folder))
        if taps_kept:  # (a refused tap's answer is kept by its id: a file beside the match, never the match)
            now = [n for n in now if n != ".m.jsonl.serve-taps"]
        assert now == [n for n in self.names if n != ".m.jsonl.serve-taps" or not taps_kept], now

    async def call(self, method: str, target: str, headers: Headers = READ, body: bytes = b"", *,
                   chunks: Sequence[bytes] | None = None, endless: bool = False, gone: bool = False,
                   first: bool = False, wait: float = 5.0) -> Reply:
        """``METHOD TARGET`` with exactly these headers; the body in one piece, or as ``chunks`` (then, with
        ``endless``, nothing more for ever; with ``gone``, the client goes away); ``first``: return at the first
        piece of a streamed body (and disconnect). A hang past ``wait`` seconds, or a 5xx, fails the test."""
        path, _, query = target.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": unquote(path), "raw_path": path.encode("utf-8"),
                 "query_string": query.encode("latin-1"), "root_path": "", "client": ("192.168.1.66", 50123),
                 "server": ("127.0.0.1", 8025), "state": {},
                 "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]}
        pieces = list(chunks) if chunks is not None else [body]
        sent: list[MutableMapping[str, Any]] = []
        done = asyncio.Event()
        reads = 0

        async def receive() -> dict[str, Any]:
            nonlocal reads
            reads += 1
            if pieces:
                piece = pieces.pop(0)
                return {"type": "http.request", "body": piece, "more_body": bool(pieces) or endless or gone}
            if not gone:
                await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message)
            if message["type"] == "http.response.body" and (not message.get("more_body") or (first and message["body"])):
                done.set()

        task = asyncio.ensure_future(self.app(scope, receive, send))
        try:
            await asyncio.wait_for(done.wait(), wait)
        except asyncio.TimeoutError:
            task.cancel()
            raise AssertionError(f"{method} {target[:80]}: no answer in {wait:g} s") from None
        await asyncio.wait_for(task, wait)  # (an exception out of the app is raised here: the test fails)
        start = next(m for m in sent if m["type"] == "http.response.start")
        heads: dict[str, list[str]] = {}
        for k, v in start["headers"]:
            heads.setdefault(k.decode("latin-1").lower(), []).append(v.decode("latin-1"))
        reply = Reply(start["status"], heads, b"".join(m.get("body", b"") for m in sent[1:]), reads)
        assert reply.status < 500 or reply.status == 503, (method, target[:80], reply.status, reply.body[:200])
        assert reply.header("x-content-type-options") == "nosniff", (method, target[:80])
        return reply

    async def tap(self, body: dict[str, Any], *, headers: Headers = WRITE, route: str = "tap") -> Reply:
        return await self.call("POST", f"/api/m/0/{route}", headers, json.dumps(body).encode())


def refused(r: Reply, status: int, what: object = "") -> None:
    """``r`` is the refusal ``status``: one line of JSON saying why, and no cookie set."""
    assert r.status == status, (what, r.status, r.body[:300])
    said = r.json()
    assert said["ok"] is False, what
    why = said.get("error") or said.get("refused")
    assert isinstance(why, str) and why and "\n" not in why, (what, said)
    assert r.header("set-cookie") is None, what


def run(scenario: Callable[[], Any]) -> Any:
    return asyncio.run(scenario())


def test_the_campaign_knows_every_route(tmp_path: Path) -> None:
    """A route added to the app without its hostile requests here fails."""
    wire = Wire(tmp_path)
    paths = {re.sub(r"\{(\w+):\w+\}", r"{\1}", getattr(r, "path", "")) for r in wire.app.routes}
    assert paths == {"/", "/assets/{name}", "/api/matches", *(re.sub(r"/0/", "/{n}/", p) for p in READS[4:] + WRITES)}


# ---------------------------------------------------------------------------------------------------------- the token


def _wrong_credentials() -> list[tuple[str, Headers, str]]:
    """(what, headers beside Host, query) a stranger or a confused client sends in place of the token."""
    wrong = "x" * 43
    return [
        ("nothing", [], ""),
        ("a wrong cookie", [("cookie", f"{COOKIE}={wrong}")], ""),
        ("a wrong header", [(HEADER, wrong)], ""),
        ("the token short by one", [(HEADER, TOKEN[:-1])], ""),
        ("the token and one more", [(HEADER, TOKEN + "x")], ""),
        ("the token in lower case", [(HEADER, TOKEN.lower())], ""),
        ("the token padded", [(HEADER, f" {TOKEN} ")], ""),
        ("the token twice over", [(HEADER, TOKEN * 2)], ""),
        ("a long header", [(HEADER, "T" * 4000)], ""),
        ("latin-1 in the header", [(HEADER, "\xe9" * 43)], ""),
        ("the token in the query", [], f"t={TOKEN}"),
        ("the token as ?token=", [], f"token={TOKEN}"),
        ("the token as a bearer", [("authorization", f"Bearer {TOKEN}")], ""),
        ("the token in another cookie", [("cookie", f"ginlog={TOKEN}")], ""),
        ("the token quoted in the cookie", [("cookie", f'{COOKIE}="{TOKEN}"')], ""),
        ("the cookie twice, the right one last", [("cookie", f"{COOKIE}={wrong}; {COOKIE}={TOKEN}")], ""),
        ("the cookie twice, the right one first", [("cookie", f"{COOKIE}={TOKEN}; {COOKIE}={wrong}")], ""),
        ("two cookie headers", [("cookie", f"{COOKIE}={TOKEN}"), ("cookie", f"{COOKIE}={wrong}")], ""),
        ("the header twice", [(HEADER, TOKEN), (HEADER, wrong)], ""),
        ("the header twice, both right", [(HEADER, TOKEN), (HEADER, TOKEN)], ""),
        ("a right header beside a wrong cookie", [(HEADER, TOKEN), ("cookie", f"{COOKIE}={wrong}")], ""),
        ("a right cookie beside a wrong header", [("cookie", f"{COOKIE}={TOKEN}"), (HEADER, wrong)], ""),
    ]


def test_every_route_refuses_every_request_without_the_right_token(tmp_path: Path) -> None:
    wire = Wire(tmp_path)
    tap = json.dumps({"id": "tap-stranger1", "expect": 1, "word": "dealer", "player": 0, "token": TOKEN}).encode()

    async def scenario() -> None:
        for what, given, query in _wrong_credentials():
            for route in READS:
                if route == "/" and query.startswith("t="):
                    continue  # (that is the join link, below)
                target = route + (f"?{query}" if query else "")
                refused(await wire.call("GET", target, [("host", HOST), *given]), 403, (what, route))
            for route in WRITES:
                target = route + (f"?{query}" if query else "")
                head = [("host", HOST), ("origin", ORIGIN), ("content-type", "application/json"), *given]
                r = await wire.call("POST", target, head, tap)
                refused(r, 403, (what, route))
                assert r.reads == 0, "a refused write's body was read"
        # the join link (what the QR code holds)
        for query in ("t=" + "x" * 43, "t=", f"t={TOKEN}&t={TOKEN}", f"t={'x' * 43}&t={TOKEN}", f"t={TOKEN}&t=x",
                      f"T={TOKEN}", f"t={TOKEN}%00", f"t={TOKEN[:20]}"):
            refused(await wire.call("GET", f"/?{query}", [("host", HOST)]), 403, query)
        posted = await wire.call("POST", f"/?t={TOKEN}", [("host", HOST), ("origin", ORIGIN)])
        assert posted.status in (403, 405) and posted.header("set-cookie") is None  # the join link is a GET
        # the right token, to show the refusals above are the token's: the link sets the cookie, which reads
        joined = await wire.call("GET", f"/?t={TOKEN}", [("host", HOST)])
        assert joined.status == 303 and (joined.header("set-cookie") or "").startswith(f"{COOKIE}={TOKEN};")
        for route in READS:
            r = await wire.call("GET", route, [("host", HOST), ("cookie", f"{COOKIE}={TOKEN}")], first=True)
            assert r.status == 200, route
        assert (await wire.tap({"id": "tap-rightful", "expect": 1, "word": "note", "text": "x"}, route="preview")).status == 200

    run(scenario)
    wire.unchanged()


# ---------------------------------------------------------------------------------------------- Host and Origin


BAD_HOSTS = ["evil.example:8025", "127.0.0.1.nip.io:8025", "localhost.evil.example:8025", "0x7f000001:8025",
             "2130706433:8025", "", "[::1", "[evil]:8025", "127.0.0.1:8025:80", "127.0.0.1:99x", "127.0.0.1 :8025",
             "a" * 300]


def test_a_host_that_is_not_an_address_is_refused_with_the_right_token(tmp_path: Path) -> None:
    """DNS rebinding: a page elsewhere points its own name at this machine, and is then its "own origin"."""
    wire = Wire(tmp_path)
    body = json.dumps({"id": "tap-rebound1", "expect": 1, "word": "dealer", "player": 0}).encode()
    token = [(HEADER, TOKEN), ("cookie", f"{COOKIE}={TOKEN}")]

    async def scenario() -> None:
        for host in BAD_HOSTS:
            for route in READS:
                refused(await wire.call("GET", route, [("host", host), *token]), 403, (host, route))
            for route in WRITES:  # the page that was rebound sends its own origin, which matches its Host
                head = [("host", host), ("origin", f"http://{host}"), ("content-type", "application/json"), *token]
                refused(await wire.call("POST", route, head, body), 403, (host, route))
            refused(await wire.call("GET", f"/?t={TOKEN}", [("host", host)]), 403, host)
        for head in ([*token], [("host", HOST), ("host", "evil.example:8025"), *token]):  # no Host; two
            refused(await wire.call("GET", "/api/m/0/state", head), 403, head)
        for origin in ("null", f"{ORIGIN}/", ORIGIN.upper(), "http://127.0.0.1:8026", f"https://{HOST}",
                       "http://[", "http://evil.example:8025", f"{ORIGIN}\x00"):
            head = [("host", HOST), ("origin", origin), ("content-type", "application/json"), *token]
            refused(await wire.call("POST", "/api/m/0/tap", head, body), 403, origin)
        two = [("host", HOST), ("origin", ORIGIN), ("origin", "http://evil.example"), ("content-type", "application/json"), *token]
        refused(await wire.call("POST", "/api/m/0/tap", two, body), 403, "two origins")
        wire.unchanged()
        # what the phones send is answered: an address (v4, v6), localhost, a name given with --host
        for host in ("192.168.1.20:8025", "[::1]:8025", "[fe80::1]:8025", "localhost:8025", "127.0.0.1"):
            assert (await wire.call("GET", "/api/m/0/state", [("host", host), *token])).status == 200, host
        wire.served.names = frozenset({"mybox.local"})
        assert (await wire.call("GET", "/api/m/0/state", [("host", "MyBox.local:8025"), *token])).status == 200
        head = [("host", "[::1]:8025"), ("origin", "http://[::1]:8025"), ("content-type", "application/json"), *token]
        assert (await wire.call("POST", "/api/m/0/tap", head, body)).status == 200

    run(scenario)


# ---------------------------------------------------------------------------------------------------------- bodies


def test_bodies_too_big_never_ending_or_cut_off_are_refused_and_bounded(tmp_path: Path) -> None:
    wire = Wire(tmp_path, body_wait=0.2)
    tap = {"id": "tap-body-001", "expect": 1, "word": "note", "text": "x"}

    async def scenario() -> None:
        r = await wire.call("POST", "/api/m/0/tap", [*WRITE, ("content-length", str(MAX_BODY + 1))], b"{}")
        refused(r, 413)
        assert r.reads == 0 and r.header("connection") == "close"
        for length in ("\xb2", "-1", "1e3", "0x10", "9" * 5000, "12, 12", " 12", ""):
            refused(await wire.call("POST", "/api/m/0/tap", [*WRITE, ("content-length", length)], b"{}"), 400, length)
        two = [*WRITE, ("content-length", "2"), ("content-length", "2")]
        refused(await wire.call("POST", "/api/m/0/tap", two, b"{}"), 400, "two lengths")
        # a megabyte with no length given: refused once over the limit, the rest never read
        r = await wire.call("POST", "/api/m/0/tap", WRITE, chunks=[b"{" + b" " * 4095] * 256)
        refused(r, 413)
        assert r.reads <= MAX_BODY // 4096 + 1 and r.header("connection") == "close"
        # a body that never ends, and one whose client goes away: an answer in a bounded wait, nothing written
        started = time.monotonic()
        r = await wire.call("POST", "/api/m/0/tap", WRITE, chunks=[b'{"id": "tap-slow-01", '], endless=True, wait=3)
        refused(r, 408)
        assert time.monotonic() - started < 2 and r.header("connection") == "close"
        r = await wire.call("POST", "/api/m/0/tap", WRITE, chunks=[b'{"id": "tap-gone-01", '], gone=True)
        assert r.status == 400
        for kind in ("text/plain", "application/jsonx", "application/json-patch+json", "multipart/form-data", ""):
            head = [h for h in WRITE if h[0] != "content-type"] + ([("content-type", kind)] if kind else [])
            refused(await wire.call("POST", "/api/m/0/tap", head, json.dumps(tap).encode()), 415, kind)
        wire.unchanged()
        # the limit itself is a body's size: one of exactly MAX_BODY bytes is a tap
        exact = json.dumps(tap).encode()
        exact = exact[:-1] + b" " * (MAX_BODY - len(exact)) + b"}"
        assert len(exact) == MAX_BODY
        head = [h for h in WRITE if h[0] != "content-type"] + [("content-type", "Application/JSON; charset=utf-8")]
        assert (await wire.call("POST", "/api/m/0/tap", head, exact)).status == 200

    run(scenario)


def _shapes() -> list[tuple[bytes, int]]:
    """Bodies that are not a tap, each with its answer: 400 (not a JSON object of a tap: no id, no expect) or
    422 (a tap that types no entry: the rule ``tap``, or the entry refused as the terminal refuses it)."""
    def tap(**fields: Any) -> bytes:
        return json.dumps({"id": "tap-shape-01", "expect": 1, **fields}).encode()

    deep = b"[" * 4000 + b"]" * 4000  # (the parser's depth is about a thousand)
    cases: list[tuple[bytes, int]] = [
        (b"", 400), (b"{", 400), (b"{not json", 400), (b"\xff\xfe\x00", 400), (b'{"id": "x"} trailing', 400),
        (b"NaN", 400), (b"[]", 400), (b'"tap"', 400), (b"1", 400), (b"null", 400), (b"true", 400),
        (deep, 400), (b'{"id": "tap-shape-01", "expect": 1, "word": "note", "text": ' + deep[:3000] + deep[-3000:] + b"}", 400),
        (b'{"a":' * 1300 + b"1" + b"}" * 1300, 400),
        (b'{"id": "tap-shape-01", "expect": 1, "word": "note", "text": "x", "word": "abandon"}', 400),
        (b'{"id": "tap-shape-01", "id": "tap-shape-02", "expect": 1, "word": "note", "text": "x"}', 400),
        (b'{"id": "tap-shape-01", "expect": 1, "expect": 2, "word": "note", "text": "x"}', 400),
        (b'{"id": "tap-shape-01", "expect": NaN, "word": "note", "text": "x"}', 400),
        (b'{"id": "tap-shape-01", "expect": Infinity, "word": "note", "text": "x"}', 400),
        (b'{"id": "tap-shape-01", "expect": 1' + b"0" * 5000 + b', "word": "note", "text": "x"}', 400),
        (b'{"id": "tap-shape-01", "expect": 1e400, "word": "note", "text": "x"}', 400),
    ]
    for bad_id in (None, 1, ["tap-shape-01"], "short", "t" * 65, "../../etc", "tap shape 01", "tap-\u00e9\u00e9\u00e9\u00e9\u00e9", "tap-shape-01\n"):
        cases.append((json.dumps({"id": bad_id, "expect": 1, "word": "note", "text": "x"}).encode(), 400))
    for bad_expect in (None, "1", 1.0, True, [1], {"seq": 1}):
        cases.append((json.dumps({"id": "tap-shape-01", "expect": bad_expect, "word": "note", "text": "x"}).encode(), 400))
    for fields in (
        {"word": None}, {"word": 1}, {"word": ["note"]}, {"word": "NOTE"}, {"word": "note "}, {"word": ""},
        {"word": "rm -rf"}, {"word": "rematch"}, {"word": "dealer", "player": -1}, {"word": "dealer", "player": 2},
        {"word": "dealer", "player": 0.0}, {"word": "dealer", "player": True}, {"word": "dealer", "player": "0"},
        {"word": "dealer", "player": 10**30}, {"word": "dealer"}, {"word": "cut", "cards": "5h kd"},
        {"word": "cut", "cards": {"a": "5h"}}, {"word": "cut", "cards": [5, 13]}, {"word": "cut", "cards": ["5h"] * 12},
        {"word": "cut", "cards": ["5hhhh", "kd"]}, {"word": "cut", "cards": ["7\x1bH", "kd"]}, {"word": "cut", "cards": ["", "kd"]},
        {"word": "cut", "cards": ["\u202e7h", "kd"]}, {"word": "cut", "cards": ["<7h>", "kd"]},
        {"word": "pad", "player": 0, "number": -5}, {"word": "pad", "player": 0, "number": 2.5},
        {"word": "pad", "player": 0, "number": 10**30}, {"word": "pad", "player": 0, "number": True},
        {"word": "result", "how": ["knock"], "player": 0, "numbers": [1, 2]}, {"word": "result", "how": "fold"},
        {"word": "result", "how": "knock", "player": 0, "numbers": {"a": 1}}, {"word": "result", "how": "gin", "player": 0, "numbers": [1e308]},
        {"word": "result", "how": "knock", "player": 0, "numbers": [-1, 2]}, {"word": "result", "how": "knock", "player": 0, "numbers": [1]},
        {"word": "note"}, {"word": "note", "text": 7}, {"word": "note", "text": ["x"]}, {"word": "note", "text": {"x": 1}},
        {"word": "note", "text": "x" * 2001}, {"word": "note", "text": " \t\n\x85\u2028 "}, {"word": "note", "text": "\ud800"},
        {"word": "void", "text": 7}, {"word": "undo", "reopen": "yes"}, {"word": "pass"}, {"word": "discard", "cards": ["7h"]},
    ):
        cases.append((tap(**fields), 422))
    return cases


def test_json_of_every_wrong_shape_type_depth_or_size_is_refused(tmp_path: Path) -> None:
    wire = Wire(tmp_path)

    async def scenario() -> None:
        for n, (body, status) in enumerate(_shapes()):
            body = body.replace(b"tap-shape-01", f"tap-shape-{n:03d}".encode())
            r = await wire.call("POST", "/api/m/0/tap", WRITE, body)
            refused(r, status, body[:120])
            if status == 422:
                assert "rule" in r.json() and not _raw(r.json()), body[:120]
            again = await wire.call("POST", "/api/m/0/preview", WRITE, body)  # the preview reads the same bodies
            assert again.status in ((400, 422) if status == 422 else (200, 400, 422)), (body[:120], again.status)
        seat = await wire.tap({"id": "tap-seat-0001", "expect": 1, "word": "dealer", "player": 0.0})
        assert seat.json()["refused"] == "say which player (0 or 1)"  # (not Python's "tuple indices must be...")
        for body in (b"[]", b'{"a":' * 1300 + b"1" + b"}" * 1300, b'{"x": 1, "x": 2}', b"{}"):
            r = await wire.call("POST", "/api/m/0/rematch", WRITE, body)
            assert r.status in (400, 409) and r.json()["ok"] is False

    run(scenario)
    wire.unchanged(taps_kept=True)


def test_a_stale_future_or_negative_seq_is_a_conflict_that_writes_nothing(tmp_path: Path) -> None:
    wire = Wire(tmp_path)

    async def scenario() -> None:
        assert (await wire.tap({"id": "tap-first-01", "expect": 1, "word": "dealer", "player": 0})).status == 200
        wire.mark()
        for n, (expect, won) in enumerate([(1, [2]), (3, []), (10**100, []), (-1, [1, 2]), (0, [1, 2])]):
            r = await wire.tap({"id": f"tap-seq-{n:04d}", "expect": expect, "word": "upcard", "cards": ["7H"]})
            refused(r, 409, expect)
            assert r.json()["conflict"] is True and [w["seq"] for w in r.json()["won"]] == won, expect
            again = await wire.tap({"id": f"tap-seq-{n:04d}", "expect": 2, "word": "upcard", "cards": ["7H"]})
            assert again.body == r.body, "a tap sent again gets its first answer"

    run(scenario)
    wire.unchanged(taps_kept=True)


def test_a_match_file_damaged_under_the_server_is_said_not_a_500(tmp_path: Path) -> None:
    """Something else writes a bad line into the served file: every route says so, or serves what it last read."""
    wire = Wire(tmp_path)

    async def scenario() -> None:
        assert (await wire.tap({"id": "tap-dealer-1", "expect": 1, "word": "dealer", "player": 0})).status == 200
        with open(wire.path, "ab") as f:
            f.write(b'{"seq": 3, "not": "an event"\n')
        wire.mark()
        refused(await wire.tap({"word": "upcard", "cards": ["7H"]}, route="preview"), 409)
        refused(await wire.tap({"id": "tap-upcard-1", "expect": 2, "word": "upcard", "cards": ["7H"]}), 409)
        for route in READS:
            assert (await wire.call("GET", route, first=True)).status == 200, route

    run(scenario)
    wire.unchanged(taps_kept=True)


# ---------------------------------------------------------------------------------------------- paths and methods


def test_paths_outside_the_routes_and_odd_methods_are_refused(tmp_path: Path) -> None:
    wire = Wire(tmp_path)
    paths = ["/assets/%2e%2e/routes.py", "/assets/..%2Froutes.py", "/assets/..%5Croutes.py", "/assets/index.html",
             "/assets/__init__.py", "/assets/serve.js%00", "/assets/SERVE.JS", "/assets/.", "/assets/",
             "/api/m/0/../../../etc/passwd", "/api/m/%2e%2e/state", "/api/m/-1/state", "/api/m/1/state",
             "/api/m/0x0/state", "/api/m/%D9%A3/state", "/api/m/\u0663/state", "/api/m/0000001/state",
             "/api/m/" + "9" * 5000 + "/state", "/api/m/" + "9" * 5000 + "/tap", "/" + "a" * 16000, "/%1b[2J",
             "//api/matches", "/API/MATCHES", "/api/m//state", "/api/m/0/state/..", "/nothing"]

    async def scenario() -> None:
        for path in paths:
            r = await wire.call("GET", path)
            refused(r, 404 if not path.endswith("/tap") else 405, path[:80])
            assert b"\x1b" not in r.body and b"[2J" not in r.body, "the path is echoed"
        for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "get", "BREW"):
            for route in [*READS, *WRITES]:
                refused(await wire.call(method, route, WRITE, b"{}"), 405, (method, route))
        for route in WRITES:
            refused(await wire.call("GET", route), 405, route)
        for route in READS[3:]:
            refused(await wire.call("POST", route, WRITE, b"{}"), 405, route)
        # HEAD: the headers of what a GET answers, and no stream held open by a request that reads no body
        for route in READS:
            r = await wire.call("HEAD", route)
            assert r.status == 200, route
        assert wire.served.streams == 0 and wire.served.connections == 0

    run(scenario)
    wire.unchanged()


# ------------------------------------------------------------------------------------------- hostile record text

#: Texts a tap records (notes, a void's and an abandon's reasons), each attacking something that shows it.
TEXTS = [
    "gg\x1b[2J\x1b]0;owned\x07\r\x1b[1A\x1b[2KWinner: Mallory",
    "\x9b31m\x85C1",
    "\u202eevil\u2066 \u200bzero\u2028line",
    "nul\x00del\x7f",
    "<script>alert(1)</script>",
    "</script><img src=x onerror=alert(2)>&amp;&lt;",
    "[bold]x[/bold] :100: {{TOKEN}} %s",
]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _raw(value: Any) -> list[str]:
    """The characters in a decoded JSON value's strings that a screen would act on (control, format, surrogate)."""
    return sorted({f"U+{ord(c):04X}" for s in _strings(value) for c in s if unicodedata.category(c) in ("Cc", "Cf", "Cs")})


def _ascii_json(raw: bytes) -> Any:
    """The JSON in ``raw``, which must be printable ASCII only (every other character a ``\\u`` escape)."""
    assert all(32 <= b < 127 for b in raw), sorted({b for b in raw if not 32 <= b < 127})
    return json.loads(raw)


def test_text_a_tap_records_comes_back_escaped_in_the_json_and_the_page(tmp_path: Path) -> None:
    wire = Wire(tmp_path, players=("<b>Ann</b>", ":skull:"))
    shown = [visible("Note: " + " ".join(t.split())) for t in TEXTS]

    async def scenario() -> None:
        answers = [await wire.tap({"id": "tap-dealer-1", "expect": 1, "word": "dealer", "player": 1})]
        for n, text in enumerate(TEXTS):
            answers.append(await wire.tap({"id": f"tap-text-{n:03d}", "expect": 2 + n, "word": "note", "text": text}))
        seq = 2 + len(TEXTS)
        answers.append(await wire.tap({"id": "tap-upcard-1", "expect": seq, "word": "upcard", "cards": ["7H"]}))
        answers.append(await wire.tap({"id": "tap-void-001", "expect": seq + 1, "word": "void", "text": TEXTS[0]}))
        refusals = [await wire.tap({"id": "tap-refuse-1", "expect": seq + 2, "word": "note", "text": "\ud800" + TEXTS[0]}),
                    await wire.tap({"id": "tap-refuse-2", "expect": 1, "word": "note", "text": TEXTS[4]}),
                    await wire.tap({"word": "cut", "cards": ["\x1b[2J", "<b>"]}, route="preview")]
        abandon = await wire.tap({"id": "tap-abandon1", "expect": seq + 2, "word": "abandon", "text": TEXTS[1] + TEXTS[5]})
        assert [a.status for a in [*answers, abandon]] == [200] * (len(answers) + 1), [a.body[:200] for a in answers]
        assert [r.status for r in refusals] == [422, 409, 422]
        for r in [*answers, *refusals, abandon]:
            assert _raw(_ascii_json(r.body)) == [], r.body[:300]
        assert [a.json()["said"][0] for a in answers[1:1 + len(TEXTS)]] == shown
        state = _ascii_json((await wire.call("GET", "/api/m/0/state")).body)
        assert _raw(state) == []
        texts = [line["text"] for line in state["recent"]]  # the last 8: five notes, the upcard, the void, the end
        assert texts[:5] == shown[2:] and len(texts) == 8
        assert state["says"] == visible("Match abandoned: " + " ".join((TEXTS[1] + TEXTS[5]).split()))
        assert state["players"] == ["<b>Ann</b>", ":skull:"]  # markup is data: the page sets it as text
        stream = await wire.call("GET", "/api/m/0/events", first=True)
        frame = stream.body.decode("ascii")
        assert frame.startswith("event: state\ndata: ") and frame.endswith("\n\n") and frame.count("\n") == 3
        assert _ascii_json(frame.split("data: ", 1)[1].strip().encode()) == state
        listed = _ascii_json((await wire.call("GET", "/api/matches")).body)
        assert _raw(listed) == [] and listed[0]["players"] == state["players"]
        page = (await wire.call("GET", "/api/m/0/replay")).body.decode("utf-8")
        assert not [c for c in page if unicodedata.category(c) in ("Cc", "Cf") and c not in "\n\t"], "raw controls in the page"
        for markup in ("<script>alert", "<img src=x", "</script><img", "<b>Ann"):
            assert markup not in page, markup
        assert "\\u003cscript\\u003ealert(1)" in page and "onerror=alert(2)" in page  # there, escaped
        index = (await wire.call("GET", "/")).body.decode()
        assert "Mallory" not in index and "alert" not in index  # the page itself holds no record text

    run(scenario)
    assert wire.served.streams == 0


# ------------------------------------------------------------------------------------- many at once, and memory


def test_many_taps_at_once_on_one_match_write_one_line(tmp_path: Path) -> None:
    wire = Wire(tmp_path, clock=lambda: 0.0)  # a frozen clock: the entries-a-second bound bites after its burst

    async def scenario() -> list[Reply]:
        taps = [wire.tap({"id": f"tap-race-{n:04d}", "expect": 1, "word": "dealer", "player": n % 2}) for n in range(40)]
        return await asyncio.gather(*taps)

    replies = run(scenario)
    codes = sorted(r.status for r in replies)
    assert codes == [200] + [409] * 9 + [429] * 30, codes
    won = next(r for r in replies if r.status == 200).json()
    lines = wire.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and won["seq"] == 2 and json.loads(lines[1])["dealer"] == won["entry"].split()[1]

    async def again() -> list[Reply]:
        first = next(f"tap-race-{n:04d}" for n, r in enumerate(replies) if r.status == 200)
        return await asyncio.gather(*[wire.tap({"id": first, "expect": 1, "word": "dealer", "player": 0}) for _ in range(20)])

    assert {r.body for r in run(again)} == {json.dumps(won, separators=(",", ":")).encode()}
    assert len(wire.path.read_text(encoding="utf-8").splitlines()) == 2


def test_memory_stays_bounded_under_rounds_of_hostile_requests(tmp_path: Path) -> None:
    """Rounds of refused requests leave nothing behind but the answers kept by tap id (at most KEPT of them)."""
    wire = Wire(tmp_path)
    strangers = [(route, given) for _, given, _ in _wrong_credentials()[:4] for route in READS]
    shapes = _shapes()[::2]

    async def strange() -> None:
        for route, given in strangers:
            await wire.call("GET", route, [("host", HOST), *given])
        await wire.call("GET", "/api/m/0/events", first=True)
        await wire.call("POST", "/api/m/0/tap", WRITE, b"[" * 4000 + b"]" * 4000)

    async def shaped(k: int) -> None:
        for n, (body, _) in enumerate(shapes):
            await wire.call("POST", "/api/m/0/tap", WRITE, body.replace(b"tap-shape-01", f"tap-m{k}-{n:05d}".encode()))

    async def scenario() -> list[int]:
        sizes = []
        for round in (strange, strange, strange, lambda: shaped(0), lambda: shaped(1)):
            await round()
            sizes.append(tracemalloc.get_traced_memory()[0])
        return sizes

    tracemalloc.start()
    try:
        sizes = run(scenario)
    finally:
        tracemalloc.stop()
    assert sizes[2] - sizes[1] < 16 * 1024, sizes  # strangers' requests keep nothing
    assert sizes[4] - sizes[3] < len(shapes) * 1024, sizes  # a tap's kept answer: a few hundred bytes
    wire.unchanged(taps_kept=True)


def test_rematches_are_bounded(tmp_path: Path) -> None:
    """A rematch adds a file and a session held in memory: a served set stops at MAX_MATCHES."""
    wire = Wire(tmp_path)

    async def scenario() -> Reply:
        assert (await wire.tap({"id": "tap-dealer-1", "expect": 1, "word": "dealer", "player": 0})).status == 200
        assert (await wire.tap({"id": "tap-abandon1", "expect": 2, "word": "abandon"})).status == 200
        wire.mark()
        wire.served.hubs.extend([wire.served.hubs[0]] * (MAX_MATCHES - 1))  # (the set full: the same hub again)
        return await wire.call("POST", "/api/m/0/rematch", WRITE, b"{}")

    refused(run(scenario), 409)
    wire.unchanged()


# ------------------------------------------------------------------------------------------------ real sockets


def _connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.settimeout(5)
    return s


def _closed_within(s: socket.socket, seconds: float, *, trickle: bytes = b"") -> tuple[bool, bytes]:
    """Whether the server closed ``s`` within ``seconds`` (sending ``trickle`` a byte at a time meanwhile), and
    what it sent before."""
    got, deadline = b"", time.monotonic() + seconds
    s.setblocking(False)
    try:
        while time.monotonic() < deadline:
            if trickle:
                try:
                    s.send(trickle[:1])
                    trickle = trickle[1:]
                except OSError:
                    return True, got
            time.sleep(0.05)
            try:
                chunk = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                return True, got
            if not chunk:
                return True, got
            got += chunk
        return False, got
    finally:
        s.close()


@contextmanager
def _uvicorn(wire: Wire, head_wait: float) -> Iterator[int]:
    """The app on 127.0.0.1 (a free port) in a thread, with the command's own uvicorn settings; its port."""
    import uvicorn

    sock = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(wire.app, head_wait=head_wait))
    wire.served.stopping = lambda: server.should_exit
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        t.join(10)
        sock.close()


def _get(port: int, path: str = "/api/m/0/state") -> bytes:
    s = _connect(port)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{HEADER}: {TOKEN}\r\nConnection: close\r\n\r\n".encode())
    got = b""
    while chunk := s.recv(65536):
        got += chunk
    s.close()
    return got


def _answered(s: socket.socket, port: int) -> bytes:
    """One GET on the kept-alive connection ``s``, and its whole answer (by its Content-Length)."""
    s.sendall(f"GET /api/m/0/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{HEADER}: {TOKEN}\r\n\r\n".encode())
    got = b""
    while b"\r\n\r\n" not in got:
        got += s.recv(65536)
    head, _, body = got.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: (\d+)", head, re.I).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += s.recv(65536)
    return head


def test_slow_clients_are_cut_off_and_the_phones_still_answered(tmp_path: Path) -> None:
    """A connection that sends nothing, or a head a byte at a time (a first one, or the next after an answer), or a
    body that never comes, is closed after a bounded wait: uvicorn alone held each for ever, and 160 of them (its
    cap) made every request a 503."""
    wire = Wire(tmp_path, body_wait=0.3)
    threads = threading.active_count()
    with _uvicorn(wire, head_wait=0.4) as port:
        slow_body = _connect(port)
        slow_body.sendall(f"POST /api/m/0/tap HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                          f"{HEADER}: {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n"
                          '{"id": "tap-slow-01",'.encode())
        for _ in range(200):  # (until the app is reading it: the crowd below would make it a 503)
            if wire.served.connections:
                break
            time.sleep(0.01)
        idle = _connect(port)
        half = _connect(port)
        half.sendall(b"GET /api/m/0/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        kept = _connect(port)
        assert _answered(kept, port).startswith(b"HTTP/1.1 200 ")
        closed, said = _closed_within(slow_body, 2.0)
        assert closed and said.startswith(b"HTTP/1.1 408 ") and b"did not arrive" in said, said[:200]
        assert _closed_within(idle, 2.0)[0], "a connection that sends nothing is held"
        assert _closed_within(half, 1.0)[0], "half a head is held"
        trickle = b"GET /api/m/0/state HTTP/1.1\r\nHost: 127.0.0.1\r\n" * 2
        assert _closed_within(kept, 2.5, trickle=trickle)[0], "the next head, trickled after an answer, is held"
        assert _closed_within(_connect(port), 2.5, trickle=trickle)[0], "a first head trickled is held"
        crowd = [_connect(port) for _ in range(170)]  # over uvicorn's cap: the phones' requests are 503 a while
        time.sleep(0.8)  # (the head wait, and then some)
        answer = _get(port)
        assert answer.startswith(b"HTTP/1.1 200 ") and b'"seq":1' in answer, answer[:200]
        for s in crowd:
            s.close()
    assert threading.active_count() == threads  # (no thread left: the other tests' commands run forked)
    wire.unchanged()


def test_the_real_command_takes_bytes_that_are_not_http_without_a_traceback(tmp_path: Path) -> None:
    """One real ``ginlog serve`` on 127.0.0.1: bytes no browser sends, then Ctrl-C; nothing in its output but its own."""
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    m = new_match(tmp_path / "m.jsonl")
    before = m.read_bytes()
    argv = [str(GINLOG), "serve", str(m), "--port", "0"]
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    env = dict(os.environ)
    child: Any
    if can_fork(env):
        child = spawn_forked(argv, stdin=os.open(os.devnull, os.O_RDONLY), stdout=w_out, stderr=w_err, env=env,
                             cwd=None, close=(r_out, r_err))
    else:
        child = subprocess.Popen([sys.executable, *argv], stdin=subprocess.DEVNULL, stdout=w_out, stderr=w_err)
    os.close(w_out)
    os.close(w_err)
    out = b""
    try:
        while b"open http://" not in out or not out.rstrip(b"\n").endswith("▀".encode()):
            data = os.read(r_out, 1 << 16)
            assert data, out
            out += data
        port = int(re.search(rb"open http://127\.0\.0\.1:(\d+)/", out).group(1))  # type: ignore[union-attr]
        token = re.search(rb"\?t=(\S+)", out).group(1)  # type: ignore[union-attr]
        junk = [
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(32),  # a TLS hello: someone typed https://
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            b"GARBAGE\r\n\r\n",
            b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n",
            b"GET /\x1b[2J\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            b"GET / HTTP/1.0\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n",
            b"POST /api/m/0/tap HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
            b"POST /api/m/0/tap HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"GET /api/m/" + b"9" * 5000 + b"/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Ginlog-Token: " + token + b"\r\n\r\n",
            b"GET /api/m/0/state HTTP/1.1\r\nHost: evil.example\r\nX-Ginlog-Token: " + token + b"\r\n\r\n",
        ]
        for data in junk:
            s = _connect(port)
            try:
                s.sendall(data)
                s.shutdown(socket.SHUT_WR)
                got = b""
                while chunk := s.recv(65536):
                    got += chunk
            except OSError:
                got = b""
            finally:
                s.close()
            status = re.match(rb"HTTP/1\.[01] (\d{3}) ", got)
            assert got == b"" or (status and 400 <= int(status.group(1)) < 500), (data[:60], got[:200])
        answer = _get(port)
        assert b" 403 " in answer.split(b"\r\n")[0] or b" 200 " in answer.split(b"\r\n")[0]  # still serving
    finally:
        code, rest, err = interrupted(child, r_out, r_err)
    said = (out + rest + err).decode("utf-8", "replace")
    assert code == 130 and "Traceback" not in said and "Exception in ASGI" not in said and "ERROR" not in said, said[-2000:]
    assert m.read_bytes() == before
