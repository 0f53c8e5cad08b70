"""Warnings: what a record does not let ginlog verify, said next to the errors but never counted as one.

A file can be sound (every link, every rule, every score) and still leave
something unchecked, or checked only in part: a hand recorded as its result
alone, a match reopened after it had ended, a clock running backwards,
rules no table plays. An audit that only said "clean" would mislead, so the
readers report a :class:`Caveat` for each such thing, with its place, as
they report an error. Every layer may make one (the reader sees the times,
the fold the corrections, the match reader the rules), so this module, like
:mod:`ginlog.errors`, sits outside the layers.

The rules (stable codes, as for errors; the README lists them):

``score-pad``
    Hands recorded as results only (``hand_result``): the arithmetic is checked, the play is not; for a
    points-only hand (``how="points"``, a pad's ``Ann +25``) not even the deadwood, only that the totals add up.
``reopened``
    A correction applied after the match had ended (or was abandoned): the result was changed afterwards.
``time-order``
    A line's ``ts`` is earlier than the line before's.
``unusual-rules``
    A knob outside what any preset or common table uses (:mod:`ginlog.game.usual`).

>>> w = Caveat("time-order", "the time goes back", line=7, seq=7).at(path="m.jsonl")
>>> w.one_line()
'm.jsonl:7: event 7: the time goes back [time-order] (warning)'
>>> w.to_dict()
{'file': 'm.jsonl', 'line': 7, 'event': 7, 'rule': 'time-order', 'message': 'the time goes back'}
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from ginlog.errors import one_line, place

__all__ = ["Caveat", "RULES"]

#: Every rule a :class:`Caveat` may carry.
RULES: Final = ("score-pad", "reopened", "time-order", "unusual-rules")


@attrs.frozen
class Caveat:
    """One warning: its rule, what it says, and where (as much as is known)."""

    rule: str
    message: str
    path: str | None = None
    line: int | None = None
    seq: int | None = None

    def at(self, *, path: str | None = None, line: int | None = None, seq: int | None = None) -> Caveat:
        """A copy with the place filled in (what is already known is kept), as :meth:`GinlogError.at`."""
        return Caveat(
            self.rule,
            self.message,
            self.path if self.path is not None else path,
            self.line if self.line is not None else line,
            self.seq if self.seq is not None else seq,
        )

    def one_line(self) -> str:
        """``FILE:LINE: event N: message [rule] (warning)``, with whatever of the place is known, shown as an
        error's line is (:func:`ginlog.errors.one_line`: one line, nothing a terminal would obey)."""
        return one_line(place(self.path, self.line, self.seq), self.message, self.rule, " (warning)")

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` shape, the same keys as an error's."""
        return {"file": self.path, "line": self.line, "event": self.seq, "rule": self.rule, "message": self.message}
