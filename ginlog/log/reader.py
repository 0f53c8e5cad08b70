"""The reader: a match file's bytes in, its lines out, each checked against the hash chain and the seqs.

The file is read in blocks; each block is cut into lines, each line hashed,
parsed (:func:`ginlog.log.format.parse_line`) and checked: its ``seq`` must
follow the line before's and its ``prev`` must be that line's SHA-256. The
reader knows nothing of gin rummy; it checks only ``seq`` and ``prev`` and
leaves the rest to the events layer.

Problems go to ``report`` (a function; :func:`read_lines` makes one from an
``errors`` list) and reading goes on: a malformed line is not yielded, but the
next line's ``prev`` is still compared with the malformed line's digest, so
an edited line breaks one link and a deleted line breaks the next line's
``seq`` and link. After a wrong ``seq`` the reader goes on from the line it
read, and takes the next line on either count (the one that line gave, or
the one before it), so one fault is one error: a deleted, repeated or
renumbered line breaks one ``seq``, not every one after it. Lines whose
``seq`` or ``prev`` are wrong are yielded (they parsed) after their errors
are reported. A problem with the file itself (it cannot be opened or read,
it is not a regular file: a plain :class:`~ginlog.errors.StoreError`) is
reported and ends the reading. Given ``warn``, a time earlier than the line
before's is a warning (``time-order``): times of one format (all that ginlog
writes) compare as their bytes, so on the fast path a block's times are
compared in one sort, others through a normal form.

Memory stays flat whatever the file size: a block is at most ``block`` bytes
plus one line, and a line longer than :data:`~ginlog.log.format.MAX_LINE_BYTES`
is hashed as it streams past, not kept.

Given a :class:`~ginlog.log.known.KnownBodies` (:func:`read_runs`), the reader
asks it which lines of each block it already knows and yields those as
:class:`Run`\\ s, unparsed; everything else is read as above.

>>> import io
>>> from ginlog.log.format import encode, digest
>>> first = encode(1, "2026-11-29T19:56:25.123Z", "note", 2, None, {"text": "hi"})
>>> second = encode(2, "2026-11-29T19:56:25.123Z", "note", 2, "0" * 64, {"text": "hi"})
>>> errors = []
>>> [line.seq for line in read_lines(io.BytesIO(first + b"\\n" + second + b"\\n"), errors=errors)]
[1, 2]
>>> [e.one_line()[:60] for e in errors]
['<stdin>:2: event 2: prev does not match the line before: exp']
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import operator
import os
import re
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, BinaryIO, Final, cast

import attrs

from ginlog.caveats import Caveat
from ginlog.errors import GinlogError, IntegrityError, MalformedLine, StoreError, TornTail
from ginlog.log.files import file_error, lock, open_sized
from ginlog.log.format import MAX_LINE_BYTES, MAX_SEQ, Line, parse_line, short_repr, too_long

if TYPE_CHECKING:
    from ginlog.log.events import Event
    from ginlog.log.known import KnownBodies

__all__ = ["BLOCK", "Line", "Run", "Report", "Warn", "Source", "read_lines", "read_runs", "label_of"]

#: Bytes read at a time (and so the lines a :class:`~ginlog.log.known.KnownBodies` checks together).
BLOCK: Final = 1 << 16

#: What a reader reads: a path, or a binary stream (standard input, bytes in memory).
Source = str | os.PathLike[str] | BinaryIO

#: Where the reader sends each problem: raise it to stop, return to read on.
Report = Callable[[GinlogError], None]

#: Where the reader sends each warning (a time earlier than the line before's).
Warn = Callable[[Caveat], None]

_sha256: Final = hashlib.sha256
_hexdigest: Final = operator.methodcaller("hexdigest")
_TORN_SHOWN: Final = 120  # bytes of a too-long torn line kept for its message
#: Short malformed lines already read, and why (a file of garbage repeats itself: "x" a million
#: times was 1,000,000 JSON parses, each failing twice): message and rule, bounded.
_MALFORMED: Final[dict[bytes, tuple[str, str]]] = {}
_MALFORMED_BYTES: Final = 256
_MALFORMED_SIZE: Final = 4096
#: A line's time, loosely (the decoder checks it strictly): the seconds, and the fraction if any.
_TS: Final = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})(?:\.([0-9]{1,6}))?Z").fullmatch


@attrs.frozen
class Run:
    """Consecutive lines as ginlog writes them, each a body already known: checked in bulk, parsed not at all.

    Line ``lineno + i`` holds event ``seq + i``: ``events[i]`` is its event,
    ``digests[i]`` its SHA-256 and ``raws[i]`` its bytes.
    """

    lineno: int
    seq: int
    events: list[Event]
    digests: list[str]
    raws: list[bytes]


def label_of(source: Source, name: str | None = None) -> str:
    """The name errors give ``source``: ``name``, else the path, else ``"<stdin>"``."""
    if name is not None:
        return name
    if isinstance(source, (str, bytes, os.PathLike)):
        return os.fsdecode(source)
    return "<stdin>"


def read_lines(
    source: Source,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
    block: int = BLOCK,
) -> Iterator[Line]:
    """Stream a match file's lines, checking each is a JSON object that continues the chain.

    ``source`` is a path or a binary stream (errors then name it ``name`` or
    ``"<stdin>"``). With ``errors=None`` the first problem is raised; with a
    list, each problem is appended and reading goes on (see the module's
    docstring). A file that cannot be opened or read raises
    :class:`StoreError` (rule ``"file"``) in both modes.

    Errors are raised lazily, when iteration starts::

        errs: list[GinlogError] = []
        lines = list(read_lines("m.jsonl", errors=errs))
        # errs -> [IntegrityError('m.jsonl:7: event 7: prev does not match ... [chain]')]
    """

    def report(err: GinlogError) -> None:
        if errors is None or type(err) is StoreError:
            raise err
        errors.append(err)

    for item in read_runs(source, report, name=name, block=block):
        yield cast(Line, item)  # without known bodies, every item is a Line


def read_runs(
    source: Source,
    report: Report,
    *,
    name: str | None = None,
    known: KnownBodies | None = None,
    block: int = BLOCK,
    warn: Warn | None = None,
) -> Generator[Line | Run, None, None]:
    """The reader, with the known-body fast path if ``known`` is given: parsed :class:`Line`\\ s and :class:`Run`\\ s.

    Every problem goes to ``report``; one with the file itself ends the
    reading after it is reported. Without ``known`` every item is a
    :class:`Line`. Given ``warn``, a line whose time is earlier than the
    line before's is warned of (``time-order``). A path is opened read-only
    and must be a regular file (a FIFO or a device is refused at once,
    without waiting for a writer; a stream is given as a stream); if the
    file seems to end in a torn line the reader waits once for any writer's
    lock, since it can catch a line while another process is still writing
    it, and only what is still torn after that is torn.
    """
    label = label_of(source, name)
    try:
        if isinstance(source, (str, bytes, os.PathLike)):
            fd, size = open_sized(source, label)
            try:  # (read by its descriptor: a file object around it was a few µs of every file an audit reads)
                settle = lambda: lock(fd, label, fcntl.LOCK_SH)  # noqa: E731
                yield from _read(_fd_reader(fd, label, block), label, report, settle, known, warn, size)
            finally:
                os.close(fd)
        else:
            yield from _read(_block_reader(source, label, block), label, report, None, known, warn)
    except StoreError as exc:
        if type(exc) is not StoreError:
            raise  # a problem with a line, raised by ``report``
        report(exc if exc.path is not None else exc.at(path=label))


class _Chain:
    """Where the chain stands (the seq and the link the next line must have, the last time), and the check of one line.

    After a line whose seq is wrong, the next line may follow either that
    line or the count before it (``alt``): a deleted or repeated line, or
    one edited seq, is then one error, not two.
    """

    __slots__ = ("label", "report", "seq", "alt", "prev", "warn", "stamp", "stamp_text", "ts_text")

    def __init__(self, label: str, report: Report, warn: Warn | None = None) -> None:
        self.label = label
        self.report = report
        self.seq = 1
        self.alt: int | None = None  # right after a wrong seq: the seq the count before it gives
        self.prev: str | None = None
        self.warn = warn
        self.stamp: bytes | None = None  # the last time seen, as a sortable key (see _key)
        self.stamp_text = ""  # ... and as the line gave it
        self.ts_text: object = None  # the last ts value of a line read in full (most repeat)

    def line(self, raw: bytes, line_digest: str, lineno: int) -> Line | None:
        """Parse one line and check its envelope; None if it cannot be read (reported)."""
        report, label = self.report, self.label
        try:
            if len(raw) > MAX_LINE_BYTES:
                raise too_long(len(raw))
            bad = _MALFORMED.get(raw)
            if bad is not None:
                raise MalformedLine(bad[0], rule=bad[1])
            data = parse_line(raw)
        except MalformedLine as exc:
            if len(raw) <= _MALFORMED_BYTES and raw not in _MALFORMED:
                if len(_MALFORMED) >= _MALFORMED_SIZE:
                    _MALFORMED.clear()
                _MALFORMED[raw] = (exc.message, exc.rule)
            exc.path, exc.line = label, lineno  # (a new error, ours alone: no copy needed)
            report(exc)
            self.skip(line_digest)
            return None
        expect, alt = self.seq, self.alt
        self.alt = None
        seq = data.get("seq")
        known_seq = seq if type(seq) is int and 0 < seq <= MAX_SEQ else None
        if known_seq is None:
            found = short_repr(seq) if "seq" in data else "no seq"
            report(IntegrityError(f"seq must be a whole number from 1, found {found}", rule="seq", path=label, line=lineno))
            next_seq = expect + 1
        else:
            if known_seq != expect and known_seq != alt:
                report(
                    IntegrityError(
                        f"expected seq {expect}, found {known_seq}: lines were deleted, inserted, repeated or reordered",
                        rule="seq",
                        path=label,
                        line=lineno,
                        seq=known_seq,
                    )
                )
                self.alt = (alt if alt is not None else expect) + 1
            next_seq = known_seq + 1
        prev = self.prev
        if "prev" not in data:
            report(IntegrityError("the line has no prev", rule="chain", path=label, line=lineno, seq=known_seq))
        elif data["prev"] != prev:
            if prev is None:
                msg = f"the first line must have prev null, found {short_repr(data['prev'])}"
            else:
                msg = (
                    f"prev does not match the line before: expected {prev} "
                    f"(SHA-256 of line {lineno - 1}), found {short_repr(data['prev'])}"
                )
            report(IntegrityError(msg, rule="chain", path=label, line=lineno, seq=known_seq))
        self.prev = line_digest
        self.seq = next_seq
        if self.warn is not None:
            ts = data.get("ts")
            if ts != self.ts_text:
                self.ts_text = ts
                m = _TS(ts) if type(ts) is str else None
                if m is not None:
                    self.time(_key(m[1], m[2] or ""), m[0], lineno, known_seq)
        return Line(lineno=lineno, raw=raw, data=data, digest=line_digest)

    def skip(self, line_digest: str) -> None:
        """A line that could not be read: it still holds a seq, and the next line must link to it."""
        self.advance(1, line_digest)

    def advance(self, count: int, last_digest: str) -> None:
        """``count`` lines taken without :meth:`line` (a run of known lines, or one skipped), the last of them with
        ``last_digest``: their seqs counted, and the next line must link to the last."""
        self.prev = last_digest
        self.seq += count
        self.alt = None

    def time(self, key: bytes, text: str, lineno: int, seq: int | None) -> None:
        """Line ``lineno`` was written at ``text`` (``key`` its sortable form): warn if that is before the last time."""
        if self.stamp is not None and key < self.stamp:
            assert self.warn is not None
            self.warn(
                Caveat(
                    "time-order",
                    f"the time {text} is earlier than the line before's, {self.stamp_text}:"
                    " a clock was set back, or lines were moved",
                    path=self.label,
                    line=lineno,
                    seq=seq,
                )
            )
        self.stamp, self.stamp_text = key, text

    def times(self, stamps: list[bytes], lineno: int, seq: int) -> None:
        """Lines ``lineno``... (events ``seq``...) as ginlog writes them, their times ``stamps``: :meth:`time` for each that goes back."""
        first = stamps[0]
        key = first[:23] + b"000"
        if self.stamp is not None and key < self.stamp:
            self.time(key, first.decode(), lineno, seq)
        if stamps != sorted(stamps):  # (times of one format sort as their bytes)
            for i in range(1, len(stamps)):
                if stamps[i] < stamps[i - 1]:
                    self.stamp, self.stamp_text = stamps[i - 1][:23] + b"000", stamps[i - 1].decode()
                    self.time(stamps[i][:23] + b"000", stamps[i].decode(), lineno + i, seq + i)
        last = stamps[-1]
        self.stamp, self.stamp_text = last[:23] + b"000", last.decode()
        self.ts_text = None


def _key(seconds: str, fraction: str) -> bytes:
    """A time as bytes that sort as the times do, whatever the digits of its fraction: ``...:25.123000``."""
    return f"{seconds}.{fraction:0<6}".encode()


def _read(
    read: Callable[[], bytes],
    label: str,
    report: Report,
    settle: Callable[[], None] | None,
    known: KnownBodies | None,
    warn: Warn | None = None,
    size: int | None = None,
) -> Iterator[Line | Run]:
    """The streaming loop behind :func:`read_runs`: blocks in (``read()`` gives the next, b"" at the end), lines
    (and runs) out.

    ``settle`` is called once if the file seems to end in a torn line (see :func:`read_runs`). ``size`` is
    a regular file's size when it was opened: once that much is read and it ends with a line, the file is
    read, without one more read to be told so (it would give b"", or what a writer appended since, which a
    reader may as well have come before). A size of 0 says nothing (procfs gives it for a file with bytes).
    """
    chain = _Chain(label, report, warn)
    lineno = 0
    pending = b""
    stamps: list[bytes] | None = None
    got = 0  # bytes read
    while True:
        data = read()
        got += len(data)
        lines = (pending + data).split(b"\n") if pending else data.split(b"\n")
        pending = lines.pop()  # after the last newline: the start of a line still to come
        if lines:
            first = lineno + 1
            lineno += len(lines)
            digests = list(map(_hexdigest, map(_sha256, lines)))
            if warn is not None:
                stamps = []
            checked = None if known is None else known.check(lines, digests, chain.prev, chain.seq, stamps)
            if checked is None:
                for i, raw in enumerate(lines):
                    line = chain.line(raw, digests[i], first + i)
                    if line is not None:
                        yield line
            elif not checked[1]:  # every line known: the block is one run (what a file as ginlog writes it is)
                if stamps is not None:
                    chain.times(stamps, first, chain.seq)
                yield Run(first, chain.seq, cast("list[Event]", checked[0]), digests, lines)
                chain.advance(len(lines), digests[-1])
            else:
                yield from _runs(chain, lines, digests, checked[0], checked[1], first, stamps)
        if not pending and size and got >= size:  # (a size of 0 says nothing: procfs gives it for a file with bytes)
            return
        if len(pending) > MAX_LINE_BYTES:
            lineno += 1
            rest = _skip_long(read, chain, pending, lineno)
            if rest is None:
                return
            pending = rest
            continue
        if not data:
            if not pending:
                return
            if settle is not None:
                settle()
                settle = None
                continue
            report(_torn_error(len(pending), pending, label, lineno + 1))
            return


def _runs(
    chain: _Chain,
    lines: list[bytes],
    digests: list[str],
    bodies: list[Event | None],
    alone: list[int],
    first: int,
    stamps: list[bytes] | None = None,
) -> Iterator[Line | Run]:
    """A block's lines, given which are known (``bodies[i]`` not None) and which are taken one by one (``alone``,
    in order: unknown, or a seal, a run of its own: a seal is checked with the state before it, never inside a
    run, :mod:`ginlog.match.seals`): runs of known lines, the rest one by one.

    ``stamps`` (when times are watched) are the lines' times as :meth:`KnownBodies.check` found them.
    """
    n = len(lines)
    base = chain.seq
    i = 0  # the first line not yet yielded
    for j in itertools.chain(alone, (n,)):
        if j > i:  # lines i to j - 1 are known
            yield from _known_run(chain, lines, digests, bodies, first, stamps, i, j, base)
        if j < n:
            if bodies[j] is not None:
                yield from _known_run(chain, lines, digests, bodies, first, stamps, j, j + 1, base)
            else:
                line = chain.line(lines[j], digests[j], first + j)
                if line is not None:
                    yield line
        i = j + 1


def _known_run(
    chain: _Chain,
    lines: list[bytes],
    digests: list[str],
    bodies: list[Event | None],
    first: int,
    stamps: list[bytes] | None,
    i: int,
    j: int,
    base: int,
) -> Iterator[Line | Run]:
    """Lines ``i`` to ``j - 1`` of a block, all known: one run, or each parsed if the seqs moved since ``base``."""
    if chain.seq != base + i:  # the seqs moved (an error was reported): those checks no longer hold
        for k in range(i, j):
            line = chain.line(lines[k], digests[k], first + k)
            if line is not None:
                yield line
        return
    if stamps is not None:
        chain.times(stamps[i:j], first + i, chain.seq)
    yield Run(first + i, chain.seq, cast("list[Event]", bodies[i:j]), digests[i:j], lines[i:j])
    chain.advance(j - i, digests[j - 1])


def _fd_reader(fd: int, label: str, block: int) -> Callable[[], bytes]:
    """A function reading the next block of the file open at ``fd``; b"" at the end."""

    def read() -> bytes:
        try:
            return os.read(fd, block)
        except OSError as exc:
            raise file_error(exc, label, "read") from None

    return read


def _block_reader(stream: BinaryIO, label: str, block: int) -> Callable[[], bytes]:
    """A function reading the next block (what has arrived, from a pipe); b"" at the end."""
    read_some: Callable[[int], object] = getattr(stream, "read1", None) or stream.read

    def read() -> bytes:
        try:
            data = read_some(block)
        except OSError as exc:
            raise file_error(exc, label, "read") from None
        if not isinstance(data, bytes):
            raise StoreError(f"{label} must be opened in binary mode", rule="file", path=label)
        return data

    return read


def _skip_long(read: Callable[[], bytes], chain: _Chain, pending: bytes, lineno: int) -> bytes | None:
    """Hash the rest of a too-long line as it streams past, so the chain still holds; what follows it.

    None if the file ends first (a torn line, reported).
    """
    hasher = _sha256(pending)
    total = len(pending)
    start = pending[:_TORN_SHOWN]
    while True:
        more = read()
        if not more:
            chain.report(_torn_error(total, start, chain.label, lineno))
            return None
        end = more.find(b"\n")
        if end >= 0:
            hasher.update(more[:end])
            total += end
            rest = more[end + 1 :]
            break
        hasher.update(more)
        total += len(more)
    chain.report(too_long(total).at(path=chain.label, line=lineno))
    chain.skip(hasher.hexdigest())
    return rest


def _torn_error(size: int, start: bytes, label: str, lineno: int) -> TornTail:
    return TornTail(
        f"the file ends with {size} bytes that are not a complete line (no newline): "
        f"{short_repr(start)}; a write was cut short -- run repair",
        path=label,
        line=lineno,
        detail=size,
    )
