"""The ``ginlog`` executable run as a forked child of the test process: the same ``main()``, the same standard
streams, environment, folder and exit status, without paying the interpreter's start and ginlog's imports again.

*Why:* hundreds of tests run the real command line, and each run cost about 0.2 CPU-seconds of start-up
(the interpreter, attrs, cattrs, Typer, rich), most of the default run's budget. A fork of this process,
which has imported all of that already, costs a few milliseconds. What a fresh interpreter would see
differently falls back to a real subprocess: interpreter flags (``-X importtime``), an environment that the
interpreter reads only at start (``PYTHON*``, the locale; but ``PYTHONIOENCODING``, which the child applies to
its standard streams as the interpreter does), or other threads alive in this process (a browser session: a
fork copies one thread only). The child's CPU is the test process's child's, so the printed
budget counts it as before.
"""

from __future__ import annotations

import gc
import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence

__all__ = ["can_fork", "run_forked", "spawn_forked", "fake_clock", "Forked"]

_START_ONLY = ("PYTHON", "LC_", "LANG")
#: Of those, what the child does as a fresh interpreter would (:func:`_child`): the standard streams' encoding.
_HONOURED = frozenset({"PYTHONIOENCODING"})


def can_fork(env: Mapping[str, str]) -> bool:
    """Whether a fork would see what a fresh ``ginlog`` process sees (see the module's docstring)."""
    if threading.active_count() != 1 or not hasattr(os, "fork"):
        return False
    for key in set(env) ^ set(os.environ) | {k for k in env if env.get(k) != os.environ.get(k)}:
        if key.startswith(_START_ONLY) and key not in _HONOURED:
            return False
    return True


class Forked:
    """A forked ``ginlog`` run, as much of :class:`subprocess.Popen` as the tests use (``poll``, ``wait``,
    ``kill``, ``returncode``, ``pid``)."""

    def __init__(self, pid: int, argv: Sequence[str]) -> None:
        self.pid, self.args = pid, list(argv)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            done, raw = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(raw)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            time.sleep(0.002)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)


def spawn_forked(argv: Sequence[str], *, stdin: int, stdout: int, stderr: int, env: Mapping[str, str],
                 cwd: str | os.PathLike[str] | None, close: Sequence[int] = (),
                 prepare: Callable[[], None] | None = None) -> Forked:
    """Start ``ginlog ARGV`` in a forked child whose standard streams are these descriptors (a pipe, a file, a
    pseudo-terminal's end); ``close``: descriptors the child must not keep (the parent's ends); ``prepare``: run
    in the child once its descriptors are in place (a new session, a standard stream closed, a clock faked)."""
    _warm(argv[1] if len(argv) > 1 else None)
    gc.freeze()  # the child's collector never walks this process's objects (see _warm); this one's, at once again
    try:
        pid = os.fork()
    except BaseException:
        gc.unfreeze()
        raise
    if pid != 0:
        gc.unfreeze()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            for target, fd in enumerate((stdin, stdout, stderr)):
                if fd != target:
                    os.dup2(fd, target)
            for fd in {stdin, stdout, stderr, *close} - {0, 1, 2}:
                try:
                    os.close(fd)
                except OSError:
                    pass
            if prepare is not None:
                prepare()
            code = _child(argv, env, cwd)
        finally:
            os._exit(code)
    return Forked(pid, argv)


def fake_clock(ns: int) -> None:
    """In a forked child: ``time.time_ns`` reads ``ns``, also where ginlog's modules (imported before the fork) hold
    the real one, as a name or a default argument; what a fresh process whose clock reads ``ns`` sees."""
    real = time.time_ns

    def fake() -> int:
        return ns

    time.time_ns = fake
    for name, mod in list(sys.modules.items()):
        if name.split(".")[0] != "ginlog":
            continue
        for attr, value in list(vars(mod).items()):
            if value is real:
                setattr(mod, attr, fake)
            elif callable(value) and getattr(value, "__defaults__", None):
                if any(d is real for d in value.__defaults__):
                    value.__defaults__ = tuple(fake if d is real else d for d in value.__defaults__)


def _warm(only: str | None) -> None:
    """Make here, once, what every child would make again: the click command (``ginlog.app.cli.command``, about
    40 ms of a child's CPU), for the command the child's line names (``main`` registers that command alone) and
    for the whole app (the in-process runs').

    *Why the freeze around the fork:* a child's first collection of the oldest generation walks every object this
    process holds, and so writes to (copies) every page of its heap: 20 to 60 ms of CPU in a child of a test
    process that has run a thousand tests. Frozen, the child's collector sees only what the child makes; this
    process unfreezes them at once, so its own collections are as before.
    """
    from ginlog.app.cli import command

    command()
    command(only)


def _child(argv: Sequence[str], env: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> int:  # pragma: no cover
    """In the child, with its descriptors 0 to 2 in place: be ``ginlog ARGV``; its exit status."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if cwd is not None:
        os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    # PYTHONIOENCODING=ENCODING[:ERRORS], as CPython reads it: both for input and output, but standard error's
    # errors are always backslashreplace.
    encoding, _, errors = env.get("PYTHONIOENCODING", "").partition(":")
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        try:
            os.fstat(fd)
        except OSError:  # closed by the caller (``<&-``): None, as a fresh interpreter's
            setattr(sys, name, None)
            setattr(sys, f"__{name}__", None)
            continue
        tty = os.isatty(fd)
        # newline="\n": a fresh interpreter's standard streams split lines at "\n" only (a "\r" read is kept).
        stream = io.TextIOWrapper(io.FileIO(fd, "r" if fd == 0 else "w", closefd=False), encoding=encoding or "utf-8",
                                  errors="backslashreplace" if fd == 2 else errors or "strict", newline="\n",
                                  line_buffering=tty or fd == 2)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)  # what a fresh interpreter's would be too
    sys.argv = list(argv)
    code = 1
    try:
        from ginlog.app.cli import main

        main()
        code = 0
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            sys.stderr.write(f"{exc.code}\n")
    except BaseException:
        import traceback

        traceback.print_exc()
    for out in (sys.stdout, sys.stderr):
        try:
            if out is not None:
                out.flush()
        except BaseException:
            pass
    return code


def run_forked(argv: Sequence[str], *, input: bytes | None, env: Mapping[str, str], cwd: str | os.PathLike[str] | None,
               timeout: float, prepare: Callable[[], None] | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``ginlog ARGV`` (``argv[0]`` is the script) in a forked child; its status and captured bytes.
    ``prepare``: as :func:`spawn_forked`'s (a standard stream closed: ``lambda: os.close(0)``)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    child = spawn_forked(argv, stdin=in_r, stdout=out_w, stderr=err_w, env=env, cwd=cwd, close=(in_w, out_r, err_r),
                         prepare=prepare)
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}

    def drain(fd: int) -> None:
        while data := os.read(fd, 1 << 16):
            chunks[fd].append(data)

    def feed() -> None:
        try:
            if input:
                view = memoryview(input)
                while view:
                    view = view[os.write(in_w, view[: 1 << 16]):]
        except BrokenPipeError:
            pass
        finally:
            os.close(in_w)

    workers = [threading.Thread(target=drain, args=(out_r,)), threading.Thread(target=drain, args=(err_r,)),
               threading.Thread(target=feed)]
    for w in workers:
        w.start()
    try:
        code = child.wait(timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise
    for w in workers:
        w.join()
    os.close(out_r)
    os.close(err_r)
    return subprocess.CompletedProcess(list(argv), code, b"".join(chunks[out_r]), b"".join(chunks[err_r]))
