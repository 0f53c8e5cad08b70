"""Outputs at the edges: never through a planted link, modes kept, no temporary file left, a site that forgets.

Each test plants what a hostile member of a shared club folder could plant
and checks that the record behind it is byte for byte what it was.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ginlog.app.pages.site import MANIFEST
from ginlog.app.shell.outputs import Replacement, sweep, write_whole

from test_cli import exe
from test_outputs import played  # noqa: F401 - the fixture: a match file with the README's hand

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp" in p.name)


def test_a_link_planted_at_the_old_predictable_temporary_name_is_never_followed(played: Path) -> None:
    """``PATH.tmp<pid>`` was the temporary name: a link planted there made an output replace a record."""
    victim = played.with_name("victim.jsonl")
    victim.write_bytes(played.read_bytes())
    target = played.with_name("page.html")
    os.symlink(victim, f"{target}.tmp{os.getpid()}")
    write_whole(str(target), b"<!doctype html>")
    assert victim.read_bytes() == played.read_bytes()
    assert target.read_bytes() == b"<!doctype html>"


def test_temporary_names_are_unpredictable_and_made_exclusively(tmp_path: Path) -> None:
    a, b = Replacement(str(tmp_path / "x.csv")), Replacement(str(tmp_path / "x.csv"))
    try:
        assert a.tmp != b.tmp and a.tmp.startswith(".x.csv.ginlog-") and a.tmp.endswith(".tmp")
        assert not os.path.islink(tmp_path / a.tmp) and (tmp_path / a.tmp).stat().st_nlink == 1
    finally:
        a.abandon()
        b.abandon()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("command", [
    ["export", "{m}", "-o", "{out}"],
    ["export", "{m}", "--format", "jsonl", "-o", "{out}"],
    ["html", "{m}", "-o", "{out}"],
])
def test_a_replaced_output_keeps_its_mode(played: Path, command: list[str]) -> None:
    out = played.with_name("out.txt")
    out.write_text("last week's output\n", encoding="utf-8")
    out.chmod(0o600)
    assert exe(*[a.format(m=played, out=out) for a in command]).returncode == 0
    assert out.stat().st_mode & 0o777 == 0o600 and "last week" not in out.read_text(encoding="utf-8")
    assert leftovers(played.parent) == []


def test_a_new_output_gets_the_umask_mode(played: Path) -> None:
    out = played.with_name("new.csv")
    assert exe("export", played, "-o", out).returncode == 0
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


_CHILD = textwrap.dedent("""
    import sys, time
    from ginlog.app.shell.outputs import Replacement
    out = Replacement(sys.argv[1])
    out.file.write(b"half a file")
    out.file.flush()
    try:  # (the "ready" inside: a Ctrl-C may come as soon as it is written, before print returns)
        print("ready", flush=True)
        time.sleep(30)
    except KeyboardInterrupt:
        out.abandon()
        raise
""")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_an_interrupted_write_removes_its_temporary_file(tmp_path: Path, sig: signal.Signals) -> None:
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(tmp_path / "hands.csv")], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    assert len(leftovers(tmp_path)) == 1
    child.send_signal(sig)
    child.wait(timeout=20)
    assert child.returncode != 0
    assert leftovers(tmp_path) == [] and not (tmp_path / "hands.csv").exists()


def test_after_a_kill_the_leftover_is_recognised_and_the_next_run_cleans_it(played: Path) -> None:
    target = played.with_name("hands.csv")
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(target)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    child.kill()
    child.wait(timeout=20)
    (left,) = leftovers(played.parent)
    assert left.startswith(".hands.csv.ginlog-")
    # What is not surely ours stays: a link and a hard link with a leftover's name, another target's leftover.
    os.symlink(played, played.with_name(".hands.csv.ginlog-00000000000000aa.tmp"))
    os.link(played, played.with_name(".hands.csv.ginlog-00000000000000bb.tmp"))
    played.with_name(".other.csv.ginlog-00000000000000cc.tmp").write_text("x", encoding="utf-8")
    assert exe("export", played, "-o", target).returncode == 0
    assert left not in leftovers(played.parent)
    assert leftovers(played.parent) == [
        ".hands.csv.ginlog-00000000000000aa.tmp", ".hands.csv.ginlog-00000000000000bb.tmp",
        ".other.csv.ginlog-00000000000000cc.tmp",
    ]


def test_a_live_runs_temporary_file_is_not_swept(tmp_path: Path) -> None:
    live = Replacement(str(tmp_path / "x.csv"))
    try:
        fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            assert sweep("x.csv", fd) == []
        finally:
            os.close(fd)
        assert (tmp_path / live.tmp).exists()
    finally:
        live.abandon()


def copy_matches(to: Path, names: list[str]) -> Path:
    to.mkdir()
    for name in names:
        shutil.copy(SAMPLES / name, to / name)
    return to


def test_a_planted_matches_link_never_sends_pages_outside_the_site(tmp_path: Path) -> None:
    games = copy_matches(tmp_path / "games", ["standard-match.jsonl"])
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    site.mkdir()
    elsewhere.mkdir()
    os.symlink(elsewhere, site / "matches")
    run = exe("html", games, "-o", site)
    assert run.returncode == 2 and "symbolic link" in run.stderr and len(run.stderr.splitlines()) == 1
    assert list(elsewhere.iterdir()) == [] and not (site / "index.html").exists()


def test_a_site_that_is_a_link_is_refused(tmp_path: Path) -> None:
    games = copy_matches(tmp_path / "games", ["standard-match.jsonl"])
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "site")
    run = exe("html", games, "-o", tmp_path / "site")
    assert run.returncode == 2 and "symbolic link" in run.stderr
    assert list(real.iterdir()) == []


def test_a_rebuilt_site_removes_the_pages_of_withdrawn_matches_and_nothing_else(tmp_path: Path) -> None:
    games = copy_matches(tmp_path / "games", ["standard-match.jsonl", "table-view-match.jsonl"])
    site = tmp_path / "site"
    assert exe("html", games, "-o", site).returncode == 0
    pages = sorted(p.name for p in (site / "matches").iterdir())
    assert len(pages) == 2
    # Someone else's files in the site: a note, and a page-like file with no ginlog mark that a hand-edited
    # manifest claims as a page; a name in the manifest that would leave matches/.
    (site / "matches" / "notes.txt").write_text("mine", encoding="utf-8")
    (site / "matches" / "fake-0123456789.html").write_text("<p>not ginlog's</p>", encoding="utf-8")
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    assert sorted(manifest["pages"]) == pages
    manifest["pages"] += ["fake-0123456789.html", "../index.html"]
    (site / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (games / "table-view-match.jsonl").unlink()
    assert exe("html", games, "-o", site).returncode == 0
    after = sorted(p.name for p in (site / "matches").iterdir())
    kept = [p for p in pages if p.startswith("standard-match-")]
    assert after == sorted([*kept, "notes.txt", "fake-0123456789.html"])
    assert "table-view-match" not in (site / "index.html").read_text(encoding="utf-8")
    assert leftovers(site) == [] and leftovers(site / "matches") == []


def test_an_import_never_writes_through_a_link_in_its_output_folder(tmp_path: Path) -> None:
    """A link planted at an import's output name (to a record, or dangling) is refused, and nothing is written
    through it: the record behind it is unchanged and nothing appears where the dangling link points."""
    from ginlog.app.importers.openspiel import import_files

    records = sorted((Path(__file__).parent / "data" / "openspiel" / "records").glob("*.txt"))[:3]
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.jsonl"
    shutil.copy(SAMPLES / "standard-match.jsonl", victim)
    (out / f"{records[0].stem}.jsonl").symlink_to(victim)
    (out / f"{records[1].stem}.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    ok, bad = import_files([str(r) for r in records], out)
    assert (ok, bad) == (1, 2)
    assert victim.read_bytes() == (SAMPLES / "standard-match.jsonl").read_bytes()
    assert not (tmp_path / "nowhere.jsonl").exists()
