"""Numbers bounded (issue 13): every knob and count has a range, and a number too big to print never crashes a command.

The issue's file: a match_started whose knob has thousands of digits (here
4,300 nines, the most the JSON decoder takes) and a score-pad hand. Under
the old code the gin bonus plus the defender's deadwood made a 4,301-digit
int, and the first message or score line that printed it raised
``ValueError`` (``sys.set_int_max_str_digits``): ``score``, ``replay`` and
``show`` died with a traceback, and with a claimed ``points`` so did
``validate`` and a whole folder ``audit``. Now the knob is refused where the
rules are read, with one error naming it and its range.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from forked import can_fork, run_forked

from ginlog.errors import EventError, GinlogError, RulesError
from ginlog.game.rules import all_knobs, KNOB_HELP, KNOB_RANGES, Rules, preset, rules_from_dict, rules_to_dict, with_knobs
from ginlog.log import format
from ginlog.log.events import event_from_fields
from ginlog.match.reading import read_match
from ginlog.numbers import SHOWN_DIGITS, InRange, shown_int

GINLOG = Path(sys.executable).parent / "ginlog"
HUGE = int("9" * 4300)  # the longest int CPython's JSON decoder (and str()) take
TS = "2026-01-01T00:00:00.000Z"


def write(path: Path, events: list[tuple[str, dict[str, Any]]]) -> Path:
    prev = None
    out = b""
    for seq, (type_, fields) in enumerate(events, 1):
        raw = format.encode(seq, TS, type_, 2, prev, fields)
        prev = format.digest(raw)
        out += raw + b"\n"
    path.write_bytes(out)
    return path


def big_knob_file(path: Path, knob: str = "gin_bonus", value: int = HUGE, points: int | None = 1) -> Path:
    rules = rules_to_dict(preset("classic")) | {knob: value}
    result: dict[str, Any] = {"how": "gin", "out": "Bob", "defender_deadwood": 20, "upcard": "7H"}
    if points is not None:
        result["points"] = points
    return write(path, [
        ("match_started", {"players": ["Ann", "Bob"], "rules": rules, "tool": "test"}),
        ("first_dealer", {"dealer": "Ann", "how": "agreed"}),
        ("hand_result", result),
    ])


def good_file(path: Path) -> Path:
    return write(path, [
        ("match_started", {"players": ["Ann", "Bob"], "rules": rules_to_dict(preset("classic")), "tool": "test"}),
        ("first_dealer", {"dealer": "Ann", "how": "agreed"}),
        ("hand_result", {"how": "gin", "out": "Bob", "defender_deadwood": 20, "upcard": "7H"}),
    ])


def ginlog(*args: object) -> subprocess.CompletedProcess[str]:
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "COLUMNS")}
    if can_fork(env):  # the same main(), without the interpreter's start (tests/forked.py)
        p = run_forked([str(GINLOG), *map(str, args)], input=None, env=env, cwd=None, timeout=120)
        return subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode(), p.stderr.decode())
    return subprocess.run([sys.executable, str(GINLOG), *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=120)


def assert_short(text: str) -> None:
    assert "Traceback" not in text, text[-2000:]
    assert "9" * (SHOWN_DIGITS + 1) not in text, "a long number was printed"


# ---------------------------------------------------------------------------- shown_int


@pytest.mark.parametrize("n", [0, 1, 9, 10, 99, 10**19 - 1, 10**19, 10**20 - 1, 10**20, 10**20 + 1, 10**4299,
                               HUGE, HUGE + 1, 10**5000, 2**20000], ids=shown_int)
def test_shown_int_is_short_and_exact(n: int) -> None:
    for value in (n, -n):
        text = shown_int(value)
        assert len(text.split("…")[0]) <= SHOWN_DIGITS
        if "…" not in text:
            assert int(text) == value
            continue
        head, count = text[:-len(" digits)")].split("…(")
        digits = len(str(abs(value))) if abs(value).bit_length() < 14000 else None
        if digits is not None:
            assert int(count) == digits
            assert str(abs(value)).startswith(head.lstrip("-"))
        assert head.startswith("-") == (value < 0)


def test_in_range_names_the_field_and_the_range() -> None:
    check = InRange(3, 7, EventError, "event")
    field = types.SimpleNamespace(name="undoes")
    check(None, field, None)  # type: ignore[arg-type]  # None passes: the type says whether it may be null
    for ok in (3, 5, 7):
        check(None, field, ok)  # type: ignore[arg-type]
    for bad in (2, 8, -(10**5000), True, "5", 5.0):
        with pytest.raises(EventError) as info:
            check(None, field, bad)  # type: ignore[arg-type]
        assert info.value.rule == "event"
        assert "undoes must be a whole number from 3 to 7" in info.value.message
        assert len(info.value.message) < 100


# ---------------------------------------------------------------------------- every knob, every count


def test_every_int_knob_has_a_documented_range() -> None:
    # every knob, a later one at its default too (rules_to_dict leaves those out of a file)
    ints = {k for k, v in all_knobs(Rules()).items() if type(v) is int or v is None and k not in ("oklahoma", "hollywood")}
    assert ints == set(KNOB_RANGES)
    for knob, (lo, hi) in KNOB_RANGES.items():
        assert f"[{lo}..{hi}" in KNOB_HELP[knob]


@pytest.mark.parametrize("knob", sorted(KNOB_RANGES))
def test_each_knob_is_refused_outside_its_range_with_one_error(knob: str) -> None:
    lo, hi = KNOB_RANGES[knob]
    for ok in (lo, hi):
        assert getattr(rules_from_dict({knob: ok}), knob) == ok
    for bad in (lo - 1, hi + 1, HUGE, -HUGE, 10**5000):
        with pytest.raises(RulesError) as info:
            rules_from_dict({knob: bad})
        err = info.value
        assert err.rule == "rules"
        assert err.one_line().count("[rules]") == 1  # one error, not one wrapped in another
        assert f"{knob} must be a whole number from {lo} to {hi}" in err.message
        assert len(err.one_line()) < 140, err.one_line()


@pytest.mark.parametrize("knob", sorted(KNOB_RANGES))
def test_with_knobs_refuses_a_long_number_typed_at_the_command_line(knob: str) -> None:
    for text in ("9" * 5000, "9" * 100, str(KNOB_RANGES[knob][1] + 1)):
        with pytest.raises(RulesError) as info:
            with_knobs(preset("standard"), **{knob: text})
        assert knob in info.value.message
        assert len(info.value.one_line()) < 140


@pytest.mark.parametrize(("type_", "fields", "field"), [
    ("hand_result", {"how": "knock", "out": "Ann", "knocker_deadwood": 5, "defender_deadwood": 20}, "points"),
    ("hand_result", {"how": "knock", "out": "Ann", "defender_deadwood": 20}, "knocker_deadwood"),
    ("hand_result", {"how": "knock", "out": "Ann", "knocker_deadwood": 5}, "defender_deadwood"),
    ("correction", {}, "undoes"),
])
def test_each_count_of_an_event_is_refused_outside_its_range(type_: str, fields: dict[str, Any], field: str) -> None:
    for bad in (-1, HUGE, -HUGE, format.MAX_SEQ + 1):
        with pytest.raises(EventError) as info:
            event_from_fields(type_, fields | {field: bad})
        assert info.value.rule == "event"
        assert f"{field} must be a whole number from" in info.value.message
        assert len(info.value.one_line()) < 140, info.value.one_line()


# ---------------------------------------------------------------------------- the file


@pytest.mark.parametrize("knob", sorted(KNOB_RANGES))
@pytest.mark.parametrize("points", [None, 1])
def test_a_huge_knob_is_one_error_at_line_1(tmp_path: Path, knob: str, points: int | None) -> None:
    path = big_knob_file(tmp_path / "m.jsonl", knob, HUGE, points)
    assert path.stat().st_size < 6000
    report = read_match(path, collect=True)
    assert [(e.rule, e.line) for e in report.errors] == [("rules", 1)]
    assert knob in report.errors[0].message
    assert_short(report.errors[0].one_line())


@pytest.mark.parametrize("command", ["score", "replay", "show", "validate", "audit"])
@pytest.mark.parametrize("points", [None, 1])
def test_commands_report_the_huge_knob_in_one_line(tmp_path: Path, command: str, points: int | None) -> None:
    path = big_knob_file(tmp_path / "m.jsonl", "gin_bonus", HUGE, points)
    proc = ginlog(command, path)
    assert_short(proc.stdout + proc.stderr)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "gin_bonus must be a whole number from 0 to 1000" in proc.stdout + proc.stderr


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_a_folder_audit_reports_every_other_file(tmp_path: Path, jobs: list[str]) -> None:
    club = tmp_path / "club"
    club.mkdir()
    big_knob_file(club / "a-bad.jsonl")
    big_knob_file(club / "b-bad-undercut.jsonl", "undercut_bonus")
    good_file(club / "c-good.jsonl")
    proc = ginlog("audit", club, "--json", *jobs)
    assert_short(proc.stdout + proc.stderr)
    report = json.loads(proc.stdout)
    assert report["summary"]["errors_by_rule"] == {"rules": 2}
    files = {Path(f["file"]).name: f for f in report["files"]}
    assert set(files) == {"a-bad.jsonl", "b-bad-undercut.jsonl", "c-good.jsonl"}
    assert files["c-good.jsonl"]["ok"] is True


def test_validate_reports_every_other_file(tmp_path: Path) -> None:
    bad = big_knob_file(tmp_path / "a.jsonl")
    good = good_file(tmp_path / "b.jsonl")
    proc = ginlog("validate", bad, good, "--json")
    assert_short(proc.stdout + proc.stderr)
    files = json.loads(proc.stdout)["files"]
    assert [f["ok"] for f in files] == [False, True]


def test_a_knob_at_the_end_of_its_range_still_scores(tmp_path: Path) -> None:
    path = big_knob_file(tmp_path / "m.jsonl", "gin_bonus", 1000, points=1020)
    report = read_match(path, collect=True)
    assert not report.errors, report.errors
    assert report.state is not None
    assert report.state.totals()[0] == 0 and report.state.totals()[1] > 1020  # the claim held; then bonuses


def test_errors_are_ginlog_errors() -> None:
    # Belt and braces: a huge value never escapes as a ValueError from str().
    with pytest.raises(GinlogError):
        rules_from_dict({"gin_bonus": 10**5000})
