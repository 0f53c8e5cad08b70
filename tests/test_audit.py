"""The audit never crashes, hangs or lies, says what it cannot verify, and exits as scripts expect (issue 13).

Each attack here ran against the code before the fix and failed there (a
hang, a silent "0 files, exit 0", a million errors kept, a cascade, a clean
verdict that said nothing): the docstrings say what it did.

Commands run as ``python -m ginlog.app.cli`` so that a hang is a timeout of
one child, never of the test run.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

import ptys
from forked import can_fork, run_forked

from ginlog.errors import GinlogError
from ginlog.game.rules import preset, with_knobs
from ginlog.log import events as E
from ginlog.log.format import digest, encode
from ginlog.log.known import KnownBodies
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.play.simulate import simulate_match

ROOT = Path(__file__).resolve().parent.parent
ONE_LINE = re.compile(r"^\S.*: .+ \[[a-z0-9-]+\]$")
TS = "2026-11-29T19:56:25.123Z"


def cli(*args: object, input: bytes | None = None, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``ginlog ARGS`` in a child process; a hang fails the test after ``timeout`` seconds."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS")}
    try:
        if can_fork(env):  # the same main(), without the interpreter's start (tests/forked.py)
            proc = run_forked(["ginlog", *map(str, args)], input=input if input is not None else b"", env=env,
                              cwd=cwd, timeout=timeout)
        else:
            proc = subprocess.run(
                [sys.executable, "-m", "ginlog.app.cli", *map(str, args)],
                input=input if input is not None else b"", capture_output=True, timeout=timeout, env=env, cwd=cwd,
            )
    except subprocess.TimeoutExpired:
        pytest.fail(f"ginlog {' '.join(map(str, args))} hung (no answer in {timeout} s)")
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


def audit_json(*args: object, input: bytes | None = None) -> tuple[int, dict[str, Any]]:
    p = cli("audit", *args, "--json", input=input)
    return p.returncode, json.loads(p.stdout)


@pytest.fixture(scope="module")
def finished() -> list[E.Event]:
    return simulate_match(preset("standard"), seed=1, mode="table")


@pytest.fixture
def match(tmp_path: Path, finished: list[E.Event]) -> Path:
    path = tmp_path / "m.jsonl"
    MatchSession.write(path, finished)
    return path


# --------------------------------------------------------------------------- memory and the cap


def test_a_million_errors_are_counted_not_kept_and_memory_stays_bounded(tmp_path: Path) -> None:
    """Before: every error kept (1,000,000 lines of ``x``: 777 MB, 53 s). Now at most --max-errors, all counted.

    200,000 lines here (about a second); benchmarks/bench_audit_memory.py runs the million and 100 MB of garbage.
    """
    n = 200_000
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"x\n" * n)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_audit_memory import PEAK_KB  # the child's own peak: ru_maxrss would start at pytest's
    finally:
        sys.path.pop(0)
    child = (
        PEAK_KB
        + "import sys\n"
        "from ginlog.app.cli import main\n"
        f"sys.argv = ['ginlog', 'audit', {str(path)!r}, '--json']\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write(f'RSS {_peak_kb()} CODE {code}\\n')\n"
    )
    t0 = os.times()
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=120)
    t1 = os.times()
    cpu = t1.children_user - t0.children_user + t1.children_system - t0.children_system
    m = re.search(rb"RSS (\d+) CODE (\d+)", proc.stderr)
    assert m, proc.stderr[-2000:]
    rss_mb, code = int(m[1]) / 1024, int(m[2])
    assert code == 1
    assert rss_mb < 100, f"peak RSS {rss_mb:.0f} MB auditing {n:,} bad lines"
    assert cpu < 30, f"{cpu:.1f} s of CPU for {n:,} bad lines"
    data = json.loads(proc.stdout)
    (f,) = data["files"]
    assert len(f["errors"]) == 100 and f["errors_total"] == n and f["errors_by_rule"] == {"json": n}
    assert data["summary"]["errors_total"] == n and data["summary"]["errors_by_rule"] == {"json": n}


def test_max_errors_keeps_that_many_and_says_how_many_more(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"x\n" * 1000)
    code, data = audit_json(path, "--max-errors", 5)
    (f,) = data["files"]
    assert code == 1 and len(f["errors"]) == 5 and f["errors_total"] == 1000
    p = cli("audit", path, "--max-errors", 5)
    lines = p.stderr.splitlines()
    assert len(lines) == 6 and "995 more problems not listed" in lines[-1] and "json 1000" in lines[-1]
    assert all(ONE_LINE.match(line) for line in lines)
    p = cli("validate", path, "--json", "--max-errors", 3)
    (f,) = json.loads(p.stdout)["files"]
    assert len(f["errors"]) == 3 and f["errors_total"] == 1000


def test_garbage_of_every_kind_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """A few MB of mixed garbage (the benchmark does 100 MB): no crash, every line's problem counted."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_audit_memory as bench
    finally:
        sys.path.pop(0)
    path = tmp_path / "garbage.jsonl"
    lines = bench.write_garbage(path, 4 * 1024 * 1024, seed=3)
    rss, cpu, data = bench.audit_in_child(path)
    (f,) = data["files"]
    assert rss < 100 * 1024 * 1024 and f["errors_total"] >= lines // 10 and len(f["errors"]) <= 100
    assert cpu < 60


# --------------------------------------------------------------------------- one fault, one error


def test_a_deleted_line_is_one_seq_one_link_and_one_cascade_error(match: Path) -> None:
    """Before: seq, chain, then one illegal-move error for nearly every line after it (the fold, missing a draw)."""
    raws = match.read_bytes().split(b"\n")[:-1]
    i = next(k for k, r in enumerate(raws) if b'"card_drawn"' in r and k > 20)
    del raws[i]
    match.write_bytes(b"\n".join(raws) + b"\n")
    report = read_match(match, collect=True)
    rules = [(e.rule, e.line) for e in report.errors]
    assert rules[:2] == [("seq", i + 1), ("chain", i + 1)]
    assert len(rules) == 3 and report.errors_total == 3, rules
    cascade = report.errors[2]
    assert cascade.line is not None and cascade.line > i and f"after the break in the record at line {i + 1}" in cascade.message
    assert re.search(r"\d+ more events up to line \d+ break the rules too", cascade.message)
    code, data = audit_json(match)
    (f,) = data["files"]
    assert code == 1 and f["errors_total"] == 3 and len(f["errors"]) == 3


def test_an_edited_seq_is_one_seq_error_not_two(tmp_path: Path) -> None:
    """Before: the next (correct) line was out of step with the edited one, a second seq error."""
    from ginlog.log.reader import read_lines

    raws, prev = [], None
    for seq in range(1, 7):
        raw = encode(52 if seq == 3 else seq, TS, "draw", 1, prev, {"i": seq})
        raws.append(raw)
        prev = digest(raw)
    errors: list[GinlogError] = []
    list(read_lines(io.BytesIO(b"".join(r + b"\n" for r in raws)), errors=errors))
    assert [(e.rule, e.line) for e in errors] == [("seq", 3)]


# --------------------------------------------------------------------------- what cannot be read, never skipped


COMMANDS_ON = [
    ("audit",), ("validate",), ("score",), ("show",), ("replay",), ("play", "@", "note x"), ("undo",), ("record",),
    ("repair",),
]


def _command(cmd: tuple[str, ...], path: Path) -> list[str]:
    return [str(path) if a == "@" else a for a in (cmd if "@" in cmd else (*cmd, "@"))]


@pytest.mark.parametrize("cmd", COMMANDS_ON, ids=lambda c: c[0])
def test_a_fifo_is_refused_at_once_by_every_command(tmp_path: Path, cmd: tuple[str, ...]) -> None:
    """Before: audit, score, play, record (and the rest) hung on a FIFO until a writer came."""
    fifo = tmp_path / "m.jsonl"
    os.mkfifo(fifo)
    p = cli(*_command(cmd, fifo), input=b"note x\n", timeout=20)
    assert p.returncode == 1, (p.stdout, p.stderr)
    problems = [line for line in p.stderr.splitlines() if line.strip()]
    assert problems and all(ONE_LINE.match(line) for line in problems), p.stderr
    assert "[file]" in p.stderr and "not a regular file" in p.stderr


@pytest.mark.parametrize(
    "call",
    [
        "from ginlog.log.files import head; head(P)",
        "from ginlog.log.writer import append_many; append_many(P, [('note', 2, {'text': 'x'})], expect=1)",
        "from ginlog.log.writer import repair; repair(P)",
        "from ginlog.log.reader import read_lines; list(read_lines(P))",
    ],
    ids=["head", "append", "repair", "reader"],
)
def test_the_store_refuses_a_fifo_without_blocking(tmp_path: Path, call: str) -> None:
    """Every place a match file is opened: before, ``head`` and the reader blocked until a writer came."""
    fifo = tmp_path / "m.jsonl"
    os.mkfifo(fifo)
    code = f"P = {str(fifo)!r}\nfrom ginlog.errors import StoreError\ntry:\n    {call}\nexcept StoreError as e:\n    print(e.rule, e)\n"
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{call} blocked on a FIFO")
    assert proc.returncode == 0 and proc.stdout.startswith("file ") and "not a regular file" in proc.stdout, proc


def test_a_fifo_among_openspiel_records_is_refused(tmp_path: Path) -> None:
    """Before: ``import openspiel`` hung on a FIFO among the records."""
    fifo = tmp_path / "r.txt"
    os.mkfifo(fifo)
    record = ROOT / "tests" / "data" / "openspiel" / "records" / "default-050.txt"
    p = cli("import", "openspiel", record, fifo, "-o", tmp_path / "out", timeout=20)
    assert p.returncode == 1 and "imported 1 record(s)" in p.stdout and "1 failed" in p.stdout
    assert str(fifo) in p.stderr and "[file]" in p.stderr


@pytest.mark.parametrize("cmd", [*COMMANDS_ON, ("import", "openspiel", "@", "-o", "out")], ids=lambda c: "-".join(c[:2]))
def test_a_missing_file_is_exit_1_in_every_command(tmp_path: Path, cmd: tuple[str, ...]) -> None:
    """One code for one kind of failure: before, play, undo and record said 2 (usage), the rest 1."""
    missing = tmp_path / "missing.jsonl"
    p = cli(*_command(cmd, missing), input=b"", timeout=30, cwd=tmp_path)
    assert p.returncode == 1, (cmd, p.stdout, p.stderr)
    problems = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(problems) == 1 and ONE_LINE.match(problems[0]) and str(missing) in problems[0], p.stderr


def test_an_empty_folder_fails(tmp_path: Path) -> None:
    """Before: an empty folder passed ("0 files", exit 0)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    p = cli("audit", empty)
    assert p.returncode == 1
    assert ONE_LINE.match(p.stderr.strip()) and "no match file" in p.stderr
    (tmp_path / "only-notes").mkdir()
    (tmp_path / "only-notes" / "notes.txt").write_text("hi\n")
    assert cli("audit", tmp_path / "only-notes").returncode == 1


def test_a_glob_of_folders_searches_them(tmp_path: Path, match: Path) -> None:
    """Before: a glob matching only folders audited nothing and passed."""
    club = tmp_path / "club"
    for week in ("week1", "week2"):
        (club / week).mkdir(parents=True)
        shutil.copy(match, club / week / "m.jsonl")
    code, data = audit_json(f"{club}/*")
    assert code == 0 and data["summary"]["files"] == 2
    (tmp_path / "bare" / "a").mkdir(parents=True)
    p = cli("audit", f"{tmp_path}/bare/*")
    assert p.returncode == 1 and "no match file" in p.stderr


def test_symlinked_sub_folders_are_followed_once_and_a_loop_ends(tmp_path: Path, match: Path) -> None:
    """Before: a symlinked sub-folder was skipped (its files never audited); a loop must not hang now that links are followed."""
    club = tmp_path / "club"
    elsewhere = tmp_path / "elsewhere"
    club.mkdir()
    elsewhere.mkdir()
    shutil.copy(match, club / "a.jsonl")
    shutil.copy(match, elsewhere / "b.jsonl")
    os.symlink(elsewhere, club / "last-season")
    os.symlink(club, club / "loop")  # a link back up the tree
    os.symlink(tmp_path / "nowhere.jsonl", club / "broken.jsonl")
    code, data = audit_json(club)
    names = sorted(Path(f["file"]).name for f in data["files"])
    assert names == ["a.jsonl", "b.jsonl", "broken.jsonl"], names
    broken = next(f for f in data["files"] if f["file"].endswith("broken.jsonl"))
    assert code == 1 and broken["errors"][0]["rule"] == "file"


def test_an_unreadable_folder_or_sub_folder_is_an_error(tmp_path: Path, match: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: an unreadable folder or sub-folder was skipped ("0 files", exit 0). (Simulated: root reads through chmod.)"""
    from ginlog.app.check import audit
    from ginlog.app.check import paths

    club = tmp_path / "club"
    (club / "locked").mkdir(parents=True)
    shutil.copy(match, club / "a.jsonl")
    real = os.open

    def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
        if flags & os.O_DIRECTORY and os.path.basename(str(path)) in ("locked", "shut"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)  # the os module ginlog.app.check.paths opens folders with
    files, problems = paths.expand_paths([str(club)])
    assert files == [str(club / "a.jsonl")]
    assert [(p.rule, p.path) for p in problems] == [("file", str(club / "locked"))]
    assert "permission denied" in problems[0].message
    (tmp_path / "shut").mkdir()
    files, problems = paths.expand_paths([str(tmp_path / "shut")])
    assert files == [] and [p.path for p in problems] == [str(tmp_path / "shut")]
    results = list(audit.audit_paths([str(club)]))
    assert [(r.ok, r.path) for r in results] == [(True, str(club / "a.jsonl")), (False, str(club / "locked"))]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads through chmod 000")
def test_an_unreadable_folder_really(tmp_path: Path, match: Path) -> None:
    locked = tmp_path / "club" / "locked"
    locked.mkdir(parents=True)
    shutil.copy(match, locked / "a.jsonl")
    locked.chmod(0)
    try:
        p = cli("audit", tmp_path / "club")
    finally:
        locked.chmod(0o755)
    assert p.returncode == 1 and "permission denied" in p.stderr


def test_standard_input_is_read_by_the_parent_with_jobs(match: Path) -> None:
    """Before: ``audit - FILE --jobs 2`` read standard input in a worker and reported it empty."""
    code, data = audit_json("-", match, "--jobs", 2, input=match.read_bytes())
    stdin, other = data["files"]
    assert code == 0, data
    assert stdin["file"] == "<stdin>" and stdin["ok"] and stdin["events"] == other["events"] > 100


def test_ctrl_c_during_audit_jobs_is_one_line_and_130(tmp_path: Path, match: Path) -> None:
    """Before: worker tracebacks (and no word from ginlog)."""
    club = tmp_path / "club"
    club.mkdir()
    for i in range(400):
        shutil.copy(match, club / f"m{i:03}.jsonl")
    null = os.open(os.devnull, os.O_RDONLY)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        # a session of its own (the group Ctrl-C signals, workers and all); forked where it can be (tests/forked.py)
        proc = ptys.start(["audit", club, "--jobs", "2", "--json"], stdin=null, stdout=out.fileno(),
                          stderr=err.fileno(), env=dict(os.environ), prepare=os.setsid)
        os.close(null)
        deadline = time.monotonic() + 60
        while os.fstat(out.fileno()).st_size < 200 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)  # until the audit is under way: files are coming out
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C at a terminal: the whole process group
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail("audit --jobs did not stop on Ctrl-C")
        err.seek(0)
        said = err.read().decode()
    assert code == 130 and said == "ginlog: interrupted\n", said[-2000:]


# --------------------------------------------------------------------------- --anchor


def test_anchor_in_any_case_or_a_unique_prefix(match: Path) -> None:
    """Before: an upper-case head, or its first 12 digits, was "lines were removed or changed"."""
    head = digest(match.read_bytes().split(b"\n")[-2])
    for given in (head.upper(), head[:12], head[:12].upper(), head[:40]):
        p = cli("audit", match, "--anchor", given)
        assert p.returncode == 0, (given, p.stderr)
    p = cli("audit", match, "--anchor", ("0" if head[0] != "0" else "1") + head[1:12])
    assert p.returncode == 1 and "[anchor]" in p.stderr


@pytest.mark.parametrize("bad", ["abc", "0123456789a", "g" * 64, "0" * 65, "12345678901 2"])
def test_a_malformed_anchor_is_a_usage_error(match: Path, bad: str) -> None:
    p = cli("audit", match, "--anchor", bad)
    assert p.returncode == 2 and p.stderr.startswith("ginlog: --anchor"), p.stderr


def test_a_prefix_that_begins_two_lines_is_no_anchor() -> None:
    from ginlog.match.anchor import Anchor as _Anchor

    a = _Anchor("ABCDEF012345")
    a.see(1, ["abcdef0123450000", "ffff"])
    assert a.error("m.jsonl") is None
    a.see(3, ["abcdef012345ffff"])
    err = a.error("m.jsonl")
    assert err is not None and err.rule == "anchor" and "2 lines' hashes begin with" in err.message


# --------------------------------------------------------------------------- warnings


def _warnings(path: Path) -> list[tuple[str, int | None]]:
    code, data = audit_json(path)
    (f,) = data["files"]
    assert code == 0 and f["ok"], f["errors"]
    assert data["summary"]["warnings"] == f["warnings_total"] == len(f["warnings"])
    assert data["summary"]["warnings_by_rule"] == f["warnings_by_rule"]
    for w in f["warnings"]:
        assert set(w) == {"file", "line", "event", "rule", "message"}
    return [(w["rule"], w["line"]) for w in f["warnings"]]


def test_a_match_decided_by_score_pad_lines_says_so() -> None:
    """Before: "clean, finished", nothing said."""
    sample = ROOT / "sample_games" / "score-pad-match.jsonl"
    assert ("score-pad", None) in _warnings(sample)
    p = cli("audit", sample)
    assert "score-pad" in p.stdout and "Warnings" in p.stdout
    v = json.loads(cli("validate", sample, "--json").stdout)
    assert [w["rule"] for w in v["files"][0]["warnings"]] == ["score-pad"]
    assert "1 warning" in cli("validate", sample).stdout


def test_a_match_reopened_after_it_ended_says_so(tmp_path: Path, finished: list[E.Event]) -> None:
    """An undo after the match had ended, then play on: before, "clean, finished", nothing said."""
    from ginlog.play.reducer import fold

    assert fold(finished).state.phase == "over"
    path = tmp_path / "reopened.jsonl"
    MatchSession.write(path, [*finished, E.Correction(undoes=len(finished), reason="not over after all")])
    assert _warnings(path) == [("reopened", len(finished) + 1)]


def test_times_running_backwards_say_so_on_both_paths(tmp_path: Path) -> None:
    """Times going back (on lines read in full and on known lines read in runs) warn; times of other precisions compare as times."""
    start = E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))
    stamps = ["2026-01-01T10:00:00.000Z"] + [f"2026-01-01T10:00:{s:02}.000Z" for s in range(1, 40)]
    stamps[25] = "2026-01-01T09:00:00.000Z"  # line 26 goes back an hour; line 27 goes on from line 25's time
    raws, prev = [], None
    for seq, ts in enumerate(stamps, start=1):
        ev: E.Event = start if seq == 1 else E.Note(text="x")
        raw = encode(seq, ts, E.event_type(ev), E.SCHEMA_VERSION, prev, E.event_fields(ev))
        raws.append(raw)
        prev = digest(raw)
    data = b"".join(r + b"\n" for r in raws)
    for known in (None, KnownBodies()):
        if known is not None:
            read_match(io.BytesIO(data), known=known)  # learn the note's body: lines come in runs
        for block in (256, 1 << 16):
            report = read_match(io.BytesIO(data), collect=True, known=known, block=block)
            assert report.ok
            assert [(w.rule, w.line) for w in report.warnings] == [("time-order", 26)], (known, block)
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    assert _warnings(path) == [("time-order", 26)]
    # Other precisions are no longer times ginlog reads (ginlog.log.times: the writer's one rule).
    mixed, prev = [], None
    for seq, ts in enumerate(["2026-01-01T10:00:25.123Z", "2026-01-01T10:00:25.5Z", "2026-01-01T10:00:25Z"], start=1):
        ev = start if seq == 1 else E.Note(text="x")
        body = json.dumps({"seq": seq, "ts": ts, "type": E.event_type(ev), "v": 2, "prev": prev, **E.event_fields(ev)})
        mixed.append(body.encode())
        prev = digest(mixed[-1])
    report = read_match(io.BytesIO(b"".join(r + b"\n" for r in mixed)), collect=True, known=None)
    assert [(e.rule, e.line) for e in report.errors] == [("timestamp", 2), ("timestamp", 3)]


def test_unusual_rules_say_so(tmp_path: Path) -> None:
    """A knock limit of 100: before, "clean", nothing said."""
    path = tmp_path / "odd.jsonl"
    MatchSession.create(path, ("Ann", "Bob"), with_knobs(preset("standard"), knock_limit="100", gin_bonus="500"))
    assert _warnings(path) == [("unusual-rules", 1), ("unusual-rules", 1)]
    presets = ("standard", "newspaper", "modern", "classic", "oklahoma", "openspiel")
    for name in presets:
        MatchSession.create(tmp_path / f"{name}.jsonl", ("Ann", "Bob"), preset(name))
    code, data = audit_json(*(tmp_path / f"{name}.jsonl" for name in presets))  # one run for the six
    assert code == 0 and data["summary"]["warnings"] == 0
    assert [(Path(f["file"]).stem, f["ok"], f["warnings"]) for f in data["files"]] == [(n, True, []) for n in presets]


def test_a_page_states_the_warnings_the_audit_gives(tmp_path: Path, finished: list[E.Event]) -> None:
    """``html`` and the site show the audit's own warning lines (they said "No warnings." for a score-pad match)."""
    from ginlog.app.cli import data as cli_data
    from ginlog.app.check.audit import error_line
    from ginlog.app.pages.page_data import Verdict, match_data, read_steps
    from ginlog.app.pages.site import page_name

    folder = tmp_path / "club"
    folder.mkdir()
    shutil.copy(ROOT / "sample_games" / "score-pad-match.jsonl", folder / "pad.jsonl")
    MatchSession.write(folder / "reopened.jsonl", [*finished, E.Correction(undoes=len(finished), reason="not over")])
    MatchSession.create(folder / "odd.jsonl", ("Ann", "Bob"), with_knobs(preset("standard"), knock_limit="100"))
    raws, prev = [], None
    for seq, ts in enumerate(["2026-01-01T10:00:00.000Z", "2026-01-01T09:00:00.000Z"], start=1):
        ev: E.Event = E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard")) if seq == 1 else E.Note(text="x")
        raws.append(encode(seq, ts, E.event_type(ev), E.SCHEMA_VERSION, prev, E.event_fields(ev)))
        prev = digest(raws[-1])
    (folder / "clock.jsonl").write_bytes(b"".join(r + b"\n" for r in raws))
    assert cli_data.site(str(folder), str(tmp_path / "site")) == 0
    seen = set()
    for path in sorted(folder.iterdir()):
        _code, data = audit_json(path)
        said = [error_line(w) + " (warning)" for w in data["files"][0]["warnings"]]
        steps, errors, warnings = read_steps(str(path), str(path))
        page = match_data(steps, Verdict.of(errors, steps[-1].digest, warnings))
        assert said and page["match"]["verdict"]["warnings"] == said, path.name
        site_page = (tmp_path / "site" / "matches" / page_name(str(path), str(folder))).read_text(encoding="utf-8")
        assert all(json.dumps(w, ensure_ascii=False)[1:-1] in site_page for w in said), path.name
        seen |= {w["rule"] for w in data["files"][0]["warnings"]}
    assert seen == {"score-pad", "reopened", "time-order", "unusual-rules"}


def test_the_audit_table_shows_warnings(tmp_path: Path) -> None:
    sample = ROOT / "sample_games" / "score-pad-match.jsonl"
    p = cli("audit", sample, ROOT / "sample_games" / "standard-match.jsonl")
    assert p.returncode == 0
    assert "Warnings" in p.stdout and "Warnings by rule (not verified; see the README): score-pad 1" in p.stdout
    assert "score-pad] (warning)" in p.stdout and p.stderr == ""
    assert "(warning)" not in cli("audit", sample, "--quiet").stdout


# --------------------------------------------------------------------------- the README


def test_the_readme_documents_exit_codes_and_what_the_record_proves() -> None:
    from ginlog.app.cli import common

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 460
    table = re.search(r"^\| exit code \|.*?\n((?:\|.*\n)+)", text, re.M)
    assert table, "no exit code table"
    codes = {int(m) for m in re.findall(r"^\| (\d+) \|", table.group(1), re.M)}
    assert codes == {common.EXIT_OK, common.EXIT_INVALID, common.EXIT_USAGE, common.EXIT_INTERRUPTED}
    assert "What the record proves" in text and "no key" in text
    for rule in ("score-pad", "reopened", "time-order", "unusual-rules"):
        assert f"`{rule}`" in text
