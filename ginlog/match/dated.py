"""When each hand ended: the ``ts`` of the line that finished it, read along with the final state.

The reducer knows no clock (the same events always give the same state), so
a hand's date is not in the state: it is in the record, the ``ts`` of the
line whose event finished the hand. :class:`HandDates` is a
:class:`~ginlog.match.visitors.FinalState` that also notes, each time the
score sheet grows, the time of the line that grew it (and forgets it if a
correction takes that hand back). It applies events one at a time, to see
the line each hand ends on, so it is for the score sheet only; the replay's
fast path (:func:`~ginlog.match.reading.read_match`) is untouched.

>>> import io
>>> from ginlog.game.rules import preset
>>> from ginlog.log.events import SCHEMA_VERSION, event_fields, event_type
>>> from ginlog.log.format import digest, encode
>>> from ginlog.play.simulate import simulate_match
>>> lines, prev = [], None
>>> for seq, ev in enumerate(simulate_match(preset("standard"), seed=1, max_hands=2), start=1):
...     raw = encode(seq, f"2026-11-29T19:{seq // 60:02}:{seq % 60:02}.000Z", event_type(ev), SCHEMA_VERSION,
...                  prev, event_fields(ev))
...     lines.append(raw + b"\\n")
...     prev = digest(raw)
>>> report, dates = read_dated(io.BytesIO(b"".join(lines)))
>>> len(dates) == len(report.state.hands) == 2, dates[-1] == f"2026-11-29T19:{len(lines) // 60:02}:{len(lines) % 60:02}.000Z"
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Never

from ginlog.errors import GinlogError
from ginlog.log.events import Event
from ginlog.log.known import KnownBodies
from ginlog.log.reader import BLOCK, Line, Run, Source
from ginlog.match.reading import SHARED, read
from ginlog.match.visitors import FinalState, MatchReport

__all__ = ["HandDates", "read_dated", "line_ts"]


def line_ts(item: Line | Run, lineno: int) -> str | None:
    """The ``ts`` of line ``lineno``, which ``item`` holds; None if it has none that is text.

    A run's lines are as ginlog writes them (``{"seq":N,"ts":"`` then 24
    characters of time), so the time is read off the bytes, not parsed.

    >>> from ginlog.log.format import Line
    >>> line_ts(Line(3, b"", {"seq": 3, "ts": "2026-11-29T19:56:25.123Z"}, ""), 3)
    '2026-11-29T19:56:25.123Z'
    >>> line_ts(Run(7, 7, [], [], [b'{"seq":7,"ts":"2026-11-29T19:56:25.123Z","type":"note"}']), 7)
    '2026-11-29T19:56:25.123Z'
    """
    if isinstance(item, Run):
        i = lineno - item.lineno
        raw = item.raws[i]
        start = len(b'{"seq":%d,"ts":"' % (item.seq + i))
        return raw[start:start + 24].decode("ascii")
    ts = item.data.get("ts")
    return ts if isinstance(ts, str) else None


class HandDates(FinalState):
    """:class:`~ginlog.match.visitors.FinalState` that also keeps when each finished hand ended (:attr:`dates`)."""

    def __init__(
        self, errors: list[GinlogError] | None = None, *, limit: int | None = None, anchor: str | None = None
    ) -> None:
        super().__init__(errors, limit=limit, anchor=anchor)
        self._item: Line | Run | None = None
        #: ``dates[i]``: the ``ts`` of the line that finished hand ``i + 1`` of the sheet.
        self.dates: list[str | None] = []

    def item(self, item: Line | Run) -> None:
        self._item = item

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        super().event(lineno, seq, event, digest)
        fold = self._fold
        if fold is None:
            return
        n, dates = fold.hands, self.dates
        if n < len(dates):
            del dates[n:]  # a correction took hands back
        if n > len(dates):
            ts = line_ts(self._item, lineno) if self._item is not None else None
            dates.extend([ts] * (n - len(dates)))

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[Never]:
        event = self.event
        for i, ev in enumerate(events):
            event(lineno + i, seq + i, ev, digests[i])
        return ()


def read_dated(
    source: Source,
    *,
    collect: bool = False,
    name: str | None = None,
    upto: int | None = None,
    anchor: str | None = None,
    known: KnownBodies | None = SHARED,
    block: int = BLOCK,
) -> tuple[MatchReport, tuple[str | None, ...]]:
    """:func:`~ginlog.match.reading.read_match` (the same arguments), and when each finished hand ended.

    The dates line up with ``report.state.hands``: pass them to
    :func:`ginlog.app.views.score_json`.
    """
    visitor = HandDates([] if collect else None, anchor=anchor)
    report = read(source, visitor, known=known, name=name, upto=upto, block=block)
    return report, tuple(visitor.dates)
