"""The one timestamp rule: what the writer writes in ``ts`` is exactly what the reader accepts.

A line's ``ts`` is the UTC time it was written, to the millisecond:
``2026-11-29T19:56:25.123Z``, with a real date (no 29 February in 2026), a
year from :data:`FIRST_YEAR` to :data:`LAST_YEAR`, and always three digits of
milliseconds. :func:`now_ts` writes it, and refuses (rule ``clock``) a clock
that reads a time outside those years, rather than writing a line that no
reader would take; :func:`valid_ts` (and :func:`valid_ts_bytes`, the fast
path's) checks it, for the writer's :func:`~ginlog.log.format.encode`, the
event layer's line decoder and the fast path's bulk check alike. *Why one
rule:* the reader used to accept lines dated ``2026-02-29`` or
``0000-01-01``, or without milliseconds, that no ginlog could have written,
so a hand-made line passed an audit that a written one would not.

>>> valid_ts("2028-02-29T23:59:59.999Z"), valid_ts("2026-02-29T00:00:00.000Z")
(True, False)
>>> valid_ts("2026-11-29T19:56:25Z"), valid_ts("0000-01-01T00:00:00.000Z"), valid_ts("2026-11-29T19:56:25.123456Z")
(False, False, False)
>>> valid_ts(now_ts())
True
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Final

from ginlog.errors import StoreError

__all__ = ["FIRST_YEAR", "LAST_YEAR", "TS_PATTERN", "TS_EXAMPLE", "valid_ts", "valid_ts_bytes", "now_ts", "ts_of_ns"]

#: The years a ``ts`` may fall in: no record was written before the Unix epoch, and four digits end at 9999.
FIRST_YEAR: Final = 1970
LAST_YEAR: Final = 9999
#: What a ``ts`` looks like, for messages.
TS_EXAMPLE: Final = "2026-11-29T19:56:25.123Z"
#: The shape of a ``ts``: a year 1970-9999, month 01-12, day 01-31, hour 00-23, minutes and seconds 00-59 and
#: three digits of milliseconds (the days of each month are checked apart). The JSON Schema uses this same text.
TS_PATTERN: Final = (
    r"(?:19[7-9][0-9]|[2-9][0-9]{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z"
)
_SHAPE: Final = re.compile(TS_PATTERN + r"\Z").match
_SHAPE_BYTES: Final = re.compile(TS_PATTERN.encode("ascii") + rb"\Z").match
_DAYS: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _real_day(year: int, month: int, day: int) -> bool:
    if day <= 28:
        return True
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= _DAYS[month - 1] + leap


def valid_ts(ts: object) -> bool:
    """Whether ``ts`` is a time as the writer writes it (shape, range and a real date).

    Plain arithmetic after one regex, not ``datetime.strptime``, which would
    cost a scripted ``ginlog play`` the import of ``_strptime`` and ``locale``.
    """
    if type(ts) is not str or _SHAPE(ts) is None:
        return False
    return ts[8] != "3" and ts[8:10] != "29" or _real_day(int(ts[0:4]), int(ts[5:7]), int(ts[8:10]))


def valid_ts_bytes(ts: bytes) -> bool:
    """:func:`valid_ts` of a line's bytes (the fast path reads ``ts`` without decoding the line)."""
    if _SHAPE_BYTES(ts) is None:
        return False
    return ts[8] != 0x33 and ts[8:10] != b"29" or _real_day(int(ts[0:4]), int(ts[5:7]), int(ts[8:10]))


def ts_of_ns(ns: int) -> str:
    """A time in nanoseconds since the epoch as a ``ts``; :class:`~ginlog.errors.StoreError` (rule ``clock``)
    when it falls outside the years ginlog writes.

    >>> ts_of_ns(1_796_000_000_123_456_789)
    '2026-11-30T00:53:20.123Z'
    >>> ts_of_ns(-1)
    Traceback (most recent call last):
    ...
    ginlog.errors.StoreError: the clock reads a time before 1970 or after 9999, which ginlog does not write; set the system clock [clock]
    """
    ms = ns // 1_000_000
    try:
        parts = time.gmtime(ms // 1000)
        ok = FIRST_YEAR <= parts.tm_year <= LAST_YEAR
    except (OverflowError, OSError, ValueError):
        ok = False
    if not ok:
        raise StoreError(
            f"the clock reads a time before {FIRST_YEAR} or after {LAST_YEAR}, which ginlog does not write;"
            " set the system clock",
            rule="clock",
        )
    return time.strftime("%Y-%m-%dT%H:%M:%S", parts) + f".{ms % 1000:03d}Z"


def now_ts(clock: Callable[[], int] = time.time_ns) -> str:
    """The current UTC time as the envelope writes it, to the millisecond (``2026-11-29T19:56:25.123Z``).

    Millisecond precision and a ``Z`` keep timestamps short and sortable as
    text. A clock outside the years ginlog writes is refused (rule ``clock``),
    never a traceback and never a line no reader would take.
    """
    try:
        ns = clock()
    except (OverflowError, OSError, ValueError):
        ns = -1
    return ts_of_ns(ns)
