"""A pytest plugin for ``bench_test_run.py --children``: each child the test process reaps, with its CPU.

Loaded with ``-p bench_test_children`` (this folder on ``PYTHONPATH``); writes one row a child to the file named
by ``BENCH_TEST_CHILDREN``: its CPU-s (``os.wait4``'s, its own reaped children included), the test that was
running, and what it ran (``popen ARGV`` or ``fork ARGV``, ``?`` for one started otherwise: ``pty.fork``, a
pool's worker). *Why wait4:* ``RUSAGE_CHILDREN`` gives the sum only; a child's own figure says which kind of
child the run's CPU goes to (a fork of the test process costs tens of milliseconds, a fresh interpreter
hundreds). Measurement only: the tests never load it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

_NOW = ["<collection>"]
_WHAT: dict[int, str] = {}
_ROWS: list[tuple[float, str, str]] = []
_real_init = subprocess.Popen.__init__
_real_fork = os.fork


def _waitpid(pid: int, options: int) -> tuple[int, int]:
    got, status, usage = os.wait4(pid, options)
    if got:
        _ROWS.append((usage.ru_utime + usage.ru_stime, _NOW[0], _WHAT.pop(got, "?")))
    return got, status


def _init(self: subprocess.Popen[Any], args: Any, *more: Any, **named: Any) -> None:
    _real_init(self, args, *more, **named)
    words = args if isinstance(args, (str, bytes)) else " ".join(map(str, args))
    _WHAT[self.pid] = f"popen {words!s}"[:300]


def _fork() -> int:
    pid = _real_fork()
    if pid:
        caller = sys._getframe(1).f_locals.get("argv")  # tests/forked.py's spawn_forked names it so
        _WHAT[pid] = "fork " + (" ".join(map(str, caller)) if isinstance(caller, (list, tuple)) else "")[:300]
    return pid


os.waitpid = _waitpid
os.fork = _fork
subprocess.Popen.__init__ = _init  # type: ignore[method-assign]


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    _NOW[0] = nodeid


def pytest_sessionfinish(session: object) -> None:
    target = os.environ.get("BENCH_TEST_CHILDREN")
    if target:
        with open(target, "w", encoding="utf-8", errors="backslashreplace") as f:
            for cpu, nodeid, what in _ROWS:  # one line a child: a ``python -c`` program's lines and tabs as spaces
                f.write(f"{cpu:.3f}\t{' '.join(nodeid.split())}\t{' '.join(what.split())}\n")
