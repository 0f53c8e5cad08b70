"""Streaming: the audit's summary and JSON as results come, paths as they are found, memory flat in the number of files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from ginlog.app.audit import audit_files, expand_paths
from ginlog.app.summary import AuditSummary, write_audit_json
from ginlog.app.walk import count_paths, iter_paths
from ginlog.errors import GinlogError
from ginlog.game.rules import preset
from ginlog.play.simulate import simulate_match

from data_matches import EPOCH, corpus, encode_match

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"


def test_audit_json_is_what_the_command_prints(tmp_path: Path) -> None:
    made, bad = corpus(tmp_path / "games")
    paths = [str(tmp_path / "games"), str(SAMPLES)]
    proc = subprocess.run(
        [sys.executable, "-m", "ginlog.app.cli", "audit", "--json", *paths],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, check=False,
    )
    assert proc.returncode == 1, proc.stderr
    import io

    out = io.StringIO()
    summary = write_audit_json(audit_files(expand_paths(paths)[0]), out)
    assert out.getvalue() == proc.stdout  # byte for byte, the summary first
    whole = json.loads(proc.stdout)
    assert summary.to_dict() == whole["summary"] and summary.invalid == len(bad) + sum(not f["ok"] for f in whole["files"] if f["file"].startswith(str(SAMPLES)))
    assert whole["summary"]["files"] == len(made) + len(bad) + len(expand_paths([str(SAMPLES)])[0])


def test_audit_json_of_nothing() -> None:
    import io

    out = io.StringIO()
    s = write_audit_json([], out)
    assert out.getvalue() == json.dumps({"summary": s.to_dict(), "files": []}, indent=2) + "\n"
    assert s.files == 0 and s.head is None


def test_summary_head_only_for_one_file() -> None:
    results = list(audit_files(expand_paths([str(SAMPLES)])[0][:2]))
    s = AuditSummary()
    s.add(results[0])
    assert s.head == results[0].head and s.head is not None
    s.add(results[1])
    assert s.head is None


def test_paths_stream_in_the_order_expand_paths_gives(tmp_path: Path) -> None:
    for name in ("b.jsonl", "b/x.jsonl", "b0.jsonl", "B.jsonl", "é.jsonl", "dir.jsonl/in.jsonl", "real/r.jsonl",
                 "a b/c.jsonl", "notes.txt"):
        p = tmp_path / "d" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("")
    (tmp_path / "d" / "link").symlink_to(tmp_path / "d" / "real")
    (tmp_path / "d" / "lf.jsonl").symlink_to(tmp_path / "d" / "real" / "r.jsonl")
    d = str(tmp_path / "d")
    args = [d, d + "/", d + "/./b", f"{d}/**/*.jsonl", f"{d}/nothing*.jsonl", f"{d}/missing.jsonl", f"{d}/b.jsonl", "-"]
    files, missing = expand_paths(args)
    got = list(iter_paths(args))
    assert [g for g in got if isinstance(g, str)] == files
    assert [(e.path, e.message) for e in got if isinstance(e, GinlogError)] == [(e.path, e.message) for e in missing]
    assert count_paths(args) == len(got)
    assert str(tmp_path / "d" / "link" / "r.jsonl") not in list(iter_paths([d]))  # a folder walk does not follow links


CHILD = r"""
import io, json, resource, sys
from ginlog.app import cli_data
what, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.stdout = io.TextIOWrapper(open(out, "wb"), encoding="utf-8")
if what == "stats":
    code = cli_data.stats(paths, json_=True)
elif what == "export":
    code = cli_data.export(paths, "csv")
else:
    from ginlog.app.summary import write_audit_json
    from ginlog.app.audit import audit_file
    from ginlog.app.walk import iter_paths
    write_audit_json((audit_file(p) for p in iter_paths(paths)), sys.stdout)
    code = 0
sys.stdout.flush()
sys.stderr.write(json.dumps({"code": code}))
"""

# Between pytest and the measured interpreter: on Linux a child's ru_maxrss starts from the RSS of the
# process it was forked from, so the measured one is forked from this small launcher, whose only child
# it is (RUSAGE_CHILDREN is then that child's peak).
LAUNCHER = r"""
import json, resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, text=True)
sys.stderr.write(p.stderr + "\n" + json.dumps({"maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def _files(folder: Path, n: int) -> list[str]:
    """``n`` tiny finished matches (OpenSpiel's one-hand rules: ten deals, each begun at its own time), 100 a folder.

    In folders, as an archive keeps them (a month a folder): one folder's
    listing is what the walk holds at a time, so a single folder of
    thousands would measure that, not what is kept per file read.
    """
    blobs = [
        encode_match(simulate_match(preset("openspiel"), seed=s, players=("Ann", "Bob")), EPOCH + timedelta(minutes=s))
        for s in range(10)
    ]
    folders = []
    for i in range(n):
        sub = folder / f"f{i // 100:03d}"
        if i % 100 == 0:
            sub.mkdir(parents=True)
            folders.append(str(sub))
        (sub / f"m{i:05d}.jsonl").write_bytes(blobs[i % 10])
    return folders


def _peak(what: str, folders: list[str], out: Path) -> tuple[int, int]:
    # Through a launcher: a child forked straight from pytest would start from pytest's RSS.
    proc = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, sys.executable, "-c", CHILD, what, str(out), *folders],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines = proc.stderr.strip().splitlines()
    return json.loads(lines[-2])["code"], json.loads(lines[-1])["maxrss_kb"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str]]:
    """The folders of 1,000 files, and of 5,000 (the same first 1,000 and 4,000 more)."""
    every = _files(tmp_path_factory.mktemp("many"), 5000)
    return every[:10], every


@pytest.mark.parametrize("what", ["stats", "export", "audit"])
def test_memory_is_flat_in_the_number_of_files(folders: tuple[list[str], list[str]], tmp_path: Path, what: str) -> None:
    small, large = folders
    code_s, rss_s = _peak(what, small, tmp_path / "small.out")
    code_l, rss_l = _peak(what, large, tmp_path / "large.out")
    assert code_s == code_l == 0
    print(what, rss_s, rss_l)
    # Five times the files: the peak grows by allocator noise and the rating's 24 bytes a match at most
    # (the audit that kept every result until the end grew by about 1 KB a file: 4 MB here).
    assert rss_l - rss_s < 1000, (what, rss_s, rss_l)
    if what == "stats":
        data = json.loads((tmp_path / "large.out").read_text(encoding="utf-8"))
        small_data = json.loads((tmp_path / "small.out").read_text(encoding="utf-8"))
        assert len(small_data["files"]) == 1000
        assert len(data["files"]) == 5000 and sum(p["matches"] for p in data["players"]) == 10000
