"""The line format: what one line of a match file is, how it is written and how it is parsed.

A match file is JSON lines, one event per line, and is only ever appended to.
Each line carries an envelope -- ``seq``, ``ts``, ``type``, ``v``, ``prev`` --
followed by the event's own fields. ``prev`` is the SHA-256 of the exact bytes
of the line before (without its newline), so the lines form a hash chain:
editing a line breaks the link to the next one, deleting a line breaks the
next line's ``seq`` and link. This module knows nothing of files (see
:mod:`ginlog.log.files`) or of gin rummy (see :mod:`ginlog.log.events`).

>>> raw = encode(1, "2026-11-29T19:56:25.123Z", "note", 2, None, {"text": "hello"})
>>> raw
b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"prev":null,"text":"hello"}'
>>> len(digest(raw))
64
>>> parse_line(raw)["text"]
'hello'
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from typing import Any, Final

import attrs

from ginlog.errors import MalformedLine, StoreError
from ginlog.log.times import now_ts, valid_ts
from ginlog.text import has_lone_surrogate

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_SEQ",
    "ENVELOPE_KEYS",
    "Line",
    "digest",
    "encode",
    "now_ts",
    "parse_line",
    "too_long",
    "short_repr",
    "is_int",
]

MAX_LINE_BYTES: Final = 65536
"""Longest line (bytes, without its newline) ginlog writes or reads."""

ENVELOPE_KEYS: Final = ("seq", "ts", "type", "v", "prev")
"""The envelope's keys, in the order they open every line."""

#: A seq beyond this is not a line number any file will reach (and printing a
#: 4,300-digit number in a message would itself fail).
MAX_SEQ: Final = 10**15

_SHOW: Final = 60
_DIGEST_RE: Final = re.compile(r"[0-9a-f]{64}")


@attrs.frozen
class Line:
    """One complete, parsed line of a match file: what the reader yields and the writer returns.

    ``raw`` is the exact bytes without the newline; ``digest`` is their
    SHA-256, which the next line must carry as ``prev``. ``lineno`` is 1-based;
    in an intact file line N holds event N.

    >>> raw = b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"t","v":1,"prev":null}'
    >>> Line(lineno=1, raw=raw, data=json.loads(raw), digest=digest(raw)).seq
    1
    """

    lineno: int
    raw: bytes
    data: dict[str, Any]
    digest: str

    @property
    def seq(self) -> int | None:
        """The event's sequence number, or None when the line has none that is a whole number.

        (The reader has already reported such a line; it is yielded for its data.)
        """
        seq = self.data.get("seq")
        return seq if type(seq) is int else None


# --------------------------------------------------------------------------- writing


def digest(raw: bytes) -> str:
    """SHA-256 hex of one line's bytes, without the newline; the next line's ``prev``.

    >>> digest(b"")
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    """
    return hashlib.sha256(raw).hexdigest()


def encode(
    seq: int,
    ts: str,
    type: str,
    v: int,
    prev: str | None,
    fields: Mapping[str, Any],
) -> bytes:
    """Build one line's bytes (no newline): the envelope in fixed order, then ``fields``.

    Exported so tests and generators can build valid files in memory. The
    output is compact UTF-8 JSON, so the same event always has the same bytes
    and so the same digest (and :mod:`ginlog.log.known` can recognise it).
    Raises :class:`StoreError` (rule ``"envelope"``) for a bad envelope value
    or a field named like an envelope key, rule ``"encode"`` for a value JSON
    cannot hold (NaN, a set), rule ``"surrogate"`` for a lone surrogate
    (UTF-8 cannot carry one: the same rule the reader gives such a line), and
    :class:`MalformedLine` (``"line-too-long"``) past :data:`MAX_LINE_BYTES`.

    >>> encode(2, "2026-11-29T19:56:25.123Z", "card_drawn", 2, "ab" * 32, {"player": "Bo"})[:40]
    b'{"seq":2,"ts":"2026-11-29T19:56:25.123Z"'
    """
    if not is_int(seq) or seq < 1:
        raise StoreError(f"seq must be a positive integer, not {seq!r}", rule="envelope")
    if not valid_ts(ts):
        raise StoreError(
            f"ts must be a UTC time like 2026-11-29T19:56:25.123Z, not {short_repr(ts)}",
            rule="envelope",
        )
    if not isinstance(type, str) or not type:
        raise StoreError(f"type must be a non-empty string, not {type!r}", rule="envelope")
    if not is_int(v):
        raise StoreError(f"v must be an integer, not {v!r}", rule="envelope")
    if prev is not None and (not isinstance(prev, str) or not _DIGEST_RE.fullmatch(prev)):
        raise StoreError(f"prev must be a SHA-256 hex digest or None, not {short_repr(prev)}", rule="envelope")
    obj: dict[str, Any] = {"seq": seq, "ts": ts, "type": type, "v": v, "prev": prev}
    for key, value in fields.items():
        if not isinstance(key, str):
            raise StoreError(f"field names must be strings, not {key!r}", rule="envelope")
        if key in obj:
            raise StoreError(f"field {key!r} clashes with the envelope key of that name", rule="envelope")
        obj[key] = value
    try:
        raw = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(
            f"event {seq} ({type}) holds a lone surrogate (text that was not UTF-8?), which no UTF-8 line can carry",
            rule="surrogate",
        ) from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise StoreError(f"event {seq} ({type}) cannot be written as JSON: {exc}", rule="encode") from None
    if len(raw) > MAX_LINE_BYTES:
        raise MalformedLine(
            f"event {seq} ({type}) would be a {len(raw)}-byte line; the limit is {MAX_LINE_BYTES} bytes",
            rule="line-too-long",
            seq=seq,
        )
    return raw


# --------------------------------------------------------------------------- parsing


def parse_line(raw: bytes) -> dict[str, Any]:
    """Decode one line to a JSON object, or raise :class:`MalformedLine` (no place set).

    Strict: invalid UTF-8, NaN or infinities, numbers out of range, a key twice
    in one object, a lone surrogate (a ``\\ud800`` escape without its pair: no
    text can hold it) and anything but an object are refused, each with its rule.

    >>> parse_line(b'{"seq":1,"seq":2}')
    Traceback (most recent call last):
    ...
    ginlog.errors.MalformedLine: key 'seq' appears twice in one object [duplicate-key]
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedLine(
            f"not valid UTF-8 at byte {exc.start + 1}: {short_repr(raw[max(0, exc.start - 10):exc.start + 10])}",
            rule="utf-8",
        ) from None
    if not text.strip():
        raise MalformedLine("blank line; every line must be one JSON object", rule="blank-line")
    try:
        try:  # the fast path for a line as ginlog writes it: no surrounding white space
            obj, end = _DECODER.raw_decode(text)
            if end != len(text):
                raise ValueError
        except ValueError:
            obj = _DECODER.decode(text)  # for its error message, or to allow white space
    except MalformedLine:
        raise
    except RecursionError:
        raise MalformedLine("JSON is nested too deeply to read", rule="json") from None
    except json.JSONDecodeError as exc:
        raise MalformedLine(f"not valid JSON: {exc.msg} at column {exc.colno}", rule="json") from None
    except ValueError as exc:
        raise MalformedLine(f"not valid JSON: {exc}", rule="json") from None
    if not isinstance(obj, dict):
        kind = {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(obj), "number")
        raise MalformedLine(f"expected a JSON object, found a JSON {kind}", rule="not-object")
    if b"\\u" in raw and _SURROGATE_ESCAPE.search(raw) is not None and _holds_surrogate(obj):
        raise MalformedLine(
            "a string holds a lone surrogate (a \\uD800-\\uDFFF escape without its pair)", rule="surrogate"
        )
    return obj


#: A ``\\uD800``-``\\uDFFF`` escape: only a line holding one can decode to a lone
#: surrogate (UTF-8 refuses an encoded one), so only such a line is searched.
_SURROGATE_ESCAPE: Final = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def _holds_surrogate(value: object) -> bool:
    """Whether a decoded JSON value holds a lone surrogate in any string, key or value, at any depth.

    >>> _holds_surrogate({"a": [1, {"b\\ud800": None}]}), _holds_surrogate({"a": "\\U0001f600"})
    (True, False)
    """
    if isinstance(value, str):
        return has_lone_surrogate(value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v) for v in value)
    return False


def too_long(size: int) -> MalformedLine:
    """The error for a line of ``size`` bytes, over :data:`MAX_LINE_BYTES`."""
    return MalformedLine(f"line is {size} bytes long; the limit is {MAX_LINE_BYTES} bytes", rule="line-too-long")


def _reject_constant(name: str) -> Any:
    raise MalformedLine(f"{name} is not a JSON number", rule="non-finite")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise MalformedLine(f"number {short_repr(text)} is out of range", rule="non-finite")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise MalformedLine(f"key {key!r} appears twice in one object", rule="duplicate-key")
            seen.add(key)
    return obj


# One decoder for every line: json.loads with hooks would build a new one each call.
# Integers need no hook: CPython refuses more than 4,300 digits itself (a
# ValueError, reported as bad JSON), and a line is at most 64 KiB anyway.
_DECODER: Final = json.JSONDecoder(
    parse_constant=_reject_constant,
    parse_float=_parse_float,
    object_pairs_hook=_object,
)


# --------------------------------------------------------------------------- small helpers


def is_int(value: object) -> bool:
    """Whether ``value`` is a whole number (``True`` is not one).

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def short_repr(value: object) -> str:
    """A short, one-line ``repr`` for messages (at most ~60 characters).

    >>> short_repr("x" * 100)[-5:]
    'xx...'
    """
    text = repr(value)
    return text if len(text) <= _SHOW else text[: _SHOW - 3] + "..."

