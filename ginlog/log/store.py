"""The log store: the only code that touches a match file's bytes.

A match file is JSON lines, one event per line, and is only ever appended to.
Each line carries an envelope -- ``seq``, ``ts``, ``type``, ``v``, ``prev`` --
followed by the event's own fields. ``prev`` is the SHA-256 of the exact bytes
of the line before (without its newline), so the lines form a hash chain:
editing a line breaks the link to the next one, deleting a line breaks the
next line's ``seq`` and link. The store knows nothing of gin rummy; it checks
only ``seq`` and ``prev`` and leaves the rest to the events layer.

Writers take an exclusive ``flock`` and say which event they expect to follow
(``expect``), so two writers never interleave and a stale writer gets
:class:`~ginlog.errors.Conflict` instead of a fork in the match. A crash in
the middle of a write leaves a torn tail (bytes after the last newline);
reading reports it, appending refuses until :func:`repair` moves the bytes
to a side file.

>>> raw = encode(1, "2026-11-29T19:56:25.123Z", "note", 2, None, {"text": "hello"})
>>> raw
b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"prev":null,"text":"hello"}'
>>> len(digest(raw))
64
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import itertools
import json
import math
import operator
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Final, NamedTuple, TypeAlias, TypeVar

if TYPE_CHECKING:  # pathlib and datetime load only where used: `ginlog play` starts faster
    from pathlib import Path

import attrs

from ginlog.errors import (
    Conflict,
    GinlogError,
    IntegrityError,
    MalformedLine,
    StoreError,
    TornTail,
)

__all__ = [
    "MAX_LINE_BYTES",
    "LOCK_TIMEOUT",
    "ENVELOPE_KEYS",
    "Line",
    "Head",
    "RepairReport",
    "digest",
    "encode",
    "now_ts",
    "read_lines",
    "read_rows",
    "read_bodies",
    "read_runs",
    "rows",
    "KnownRun",
    "head",
    "create",
    "append",
    "append_many",
    "repair",
]

MAX_LINE_BYTES = 65536
"""Longest line (bytes, without its newline) the store writes or reads."""

LOCK_TIMEOUT = 5.0
"""Seconds a writer waits for another writer's lock before giving up."""

ENVELOPE_KEYS = ("seq", "ts", "type", "v", "prev")
"""The envelope's keys, in the order they open every line."""


#: A seq beyond this is not a line number any file will reach (and printing a
#: 4,300-digit number in a message would itself fail).
MAX_SEQ = 10**15

_CHUNK = 65536
_SHOW = 60
_sha256 = hashlib.sha256
_TS_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
_DIGEST_RE = re.compile(r"[0-9a-f]{64}")
_DUMPS = {"separators": (",", ":"), "ensure_ascii": False, "allow_nan": False}


# --------------------------------------------------------------------------- values


@attrs.frozen
class Line:
    """One complete, parsed line of a match file.

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
    def seq(self) -> int:
        """The event's sequence number (``data["seq"]``)."""
        return self.data["seq"]  # type: ignore[no-any-return]


@attrs.frozen
class Head:
    """Where a match file ends, found without reading the whole file.

    ``seq``/``digest`` describe the last complete line (``0``/``None`` when
    there is none); ``size`` is the file size in bytes; ``torn`` holds any bytes
    after the last newline (``None`` when the file ends cleanly). Writers use
    it to check ``expect`` and to chain the next line::

        h = head("m.jsonl")      # Head(seq=12, digest='9f...', size=2048, torn=None)
    """

    seq: int
    digest: str | None
    size: int
    torn: bytes | None


@attrs.frozen
class RepairReport:
    """What :func:`repair` did: where the torn bytes went (``None`` if nowhere).

    ``torn`` is the bytes moved, ``b""`` when nothing was torn::

        repair("m.jsonl")  # RepairReport(side_file=Path('m.jsonl.torn-20261129T195625Z'), torn=b'{"seq":13,"t')
    """

    side_file: Path | None
    torn: bytes


# --------------------------------------------------------------------------- encoding


def digest(raw: bytes) -> str:
    """SHA-256 hex of one line's bytes, without the newline; the next line's ``prev``.

    >>> digest(b"")
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    """
    return hashlib.sha256(raw).hexdigest()


def now_ts() -> str:
    """The current UTC time as the envelope writes it, to the millisecond.

    Millisecond precision and a ``Z`` keep timestamps short and sortable as text:
    ``now_ts()`` -> ``'2026-11-29T19:56:25.123Z'``.
    """
    ms = time.time_ns() // 1_000_000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


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
    and so the same digest. Raises :class:`StoreError` (rule ``"envelope"``)
    for a bad envelope value or a field named like an envelope key, rule
    ``"encode"`` for a value JSON cannot hold (NaN, a set, a lone surrogate),
    and :class:`MalformedLine` (``"line-too-long"``) past :data:`MAX_LINE_BYTES`.

    >>> encode(2, "2026-11-29T19:56:25.123Z", "card_drawn", 2, "ab" * 32, {"player": "Bo"})[:40]
    b'{"seq":2,"ts":"2026-11-29T19:56:25.123Z"'
    """
    if not _is_int(seq) or seq < 1:
        raise StoreError(f"seq must be a positive integer, not {seq!r}", rule="envelope")
    if not isinstance(ts, str) or not _TS_RE.fullmatch(ts) or not _valid_ts(ts):
        raise StoreError(
            f"ts must be a UTC time like 2026-11-29T19:56:25.123Z, not {_show(ts)}",
            rule="envelope",
        )
    if not isinstance(type, str) or not type:
        raise StoreError(f"type must be a non-empty string, not {type!r}", rule="envelope")
    if not _is_int(v):
        raise StoreError(f"v must be an integer, not {v!r}", rule="envelope")
    if prev is not None and (not isinstance(prev, str) or not _DIGEST_RE.fullmatch(prev)):
        raise StoreError(f"prev must be a SHA-256 hex digest or None, not {_show(prev)}", rule="envelope")
    obj: dict[str, Any] = {"seq": seq, "ts": ts, "type": type, "v": v, "prev": prev}
    for key, value in fields.items():
        if not isinstance(key, str):
            raise StoreError(f"field names must be strings, not {key!r}", rule="envelope")
        if key in obj:
            raise StoreError(f"field {key!r} clashes with the envelope key of that name", rule="envelope")
        obj[key] = value
    try:
        raw = json.dumps(obj, **_DUMPS).encode("utf-8")  # type: ignore[arg-type]
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as exc:
        raise StoreError(f"event {seq} ({type}) cannot be written as JSON: {exc}", rule="encode") from None
    if len(raw) > MAX_LINE_BYTES:
        raise MalformedLine(
            f"event {seq} ({type}) would be a {len(raw)}-byte line; the limit is {MAX_LINE_BYTES} bytes",
            rule="line-too-long",
            seq=seq,
        )
    return raw


# --------------------------------------------------------------------------- reading


def read_lines(
    source: str | os.PathLike[str] | BinaryIO,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
) -> Iterator[Line]:
    """Stream a match file's lines, checking each is a JSON object that continues the chain.

    Memory stays flat whatever the file size: lines are read with a length
    limit and an over-long line is skipped in chunks (its digest still
    computed, so the next line's link is checked). ``source`` is a path or a
    binary stream (errors then name it ``name`` or ``"<stdin>"``).

    With ``errors=None`` the first problem is raised. With a list, each problem
    is appended and reading goes on: a malformed line is not yielded, but the
    next line's ``prev`` is still compared with the malformed line's digest, so
    an edited line breaks one link and a deleted line breaks the next line's
    ``seq`` and link. Lines whose ``seq`` or ``prev`` are wrong are yielded (they
    parsed) after their errors are recorded. A file that cannot be opened at all
    raises :class:`StoreError` (rule ``"file"``) in both modes.

    Errors are raised lazily, when iteration starts::

        errs: list[GinlogError] = []
        lines = list(read_lines("m.jsonl", errors=errs))
        # errs -> [IntegrityError('m.jsonl:7: event 7: prev does not match ... [chain]')]
    """
    for lineno, raw, data, line_digest in read_rows(source, errors=errors, name=name):
        yield Line(lineno=lineno, raw=raw, data=data, digest=line_digest)


def read_rows(
    source: str | os.PathLike[str] | BinaryIO,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
) -> Iterator[tuple[int, bytes, dict[str, Any], str]]:
    """:func:`read_lines` as plain ``(lineno, raw, data, digest)`` tuples."""
    for lineno, raw, _seq, data, line_digest, _body in read_bodies(source, None, errors=errors, name=name):
        assert data is not None  # without ``known`` every row is parsed
        yield lineno, raw, data, line_digest


T = TypeVar("T")

#: A body key: the bytes of a line's ``type`` and ``v``, and of its fields (see :func:`read_bodies`).
BodyKey: TypeAlias = tuple[bytes, bytes]


class KnownRun(NamedTuple):
    """Consecutive lines as ginlog writes them, each a body the reader knows: checked in bulk, parsed not at all.

    Line ``lineno + i`` holds event ``seq + i``: ``bodies[i]`` is what ``known``
    maps its body to, ``digests[i]`` its SHA-256 and ``raws[i]`` its bytes.
    """

    lineno: int
    seq: int
    bodies: list[Any]
    digests: list[str]
    raws: list[bytes]


#: One line read on its own: ``(lineno, raw, seq, data, digest, body)`` (see :func:`read_bodies`).
Row: TypeAlias = "tuple[int, bytes, int | None, dict[str, Any] | None, str, Any]"


def read_bodies(
    source: str | os.PathLike[str] | BinaryIO,
    known: Mapping[BodyKey, T] | None,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
    decode: Callable[[BodyKey], T | None] | None = None,
) -> Iterator[tuple[int, bytes, int | None, dict[str, Any] | None, str, BodyKey | T | None]]:
    """The replay's hot path: :func:`read_rows`, without parsing lines whose body is ``known``.

    Yields ``(lineno, raw, seq, data, digest, body)``. ``seq`` is the line's
    seq, or ``None`` when it has none that can be used (already reported).
    Most lines of a match repeat a few hundred bodies (``Ann`` draws from the
    stock, ``Bob`` discards ``7H``): only the envelope differs. For a line
    *as ginlog writes it* (compact, the five envelope keys first in their
    order), the reader knows the seq and the link the next line must have,
    so it compares those bytes instead of parsing them, checks the time's
    shape, and looks the rest up in ``known``: the bytes of ``type`` and
    ``v``, and what follows ``prev`` (the fields and the closing brace). If
    they are there, the line is not parsed at all: ``data`` is ``None`` and
    ``body`` is ``known[key]``. Any line that does not fit is parsed,
    checked and reported as usual. (``decode``: see :func:`read_runs`.)

    Otherwise ``data`` is the parsed line and ``body`` is the key under which
    the caller may remember what the line means (``None`` for a line not in
    that form, one with a list, which will not come back, or one too long to
    be worth remembering). The same key always stands for the same JSON
    apart from the envelope: the fields' bytes are equal, the envelope keys
    all come before them, and no key repeats.

    >>> import io
    >>> raws = [encode(1, "2026-11-29T19:56:25.123Z", "note", 2, None, {"text": "hi"})]
    >>> raws.append(encode(2, "2026-11-29T19:56:25.123Z", "note", 2, digest(raws[0]), {"text": "hi"}))
    >>> src = b"".join(r + b"\\n" for r in raws)
    >>> keys = [row[5] for row in read_bodies(io.BytesIO(src), {})]
    >>> keys[0] == keys[1], keys[0]
    (True, (b'","type":"note","v":2', b'"text":"hi"}'))
    >>> [(row[2], row[3], row[5]) for row in read_bodies(io.BytesIO(src), {keys[0]: "a note"})]
    [(1, None, 'a note'), (2, None, 'a note')]
    """
    for item in read_runs(source, known, errors=errors, name=name, decode=decode):
        yield from rows(item)


def rows(item: Row | KnownRun) -> Sequence[Row]:
    """An item of :func:`read_runs` as rows of :func:`read_bodies`: a row as itself, a run as its lines."""
    if type(item) is not KnownRun:
        return (item,)  # type: ignore[return-value]
    lineno, seq, bodies, digests, raws = item
    return [(lineno + i, raws[i], seq + i, None, digests[i], body) for i, body in enumerate(bodies)]


def read_runs(
    source: str | os.PathLike[str] | BinaryIO,
    known: Mapping[BodyKey, T] | None,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
    decode: Callable[[BodyKey], T | None] | None = None,
) -> Iterator[Row | KnownRun]:
    """:func:`read_bodies` as the reader makes it: rows, and runs of known lines as one :class:`KnownRun` each.

    The file is read in blocks, and a block's known lines are found with a
    few operations over the whole block (hash every line, cut each at the
    link it must carry, compare the seqs, look the bodies up) instead of a
    dozen per line. A replay that folds a run in one loop pays almost nothing
    per line beyond the SHA-256 that the chain needs anyway.

    ``decode`` may read a body that is not in ``known`` straight from its key
    (or return None to leave the line to JSON): a line as ginlog writes it
    whose body it reads counts as known.
    """
    if isinstance(source, (str, bytes, os.PathLike)):
        label = name if name is not None else os.fsdecode(source)
        fd = _open(source, os.O_RDONLY, label, regular=False)
        with open(fd, "rb", buffering=0) as stream:
            yield from _read_stream(stream, label, errors, lambda: _lock(fd, label, fcntl.LOCK_SH), known, decode)
    else:
        yield from _read_stream(source, name if name is not None else "<stdin>", errors, None, known, decode)


_TS_SHAPE: Final = (
    rb"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    rb"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z"
)
#: A time as :func:`now_ts` writes it, checked as strictly as the event layer
#: checks one (a real month, day, hour...), so what this accepts it accepts.
_CANONICAL_TS: Final = re.compile(_TS_SHAPE).fullmatch
#: A line as :func:`encode` writes it: groups seq, the ``type`` and ``v``
#: between the time and ``prev``, prev, and what follows prev (the fields and
#: the closing brace); groups 2 and 4 are its body key.
_CANONICAL: Final = re.compile(
    rb'\{"seq":([1-9][0-9]{0,14}),"ts":"' + _TS_SHAPE + rb'(","type":"[a-z_]{1,40}","v":[1-9][0-9]{0,5}),'
    rb'"prev":(?:"([0-9a-f]{64})"|null),("[^\n]{0,200}\})'
).fullmatch
#: Bytes read at a time. A block's known lines are checked together (see :func:`_known_bodies`).
_BLOCK = 1 << 16
_hexdigest: Final = operator.methodcaller("hexdigest")
_START_BYTES: Final = b'{"seq":%d,"ts":"'  # a line ginlog writes begins so, then 24 bytes of time
_START: Final = _START_BYTES.__mod__
_LINK: Final = b',"prev":"%s",'.__mod__  # ... and has this between type and v and its fields


def _link(prev: str | None) -> bytes:
    return b',"prev":null,' if prev is None else _LINK(prev.encode())


def _known_bodies(
    lines: list[bytes],
    digests: list[str],
    prev: str | None,
    seq: int,
    known: Mapping[BodyKey, T],
    decode: Callable[[BodyKey], T | None] | None = None,
) -> list[T | None]:
    """For each line of a block, its body if the line is as ginlog writes it and its body is known, else None.

    ``prev`` is the digest before the block and ``seq`` the seq its first line
    must have (the lines after it ``seq + 1``, ...). A line qualifies when it
    is exactly ``{"seq":N,"ts":"`` + a valid time + the type and v of a known
    body + the link to the line before + the rest of that body: then it is
    the JSON of a line that was parsed and checked before, with only the
    envelope changed, and that envelope is right. Every step is one call
    over the whole block, so the cost per line is a few C-level operations.
    """
    n = len(lines)
    links = [_link(prev)]
    links += map(_LINK, map(str.encode, digests[:-1]))
    befores, _, afters = zip(*map(bytes.partition, lines, links))
    mids: list[bytes] = []
    stamps: list[bytes] = []
    wrong: list[int] = []  # lines that do not begin with the seq they must have
    at = 0
    while at < n:  # the seq's width sets where the time ends: one slice per width
        width = len(str(seq + at))
        upto = min(n, 10**width - seq)
        span = befores[at:upto]
        mids += map(operator.itemgetter(slice(38 + width, None)), span)
        stamps += map(operator.itemgetter(slice(14 + width, 38 + width)), span)
        # All the beginnings at once: joined, they are the expected ones joined, or some line is wrong.
        begun = b"".join(map(operator.itemgetter(slice(14 + width)), span))
        if begun != (_START_BYTES * (upto - at)) % tuple(range(seq + at, seq + upto)):
            starts = map(_START, range(seq + at, seq + upto))
            wrong += itertools.compress(range(at, upto), map(operator.not_, map(bytes.startswith, span, starts)))
        at = upto
    seen = set(stamps)
    bad = seen.difference(filter(_CANONICAL_TS, seen))
    rejected = set(wrong)  # an envelope that is not right: whatever the body, the line is read in full
    if bad:
        rejected.update(i for i, stamp in enumerate(stamps) if stamp in bad)
    keys = list(zip(mids, afters))
    bodies = list(map(known.get, keys))  # type: ignore[call-overload]
    if decode is not None:
        for i in itertools.compress(range(n), map(operator.is_, bodies, itertools.repeat(None))):
            if i not in rejected:
                bodies[i] = decode(keys[i])
    for i in rejected:
        bodies[i] = None
    return bodies


def _read_stream(
    stream: BinaryIO,
    label: str,
    errors: list[GinlogError] | None,
    settle: Callable[[], None] | None = None,
    known: Mapping[BodyKey, T] | None = None,
    decode: Callable[[BodyKey], T | None] | None = None,
) -> Iterator[Row | KnownRun]:
    """The streaming loop behind :func:`read_runs`: blocks in, rows and runs out.

    Memory stays flat: a block is at most :data:`_BLOCK` bytes plus one line,
    and a line longer than :data:`MAX_LINE_BYTES` is hashed as it streams
    past, not kept. ``settle`` is called once if the file seems to end in a
    torn line: it waits for any writer's lock, since a reader can catch a
    line while another process is still writing it. Only what is still torn
    after that is torn.
    """

    def report(err: GinlogError) -> None:
        if errors is None:
            raise err
        errors.append(err)

    expect_seq = 1
    prev_digest: str | None = None
    lineno = 0

    def read() -> bytes:
        try:
            block = read_some(_BLOCK)
        except OSError as exc:
            raise _file_error(exc, label, "read") from None
        return _must_be_bytes(block, label)

    def parsed(raw: bytes, line_digest: str, lineno: int) -> Row | None:
        """The slow path: parse one line and check its envelope (``None`` if it cannot be read)."""
        nonlocal expect_seq, prev_digest
        try:
            if len(raw) > MAX_LINE_BYTES:
                raise _too_long(len(raw))
            data = _parse(raw)
        except MalformedLine as exc:
            report(exc.at(path=label, line=lineno))
            prev_digest = line_digest
            expect_seq += 1
            return None
        key: BodyKey | None = None
        if known is not None and b"[" not in raw:  # a list (a hand, the stock) does not come back
            m = _CANONICAL(raw)
            if m is not None:
                key = m.group(2, 4)

        seq = data.get("seq")
        known_seq = seq if type(seq) is int and 0 < seq <= MAX_SEQ else None
        if known_seq is None:
            report(
                IntegrityError(
                    f"seq must be a whole number from 1, found {_show(seq) if 'seq' in data else 'no seq'}",
                    rule="seq",
                    path=label,
                    line=lineno,
                )
            )
            next_seq = expect_seq + 1
        else:
            if known_seq != expect_seq:
                report(
                    IntegrityError(
                        f"expected seq {expect_seq}, found {known_seq}: "
                        "lines were deleted, inserted, repeated or reordered",
                        rule="seq",
                        path=label,
                        line=lineno,
                        seq=known_seq,
                    )
                )
            next_seq = known_seq + 1

        if "prev" not in data:
            report(IntegrityError("the line has no prev", rule="chain", path=label, line=lineno, seq=known_seq))
        elif data["prev"] != prev_digest:
            if prev_digest is None:
                msg = f"the first line must have prev null, found {_show(data['prev'])}"
            else:
                msg = (
                    f"prev does not match the line before: expected {prev_digest} "
                    f"(SHA-256 of line {lineno - 1}), found {_show(data['prev'])}"
                )
            report(IntegrityError(msg, rule="chain", path=label, line=lineno, seq=known_seq))

        prev_digest = line_digest
        expect_seq = next_seq
        return lineno, raw, seq if type(seq) is int else None, data, line_digest, key

    read_some = getattr(stream, "read1", None) or stream.read  # read1: a pipe yields what has arrived
    pending = b""
    while True:
        block = read()
        lines = (pending + block).split(b"\n") if pending else block.split(b"\n")
        pending = lines.pop()  # after the last newline: the start of a line still to come
        if lines:
            first = lineno + 1
            lineno += len(lines)
            digests = list(map(_hexdigest, map(_sha256, lines)))
            # The lines to read one by one: all of them, or those whose body is not known.
            slow: Iterable[int] = range(len(lines))
            bodies: list[Any] = []
            if known is not None and (known or decode is not None):
                bodies = _known_bodies(lines, digests, prev_digest, expect_seq, known, decode)
                slow = itertools.compress(slow, map(operator.is_, bodies, itertools.repeat(None)))
            base = expect_seq
            i = 0  # the first line not yet yielded
            for j in itertools.chain(slow, (len(lines),)):
                if j > i:  # lines i to j - 1 are known
                    if expect_seq != base + i:  # the seqs moved (an error was reported): those checks no longer hold
                        for k in range(i, j):
                            row = parsed(lines[k], digests[k], first + k)
                            if row is not None:
                                yield row
                    else:
                        yield KnownRun(first + i, expect_seq, bodies[i:j], digests[i:j], lines[i:j])
                        expect_seq += j - i
                        prev_digest = digests[j - 1]
                if j < len(lines):
                    row = parsed(lines[j], digests[j], first + j)
                    if row is not None:
                        yield row
                i = j + 1
        if len(pending) > MAX_LINE_BYTES:
            # Too long: hash the rest as it streams past, so the chain still holds.
            lineno += 1
            hasher = _sha256(pending)
            total = len(pending)
            start = pending[: 2 * _SHOW]
            while True:
                more = read()
                if not more:
                    report(_torn_error(total, start, label, lineno))
                    return
                end = more.find(b"\n")
                if end >= 0:
                    hasher.update(more[:end])
                    total += end
                    pending = more[end + 1 :]
                    break
                hasher.update(more)
                total += len(more)
            report(_too_long(total).at(path=label, line=lineno))
            prev_digest = hasher.hexdigest()
            expect_seq += 1
            continue
        if not block:
            if not pending:
                return
            if settle is not None:
                settle()
                settle = None
                continue
            report(_torn_error(len(pending), pending, label, lineno + 1))
            return


def _must_be_bytes(chunk: Any, label: str) -> bytes:
    if not isinstance(chunk, bytes):
        raise StoreError(f"{label} must be opened in binary mode", rule="file", path=label)
    return chunk


def _too_long(size: int) -> MalformedLine:
    return MalformedLine(f"line is {size} bytes long; the limit is {MAX_LINE_BYTES} bytes", rule="line-too-long")


def _torn_error(size: int, start: bytes, label: str, lineno: int) -> TornTail:
    return TornTail(
        f"the file ends with {size} bytes that are not a complete line (no newline): "
        f"{_show(start)}; a write was cut short -- run repair",
        path=label,
        line=lineno,
        detail=size,
    )


def _parse(raw: bytes) -> dict[str, Any]:
    """Decode one line to a JSON object, or raise :class:`MalformedLine` (no place set)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedLine(
            f"not valid UTF-8 at byte {exc.start + 1}: {_show(raw[max(0, exc.start - 10):exc.start + 10])}",
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
        kind = {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
            type(obj), "number"
        )
        raise MalformedLine(f"expected a JSON object, found a JSON {kind}", rule="not-object")
    return obj


def _reject_constant(name: str) -> Any:
    raise MalformedLine(f"{name} is not a JSON number", rule="non-finite")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise MalformedLine(f"number {_show(text)} is out of range", rule="non-finite")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise MalformedLine(f"key {dup!r} appears twice in one object", rule="duplicate-key")
    return obj


# One decoder for every line: json.loads with hooks would build a new one each call.
# Integers need no hook: CPython refuses more than 4,300 digits itself (a
# ValueError, reported as bad JSON), and a line is at most 64 KiB anyway.
_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant,
    parse_float=_parse_float,
    object_pairs_hook=_object,
)


# --------------------------------------------------------------------------- head


@attrs.frozen
class _Tail:
    end: int  # offset just past the last newline (0 if none)
    torn: bytes  # bytes after the last newline
    last: bytes | None  # the last complete line, without its newline


def head(path: str | os.PathLike[str]) -> Head:
    """The last complete line's ``seq`` and digest, read backwards from the end.

    Reads only the tail of the file, so it is fast on any size. Does not check
    the chain (that needs :func:`read_lines`); raises :class:`MalformedLine` or
    :class:`IntegrityError` if the last complete line has no usable ``seq``.

        head("m.jsonl")  # Head(seq=12, digest='9f0c...', size=2048, torn=None)
    """
    label = os.fsdecode(path)
    fd = _open(path, os.O_RDONLY, label)
    try:
        return _head(fd, label)
    finally:
        os.close(fd)


def _head(fd: int, label: str) -> Head:
    size = _fstat(fd, label).st_size
    tail = _read_tail(fd, size, label)
    torn = tail.torn or None
    if tail.last is None:
        return Head(seq=0, digest=None, size=size, torn=torn)
    try:
        data = _parse(tail.last)
    except MalformedLine as exc:
        raise MalformedLine(f"the last complete line: {exc.message}", rule=exc.rule, path=label) from None
    seq = data.get("seq")
    if not _is_int(seq) or seq < 1:
        raise IntegrityError(
            f"the last complete line has no usable seq (found {_show(seq)})", rule="seq", path=label
        )
    return Head(seq=seq, digest=digest(tail.last), size=size, torn=torn)


def _read_tail(fd: int, size: int, label: str) -> _Tail:
    """Find the last newline and the line before it, reading backwards in blocks."""
    pos = size
    pieces: list[bytes] = []
    newline = -1
    while pos > 0:
        start = max(0, pos - _CHUNK)
        block = _pread(fd, pos - start, start, label)
        i = block.rfind(b"\n")
        if i >= 0:
            newline = start + i
            pieces.append(block[i + 1 :])
            break
        pieces.append(block)
        pos = start
    torn = b"".join(reversed(pieces))
    if newline < 0:
        return _Tail(end=0, torn=torn, last=None)
    start = max(0, newline - (MAX_LINE_BYTES + 1))
    block = _pread(fd, newline - start, start, label)
    j = block.rfind(b"\n")
    if j >= 0:
        last = block[j + 1 :]
    elif start == 0:
        last = block
    else:
        raise MalformedLine(
            f"the last complete line is longer than the limit of {MAX_LINE_BYTES} bytes",
            rule="line-too-long",
            path=label,
        )
    return _Tail(end=newline + 1, torn=torn, last=last)


def _pread(fd: int, n: int, offset: int, label: str) -> bytes:
    parts: list[bytes] = []
    while n > 0:
        try:
            part = os.pread(fd, n, offset)
        except OSError as exc:
            raise _file_error(exc, label, "read") from None
        if not part:
            raise StoreError(f"{label} shrank while being read", rule="file", path=label)
        parts.append(part)
        n -= len(part)
        offset += len(part)
    return b"".join(parts)


# --------------------------------------------------------------------------- writing


def create(
    path: str | os.PathLike[str],
    type: str,
    v: int,
    fields: Mapping[str, Any],
    *,
    ts: str | None = None,
) -> Line:
    """Start a new match file with its first line (``seq`` 1, ``prev`` null).

    Refuses an existing path (rule ``"exists"``): a match file is never
    overwritten. The line is written in one ``write`` and both the file and its
    directory are fsynced, so after a crash the file is either absent, empty
    or holds one whole line (a torn line is left for :func:`repair`).

        create("m.jsonl", "note", 2, {"text": "hello"})
    """
    label = os.fsdecode(path)
    raw, data = _build(1, ts if ts is not None else now_ts(), type, v, None, fields)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise StoreError(
            "the file already exists; a match file is never overwritten",
            rule="exists",
            path=label,
        ) from None
    except OSError as exc:
        raise _file_error(exc, label, "create") from None
    try:
        _lock(fd, label)
        _write_all(fd, raw + b"\n", 0, label)
        _fsync(fd, label)
    finally:
        os.close(fd)
    _fsync_dir(path, label)
    return Line(lineno=1, raw=raw, data=data, digest=digest(raw))


def append(
    path: str | os.PathLike[str],
    type: str,
    v: int,
    fields: Mapping[str, Any],
    *,
    expect: int,
    ts: str | None = None,
) -> Line:
    """Append one event after event ``expect``, under an exclusive lock.

    ``expect`` is the ``seq`` the caller last saw; if the file has moved on
    (or back) the append is refused with :class:`Conflict` and nothing is
    written, so the caller re-reads and decides again. A torn tail refuses
    with :class:`TornTail` until :func:`repair`. Existing bytes are never
    rewritten.

        line = append("m.jsonl", "card_drawn", 2, {"player": "Ann", "source": "stock"}, expect=12)
        line.seq  # 13
    """
    return append_many(path, [(type, v, fields)], expect=expect, ts=ts)[0]


def append_many(
    path: str | os.PathLike[str],
    items: Sequence[tuple[str, int, Mapping[str, Any]]],
    *,
    expect: int,
    ts: str | None = None,
) -> list[Line]:
    """Append several events under one lock, in one ``write`` and one fsync.

    All lines share ``ts``. On a write error the file is rolled back to its old
    size, so none is written. A crash in the middle of the one ``write`` can
    leave a prefix: whole lines (each a valid event), then perhaps a torn one
    for :func:`repair`; never a damaged line before the end. With no items, only the checks run.

        append_many("m.jsonl", [("knocked", 2, {...}), ("hand_shown", 2, {...})], expect=40)
    """
    label = os.fsdecode(path)
    if not _is_int(expect) or expect < 0:
        raise StoreError(f"expect must be a non-negative integer, not {expect!r}", rule="envelope")
    stamp = ts if ts is not None else now_ts()
    fd = _open(path, os.O_RDWR | os.O_APPEND, label)
    try:
        _lock(fd, label)
        h = _head(fd, label)
        if h.torn is not None:
            raise TornTail(
                f"the file ends with {len(h.torn)} bytes that are not a complete line: "
                f"{_show(h.torn)}; run repair before appending",
                path=label,
                seq=h.seq or None,
                detail=len(h.torn),
            )
        if h.seq != expect:
            why = "another writer appended first" if h.seq > expect else "the file is shorter than that"
            raise Conflict(
                f"expected to follow event {expect} but the file ends at event {h.seq}: {why}",
                path=label,
                seq=h.seq or None,
                detail=h,
            )
        lines: list[Line] = []
        prev = h.digest
        for offset, (type_, v, fields) in enumerate(items, start=1):
            seq = expect + offset
            raw, data = _build(seq, stamp, type_, v, prev, fields)
            prev = digest(raw)
            lines.append(Line(lineno=seq, raw=raw, data=data, digest=prev))
        if lines:
            _write_all(fd, b"".join(line.raw + b"\n" for line in lines), h.size, label)
            _fsync(fd, label)
        return lines
    finally:
        os.close(fd)  # also releases the lock


def repair(path: str | os.PathLike[str]) -> RepairReport:
    """Move a torn tail to a side file and cut the match back to its last whole line.

    Nothing is thrown away: the torn bytes go to ``<name>.torn-<UTC stamp>``
    (``-2``, ``-3``... if taken), fsynced before the match file is truncated.
    With nothing torn, nothing changes and ``RepairReport(None, b"")`` is returned.

        repair("m.jsonl")  # RepairReport(side_file=Path('m.jsonl.torn-20261129T195625Z'), torn=b'{"se')
    """
    label = os.fsdecode(path)
    fd = _open(path, os.O_RDWR, label)
    try:
        _lock(fd, label)
        size = _fstat(fd, label).st_size
        tail = _read_tail(fd, size, label)
        if not tail.torn:
            return RepairReport(side_file=None, torn=b"")
        from pathlib import Path

        side = _write_side_file(Path(os.fsdecode(path)), tail.torn)
        try:
            os.ftruncate(fd, tail.end)
        except OSError as exc:
            raise _file_error(exc, label, "truncate") from None
        _fsync(fd, label)
        return RepairReport(side_file=side, torn=tail.torn)
    finally:
        os.close(fd)


def _write_side_file(match: Path, torn: bytes) -> Path:
    base = f"{match.name}.torn-{_side_stamp()}"
    for n in range(1, 10_000):
        side = match.with_name(base if n == 1 else f"{base}-{n}")
        try:
            fd = os.open(side, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _file_error(exc, str(side), "create") from None
        try:
            _write_all(fd, torn, 0, str(side))
            _fsync(fd, str(side))
        finally:
            os.close(fd)
        _fsync_dir(side, str(side))
        return side
    raise StoreError(f"too many side files named {base}*", rule="file", path=str(match))


def _side_stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _build(
    seq: int, ts: str, type: str, v: int, prev: str | None, fields: Mapping[str, Any]
) -> tuple[bytes, dict[str, Any]]:
    """Encode a line and read it back, so the store never writes a line it cannot read."""
    raw = encode(seq, ts, type, v, prev, fields)
    try:
        return raw, _parse(raw)
    except MalformedLine as exc:
        raise StoreError(f"event {seq} ({type}) would not read back: {exc.message}", rule="encode") from None


def _write_all(fd: int, data: bytes, size_before: int, label: str) -> None:
    """One ``write`` (looping only on a short write); on failure, cut our bytes back off."""
    view = memoryview(data)
    try:
        while view:
            n = os.write(fd, view)
            if n <= 0:
                raise OSError(errno.EIO, "write made no progress")
            view = view[n:]
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, size_before)
            os.fsync(fd)
        raise _file_error(exc, label, "write") from None


def _lock(fd: int, label: str, mode: int = fcntl.LOCK_EX) -> None:
    """``flock`` (exclusive unless told), polling so a stuck writer costs at most :data:`LOCK_TIMEOUT`."""
    deadline = time.monotonic() + LOCK_TIMEOUT
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as exc:
            raise _file_error(exc, label, "lock") from None
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise StoreError(
                f"another process has held the lock on {label} for over {LOCK_TIMEOUT:g} s; try again",
                rule="locked",
                path=label,
            )
        time.sleep(min(delay, remaining))
        delay = min(delay * 2, 0.05)


def _fsync(fd: int, label: str) -> None:
    try:
        os.fsync(fd)
    except OSError as exc:
        raise _file_error(exc, label, "sync") from None


def _fsync_dir(path: str | os.PathLike[str], label: str) -> None:
    """Make a new directory entry durable (some filesystems cannot; that is not an error)."""
    parent = os.path.dirname(os.path.abspath(os.fsdecode(path)))
    try:
        fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise _file_error(exc, parent, "open directory") from None
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise _file_error(exc, label, "sync the directory of") from None
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- helpers


def _open(path: str | os.PathLike[str], flags: int, label: str, *, regular: bool = True) -> int:
    """Open as a raw fd, turning every OS failure into :class:`StoreError` (rule ``"file"``)."""
    try:
        fd = os.open(path, flags | os.O_CLOEXEC)
    except OSError as exc:
        raise _file_error(exc, label, "open") from None
    try:
        mode = _fstat(fd, label).st_mode
        if stat.S_ISDIR(mode):
            raise StoreError(f"{label} is a directory, not a match file", rule="file", path=label)
        if regular and not stat.S_ISREG(mode):
            raise StoreError(f"{label} is not a regular file", rule="file", path=label)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _fstat(fd: int, label: str) -> os.stat_result:
    try:
        return os.fstat(fd)
    except OSError as exc:
        raise _file_error(exc, label, "stat") from None


def _file_error(exc: OSError, label: str, action: str) -> StoreError:
    if isinstance(exc, FileNotFoundError):
        what = "no such file or directory"
    elif isinstance(exc, IsADirectoryError):
        what = "it is a directory, not a match file"
    elif isinstance(exc, PermissionError):
        what = "permission denied"
    else:
        what = exc.strerror or str(exc)
    return StoreError(f"cannot {action} {label}: {what}", rule="file", path=label)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_DAYS: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _valid_ts(ts: str) -> bool:
    """Whether a ``YYYY-MM-DDTHH:MM:SS.mmmZ`` text (already shaped by a regex) is a real time.

    Plain arithmetic, not ``datetime.strptime``, which would cost a scripted
    ``ginlog play`` the import of ``_strptime``, ``locale`` and ``calendar``.

    >>> _valid_ts("2028-02-29T23:59:59.999Z"), _valid_ts("2026-02-29T00:00:00.000Z")
    (True, False)
    """
    year, month, day = int(ts[0:4]), int(ts[5:7]), int(ts[8:10])
    if not 1 <= month <= 12 or day < 1:
        return False
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if day > _DAYS[month - 1] + leap:
        return False
    return int(ts[11:13]) < 24 and int(ts[14:16]) < 60 and int(ts[17:19]) < 60


def _show(value: object) -> str:
    """A short, one-line ``repr`` for messages (at most ~60 characters)."""
    text = repr(value)
    return text if len(text) <= _SHOW else text[: _SHOW - 3] + "..."

