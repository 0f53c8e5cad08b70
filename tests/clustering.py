"""A Dask cluster and a local S3 stand-in for the tests, in a process of their own.

*Why a process of its own:* a Dask client or a ``LocalCluster`` starts threads, and while another thread lives
in the test process the command-line tests cannot fork (``tests/forked.py``) and would each pay a fresh
interpreter. So the scheduler, the worker processes and a moto S3 server (all on 127.0.0.1) live in one helper
process, started by :func:`start` and stopped by :meth:`Services.stop`; the test process talks to them only
through ``ginlog`` runs (forked) and the lines the helper prints.

Run as a script (``python tests/clustering.py WORKERS [FOLDER BUCKET]``) it starts the services, uploads
FOLDER's ``*.jsonl`` files to ``s3://BUCKET/`` (same relative keys) if given, prints one JSON line (the
scheduler's address, the S3 endpoint, the worker processes' pids) and serves until its standard input
closes; ``pids`` on standard input prints the workers' pids again (a killed worker is restarted by its nanny).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from typing import IO, Any

__all__ = ["Services", "start", "S3_ENV"]

#: Credentials for the S3 stand-in: fake, from the environment (as real ones must be).
S3_ENV: Mapping[str, str] = {
    "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
}


class Services:
    """The helper process: ``scheduler`` (``tcp://127.0.0.1:PORT``), ``endpoint`` (S3's URL), ``pids``."""

    def __init__(self, proc: subprocess.Popen[str], info: dict[str, Any]) -> None:
        self.proc = proc
        self.scheduler: str = info["scheduler"]
        self.endpoint: str | None = info.get("endpoint")
        self.pids: list[int] = info["pids"]

    def worker_pids(self) -> list[int]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("pids\n")
        self.proc.stdin.flush()
        pids: list[int] = json.loads(self.proc.stdout.readline())
        return pids

    def stop(self) -> None:
        """Close the helper's input: it closes the cluster and the server and exits (killed if it hangs)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.proc.kill()
            self.proc.wait()


def start(workers: int = 2, folder: str | None = None, bucket: str | None = None, *, fork: bool = True) -> Services:
    """The helper process; ``fork``: its workers forked from it (cheap), else spawned (a killed worker's nanny
    starts another the same way, and a fork from the helper's threads is not safe for that)."""
    env = {**os.environ, **S3_ENV, "GINLOG_TEST_WORKERS": "fork" if fork else "spawn"}
    args = [sys.executable, __file__, str(workers)] + ([folder, bucket] if folder and bucket else [])
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait()
        raise RuntimeError("the cluster helper did not start")
    return Services(proc, json.loads(line))


def _upload(endpoint: str, folder: str, bucket: str) -> None:
    """FOLDER's ``*.jsonl`` files into the stand-in's BUCKET by plain PUTs (moto checks no signature; boto3 would
    cost half a CPU-second to import)."""
    import urllib.parse
    import urllib.request

    def put(key: str, body: bytes) -> None:
        request = urllib.request.Request(f"{endpoint}/{bucket}{key}", data=body, method="PUT",
                                         headers={"Content-Type": "application/octet-stream"})
        with urllib.request.urlopen(request) as response:
            response.read()

    put("", b"")
    for root, _dirs, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".jsonl"):
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    put("/" + urllib.parse.quote(os.path.relpath(path, folder)), f.read())


def _serve(argv: list[str], out: IO[str]) -> None:  # pragma: no cover - the helper process
    import logging

    import distributed

    LocalCluster: Any = distributed.LocalCluster  # (untyped constructors)
    Client: Any = distributed.Client

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    workers = int(argv[0])
    endpoint = None
    server: Any = None
    if len(argv) >= 3:
        from moto.server import ThreadedMotoServer

        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        _upload(endpoint, argv[1], argv[2])
    # The workers are forked from this process once it has imported what they need (ginlog's readers, s3fs):
    # a spawned worker would import it all again, about a CPU-second a worker (the default run's budget).
    import dask

    import ginlog.app.check.audit, ginlog.app.data.export, ginlog.app.check.cluster  # noqa: F401,E401
    if endpoint is not None:
        import s3fs  # noqa: F401
    dask.config.set({"distributed.worker.multiprocessing-method": os.environ.get("GINLOG_TEST_WORKERS", "fork")})
    cluster: Any = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                dashboard_address=None, silence_logs=logging.ERROR)
    client: Any = Client(cluster)

    def pids() -> list[int]:
        client.wait_for_workers(workers, timeout=30)
        return sorted(client.run(os.getpid).values())

    out.write(json.dumps({"scheduler": cluster.scheduler_address, "endpoint": endpoint, "pids": pids()}) + "\n")
    out.flush()
    try:
        for line in sys.stdin:
            if line.strip() == "pids":
                out.write(json.dumps(pids()) + "\n")
                out.flush()
    finally:
        client.close()
        cluster.close()
        if server is not None:
            server.stop()


if __name__ == "__main__":  # pragma: no cover
    _serve(sys.argv[1:], sys.stdout)
