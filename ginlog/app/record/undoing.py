"""What an undo undoes, in words, and the question before an undo that reopens a finished match.

A correction names only the ``seq`` it undoes; the table wants the move:
``undone: event 7, Bob discards Q♣``. The event is read back from the file
(an undo is rare, so one reading of the file up to that line costs nothing
that matters), and described with the state before it, which the timeline
keeps for every undoable event.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ginlog.app.record.status import result_text
from ginlog.app.views.match import describe
from ginlog.log.events import Event
from ginlog.match.reading import Stop, Visitor, read
from ginlog.play.state import MatchState, Timeline

__all__ = ["undone_text", "undo_target", "reopen_question", "reopens", "event_at"]


class _EventAt(Visitor[None, "Event | None"]):
    """The event on one line of a match file (no rules applied: the file was read whole before)."""

    def __init__(self, lineno: int) -> None:
        super().__init__()
        self.lineno = lineno
        self.found: Event | None = None

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        if lineno == self.lineno:
            self.found = event
            raise Stop

    def end(self) -> Event | None:
        return self.found


def event_at(path: str | os.PathLike[str], lineno: int) -> Event | None:
    """The event on line ``lineno`` of the match file (None if the file is shorter)."""
    return read(path, _EventAt(lineno), upto=lineno)


def undo_target(path: str | os.PathLike[str], timeline: Timeline) -> str | None:
    """The event an undo now would undo, in words: ``event 7, Bob discards Q♣``; None when nothing can be undone.

    ``timeline`` is the match before the undo: its last effective event is the one undone. Every question
    before an undo names it (issue 21: "Undo?" alone did not say what would go).
    """
    if not timeline.back:
        return None
    event = event_at(path, timeline.seq)
    if event is None:  # pragma: no cover - the timeline was read from this file
        return f"event {timeline.seq}"
    before = timeline.back[-1][1]
    return f"event {timeline.seq}, {describe(event, before, timeline.state)}"


def undone_text(path: str | os.PathLike[str], timeline: Timeline) -> str | None:
    """What an undo now would undo, e.g. ``undone: event 7, Bob discards Q♣``; None when nothing can be undone."""
    target = undo_target(path, timeline)
    return None if target is None else f"undone: {target}"


def reopen_question(state: MatchState, target: str | None = None) -> str:
    """The question asked before an undo reopens a finished match (the answer defaults to no), naming the event
    it undoes (``target``, from :func:`undo_target`).

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import Tally
    >>> reopen_question(MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally(),
    ...                            phase="abandoned", abandoned="rain"), "event 9, Match abandoned: rain")
    'The match is over (abandoned: rain). Undo event 9, Match abandoned: rain, and reopen it? [y/N] '
    """
    what = f"Undo {target}, and reopen it?" if target else "Undo reopens it. Undo?"
    return f"The match is over ({result_text(state)}). {what} [y/N] "


def reopens(timeline: Timeline, entries: Sequence[str]) -> bool:
    """Whether typing ``entries`` after ``timeline`` would reopen a finished match (a correction that takes back
    how it ended). Undoing a note written after the end reopens nothing. Entries that are refused say so when
    they are appended, so they count as reopening nothing here.

    >>> from ginlog.game.rules import preset, with_knobs
    >>> from ginlog.log.events import MatchStarted
    >>> from ginlog.play.reducer import apply, start
    >>> from ginlog.app.record.entry import parse_entry
    >>> tl = start(MatchStarted(players=("Ann", "Bob"), rules=with_knobs(preset("standard"), game_target="10")))
    >>> for e in ["dealer Ann", "result gin Bob 30"]:
    ...     tl = apply(tl, parse_entry(e, tl)[0])
    >>> tl.state.finished, reopens(tl, ["undo"]), reopens(tl, ["note gg", "undo"]), reopens(tl, ["note gg"])
    (True, True, False, False)
    """
    from ginlog.app.record.entry import parse_entry
    from ginlog.errors import GinlogError
    from ginlog.log.events import Correction
    from ginlog.play.reducer import apply

    tl = timeline
    try:
        for text in entries:
            for ev in parse_entry(text, tl):
                after = apply(tl, ev)
                if isinstance(ev, Correction) and tl.state.finished and not after.state.finished:
                    return True
                tl = after
    except GinlogError:
        return False
    return False
