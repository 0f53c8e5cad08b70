"""URL inputs (``ginlog/app/check/sources.py``) and the cluster options' usage slips, without a cluster.

``memory://`` is fsspec's store in this process: a forked ``ginlog`` (``tests/forked.py``) sees what the test put
there, so the URL path is tested end to end through the command line at the cost of a fork. The cluster itself is
``tests/test_cluster.py``'s.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from forked import can_fork, run_forked, spawn_forked
from ginlog.app.check.paths import iter_paths
from ginlog.app.check.sources import Storage, walk_url

fsspec = pytest.importorskip("fsspec")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"


def cli(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``ginlog ARGS`` forked (the test's ``memory://`` store is the child's too)."""
    full = {**os.environ, **(env or {})}
    for k in ("FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS"):
        full.pop(k, None)
    assert can_fork(full), "these tests read memory://, which only a forked ginlog shares"
    proc = run_forked(["ginlog", *map(str, args)], input=b"", env=full, cwd=None, timeout=120)
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


def in_fork(check: Callable[[], bool], prepare: Callable[[], None] | None = None) -> bool:
    """Run ``check`` in a forked child (after ``prepare``): whether it held, as the child's exit status."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        ok = False
        try:
            if prepare is not None:
                prepare()
            ok = check()
        finally:
            os._exit(0 if ok else 1)
    _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The sample games, in a local folder and the same tree under ``memory://club``; names that test the order
    (a folder ``b`` after a file ``b.jsonl``, a name with a space)."""
    folder = tmp_path_factory.mktemp("club")
    for src in sorted(SAMPLES.rglob("*.jsonl")):
        dst = folder / src.relative_to(SAMPLES)
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    (folder / "b").mkdir()
    shutil.copyfile(SAMPLES / "standard-match.jsonl", folder / "b.jsonl")
    shutil.copyfile(SAMPLES / "modern-match.jsonl", folder / "b" / "a b.jsonl")
    (folder / "notes.txt").write_text("not a match\n")
    fs = fsspec.filesystem("memory")
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            fs.pipe_file(f"memory://club/{path.relative_to(folder)}", path.read_bytes())
    yield folder, "memory://club"
    fs.rm("memory://club", recursive=True)


def test_a_url_is_listed_in_the_local_walk_order(club: tuple[Path, str]) -> None:
    folder, url = club
    local = [os.path.relpath(p, folder) for p in iter_paths([str(folder)]) if isinstance(p, str)]
    remote = [p for p in walk_url(url) if isinstance(p, str)]
    assert [p.split("club/", 1)[1] for p in remote] == local
    assert "b.jsonl" in local and local.index("b.jsonl") < local.index(os.path.join("b", "a b.jsonl"))
    assert threading.active_count() == 1  # fsspec's memory store starts no thread: the forks below stay forks


def test_an_audit_of_a_url_is_the_audit_of_the_folder(club: tuple[Path, str]) -> None:
    folder, url = club
    local = cli("audit", folder, "--json")
    remote = cli("audit", url, "--json")
    assert remote.returncode == local.returncode == 1  # (the samples hold invalid files)
    prefix = remote.stdout.split('"file": "', 1)[1].split("club/", 1)[0] + "club/"
    assert remote.stdout.replace(prefix, f"{folder}/") == local.stdout
    assert remote.stderr.replace(prefix, f"{folder}/") == local.stderr


def test_a_missing_url_is_that_files_error_and_the_rest_is_read(club: tuple[Path, str]) -> None:
    _folder, url = club
    r = cli("audit", f"{url}/standard-match.jsonl", "memory://nowhere/x.jsonl", "memory://nowhere/", "--json")
    assert r.returncode == 1
    files = json.loads(r.stdout)["files"]
    assert [(f["file"], f["ok"]) for f in files] == [
        (f"{url}/standard-match.jsonl", True), ("memory://nowhere/x.jsonl", False), ("memory://nowhere/", False)]
    assert [f["errors"][0]["message"] for f in files[1:]] == ["no such file or folder"] * 2


@pytest.mark.parametrize("option, said", [
    ("secret=abc", "credentials come from the environment"),
    ("endpoint_url", "takes KEY=VALUE"),
])
def test_storage_options_that_are_credentials_or_malformed_are_refused(club: tuple[Path, str], option: str, said: str) -> None:
    r = cli("audit", club[1], "--storage-option", option)
    assert r.returncode == 2 and said in r.stderr and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1


def test_standard_input_is_refused_with_a_scheduler() -> None:
    for command in ("export",):  # (before a byte is written: export opens its output after the check)
        r = cli(command, "-", "--scheduler", "tcp://127.0.0.1:1")
        assert r.returncode == 2 and "standard input" in r.stderr and len(r.stderr.splitlines()) == 1


def _blocked(*modules: str) -> Callable[[], None]:
    def block() -> None:
        for m in modules:
            sys.modules[m] = None  # type: ignore[assignment]  # (an import of it now raises ImportError)
    return block


def _run_with(prepare: Callable[[], None], *args: str) -> tuple[int, str]:
    r_out, w_out = os.pipe()
    child = spawn_forked(["ginlog", *args], stdin=os.open(os.devnull, os.O_RDONLY), stdout=w_out, stderr=w_out,
                         env=dict(os.environ), cwd=None, close=(r_out,), prepare=prepare)
    os.close(w_out)
    chunks = []
    while data := os.read(r_out, 1 << 16):
        chunks.append(data)
    os.close(r_out)
    return child.wait(60), b"".join(chunks).decode()


def test_a_missing_extra_is_one_line_saying_how_to_install_it(club: tuple[Path, str]) -> None:
    code, said = _run_with(_blocked("distributed", "dask"), "audit", str(club[0]), "--scheduler", "local")
    assert code == 2 and said == "ginlog: --scheduler needs Dask: pip install 'ginlog[dask]' (on the workers too)\n"
    code, said = _run_with(_blocked("s3fs"), "export", "s3://club/")
    assert code == 2 and said == "ginlog: s3:// needs its fsspec package: pip install 'ginlog[s3]'\n"


def test_without_a_scheduler_nothing_of_dask_is_imported(club: tuple[Path, str]) -> None:
    def audit_alone() -> bool:
        for name in [m for m in sys.modules if m.split(".")[0] in ("dask", "distributed")]:
            del sys.modules[name]  # (the cluster's tests may have imported them into this process)
        from ginlog.app.cli import main

        sys.stdout = sys.stderr = open(os.devnull, "w")
        sys.argv = ["ginlog", "audit", str(club[0]), "-q", "--jobs", "2"]
        try:
            main()
        except SystemExit:
            pass
        return "distributed" not in sys.modules and "dask" not in sys.modules

    assert in_fork(audit_alone)


def test_storage_options_parse_to_values() -> None:
    s = Storage.parse(["endpoint_url=http://127.0.0.1:9000", "use_ssl=false", "max_attempts=3", "anon=True"])
    assert s.kwargs() == {"endpoint_url": "http://127.0.0.1:9000", "use_ssl": False, "max_attempts": 3, "anon": True}
