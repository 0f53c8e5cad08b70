"""A match counted once: which files hold the same match, which of them counts, and in what order they come.

A club's folder fills with copies: a hard link or a symlink, the same file
named twice (absolutely and through its folder, or a folder and a link to
it), a backup made halfway through a match. Standings, the export and the
site must count each match once, whatever its files are called and in
whatever order they were named. So a match is known by its content, not its
path (:attr:`~ginlog.match.dated.DatedReport.identity`: its ``match_id``, or
its first line's SHA-256 for a file written before there were ids), and the
files of one match are its :class:`Copy` values, told apart by their length
and their last line's digest.

Of the valid copies of one match (an invalid file is an error of its own and
is never a copy):

- identical copies (same lines, same last digest) are one: the first by path
  counts, each other is named in a ``copy`` warning;
- a copy whose lines are the first lines of a longer one (an older backup)
  does not count: the longest counts and the shorter is named in a warning;
- copies that differ on some line (a fork, or a tampered copy) are an error
  (rule ``fork``) in each of them, naming the other and the line, and none
  counts: which one is the match is for a person to say.

Which line two copies first differ on is found by reading both again, side
by side (:func:`first_difference`): only for copies of different lengths or
heads, which are rare, and never holding more than two lines. On a Dask
cluster that reading is a worker's task (:func:`differ_for`): the workers read
the store, the client never does.

:class:`Once` collects each file's result as it is read, keeps it on disk (a
private SQLite database: a row a file), and, once every file is in, gives
back the ones that count and the rest, in one order that depends on the
matches' content alone (:func:`content_order`: start time, identity, path),
never on the order of the arguments or of a folder listing. Memory stays flat
in the number of files: only the copies of a match with more than one file
are loaded, to be judged.

>>> copies = [Copy("b.jsonl", "m1", 9, "h9"), Copy("a.jsonl", "m1", 9, "h9"), Copy("c.jsonl", "m2", 3, "h3")]
>>> judged = judge(copies)
>>> [(c.path, judged[c].counts) for c in copies]
[('b.jsonl', False), ('a.jsonl', True), ('c.jsonl', True)]
>>> judged[copies[0]].warnings[0]["message"]
'the same match as a.jsonl (a link or a copy of it): counted once'

"""

from __future__ import annotations

import io
import os
import pickle
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any, Final, Generic, TypeVar

import attrs

from ginlog.app.check.verdicts import STDIN, Verdict  # (standard input cannot be read again: it differs)
from ginlog.errors import GinlogError
from ginlog.log.format import MAX_LINE_BYTES

__all__ = ["Copy", "Judged", "Differ", "judge", "first_difference", "differ_for", "content_order", "Once",
           "counted_once"]

T = TypeVar("T")

#: How two copies are compared: ``differ(a, b, lines)``, the first of lines 1 to ``lines`` on which files ``a``
#: and ``b`` differ, or None (:func:`first_difference`, or it run elsewhere: :func:`differ_for`).
Differ = Callable[[str, str, int], "int | None"]


@attrs.frozen
class Copy:
    """One valid file's claim to be a match: which match (its identity), how many lines, its last line's digest."""

    path: str
    match: str
    lines: int
    head: str
    start: str | None = None


def _said(path: str, rule: str, message: str) -> dict[str, Any]:
    return {"file": path, "line": None, "event": None, "rule": rule, "message": message}


@attrs.frozen
class Judged:
    """What counting once says of one copy: whether it counts, and its warnings or errors (``--json`` dicts)."""

    counts: bool
    warnings: tuple[dict[str, Any], ...] = ()
    errors: tuple[dict[str, Any], ...] = ()


def first_difference(a: str, b: str, lines: int) -> int | None:
    """The first of lines 1 to ``lines`` on which files ``a`` and ``b`` differ, or None if those lines are the same.

    A file that ends (or cannot be read) before ``lines`` differs there. Reads both a line at a time, each line
    at most :data:`~ginlog.log.format.MAX_LINE_BYTES` long (a longer one, from a file changed since it was read,
    is a difference).

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for name, text in (("a", b"1\\n2\\n3\\n"), ("b", b"1\\n2\\n"), ("c", b"1\\nX\\n3\\n")):
    ...     _ = open(os.path.join(d, name), "wb").write(text)
    >>> first_difference(os.path.join(d, "a"), os.path.join(d, "b"), 2), first_difference(os.path.join(d, "a"), os.path.join(d, "c"), 3)
    (None, 2)
    """
    if STDIN in (a, b):
        return 1
    import contextlib

    from ginlog.app.check.sources import opened

    try:
        with contextlib.ExitStack() as stack:
            fa, fb = (_binary(stack, stack.enter_context(opened(p))) for p in (a, b))
            return _first_difference(fa, fb, lines)
    except (OSError, GinlogError):  # (a copy that cannot be opened or read again differs from its first line)
        return 1


def differ_for(executor: object | None) -> Differ:
    """Where a run compares two copies: in this process (:func:`first_difference`), or, given a cluster's
    executor (one that can :meth:`~ginlog.app.check.cluster.DaskExecutor.ask`), on one of its workers, as one
    task given the two paths (or URLs) and the run's storage options: the workers read the store, so the client
    needs no access to it, and a copy the workers can read is never a fork for want of reading it here.

    The answer is the same either way (the same function, reading the same files).
    """
    ask: Callable[..., int | None] | None = getattr(executor, "ask", None)
    if ask is None:
        return first_difference

    def on_a_worker(a: str, b: str, lines: int) -> int | None:
        return ask(first_difference, a, b, lines)

    return on_a_worker


def _binary(stack: Any, source: str | IO[bytes]) -> IO[bytes]:
    """A file to read lines of at most a given length from: ``source`` opened if it is a path; an fsspec file
    buffered by the standard library, whose ``readline`` takes that limit (s3fs's and gcsfs's files take none:
    theirs would read a line of any length, and refuse the limit with a ``TypeError``)."""
    if isinstance(source, str):
        f: IO[bytes] = stack.enter_context(open(source, "rb"))
        return f
    raw: Any = source  # (an fsspec file is an io.IOBase with readinto: the raw stream BufferedReader wants)
    return io.BufferedReader(raw)


def _first_difference(fa: IO[bytes], fb: IO[bytes], lines: int) -> int | None:
    for lineno in range(1, lines + 1):
        la = fa.readline(MAX_LINE_BYTES + 2)
        if not la or la != fb.readline(MAX_LINE_BYTES + 2):
            return lineno
    return None


def judge(copies: Iterable[Copy], differ: Callable[[str, str, int], int | None] = first_difference) -> dict[Copy, Judged]:
    """Each copy's :class:`Judged`: grouped by match, the longest of each group counts if every other copy is the
    same file or its beginning; a group whose copies differ is a ``fork`` in each, and none counts.

    ``differ`` is :func:`first_difference` (the tests give a fake one).
    """
    groups: dict[str, list[Copy]] = {}
    for c in copies:
        groups.setdefault(c.match, []).append(c)
    out: dict[Copy, Judged] = {}
    for group in groups.values():
        if len(group) == 1:
            out[group[0]] = Judged(True)
            continue
        out.update(_judge_group(group, differ))
    return out


def _judge_group(group: list[Copy], differ: Callable[[str, str, int], int | None]) -> dict[Copy, Judged]:
    # The longest first, then by path: which copy counts depends on the files alone.
    group = sorted(group, key=lambda c: (-c.lines, c.path))
    best = group[0]
    verdicts: dict[Copy, Judged] = {best: Judged(True)}
    forks: list[tuple[Copy, int]] = []
    for c in group[1:]:
        if c.lines == best.lines and c.head == best.head:
            verdicts[c] = Judged(False, (_said(c.path, "copy", f"the same match as {best.path} (a link or a copy of it): counted once"),))
            continue
        line = differ(c.path, best.path, c.lines) if c.lines < best.lines else (differ(c.path, best.path, c.lines) or c.lines)
        if line is None:
            verdicts[c] = Judged(False, (_said(
                c.path, "copy",
                f"its {c.lines:,} lines are the first of {best.path}'s {best.lines:,} (an earlier copy of the match): "
                f"{best.path} counts",
            ),))
        else:
            forks.append((c, line))
    if not forks:
        return verdicts
    # A fork anywhere in the group: none of its copies counts, and each is told why.
    first = min(line for _c, line in forks)
    forked = dict(forks)
    names = ", ".join(c.path for c, _line in forks)
    out: dict[Copy, Judged] = {}
    for c in group:
        if c in forked:
            why = f"the same match as {best.path} (match {c.match}), but they differ from line {forked[c]:,}"
        elif c == best:
            why = f"the same match as {names} (match {c.match}), but they differ from line {first:,}"
        else:
            why = f"a copy of {best.path} (match {c.match}), from which {names} differ from line {first:,}"
        out[c] = Judged(False, (), (_said(c.path, "fork", f"{why}: a fork or a tampered copy; none of its copies counts"),))
    return out


def content_order(start: str | None, match: str | None, path: str) -> tuple[str, str, str]:
    """The order results are given in: by start time (a ``ts`` sorts as it reads), then identity, then path;
    a file with none of these (unreadable) first, by its path.

    >>> sorted([content_order("2026-01-02T00:00:00.000Z", "b", "x"), content_order("2026-01-01T00:00:00.000Z", "c", "y"), content_order(None, None, "z")])[0]
    ('', '', 'z')
    """
    return (start or "", match or "", path)


#: The held results: each file's order key (start, identity, path as bytes: a path need not be UTF-8), its
#: copy (lines and head; none for a file that is not a valid match) and its pickled result.
_SCHEMA: Final = """
CREATE TABLE held (n INTEGER PRIMARY KEY, start TEXT NOT NULL, match TEXT NOT NULL, path BLOB NOT NULL,
                   copy INTEGER NOT NULL, lines INTEGER, head TEXT, item BLOB NOT NULL)
"""


class Once(Generic[T]):
    """Results of many files, held on disk until all are in; then each with what counting once says, in order.

    ``add(item, copy, key)``: ``copy`` is None for a file that is not a valid
    match (it is given back as it is); ``key`` is its
    :func:`content_order`. :meth:`results` gives ``(item, judged)`` in that
    order, once. Use as a context manager (the store is deleted at the end).

    *Why SQLite* (the standard library's): what must be held is a row a file
    (its order key, its copy, its pickled result) until the last file is in,
    then sorted and grouped by match. A private on-disk database does both
    with a bounded page cache, so memory stays flat in the number of files
    (a Python index of them took about 700 bytes a file); only the copies of
    a match that has more than one file are ever loaded to be judged.
    """

    def __init__(self, differ: Callable[[str, str, int], int | None] = first_difference) -> None:
        import sqlite3

        self._db = sqlite3.connect("")  # "": a private temporary database on disk, deleted when closed
        for pragma in ("journal_mode=OFF", "synchronous=OFF", "cache_size=-256", "temp_store=FILE"):
            self._db.execute(f"PRAGMA {pragma}")
        self._db.execute(_SCHEMA)
        self._n = 0
        self._differ = differ

    def __enter__(self) -> Once[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self._db.close()

    def add(self, item: T, copy: Copy | None, key: tuple[str, str, str]) -> None:
        start, match, path = key
        data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
        self._db.execute(
            "INSERT INTO held (start, match, path, copy, lines, head, item) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (start, match, os.fsencode(path), copy is not None, None if copy is None else copy.lines,
             None if copy is None else copy.head, data),
        )
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def results(self) -> Iterator[tuple[T, Judged]]:
        db = self._db
        judged: dict[int, Judged] = {}
        many = db.execute("SELECT match FROM held WHERE copy GROUP BY match HAVING count(*) > 1").fetchall()
        for (match,) in many:
            rows = db.execute("SELECT n, path, lines, head, start FROM held WHERE copy AND match = ?", (match,)).fetchall()
            copies = {n: Copy(os.fsdecode(path), match, lines, head, start or None) for n, path, lines, head, start in rows}
            verdicts = judge(copies.values(), self._differ)
            judged.update((n, verdicts[c]) for n, c in copies.items())
        alone = Judged(True)
        for n, data in db.execute("SELECT n, item FROM held ORDER BY start, match, path, n"):
            item: T = pickle.loads(data)
            yield item, judged.get(n, alone)


def counted_once(
    items: Iterable[T],
    parts: Callable[[T], tuple[Verdict, Copy | None]],
    differ: Callable[[str, str, int], int | None] = first_difference,
) -> Iterator[tuple[T, Verdict, bool]]:
    """Each item (one file's result), once all are in, in :func:`content_order`, with its verdict (counting
    once's warnings and errors added) and whether it counts.

    ``parts(item)`` is the item's verdict and its :class:`Copy` (None: not a valid match, given back as it is).
    The items are held on disk (pickled, in :class:`Once`'s database), not in memory, until the last is in.
    """
    with Once[T](differ) as held:
        for item in items:
            verdict, copy = parts(item)
            copy = copy if verdict.ok else None
            held.add(item, copy, content_order(copy.start, copy.match, copy.path) if copy else content_order(None, None, verdict.path))
        for item, judged in held.results():
            verdict = parts(item)[0].adding(judged.errors, judged.warnings)
            yield item, verdict, judged.counts and verdict.ok
