"""One damaged file through every command that reads a match: peak memory, verdict, first error, errors counted.

    python benchmarks/bench_verdict_memory.py [--bad-lines 100000] [--keep DIR]

The file is the score-pad sample (a valid match that warns: its hands are
results only) followed by ``--bad-lines`` lines that are not JSON. Each
command runs in a fresh interpreter (``python -c``, the CLI's ``main``), and
prints its own peak RSS (``VmHWM``: :data:`bench_audit_memory.PEAK_KB`).
Before issue 19, with 100,000 bad lines: ``audit`` kept 100 errors (52 MB),
``stats --json`` kept all 100,000 (12.5 MB of output, 192 MB), ``html -o``
wrote 100,002 lines to standard error and a 6.8 MB page (163 MB).

Target: every command under 100 MB. Exit status 1 if one misses it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_audit_memory import PEAK_KB  # noqa: E402

TARGET_MB = 100
SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "score-pad-match.jsonl"

_CHILD = (
    PEAK_KB
    + "import sys\n"
    "from ginlog.app.cli import main\n"
    "sys.argv = ['ginlog', *sys.argv[1:]]\n"
    "code = 0\n"
    "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write(f'\\nRSS {_peak_kb()} CODE {code}\\n')\n"
)


def damaged(path: Path, bad_lines: int) -> None:
    """The score-pad sample followed by ``bad_lines`` lines of ``x``."""
    path.write_bytes(SAMPLE.read_bytes() + b"x\n" * bad_lines)


def commands(match: Path, folder: Path, out: Path) -> dict[str, list[str]]:
    """Each command a user runs on the file (machine output where there is one), by name."""
    m = str(match)
    return {
        "audit": ["audit", m, "--json"],
        "validate": ["validate", m, "--json"],
        "score": ["score", m, "--json"],
        "show": ["show", m, "--json"],
        "replay": ["replay", m, "--json"],
        "stats": ["stats", m, "--json"],
        "export": ["export", m, "-o", str(out / "hands.csv")],
        "html": ["html", m, "-o", str(out / "page.html")],
        "site": ["html", str(folder), "-o", str(out / "site")],
    }


def run(argv: list[str]) -> tuple[int, int, bytes, bytes]:
    """One command in a child: (peak RSS in bytes, exit code, standard output, standard error without the RSS line)."""
    proc = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, timeout=3600)
    m = re.search(rb"\nRSS (\d+) CODE (\S+)\n$", proc.stderr)
    if m is None:
        raise RuntimeError(proc.stderr.decode(errors="replace")[-2000:])
    code = int(m[2]) if m[2].isdigit() else 1
    return int(m[1]) * 1024, code, proc.stdout, proc.stderr[: m.start()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bad-lines", type=int, default=100_000)
    ap.add_argument("--keep", type=Path, default=None, help="leave the files in this folder")
    args = ap.parse_args(argv)
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-verdict-"))
    folder, out = root / "club", root / "out"
    folder.mkdir(parents=True, exist_ok=True)
    out.mkdir(exist_ok=True)
    match = folder / "damaged.jsonl"
    damaged(match, args.bad_lines)
    ok = True
    mb = match.stat().st_size / 2**20
    print(f"{match.name}: {mb:.1f} MB, {args.bad_lines:,} bad lines")
    print(f"{'command':<10} {'peak RSS MB':>12} {'exit':>5} {'stdout MB':>10} {'stderr lines':>13}  target")
    for name, cmd in commands(match, folder, out).items():
        rss, code, stdout, stderr = run(cmd)
        lines = stderr.count(b"\n")
        met = rss < TARGET_MB * 2**20
        ok = ok and met
        print(
            f"{name:<10} {rss / 2**20:>12.1f} {code:>5} {len(stdout) / 2**20:>10.2f} {lines:>13,}"
            f"  {'MET' if met else 'MISSED'} (< {TARGET_MB} MB)"
        )
    if args.keep is None:
        shutil.rmtree(root)
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    sys.exit(main())
