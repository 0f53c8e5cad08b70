"""One family of errors, each able to say where it happened and which rule it broke.

Every error ginlog raises on bad input is a :class:`GinlogError`. It carries the
rule broken (a short stable code such as ``"knock-limit"``) and, once known,
the place: the file, the line and the event's sequence number. Inner layers
(cards, melds, the reducer) know only the rule; the log store and the audit
add the place with :meth:`GinlogError.at`. The CLI prints :meth:`one_line`
and exits 1; only a bug prints a traceback.

>>> err = IllegalMove("Ann may not discard 7H, taken from the pile this turn", rule="discard-taken-card")
>>> err.at(path="m.jsonl", line=12, seq=12).one_line()
'm.jsonl:12: event 12: Ann may not discard 7H, taken from the pile this turn [discard-taken-card]'
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

__all__ = [
    "place",
    "one_line",
    "warning_line",
    "GinlogError",
    "CardError",
    "MeldError",
    "RulesError",
    "EventError",
    "IllegalMove",
    "StoreError",
    "MalformedLine",
    "IntegrityError",
    "TornTail",
    "Conflict",
    "ForeignRecordError",
]


def place(path: str | None, line: int | None, seq: int | None) -> str:
    """``FILE:LINE: event N`` with whatever parts are known: an error's, a warning's, an audit line's place.

    >>> place("m.jsonl", 12, 12), place(None, 3, None), place("m.jsonl", None, None)
    ('m.jsonl:12: event 12', 'line 3', 'm.jsonl')
    """
    parts = []
    if path is not None:
        parts.append(path if line is None else f"{path}:{line}")
    elif line is not None:
        parts.append(f"line {line}")
    if seq is not None:
        parts.append(f"event {seq}")
    return ": ".join(parts)


def one_line(where: str, message: str, rule: str, tail: str = "") -> str:
    """``PLACE: message [rule]TAIL`` as one line a terminal shows and never obeys: white space runs become one
    space, and a control or bidi character anywhere is made visible (:func:`ginlog.text.visible`).
    """
    from ginlog.text import visible  # ginlog.text imports this module

    text = " ".join(f"{message} [{rule}]{tail}".split())  # never more than one line
    return visible(f"{where}: {text}" if where else text)


def warning_line(said: Mapping[str, Any]) -> str:
    """A warning as ``--json`` gives it (file, line, event, rule, message), in one line with its place.

    >>> warning_line({"file": "b.jsonl", "line": None, "event": None, "rule": "copy", "message": "the same match as a.jsonl"})
    'b.jsonl: the same match as a.jsonl [copy] (warning)'
    """
    return one_line(place(said.get("file"), said.get("line"), said.get("event")), said["message"], said["rule"], " (warning)")


class GinlogError(Exception):
    """Base of every error caused by input rather than by a bug in ginlog."""

    default_rule = "invalid"

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        path: str | None = None,
        line: int | None = None,
        seq: int | None = None,
        detail: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule or self.default_rule
        self.path = path
        self.line = line
        self.seq = seq
        self.detail = detail

    def __copy__(self) -> GinlogError:
        """A copy with a ``__dict__`` of its own. ``copy.copy`` would go through ``__reduce_ex__``, which a
        library may replace for every exception: tblib's pickling support, which Dask's ``distributed``
        installs, makes the copy share the original's ``__dict__``, so :meth:`at` on a cached error (one
        reader's cache of a bad line, shared by the files a Dask worker reads) wrote the first file's place
        into it for every later one."""
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        new.args = self.args
        return new

    def at(
        self,
        *,
        path: str | None = None,
        line: int | None = None,
        seq: int | None = None,
    ) -> GinlogError:
        """Return a copy with the place filled in (what is already known is kept)."""
        new = copy.copy(self)
        new.path = self.path if self.path is not None else path
        new.line = self.line if self.line is not None else line
        new.seq = self.seq if self.seq is not None else seq
        return new

    def place(self) -> str:
        """``FILE:LINE: event N`` with whatever parts are known (:func:`place`)."""
        return place(self.path, self.line, self.seq)

    def one_line(self) -> str:
        """The single line the user sees: place, message, rule; never more than one line, and
        nothing a terminal would act on: the message's white space runs become one space, and
        a control or bidi character anywhere (a file name, a value quoted from a record) is
        shown as ``␛`` or ``<U+202E>`` (:func:`ginlog.text.visible`), whoever prints the line.

        >>> GinlogError("bad\\nnote \\x1b[2J", path="m\\u202e.jsonl").one_line()
        'm<U+202E>.jsonl: bad note ␛[2J [invalid]'
        """
        return one_line(self.place(), self.message, self.rule)

    def to_dict(self) -> dict[str, Any]:
        """A stable JSON shape for ``--json`` output."""
        return {
            "file": self.path,
            "line": self.line,
            "event": self.seq,
            "rule": self.rule,
            "message": self.message,
        }

    def __str__(self) -> str:
        return self.one_line()


class CardError(GinlogError, ValueError):
    """A card or a list of cards could not be read (bad rank, bad suit, duplicate)."""

    default_rule = "card"


class MeldError(GinlogError, ValueError):
    """A declared meld, arrangement or lay-off is not valid."""

    default_rule = "meld"


class RulesError(GinlogError, ValueError):
    """A rule knob or preset is unknown or out of range."""

    default_rule = "rules"


class EventError(GinlogError, ValueError):
    """An event does not have the right shape (unknown type, missing field, wrong type)."""

    default_rule = "event"


class IllegalMove(GinlogError):
    """A well-formed event that breaks a rule of the game at its point in the match."""

    default_rule = "illegal"


class StoreError(GinlogError):
    """The match file itself is the problem (unreadable, locked, not a file)."""

    default_rule = "file"


class MalformedLine(StoreError):
    """A line is not one JSON object (bad JSON, invalid UTF-8, too long, NaN)."""

    default_rule = "json"


class IntegrityError(StoreError):
    """The hash chain or the sequence numbers show the file was edited."""

    default_rule = "chain"


class TornTail(StoreError):
    """The last line was cut short by a crash; appending waits for ``repair``."""

    default_rule = "torn-tail"


class Conflict(StoreError):
    """An append expected a different last event: another writer got there first."""

    default_rule = "conflict"


class ForeignRecordError(GinlogError):
    """A foreign record (OpenSpiel) could not be read or is not legal in its own game."""

    default_rule = "import"
