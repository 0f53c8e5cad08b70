"""``--scheduler`` (``ginlog/app/check/cluster.py``): the same answers on a Dask cluster as on this machine.

One ``LocalCluster`` (processes, 2 workers) and one moto S3 server, both on 127.0.0.1, in a helper process
shared by the module (``tests/clustering.py``: the test process keeps one thread, so ``ginlog`` runs stay
forks); each test runs the command line against them and against the local run, and the outputs must be the
same bytes. A killed worker, Ctrl-C and a long run are behind ``--run-slow``.

``gs://`` is read from a GCS stand-in (gcp-storage-emulator's request handlers, served by a forked child on
127.0.0.1) by plain runs, no cluster: the cluster's reading of URLs is the one the S3 tests cover, what is
particular to ``gs://`` is gcsfs's listing and reading.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

import budget
import clustering
from forked import can_fork, run_forked, spawn_forked

# The commands' modules imported here, as the rest of the suite has by now: a fork of a process that holds them
# runs a command for a tenth of a CPU-second, not a third (none of them imports Dask or fsspec).
import ginlog.app.check.audit, ginlog.app.cli.check, ginlog.app.cli.data, ginlog.app.data.export  # noqa: F401,E401,I001

for _name in ("distributed", "s3fs", "moto"):  # found, not imported: the test process must not load distributed
    if importlib.util.find_spec(_name) is None:
        pytest.skip(f"{_name} is not installed (pip install -e '.[test]')", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"


def _env() -> dict[str, str]:
    env = {**os.environ, **clustering.S3_ENV}
    for k in ("FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS"):
        env.pop(k, None)
    return env


def cli(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``ginlog ARGS``, forked, with the S3 stand-in's (fake) credentials in the environment (or ``env``)."""
    env = _env() if env is None else env
    assert can_fork(env), "a thread is alive in the test process: a Dask client must not run here"
    proc = run_forked(["ginlog", *map(str, args)], input=b"", env=env, cwd=None, timeout=120)
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


#: The files of the club besides the samples: three copies that counting a match once must judge.
COPIES = 3


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample games (valid and invalid) and three copies: one of a match, an earlier backup of it (its first
    120 lines), and a fork of another (its first 40 lines, the last one's time moved a millisecond: valid, and
    differing from line 40). Only the last two make counting once read the files again."""
    folder = tmp_path_factory.mktemp("club")
    for src in sorted(SAMPLES.rglob("*.jsonl")):
        dst = folder / src.relative_to(SAMPLES)
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    shutil.copyfile(SAMPLES / "standard-match.jsonl", folder / "zz-copy.jsonl")
    lines = (SAMPLES / "standard-match.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "backup.jsonl").write_bytes(b"".join(lines[:120]))
    lines = (SAMPLES / "hollywood-match.jsonl").read_bytes().splitlines(keepends=True)[:40]
    lines[-1] = re.sub(rb'("ts":"[^"]*\.)(\d{3})Z"', lambda m: m[1] + b"%03dZ\"" % ((int(m[2]) + 1) % 1000), lines[-1])
    (folder / "fork.jsonl").write_bytes(b"".join(lines))
    return folder


@pytest.fixture(scope="module")
def services(club: Path) -> Iterator[clustering.Services]:
    s = clustering.start(2, str(club), "club")
    try:
        yield s
    finally:
        s.stop()


def test_an_audit_of_a_bucket_on_the_cluster_is_the_local_audit_byte_for_byte(
        club: Path, services: clustering.Services, tmp_path: Path) -> None:
    local = cli("audit", club, "--json")
    # The client without the store's credentials (the workers have them): the workers list the bucket and read
    # it; were anything listed or read here, botocore would find no credentials and every file be an error.
    blind = {k: v for k, v in _env().items() if not k.startswith("AWS_")}
    blind.update(AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "none"), AWS_CONFIG_FILE=str(tmp_path / "none"))
    remote = cli("audit", "s3://club/", "--json", "--scheduler", services.scheduler, "--files-per-task", "3",
                 "--storage-option", f"endpoint_url={services.endpoint}", env=blind)
    assert remote.returncode == local.returncode == 1, remote.stderr  # (invalid samples among them)
    assert remote.stdout.replace("s3://club/", f"{club}/") == local.stdout
    files = [f["file"] for f in json.loads(remote.stdout)["files"]]
    assert len(files) == len(set(files)) == 15 + COPIES  # each file once, in the walk's order
    assert remote.stderr.replace("s3://club/", f"{club}/") == local.stderr


@pytest.mark.slow  # (the default run's budget: the bucket's audit on the cluster stays in it)
def test_an_anchor_on_a_url_is_checked_with_the_runs_storage_and_by_the_workers(
        club: Path, services: clustering.Services, tmp_path: Path) -> None:
    head = json.loads(cli("audit", club / "standard-match.jsonl", "--json").stdout)["files"][0]["head"]
    blind = {k: v for k, v in _env().items() if not k.startswith("AWS_")}  # (as above: only the workers can read)
    blind.update(AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "none"), AWS_CONFIG_FILE=str(tmp_path / "none"))
    on = ("--scheduler", services.scheduler, "--storage-option", f"endpoint_url={services.endpoint}")
    kept = cli("audit", "s3://club/standard-match.jsonl", "--anchor", head[:16], "-q", *on, env=blind)
    assert kept.returncode == 0, kept.stderr
    other = cli("audit", "s3://club/standard-match.jsonl", "--anchor", "0" * 16, "-q", *on, env=blind)
    assert other.returncode == 1 and "Problems by rule: anchor 1" in other.stdout
    folder = cli("audit", "s3://club/", "--anchor", head[:16], *on, env=blind)
    assert folder.returncode == 2 and "--anchor checks one file" in folder.stderr


@pytest.mark.parametrize("command", [
    ("stats", "--json"), pytest.param(("export", "--format", "jsonl"), marks=pytest.mark.slow),
])
def test_stats_and_export_of_a_bucket_on_the_cluster_are_the_local_ones(
        club: Path, services: clustering.Services, command: tuple[str, ...], tmp_path: Path,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    # A path no worker can open: that file's error. In a folder both runs walk (the walk lists it, a worker
    # opens it), whose name sorts before the club's, as local paths sort before s3:// (results without a match
    # come in path order).
    dangling = tmp_path_factory.mktemp("a-gone") / "gone.jsonl"
    dangling.symlink_to(dangling.parent / "nowhere.jsonl")
    # The client without the store's credentials (as in the audit's test): the workers list and read the
    # bucket, and compare the copies of a match that differ in length, which the client could not read.
    blind = {k: v for k, v in _env().items() if not k.startswith("AWS_")}
    blind.update(AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "none"), AWS_CONFIG_FILE=str(tmp_path / "none"))
    local = cli(command[0], club, dangling.parent, *command[1:])
    remote = cli(command[0], "s3://club/", dangling.parent, *command[1:], "--scheduler", services.scheduler,
                 "--files-per-task", "4", "--storage-option", f"endpoint_url={services.endpoint}", env=blind)
    assert remote.returncode == local.returncode == 1
    assert remote.stdout.replace("s3://club/", f"{club}/") == local.stdout
    assert remote.stderr.replace("s3://club/", f"{club}/") == local.stderr
    assert f"{dangling}: cannot open" in remote.stderr
    assert "zz-copy.jsonl" in remote.stderr  # the copy is judged once, on the gathered results
    assert "s3://club/backup.jsonl: its 120 lines are the first of s3://club/standard-match.jsonl's" in remote.stderr
    assert "s3://club/fork.jsonl: the same match as s3://club/hollywood-match.jsonl" in remote.stderr
    assert "differ from line 40:" in remote.stderr and "differ from line 1:" not in remote.stderr


class _Done:
    """A future already done (what :class:`_InProcess` returns)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value

    def release(self) -> None:
        pass


class _InProcess:
    """As much of a Dask client as the executor uses, running each task at once in this process."""

    def __init__(self) -> None:
        self.closed = False
        self.ran: list[tuple[object, ...]] = []

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {}}

    def submit(self, fn: Any, *args: Any, key: str, pure: bool) -> _Done:
        self.ran.append((fn, *args))
        return _Done(fn(*args))

    def cancel(self, futures: list[Any], force: bool) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def test_a_lasting_executor_answers_after_the_loop_and_compares_copies_as_a_task(tmp_path: Path) -> None:
    from ginlog.app.check.cluster import ClusterError, DaskExecutor, call_task
    from ginlog.app.check.verdicts import verdict_of, verdicts
    from ginlog.app.data.copies import differ_for, first_difference

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(b"1\n2\n3\n")
    b.write_bytes(b"1\nX\n")
    client = _InProcess()
    executor = DaskExecutor(client, lasting=True, files_per_task=2)
    assert [v.path for v in verdicts([str(a), str(b)], verdict_of, executor=executor)] == [str(a), str(b)]
    assert not client.closed  # the loop is over, the connection is not
    differ = differ_for(executor)
    assert differ(str(a), str(b), 2) == first_difference(str(a), str(b), 2) == 2
    assert differ(str(a), str(tmp_path / "gone.jsonl"), 2) == 1  # (unreadable: a difference from line 1, as here)
    assert client.ran[-1][:2] == (call_task, first_difference)  # a task given the two paths, not read here
    executor.close(cancel=True)  # (the command's end)
    assert client.closed
    with pytest.raises(ClusterError, match="closed"):
        differ(str(a), str(b), 2)
    other = _InProcess()
    DaskExecutor(other).close()
    assert other.closed  # without lasting, the loop's close ends it
    assert differ_for(None) is first_difference


@pytest.mark.slow  # (the default run's budget: the bucket's audit and stats on the cluster stay in it)
def test_ctrl_c_stops_the_run_and_exits_130(club: Path, services: clustering.Services) -> None:
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    child = spawn_forked(["ginlog", "audit", str(club), str(club), "--scheduler", services.scheduler, "--json",
                          "--files-per-task", "1"],
                         stdin=os.open(os.devnull, os.O_RDONLY), stdout=w_out, stderr=w_err, env=_env(), cwd=None,
                         close=(r_out, r_err))
    os.close(w_out)
    os.close(w_err)
    with os.fdopen(r_out, "rb") as out:
        out.read(1)  # the run has started: its first bytes are out
        child.send_signal(signal.SIGINT)
        out.read()
    with os.fdopen(r_err, "rb") as err:
        said = err.read().decode()
    assert child.wait(60) == 130
    assert said.endswith("ginlog: interrupted\n") and "Traceback" not in said
    # The cluster is still there for the next run (its tasks cancelled, nothing left running that blocks it).
    assert cli("audit", club / "standard-match.jsonl", "--scheduler", services.scheduler, "-q").returncode == 0


@pytest.mark.slow  # (the default run's budget: the bucket's audit on the cluster stays in it)
def test_a_worker_of_another_version_is_one_error(club: Path, services: clustering.Services) -> None:
    def run() -> None:  # pragma: no cover - in the child
        import sys

        from ginlog.app.check.audit import audit_paths
        from ginlog.app.check.cluster import ClusterError, DaskExecutor
        import distributed

        Client: Any = distributed.Client

        from ginlog.errors import EventError

        code = 1
        cached = EventError("bad", rule="json")  # with distributed imported, a copy must still be a copy
        if cached.at(path="a.jsonl", line=3).path != "a.jsonl" or cached.path is not None:
            os._exit(4)
        try:
            executor = DaskExecutor(Client(services.scheduler), version="0.0.0-another", files_per_task=4)
            list(audit_paths([str(club)], executor=executor))
        except ClusterError as exc:
            os.write(2, (exc.one_line() + "\n").encode())
            code = 3
        os._exit(code)

    r_err, w_err = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover
        os.dup2(w_err, 2)
        run()
    os.close(w_err)
    with os.fdopen(r_err, "rb") as err:
        said = err.read().decode().splitlines()
    _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 3
    assert len(said) == 1 and "a worker has ginlog 0.1.0, this client 0.0.0-another" in said[0], said
    assert said[0].endswith("install the same version on every worker [cluster]")


@pytest.mark.slow  # (the default run's budget; the benchmark measures what it saves: docs/PERFORMANCE.md)
def test_the_client_keeps_no_log_of_the_tasks_it_sent(club: Path, services: clustering.Services) -> None:
    def run() -> int:  # pragma: no cover - in the child
        import distributed

        from ginlog.app.check.audit import audit_paths
        from ginlog.app.check.cluster import DaskExecutor, connect

        client_of: Any = distributed.Client
        kept = []
        for executor in (connect(services.scheduler, files_per_task=2, lasting=True),
                         DaskExecutor(client_of(services.scheduler), files_per_task=2, lasting=True)):
            assert len(list(audit_paths([str(club)], executor=executor))) == 15 + COPIES
            kept.append(len(executor._client.scheduler_comm.recent_message_log))  # (Dask's log of what it sent)
            executor.close(cancel=True)
        return 3 if kept[0] == 0 and kept[1] > 0 else 1

    pid = os.fork()
    if pid == 0:  # pragma: no cover
        code = 1
        try:
            code = run()
        finally:
            os._exit(code)
    _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 3  # none kept by connect()'s client, some by a plain one


@pytest.fixture()
def spawned(club: Path) -> Iterator[clustering.Services]:
    """A cluster of its own whose workers are spawned, so that a killed one's nanny can start another safely."""
    s = clustering.start(2, fork=False)
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.slow
def test_a_worker_killed_mid_run_still_audits_every_file_once(
        tmp_path: Path, club: Path, spawned: clustering.Services) -> None:
    services = spawned
    many = tmp_path / "many"
    for i in range(40):
        shutil.copytree(club, many / f"{i:02d}", symlinks=True)
    local = cli("audit", many, "--json", "--jobs", "2")
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    child = spawn_forked(["ginlog", "audit", str(many), "--json", "--scheduler", services.scheduler,
                          "--files-per-task", "5"],
                         stdin=os.open(os.devnull, os.O_RDONLY), stdout=w_out, stderr=w_err, env=_env(), cwd=None,
                         close=(r_out, r_err))
    os.close(w_out)
    os.close(w_err)
    pids = services.worker_pids()
    with os.fdopen(r_out, "rb") as out:
        head = out.read(2000)  # files are coming back: the workers are working
        os.kill(pids[0], signal.SIGKILL)
        stdout = (head + out.read()).decode()
    with os.fdopen(r_err, "rb") as err:
        stderr = err.read().decode()
    assert child.wait(120) == local.returncode, stderr
    assert stdout == local.stdout
    files = [f["file"] for f in json.loads(stdout)["files"]]
    assert len(files) == len(set(files)) == 40 * (15 + COPIES)
    deadline = time.monotonic() + 30
    while pids[0] in services.worker_pids() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pids[0] not in services.worker_pids()  # it was killed, and its nanny started another


@pytest.mark.slow
def test_local_cluster_of_jobs_workers_gives_the_local_answers(club: Path) -> None:
    for args in (("audit", club, "--json"), ("stats", club, "--json"), ("export", club)):
        local = cli(*args)
        remote = cli(*args, "--scheduler", "local", "--jobs", "2")
        assert (remote.returncode, remote.stdout, remote.stderr) == (local.returncode, local.stdout, local.stderr)


# --------------------------------------------------------------------------- gs://

_GCS = all(importlib.util.find_spec(n) is not None for n in ("gcsfs", "gcp_storage_emulator"))
#: gcsfs asks a bucket's layout of Google's gRPC control API first, which a stand-in does not speak (60 s of
#: retries a file); off, it is the plain JSON API every bucket answers.
GCS_ENV = {"GCSFS_EXPERIMENTAL_ZB_HNS_SUPPORT": "false"}


def _moved_a_millisecond(line: bytes) -> bytes:
    """``line`` with its time a millisecond later: still valid as a file's last line, and another line."""
    return re.sub(rb'("ts":"[^"]*\.)(\d{3})Z"', lambda m: m[1] + b"%03dZ\"" % ((int(m[2]) + 1) % 1000), line)


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few small files whose listing order and copies a store must get right: ``B.jsonl`` before ``a b/`` before
    ``b.jsonl`` before ``b/`` (bytes, a folder as its name and a slash), a name to quote (a space, an é); a copy,
    an earlier backup and a fork (read again to be judged), an invalid file."""
    folder = tmp_path_factory.mktemp("shelf")
    for sub in ("b", "a b", "invalid"):
        (folder / sub).mkdir()
    pad = (SAMPLES / "score-pad-match.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "b.jsonl").write_bytes(b"".join(pad))
    (folder / "B.jsonl").write_bytes(b"".join(pad))
    (folder / "b" / "backup.jsonl").write_bytes(b"".join(pad[:4]))
    table = (SAMPLES / "table-view-match.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "a b" / "é.jsonl").write_bytes(b"".join(table))
    (folder / "b" / "fork.jsonl").write_bytes(b"".join(table[:9] + [_moved_a_millisecond(table[9])]))
    shutil.copyfile(SAMPLES / "invalid" / "torn-tail.jsonl", folder / "invalid" / "torn-tail.jsonl")
    return folder


@pytest.fixture(scope="module")
def gcs(shelf: Path) -> Iterator[str]:
    """A GCS stand-in on 127.0.0.1 holding the shelf as ``gs://shelf/`` (the same keys): its endpoint.

    gcp-storage-emulator's request handlers on the standard library's HTTP server, in a forked child's one
    thread (the test process keeps one, so ``ginlog`` runs stay forks); filled through the JSON API's uploads."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the stand-in
        try:
            os.close(r)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            import functools
            import http.server

            from gcp_storage_emulator.handlers.buckets import create_bucket
            from gcp_storage_emulator.server import RequestHandler
            from gcp_storage_emulator.storage import Storage

            store = Storage(use_memory_fs=True)
            create_bucket("shelf", store)
            server = http.server.HTTPServer(("127.0.0.1", 0), functools.partial(RequestHandler, store))
            os.write(w, b"%d\n" % server.server_address[1])
            os.close(w)
            server.serve_forever()
        finally:
            os._exit(1)
    os.close(w)
    try:
        with os.fdopen(r, "rb") as f:
            endpoint = f"http://127.0.0.1:{int(f.readline())}"
        for path in sorted(shelf.rglob("*.jsonl")):
            name = urllib.parse.quote(path.relative_to(shelf).as_posix(), safe="")
            request = urllib.request.Request(f"{endpoint}/upload/storage/v1/b/shelf/o?uploadType=media&name={name}",
                                             data=path.read_bytes(), method="POST")
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
        yield endpoint
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)


def _with_gcsfs(commands: list[tuple[object, ...]], env: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    """Each of ``commands`` as a forked ``ginlog`` run, all forked from one child that imported gcsfs first:
    the import is half a CPU-second (google-auth, aiohttp, google-cloud-storage), once instead of once a run.
    The test process itself never imports it (nothing of fsspec may be loaded in a plain run's fork)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.close(r)
            os.environ.update(env)  # (read by gcsfs when imported)
            try:
                import gcsfs  # noqa: F401

                told: object = ("ok", [cli(*c, env=env) for c in commands])
            except BaseException:
                import traceback

                told = ("error", traceback.format_exc())
            with os.fdopen(w, "wb") as f:
                f.write(pickle.dumps(told))
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and data
    kind, value = pickle.loads(data)
    assert kind == "ok", value
    assert isinstance(value, list)
    return value


@pytest.mark.skipif(not _GCS, reason="gcsfs and gcp-storage-emulator are not installed (pip install -e '.[test]')")
def test_audit_stats_and_export_of_a_gs_prefix_are_the_local_ones(shelf: Path, gcs: str) -> None:
    commands: list[tuple[str, ...]] = [("audit", "--json"), ("stats", "--json")]
    if budget.FULL:  # (the default run's budget: export opens a URL as stats does, through sources.opened)
        commands.append(("export", "--format", "jsonl"))
    env = {k: v for k, v in {**_env(), **GCS_ENV}.items() if not k.startswith("GOOGLE_")}  # (anonymous)
    on = ("--storage-option", f"endpoint_url={gcs}", "--storage-option", "token=anon")
    remote = _with_gcsfs([(c[0], "gs://shelf/", *c[1:], *on) for c in commands], env)
    for command, got in zip(commands, remote):
        local = cli(command[0], shelf, *command[1:])
        assert got.returncode == local.returncode == 1, got.stderr  # (an invalid file among them)
        assert got.stdout.replace("gs://shelf/", f"{shelf}/") == local.stdout, command
        assert got.stderr.replace("gs://shelf/", f"{shelf}/") == local.stderr, command
    files = [f["file"].removeprefix("gs://shelf/") for f in json.loads(remote[0].stdout)["files"]]
    assert files == ["B.jsonl", "a b/é.jsonl", "b.jsonl", "b/backup.jsonl", "b/fork.jsonl", "invalid/torn-tail.jsonl"]
    # The copies judged by reading them again through gcsfs: an earlier backup, and a fork from its line 10.
    said = remote[1].stderr
    assert "gs://shelf/b/backup.jsonl: its 4 lines are the first of gs://shelf/B.jsonl's 7" in said
    assert "gs://shelf/b/fork.jsonl: the same match as gs://shelf/a b/é.jsonl" in said
    assert "differ from line 10:" in said and "differ from line 1:" not in said
