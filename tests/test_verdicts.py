"""Issue 19: one verdict per file in every command, and one many-file loop (in order, one walk).

Before: ``stats --json`` kept every one of a damaged file's problems and said
nothing of its warnings, ``html -o`` wrote one line a problem, ``score``,
``show`` and ``replay`` gave the first problem alone and no warning; the
progress bar walked the paths a second time to count them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click
import typer
import pytest

from forked import can_fork, run_forked

from ginlog.app.check import paths as paths_module
from ginlog.app.check.verdicts import Failed, LocalPool, Sequential, Verdict, verdict_of, verdicts

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
BAD_LINES = 5_000  # past the 100 kept many times over (tests/test_policy.py measures memory)


def ginlog(*args: Any) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it: ``python -m ginlog.app.cli ARGS``."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    if can_fork(env):  # the same main(), without the interpreter's start (tests/forked.py)
        p = run_forked(["ginlog", *map(str, args)], input=b"", env=env, cwd=None, timeout=300)
        return subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode(), p.stderr.decode())
    return subprocess.run([sys.executable, "-m", "ginlog.app.cli", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four damaged files: a torn tail, a broken chain, an illegal event, a score pad followed by bad lines;
    and the score pad alone (valid, with a warning)."""
    folder = tmp_path_factory.mktemp("club")
    shutil.copy(SAMPLES / "invalid" / "torn-tail.jsonl", folder / "a-torn.jsonl")
    shutil.copy(SAMPLES / "invalid" / "edited-line.jsonl", folder / "b-chain.jsonl")
    shutil.copy(SAMPLES / "invalid" / "wrong-turn.jsonl", folder / "c-illegal.jsonl")
    (folder / "d-lines.jsonl").write_bytes((SAMPLES / "score-pad-match.jsonl").read_bytes() + b"x\n" * BAD_LINES)
    shutil.copy(SAMPLES / "score-pad-match.jsonl", folder / "e-pad.jsonl")
    return folder


def _verdict(entry: dict[str, Any]) -> Verdict:
    """A ``--json`` file entry's verdict (the keys every command's JSON shares)."""
    return Verdict(entry["file"], tuple(entry["errors"]), entry["errors_total"], entry["errors_by_rule"],
                   tuple(entry["warnings"]), entry["warnings_total"], entry["warnings_by_rule"])


def _said(v: Verdict) -> list[str]:
    """What a command that lists no problem says of the file on standard error: an invalid file's first
    problem, with how many more, in one line; a valid file's warnings."""
    line = v.one_line()
    return [line] if line is not None else v.warning_lines()


def _total(line: str) -> int:
    m = re.search(r"\(and ([\d,]+) more problems?", line)
    return 1 + (int(m[1].replace(",", "")) if m else 0)


@pytest.fixture(scope="module")
def audited(club: Path) -> dict[str, Verdict]:
    p = ginlog("audit", club, "--json")
    assert p.returncode == 1, p.stderr
    return {Path(f["file"]).name: _verdict(f) for f in json.loads(p.stdout)["files"]}


def test_the_audit_sees_each_damage(audited: dict[str, Verdict]) -> None:
    assert sorted(audited) == ["a-torn.jsonl", "b-chain.jsonl", "c-illegal.jsonl", "d-lines.jsonl", "e-pad.jsonl"]
    assert [v.ok for _, v in sorted(audited.items())] == [False, False, False, False, True]
    assert [w["rule"] for w in audited["e-pad.jsonl"].warnings] == ["score-pad"]
    lines = audited["d-lines.jsonl"]
    assert lines.errors_total == BAD_LINES and len(lines.errors) == 100
    assert [w["rule"] for w in lines.warnings] == ["score-pad"]


def test_machine_outputs_give_every_file_the_audits_verdict(club: Path, audited: dict[str, Verdict]) -> None:
    """``validate --json`` and ``stats --json``: the same verdict, field for field (stats kept all 20,000 before)."""
    files = sorted(club.iterdir())
    p = ginlog("validate", *files, "--json")
    assert p.returncode == 1
    assert {Path(f["file"]).name: _verdict(f) for f in json.loads(p.stdout)["files"]} == audited
    p = ginlog("stats", club, "--json")
    assert p.returncode == 1
    assert {Path(f["file"]).name: _verdict(f) for f in json.loads(p.stdout)["files"]} == audited
    assert p.stderr.splitlines() == [line for f in files for line in _said(audited[f.name])]


@pytest.mark.parametrize("command", ["score --json", "show --json", "replay --json", "html -o"])
def test_one_match_commands_say_the_audits_verdict(club: Path, audited: dict[str, Verdict], tmp_path: Path,
                                                   command: str) -> None:
    """The first problem, how many in all, and the warnings (score and show said neither before)."""
    for f in sorted(club.iterdir()):
        args = command.split() + ([tmp_path / "page.html"] if command == "html -o" else [])
        p = ginlog(args[0], f, *args[1:])
        v = audited[f.name]
        assert p.returncode == (0 if v.ok else 1), (f.name, p.stderr)
        said = p.stderr.splitlines()
        assert said == _said(v), f.name
        if not v.ok:
            assert _total(said[0]) == v.errors_total


def test_many_file_commands_say_the_audits_verdict(club: Path, audited: dict[str, Verdict], tmp_path: Path) -> None:
    """``export`` and the site: the same lines (the page listed 20,000 problems on standard error before);
    ``export`` lists the invalid files only (its rows are data)."""
    want = [line for f in sorted(club.iterdir()) for line in _said(audited[f.name])]
    p = ginlog("export", club, "-o", tmp_path / "hands.csv")
    assert p.returncode == 1 and p.stderr.splitlines() == [x for x in want if not x.endswith("(warning)")]
    p = ginlog("html", club, "-o", tmp_path / "site")
    assert p.returncode == 1 and p.stderr.splitlines()[:-1] == want
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert f"invalid: {BAD_LINES} problems" in index


def test_the_page_lists_what_is_kept_and_counts_the_rest(club: Path, tmp_path: Path) -> None:
    p = ginlog("html", club / "d-lines.jsonl", "-o", tmp_path / "page.html")
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert p.returncode == 1 and f"{BAD_LINES - 100:,} more problems not listed" in page
    assert len(page) < 500_000  # 6.8 MB for 100,000 bad lines before


# --------------------------------------------------------------------------- the loop


def _late_first(path: str) -> str:
    """A reading that takes longest on the first files, so that a pool finishes them last."""
    name = os.path.basename(path)
    time.sleep(0.3 if name < "c" else 0.0)
    return name


def test_results_come_in_input_order_with_a_pool(tmp_path: Path) -> None:
    names = [f"{c}.jsonl" for c in "abcdefgh"]
    for n in names:
        (tmp_path / n).write_bytes(b"")
    for executor in (Sequential(), LocalPool(3)):
        got = list(verdicts([str(tmp_path), str(tmp_path / "missing.jsonl")], _late_first, executor=executor, window=4))
        assert got[:-1] == names
        assert isinstance(got[-1], Failed) and got[-1].path == str(tmp_path / "missing.jsonl")


def test_audit_with_jobs_gives_the_files_in_order(club: Path, audited: dict[str, Verdict]) -> None:
    p = ginlog("audit", club, "--json", "--jobs", "2")
    assert [Path(f["file"]).name for f in json.loads(p.stdout)["files"]] == sorted(audited)


def test_a_window_bounds_the_readings_in_flight(tmp_path: Path) -> None:
    """The walk runs at most ``window`` files ahead of the results handed back (a million paths are never held)."""
    walked: list[str] = []

    def walk(paths: Any) -> Any:
        for p in paths:
            walked.append(p)
            yield p

    results = verdicts([str(tmp_path / f"{i}.jsonl") for i in range(100)], verdict_of, executor=Sequential(),
                       window=5, walk=walk)
    next(results)
    assert len(walked) == 5
    results.close()  # stop the loop (the walk's folders are closed)


@pytest.mark.parametrize("command", ["audit", "stats", "export", "site"])
def test_the_paths_are_walked_once_with_a_bar(club: Path, tmp_path: Path, command: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """With the progress bar showing, the folder is still listed once (count_paths walked it again before)."""
    from ginlog.app.cli import check as cli_check
    from ginlog.app.cli import data as cli_data
    from ginlog.app.shell import progress

    listed: list[str] = []
    scandir = os.scandir

    def counting(path: Any = ".") -> Any:
        # The walk lists a folder through its descriptor: name it by what the descriptor opened.
        listed.append(os.readlink(f"/proc/self/fd/{path}") if isinstance(path, int) else os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", counting)  # the os module the walk lists folders with
    monkeypatch.setattr(progress, "shows", lambda *a, **k: True)
    with contextlib.suppress(SystemExit, click.exceptions.Exit, typer.Exit):
        if command == "audit":
            cli_check.audit([str(club)], jobs=1, json_=False, anchor=None, quiet=True, max_errors=100)
        elif command == "stats":
            cli_data.stats([str(club)], json_=True)
        elif command == "export":
            cli_data.export([str(club)], "csv", str(tmp_path / "hands.csv"))
        else:
            cli_data.site(str(club), str(tmp_path / "site"))
    capsys.readouterr()
    assert listed == [str(club)]
