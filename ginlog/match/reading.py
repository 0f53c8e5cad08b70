"""Reading a match file: one driver, :func:`read`, and visitors that decide what the reading makes.

In the manner of python-chess's PGN reader (``read_game(handle, Visitor=...)``),
the driver does the reading and a *visitor* builds the result. The driver
streams the file's lines (:func:`ginlog.log.reader.read_runs`: the hash
chain and the seqs checked), turns each line into its event
(:class:`ginlog.log.events.LineDecoder`), remembers new bodies in the
:class:`~ginlog.log.known.KnownBodies` given (the fast path: lines whose body
it knows come as runs of events, never parsed) and hands everything to the
visitor. What a problem does -- raise, or be kept while reading goes on --
is the visitor's decision, not the driver's.

ginlog's visitors (:mod:`ginlog.match.visitors`, all importable from here):
:class:`FinalState` (the state at the end, through the snapshotting
:class:`~ginlog.play.reducer.Fold`: :func:`read_match`), :class:`Steps` (the
state after every event, for replays, ``show --at`` and viewers:
:func:`iter_steps`) and :class:`Chain` (the hash chain and the seqs alone, no
rules: an audit of the record itself).

The visitor protocol (subclass :class:`Visitor`; every hook has a default):

``begin(label)``
    Reading starts; ``label`` is the name errors give the file.
``event(lineno, seq, event, digest) -> T | None``
    Line ``lineno`` holds event ``seq``, and its SHA-256 is ``digest``. A value
    returned is handed out by :func:`walk`.
``run(lineno, seq, events, digests) -> Iterable[T]``
    Consecutive lines, ``events[i]`` being event ``seq + i`` on line
    ``lineno + i``: the fast path's unit. By default, :meth:`Visitor.event`
    for each; a visitor may take them in one loop.
``raw(lineno, raws)``
    Only for a visitor whose ``raw_lines`` is True: the bytes of the lines
    whose events come next (a run's, or one line's), for the envelope's time
    (:mod:`ginlog.match.dated`). The one hook for more of a line than its
    event; a visitor without it costs the driver one test per item.
``unreadable(lineno, seq, err)``
    The line's event could not be made (an unknown type, a bad field). By
    default, :meth:`Visitor.error`.
``line(lineno, seq, digest)``
    For a visitor whose ``decodes`` is False instead of the three above: a
    line that continues the chain; its event is never made.
``error(err)``
    A problem, its place filled in. By default the visitor's policy: raise it
    (``errors=None``) or count it, append it to ``errors`` and read on
    (``limit``: stop once that many are kept; ``keep``: keep that many, count
    on). A problem with the record itself is a break: the rules broken after
    it (``illegal``) are one cascade, reported as one error.
``illegal(err)``
    An event breaks a rule of play (for the visitor to call from ``event``).
``warning(caveat)``
    Something the record does not let ginlog verify
    (:class:`~ginlog.caveats.Caveat`); kept if the visitor has a ``warnings``
    list, and only then does the reader look for times that go back.
``end() -> R``
    Reading is over (to the end, to ``upto``, or stopped); the result of :func:`read`.

Any hook may raise :class:`Stop` to end the reading (``end()`` is still called).

A visitor counting the events of each type, and its result:

>>> import io
>>> from ginlog.game.rules import preset
>>> from ginlog.log.events import SCHEMA_VERSION, event_fields, event_type
>>> from ginlog.log.format import digest, encode
>>> from ginlog.play.simulate import simulate_match
>>> lines, prev = [], None
>>> for seq, ev in enumerate(simulate_match(preset("standard"), seed=1, max_hands=1), start=1):
...     raw = encode(seq, "2026-11-29T19:56:25.123Z", event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
...     lines.append(raw + b"\\n")
...     prev = digest(raw)
>>> class Count(Visitor[None, dict[str, int]]):
...     def __init__(self) -> None:
...         super().__init__()
...         self.counts: dict[str, int] = {}
...     def event(self, lineno, seq, event, digest):
...         self.counts[event_type(event)] = self.counts.get(event_type(event), 0) + 1
...     def end(self):
...         return self.counts
>>> counts = read(io.BytesIO(b"".join(lines)), Count())
>>> counts["match_started"], counts["hand_dealt"]
(1, 1)
>>> report = read(io.BytesIO(b"".join(lines)), FinalState())
>>> report.ok, report.lines == len(lines), len(report.state.hands)
(True, True, 1)
"""

from __future__ import annotations

import gc
from collections.abc import Generator, Iterator
from typing import Any, Final, TypeVar, cast

from ginlog.errors import GinlogError
from ginlog.log.events import LineDecoder, MatchStarted, Seal
from ginlog.log.known import KnownBodies
from ginlog.log.reader import BLOCK, Line, Run, Source, label_of, read_runs
from ginlog.log.versioning import first_line_tool, from_newer
from ginlog.match.visitors import Chain, ChainReport, FinalState, MatchReport, Step, Steps, Stop, Visitor

__all__ = [
    "SHARED",
    "Stop",
    "Visitor",
    "FinalState",
    "Steps",
    "Chain",
    "Step",
    "MatchReport",
    "ChainReport",
    "read",
    "walk",
    "read_match",
    "iter_steps",
]

T = TypeVar("T")
R = TypeVar("R")

#: The known bodies every reading shares unless told otherwise: events are
#: values and depend on nothing but a line's body, so any file may reuse them.
SHARED: Final = KnownBodies()


# --------------------------------------------------------------------------- the driver


def read(
    source: Source,
    visitor: Visitor[Any, R],
    *,
    known: KnownBodies | None = SHARED,
    name: str | None = None,
    upto: int | None = None,
    block: int = BLOCK,
) -> R:
    """Read ``source`` (a path or a binary stream) through ``visitor``; return what its ``end()`` makes.

    ``known`` is the fast path (None: every line parsed the plain way);
    ``name`` what errors call the file; ``upto`` the last line handed to the
    visitor (the reading stops at the line after it, which is read too: a
    problem there is reported); ``block`` the bytes read at a time.

    CPython's cyclic garbage collector is paused meanwhile: a replay makes
    many small objects that form no cycles (reference counting frees them)
    and some that live long (the score sheet), and the collector kept
    rescanning those, about a sixth of a long replay's time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        steps = walk(source, visitor, known=known, name=name, upto=upto, block=block)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return cast(R, done.value)
    finally:
        if enabled:
            gc.enable()


def walk(
    source: Source,
    visitor: Visitor[T, R],
    *,
    known: KnownBodies | None = SHARED,
    name: str | None = None,
    upto: int | None = None,
    block: int = BLOCK,
) -> Generator[T, None, R]:
    """:func:`read` as a generator of what the visitor hands out (a :class:`Steps` visitor's steps).

    Nothing happens until iteration starts; the generator's return value is
    the visitor's ``end()``.
    """
    label = label_of(source, name)
    visitor.begin(label)
    warn = visitor.warning if visitor.warnings is not None else None
    items = read_runs(source, visitor.error, name=label, known=known, block=block, warn=warn)
    try:
        if visitor.decodes:
            yield from _events(items, visitor, known, upto)
        else:
            _lines(items, visitor, upto)
    except Stop:
        pass
    finally:
        items.close()
    return visitor.end()


def _events(
    items: Iterator[Line | Run], visitor: Visitor[T, Any], known: KnownBodies | None, upto: int | None
) -> Iterator[T]:
    decode = LineDecoder()
    label = visitor.label
    tool: str | None = None  # the first line's: names the file's writer in an error (versioning.from_newer)
    first = True
    raw = visitor.raw if visitor.raw_lines else None
    for item in items:
        if isinstance(item, Run):
            lineno = item.lineno
            if first:  # the first line read off its bytes (ginlog.log.known): its tool, as first_line_tool gives it
                first, head = False, item.events[0]
                tool = head.tool if isinstance(head, MatchStarted) else None
            if raw is not None:
                raw(lineno, item.raws)
            if type(item.events[0]) is Seal:  # a seal read off its bytes comes alone (KnownBodies.alone): an event
                if upto is not None and lineno > upto:
                    return
                out = visitor.event(lineno, item.seq, item.events[0], item.digests[0])
                if out is not None:
                    yield out
                continue
            if upto is not None and lineno + len(item.events) > upto + 1:  # the run goes past upto
                if lineno > upto:
                    return
                n = upto + 1 - lineno
                yield from visitor.run(lineno, item.seq, item.events[:n], item.digests[:n])
                return  # the line after upto is in this run, and sound
            yield from visitor.run(lineno, item.seq, item.events, item.digests)
            continue
        lineno = item.lineno
        if upto is not None and lineno > upto:
            return
        seq = item.seq
        if seq is None:
            continue  # the reader has already reported the missing or bad seq
        if first:
            first, tool = False, first_line_tool(item.data)
        if raw is not None:
            raw(lineno, (item.raw,))
        try:
            event = decode(item.data)
        except GinlogError as exc:
            visitor.unreadable(lineno, seq, from_newer(exc, tool).at(path=label, line=lineno, seq=seq))
            continue
        if known is not None:
            known.learn(item.raw, event)
        out = visitor.event(lineno, seq, event, item.digest)
        if out is not None:
            yield out


def _lines(items: Iterator[Line | Run], visitor: Visitor[Any, Any], upto: int | None) -> None:
    line = visitor.line
    for item in items:
        if isinstance(item, Run):
            for i, digest in enumerate(item.digests):
                if upto is not None and item.lineno + i > upto:
                    return
                line(item.lineno + i, item.seq + i, digest)
            continue
        if upto is not None and item.lineno > upto:
            return
        seq = item.seq
        if seq is not None:
            line(item.lineno, seq, item.digest)


# --------------------------------------------------------------------------- the app's two readings


def read_match(
    source: Source,
    *,
    collect: bool = False,
    keep: int | None = None,
    name: str | None = None,
    upto: int | None = None,
    anchor: str | None = None,
    known: KnownBodies | None = SHARED,
    block: int = BLOCK,
) -> MatchReport:
    """Read a whole match file into its final state: :func:`read` with a :class:`FinalState`.

    ``collect=True`` gathers every problem into the report instead of
    raising, and every warning (what the record does not let ginlog verify);
    ``keep`` caps how many of each are kept (all are counted:
    ``errors_total``, ``errors_by_rule``...). ``anchor`` is a head hash the
    user kept, or its first 12 hex digits or more: the file must still end
    there (or continue from it), which catches lines cut off the end.
    ``known=None`` turns the fast path off.
    """
    visitor = FinalState([] if collect else None, keep=keep, warnings=[] if collect else None, anchor=anchor)
    return read(source, visitor, known=known, name=name, upto=upto, block=block)


def iter_steps(
    source: Source,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
    upto: int | None = None,
    known: KnownBodies | None = SHARED,
    block: int = BLOCK,
) -> Iterator[Step]:
    """Stream the steps of a match: (line, event, state after it): :func:`walk` with :class:`Steps`.

    With ``errors=None`` the first problem is raised, with its place. With a
    list, problems are appended and reading goes on where that makes sense:
    a line that cannot be read or an illegal event is skipped (the state stays
    as it was), so one bad line does not hide the rest. ``upto`` stops after
    that many lines (replay to event N).
    """
    return walk(source, Steps(errors), known=known, name=name, upto=upto, block=block)
