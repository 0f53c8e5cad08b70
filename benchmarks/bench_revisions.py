"""Two checkouts of ginlog, timed in the same run: replay speed and ``ginlog play`` start-up, before and after.

    python benchmarks/bench_revisions.py --base DIR [--hands 4000] [--rounds 5] [--play-runs 15]

``DIR`` is another checkout of ginlog with its own virtual environment in
``DIR/.venv`` (for example ``git worktree add /tmp/base <commit>`` and the
README's install command there). A refactor that must keep speed is judged by
the ratio of its figures to the base's, measured here in one run, turn by
turn, so that the machine's drift (a third or more within minutes on a shared
machine) hits both alike:

1. Replay. One corpus of full-information hands, written once, byte for byte
   as ginlog writes it (``bench_replay.make_corpus``: the format did not
   change between the revisions). Each round reads the whole corpus three
   times, each in a fresh interpreter that only reads: the floor (``json.loads``
   + SHA-256 per line), the base's ``read_match`` and this checkout's, in
   turn; the best CPU time of the rounds is kept for each. Printed: hands per
   CPU second, each over the floor, and this checkout over the base.
2. Start-up. ``ginlog play MATCH 'upcard 7h'`` on a fresh copy of a match of
   about 1,029 events, with each checkout's executable, and ``python -c pass``,
   in turn, ``--play-runs`` times; medians, each over the bare interpreter,
   and this checkout over the base.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_cli  # noqa: E402
import bench_replay  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
TS = "2026-11-29T19:56:25.123Z"

_READER = r"""
import json, sys, time
which, paths = sys.argv[1], sys.argv[2:]
if which == "floor":
    import hashlib
    def read(p):
        with open(p, "rb") as f:
            for line in f:
                line = line.rstrip(b"\n")
                json.loads(line)
                hashlib.sha256(line).hexdigest()
else:
    try:
        from ginlog.match.reading import read_match
    except ImportError:  # a checkout from before the layers
        from ginlog.matchfile import read_match
    def read(p):
        assert read_match(p).ok
c = time.process_time()
for p in paths:
    read(p)
print(json.dumps({"cpu": time.process_time() - c}))
"""


def _python(checkout: Path) -> str:
    exe = checkout / ".venv" / "bin" / "python"
    if not exe.exists():
        raise SystemExit(f"{checkout} has no .venv: install it there first (see the README)")
    return str(exe)


def _read_cpu(python: str, which: str, paths: Sequence[Path]) -> float:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user's machine runs it
    out = subprocess.run([python, "-c", _READER, which, *map(str, paths)], check=True, capture_output=True, text=True, env=env)
    return float(json.loads(out.stdout)["cpu"])


def replay(base: Path, hands: int, rounds: int, workdir: Path) -> dict[str, float]:
    corpus = bench_replay.make_corpus(workdir, hands, 500, 1, TS)
    mine, theirs = _python(HERE), _python(base)
    best = {"floor": float("inf"), "base": float("inf"), "new": float("inf")}
    for _ in range(rounds):
        best["floor"] = min(best["floor"], _read_cpu(mine, "floor", corpus.paths))
        best["base"] = min(best["base"], _read_cpu(theirs, "ginlog", corpus.paths))
        best["new"] = min(best["new"], _read_cpu(mine, "ginlog", corpus.paths))
    print(f"replay: {corpus.hands:,} hands, {corpus.events:,} events, {corpus.size / 2**20:.1f} MB; best of {rounds} rounds, CPU s")
    print(f"  {'reader':<8} {'hands/s':>9} {'÷ floor':>8}")
    for name in ("floor", "base", "new"):
        print(f"  {name:<8} {corpus.hands / best[name]:>9,.0f} {best[name] / best['floor']:>7.2f}×")
    print(f"  new ÷ base (time): {best['new'] / best['base']:.3f}")
    return best


def startup(base: Path, runs: int, workdir: Path) -> dict[str, float]:
    events, hands = bench_cli.build_events(1029, 1)
    match = workdir / "m.jsonl"
    bench_cli.write_match(match, events)
    copy = workdir / "copy.jsonl"
    cmds = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "base: ginlog play": [str(base / ".venv" / "bin" / "ginlog"), "play", str(copy), "upcard 7h"],
        "new: ginlog play": [str(HERE / ".venv" / "bin" / "ginlog"), "play", str(copy), "upcard 7h"],
    }
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            shutil.copyfile(match, copy)
            with open(copy, "rb+") as f:
                os.fsync(f.fileno())
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            times[name].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    bare = med["python -c pass"]
    print(f"start-up: a {len(events):,}-event match ({hands} hands); median of {runs} runs each, in turn")
    for name, m in med.items():
        print(f"  {name:<18} {m * 1000:>7.1f} ms {m / bare:>6.2f}×")
    print(f"  new ÷ base (time): {med['new: ginlog play'] / med['base: ginlog play']:.3f}")
    return med


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (with DIR/.venv)")
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--play-runs", type=int, default=15)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "corpus").mkdir()
        replay(args.base.resolve(), args.hands, args.rounds, work / "corpus")
        startup(args.base.resolve(), args.play_runs, work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
