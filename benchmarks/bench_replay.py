"""Replay benchmark: how fast ginlog reads match files, against the floor and the references.

    python benchmarks/bench_replay.py [--hands 10000] [--big-mb 100] [--seed 1] [--out DIR]
                                      [--match-hands 500] [--repeat 1] [--profile] [--keep]

1. Corpus. At least ``--hands`` full-information hands (both hands and the
   stock order recorded), as long matches under the ``standard`` rules with
   ``game_target`` raised to 10**9 so a match never ends by score:
   ``simulate_match(rules, seed=..., max_hands=--match-hands)``, one file per
   match. Each file is built in memory with ``format.encode``/``format.digest``
   (one ``ts`` for every line, as one ``create`` + ``append_many`` writes it)
   and written once: byte for byte what ginlog writes.
2. Speed, in one run over the same files, in a fresh interpreter that only
   reads (as ``ginlog audit`` would be: the generator's heap, tens of MB of
   simulated matches, made ginlog's reads up to a fifth slower; ``--in-process``
   measures in the generating process instead), wall and CPU seconds; the rates
   are per CPU second, i.e. per core, so other load on the machine matters less:
   - the floor (the readers take turns, ``--repeat`` times, best kept): a plain Python loop over each file's lines doing
     ``json.loads`` + ``hashlib.sha256`` and nothing else;
   - ginlog: ``read_match(path)`` on every file (reads, checks the hash chain,
     structures the events, runs the reducer).
   Events/s and hands/s for both, ginlog's time over the floor's, and ginlog
   against OpenSpiel's C++ engine (~575 hands/s replayed on this machine) and
   the target (3,000 hands/s per core).
3. Memory. One long match file of at least ``--big-mb`` MB (same rules, hands
   simulated one at a time with ``simulate_hand`` and appended in chunks, so
   the generator stays small), read by ``read_match`` in a subprocess; its
   peak RSS (``ru_maxrss``) next to a subprocess that only imports ginlog.
   Target: < 100 MB.
4. ``--profile``: the corpus read again under cProfile, top 15 functions by
   tottime.

Generated files go to a temporary directory (or ``--out``) and are removed at
the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ginlog.log import format
from ginlog.log.events import SCHEMA_VERSION, Event, FirstDealer, MatchStarted, event_fields, event_type
from ginlog.match.reading import read_match
from ginlog.play.reducer import start, step
from ginlog.game.rules import Rules, preset
from ginlog.play.simulate import simulate_hand, simulate_match

OPENSPIEL_HANDS_PER_S = 575.0
TARGET_HANDS_PER_S = 3000.0
TARGET_PEAK_MB = 100.0
PLAYERS = ("Ann", "Bob")
MB = 1024 * 1024

_CHILD = r"""
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from ginlog.match.reading import read_match
out = {"import_s": time.perf_counter() - t0, "import_cpu": time.process_time() - c0}
if sys.argv[1] != "-":
    t, c = time.perf_counter(), time.process_time()
    report = read_match(sys.argv[1])
    out["read_s"] = time.perf_counter() - t
    out["read_cpu"] = time.process_time() - c
    out["ok"] = report.ok
    out["lines"] = report.lines
    out["hands"] = len(report.state.hands)
out["self_maxrss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(out))
"""

# A small interpreter between this process and the measured one. On Linux a
# child's ru_maxrss starts from the RSS of the process it was forked from, so a
# child forked straight from this (large) process would report at least this
# process's size; forked from the launcher it starts from the launcher's few MB.
# The launcher has exactly one child, so its RUSAGE_CHILDREN is that child's peak.
_LAUNCHER = r"""
import json, resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)
sys.stdout.write(p.stdout.decode())
print(json.dumps({"children_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
sys.exit(p.returncode)
"""


# ---------------------------------------------------------------------------
# Generating match files


def long_rules() -> Rules:
    """``standard`` with a target no match reaches, so matches last as long as asked."""
    return attrs.evolve(preset("standard"), game_target=10**9)


def encode_events(events: Sequence[Event], first_seq: int, prev: str | None, ts: str) -> tuple[list[bytes], str | None]:
    """The lines ginlog writes for ``events`` (each with its newline), and the last digest."""
    out = []
    for seq, ev in enumerate(events, start=first_seq):
        raw = format.encode(seq, ts, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = format.digest(raw)
        out.append(raw + b"\n")
    return out, prev


def write_match(path: Path, events: Sequence[Event], ts: str) -> int:
    """Write a whole match file at once (refusing to overwrite); return its size."""
    lines, _ = encode_events(events, 1, None, ts)
    data = b"".join(lines)
    with open(path, "xb") as f:
        f.write(data)
    return len(data)


@attrs.frozen
class Corpus:
    paths: tuple[Path, ...]
    hands: int
    events: int
    size: int
    seconds: float


def make_corpus(directory: Path, hands: int, match_hands: int, seed: int, ts: str) -> Corpus:
    rules = long_rules()
    paths: list[Path] = []
    total_hands = total_events = size = 0
    t0 = time.perf_counter()
    i = 0
    while total_hands < hands:
        n = min(match_hands, hands - total_hands)
        events = simulate_match(rules, seed=seed * 100_003 + i, players=PLAYERS, max_hands=n)
        path = directory / f"corpus-{i:04d}.jsonl"
        size += write_match(path, events, ts)
        paths.append(path)
        total_hands += n
        total_events += len(events)
        i += 1
    return Corpus(tuple(paths), total_hands, total_events, size, time.perf_counter() - t0)


@attrs.frozen
class BigFile:
    path: Path
    hands: int
    events: int
    size: int
    seconds: float


def make_big_file(path: Path, megabytes: float, seed: int, ts: str, chunk_bytes: int = 4 * MB) -> BigFile:
    """One match of at least ``megabytes`` MB, hands simulated and appended a chunk at a time."""
    rng = random.Random(seed)
    first: Event = MatchStarted(players=PLAYERS, rules=long_rules())
    state = start(first).state
    dealer: Event = FirstDealer(dealer=PLAYERS[rng.randrange(2)], how="random")
    state = step(state, dealer)
    t0 = time.perf_counter()
    lines, prev = encode_events([first, dealer], 1, None, ts)
    seq = 3
    pending = sum(map(len, lines))
    size = 0
    hands = 0
    want = int(megabytes * MB)
    with open(path, "xb") as f:
        while size + pending < want:
            events, state = simulate_hand(state, rng)
            # Keep only the latest finished hand in the generator's state: the
            # reducer's list of finished hands would otherwise grow with the file.
            state = attrs.evolve(state, hands=state.hands[-1:])
            new, prev = encode_events(events, seq, prev, ts)
            seq += len(events)
            hands += 1
            lines += new
            pending += sum(map(len, new))
            if pending >= chunk_bytes:
                f.write(b"".join(lines))
                size += pending
                lines, pending = [], 0
        f.write(b"".join(lines))
        size += pending
    return BigFile(path, hands, seq - 1, size, time.perf_counter() - t0)


# ---------------------------------------------------------------------------
# Measuring


@attrs.frozen
class Pass:
    """One timed pass over the corpus: wall and CPU seconds, what was read."""

    wall: float
    cpu: float
    events: int
    hands: int


def floor_pass(paths: Sequence[Path]) -> Pass:
    """json.loads + sha256 of every line, nothing else: the least any reader must do."""
    loads = json.loads
    sha = hashlib.sha256
    lines = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                loads(line)
                sha(line[:-1]).hexdigest()
                lines += 1
    return Pass(time.perf_counter() - t0, time.process_time() - c0, lines, 0)


def ginlog_pass(paths: Sequence[Path]) -> Pass:
    """read_match on every file."""
    events = hands = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for path in paths:
        report = read_match(path)
        if not report.ok or report.state is None:  # pragma: no cover - read_match raises first
            raise SystemExit(f"{path}: not read cleanly: {report.errors}")
        events += report.lines
        hands += len(report.state.hands)
    return Pass(time.perf_counter() - t0, time.process_time() - c0, events, hands)


def best_of(n: int, runs: Sequence[Any], paths: Sequence[Path]) -> list[Pass]:
    """For each reader, the fastest (by CPU time) of ``n`` passes, the readers taking turns.

    Taking turns (floor, ginlog, floor, ginlog, ...) means a change in the
    machine's speed during the run hits both alike, so their ratio holds.
    """
    passes: list[list[Pass]] = [[] for _ in runs]
    for _ in range(n):
        for done, run in zip(passes, runs):
            done.append(run(paths))
    return [min(done, key=lambda p: p.cpu) for done in passes]


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def measure_child(path: Path | None) -> dict[str, float]:
    """Run the reader (or, with None, only the import) in a fresh interpreter.

    Peak RSS is ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` taken by a launcher
    whose only child is the measured interpreter (see ``_LAUNCHER``).
    """
    proc = subprocess.run(
        [sys.executable, "-S", "-c", _LAUNCHER, sys.executable, "-c", _CHILD, str(path) if path is not None else "-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the measuring subprocess failed:\n{proc.stderr}")
    lines = proc.stdout.strip().splitlines()
    out: dict[str, float] = json.loads(lines[-2])
    out["maxrss_kb"] = json.loads(lines[-1])["children_maxrss_kb"]
    return out


_PASSES = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import attrs
import bench_replay
passes = bench_replay.best_of(
    int(sys.argv[2]), (bench_replay.floor_pass, bench_replay.ginlog_pass), [Path(p) for p in sys.argv[3:]]
)
print(json.dumps([attrs.asdict(p) for p in passes]))
"""


def fresh_passes(n: int, paths: Sequence[Path]) -> list[Pass]:
    """:func:`best_of` the floor and ginlog, run in a fresh interpreter that does nothing else."""
    proc = subprocess.run(
        [sys.executable, "-c", _PASSES, str(Path(__file__).resolve().parent), str(n), *map(str, paths)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the measuring subprocess failed:\n{proc.stderr}")
    return [Pass(**p) for p in json.loads(proc.stdout.strip().splitlines()[-1])]


# ---------------------------------------------------------------------------
# Output


def rate(n: float, seconds: float) -> str:
    return f"{n / seconds:,.0f}" if seconds > 0 else "inf"


def table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    def fmt(r: Sequence[str]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([fmt(header), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)])


def profile_corpus(paths: Sequence[Path], top: int = 15) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for path in paths:
        read_match(path)
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime")
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    rows = []
    for key in stats.fcn_list[:top]:  # type: ignore[attr-defined]
        cc, nc, tt, ct, _ = stats.stats[key]  # type: ignore[attr-defined]
        filename, line, func = key
        where = f"{Path(filename).name}:{line}({func})" if line else func
        calls = f"{nc}" if nc == cc else f"{nc}/{cc}"
        rows.append([where, calls, f"{tt:.3f}", f"{100 * tt / total:.1f}%", f"{ct:.3f}"])
    return table(rows, ["function (by tottime)", "calls", "tottime s", "share", "cumtime s"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000, help="hands in the corpus (at least)")
    parser.add_argument("--match-hands", type=int, default=500, help="hands per corpus match file")
    parser.add_argument("--big-mb", type=float, default=100.0, help="size of the one long match file, MB (0: skip)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="directory for the generated files (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("--repeat", type=int, default=1, help="time each corpus pass this many times, keep the best")
    parser.add_argument("--profile", action="store_true", help="profile the corpus read (top 15 by tottime)")
    parser.add_argument("--in-process", action="store_true", help="time the reads in this (generating) process")
    args = parser.parse_args(argv)
    if min(args.hands, args.match_hands, args.repeat) < 1:
        parser.error("--hands, --match-hands and --repeat must be 1 or more")

    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        directory = Path(tempfile.mkdtemp(prefix="bench-replay-", dir=args.out))
    else:
        directory = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    ts = format.now_ts()
    try:
        print(f"ginlog replay benchmark  (python {sys.version.split()[0]}, seed {args.seed}, files in {directory})")
        print()
        corpus = make_corpus(directory, args.hands, args.match_hands, args.seed, ts)
        print(
            f"corpus: {len(corpus.paths)} match files (standard, game_target 10**9, <= {args.match_hands} hands each, "
            f"full information), {corpus.hands:,} hands, {corpus.events:,} events, {corpus.size / MB:.1f} MB; "
            f"generated in {corpus.seconds:.1f} s"
        )
        if args.in_process:
            floor, gin = best_of(args.repeat, (floor_pass, ginlog_pass), corpus.paths)
        else:
            floor, gin = fresh_passes(args.repeat, corpus.paths)
        if (gin.events, gin.hands, floor.events) != (corpus.events, corpus.hands, corpus.events):
            raise SystemExit(f"read back {gin.events} events / {gin.hands} hands, wrote {corpus.events} / {corpus.hands}")
        events, hands = corpus.events, corpus.hands
        print()
        where = "in this process" if args.in_process else "in a fresh process"
        print(f"corpus read ({where}, best of {args.repeat}; rates per CPU second, i.e. per core):")
        print(table(
            [
                [name, f"{p.wall:.3f}", f"{p.cpu:.3f}", rate(events, p.cpu), rate(hands, p.cpu), rate(corpus.size / MB, p.cpu)]
                for name, p in (("floor (json.loads + sha256)", floor), ("ginlog read_match", gin))
            ],
            ["reader", "wall s", "cpu s", "events/s", "hands/s", "MB/s"],
        ))
        hps = hands / gin.cpu if gin.cpu > 0 else float("inf")
        print()
        print(table(
            [
                ["ginlog / floor (time)", f"{gin.cpu / floor.cpu:.1f}x" if floor.cpu > 0 else "-", ""],
                [f"ginlog vs OpenSpiel C++ replay ({OPENSPIEL_HANDS_PER_S:,.0f} hands/s)",
                 f"{hps / OPENSPIEL_HANDS_PER_S:.2f}x", "faster" if hps >= OPENSPIEL_HANDS_PER_S else "slower"],
                [f"ginlog vs target ({TARGET_HANDS_PER_S:,.0f} hands/s per core)",
                 f"{hps / TARGET_HANDS_PER_S:.2f}x", "MET" if hps >= TARGET_HANDS_PER_S else "MISSED"],
            ],
            ["ratio", "value", "verdict"],
        ))

        if args.big_mb > 0:
            big = make_big_file(directory / "big.jsonl", args.big_mb, args.seed, ts)
            print()
            print(
                f"long match: {big.size / MB:.1f} MB, {big.hands:,} hands, {big.events:,} events; "
                f"generated in {big.seconds:.1f} s"
            )
            base = measure_child(None)
            reader = measure_child(big.path)
            if not reader.get("ok") or reader.get("lines") != big.events or reader.get("hands") != big.hands:
                raise SystemExit(f"the long match did not read back cleanly: {reader}")
            base_mb = base["maxrss_kb"] / 1024
            read_mb = reader["maxrss_kb"] / 1024
            print()
            print(table(
                [
                    ["import ginlog only (baseline)", f"{base_mb:.1f}", f"{base['import_s']:.3f}",
                     f"{base['import_cpu']:.3f}", "", ""],
                    ["read_match(long match)", f"{read_mb:.1f}", f"{reader['read_s']:.3f}", f"{reader['read_cpu']:.3f}",
                     rate(big.events, reader["read_cpu"]), rate(big.hands, reader["read_cpu"])],
                    ["read_match - baseline", f"{read_mb - base_mb:.1f}", "", "", "", ""],
                ],
                ["subprocess (peak RSS, ru_maxrss)", "peak MB", "wall s", "cpu s", "events/s", "hands/s"],
            ))
            verdict = "MET" if read_mb < TARGET_PEAK_MB else "MISSED"
            print(f"peak RSS target (< {TARGET_PEAK_MB:.0f} MB): {verdict} ({read_mb:.1f} MB)")

        if args.profile:
            print()
            print(f"profile of read_match over the corpus ({len(corpus.paths)} files), top 15 by tottime:")
            print(profile_corpus(corpus.paths))
    finally:
        if args.keep:
            print(f"\nfiles kept in {directory}")
        else:
            shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
