"""The ASGI app: the page, its assets, the state, the event stream and the taps, each behind the join token.

The rules every request meets, in this order, before any handler runs:

- at most :data:`MAX_CONNECTIONS` requests at once (streams included;
  :data:`MAX_STREAMS` of them streams), else ``503``;
- a ``Host`` that is an address (``192.168.1.20:8025``, ``[::1]:8025``),
  ``localhost`` or a name the server was started with, once; else ``403``.
  Why: a page elsewhere can point its own name at this machine's address
  (DNS rebinding) and then talk to the server as its "own origin"; an
  address is never such a name;
- the join token: in the ``SameSite=Strict`` cookie the QR link sets (``GET
  /?t=TOKEN`` sets it and sends the phone on to ``/``, so the token leaves
  the address bar), or in the ``X-Ginlog-Token`` header; each at most once,
  and every token given must be the right one (a wrong cookie beside a right
  header is refused: a request that carries two answers is not trusted with
  either); else ``403``;
- a write (``POST``) needs the header *and* an ``Origin`` that is this
  server's own (no other site's page can make a phone write), a JSON body
  of at most :data:`MAX_BODY` bytes that arrives within :data:`BODY_WAIT`
  seconds, with no key twice and nested at most as deep as the parser goes,
  else ``403``, ``413``, ``408``, ``400`` or ``415``;
- every response forbids framing, sniffing, caching and referrers, and the
  page may run only its own script (``Content-Security-Policy``).

Only the files named at start are served: a match is its number in the
served set (``/api/m/0/...``), an asset a name in a table read from the
package at start. No part of a request's path reaches the file system.
Bad requests get a clear ``4xx`` with a one-line JSON ``error`` and change
nothing.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")  # (Starlette's notice that it would rather have httpx2)
...     from starlette.testclient import TestClient
>>> import os, tempfile
>>> from ginlog.game.rules import preset
>>> from ginlog.match.session import MatchSession
>>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
>>> _ = MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
>>> served = Served.of([path], token="t" * 43)
>>> client = TestClient(build_app(served), base_url="http://127.0.0.1:8025")
>>> client.get("/api/m/0/state").status_code
403
>>> client.get("/api/m/0/state", headers={"X-Ginlog-Token": "t" * 43}).json()["says"]
'Who deals first?'
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import re
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any, Final

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from ginlog.app.record.rematch import start_rematch
from ginlog.app.serve.hub import Hub
from ginlog.app.serve.stream import updates
from ginlog.app.serve.tokens import same_token
from ginlog.errors import GinlogError
from ginlog.text import visible

__all__ = ["build_app", "Served", "MAX_BODY", "BODY_WAIT", "MAX_CONNECTIONS", "MAX_STREAMS", "MAX_MATCHES", "COOKIE",
           "HEADER", "ASSETS", "host_ok"]

#: The largest request body taken (a tap is a few hundred bytes; a note at its longest about 2 KB).
MAX_BODY: Final = 8 * 1024
#: How long a request's body may take to arrive (seconds): a tap's comes with its head, in one packet; a body that
#: never ends (a slow client, or one that means to hold a connection) is answered 408 and the connection closed.
BODY_WAIT: Final = 10.0
#: Requests at once, streams included, and streams among them (two phones a match, 25 matches, room to spare).
MAX_CONNECTIONS: Final = 128
MAX_STREAMS: Final = 64
#: Matches in one served set, rematches included (an evening's, many times over): each is a file and a session
#: held in memory, so a rematch beyond it is refused rather than the set growing without end.
MAX_MATCHES: Final = 64
#: The cookie the QR link sets, and the header a write carries.
COOKIE: Final = "ginlog_join"
HEADER: Final = "x-ginlog-token"
#: The page's assets: served by these names only, read from the package once.
ASSETS: Final = {"serve.js": "text/javascript", "serve.css": "text/css"}
_CSP: Final = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_HEADERS: Final = {
    "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store",
    "x-frame-options": "DENY", "cross-origin-resource-policy": "same-origin",
}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@attrs.define
class Served:
    """The served set: its matches (by number), the join token, and whether the server is stopping."""

    hubs: list[Hub]
    token: str
    stopping: Callable[[], bool] = lambda: False
    #: Host names the server answers to besides ``localhost`` and any address: the one ``--host`` gave (an address
    #: there is answered as any address is).
    names: frozenset[str] = frozenset()
    streams: int = 0
    connections: int = 0

    @classmethod
    def of(cls, paths: list[str], *, token: str) -> Served:
        """Open each match file (raising its first problem) as one served match."""
        return cls([Hub(i, p) for i, p in enumerate(paths)], token)

    def rematch(self, hub: Hub) -> tuple[int, dict[str, Any]]:
        """The rematch of a finished match, made once (both phones may ask) and added to the served set.

        Its file is named by the server, never by the request: ``friday.jsonl`` gets ``friday-2.jsonl`` beside it
        (then ``-3``...), the first such name that is free.
        """
        with hub.lock:
            if hub.rematch is not None:
                return 200, {"ok": True, "match": hub.rematch, "label": visible(self.hubs[hub.rematch].label)}
            old = hub.session.state
            if not old.finished:
                return 409, {"ok": False, "error": "a rematch begins when the match is over"}
            if len(self.hubs) >= MAX_MATCHES:
                return 409, {"ok": False, "error": f"this server serves at most {MAX_MATCHES} matches: start"
                                                   " 'ginlog serve' again for the next one"}
            try:
                path = rematch_path(hub.path)
                start_rematch(path, old)
                new = Hub(len(self.hubs), path)
            except (GinlogError, OSError) as exc:
                return 409, {"ok": False, "error": visible(exc.one_line() if isinstance(exc, GinlogError) else str(exc))}
            self.hubs.append(new)
            hub.rematch = new.index
            return 200, {"ok": True, "match": new.index, "label": visible(new.label)}


def rematch_path(path: str) -> str:
    """The first free ``STEM-N.jsonl`` after ``path`` in its folder.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> os.path.basename(rematch_path(os.path.join(d, "friday.jsonl"))), os.path.basename(rematch_path(os.path.join(d, "friday-2.jsonl")))
    ('friday-2.jsonl', 'friday-3.jsonl')
    """
    folder, name = os.path.split(path)
    stem, ext = os.path.splitext(name)
    m = re.fullmatch(r"(.*)-(\d{1,6})", stem)
    base, n = (m.group(1), int(m.group(2))) if m else (stem, 1)
    for k in range(n + 1, n + 1000):
        candidate = os.path.join(folder, f"{base}-{k}{ext or '.jsonl'}")
        if not os.path.lexists(candidate):
            return candidate
    raise OSError("no free name for the rematch beside it")


def _read_assets() -> dict[str, bytes]:
    folder = resources.files("ginlog.app.serve") / "assets"
    return {name: (folder / name).read_bytes() for name in [*ASSETS, "index.html"]}


def _error(status: int, message: str, *, close: bool = False) -> JSONResponse:
    """A refusal: one line of JSON; ``close``: and the connection closed after it (a body left unread)."""
    return JSONResponse({"ok": False, "error": message}, status_code=status,
                        headers={"connection": "close"} if close else None)


class _Json(JSONResponse):
    """ASCII JSON: every character but printable ASCII an escape, so nothing in it can act on what shows it."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def build_app(served: Served, *, body_wait: float = BODY_WAIT) -> Starlette:
    """The ASGI app for ``served``: routes below, wrapped in :class:`_Guard` (the limits and the token);
    ``body_wait``: how long a body may take to arrive (:data:`BODY_WAIT`)."""
    assets = _read_assets()
    page = assets["index.html"].decode("utf-8")

    def hub(request: Request) -> Hub | None:
        # (the number as text, read here: Starlette's int convertor raised on 5,000 digits, a 500)
        n = request.path_params["n"]
        if not (n.isascii() and n.isdigit() and len(n) <= 6):
            return None
        return served.hubs[int(n)] if int(n) < len(served.hubs) else None

    async def index(request: Request) -> Response:
        return HTMLResponse(page.replace("{{TOKEN}}", served.token))

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return _error(404, "no such file")
        return Response(assets[name], media_type=ASSETS[name])

    async def matches(request: Request) -> Response:
        return _Json([{"match": h.index, "label": visible(h.label), **_short(h)} for h in served.hubs])

    async def state(request: Request) -> Response:
        h = hub(request)
        if h is None:
            return _error(404, "no such match in the served set")
        return _Json(await run_in_threadpool(h.current))

    async def events(request: Request) -> Response:
        h = hub(request)
        if h is None:
            return _error(404, "no such match in the served set")
        if request.method == "HEAD":  # the stream's headers, and no stream: a HEAD reads no body, so holds no slot
            return Response(media_type="text/event-stream")
        if served.streams >= MAX_STREAMS:
            return _error(503, f"more than {MAX_STREAMS} pages are following matches; try again later")
        served.streams += 1

        async def body() -> Any:
            try:
                async for m in updates(h, run_in_threadpool, served.stopping):
                    yield m
            finally:
                served.streams -= 1

        return StreamingResponse(body(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})

    async def write(request: Request, what: Callable[[Hub, dict[str, Any]], tuple[int, dict[str, Any]]]) -> Response:
        h = hub(request)
        if h is None:
            return _error(404, "no such match in the served set")
        body = await _json_body(request, body_wait)
        if isinstance(body, Response):
            return body
        # On the loop, not in a thread: a tap is 2.4 ms (its fsync 0.3), and a thread's hand-offs under the GIL
        # cost more than that under load (docs/PERFORMANCE.md, the serve load's rows).
        status, answer = what(h, body)
        return _Json(answer, status_code=status)

    async def tap(request: Request) -> Response:
        return await write(request, Hub.tap)

    async def preview(request: Request) -> Response:
        return await write(request, Hub.preview)

    async def rematch(request: Request) -> Response:
        h = hub(request)
        if h is None:
            return _error(404, "no such match in the served set")
        body = await _json_body(request, body_wait)
        if isinstance(body, Response):
            return body
        status, answer = await run_in_threadpool(served.rematch, h)
        return _Json(answer, status_code=status)

    async def replay(request: Request) -> Response:
        h = hub(request)
        if h is None:
            return _error(404, "no such match in the served set")
        return HTMLResponse(await run_in_threadpool(_replay_page, h), headers={"content-security-policy": ""})

    async def not_here(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return _error(status, "no such page" if status == 404 else "not served here")

    app = Starlette(exception_handlers={HTTPException: not_here}, routes=[
        Route("/", index),
        Route("/assets/{name}", asset),
        Route("/api/matches", matches),
        Route("/api/m/{n}/state", state),
        Route("/api/m/{n}/events", events),
        Route("/api/m/{n}/tap", tap, methods=["POST"]),
        Route("/api/m/{n}/preview", preview, methods=["POST"]),
        Route("/api/m/{n}/rematch", rematch, methods=["POST"]),
        Route("/api/m/{n}/replay", replay),
    ])
    app.add_middleware(_Guard, served=served)
    return app


def _short(h: Hub) -> dict[str, Any]:
    st = h.state_json()
    return {"players": st["players"], "phase": st["phase"], "score": st["score"]}


def _replay_page(h: Hub) -> str:
    """The replay page of the match as it is now (``ginlog html``'s), with its own inline policy."""
    import io

    from ginlog.app.pages.page import page_of_file

    out = io.BytesIO()
    last, _verdict = page_of_file(h.path, h.label, out)
    if last is None:
        return "<!doctype html><title>ginlog</title><p>No page: the file could not be read.</p>"
    return out.getvalue().decode("utf-8")


class _Repeated(ValueError):
    """A JSON object that gives one key twice."""


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict, refusing a key given twice: which one counts is a guess two readers (a proxy,
    this server) may make differently, so a body that needs the guess is refused."""
    made = dict(pairs)
    if len(made) != len(pairs):
        raise _Repeated("a key given twice")
    return made


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # (Python's parser takes NaN and Infinity; JSON has no such number)


async def _read_body(request: Request) -> bytes | None:
    """The body, or None once it is over :data:`MAX_BODY` (read no further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_body(request: Request, wait: float) -> dict[str, Any] | Response:
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return _error(415, "a write is JSON (Content-Type: application/json)", close=True)
    try:
        raw = await asyncio.wait_for(_read_body(request), wait)
    except asyncio.TimeoutError:
        return _error(408, f"the body did not arrive within {wait:g} s", close=True)
    except ClientDisconnect:  # (gone half-way through its body: nobody hears this answer, and nothing is written)
        return _error(400, "the connection closed before the body ended", close=True)
    if raw is None:
        return _error(413, f"a request body holds at most {MAX_BODY:,} bytes", close=True)
    try:
        body = json.loads(raw, object_pairs_hook=_no_repeats, parse_constant=_no_constant)
    except _Repeated:
        return _error(400, "the body gives a key twice")
    except (ValueError, UnicodeDecodeError, RecursionError):  # (RecursionError: nested deeper than the parser goes)
        return _error(400, "the body is not JSON")
    if not isinstance(body, dict):
        return _error(400, "the body is a JSON object")
    return body


class _Guard:
    """The limits and the token, before any route; the safety headers on every response."""

    def __init__(self, app: ASGIApp, served: Served) -> None:
        self.app, self.served = app, served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        served = self.served

        async def send_safe(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"content-security-policy"]
                csp = next((v for k, v in message.get("headers", []) if k.lower() == b"content-security-policy"), None)
                headers += [(k.encode(), v.encode()) for k, v in _HEADERS.items()]
                if csp is None:  # (the replay page states its own policy inline, and an empty header here)
                    headers.append((b"content-security-policy", _CSP.encode()))
                message["headers"] = headers
            await send(message)

        if served.connections >= MAX_CONNECTIONS:
            await _error(503, f"more than {MAX_CONNECTIONS} requests at once; try again")(scope, receive, send_safe)
            return
        served.connections += 1
        try:
            refusal = _refusal(Request(scope), served)
            if refusal is not None:
                await refusal(scope, receive, send_safe)
            else:
                await self.app(scope, receive, send_safe)
        finally:
            served.connections -= 1


_HOST: Final = re.compile(r"(\[[0-9A-Fa-f:.]{2,45}\]|[^:\[\]]{1,253})(?::[0-9]{1,5})?")
_LENGTH: Final = re.compile(r"[0-9]{1,12}")


def host_ok(host: str, names: frozenset[str] = frozenset()) -> bool:
    """Whether a request's ``Host`` is one this server answers to: an IP address, ``localhost``, or one of ``names``
    (with a port or not).

    >>> [host_ok(h) for h in ("192.168.1.20:8025", "[::1]:8025", "localhost", "evil.example:8025", "127.0.0.1.nip.io")]
    [True, True, True, False, False]
    >>> host_ok("mybox.local:8025", frozenset({"mybox.local"})), host_ok("0x7f.1"), host_ok("")
    (True, False, False)
    """
    m = _HOST.fullmatch(host)
    if m is None:
        return False
    name = m.group(1)
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
        return True
    except ValueError:
        return not name.startswith("[") and (name.lower() == "localhost" or name.lower() in names)


def _cookies(request: Request, name: str) -> list[str]:
    """Every value the request's cookies give ``name`` (Starlette's parser keeps only the last)."""
    found = []
    for header in request.headers.getlist("cookie"):
        for chunk in header.split(";"):
            key, eq, value = chunk.partition("=")
            if eq and key.strip() == name:
                found.append(value.strip())
    return found


def _same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` is this server's own: ``http://`` and the request's ``Host``, exactly as a browser
    writes it (compared as text: ``urlsplit`` raised on ``http://[``, a 500)."""
    return origin == f"http://{host}"


def _refusal(request: Request, served: Served) -> Response | None:
    """Why a request is refused (a response), or None: the address, the join link, the token, the write rules."""
    token = served.token
    if request.method not in ("GET", "HEAD", "POST"):
        return _error(405, "only GET and POST are served")
    hosts = request.headers.getlist("host")
    if len(hosts) != 1 or not host_ok(hosts[0], served.names):
        return _error(403, "this server answers at its address (the one it printed), not under another name")
    if request.url.path == "/" and "t" in request.query_params and request.method != "POST":
        given = request.query_params.getlist("t")
        if len(given) != 1 or not same_token(given[0], token):
            return _error(403, "this join link's token is not this server's: scan the QR code again")
        r = RedirectResponse("/", status_code=303)
        r.set_cookie(COOKIE, token, max_age=12 * 3600, httponly=True, samesite="strict", path="/")
        return r
    cookies, headers = _cookies(request, COOKIE), request.headers.getlist(HEADER)
    if len(cookies) > 1 or len(headers) > 1:
        return _error(403, "the token is given twice: open the address the server printed (its QR code) again")
    if not cookies + headers or not all(same_token(t, token) for t in cookies + headers):
        return _error(403, "join first: open the address the server printed (its QR code) on this phone")
    if request.method == "POST":
        if not headers:
            return _error(403, f"a write carries the token in the {HEADER} header")
        origins = request.headers.getlist("origin")
        if len(origins) != 1 or not _same_origin(origins[0], hosts[0]):
            return _error(403, "a write comes from this server's own page (same origin)")
        lengths = request.headers.getlist("content-length")
        if len(lengths) > 1 or (lengths and _LENGTH.fullmatch(lengths[0]) is None):
            return _error(400, "a request's Content-Length is one number of bytes", close=True)
        if lengths and int(lengths[0]) > MAX_BODY:
            return _error(413, f"a request body holds at most {MAX_BODY:,} bytes", close=True)
    return None
