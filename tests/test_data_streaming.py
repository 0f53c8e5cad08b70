"""Streaming: the audit's summary and JSON as results come, memory flat in the number of files (paths as they are
found, against a naive walk: ``tests/test_paths.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from ginlog.app.check.audit import Summary, audit_file, audit_files, audit_paths
from ginlog.app.check.paths import expand_paths
from ginlog.game.rules import preset
from ginlog.play.simulate import simulate_match

from data_matches import EPOCH, corpus, encode_match
from test_cli import exe

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"


def test_audit_json_is_what_the_command_prints(tmp_path: Path) -> None:
    """The streamed ``audit --json`` is the JSON of each file's verdict, in the walk's order, and their summary."""
    made, bad = corpus(tmp_path / "games")
    paths = [str(tmp_path / "games"), str(SAMPLES), str(tmp_path / "missing.jsonl")]
    proc = exe("audit", "--json", *paths, cwd=ROOT)  # the executable, forked where it can be (tests/forked.py)
    assert proc.returncode == 1, proc.stderr
    whole = json.loads(proc.stdout)
    assert list(whole) == ["files", "summary"]  # the summary after the files: nothing held until the end
    files, problems = expand_paths(paths)
    verdicts = [audit_file(f).to_dict() for f in files]
    assert [f["file"] for f in whole["files"]] == [f["file"] for f in verdicts] + [str(tmp_path / "missing.jsonl")]
    assert whole["files"][:-1] == verdicts and whole["files"][-1]["ok"] is False
    summary = Summary()
    for r in audit_paths(paths):
        summary.add(r)
    assert whole["summary"] == summary.to_dict()
    assert whole["summary"]["files"] == len(made) + len(bad) + len(expand_paths([str(SAMPLES)])[0]) + 1
    assert whole["summary"]["invalid"] == len(bad) + 1 + sum(not v["ok"] for v in verdicts if v["file"].startswith(str(SAMPLES)))


def test_summary_head_is_the_lone_files() -> None:
    results = list(audit_files(expand_paths([str(SAMPLES)])[0][:2]))
    s = Summary()
    s.add(results[0])
    assert s.head == results[0].head and s.head is not None
    s.add(results[1])
    assert s.files == 2 and s.to_dict()["events"] == results[0].events + results[1].events


CHILD = r"""
import io, json, resource, sys
from ginlog.app.cli import data as cli_data
what, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.stdout = io.TextIOWrapper(open(out, "wb"), encoding="utf-8")
if what == "stats":
    code = cli_data.stats(paths, json_=True)
elif what == "export":
    code = cli_data.export(paths, "csv")
elif what == "html":
    code = cli_data.site(paths[0], out + ".site")
else:
    from ginlog.app.cli.check import audit
    code = audit(paths, jobs=1, json_=True, anchor=None, quiet=False, max_errors=100)
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
    """``n`` tiny finished matches (OpenSpiel's one-hand rules: ten deals, each file begun at its own time, so
    each is a match of its own), 100 a folder.

    In folders, as an archive keeps them (a month a folder): one folder's
    listing is what the walk holds at a time, so a single folder of
    thousands would measure that, not what is kept per file read.
    """
    deals = [simulate_match(preset("openspiel"), seed=s, players=("Ann", "Bob")) for s in range(10)]
    folders = []
    for i in range(n):
        sub = folder / f"f{i // 100:03d}"
        if i % 100 == 0:
            sub.mkdir(parents=True)
            folders.append(str(sub))
        (sub / f"m{i:05d}.jsonl").write_bytes(encode_match(deals[i % 10], EPOCH + timedelta(minutes=i)))
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
def test_many_files_go_through_each_command(tmp_path: Path, what: str) -> None:
    """The default run's small version of the memory curves below: 250 files in three folders, measured the same way."""
    folders = _files(tmp_path / "many", 250)
    code, rss = _peak(what, folders, tmp_path / "out")
    assert code == 0 and 0 < rss < 100_000, (what, code, rss)  # KB: within the 100 MB that any command may take
    if what == "stats":
        data = json.loads((tmp_path / "out").read_text(encoding="utf-8"))
        assert len(data["files"]) == 250 and sum(p["matches"] for p in data["players"]) == 500
    elif what == "export":
        assert (tmp_path / "out").read_text(encoding="utf-8").count("\n") > 250  # a row a hand at least
    else:
        assert json.loads((tmp_path / "out").read_text(encoding="utf-8"))["summary"]["files"] == 250


@pytest.mark.slow
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


@pytest.fixture(scope="module")
def sites(folders: tuple[list[str], list[str]], tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """Two folders to make a site of: 2,000 files and 5,000 (the same first 2,000), as links to the folders above.

    Both past the allocator's step, seen between 1,000 and 1,600 files (see below), so only a growth per file shows.
    """
    _small, every = folders
    roots = []
    for n in (20, 50):
        root = tmp_path_factory.mktemp(f"site{n}")
        for sub in every[:n]:
            (root / Path(sub).name).symlink_to(sub, target_is_directory=True)
        roots.append(str(root))
    return roots[0], roots[1]


def test_a_site_is_written_a_page_a_file(tmp_path: Path) -> None:
    """The default run's small version of the site's memory curve below: 150 files, measured the same way."""
    folders = _files(tmp_path / "many", 150)
    root = tmp_path / "club"
    root.mkdir()
    for sub in folders:
        (root / Path(sub).name).symlink_to(sub, target_is_directory=True)
    code, rss = _peak("html", [str(root)], tmp_path / "out")
    assert code == 0 and 0 < rss < 100_000, (code, rss)
    assert len(list((tmp_path / "out.site" / "matches").iterdir())) == 150
    assert (tmp_path / "out.site" / "index.html").read_text(encoding="utf-8").count("matches/") >= 150


@pytest.mark.slow
def test_the_site_memory_is_flat_in_the_number_of_files(sites: tuple[str, str], tmp_path: Path) -> None:
    """``html DIR -o SITE``: a page a file written as it is read; the index's rows spooled, not kept.

    (Measured: a peak of 27.2 MB at 300 files, 27.3 at 1,000, 28.2 at 1,500 and 28.2 at 3,000: a step of about
    one allocator arena, then flat; in some runs the step came after 1,500 files, so the smaller site has 2,000.
    Keeping the pages would cost 47 KB a file; a row or a summary, over 1 KB.)
    """
    small, large = sites
    code_s, rss_s = _peak("html", [small], tmp_path / "small")
    code_l, rss_l = _peak("html", [large], tmp_path / "large")
    assert code_s == code_l == 0
    print("html", rss_s, rss_l)
    assert rss_l - rss_s < 1000, ("html", rss_s, rss_l)
    assert len(list((tmp_path / "small.site" / "matches").iterdir())) == 2000
    assert len(list((tmp_path / "large.site" / "matches").iterdir())) == 5000
    index = (tmp_path / "large.site" / "index.html").read_text(encoding="utf-8")
    assert index.count("matches/") >= 3000
