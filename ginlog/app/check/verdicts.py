"""One verdict per file, and one loop over many files: :class:`Verdict`, :class:`Failed`, :func:`verdicts`.

Every command that reads match files says of each the same thing, a
:class:`Verdict` (:meth:`Verdict.of` a report read under
:data:`~ginlog.match.policy.POLICY`): valid or not, the problems kept with
their places, how many there were in all and by rule, the warnings. A file
that could not be read at all (missing, a folder, no match file in a
folder) is the one :class:`Failed` value, whichever command met it.

:func:`verdicts` is the one many-file loop (``audit``, ``stats``,
``export``, the site): it walks the arguments once
(:func:`~ginlog.app.check.paths.iter_paths`), hands each file to a
*reading* -- a plain, picklable function of a path, which is all a worker
process or a cluster needs -- and gives the results back in the order of
the files, through a window of at most ``window`` readings in flight, so a
stream of a million paths is never held. Where the readings run is the
*executor*'s business (:class:`Sequential`, :class:`LocalPool`, or a Dask
cluster's :class:`~ginlog.app.check.cluster.DaskExecutor`, which batches
the paths into tasks and says how many files it wants in flight through its
``window``).

>>> import os, tempfile
>>> from ginlog.match.session import MatchSession
>>> from ginlog.game.rules import preset
>>> folder = tempfile.mkdtemp()
>>> for name in ("b.jsonl", "a.jsonl"):
...     _ = MatchSession.create(os.path.join(folder, name), ("Ann", "Bob"), preset("standard"))
>>> [(os.path.basename(v.path), v.ok) for v in verdicts([folder, os.path.join(folder, "c.jsonl")], verdict_of)]
[('a.jsonl', True), ('b.jsonl', True), ('c.jsonl', False)]
"""

from __future__ import annotations

import collections
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Final, Generic, Protocol, TypeVar

import attrs

from ginlog.errors import GinlogError, one_line, place
from ginlog.match.policy import POLICY, Policy
from ginlog.match.visitors import MatchReport

__all__ = [
    "Verdict", "Failed", "verdict_of", "Pending", "Executor", "Sequential", "LocalPool", "executor_for", "verdicts",
    "STDIN", "MAX_JOBS", "capped_jobs",
]

#: What a file read from standard input is called.
STDIN = "<stdin>"

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


def _count(rules: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for rule in rules:
        counts[rule] = counts.get(rule, 0) + 1
    return dict(sorted(counts.items()))


def _more(counts: dict[str, int], said: Iterable[dict[str, Any]]) -> dict[str, int]:
    out = dict(counts)
    for d in said:
        out[d["rule"]] = out.get(d["rule"], 0) + 1
    return dict(sorted(out.items()))


@attrs.frozen
class Verdict:
    """What every command says of one file: its problems (at most the policy's ``keep``, all counted), its warnings.

    Problems and warnings are kept as their ``--json`` dicts (file, line,
    event, rule, message): small, picklable, the same in every output.

    >>> v = Verdict("m.jsonl", ({"file": "m.jsonl", "line": 3, "event": None, "rule": "json", "message": "bad"},),
    ...             errors_total=5, errors_by_rule={"json": 5})
    >>> v.ok, v.one_line()
    (False, 'm.jsonl:3: bad (and 4 more problems: json 5) [json]')
    """

    path: str
    errors: tuple[dict[str, Any], ...] = ()
    errors_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.errors), takes_self=True))
    errors_by_rule: dict[str, int] = attrs.field(
        default=attrs.Factory(lambda self: _count(e["rule"] for e in self.errors), takes_self=True)
    )
    warnings: tuple[dict[str, Any], ...] = ()
    warnings_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.warnings), takes_self=True))
    warnings_by_rule: dict[str, int] = attrs.field(
        default=attrs.Factory(lambda self: _count(w["rule"] for w in self.warnings), takes_self=True)
    )

    @property
    def ok(self) -> bool:
        return not self.errors_total

    @classmethod
    def of(cls, report: MatchReport) -> Verdict:
        """The verdict of a report read under a policy (:class:`~ginlog.match.visitors.FinalState` or
        :meth:`~ginlog.match.visitors.Steps.report`)."""
        errors, warnings = report.errors, report.warnings
        return cls(
            report.path,
            tuple([e.to_dict() for e in errors]) if errors else (),
            report.errors_total,
            dict(report.errors_by_rule),
            tuple([w.to_dict() for w in warnings]) if warnings else (),
            report.warnings_total,
            dict(report.warnings_by_rule),
        )

    def adding(self, errors: tuple[dict[str, Any], ...] = (), warnings: tuple[dict[str, Any], ...] = ()) -> Verdict:
        """This verdict with more to say of the file, found beyond it (another copy of the match, a name in
        another file): ``errors`` first, ``warnings`` after its own, every count kept true.

        >>> v = Verdict("m.jsonl").adding(warnings=({"file": "m.jsonl", "line": None, "event": None, "rule": "copy", "message": "m"},))
        >>> v.ok, v.warnings_total, v.warnings_by_rule
        (True, 1, {'copy': 1})
        """
        if not errors and not warnings:
            return self
        return Verdict(
            self.path,
            (*errors, *self.errors),
            self.errors_total + len(errors),
            _more(self.errors_by_rule, errors),
            (*self.warnings, *warnings),
            self.warnings_total + len(warnings),
            _more(self.warnings_by_rule, warnings),
        )

    def one_line(self) -> str | None:
        """The first problem in one line (``FILE:LINE: event N: message [rule]``), saying how many more there
        are and of which rules; None for a valid file. What a command that lists no problem shows."""
        if not self.errors:
            return None if self.ok else one_line(place(self.path, None, None), "invalid", "file")
        first = self.errors[0]
        message = first["message"]
        more = self.errors_total - 1
        if more > 0:
            by_rule = ", ".join(f"{k} {v:,}" for k, v in self.errors_by_rule.items())
            message += f" (and {more:,} more problem{'s' if more != 1 else ''}: {by_rule})"
        return one_line(place(first.get("file"), first.get("line"), first.get("event")), message, first["rule"])

    def warning_lines(self) -> list[str]:
        """Each warning kept in one line (``... [rule] (warning)``), then one for those counted but not kept."""
        lines = [
            one_line(place(w.get("file"), w.get("line"), w.get("event")), w["message"], w["rule"], " (warning)")
            for w in self.warnings
        ]
        more = self.warnings_total - len(self.warnings)
        if more > 0:
            lines.append(one_line(place(self.path, None, None), f"{more:,} more warnings not listed", "max-errors"))
        return lines

    def said(self) -> list[str]:
        """What a command that lists no problem says of the file on standard error, one line each: an invalid
        file's :meth:`one_line` (one line, whatever else it holds), else its :meth:`warning_lines`."""
        line = self.one_line()
        return [line] if line is not None else self.warning_lines()

    def to_dict(self) -> dict[str, Any]:
        """The verdict's keys in every ``--json`` that lists files (``audit``, ``validate``, ``stats``)."""
        return {
            "ok": self.ok,
            "errors": list(self.errors),
            "errors_total": self.errors_total,
            "errors_by_rule": self.errors_by_rule,
            "warnings": list(self.warnings),
            "warnings_total": self.warnings_total,
            "warnings_by_rule": self.warnings_by_rule,
        }


@attrs.frozen
class Failed:
    """A file that could not be read at all (missing, a folder, unreadable, a folder holding no match file).

    The one such value, whichever command met it: the walk yields it for a
    path it cannot search, a reading returns it for a file it cannot open.

    >>> from ginlog.errors import StoreError
    >>> f = Failed.of(StoreError("no such file or folder", rule="file"), "m.jsonl")
    >>> f.verdict.ok, f.verdict.one_line()
    (False, 'm.jsonl: no such file or folder [file]')
    """

    verdict: Verdict

    @property
    def path(self) -> str:
        return self.verdict.path

    @property
    def ok(self) -> bool:
        return False

    @classmethod
    def of(cls, err: GinlogError, path: str | None = None) -> Failed:
        where = path or err.path or "?"
        return cls(Verdict(where, (err.at(path=where).to_dict(),)))


def verdict_of(path: str, policy: Policy = POLICY) -> Verdict | Failed:
    """The verdict on one file (``-``: standard input) and nothing else: a reading for :func:`verdicts`."""
    from ginlog.match.reading import FinalState, read

    from ginlog.app.check.sources import opened

    name = STDIN if path == "-" else path
    try:
        with opened(path) as source:  # a path, standard input, or an fsspec URL's bytes
            report = read(source, FinalState(policy=policy), name=name)
    except GinlogError as exc:
        return Failed.of(exc, name)
    return Verdict.of(report)


# --------------------------------------------------------------------------- executors


class Pending(Protocol[R_co]):
    """A reading submitted: :meth:`result` waits for it (a ``concurrent.futures`` or a Dask future is one)."""

    def result(self) -> R_co: ...


class Executor(Protocol):
    """Where readings run: ``submit(reading, path)`` starts one; ``close()`` ends (``cancel``: stops) the rest."""

    def submit(self, reading: Callable[[str], R], path: str) -> Pending[R]: ...

    def close(self, cancel: bool = False) -> None: ...


@attrs.frozen
class _Done(Generic[R]):
    value: R

    def result(self) -> R:
        return self.value


class _Later(Generic[R]):
    """A reading not run yet: run when its result is asked for (the sequential executor runs nothing ahead)."""

    __slots__ = ("_reading", "_path")

    def __init__(self, reading: Callable[[str], R], path: str) -> None:
        self._reading, self._path = reading, path

    def result(self) -> R:
        return self._reading(self._path)


class Sequential:
    """Every reading in this process, one at a time, each when its result is asked for."""

    def submit(self, reading: Callable[[str], R], path: str) -> Pending[R]:
        return _Later(reading, path)

    def close(self, cancel: bool = False) -> None:
        pass


class _Async(Generic[R]):
    __slots__ = ("_async",)

    def __init__(self, result: Any) -> None:
        self._async = result

    def result(self) -> R:
        value: R = self._async.get()
        return value


class LocalPool:
    """``jobs`` worker processes on this machine (``multiprocessing``; fork where there is one).

    The workers ignore Ctrl-C: the interrupt reaches this process alone,
    whose :meth:`close` with ``cancel`` terminates them.
    """

    def __init__(self, jobs: int) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        self._pool = ctx.Pool(jobs, initializer=_ignore_interrupts)

    def submit(self, reading: Callable[[str], R], path: str) -> Pending[R]:
        return _Async(self._pool.apply_async(reading, (path,)))

    def close(self, cancel: bool = False) -> None:
        if cancel:
            self._pool.terminate()
        else:
            self._pool.close()
        self._pool.join()


def _ignore_interrupts() -> None:
    import signal  # (in a worker: the audit of one process never needs it)

    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: The most worker processes a command starts: a few times the CPUs (more only wait, and a huge ``--jobs``
#: would be a fork bomb).
MAX_JOBS: Final = 4 * (os.cpu_count() or 1)


def capped_jobs(jobs: int) -> tuple[int, str | None]:
    """``jobs`` within :data:`MAX_JOBS`, and the line that says so when it was cut.

    >>> capped_jobs(1)
    (1, None)
    >>> n, said = capped_jobs(10**6)
    >>> n == MAX_JOBS and said.startswith("ginlog: --jobs 1000000 is more than")
    True
    """
    if jobs <= MAX_JOBS:
        return jobs, None
    return MAX_JOBS, f"ginlog: --jobs {jobs} is more than {MAX_JOBS} (4 a CPU): using {MAX_JOBS}"


def executor_for(jobs: int) -> Executor:
    """:class:`Sequential` for one job, else a :class:`LocalPool` of ``jobs`` processes."""
    return Sequential() if jobs <= 1 else LocalPool(jobs)


# --------------------------------------------------------------------------- the loop


def verdicts(
    paths: Iterable[Any],
    reading: Callable[[str], R | Failed],
    jobs: int = 1,
    *,
    executor: Executor | None = None,
    window: int | None = None,
    walk: Callable[..., Iterator[str | GinlogError]] | None = None,
) -> Generator[R | Failed, None, None]:
    """Each file the arguments name, read by ``reading``, its result given back in the order of the files.

    ``reading`` must be a module-level function (or a ``functools.partial``
    of one) when the executor is another process. ``jobs`` picks the
    executor unless one is given; ``window`` (default ``4 * jobs``) is how
    many readings may be in flight, and so how many results wait to be
    handed back in order. A path that cannot be searched is a
    :class:`Failed` in its place. Standard input (``-``) is read in this
    process, never by a worker (a worker's standard input is not the
    user's). ``walk`` lists the files (:func:`~ginlog.app.check.paths.iter_paths`
    by default), once; given the executor's ``lister`` if it has one (a cluster's: its workers list URL
    prefixes, so the client needs no access to the store). On any exception, Ctrl-C among them, the executor is
    stopped before it goes on up.
    """
    if walk is None:
        from ginlog.app.check.paths import iter_paths

        walk = iter_paths
    ex = executor if executor is not None else executor_for(jobs)
    # An executor that batches (a cluster's) says how many files it wants in flight; the rest, four a job.
    wanted = window if window is not None else getattr(ex, "window", None)
    size = max(1, wanted if isinstance(wanted, int) else 4 * max(1, jobs))
    waiting: collections.deque[Pending[R | Failed]] = collections.deque()
    done = False
    try:
        lister = getattr(ex, "lister", None)  # a cluster's executor lists URL prefixes on its workers
        for item in walk(paths) if lister is None else walk(paths, lister=lister):
            if isinstance(item, GinlogError):
                waiting.append(_Done(Failed.of(item)))
            elif item == "-" and not isinstance(ex, Sequential):
                waiting.append(_Done(reading(item)))
            else:
                waiting.append(ex.submit(reading, item))
            while len(waiting) >= size:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()
        done = True
    finally:
        ex.close(cancel=not done)
