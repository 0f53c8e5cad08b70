"""The players' rating: Elo over matches in time order.

Why Elo, written here, rather than a library: a ginlog match is one game
between two players with one winner, which is the case Elo was made for; the
formula is five lines that anyone can check by hand (and the tests do,
independently), where a library (``openskill``, ``trueskill``, ``glicko2``)
would be a dependency of a core command for numbers fewer people can read.

The parameters (:data:`INITIAL`, :data:`K`, :data:`SCALE`): everyone starts at
1500; after a match the winner gains and the loser loses
``K * (1 - E)``, ``E = 1 / (1 + 10 ** ((R_loser - R_winner) / 400))`` being
the winner's expected score, with ``K = 32`` (FIDE's and USCF's factor for
players without a long record). Only finished matches with a winner count;
they are taken in the order they began (their first line's ``ts``), ties by
the match's identity (its ``match_id``, or first line's hash), so the ratings
are the same whatever order the files were named or listed in.

Putting matches in time order means keeping them until the end: 24 bytes a
rated match (its time, the first 60 bits of its identity, and who played whom
with who won, packed in three machine integers), and 8 more while they are sorted (in chunks, merged), so
a million matches take 24 MB; nothing else here grows with the number of files.

>>> elo = Elo()
>>> elo.add("2026-01-02T10:00:00.000Z", "Ann", "Bob", winner=0)
>>> elo.add("2026-01-01T10:00:00.000Z", "Bob", "Cy", winner=1)
>>> {name: round(r, 1) for name, r in elo.ratings().items()}
{'Ann': 1515.3, 'Bob': 1468.7, 'Cy': 1516.0}
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections.abc import Iterator
from datetime import datetime
from typing import Final

from ginlog.game.seats import Seat

__all__ = ["INITIAL", "K", "SCALE", "Elo", "expected", "ts_ms"]

INITIAL: Final = 1500.0
K: Final = 32.0
SCALE: Final = 400.0
_IDS: Final = 1 << 31
#: Matches sorted at a time (then merged): what sorting them costs in Python objects, at most.
CHUNK: Final = 1 << 16


def expected(rating: float, other: float) -> float:
    """The expected score of a player rated ``rating`` against one rated ``other``.

    >>> expected(1500, 1500), round(expected(1900, 1500), 3)
    (0.5, 0.909)
    """
    return 1.0 / (1.0 + math.pow(10.0, (other - rating) / SCALE))


def _tie(match: str | None) -> int:
    """A match's identity as a number that sorts as it does (its first 15 hex digits; none: 0).

    >>> _tie("00000000000001fff"), _tie(None), _tie("zz")
    (31, 0, 0)
    """
    try:
        return int(match[:15], 16) if match else 0
    except ValueError:
        return 0


def ts_ms(ts: str | None) -> int:
    """A line's ``ts`` as milliseconds since 1970 (an unreadable one: 0, so before everything).

    >>> ts_ms("1970-01-01T00:00:01.500Z"), ts_ms(None)
    (1500, 0)
    """
    if ts is None:
        return 0
    try:
        return int(datetime.fromisoformat(ts).timestamp() * 1000 + 0.5)
    except ValueError:
        return 0


class Elo:
    """Collects rated matches as they are read; :meth:`ratings` plays them in time order."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._names: list[str] = []
        self._when = array("q")
        self._tie = array("q")  # the match's identity's first 15 hex digits: ties broken by content, not by order
        self._who = array("q")  # first id << 32 | second id << 1 | winner seat

    def _id(self, name: str) -> int:
        i = self._ids.get(name)
        if i is None:
            i = self._ids[name] = len(self._names)
            if i >= _IDS:  # pragma: no cover - two thousand million players
                raise OverflowError("too many players to rate")
            self._names.append(name)
        return i

    def add(self, start: str | None, first: str, second: str, *, winner: Seat, match: str | None = None) -> None:
        """A finished match begun at ``start`` between ``first`` and ``second`` (seats 0 and 1), won by seat
        ``winner``; ``match`` (its identity, hex) orders matches begun at the same millisecond."""
        self._when.append(ts_ms(start))
        self._tie.append(_tie(match))
        self._who.append(self._id(first) << 32 | self._id(second) << 1 | winner)

    def __len__(self) -> int:
        return len(self._when)

    def ratings(self) -> dict[str, float]:
        """Every rated player's rating after all the matches, played in the order they began."""
        ratings = [INITIAL] * len(self._names)
        who = self._who
        for i in self._in_time_order():
            packed = who[i]
            a, b, w = packed >> 32, (packed >> 1) & (_IDS - 1), packed & 1
            win, lose = (a, b) if w == 0 else (b, a)
            gain = K * (1.0 - expected(ratings[win], ratings[lose]))
            ratings[win] += gain
            ratings[lose] -= gain
        return dict(zip(self._names, ratings))

    def _in_time_order(self) -> Iterator[int]:
        """The matches' indices by start time, ties by identity (then in the order read: only the same match
        read twice, which the standings never add, would tie on both).

        Sorted :data:`CHUNK` at a time into arrays, then merged (``heapq.merge``
        is stable: on a tie the earlier chunk, so the earlier match, comes
        first), so sorting holds 8 bytes a match more, not a Python list of them.
        """
        when, tie = self._when, self._tie

        def key(i: int) -> tuple[int, int]:
            return when[i], tie[i]

        runs = [
            array("q", sorted(range(lo, min(len(when), lo + CHUNK)), key=key)) for lo in range(0, len(when), CHUNK)
        ]
        return heapq.merge(*runs, key=key)
