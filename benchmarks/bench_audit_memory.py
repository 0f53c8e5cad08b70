"""The audit on hostile files: peak memory and time, each file audited by ``ginlog audit --json`` in a child process.

    python benchmarks/bench_audit_memory.py [--x-lines 1000000] [--garbage-mb 100] [--seed 1] [--keep DIR]

1. ``--x-lines`` lines of ``x`` (2 bytes each): every line a malformed line.
   Before issue 13 every error was kept: 1,000,000 lines took 777 MB and 53 s.
2. ``--garbage-mb`` MB of mixed garbage (:func:`write_garbage`): random bytes,
   JSON objects of every wrong shape, lines that look like ginlog's with
   wrong seqs and links, blank lines, invalid UTF-8, NaN, deep nesting, lines
   over the 64 KB limit, and stretches of a real match.

For each: the child's peak RSS (``VmHWM``, see :data:`PEAK_KB`), its CPU seconds, the errors
counted and kept. Target: under 100 MB for any file up to 100 MB. Exit status
1 if a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

TARGET_MB = 100

#: The peak RSS of this process in KiB, for a child to print. On Linux ``ru_maxrss`` survives ``exec``: a child
#: forked from a 300 MB pytest starts at 300 MB. ``VmHWM`` belongs to the address space, which ``exec`` makes
#: anew, so it is the child's own; elsewhere ``ru_maxrss`` is the best there is.
PEAK_KB = (
    "def _peak_kb():\n"
    "    try:\n"
    "        with open('/proc/self/status') as f:\n"
    "            return next(int(l.split()[1]) for l in f if l.startswith('VmHWM:'))\n"
    "    except (OSError, StopIteration):\n"
    "        import resource\n"
    "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
)

_CHILD = (
    PEAK_KB
    + "import sys\n"
    "from ginlog.app.cli import main\n"
    "sys.argv = ['ginlog', 'audit', sys.argv[1], '--json']\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write(f'RSS {_peak_kb()}\\n')\n"
)


def audit_in_child(path: Path) -> tuple[int, float, dict[str, Any]]:
    """``ginlog audit PATH --json`` in a fresh interpreter: its peak RSS in bytes, CPU seconds, and output."""
    t0 = os.times()
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, timeout=3600)
    t1 = os.times()
    m = re.search(rb"RSS (\d+)", proc.stderr)
    if m is None:
        raise RuntimeError(proc.stderr.decode(errors="replace")[-2000:])
    cpu = t1.children_user - t0.children_user + t1.children_system - t0.children_system
    return int(m[1]) * 1024, cpu, json.loads(proc.stdout)


def write_garbage(path: Path, size: int, seed: int = 1) -> int:
    """About ``size`` bytes of mixed garbage, one kind of line after another at random; the lines written."""
    from ginlog.game.rules import preset
    from ginlog.log.events import SCHEMA_VERSION, event_fields, event_type
    from ginlog.log.format import digest, encode
    from ginlog.play.simulate import simulate_match

    rng = random.Random(seed)
    real, prev = [], None
    for seq, ev in enumerate(simulate_match(preset("standard"), seed=seed, max_hands=3), start=1):
        raw = encode(seq, "2026-11-29T19:56:25.123Z", event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        real.append(raw)
        prev = digest(raw)

    def line() -> bytes:
        kind = rng.randrange(10)
        if kind == 0:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).replace(b"\n", b" ")
        if kind == 1:
            return json.dumps({"seq": rng.randrange(-5, 10**6), "x": rng.random()}).encode()
        if kind == 2:
            return rng.choice(real).replace(b'"seq":', b'"seq":%d' % rng.randrange(9), 1)
        if kind == 3:
            return b""
        if kind == 4:
            return b'{"seq":1,"t":"\xff\xfe"}'
        if kind == 5:
            return b'{"seq":2,"x":NaN}'
        if kind == 6:
            depth = rng.randrange(10, 5000)
            return b'{"a":' + b"[" * depth + b"]" * depth + b"}"
        if kind == 7 and rng.random() < 0.01:
            return b'{"text":"' + b"a" * rng.randrange(70_000, 300_000) + b'"}'
        if kind == 8:
            return b"\n".join(real[: rng.randrange(1, len(real))])
        return rng.choice([b"x", b"[]", b"null", b'{"seq":"1"}', b"{}", b"  ", b"\r"])

    written = len(real[0]) + 1
    lines = 1
    with open(path, "wb") as out:
        out.write(real[0] + b"\n")  # a match's beginning: the rest is read against it, never given up on
        while written < size:
            chunk = b"\n".join(line() for _ in range(256)) + b"\n"
            out.write(chunk)
            written += len(chunk)
            lines += chunk.count(b"\n")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--x-lines", type=int, default=1_000_000)
    ap.add_argument("--garbage-mb", type=float, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, default=None, help="leave the files in this folder")
    args = ap.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-audit-"))
    folder.mkdir(parents=True, exist_ok=True)
    x = folder / "x.jsonl"
    x.write_bytes(b"x\n" * args.x_lines)
    garbage = folder / "garbage.jsonl"
    lines = write_garbage(garbage, int(args.garbage_mb * 1024 * 1024), args.seed)
    ok = True
    print(f"{'file':<28} {'MB':>7} {'lines':>10} {'peak RSS MB':>12} {'CPU s':>7} {'errors':>10} {'kept':>5}  verdict")
    for path, n in ((x, args.x_lines), (garbage, lines)):
        rss, cpu, data = audit_in_child(path)
        (f,) = data["files"]
        mb = path.stat().st_size / 2**20
        met = rss < TARGET_MB * 2**20
        ok = ok and met
        print(
            f"{path.name:<28} {mb:>7.1f} {n:>10,} {rss / 2**20:>12.1f} {cpu:>7.1f} {f['errors_total']:>10,}"
            f" {len(f['errors']):>5}  {'MET' if met else 'MISSED'} (< {TARGET_MB} MB)"
        )
    if args.keep is None:
        for p in (x, garbage):
            p.unlink()
        folder.rmdir()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
