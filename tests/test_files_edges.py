"""Files at the edges (issue 13): repair cuts only match files and never through a link; side-file
names fit the file system; ``create`` leaves nothing behind when it fails and does not report a
failure for a file it wrote.

The failing writes are real: a file size limit (``RLIMIT_FSIZE``) in a forked child, and a full
tmpfs (when this machine lets us mount one). The unreadable directory is real too: a forked child
that has become ``nobody`` (the tests run as root, and permissions do not bite root).
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ginlog.errors import StoreError
from ginlog.log import writer
from ginlog.log.files import NAME_MAX, fitting_name, head
from ginlog.log.format import encode
from ginlog.log.writer import append, create, repair

TS = "2026-11-29T19:56:25.123Z"
NOBODY = 65534
START = {"players": ["Ann", "Bob"], "rules": {}, "tool": "test"}


def match_file(path: Path, torn: bytes = b'{"seq":2,"ts":"2026-11-29T19:5') -> bytes:
    """A match file of one line (as create writes it) and a torn tail; returns its bytes."""
    create(path, "match_started", 2, START, ts=TS)
    with open(path, "ab") as fh:
        fh.write(torn)
    return path.read_bytes()


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ----------------------------------------------------------------------------- repair: match files only


@pytest.mark.parametrize("content", [
    b"shopping list\nmilk\neggs",  # a text file without a final newline
    b'{"name": "config", "debug": true}',  # one JSON object, no newline
    b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"prev":null,"text":"x"}\n{"seq":2',
    b'{"seq":2,"ts":"2026-11-29T19:56:25.123Z","type":"match_started","v":2,"prev":null}\n{"se',
    b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"match_started","v":2,"prev":"' + b"0" * 64 + b'"}\nx',
    b'not json at all\n{"seq":2',
    b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note"',  # torn, but not the start of a match
    b"hello",
])
def test_repair_refuses_a_file_that_is_not_a_match_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(StoreError) as info:
        repair(path)
    assert info.value.rule == "not-a-match"
    assert "not a match file" in info.value.message and "nothing was changed" in info.value.message
    assert path.read_bytes() == content
    assert listing(tmp_path) == ["notes.txt"]


@pytest.mark.parametrize("torn", [b"{", b'{"se', b'{"seq":1,', b'{"seq":1,"ts":"2026-11-29T19:5',
                                  b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"match_sta',
                                  b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"match_started","v":2,"prev":nu'])
def test_repair_takes_a_torn_first_line_of_a_match(tmp_path: Path, torn: bytes) -> None:
    """A crash in the very first write: no complete line, bytes that begin like a match_started line."""
    path = tmp_path / "m.jsonl"
    path.write_bytes(torn)
    report = repair(path)
    assert report.torn == torn and report.side_file is not None and report.side_file.read_bytes() == torn
    assert path.read_bytes() == b""


def test_repair_still_repairs_a_match_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    before = match_file(path)
    report = repair(path)
    assert report.side_file is not None and path.read_bytes() + report.torn == before
    assert append(path, "note", 2, {"text": "after"}, expect=1).seq == 2


# ----------------------------------------------------------------------------- repair: never through a link


def test_repair_refuses_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    before = match_file(target)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with pytest.raises(StoreError) as info:
        repair(link)
    assert "symbolic link" in info.value.message and info.value.rule == "file"
    assert target.read_bytes() == before
    assert listing(tmp_path) == ["link.jsonl", "real.jsonl"]
    assert repair(target).side_file is not None  # by its own name it is repaired


def test_repair_refuses_a_link_made_after_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """O_NOFOLLOW is what decides: a link swapped in after the first look is refused too."""
    target = tmp_path / "real.jsonl"
    before = match_file(target)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    calls = iter([False, True])
    monkeypatch.setattr(os.path, "islink", lambda _p: next(calls))
    with pytest.raises(StoreError) as info:
        repair(link)
    assert "symbolic link" in info.value.message
    assert target.read_bytes() == before


# ----------------------------------------------------------------------------- side-file names


def test_side_file_of_a_250_byte_name_fits(tmp_path: Path) -> None:
    name = "m" * 244 + ".jsonl"
    assert len(name.encode()) == 250
    path = tmp_path / name
    before = match_file(path)
    first = repair(path)
    assert first.side_file is not None
    side = first.side_file.name
    assert len(side.encode()) <= NAME_MAX
    assert side.startswith("m" * 200) and ".torn-" in side and "~" in side
    assert path.read_bytes() + first.side_file.read_bytes() == before
    # Again, within the same second: a name of its own, still within the limit.
    with open(path, "ab") as fh:
        fh.write(b'{"seq":2,"ts"')
    second = repair(path)
    assert second.side_file is not None and second.side_file != first.side_file
    assert len(second.side_file.name.encode()) <= NAME_MAX
    assert second.side_file.read_bytes() == b'{"seq":2,"ts"'


def test_fitting_names_of_two_long_names_differ() -> None:
    a = fitting_name("é" * 124 + "a.jsonl", ".torn-20261129T195625Z")
    b = fitting_name("é" * 124 + "b.jsonl", ".torn-20261129T195625Z")
    assert a != b
    for n in (a, b):
        assert len(n.encode()) <= NAME_MAX
        n.encode("utf-8")  # cut between characters: still valid UTF-8


# ----------------------------------------------------------------------------- create: nothing left behind


def in_child(fn: Callable[[], None]) -> int:
    """Run ``fn`` in a forked child; its exit status: 0 done, 1 a StoreError, 2 anything else."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 2
        try:
            fn()
            code = 0
        except StoreError:
            code = 1
        except BaseException:
            code = 2
        finally:
            os._exit(code)
    _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_create_that_fails_to_write_leaves_nothing(tmp_path: Path) -> None:
    """A write over the file size limit (EFBIG, as a full disk gives ENOSPC): no file, and a retry works."""
    path = tmp_path / "m.jsonl"
    fields = START | {"title": "x" * 2000}

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
        create(path, "match_started", 2, fields, ts=TS)

    assert in_child(limited) == 1
    assert listing(tmp_path) == []
    create(path, "match_started", 2, fields, ts=TS)  # the retry is not blocked by a 0-byte file
    assert head(path).seq == 1


@contextlib.contextmanager
def tiny_tmpfs(size: str = "8k") -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="ginlog-tmpfs-"))
    try:
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
        try:
            yield folder
        finally:
            subprocess.run(["umount", str(folder)], check=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None, reason="mounting a tmpfs needs root")
def test_create_on_a_full_disk_leaves_nothing() -> None:
    with tiny_tmpfs() as disk:
        filler = disk / "filler"
        fd = os.open(filler, os.O_CREAT | os.O_WRONLY, 0o644)
        try:
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"x" * 512)
        finally:
            os.close(fd)
        before = listing(disk)
        with pytest.raises(StoreError) as info:
            create(disk / "m.jsonl", "match_started", 2, START | {"title": "x" * 1500}, ts=TS)
        assert info.value.rule == "file"
        assert listing(disk) == before  # no 0-byte match file, no hidden temporary
        filler.unlink()
        create(disk / "m.jsonl", "match_started", 2, START, ts=TS)
        assert head(disk / "m.jsonl").seq == 1


def test_create_never_overwrites_even_when_the_name_appears_meanwhile(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The link decides: a file made at the name after the early check is kept, and create refuses."""
    path = tmp_path / "m.jsonl"
    real_link = os.link

    def racing_link(src: str, dst: str, **kw: object) -> None:
        Path(dst).write_bytes(b"someone else's\n")
        real_link(src, dst, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", racing_link)
    with pytest.raises(StoreError) as info:
        create(path, "match_started", 2, START, ts=TS)
    assert info.value.rule == "exists"
    assert path.read_bytes() == b"someone else's\n"
    assert listing(tmp_path) == ["m.jsonl"]


def test_create_without_hard_links_still_creates_and_cleans_up(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*_a: object, **_k: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "m.jsonl"
    create(path, "match_started", 2, START, ts=TS)
    assert head(path).seq == 1 and listing(tmp_path) == ["m.jsonl"]
    with pytest.raises(StoreError) as info:
        create(path, "match_started", 2, START, ts=TS)
    assert info.value.rule == "exists"
    # And a failing write in place is removed again.
    other = tmp_path / "n.jsonl"

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
        create(other, "match_started", 2, START | {"title": "x" * 2000}, ts=TS)

    assert in_child(limited) == 1
    assert listing(tmp_path) == ["m.jsonl"]


# ----------------------------------------------------------------------------- create in a directory without read permission


@pytest.mark.skipif(os.geteuid() != 0, reason="becoming nobody needs root")
def test_create_in_a_write_only_directory_reports_success() -> None:
    """``chmod 0300``: files may be made in it but it cannot be opened to fsync; create must not then fail."""
    top = Path(tempfile.mkdtemp(prefix="ginlog-wx-"))
    try:
        top.chmod(0o755)
        folder = top / "wx"
        folder.mkdir()
        os.chown(folder, NOBODY, NOBODY)
        folder.chmod(0o300)
        path = folder / "m.jsonl"

        def as_nobody() -> None:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            with pytest.raises(PermissionError):
                os.listdir(folder)  # really unreadable to us now
            create(path, "match_started", 2, START, ts=TS)

        assert in_child(as_nobody) == 0
        assert head(path).seq == 1
        assert sorted(os.listdir(folder)) == ["m.jsonl"]
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_encode_is_what_create_writes(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    line = create(path, "match_started", 2, START, ts=TS)
    assert path.read_bytes() == encode(1, TS, "match_started", 2, None, START) + b"\n" == line.raw + b"\n"
