"""One served match: its session (the one write path), the tap flow, and who to wake when it changes.

A tap is checked and written as a terminal entry is: its text is made by
:func:`~ginlog.app.serve.page_state.entry_text`, parsed by
:func:`~ginlog.app.record.entry.parse_entry` against the timeline, and
appended by :class:`~ginlog.match.session.MatchSession` with the ``seq`` the
page expects. So the other phone's tap, written first, makes this one a
conflict: nothing is written, and the answer names the entries that won.
Every answer is kept by tap id (:class:`~ginlog.app.serve.taps.TapStore`)
before it is given, so a tap sent again gets its first answer, also after a
restart. A lock per match keeps the two phones' taps in turn; the file's
size and time are looked at before each tap and by the event stream, so a
line written by something else (``ginlog record`` at a terminal) is read.

>>> import os, tempfile
>>> from ginlog.game.rules import preset
>>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
>>> _ = MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
>>> hub = Hub(0, path)
>>> hub.tap({"id": "tap-00000001", "expect": 1, "word": "dealer", "player": 0})
(200, {'ok': True, 'seq': 2, 'entry': 'dealer Ann', 'said': ['Ann deals first (agreed)']})
>>> hub.tap({"id": "tap-00000002", "expect": 1, "word": "dealer", "player": 1})[1]["conflict"]
True
>>> hub.tap({"id": "tap-00000001", "expect": 1, "word": "dealer", "player": 0})[1]["seq"]  # sent again
2
>>> code, answer = hub.tap({"id": "tap-00000003", "expect": 2, "word": "discard", "cards": ["7h"]})
>>> code, answer["rule"]
(422, 'entry')
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Final

from ginlog.app.record.entry import parse_entry
from ginlog.app.record.undoing import reopens
from ginlog.app.serve.page_state import entry_text, page_state
from ginlog.app.serve.taps import TapStore, valid_id
from ginlog.app.views.match import describe, hand_summary
from ginlog.errors import Conflict, GinlogError
from ginlog.match.reading import iter_steps
from ginlog.match.session import MatchSession
from ginlog.play.state import MatchState
from ginlog.text import visible

__all__ = ["Hub", "RECENT", "TAPS_PER_SECOND", "TAP_BURST"]

#: How many of the last lines the page lists.
RECENT: Final = 8
#: Entries a second a match takes, and the burst above that (a token bucket): two people tap far slower.
TAPS_PER_SECOND: Final = 5.0
TAP_BURST: Final = 10.0

Answer = tuple[int, dict[str, Any]]


class Hub:
    """One served match (``index`` in the served set): a handle on a file, so a plain class."""

    def __init__(self, index: int, path: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.index, self.path = index, path
        self.label = os.path.basename(path)
        self.lock = threading.Lock()
        self.session = MatchSession.open(path)
        self.taps = TapStore(path)
        self.recent: deque[tuple[int, str]] = deque(maxlen=RECENT)
        self._stamp = self._file_stamp()
        self._read_recent()
        self._clock = clock
        self._allowance, self._at = TAP_BURST, clock()
        self._cached: tuple[MatchState, int, dict[str, Any]] | None = None
        self.rematch: int | None = None  # the served set's number of this match's rematch, once made
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None

    # ------------------------------------------------------------------ the file

    def _file_stamp(self) -> tuple[int, int]:
        st = os.stat(self.path)
        return st.st_size, st.st_mtime_ns

    def _read_recent(self) -> None:
        self.recent.clear()
        before: MatchState | None = None
        for step in iter_steps(self.path):
            self.recent.append((step.seq, describe(step.event, before, step.state)))
            before = step.state

    def refresh(self) -> bool:
        """Read the file again if something else wrote it (its size or time changed); whether it did."""
        try:
            stamp = self._file_stamp()
        except OSError:
            return False
        if stamp == self._stamp:
            return False
        self.session.reload()
        self._read_recent()
        self._stamp = stamp
        return True

    def moved(self) -> bool:
        """Whether the file's size or time changed since it was last read (a stat, no lock: for the streams' beat)."""
        try:
            return self._file_stamp() != self._stamp
        except OSError:
            return False

    def current(self) -> dict[str, Any]:
        """The page's state after reading what something else may have written (a terminal's line)."""
        with self.lock:
            try:
                self.refresh()
            except GinlogError:
                pass  # the state as last read; the next tap says what is wrong with the file
        return self.state_json()

    def state_json(self) -> dict[str, Any]:
        """The page's state now (:func:`~ginlog.app.serve.page_state.page_state`), read under the lock."""
        with self.lock:
            s = self.session
            state, seq, recent = s.state, s.seq, tuple(self.recent)
            cached = self._cached
            if cached is not None and cached[0] is state and cached[1] == seq:
                return cached[2]  # (both phones' streams ask after each tap: made once)
        made = {"match": self.index, **page_state(state, seq, self.label, recent)}
        self._cached = (state, seq, made)
        return made

    # ------------------------------------------------------------------ waking the streams

    def bind(self, loop: asyncio.AbstractEventLoop) -> asyncio.Event:
        """The event the streams wait on, made on the server's loop the first time."""
        if self._changed is None:
            self._loop, self._changed = loop, asyncio.Event()
        return self._changed

    def changed(self) -> None:
        """Wake every stream (from the thread the tap ran in)."""
        loop, ev = self._loop, self._changed
        if loop is not None and ev is not None:
            loop.call_soon_threadsafe(_pulse, ev)

    # ------------------------------------------------------------------ taps

    def _rate_ok(self) -> bool:
        now = self._clock()
        self._allowance = min(TAP_BURST, self._allowance + (now - self._at) * TAPS_PER_SECOND)
        self._at = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def preview(self, body: Mapping[str, Any]) -> Answer:
        """What a ``show`` tap would record (ginlog's arrangement and lay-offs), checked, nothing written."""
        with self.lock:
            try:
                self.refresh()
            except GinlogError as exc:  # (the file was damaged by something else: said, as a tap says it)
                return 409, _refusal(exc)
            tl = self.session.timeline
            try:
                text = entry_text(body, tl.state)
                after = self.session.check(parse_entry(text, tl))
            except GinlogError as exc:
                return 422, _refusal(exc)
            st = after.state
            said = hand_summary(st.hands[-1], st.players) if len(st.hands) > len(tl.state.hands) else _arranged(st)
            return 200, {"ok": True, "entry": visible(text), "proposal": visible(said)}

    def tap(self, body: Mapping[str, Any]) -> Answer:
        """Record one tap; its answer (status, body), the first one again for an id seen before."""
        tap_id = body.get("id")
        if not valid_id(tap_id):
            return 400, {"ok": False, "error": "a tap needs an id: 8 to 64 of A-Z a-z 0-9 _ -"}
        assert isinstance(tap_id, str)
        with self.lock:
            first = self.taps.get(tap_id)
            if first is not None:
                return first
            expect = body.get("expect")
            if not isinstance(expect, int) or isinstance(expect, bool):
                return 400, {"ok": False, "error": "a tap needs the seq it expects to follow ('expect')"}
            if not self._rate_ok():
                return 429, {"ok": False, "error": f"more than {TAPS_PER_SECOND:g} entries a second; try again"}
            answer = self._tap(body, expect)
            self.taps.put(tap_id, *answer)
        if answer[0] == 200:
            self.changed()
        return answer

    def _tap(self, body: Mapping[str, Any], expect: int) -> Answer:
        try:
            self.refresh()
        except GinlogError as exc:
            return 409, _refusal(exc)
        s = self.session
        if expect != s.seq:
            return self._conflict(expect)
        tl = s.timeline
        try:
            text = entry_text(body, tl.state)
            if s.state.finished and reopens(tl, [text]) and body.get("reopen") is not True:
                return 409, {"ok": False, "rule": "reopen", "reopen": True,
                             "refused": "the match is over: undo reopens it (confirm to undo)"}
            events = parse_entry(text, tl)
            steps = s.append(events)
        except Conflict:
            try:
                s.reload()
                self._read_recent()
                self._stamp = self._file_stamp()
            except GinlogError as exc:
                return 409, _refusal(exc)
            return self._conflict(expect)
        except GinlogError as exc:
            return 422, _refusal(exc)
        self._stamp = self._file_stamp()
        said, before = [], tl.state
        for step in steps:
            line = describe(step.event, before, step.state)
            self.recent.append((step.seq, line))
            said.append(line)
            before = step.state
        if len(s.state.hands) > len(tl.state.hands):
            said.append(hand_summary(s.state.hands[-1], s.state.players))
        return 200, {"ok": True, "seq": s.seq, "entry": visible(text), "said": said}

    def _conflict(self, expect: int) -> Answer:
        won = [{"seq": q, "text": t} for q, t in self.recent if q > expect]
        return 409, {"ok": False, "conflict": True, "seq": self.session.seq, "won": won,
                     "refused": "the other phone's entry came first (nothing written)"}


def _pulse(ev: asyncio.Event) -> None:
    ev.set()
    ev.clear()


def _arranged(st: MatchState) -> str:
    hand = st.hand
    if hand is not None and hand.ending is not None and hand.ending.knocker is not None:
        k = hand.ending.knocker
        from ginlog.app.views.match import pretty

        return f"{st.players[k.player]}: " + " ".join(f"[{pretty(m.cards)}]" for m in k.melds) + (
            f" deadwood {pretty(k.deadwood)} = {k.deadwood_value}" if k.deadwood else " (gin)")
    return "ginlog arranges the hand"


def _refusal(exc: GinlogError) -> dict[str, Any]:
    return {"ok": False, "refused": visible(" ".join(exc.message.split())), "rule": exc.rule}
