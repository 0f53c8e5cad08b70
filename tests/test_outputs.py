"""``-o`` never writes over a match record, and a folder of output never goes to ``-``.

Run as a user runs them, through the installed ``ginlog``: the record is
byte-for-byte what it was, the exit status is 2 (a usage slip), standard
error holds one line naming the path, and nothing else is left behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ginlog.app.shell.outputs import is_match_record

from test_cli import GINLOG, HAND, exe


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A match file with the README's hand, in a folder of its own."""
    m = tmp_path / "m.jsonl"
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    assert exe("play", m, *HAND).returncode == 0
    return m


@pytest.mark.parametrize("command", [
    ["export", "{m}", "-o", "{m}"],
    ["export", "{m}", "--format", "jsonl", "-o", "{m}"],
    ["html", "{m}", "-o", "{m}"],
    ["export", "{dir}", "-o", "{other}"],
])
def test_no_command_writes_over_a_match_record(played: Path, command: list[str]) -> None:
    other = played.with_name("other.jsonl")
    other.write_bytes(played.read_bytes())
    keep = {p: p.read_bytes() for p in (played, other)}
    args = [a.format(m=played, dir=played.parent, other=other) for a in command]
    r = exe(*args)
    assert r.returncode == 2, r
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "is a match record: ginlog never writes over one" in lines[0], r.stderr
    assert {p: p.read_bytes() for p in keep} == keep
    assert sorted(p.name for p in played.parent.iterdir()) == ["m.jsonl", "other.jsonl"]  # no temporary file


def test_an_old_export_or_page_is_replaced(played: Path) -> None:
    out = played.with_name("hands.jsonl")
    out.write_text('{"file": "old"}\n', encoding="utf-8")
    assert exe("export", played, "--format", "jsonl", "-o", out).returncode == 0
    assert '"old"' not in out.read_text(encoding="utf-8") and out.read_text(encoding="utf-8").count("\n") == 1
    page = played.with_name("m.html")
    page.write_text("<p>old</p>", encoding="utf-8")
    assert exe("html", played, "-o", page).returncode == 0 and "<p>old</p>" not in page.read_text(encoding="utf-8")


def test_a_link_at_the_target_is_refused_and_the_record_behind_it_untouched(played: Path) -> None:
    """``-o LINK`` (to a record the command does not read): neither through nor over a link (exit 2, one line)."""
    other = played.with_name("other.jsonl")
    other.write_bytes(played.read_bytes())
    link = played.with_name("link.csv")
    os.symlink(other, link)
    run = exe("export", played, "-o", link)
    assert run.returncode == 2 and "symbolic link" in run.stderr and len(run.stderr.splitlines()) == 1
    assert other.read_bytes() == played.read_bytes() and link.is_symlink()


@pytest.mark.parametrize("command", [["html", "{dir}", "-o", "-"], ["import", "openspiel", "{rec}", "-o", "-"]])
def test_a_folder_of_output_is_not_written_to_standard_output(played: Path, command: list[str]) -> None:
    rec = played.with_name("rec.txt")
    rec.write_text("not a record\n", encoding="utf-8")
    r = exe(*[a.format(dir=played.parent, rec=rec) for a in command], cwd=played.parent)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "give -o a folder, not '-'" in r.stderr, r
    assert not (played.parent / "-").exists() and r.stdout == ""


def test_an_import_folder_that_cannot_be_made_is_a_usage_error(played: Path) -> None:
    """As in export and html: an -o that cannot be written is exit 2 (it was 1 in import alone)."""
    rec = played.with_name("rec.txt")
    rec.write_text("not a record\n", encoding="utf-8")
    r = exe("import", "openspiel", rec, "-o", played / "sub")  # a folder inside a file
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "output folder" in r.stderr, r


def test_what_counts_as_a_match_record(tmp_path: Path) -> None:
    cases = {
        "record.jsonl": b'{"seq":1,"ts":"2026-12-01T00:00:00Z","type":"match_started","v":2,"prev":null}\n{"seq":2',
        "torn-first-line.jsonl": b'{"seq":1,"type":"match_started","players":["Ann","B',
        "export.jsonl": b'{"file":"m.jsonl","hand":1}\n',
        "page.html": b"<!doctype html>",
        "empty.jsonl": b"",
        "note-first.jsonl": b'{"seq":1,"type":"note","text":"\\"type\\":\\"match_started\\""}\n',
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    os.mkfifo(tmp_path / "fifo")
    got = {name: is_match_record(str(tmp_path / name)) for name in [*cases, "fifo", "missing"]}
    assert got == {"record.jsonl": True, "torn-first-line.jsonl": True, "export.jsonl": False, "page.html": False,
                   "empty.jsonl": False, "note-first.jsonl": False, "fifo": False, "missing": False}


def test_a_record_under_another_name_or_after_a_blank_line_is_not_written_over(played: Path) -> None:
    """-o as an input's link or hard link, or a record whose first line is blank: refused, the record kept."""
    alias = played.with_name("current.jsonl")
    os.symlink(played.name, alias)
    hard = played.with_name("hard.jsonl")
    os.link(played, hard)
    blank = played.with_name("blank.jsonl")
    blank.write_bytes(b"\n  \n" + played.read_bytes())
    keep = {p: p.read_bytes() for p in (played, blank)}
    for args, said in [(["export", alias, "-o", alias], "which this command reads"),
                       (["html", played, "-o", hard], "is a match record"),
                       (["export", played, "-o", blank], "is a match record"),
                       (["export", played, "-o", "./" + played.name], "is a match record")]:
        r = exe(*args, cwd=played.parent)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and said in r.stderr, (args, r)
    assert {p: p.read_bytes() for p in keep} == keep and alias.is_symlink()


def test_standard_output_is_not_a_file_named_dash(played: Path) -> None:
    """``-o -`` is standard output even beside a match record that happens to be called ``-``."""
    shutil.copy(played, played.with_name("-"))
    r = exe("export", played, "-o", "-", cwd=played.parent)
    assert r.returncode == 0 and r.stdout.startswith("file,"), r


def test_a_site_never_writes_its_index_over_a_record(played: Path) -> None:
    site = played.parent / "site"
    site.mkdir()
    shutil.copy(played, site / "index.html")
    before = (site / "index.html").read_bytes()
    r = exe("html", played.parent, "-o", site)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "index.html is a match record" in r.stderr, r
    assert (site / "index.html").read_bytes() == before and not (site / "matches").exists()


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None, reason="root reads anything; setpriv is missing")
def test_a_file_that_cannot_be_read_cannot_be_checked_so_is_kept(played: Path) -> None:
    """As someone who may write the folder but not read the file: refused, since it may be a record."""
    shared = Path(tempfile.mkdtemp(prefix="ginlog-outputs-"))  # not pytest's tmp_path: the other user must reach it
    try:
        shared.chmod(0o777)
        other = shared / "other.jsonl"
        other.write_bytes(played.read_bytes())
        other.chmod(0o644)
        locked = shared / "locked.jsonl"
        locked.write_bytes(played.read_bytes())
        locked.chmod(0o222)  # anyone may write it, nobody but root may read it
        _refused_as_nobody(other, locked, played.read_bytes())
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def _refused_as_nobody(other: Path, locked: Path, record: bytes) -> None:
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    r = subprocess.run([*as_nobody, str(GINLOG), "export", str(other), "-o", str(locked)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "cannot be checked not to be a match record" in r.stderr, r
    locked.chmod(0o644)
    assert locked.read_bytes() == record
