"""How ``ginlog serve`` runs its app under uvicorn: the settings, and a request head that must come in time.

Kept apart from the routes (:mod:`ginlog.app.serve.routes`), which know nothing of the server that runs them, and
from the command (:mod:`ginlog.app.cli.serve`), which only says what to serve where: the one place that knows
uvicorn's protocol classes.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ginlog.app.serve.routes import MAX_CONNECTIONS

__all__ = ["HEAD_WAIT", "server_config"]

#: How long a connection may take to send a request's head (seconds), from its opening or from its first byte
#: after an answer: a phone sends the head in one packet. uvicorn has no such limit, so a client on the Wi-Fi
#: that opens connections and sends nothing (or one byte a minute) held each for ever, and 160 of them made every
#: phone's request a 503, without any token.
HEAD_WAIT: Final = 10.0


def server_config(app: Any, *, head_wait: float = HEAD_WAIT) -> uvicorn.Config:
    """uvicorn's settings for ``app``: its h11 protocol with :data:`HEAD_WAIT` (``head_wait``), the limits of
    ``docs/SERVE.md``, no logs but warnings, no lifespan and no WebSocket."""
    return uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", ws="none", http=_head_wait(head_wait),
        timeout_graceful_shutdown=2, limit_concurrency=MAX_CONNECTIONS + 32, h11_max_incomplete_event_size=16 * 1024,
        timeout_keep_alive=30,
    )


def _head_wait(wait: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request head has not come ``wait`` seconds after the
    connection opened, or after the first byte that follows an answer (the rest of a body nobody reads, the
    next head, trickled); an idle keep-alive connection is uvicorn's own (``timeout_keep_alive``). Also: a
    malformed body under a request the app is answering is uvicorn's 400 alone (see ``send_400_response``)."""
    class HeadWait(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _waiting_after: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # A head that parsed, then a body that does not (a bad chunk): uvicorn answered 400 while the app was
            # answering the same request, and h11 refused the app's answer, logged as the app's traceback. The
            # request's cycle is marked gone first, so the app's answer is dropped and its next read hears a
            # disconnect.
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
                if cycle.response_started:  # (an answer half sent: no second one; the connection ends)
                    self.transport.close()
                    return
            super().send_400_response(msg)

        def _watch(self) -> None:
            cycle = self.cycle
            waiting = cycle is None or cycle.response_complete  # no request being answered: a head is due
            if waiting and self._timer is None:
                self._waiting_after = cycle
                self._timer = self.loop.call_later(wait, self._too_slow)
            elif not waiting:
                self._cancel()

        def _cancel(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.cycle is self._waiting_after and not self.transport.is_closing():
                self.transport.close()

    return HeadWait
