"""The many-file loop on a Dask cluster: :class:`DaskExecutor`, the executor behind ``--scheduler``.

:func:`~ginlog.app.check.verdicts.verdicts` hands an executor one path at a
time and asks for the results in the order of the files. A Dask task costs
about 4.7 ms of the scheduler's and the worker's CPU, as much as auditing a
small file, so one file a task would triple an audit's cost: here the paths
are gathered into *batches* (:data:`FILES_PER_TASK` a task), each batch is
one task (:func:`run_batch`: the same plain reading, file after file, on the
worker), and each path's :class:`Pending` is its place in its batch's
result. What comes back is only the small per-file results (a verdict, a
stats summary, a file's rows), never a match.

The loop's window is counted in files; this executor asks for
``tasks_ahead`` batches of files in flight (:attr:`DaskExecutor.window`),
so the client holds at most that many small results, however many files.
A worker that dies mid-task is Dask's business: the scheduler runs its task
again elsewhere, and since a task's result is taken once, each file is
counted once. A worker whose ginlog is not the client's version says so
once (:class:`ClusterError`, the run stops): two versions could give the same
file two verdicts. :meth:`close` with ``cancel`` (Ctrl-C, an error) cancels
what is still queued on the cluster.

What else a run must know of the store is asked of a worker too, as one small
task waited for (:meth:`DaskExecutor.ask`): a folder's listing
(:class:`DaskLister`), and, once every file is in, where two copies of one
match first differ (counting a match once compares copies of different
lengths line by line: :func:`~ginlog.app.data.copies.differ_for`). So the
client never opens the store, and needs neither its network nor its
credentials. For that last question the connection outlives the loop: an
executor made ``lasting`` (as the commands make theirs) keeps it when the loop
ends, until it is closed with ``cancel`` (the command's end, an error).

The client keeps no log of the messages it sends the scheduler
(:data:`CLIENT_MESSAGE_LOG`): Dask's keeps the last 1,000 batches of them,
each task's paths among them, which is what grew the client's memory with the
number of files; a local cluster (``--scheduler local``) is started under the
same setting, as its scheduler lives in the command's process.

``distributed`` is imported only here, and only when a command is given
``--scheduler`` (:func:`connect`): a command without it never touches Dask.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

import attrs

from ginlog.app.check.sources import MissingExtra, Storage, Unlistable, list_here, using
from ginlog.errors import GinlogError

__all__ = [
    "FILES_PER_TASK", "ClusterError", "Mismatch", "run_batch", "list_task", "call_task", "DaskLister", "DaskExecutor",
    "connect", "INSTALL", "CLIENT_MESSAGE_LOG",
]

R = TypeVar("R")

#: Files a task reads, unless told otherwise: 200 keeps Dask's cost near 1% of small files' audit.
FILES_PER_TASK: Final = 200

#: How many of its batches of messages to the scheduler the client keeps for a developer to look at
#: (``distributed.admin.low-level-log-length``, 1,000 by default, each batch under 1 MB kept whole): none.
#: A batch that submits a task holds the task's pickled paths, so Dask's 1,000 grew the client by about 60 bytes
#: a file (measured to 100,000 files, ``docs/PERFORMANCE.md``) until full, and would hold up to 1,000 times a
#: task's paths with a larger ``--files-per-task``: memory the run never reads again.
CLIENT_MESSAGE_LOG: Final = 0

#: The one line a missing extra gets.
INSTALL: Final = "--scheduler needs Dask: pip install 'ginlog[dask]' (on the workers too)"


class ClusterError(GinlogError):
    """The cluster, not a file, is the problem: it cannot be reached, a worker's ginlog differs, a task failed."""

    default_rule = "cluster"


@attrs.frozen
class Mismatch:
    """What a worker sends back instead of results when its ginlog is not the version the client asked for."""

    version: str
    where: str


def run_batch(reading: Callable[[str], R], paths: tuple[str, ...], storage: Storage, version: str) -> list[R] | Mismatch:
    """One task: each of ``paths`` read by ``reading`` on this worker, with ``storage``'s options for URLs, in order.

    ``version`` is the client's ginlog: a worker with another one reads nothing (:class:`Mismatch`).
    """
    if (mismatch := _mismatch(version)) is not None:
        return mismatch
    with using(storage):
        return [reading(p) for p in paths]


def _mismatch(version: str) -> Mismatch | None:
    """What this worker says when its ginlog is not ``version`` (None: it is)."""
    from ginlog import __version__

    if __version__ == version:
        return None
    import socket

    return Mismatch(__version__, f"{socket.gethostname()} (pid {os.getpid()})")


def list_task(op: str, arg: str, storage: Storage, version: str) -> Any:
    """One listing question (:class:`~ginlog.app.check.sources.Lister`) answered on a worker: the answer, a
    :class:`Mismatch`, or ``("unlistable", why)`` where the store says no (that place's error, as locally)."""
    if (mismatch := _mismatch(version)) is not None:
        return mismatch
    with using(storage):
        try:
            return list_here(op, arg)
        except Unlistable as exc:
            return ("unlistable", str(exc))


def call_task(fn: Callable[..., R], args: tuple[Any, ...], storage: Storage, version: str) -> R | Mismatch:
    """``fn(*args)`` on a worker, with ``storage``'s options for URLs (:meth:`DaskExecutor.ask`), or a
    :class:`Mismatch`. ``fn`` must be a module-level function (it is pickled by name)."""
    if (mismatch := _mismatch(version)) is not None:
        return mismatch
    with using(storage):
        return fn(*args)


class DaskLister:
    """A :class:`~ginlog.app.check.sources.Lister` whose questions are tasks: the workers list the store.

    One task a folder (a listing is one request of up to 1,000 keys on S3, a few ms of Dask's time a task):
    the client holds one folder's names at a time, as the local walk does, and never opens the store itself,
    so it needs neither the store's network nor its credentials.
    """

    def __init__(self, owner: DaskExecutor) -> None:
        self._owner = owner

    def _ask(self, op: str, arg: str) -> Any:
        value = self._owner._call("list", list_task, op, arg)
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "unlistable":
            raise Unlistable(value[1])
        return value

    def glob(self, url: str) -> list[str]:
        result: list[str] = self._ask("glob", url)
        return result

    def is_dir(self, url: str) -> bool:
        return bool(self._ask("is_dir", url))

    def ls(self, name: str) -> list[tuple[str, bool]]:
        result: list[tuple[str, bool]] = self._ask("ls", name)
        return result


class _Batch(Generic[R]):
    """A batch of paths: gathered until it is full (or its first result is asked for), then one task."""

    __slots__ = ("owner", "reading", "paths", "future", "values")

    def __init__(self, owner: DaskExecutor, reading: Callable[[str], R]) -> None:
        self.owner = owner
        self.reading = reading
        self.paths: list[str] = []
        self.future: Any = None
        self.values: list[R] | None = None

    def result(self, index: int) -> R:
        if self.values is None:
            if self.future is None:
                self.owner._send(self)
            self.values = self.owner._gather(self)
        return self.values[index]


class _Slot(Generic[R]):
    """One path's place in its batch: the loop's :class:`~ginlog.app.check.verdicts.Pending`."""

    __slots__ = ("batch", "index")

    def __init__(self, batch: _Batch[R], index: int) -> None:
        self.batch, self.index = batch, index

    def result(self) -> R:
        return self.batch.result(self.index)


class DaskExecutor:
    """Readings run on a Dask cluster through ``client``, :data:`FILES_PER_TASK` files a task.

    ``cluster``: a cluster this executor started (``--scheduler local``), closed with it. ``storage``: the
    options URLs are opened with on the workers. ``version``: the ginlog every worker must have (this one's).
    ``tasks_ahead``: batches in flight (default: twice the workers, at least 4). ``lasting``: the loop's
    :meth:`close` (without ``cancel``: every file is in) leaves the connection open for :meth:`ask`, until a
    :meth:`close` with ``cancel``; else that first close ends it.
    """

    def __init__(
        self,
        client: Any,
        *,
        cluster: Any = None,
        files_per_task: int = FILES_PER_TASK,
        tasks_ahead: int | None = None,
        storage: Storage = Storage(),
        version: str | None = None,
        lasting: bool = False,
    ) -> None:
        from ginlog import __version__

        self._client = client
        self._cluster = cluster
        self._size = max(1, files_per_task)
        if tasks_ahead is None:
            try:
                workers = len(client.scheduler_info().get("workers", {}))
            except Exception:
                workers = 1
            tasks_ahead = max(4, 2 * workers)
        self._ahead = max(1, tasks_ahead)
        self._storage = storage
        self._version = __version__ if version is None else version
        self._open: _Batch[Any] | None = None
        self._sent: dict[int, _Batch[Any]] = {}
        self._run = uuid.uuid4().hex[:12]
        self._count = itertools.count()
        self._lasting = lasting
        self._closed = False

    @property
    def lister(self) -> DaskLister:
        """Lists URL prefixes on the workers (the loop's walk asks it: :func:`~ginlog.app.check.verdicts.verdicts`)."""
        return DaskLister(self)

    def _call(self, kind: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args, storage, version)`` as one task, waited for (a listing: small, and needed before the next)."""
        if self._closed:
            raise ClusterError("the run's connection to the cluster is closed: nothing more can be asked of it")
        key = f"ginlog-{kind}-{self._run}-{next(self._count)}"
        return self._taken(self._client.submit(fn, *args, self._storage, self._version, key=key, pure=False))

    def ask(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` run once on a worker, with the run's storage options, and waited for: a small question
        only a place that can read the store should answer (where two copies of a match first differ), so that
        the client never reads it. ``fn`` must be a module-level function and its answer small.

        Raises :class:`ClusterError` if the task fails, a worker's ginlog differs, or the executor is closed
        (a ``lasting`` one stays open after the loop for this)."""
        value: R = self._call("ask", call_task, fn, args)
        return value

    @property
    def window(self) -> int:
        """How many files the loop may have in flight: ``tasks_ahead`` batches' worth."""
        return self._size * self._ahead

    def submit(self, reading: Callable[[str], R], path: str) -> _Slot[R]:
        batch = self._open
        if batch is None or batch.reading is not reading:
            if batch is not None:
                self._send(batch)
            batch = self._open = _Batch(self, reading)
        batch.paths.append(path)
        slot: _Slot[R] = _Slot(batch, len(batch.paths) - 1)
        if len(batch.paths) >= self._size:
            self._send(batch)
        return slot

    def _send(self, batch: _Batch[Any]) -> None:
        if batch.future is not None:
            return
        if self._open is batch:
            self._open = None
        key = f"ginlog-batch-{self._run}-{next(self._count)}"
        batch.future = self._client.submit(
            run_batch, batch.reading, tuple(batch.paths), self._storage, self._version, key=key, pure=False
        )
        self._sent[id(batch)] = batch

    def _gather(self, batch: _Batch[R]) -> list[R]:
        try:  # (on the cluster until taken: a Ctrl-C while waiting cancels it with the rest)
            results: list[R] = self._taken(batch.future)
        finally:
            self._sent.pop(id(batch), None)
            batch.future = None
        return results

    def _taken(self, future: Any) -> Any:
        """A task's value, taken once (the future released), or the one error that says why there is none."""
        try:
            value = future.result()
        except GinlogError:
            raise
        except Exception as exc:  # a task that failed on the cluster (a worker that cannot import ginlog, killed too often)
            raise ClusterError(_task_failed(exc)) from None
        finally:
            try:
                future.release()
            except Exception:
                pass
        if isinstance(value, Mismatch):
            raise ClusterError(
                f"a worker has ginlog {value.version}, this client {self._version} ({value.where}): "
                "install the same version on every worker"
            )
        return value

    def close(self, cancel: bool = False) -> None:
        """End the run: with ``cancel``, what is still on the cluster is cancelled; the connection is closed and a
        cluster of our own shut, except by a ``lasting`` executor's close without ``cancel`` (the loop's, every
        file in: :meth:`ask` may follow). Once: a later call does nothing."""
        if self._closed:
            return
        if self._lasting and not cancel:
            self._open = None  # (the loop took every result: nothing is queued)
            return
        self._closed = True
        try:
            if cancel:
                futures = [b.future for b in self._sent.values() if b.future is not None]
                if futures:
                    try:
                        self._client.cancel(futures, force=True)
                    except Exception:
                        pass
            self._sent.clear()
            self._open = None
        finally:
            try:
                self._client.close()
            finally:
                if self._cluster is not None:
                    self._cluster.close()


def _task_failed(exc: BaseException) -> str:
    name = type(exc).__name__
    text = " ".join(str(exc).split())[:300]
    if name in ("ModuleNotFoundError", "ImportError") or "ginlog" in text and "No module" in text:
        return f"the workers cannot run ginlog ({text}): install ginlog[dask] on every worker"
    if name == "KilledWorker":
        return f"a task's workers died too often ({text}): the cluster gave it up"
    return f"a task failed on the cluster: {name}: {text}"


def connect(
    scheduler: str, *, jobs: int = 1, storage: Storage = Storage(), files_per_task: int = FILES_PER_TASK,
    lasting: bool = False,
) -> DaskExecutor:
    """A :class:`DaskExecutor` on the scheduler at ``scheduler`` (``tcp://host:8786``), or, for ``local``, on a
    ``LocalCluster`` of ``jobs`` worker processes on this machine (one thread each, listening on 127.0.0.1 only);
    ``lasting``: see :class:`DaskExecutor`. Its client keeps no log of its messages (:data:`CLIENT_MESSAGE_LOG`).

    Raises :class:`~ginlog.app.check.sources.MissingExtra` (:data:`INSTALL`) without Dask, :class:`ClusterError`
    when the scheduler cannot be reached.
    """
    try:
        import dask
        import distributed
    except ImportError:
        raise MissingExtra(INSTALL) from None
    import logging

    # Dask logs to standard error on its own; a command says what matters in its own lines.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster: Any = None
    local: Any = distributed.LocalCluster  # (distributed's constructors are untyped)
    client_of: Any = distributed.Client
    try:
        # (read when the client's connection is made and when a local cluster's scheduler starts: the client's log
        # of its messages, and the in-process scheduler's of its transitions and batches, which grow with the tasks
        # in this process; a remote cluster's own logs are its own)
        with dask.config.set({"distributed.admin.low-level-log-length": CLIENT_MESSAGE_LOG}):
            if scheduler == "local":
                cluster = local(
                    n_workers=max(1, jobs), threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, silence_logs=logging.ERROR,
                )
            if cluster is not None:
                client = client_of(cluster, set_as_default=False)
            else:
                client = client_of(scheduler, timeout=_timeout(), set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        where = "start a local cluster" if scheduler == "local" else f"reach the scheduler at {scheduler}"
        raise ClusterError(f"cannot {where}: {' '.join(str(exc).split())[:200]}") from None
    return DaskExecutor(client, cluster=cluster, storage=storage, files_per_task=files_per_task, lasting=lasting)


def _timeout() -> str:
    return os.environ.get("GINLOG_SCHEDULER_TIMEOUT", "10s")
