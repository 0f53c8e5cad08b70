"""Issue 13's hostile-input campaign, run against ``ginlog`` as a user runs it.

Every check starts the real executable (``.venv/bin/ginlog``) in a child
process, on pipes or on a pseudo-terminal (so rich believes it is on a
terminal and colours), under a timeout, with the child's peak memory taken
from ``wait4``. Inputs are generated (hypothesis strategies: names, free
texts, whole files forged from valid matches with only the hostile content
wrong), and each class of the issue is one function, ``campaign(name, n,
seed, work)``, returning a :class:`Tally`: per check, how many inputs were
tried, how many held, and the failures with what to type to see them again.

``tests/test_hostile.py`` runs small versions (one test per check of
:data:`CHECKS`; every one holds on today's code);
``benchmarks/reliability.py --hostile N`` runs N examples per class and
prints the figures. The inputs are made in :mod:`hostile_inputs`, the
classes are :mod:`hostile_checks`, :mod:`hostile_records` and :mod:`hostile_edges`.

The output checks: on a pipe no ESC at all; on a terminal only ``ESC [ digits;
m`` (ginlog's colours; for ``audit`` also rich's progress bar), never BEL, a
C1 control, a bidi, zero-width or other invisible character, nor bytes that
are not UTF-8; and every hostile text a command shows must be there in its
visible form (:func:`ginlog.text.visible`), as often as the same command shows
a plain placeholder in the same place.

The classes, as issue 13 names them: crash, memory, terminal, hang, silent,
moves, names, warnings (a misleading clean audit), files, display, verdict; and four surfaces at the
edges (:mod:`hostile_edges`): history (the recorder's history file), rematch, pad (``NAME +POINTS``), output (``-o``);
and issue 20's (:mod:`hostile_limits`): links, formula, deep, jobs, entry, closed, clock, header, timestamp.

A command that asks for it (``Cmd(fork=True)``: issue 20's classes) runs as a fork of this process where that
sees what a fresh one would (:func:`forks`): the same ``main()``, without the interpreter's start, so that a class
costs tenths of a CPU-second and fits the default test run; its peak memory is then not measured.
``GINLOG_UNDER_TEST=FOLDER`` runs every command on the ginlog of another source tree (a worktree of an older
commit: ``git worktree add /tmp/old COMMIT``), in fresh processes: how a class fared on the code before its fix.

This module is imported by path (``tests/reliability`` has no ``__init__``).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import resource
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st

from ginlog.text import describe
from ginlog.text import visible as shown

sys.path.insert(0, str(Path(__file__).parent))
import reliability_campaigns as rc  # noqa: E402

sys.path.append(str(Path(__file__).parents[1]))
import forked  # noqa: E402  (tests/forked.py)

ROOT = Path(__file__).resolve().parents[2]
_EXE = Path(sys.executable).with_name("ginlog")
GINLOG: list[str] = [str(_EXE)] if _EXE.exists() else [sys.executable, "-m", "ginlog.app.cli"]
TIMEOUT = 20.0  # every command, unless said otherwise
HANG_TIMEOUT = 8.0  # a FIFO must be refused at once; all of them run side by side
QUICK_RSS_MB = 60.0  # a 100 KB file (a bare run takes 30 MB); the bound is 100 MB for any file up to 100 MB
RSS_MB = 100.0
MAX_ERRORS = 1000  # errors kept per file, at most
TRACEBACK = b"Traceback (most recent call last)"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

CLASSES = {
    "crash": "huge numbers (a knob, a claimed points) crash a command",
    "memory": "memory grows with the file (bounded: 100 MB for any file up to 100 MB)",
    "terminal": "record text reaches the terminal raw or is read as rich markup",
    "hang": "a FIFO named on the command line blocks the command",
    "silent": "nothing audited, or a usable input refused, and exit 0 or a wrong status",
    "moves": "an entry split over arguments writes moves nobody made",
    "names": "names that could be taken for each other, or not typed back",
    "warnings": "a clean audit that hides score-pad, reopened, time-order, unusual rules",
    "files": "repair, import and error lines on unusual paths",
    "display": "the pile shown sorted though labelled (top last); no JSON of it",
    "verdict": "validate and audit disagree on a file",
    "history": "a planted recorder history (hostile, garbage, huge, a link, a FIFO) reaches the terminal or the file",
    "rematch": "new --rematch OLD on a hostile, broken or odd OLD",
    "pad": "NAME +POINTS quick entries with hostile names and points",
    "output": "-o of export, html, a site and import on hostile or odd paths",
    # issue 20 (tests/reliability/hostile_limits.py)
    "links": "-o and a site through planted links (old temporary names, matches/), modes, a killed export, a rebuilt site",
    "formula": "CSV cells (names, titles, file names) a spreadsheet would run as formulas",
    "deep": "folders nested past the recursion limit and past PATH_MAX",
    "jobs": "a huge --jobs (capped at 4 a CPU, in one line)",
    "entry": "an entry longer than the longest legal one",
    "closed": "a standard stream closed by the caller (<&-, >&-)",
    "clock": "a clock out of the years ginlog writes (before 1970, past 2262, past 9999)",
    "header": "an OpenSpiel header with thousands of digits",
    "timestamp": "times the writer would never write (no such day, year out of range, other precision)",
    # issue 20, counting (tests/reliability/hostile_counting.py)
    "copies": "a match reached twice (links, copies, a folder named twice, a backup) or forked, in stats, export and a site",
    "lookalike": "names in different files that could be taken for each other; a players file that makes them one",
    "order": "the same files named in other orders (and begun in the same millisecond)",
    # issue 24, seals (tests/reliability/hostile_seals.py)
    "seals": "hostile seals (truncated, another namespace or algorithm, huge, not base64, another file's head, in a hand,"
             " twice) and a club's key comment holding escape codes",
}


#: Every check, with the reason it fails today (None: it holds; on 2026-12-01 every one holds). A
#: reason makes ``tests/test_hostile.py`` mark the check xfail (strict: it must fail), and
#: ``benchmarks/reliability.py`` count its failures as known. Set it back to None when the fix lands.
CHECKS: dict[str, str | None] = {
    # Crash
    "crash/knob-digits": None,
    "crash/points-digits": None,
    "crash/new-set-digits": None,
    # Memory
    "memory/rss": None,
    "memory/errors-capped": None,
    # The terminal as a target
    "terminal/replay": None,
    "terminal/score": None,
    "terminal/show": None,
    "terminal/record": None,
    "terminal/validate": None,
    "terminal/audit": None,
    "terminal/new": None,
    "terminal/play": None,
    "terminal/undo": None,
    "terminal/replay-visible": None,
    "terminal/score-visible": None,
    "terminal/show-visible": None,
    "terminal/record-visible": None,
    "terminal/surrogate": None,
    # Hangs
    **{f"hang/{c}": None for c in
       ("audit", "validate", "score", "show", "replay", "play", "record", "undo", "import")},
    "hang/repair": None,
    "hang/html": None,
    # Silent success
    "silent/unreadable-folder": None,
    "silent/unreadable-subfolder": None,
    "silent/glob-only-folders": None,
    "silent/symlinked-subfolder": None,
    "silent/empty-folder": None,
    "silent/stdin-with-jobs": None,
    "silent/anchor-accepted": None,
    "silent/anchor-malformed": None,
    # Moves nobody made
    "moves/whole-entries": None,
    # Names
    "names/clash-refused": None,
    "names/invisible-refused": None,
    "names/spaced-name": None,
    "names/case-insensitive": None,
    "names/ambiguous-prefix": None,
    # Misleading clean audit
    "warnings/score-pad": None,
    "warnings/reopened": None,
    "warnings/time-order": None,
    "warnings/unusual-rules": None,
    "warnings/no-false-alarm": None,
    # Files
    "files/repair-non-match": None,
    "files/repair-symlink": None,
    "files/repair-long-name": None,
    "files/import-output-file": None,
    "files/import-unwritable": None,
    "files/path-one-line": None,
    "files/path-many-errors": None,
    "files/strict-stdout": None,
    # Display
    "display/pile-order": None,
    "display/show-json": None,
    "display/replay-json": None,
    # Same verdict
    "verdict/same": None,
    # The recorder's history file
    "history/no-crash": None,
    "history/raw": None,
    "history/match-file": None,
    "history/not-followed": None,
    "history/unreadable": None,
    # new --rematch OLD
    "rematch/no-crash": None,
    "rematch/terminal": None,
    "rematch/outcome": None,
    # NAME +POINTS
    "pad/verdict": None,
    "pad/refused": None,
    "pad/accepted": None,
    "pad/score-json": None,
    # -o output paths
    "output/no-crash": None,
    "output/no-temp": None,
    "output/written": None,
    "output/one-line": None,
    "output/not-followed": None,
    "output/no-clobber": None,
    "output/refused": None,
    # Issue 20: each held on 2026-12-02; each failed on d33ce9d (docs/PERFORMANCE.md has the figures)
    **{f"links/{c}": None for c in ("no-crash", "records-kept", "not-followed", "no-temp", "mode-kept", "site-refused",
                                     "site-forgets", "killed")},
    **{f"formula/{c}": None for c in ("no-crash", "guarded", "raw-exact")},
    **{f"deep/{c}": None for c in ("no-crash", "one-line", "every-file")},
    **{f"jobs/{c}": None for c in ("no-crash", "one-line", "same-verdict")},
    **{f"entry/{c}": None for c in ("no-crash", "refused", "at-once", "longest-taken")},
    **{f"closed/{c}": None for c in ("no-crash", "nothing-lost")},
    **{f"clock/{c}": None for c in ("no-crash", "verdict")},
    **{f"header/{c}": None for c in ("no-crash", "verdict")},
    **{f"timestamp/{c}": None for c in ("no-crash", "refused", "no-false-alarm")},
    **{f"copies/{c}": None for c in ("no-crash", "counted-once", "copy-named", "fork-error", "site-once")},
    **{f"lookalike/{c}": None for c in ("no-crash", "warned-apart", "players-file")},
    **{f"order/{c}": None for c in ("no-crash", "same-output")},
    **{f"seals/{c}": None for c in ("no-crash", "refused", "one-line")},
}



# =============================================================================
# Running the executable


@dataclass
class Cmd:
    """One command line for ``ginlog`` (``args`` after the program name)."""

    args: Sequence[str | bytes]
    stdin: bytes | None = None
    tty: bool = False
    env: dict[str, str] = field(default_factory=dict)  # added to the base environment ("" removes)
    cwd: str | os.PathLike[str] | None = None
    nobody: bool = False  # run as user 65534 (see :func:`other_user`)
    timeout: float = TIMEOUT
    memory_mb: int | None = None  # address-space limit, so a runaway child cannot take the machine
    fifo: bool = False  # a child blocked opening a FIFO counts as hung at once (no need to wait the timeout)
    fork: bool = False  # run as a fork of this process where that sees what a fresh one would (see :func:`forks`)
    closed: tuple[int, ...] = ()  # standard streams closed in the child (``<&-``, ``>&-``)
    clock_ns: int | None = None  # the child's clock (``time.time_ns``) reads this
    terminate_after: float | None = None  # SIGTERM the child after so many seconds (of its run, or of ``terminate_in``'s)
    terminate_in: str | None = None  # ... counted from when a temporary file (NAME.tmp...) appears in this folder

    def shell(self) -> str:
        """The command as one would type it (for a failure's reproducer)."""
        words = ["ginlog", *(os.fsdecode(a) if isinstance(a, bytes) else a for a in self.args)]
        text = " ".join(shlex.quote(w) for w in words)
        text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
        if self.stdin is not None:
            text += f" < ({len(self.stdin)} bytes)"
        for k, v in self.env.items():
            text = f"{k}={v} {text}"
        text += "".join(f" {'<' if fd == 0 else fd}&-".replace("1&-", ">&-") for fd in self.closed)
        if self.clock_ns is not None:
            text = f"[clock at {self.clock_ns} ns] {text}"
        if self.terminate_after is not None:
            text += f"  [SIGTERM after {self.terminate_after:.3f} s]"
        return ("[pty] " if self.tty else "") + ("[as nobody] " if self.nobody else "") + text


@dataclass
class Run:
    """What a command did: exit code (None: killed at the timeout), output, peak memory."""

    cmd: Cmd
    rc: int | None
    out: bytes
    err: bytes
    seconds: float
    rss_mb: float

    why: str = ""  # why it was killed

    @property
    def timed_out(self) -> bool:
        return self.rc is None

    @property
    def both(self) -> bytes:
        return self.out + self.err

    def err_lines(self) -> list[str]:
        return self.err.decode("utf-8", "replace").splitlines()

    def json(self) -> Any:
        try:
            return json.loads(self.out)
        except ValueError:
            return None


def base_env(tty: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROP and not k.startswith(("PYTEST", "HYPOTHESIS"))}
    env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", COLUMNS="400", LINES="50")
    env["TERM"] = "xterm-256color" if tty else "dumb"
    return env


_ENV_DROP = frozenset({
    "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS",
    "LINES", "PYTHONIOENCODING", "PYTHONUTF8", "JUPYTER_COLUMNS", "JUPYTER_LINES",
})


def other_user() -> list[str] | None:
    """How to run a command as someone permissions bite: ``setpriv`` to 65534 when root, nothing when not root."""
    if os.geteuid() != 0:
        return []
    return NOBODY if shutil.which("setpriv") else None


def _gnu_time() -> str | None:
    """GNU time, to measure a command's peak memory from a small parent.

    A child's ``ru_maxrss`` counts the image it was forked from (a pytest
    process of 90 MB makes every command "take" 90 MB); GNU time is a small
    process that forks the command itself and reports that one's peak.
    Without it, the figures are ``wait4``'s: upper bounds.
    """
    path = "/usr/bin/time"
    try:
        said = subprocess.run([path, "--version"], capture_output=True, timeout=10) if os.access(path, os.X_OK) else None
        ok = said is not None and b"GNU" in said.stdout + said.stderr
    except (OSError, subprocess.SubprocessError):
        ok = False
    return path if ok else None


GNU_TIME = _gnu_time()

#: Another ginlog to try the campaign on (``GINLOG_UNDER_TEST=/tmp/old``: a source tree, such as a worktree of an
#: older commit): every command runs with it first on ``PYTHONPATH``, in a fresh process (never forked).
UNDER_TEST = os.environ.get("GINLOG_UNDER_TEST") or None
#: Environment a Python process reads only as it starts (as tests/forked.py says).
_START_ONLY = ("PYTHON", "LC_", "LANG")
#: A fresh ginlog with a faked clock: the clock replaced before ginlog is imported.
_CLOCK_SCRIPT = "import sys, time\ntime.time_ns = lambda: {ns}\nfrom ginlog.app.cli import main\nsys.argv = ['ginlog', *sys.argv[1:]]\nmain()\n"


def forks(cmd: Cmd) -> bool:
    """Whether ``cmd`` (one asking for it) runs as a fork of this process: the same ``main()`` a fresh ``ginlog``
    runs, without the interpreter's start and imports (0.2 CPU-s a command). Not for another ginlog
    (:data:`UNDER_TEST`), another user, a memory limit, an environment read at start, nor while this process has
    other threads (a fork copies one); and only when this process's locale is UTF-8, as the children's is."""
    import locale
    import threading

    return (cmd.fork and UNDER_TEST is None and hasattr(os, "fork") and not cmd.nobody and not cmd.memory_mb
            and not any(k.startswith(_START_ONLY) for k in cmd.env) and threading.active_count() == 1
            and "utf" in (locale.setlocale(locale.LC_CTYPE) or "").lower().replace("-", ""))


_WARM: list[bool] = []


def _warm() -> None:
    """Import every ginlog module here, once, before the first fork: each forked command then starts with them
    imported, as ``ginlog`` in a long-lived process would be, rather than paying their import in every child."""
    if _WARM:
        return
    _WARM.append(True)
    import importlib
    import pkgutil

    import ginlog

    for info in pkgutil.walk_packages(ginlog.__path__, "ginlog."):
        try:
            importlib.import_module(info.name)
        except Exception:  # an optional extra (pyarrow) missing: that command imports it, or says so
            pass


_fake_clock = forked.fake_clock  # (moved to tests/forked.py, where test_times uses it too)


class _Live:
    """A started command: the child, its output files or pty, and its deadline."""

    def __init__(self, cmd: Cmd) -> None:
        self.cmd = cmd
        env = base_env(cmd.tty)
        for k, v in cmd.env.items():
            if v == "":
                env.pop(k, None)
            else:
                env[k] = v
        if UNDER_TEST:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (UNDER_TEST, env.get("PYTHONPATH")) if p)
        self.forked = forks(cmd)
        if self.forked:
            _warm()
        if self.forked:  # what a process reads as it starts is this one's: the fork has it
            env = {k: v for k, v in env.items() if not k.startswith(_START_ONLY)}
            env.update((k, v) for k, v in os.environ.items() if k.startswith(_START_ONLY))
        program = GINLOG if cmd.clock_ns is None else [sys.executable, "-P", "-c", _CLOCK_SCRIPT.format(ns=cmd.clock_ns)]
        argv: list[str | bytes] = [*((other_user() or []) if cmd.nobody else []), *program, *cmd.args]
        self.rss_file: Path | None = None
        self.terminated = False
        self.since: float | None = None  # when the temporary file of ``terminate_in`` appeared
        if GNU_TIME and not self.forked and cmd.terminate_after is None:  # a signal must reach ginlog, not time
            fd, name = tempfile.mkstemp(prefix="ginlog-rss-")
            os.close(fd)
            self.rss_file = Path(name)
            argv = [GNU_TIME, "-f", "%M", "-o", name, *argv]
        limit = cmd.memory_mb

        def pre() -> None:
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit << 20, limit << 20))
            for fd in cmd.closed:
                os.close(fd)

        def prepare() -> None:  # in a forked child: its own session (killed as a group) and no other descriptors, as Popen's
            os.setsid()
            os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
            for fd in cmd.closed:
                os.close(fd)
            if cmd.clock_ns is not None:
                _fake_clock(cmd.clock_ns)

        words = [os.fsdecode(a) for a in [str(_EXE), *cmd.args]]

        self.master: int | None = None
        self.proc: subprocess.Popen[bytes] | forked.Forked
        self.buf = bytearray()
        self.pending = cmd.stdin or b""
        self.out = tempfile.TemporaryFile()
        self.err = tempfile.TemporaryFile()
        self.started = time.monotonic()
        if cmd.tty:
            master, slave = os.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 400, 0, 0))
            a = termios.tcgetattr(slave)
            # Typed bytes reach the program as typed: no echo (the tty's, not ginlog's), no
            # signals, no flow control, no line editing; only the newline ends a line.
            a[0] &= ~(termios.ICRNL | termios.IXON | termios.IXOFF | termios.INLCR | termios.IGNCR)
            a[3] &= ~(termios.ECHO | termios.ECHONL | termios.ISIG | termios.IEXTEN)
            for cc in (termios.VEOF, termios.VERASE, termios.VKILL, termios.VWERASE, termios.VREPRINT, termios.VLNEXT):
                a[6][cc] = b"\x00" if isinstance(a[6][cc], bytes) else 0
            termios.tcsetattr(slave, termios.TCSANOW, a)
            if self.forked:
                self.proc = forked.spawn_forked(words, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cmd.cwd,
                                                close=(master,), prepare=prepare)
            else:
                self.proc = subprocess.Popen(
                    argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cmd.cwd, start_new_session=True,
                    preexec_fn=pre,
                )
            os.close(slave)
            os.set_blocking(master, False)
            self.master = master
        else:
            stdin: Any = subprocess.DEVNULL
            if cmd.stdin is not None:
                stdin = tempfile.TemporaryFile()
                stdin.write(cmd.stdin)
                stdin.seek(0)
            if self.forked:
                null = os.open(os.devnull, os.O_RDONLY) if stdin is subprocess.DEVNULL else None
                self.proc = forked.spawn_forked(words, stdin=stdin.fileno() if null is None else null, stdout=self.out.fileno(),
                                                stderr=self.err.fileno(), env=env, cwd=cmd.cwd, prepare=prepare)
                if null is not None:
                    os.close(null)
            else:
                self.proc = subprocess.Popen(
                    argv, stdin=stdin, stdout=self.out, stderr=self.err, env=env, cwd=cmd.cwd, start_new_session=True,
                    preexec_fn=pre,
                )
            if stdin is not subprocess.DEVNULL:
                stdin.close()
        self.pid = self.proc.pid

    def pump(self) -> None:
        """Feed the pty what is left to type and take what it printed."""
        if self.master is None:
            return
        if self.pending:
            try:
                n = os.write(self.master, self.pending[:1024])
                self.pending = self.pending[n:]
            except (BlockingIOError, OSError):
                pass
        while True:
            try:
                data = os.read(self.master, 65536)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            self.buf += data

    def poll(self) -> Run | None:
        pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        why = ""
        if not pid:
            now = time.monotonic()
            if self.cmd.terminate_after is not None and not self.terminated:
                if self.cmd.terminate_in is not None and self.since is None:
                    with rc._suppress():
                        if any(_TEMP_NAME.search(name) for name in os.listdir(self.cmd.terminate_in)):
                            self.since = now
                since = self.started if self.cmd.terminate_in is None else self.since
                if since is not None and now - since >= self.cmd.terminate_after:
                    self.terminated = True
                    with rc._suppress():
                        os.kill(self.pid, signal.SIGTERM)
                    return None
            if self.cmd.fifo and now - getattr(self, "_looked", 0.0) > 0.2:
                self._looked = now
                if _blocked_on_fifo(self.pid):
                    why = "blocked opening the FIFO (wait_for_partner)"
            if not why and now - self.started < self.cmd.timeout:
                return None
            with rc._suppress():
                os.killpg(self.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(self.pid, 0)
            why = why or f"no answer in {self.cmd.timeout:.0f} s (killed)"
        code = os.waitstatus_to_exitcode(status)
        self.proc.returncode = code  # reaped here: Popen must not wait for it again
        rss_kb = usage.ru_maxrss
        if self.rss_file is not None:
            said = self.rss_file.read_text(errors="replace").split()
            self.rss_file.unlink()
            if said and said[-1].isdigit():  # GNU time's report: the command's own peak, then its fate
                rss_kb = int(said[-1])
                if "signal" in said:  # killed by a signal: as the child's own status would say
                    code = -int(said[said.index("signal") + 1])
        with rc._suppress():
            os.killpg(self.pid, signal.SIGKILL)  # pool workers left behind
        if self.master is not None:
            for _ in range(20):
                if not select.select([self.master], [], [], 0.02)[0]:
                    break
                before = len(self.buf)
                self.pump()
                if len(self.buf) == before:
                    break
            os.close(self.master)
            out, err = bytes(self.buf), b""
        else:
            self.out.seek(0)
            self.err.seek(0)
            out, err = self.out.read(), self.err.read()
        self.out.close()
        self.err.close()
        # a fork's peak is this process's at least (its pages are the fork's until written): not the command's
        rss_mb = 0.0 if self.forked else rss_kb / 1024
        return Run(self.cmd, None if why else code, out, err, time.monotonic() - self.started, rss_mb, why)


_TEMP_NAME = re.compile(r"\.tmp\d*$")  # a temporary output: today's .NAME.ginlog-HEX.tmp, the old NAME.tmpPID


def _blocked_on_fifo(pgid: int) -> bool:
    """Whether a process of group ``pgid`` sleeps in the kernel waiting for a FIFO's other end."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid and Path(entry.path, "wchan").read_text() == "wait_for_partner":
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False


def run_all(cmds: Sequence[Cmd], jobs: int = 4) -> list[Run]:
    """Run commands, ``jobs`` at a time, each under its own timeout; results in order."""
    results: list[Run | None] = [None] * len(cmds)
    todo = list(enumerate(cmds))
    live: dict[int, _Live] = {}
    while todo or live:
        while todo and len(live) < jobs:
            i, c = todo.pop(0)
            live[i] = _Live(c)
        masters = [h.master for h in live.values() if h.master is not None]
        if masters:
            select.select(masters, [], [], 0.01)
        else:
            time.sleep(0.005)
        for i, h in list(live.items()):
            h.pump()
            r = h.poll()
            if r is not None:
                results[i] = r
                del live[i]
    return [r for r in results if r is not None]


# =============================================================================
# What the output must (not) hold

SGR = re.compile(rb"\x1b\[[0-9;]*m")
#: A line editor's own drawing (prompt_toolkit at ``ginlog record`` on a terminal): any CSI sequence, and backspace.
EDITOR = re.compile(rb"\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x08")
#: An escape sequence as typed: CSI, OSC (to BEL or ST, or to the end), or ESC and one character.
_TYPED_ESCAPE = re.compile(r"\x1b(?:\[[0-9;?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)", re.S)
#: rich's live display (audit's progress bar on a terminal): hide/show the cursor, clear the line, go up.
PROGRESS = re.compile(rb"\x1b\[\?25[lh]|\r(?:\x1b\[1A)?\x1b\[2K")


def _around(data: bytes, i: int) -> str:
    return repr(data[max(0, i - 24) : i + 24])


def raw_problems(data: bytes, *, colour: bool, progress: bool = False, editor: str | None = None) -> list[str]:
    """What in ``data`` (all a terminal received) is not ginlog's own colour codes or visible text.

    With ``colour``, ``ESC [ digits;... m`` is allowed; with ``progress``, rich's
    progress bar's codes too. Any other ESC, BEL, a C1 control (U+009B is
    ``C2 9B``), a bidi, zero-width or other invisible character, or bytes that
    are not UTF-8 is a problem. With ``editor`` (the text that was typed at a
    line editor), the editor's own drawing is allowed (:data:`EDITOR`), but no
    escape sequence of the typed text may reach the terminal as it was typed.
    """
    probs = []
    rest = data
    if editor is not None:
        for m in _TYPED_ESCAPE.finditer(editor):
            # The whole typed sequence and the printable text typed right after it: a bare 4-byte prefix such as
            # ESC [ ? 1 is also the start of the editor's own ESC [ ? 12 l, which is no leak.
            after = editor[m.end() : m.end() + 2]
            after = after[: next((k for k, c in enumerate(after) if not c.isprintable()), len(after))]
            piece = (m.group() + after).encode("utf-8", "surrogateescape")
            if len(piece) > 1 and piece in data:
                probs.append(f"the typed {piece!r} reached the terminal raw {_around(data, data.find(piece))}")
        rest = EDITOR.sub(b"", rest)
    rest = PROGRESS.sub(b"", rest) if progress else rest
    rest = SGR.sub(b"", rest) if colour else rest
    i = rest.find(b"\x1b")
    if i >= 0:
        probs.append(f"raw ESC {_around(rest, i)}")
    text = rest.decode("utf-8", "surrogateescape")
    bad = sorted({ch for ch in text if ch not in "\n\r\x1b" and shown(ch) != ch})
    if bad:
        j = text.index(bad[0])
        probs.append("raw " + ", ".join(describe(ch) for ch in bad[:5]) + f" in {text[max(0, j - 20) : j + 20]!r}")
    return probs


def visible(run: Run) -> str:
    """The text a person sees: colour and progress codes taken out, one newline per line."""
    data = SGR.sub(b"", PROGRESS.sub(b"", run.both))
    if run.cmd.tty and run.cmd.args[:1] == ["record"]:
        data = EDITOR.sub(b"", data)  # the line editor's drawing
    return data.decode("utf-8", "replace").replace("\r", "")


def squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


def missing_shown(run: Run, values: Iterable[str]) -> list[str]:
    """The values whose visible form (:func:`ginlog.text.visible`) is not in the output (spaces ignored:
    rich wraps a long title)."""
    seen = squash(visible(run))
    return [f"{shown(v)[:60]!r} not shown" for v in values if squash(shown(v)) not in seen]


def basic(run: Run, codes: Iterable[int] = (0, 1, 2)) -> list[str]:
    """No traceback, an answer within the timeout, an exit status among ``codes``."""
    probs = []
    if run.timed_out:
        probs.append(run.why)
    elif run.rc not in tuple(codes):
        probs.append(f"exit {run.rc}")
    if TRACEBACK in run.both:
        tail = run.both.decode("utf-8", "replace").strip().splitlines()[-1:]
        probs.append(f"traceback: {tail[0][:200] if tail else ''}")
    return probs


# =============================================================================
# Results


@dataclass
class Check:
    tried: int = 0
    held: int = 0
    failures: list[str] = field(default_factory=list)
    skipped: str | None = None

    @property
    def failed(self) -> int:
        return self.tried - self.held


@dataclass
class Tally:
    """One class's run: per check, inputs tried and held, failures with reproducers."""

    name: str
    checks: dict[str, Check] = field(default_factory=dict)
    inputs: int = 0
    runs: int = 0
    peak_rss_mb: float = 0.0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # figures worth printing (the memory class's runs)

    def check(self, cid: str, problems: Sequence[str], repro: str) -> None:
        c = self.checks.setdefault(f"{self.name}/{cid}", Check())
        c.tried += 1
        if problems:
            if len(c.failures) < 12:
                c.failures.append(f"{repro}\n      -> " + "; ".join(dict.fromkeys(problems))[:700])
        else:
            c.held += 1

    def skip(self, cid: str, why: str) -> None:
        self.checks.setdefault(f"{self.name}/{cid}", Check()).skipped = why

    def failures(self) -> int:
        return sum(c.failed for c in self.checks.values())


class Ctx:
    """The scratch folder, the runner and the tally of one class's run."""

    def __init__(self, tally: Tally, work: Path, jobs: int = 4) -> None:
        self.tally = tally
        self.work = work
        self.jobs = jobs
        self._n = 0

    def dir(self, name: str = "d") -> Path:
        self._n += 1
        d = self.work / f"{name}-{self._n}"
        d.mkdir(parents=True)
        d.chmod(0o777)
        return d

    def run(self, *cmds: Cmd, jobs: int | None = None) -> list[Run]:
        runs = run_all(cmds, jobs or self.jobs)
        self.tally.runs += len(runs)
        for r in runs:
            self.tally.peak_rss_mb = max(self.tally.peak_rss_mb, r.rss_mb)
        return runs

    def check(self, cid: str, problems: Sequence[str], repro: str) -> None:
        self.tally.check(cid, problems, repro)

    def once(self, key: str) -> bool:
        """True the first time only: the issue's own examples ride along with the first generated input."""
        seen = self.__dict__.setdefault("_once", set())
        if key in seen:
            return False
        seen.add(key)
        return True


def drive(ctx: Ctx, strategy: st.SearchStrategy[Any], n: int, seed: int, body: Callable[[Any], None], explicit: Sequence[Any] = ()) -> None:
    """Run ``body`` on the explicit inputs, then on ``n`` generated ones (no shrinking: a campaign counts)."""
    cfg = settings(max_examples=max(1, n), deadline=None, database=None, suppress_health_check=list(HealthCheck),
                   phases=[Phase.explicit, Phase.generate] if n else [Phase.explicit])

    def inner(x: Any) -> None:
        ctx.tally.inputs += 1
        body(x)

    test = hseed(seed)(cfg(given(strategy)(inner)))
    for e in reversed(explicit):
        test = example(e)(test)
    test()


CAMPAIGNS: dict[str, Callable[[Ctx, int, int], None]] = {}


def campaign_of(name: str) -> Callable[[Callable[[Ctx, int, int], None]], Callable[[Ctx, int, int], None]]:
    def deco(f: Callable[[Ctx, int, int], None]) -> Callable[[Ctx, int, int], None]:
        CAMPAIGNS[name] = f
        return f

    return deco


def campaign(name: str, n: int, seed: int, work: str | os.PathLike[str], *, jobs: int = 4, long: bool = False) -> Tally:
    """Run one class of the issue: ``n`` generated examples (plus the issue's own), in ``work``."""
    import hostile_checks, hostile_counting, hostile_edges, hostile_limits, hostile_records, hostile_seals  # noqa: F401  (they register the campaigns)

    tally = Tally(name)
    base = Path(tempfile.mkdtemp(prefix=f"hostile-{name}-", dir=work))
    base.chmod(0o777)
    ctx = Ctx(tally, base, jobs)
    ctx.long = long  # type: ignore[attr-defined]
    t = time.monotonic()
    try:
        CAMPAIGNS[name](ctx, n, seed)
    finally:
        tally.seconds = time.monotonic() - t
        subprocess.run(["chmod", "-R", "u+rwX", str(base)], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    return tally

