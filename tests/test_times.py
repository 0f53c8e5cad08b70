"""One timestamp rule (ginlog.log.times): the reader refuses every ``ts`` the writer would not write, on both
reading paths, and a clock the writer cannot write is one line, never a traceback."""

from __future__ import annotations

import datetime
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginlog.game.rules import preset
from ginlog.log import events as E
from ginlog.log.format import digest, encode
from ginlog.log.known import KnownBodies
from ginlog.log.times import FIRST_YEAR, LAST_YEAR, now_ts, valid_ts, valid_ts_bytes
from ginlog.match.reading import read_match

from forked import can_fork, fake_clock, run_forked
from test_cli import GINLOG, exe

NEVER_WRITTEN = [
    "2026-02-29T12:00:00.000Z",  # not a leap year
    "2100-02-29T12:00:00.000Z",  # a century that is not one
    "2026-04-31T12:00:00.000Z",
    "0000-01-01T00:00:00.000Z",
    "1969-12-31T23:59:59.999Z",
    "2026-11-29T19:56:25Z",  # no milliseconds
    "2026-11-29T19:56:25.1Z",
    "2026-11-29T19:56:25.123456Z",
]


def naive_valid(ts: str) -> bool:
    """The rule spelled the slow way: what ``strftime`` of a real time in range writes, to the millisecond."""
    try:
        d = datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        return False
    return len(ts) == 24 and FIRST_YEAR <= d.year <= LAST_YEAR and ts == d.strftime("%Y-%m-%dT%H:%M:%S.") + ts[20:]


@given(st.datetimes(min_value=datetime.datetime(1, 1, 1)), st.sampled_from([0, 1, 2, 3, 3, 3, 4, 6]))
def test_the_rule_agrees_with_a_naive_one(d: datetime.datetime, width: int) -> None:
    frac = f".{d.microsecond:06d}"[: width + 1] if width else ""
    ts = f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}{frac}Z"
    assert valid_ts(ts) == naive_valid(ts) == valid_ts_bytes(ts.encode())


@given(st.text(alphabet="0123456789-:.TZ", min_size=20, max_size=27))
def test_the_rule_agrees_with_a_naive_one_on_any_text(ts: str) -> None:
    assert valid_ts(ts) == naive_valid(ts) == valid_ts_bytes(ts.encode())


@pytest.mark.parametrize("day", ["2028-02-29", "2000-02-29", "2026-12-31", "2026-04-30", "1970-01-01", "9999-12-31"])
def test_real_days_are_times(day: str) -> None:
    assert valid_ts(f"{day}T23:59:59.999Z")


def lines_with(ts: str, repeat: int = 3) -> bytes:
    """A match whose notes were written at ``ts`` (the same body again and again: the fast path's runs)."""
    events: list[E.Event] = [E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))]
    events += [E.Note(text="x")] * repeat
    out, prev = [], None
    for seq, ev in enumerate(events, start=1):
        stamp = "2026-01-01T10:00:00.000Z" if seq == 1 else ts
        raw = encode(seq, "2026-01-01T10:00:00.000Z", E.event_type(ev), E.SCHEMA_VERSION, prev, E.event_fields(ev))
        raw = raw.replace(b'"ts":"2026-01-01T10:00:00.000Z"', f'"ts":"{stamp}"'.encode(), 1)
        out.append(raw + b"\n")
        prev = digest(raw)
    return b"".join(out)


@pytest.mark.parametrize("ts", NEVER_WRITTEN)
def test_the_reader_refuses_what_the_writer_would_not_write_on_both_paths(ts: str) -> None:
    data = lines_with(ts)
    known = KnownBodies()
    read_match(io.BytesIO(lines_with("2026-01-01T10:00:01.000Z")), known=known)  # the note's body is known now
    for k in (None, known):
        report = read_match(io.BytesIO(data), collect=True, known=k)
        assert [(e.rule, e.line) for e in report.errors] == [("timestamp", 2), ("timestamp", 3), ("timestamp", 4)], k


@pytest.mark.parametrize("ts", NEVER_WRITTEN[:5])
def test_audit_names_the_line_and_the_rule(tmp_path: Path, ts: str) -> None:
    m = tmp_path / "m.jsonl"
    m.write_bytes(lines_with(ts, repeat=1))
    run = exe("audit", m)
    assert run.returncode == 1 and f"{m}:2: event 2: ts must be a UTC time as ginlog writes it" in run.stderr
    assert "[timestamp]" in run.stderr


_CLOCK = """
import sys, time
time.time_ns = lambda: {ns}
from ginlog.app.cli import main
sys.argv = ["ginlog", *sys.argv[1:]]
main()
"""


def at_clock(ns: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``ginlog ARGS`` in a process whose clock reads ``ns``: forked with the clock faked (tests/forked.py), else a
    fresh interpreter that fakes it before ginlog is imported."""
    if GINLOG.exists() and can_fork(os.environ):
        got = run_forked([str(GINLOG), *args], input=b"", env=dict(os.environ), cwd=None, timeout=60,
                         prepare=lambda: fake_clock(ns))
        return subprocess.CompletedProcess(got.args, got.returncode, got.stdout.decode(), got.stderr.decode())
    return subprocess.run([sys.executable, "-c", _CLOCK.format(ns=ns), *args], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("ns", [-1, 2**64 * 10**9])  # before 1970; past what gmtime takes
def test_a_clock_out_of_range_is_one_line_for_new_and_play(tmp_path: Path, ns: int) -> None:
    m = tmp_path / "m.jsonl"
    new = at_clock(ns, "new", str(m), "--player", "Ann", "--player", "Bob")
    assert new.returncode == 1 and "Traceback" not in new.stderr, new.stderr
    assert new.stderr.count("\n") == 1 and "the clock reads a time before 1970 or after 9999" in new.stderr
    assert not m.exists()
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    before = m.read_bytes()
    play = at_clock(ns, "play", str(m), "dealer Ann")
    assert play.returncode == 1 and "Traceback" not in play.stderr and "[clock]" in play.stderr, play.stderr
    assert m.read_bytes() == before


def test_now_is_a_time_the_reader_takes() -> None:
    assert valid_ts(now_ts())
