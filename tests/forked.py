"""The ``ginlog`` executable run as a forked child of the test process: the same ``main()``, the same standard
streams, environment, folder and exit status, without paying the interpreter's start and ginlog's imports again.

*Why:* hundreds of tests run the real command line, and each run cost about 0.2 CPU-seconds of start-up
(the interpreter, attrs, cattrs, Typer, rich), most of the default run's budget. A fork of this process,
which has imported all of that already, costs a few milliseconds. What a fresh interpreter would see
differently falls back to a real subprocess: interpreter flags (``-X importtime``), an environment that the
interpreter reads only at start (``PYTHON*``, the locale), or other threads alive in this process (a browser
session: a fork copies one thread only). The child's CPU is the test process's child's, so the printed
budget counts it as before.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence

__all__ = ["can_fork", "run_forked"]

_START_ONLY = ("PYTHON", "LC_", "LANG")


def can_fork(env: Mapping[str, str]) -> bool:
    """Whether a fork would see what a fresh ``ginlog`` process sees (see the module's docstring)."""
    if threading.active_count() != 1 or not hasattr(os, "fork"):
        return False
    for key in set(env) ^ set(os.environ) | {k for k in env if env.get(k) != os.environ.get(k)}:
        if key.startswith(_START_ONLY):
            return False
    return True


def run_forked(argv: Sequence[str], *, input: bytes | None, env: Mapping[str, str], cwd: str | os.PathLike[str] | None,
               timeout: float) -> subprocess.CompletedProcess[bytes]:
    """Run ``ginlog ARGV`` (``argv[0]`` is the script) in a forked child; its status and captured bytes."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.dup2(in_r, 0)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            for fd in (in_r, in_w, out_r, out_w, err_r, err_w):
                os.close(fd)
            for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
                signal.signal(sig, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            if cwd is not None:
                os.chdir(cwd)
            os.environ.clear()
            os.environ.update(env)
            streams = (
                io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8"),
                io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8"),
                io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                 line_buffering=True),
            )
            for name, stream in zip(("stdin", "stdout", "stderr"), streams):
                setattr(sys, name, stream)
                setattr(sys, f"__{name}__", stream)  # what a fresh interpreter's would be too
            sys.argv = list(argv)
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
                    code = 1
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            for out in (sys.stdout, sys.stderr):
                try:
                    out.flush()
                except BaseException:
                    pass
        finally:
            os._exit(code)
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
    deadline = time.monotonic() + timeout
    status = None
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = raw
        elif time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(list(argv), timeout)
        else:
            time.sleep(0.002)
    for w in workers:
        w.join()
    os.close(out_r)
    os.close(err_r)
    return subprocess.CompletedProcess(list(argv), os.waitstatus_to_exitcode(status), b"".join(chunks[out_r]),
                                       b"".join(chunks[err_r]))
