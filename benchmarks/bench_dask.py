"""``ginlog audit --scheduler local --jobs 2`` against ``ginlog audit --jobs 2``: the cluster's overhead, in one run.

    python benchmarks/bench_dask.py [--small 2000] [--big 20] [--big-bytes 1000000] [--rounds 1] [--remote]
                                    [--commands pool,cluster,remote,remote-dask-log]

The issue's sizes are ``--small 10000,100000 --big 1000`` (10,000 and 100,000 small files, 1,000 files of
1 MB); the default is small, so that the run is quick. For each set of files:

1. Input. Small files: a two-hand simulated match (about 6 KB), written under as many names as asked, 1,000 a
   folder; big files: a match played to ``game_target`` high enough for ``--big-bytes`` (about 1 MB), likewise.
   Every file is the same match under another name: the audit reads each file in full all the same.
2. Two commands over the folder, each in a fresh process, taking turns ``--rounds`` times:
   - **pool**: ``ginlog audit DIR -q --jobs 2`` (this machine's process pool);
   - **cluster**: ``ginlog audit DIR -q --scheduler local --jobs 2`` (a ``LocalCluster`` of two worker
     processes started by the command, the scheduler in the client's process, 200 files a task).
   Each is timed as the CPU seconds (user + system) of the whole process tree, from
   ``getrusage(RUSAGE_CHILDREN)`` (the workers are the command's children, waited for, so they are in it),
   and as wall seconds; the client's own peak memory (``ru_maxrss`` of the command's process alone, not of
   its workers) is reported by a small wrapper around ``main()``.
   With ``--remote``, a third and a fourth: the same audit against a scheduler and two workers started
   beforehand in a process of their own (``tests/clustering.py``), as a real cluster is: only the client's own
   CPU and peak memory are the command's (the scheduler's logs are not in it, as they are with ``local``).
   **remote** is ginlog as it is; **remote-dask-log** the same with the client keeping Dask's default log of
   the messages it sent (``distributed.admin.low-level-log-length``, 1,000 batches: ginlog keeps none,
   ``ginlog.app.check.cluster.CLIENT_MESSAGE_LOG``), so that what that log costs the client is measured in
   the same run. ``--commands`` picks some of the four (``--commands remote,remote-dask-log`` for the
   client's memory alone, without the pool's and the local cluster's runs).
   With ``--trace N1,N2`` (instead of the runs above): where the client's memory grows between N1 and N2
   files, against the remote scheduler, for remote and remote-dask-log: the audit run in a fresh process
   under ``tracemalloc`` (its memory then is tracemalloc's, so no peak is printed), the Python memory traced
   at each count and the ten lines of code whose allocations still held grew the most (none: flat).
3. Printed: per set, each command's CPU-s (minimum of the rounds), CPU per file, wall, client peak RSS, and
   the ratio cluster ÷ pool; the goal is at most 1.3×. And the per-file figures the model in
   ``docs/PERFORMANCE.md`` is made from: the cluster's fixed cost (start-up) and its per-file cost.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 1.3

#: Runs ``ginlog`` in this process and writes its own peak RSS (KB) to the file $GINLOG_BENCH_RSS at the end;
#: with $GINLOG_BENCH_CLIENT_LOG, the client keeps that many batches of its messages (Dask's default: 1,000).
_WRAPPER = r"""
import os, resource, sys
from ginlog.app.cli import main
if os.environ.get("GINLOG_BENCH_CLIENT_LOG"):
    import ginlog.app.check.cluster as cluster
    cluster.CLIENT_MESSAGE_LOG = int(os.environ["GINLOG_BENCH_CLIENT_LOG"])
sys.argv = ["ginlog", *sys.argv[1:]]
try:
    main()
finally:
    with open(os.environ["GINLOG_BENCH_RSS"], "w") as f:
        f.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


def match_bytes(target: int | None, hands: int | None, seed: int = 7) -> bytes:
    """One simulated standard match, encoded (every line its own ts, one second apart)."""
    import attrs

    from ginlog.game.rules import preset
    from ginlog.log.events import SCHEMA_VERSION, event_fields, event_type
    from ginlog.log.format import digest, encode
    from ginlog.play.simulate import simulate_match

    rules = preset("standard") if target is None else attrs.evolve(preset("standard"), game_target=target)
    events = simulate_match(rules, seed=seed, max_hands=hands)
    start = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
    out, prev = [], None
    for seq, ev in enumerate(events, start=1):
        when = start + timedelta(seconds=seq - 1)
        ts = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
        raw = encode(seq, ts, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = digest(raw)
        out.append(raw + b"\n")
    return b"".join(out)


def big_bytes(size: int) -> bytes:
    """A match about ``size`` bytes long (played to a target scaled from a 100-point match's size)."""
    target = 100
    data = match_bytes(target, None)
    while len(data) < size * 0.9 and target < 10**6:
        target = max(target + 100, int(target * size / max(1, len(data))))
        data = match_bytes(target, None)
    return data


def write_files(folder: Path, data: bytes, n: int) -> None:
    for i in range(n):
        sub = folder / f"{i // 1000:04d}"
        if i % 1000 == 0:
            sub.mkdir(parents=True, exist_ok=True)
        (sub / f"m{i:07d}.jsonl").write_bytes(data)


#: The client of --trace: ``audit_paths`` on ``connect(SCHEDULER)``, snapshots at each count of files.
_TRACER = r"""
import gc, linecache, os, sys, tracemalloc
tracemalloc.start(1)
import ginlog.app.check.cluster as cluster
if os.environ.get("GINLOG_BENCH_CLIENT_LOG"):
    cluster.CLIENT_MESSAGE_LOG = int(os.environ["GINLOG_BENCH_CLIENT_LOG"])
from ginlog.app.check.audit import Summary, audit_paths
scheduler, folder, counts = sys.argv[1], sys.argv[2], [int(c) for c in sys.argv[3].split(",")]
executor = cluster.connect(scheduler, lasting=True, files_per_task=int(sys.argv[4]))
summary, shots, n = Summary(), [], 0
hidden = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, linecache.__file__)]
for r in audit_paths([folder], executor=executor):
    summary.add(r)
    n += 1
    if n in counts:
        gc.collect()
        shots.append(tracemalloc.take_snapshot().filter_traces(hidden))
        print(f"    {n:9,} files: {sum(t.size for t in shots[-1].traces) / 1e6:7.2f} MB of Python memory traced")
executor.close(cancel=True)
print(f"    grown the most from {counts[0]:,} to {counts[-1]:,} files (KB, blocks, where):")
import sysconfig
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cluster.__file__)))))
grown = sorted((st for st in shots[-1].compare_to(shots[0], "lineno") if st.size_diff > 0), key=lambda st: -st.size_diff)
for stat in grown[:10]:
    frame = stat.traceback[0]
    where = frame.filename.split("site-packages/")[-1]
    for prefix in (root, sysconfig.get_paths()["stdlib"]):
        if where.startswith(prefix + os.sep):
            where = os.path.relpath(where, prefix)
    print(f"    {stat.size_diff / 1e3:+9.1f} {stat.count_diff:+6d}  {where}:{frame.lineno}")
"""

#: Dask's own default for ``distributed.admin.low-level-log-length`` (what remote-dask-log restores).
DASK_LOG = 1000
COMMANDS = ("pool", "cluster", "remote", "remote-dask-log")


def run(args: Sequence[str], rss_file: str, extra: dict[str, str] | None = None) -> tuple[float, float, int, int]:
    """(CPU-s of the process tree, wall-s, client peak RSS in KB, exit code) of ``ginlog ARGS``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GINLOG_BENCH_RSS": rss_file, **(extra or {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", _WRAPPER, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env, text=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"ginlog {' '.join(args)} ended with {proc.returncode}")
    with open(rss_file) as f:
        rss = int(f.read() or 0)
    return cpu, wall, rss, proc.returncode


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", default="2000", help="how many small files, comma-separated sets (10000,100000)")
    ap.add_argument("--big", type=int, default=20, help="how many big files (1000)")
    ap.add_argument("--big-bytes", type=int, default=1_000_000, help="the size of a big file")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--files-per-task", type=int, default=200)
    ap.add_argument("--remote", action="store_true",
                    help="also against a scheduler and 2 workers in a process of their own (tests/clustering.py): "
                         "the client's own CPU and peak memory, the scheduler not in it; with and without Dask's "
                         "log of the client's messages")
    ap.add_argument("--commands", default=None,
                    help=f"which of {','.join(COMMANDS)} to run (default: pool,cluster, and the remote two with "
                         "--remote)")
    ap.add_argument("--trace", default=None, metavar="N1,N2",
                    help="where the client's memory grows from N1 to N2 files against the remote scheduler "
                         "(tracemalloc; remote and remote-dask-log); nothing else is run")
    ns = ap.parse_args(argv)
    if ns.trace:
        return trace([int(c) for c in ns.trace.split(",") if c.strip()], ns.files_per_task)
    wanted = [c.strip() for c in ns.commands.split(",") if c.strip()] if ns.commands else (
        list(COMMANDS) if ns.remote else ["pool", "cluster"])
    if not wanted or any(c not in COMMANDS for c in wanted):
        ap.error(f"--commands takes some of {', '.join(COMMANDS)}")
    ns.remote = any(c.startswith("remote") for c in wanted)
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SystemExit("bench_dask needs Dask: pip install -e '.[dask]'") from None
    sets: list[tuple[str, int, bytes]] = []
    small = match_bytes(None, 2)
    for n in (int(x) for x in ns.small.split(",") if x.strip()):
        sets.append((f"{n:,} small files ({len(small):,} B)", n, small))
    if ns.big:
        big = big_bytes(ns.big_bytes)
        sets.append((f"{ns.big:,} big files ({len(big):,} B)", ns.big, big))
    print(f"audit --jobs 2 against audit --scheduler local --jobs 2 ({os.cpu_count()} CPUs; "
          f"{ns.files_per_task} files a task; CPU of the whole process tree, minimum of {ns.rounds} round(s))")
    ratios = []
    remote = None
    if ns.remote:
        sys.path.insert(0, str(ROOT / "tests"))
        import clustering

        remote = clustering.start(2)
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        if remote is not None:
            stack.callback(remote.stop)
        rss_file = os.path.join(tmp, "rss")
        for label, n, data in sets:
            folder = Path(tmp) / "files"
            write_files(folder, data, n)
            every: dict[str, tuple[list[str], dict[str, str]]] = {
                "pool": (["audit", str(folder), "-q", "--jobs", "2"], {}),
                "cluster": (["audit", str(folder), "-q", "--jobs", "2", "--scheduler", "local",
                             "--files-per-task", str(ns.files_per_task)], {}),
            }
            if remote is not None:
                on_remote = ["audit", str(folder), "-q", "--scheduler", remote.scheduler,
                             "--files-per-task", str(ns.files_per_task)]
                every["remote"] = (on_remote, {})
                every["remote-dask-log"] = (on_remote, {"GINLOG_BENCH_CLIENT_LOG": str(DASK_LOG)})
            commands = {name: every[name] for name in wanted}
            best: dict[str, tuple[float, float, int]] = {}
            for _round in range(ns.rounds):
                for name, (args, extra) in commands.items():
                    cpu, wall, rss, _code = run(args, rss_file, extra)
                    if name not in best or cpu < best[name][0]:
                        best[name] = (cpu, wall, rss)
            print(f"{label}:")
            for name, (cpu, wall, rss) in best.items():
                if name.startswith("remote"):  # (the workers are the helper's children: only the client's own CPU)
                    print(f"  {name:15s} {cpu:8.2f} CPU-s of the client alone  {wall:7.2f} s wall  "
                          f"client peak {rss / 1024:6.1f} MB")
                    continue
                print(f"  {name:15s} {cpu:8.2f} CPU-s  {1000 * cpu / n:7.3f} ms a file  {wall:7.2f} s wall  "
                      f"client peak {rss / 1024:6.1f} MB")
            if "remote" in best and "remote-dask-log" in best:
                print(f"  client peak, Dask's log kept less ginlog's: "
                      f"{(best['remote-dask-log'][2] - best['remote'][2]) / 1024:.1f} MB")
            if "pool" in best and "cluster" in best:
                ratio = best["cluster"][0] / best["pool"][0]
                ratios.append(ratio)
                print(f"  cluster ÷ pool (CPU): {ratio:.3f}")
            shutil.rmtree(folder)
    if ratios:
        worst = max(ratios)
        print(f" goal: cluster at most {GOAL}× the pool's CPU: {worst:.3f} at worst: "
              f"{'met' if worst <= GOAL else 'missed'}")
    return 0


def trace(counts: list[int], files_per_task: int) -> int:
    """``--trace``: the client's growth between the counts of files, under tracemalloc, with and without Dask's
    log of the client's messages, against a scheduler and two workers of their own."""
    if len(counts) < 2 or counts != sorted(counts):
        raise SystemExit("--trace takes two counts of files or more, growing: 5000,25000")
    sys.path.insert(0, str(ROOT / "tests"))
    import clustering

    small = match_bytes(None, 2)
    print(f"the client's Python memory against a remote scheduler, {counts[-1]:,} small files ({len(small):,} B), "
          f"{files_per_task} a task")
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        folder = Path(tmp) / "files"
        write_files(folder, small, counts[-1])
        remote = clustering.start(2)
        try:
            for name, extra in (("remote", {}), ("remote-dask-log", {"GINLOG_BENCH_CLIENT_LOG": str(DASK_LOG)})):
                print(f"  {name}:", flush=True)
                env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
                subprocess.run([sys.executable, "-c", _TRACER, remote.scheduler, str(folder),
                                ",".join(map(str, counts)), str(files_per_task)], env=env, check=True)
        finally:
            remote.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
