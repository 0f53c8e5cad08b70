"""The event stream: each phone hears the match's new state within a second of any write.

Server-sent events rather than a WebSocket: one direction is all the page
needs (taps are plain POSTs, which carry the token header and are retried
by id), an ``EventSource`` reconnects by itself after a dropped
connection, and it is text over plain HTTP, which Starlette serves with no
other library. Each message is the whole state (a few KB), so a phone that
missed some never has to ask what it missed. A stream wakes when a tap is
written (:meth:`~ginlog.app.serve.hub.Hub.changed`) and at least once a
:data:`BEAT`, when it looks at the file (a line written by a terminal) and
sends a comment line, which keeps proxies and phones from closing it.

>>> message({"seq": 3})
'event: state\\ndata: {"seq":3}\\n\\n'
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

from ginlog.app.serve.hub import Hub
from ginlog.errors import GinlogError

__all__ = ["message", "updates", "BEAT", "KEEPALIVE"]

#: How often a stream looks at the file when nothing was tapped (seconds).
BEAT: Final = 1.0
#: A comment line sent every this many beats with nothing new.
KEEPALIVE: Final = 15


def message(data: dict[str, Any]) -> str:
    """One server-sent event named ``state`` (JSON on one line: ``json.dumps`` escapes every newline).

    ASCII JSON (every other character a ``\\uXXXX`` escape): nothing in it can act on whatever shows it, and
    it is made in C (:func:`ginlog.text.json_escaped`'s character loop cost 0.6 ms a message on the loop).
    """
    return f"event: state\ndata: {json.dumps(data, ensure_ascii=True, separators=(',', ':'))}\n\n"


async def updates(hub: Hub, run: Callable[[Callable[[], Any]], Any], stopping: Callable[[], bool],
                  beat: float = BEAT) -> AsyncIterator[str]:
    """The stream's messages: the state now, then each new one; ``run`` runs a blocking call off the loop
    (a file read), ``stopping`` says when the server is shutting down (the stream then ends)."""
    changed = hub.bind(asyncio.get_running_loop())
    seq = None
    while not stopping():
        state = hub.state_json()  # (on the loop: made once a change, about 0.1 ms; a thread would cost more)
        if state["seq"] != seq:
            seq = state["seq"]
            yield message(state)
        quiet = 0
        while not stopping():  # wait for a tap, or a beat that finds the file moved; nothing else goes to a thread
            try:
                await asyncio.wait_for(changed.wait(), beat)
                break
            except asyncio.TimeoutError:
                if hub.session.seq != seq:  # a change while this stream was busy sending (its pulse missed)
                    break
                if hub.moved():  # a line written by something else: read in a thread (a stat alone is cheap here)
                    await run(lambda: _refresh(hub))
                    break
                quiet += 1
                if quiet >= KEEPALIVE:
                    quiet = 0
                    yield ": beat\n\n"


def _refresh(hub: Hub) -> None:
    with hub.lock:
        try:
            hub.refresh()
        except (GinlogError, OSError):  # a file that cannot be read now is read again next beat
            pass
