"""``ginlog`` on a pseudo-terminal: one way to start it there and one loop that reads what the terminal shows.

*Why one module:* the tests that need a real terminal (colour, the progress bar, ``replay --step``'s prompt,
Ctrl-C, the sink's escaping) each carried their own read loop, and the loops differed in what they did at the
end (EOF, ``EIO`` once every holder of the terminal's other end has closed it, a child gone with its output
still buffered) and on a hang (some waited forever). Here there is one: it stops at the end of the output,
when the test has seen what it waits for, or fails the test after a timeout, saying what the terminal shows.

The child is forked where a fork sees what a fresh ``ginlog`` sees (``tests/forked.py``: the same ``main()``
without an interpreter's start), else a fresh interpreter; either way its CPU counts in the run's budget.
"""

from __future__ import annotations

import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

import pytest

from forked import can_fork, spawn_forked

__all__ = ["GINLOG", "FORCING", "Child", "terminal_env", "opened", "read_terminal", "start", "started", "on_a_pty"]

GINLOG = Path(sys.executable).parent / "ginlog"
#: What would force colour on or off whatever the stream is: a terminal test says what it wants itself.
FORCING = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


class Child(Protocol):
    """What the loop needs of a running ``ginlog``: a :class:`subprocess.Popen` or a :class:`forked.Forked`."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...

    def send_signal(self, sig: int) -> None: ...


def terminal_env(**extra: str) -> dict[str, str]:
    """This process's environment as a terminal user's: nothing forcing colour, ``TERM`` an xterm; then ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in FORCING}
    env.update(TERM="xterm-256color", **extra)
    return env


def opened(*, echo: bool = True) -> tuple[int, int]:
    """A new pseudo-terminal, ``(master, slave)``, or a skip where there is none. ``echo=False``: what a test
    types is not shown back, so what the terminal shows is the program's output alone."""
    pty = pytest.importorskip("pty")
    try:
        master, slave = pty.openpty()
    except OSError as exc:  # pragma: no cover - a container without /dev/pts
        pytest.skip(f"no pseudo-terminal: {exc}")
    if not echo:
        termios = pytest.importorskip("termios")
        mode = termios.tcgetattr(slave)
        mode[3] &= ~termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, mode)
    return master, slave


def read_terminal(master: int, *, child: Child | None = None, until: Callable[[bytes], bool] | None = None,
                  each: Callable[[bytes], None] | None = None, timeout: float = 60.0, what: str = "the program") -> bytes:
    """What the terminal at ``master`` shows, read as it comes, until one of: the end of the output (EOF, or
    ``EIO`` once every holder of the other end has closed it); ``until(seen)`` holds; ``child`` has exited and
    nothing more is there to read. ``each(seen)`` is called at every turn (every 50 ms at least), for a test that
    acts while the program runs (a key, a signal). After ``timeout`` seconds the test fails, with the tail of what
    was seen: a hang is a failure, never a stuck run."""
    seen = bytearray()
    deadline = time.monotonic() + timeout
    while until is None or not until(bytes(seen)):
        if each is not None:
            each(bytes(seen))
        if time.monotonic() > deadline:
            pytest.fail(f"{what} still running after {timeout:.0f} s on a terminal, which shows:\n"
                        f"{bytes(seen[-1500:]).decode('utf-8', 'replace')}")
        if select.select([master], [], [], 0.05)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the last holder of the terminal's other end has closed it
                break
            if not chunk:
                break
            seen += chunk
        elif child is not None and child.poll() is not None:
            break  # gone, and what it wrote before it went was readable before this turn
    return bytes(seen)


def start(args: Sequence[object], *, stdin: int, stdout: int, stderr: int, env: Mapping[str, str],
          cwd: Path | None = None, close: tuple[int, ...] = (), fresh: bool = False,
          prepare: Callable[[], None] | None = None) -> Child:
    """``ginlog ARGS`` with these descriptors as its standard streams: forked where it can be (``fresh``: never),
    else a fresh interpreter. ``close``: this process's descriptors the child must not hold (the master end, a
    pipe's writing end), so that the child's exit is the end of what the terminal reads. ``prepare``: run in
    the child once its standard streams are in place, before ``ginlog`` starts."""
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    argv = [str(GINLOG), *map(str, args)]
    if not fresh and can_fork(env):
        return spawn_forked(argv, stdin=stdin, stdout=stdout, stderr=stderr, env=env, cwd=cwd, close=close,
                            prepare=prepare)
    return subprocess.Popen([sys.executable, *argv], stdin=stdin, stdout=stdout, stderr=stderr, env=dict(env), cwd=cwd,
                            preexec_fn=prepare)


def started(*args: object, env: Mapping[str, str], rows: int = 30, cols: int = 100) -> tuple[Child, int]:
    """``ginlog ARGS`` as a terminal emulator starts a program: in a session of its own, whose controlling terminal
    is a new pseudo-terminal of ``rows`` by ``cols`` (so Ctrl-C typed there is the terminal's, and the size is
    what the program asks for). The child, and the master end, to read and type at (``pexpect.fdpexpect``)."""
    fcntl = pytest.importorskip("fcntl")
    termios = pytest.importorskip("termios")
    master, slave = opened()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def session() -> None:  # in the child, the terminal at 0, 1 and 2
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    try:
        child = start(args, stdin=slave, stdout=slave, stderr=slave, env=env, close=(master,), prepare=session)
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    return child, master


def on_a_pty(*args: object, env: Mapping[str, str] | None = None, typed: bytes = b"", piped: bytes | None = None,
             stdin: int | None = None, stdout: int | None = None, echo: bool = False, cwd: Path | None = None, timeout: float = 60.0,
             interrupt: bool = False, ready: bytes | None = None, fresh: bool = False) -> tuple[int, bytes]:
    """Run ``ginlog ARGS`` with standard error (and output, unless ``stdout`` is a descriptor to use instead) on a
    new pseudo-terminal, and return its exit status and every byte the terminal showed.

    Standard input is the terminal, where ``typed`` is typed; or, with ``piped``, a pipe that holds those bytes
    and is then closed; or ``stdin``, a descriptor (the null device). ``env``: the whole environment (default :func:`terminal_env`). ``interrupt``: SIGINT, as
    Ctrl-C sends it, a moment after ``ready`` is on the terminal (or a moment after the start)."""
    env = terminal_env() if env is None else env
    master, slave = opened(echo=echo)
    assert stdin is None or piped is None, "one standard input"
    feed_r, feed_w = os.pipe() if piped is not None else (slave if stdin is None else stdin, -1)
    try:
        child = start(args, stdin=feed_r, stdout=slave if stdout is None else stdout, stderr=slave, env=env, cwd=cwd,
                      close=tuple(fd for fd in (master, feed_w) if fd >= 0), fresh=fresh)
    except BaseException:
        for fd in {master, slave, feed_w, *([feed_r] if piped is not None else [])} - {-1}:
            os.close(fd)
        raise
    os.close(slave)  # the child's now: its exit (and its children's) ends what the terminal reads
    if piped is not None:
        os.close(feed_r)
    try:
        if piped is not None:
            os.write(feed_w, piped)  # small: the pipe holds it
            os.close(feed_w)
            feed_w = -1
        if typed:
            os.write(master, typed)
        signalled = not interrupt
        since = time.monotonic()

        def interrupting(seen: bytes) -> None:
            nonlocal signalled, ready, since
            if signalled:
                return
            if ready is not None and ready in seen:
                ready, since = None, time.monotonic()  # the prompt is out: a moment more for the read to begin
            if ready is None and time.monotonic() - since > 0.3:
                child.send_signal(signal.SIGINT)
                signalled = True

        seen = read_terminal(master, child=child, each=interrupting, timeout=timeout, what=f"ginlog {args[0]}")
        return child.wait(timeout=timeout), seen
    finally:
        if feed_w >= 0:
            os.close(feed_w)
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(master)
