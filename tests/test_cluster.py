"""``--scheduler`` (``ginlog/app/check/cluster.py``): the same answers on a Dask cluster as on this machine.

One ``LocalCluster`` (processes, 2 workers) and one moto S3 server, both on 127.0.0.1, in a helper process
shared by the module (``tests/clustering.py``: the test process keeps one thread, so ``ginlog`` runs stay
forks); each test runs the command line against them and against the local run, and the outputs must be the
same bytes. A killed worker, Ctrl-C and a long run are behind ``--run-slow``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

import clustering
from forked import can_fork, run_forked, spawn_forked

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


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample games (valid and invalid), a copy of one match and a link to nowhere named like a match."""
    folder = tmp_path_factory.mktemp("club")
    for src in sorted(SAMPLES.rglob("*.jsonl")):
        dst = folder / src.relative_to(SAMPLES)
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    shutil.copyfile(SAMPLES / "standard-match.jsonl", folder / "zz-copy.jsonl")
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
    assert len(files) == len(set(files)) == 16  # each file once, in the walk's order
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
def test_stats_and_export_on_the_cluster_are_the_local_ones(
        club: Path, services: clustering.Services, command: tuple[str, ...]) -> None:
    dangling = club / "gone.jsonl"
    dangling.symlink_to(club / "nowhere.jsonl")  # a path no worker can open: that file's error
    try:
        for args in ((command[0], club, *command[1:]),):
            local = cli(*args)
            remote = cli(*args, "--scheduler", services.scheduler, "--files-per-task", "4")
            assert remote.returncode == local.returncode == 1
            assert remote.stdout == local.stdout and remote.stderr == local.stderr
            assert f"{dangling}: cannot open" in remote.stderr
            assert "zz-copy.jsonl" in remote.stderr  # the copy is judged once, on the gathered results
    finally:
        dangling.unlink()


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
    assert len(files) == len(set(files)) == 40 * 16
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
