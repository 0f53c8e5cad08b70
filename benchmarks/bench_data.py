"""Many-match commands against ``audit``: ``stats``, ``export`` (csv, jsonl, parquet) and the site, in one run.

    python benchmarks/bench_data.py [--hands 10000] [--match-hands 500] [--tiny 1000] [--repeat 3]
                                    [--page-hands 16] [--loads 5] [--no-page] [--seed 1]

1. Corpora: the replay benchmark's (``bench_replay.make_corpus``: long
   full-information matches, ``--hands`` hands in files of ``--match-hands``),
   and ``--tiny`` one-hand matches (OpenSpiel's rules, about 30 lines each: what
   per-file costs weigh on).
2. Each command over each corpus in a fresh interpreter, the commands taking
   turns ``--repeat`` times, the best CPU time kept (a process only reads; the
   clock starts after the imports): ``audit`` is the command as the CLI runs it
   (``ginlog audit --json`` through the Typer app, output to /dev/null; it
   streams, as the others do),
   ``stats --json``, ``export --format csv`` / ``jsonl`` / ``parquet`` (when
   pyarrow is installed) and ``html DIR -o SITE`` (the tiny corpus only: a page
   a match is the point there). Each is printed with its ratio to ``audit``
   (goal for stats and export: at most 1.2x). pyarrow's import (about 0.4 s,
   once per process, whatever the size) is timed apart and printed below.
3. The replay page of a ``--page-hands`` match: size, build time and, with
   Playwright and Chromium, time to ready (``bench_page.py``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_page  # noqa: E402
import bench_replay  # noqa: E402

from ginlog.game.rules import preset  # noqa: E402
from ginlog.log import format  # noqa: E402
from ginlog.play.simulate import simulate_match  # noqa: E402

GOAL = 1.2

#: One command, timed in a fresh interpreter: CPU and wall seconds after the imports, as JSON.
_CHILD = r"""
import contextlib, io, json, os, sys, time
what, folder, out = sys.argv[1], sys.argv[2], sys.argv[3]
from ginlog.app import cli
from ginlog.app.cli import data as cli_data
devnull = open(os.devnull, "w", encoding="utf-8")
extra = {}
if what == "export-parquet":  # pyarrow's import, a fixed cost of the process, timed apart
    t, c = time.perf_counter(), time.process_time()
    import pyarrow.parquet
    extra = {"import_cpu": time.process_time() - c, "import_wall": time.perf_counter() - t}
t, c = time.perf_counter(), time.process_time()
with contextlib.redirect_stdout(devnull), contextlib.redirect_stderr(devnull):
    if what == "audit":
        try:
            cli.build_app()(["audit", "--json", folder], prog_name="ginlog", standalone_mode=False)
        except SystemExit:
            pass
    elif what == "stats":
        cli_data.stats([folder], json_=True)
    elif what.startswith("export-"):
        cli_data.export([folder], what[7:], out + "." + what[7:])
    elif what == "site":
        cli_data.site(folder, out + ".site")
print(json.dumps({"cpu": time.process_time() - c, "wall": time.perf_counter() - t, **extra}))
"""

COMMANDS = {
    "audit": "audit --json",
    "stats": "stats --json",
    "export-csv": "export --format csv",
    "export-jsonl": "export --format jsonl",
    "export-parquet": "export --format parquet",
    "site": "html DIR -o SITE",
}


def has_pyarrow() -> bool:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def tiny_corpus(folder: Path, n: int, seed: int) -> int:
    """``n`` one-hand matches (ten deals, written again and again); their total size."""
    folder.mkdir(parents=True)
    ts = format.now_ts()
    blobs = []
    for s in range(10):
        lines, _ = bench_replay.encode_events(simulate_match(preset("openspiel"), seed=seed * 10 + s), 1, None, ts)
        blobs.append(b"".join(lines))
    for i in range(n):
        (folder / f"tiny-{i:05d}.jsonl").write_bytes(blobs[i % 10])
    return sum(len(blobs[i % 10]) for i in range(n))


def timed(what: str, folder: Path, scratch: Path) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, what, str(folder), str(scratch / what)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=bench_replay.child_env(), check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{what} failed:\n{proc.stderr}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def best(commands: Sequence[str], folder: Path, repeat: int, scratch: Path) -> dict[str, dict[str, float]]:
    """Each command ``repeat`` times, taking turns; the fastest run (CPU) of each."""
    runs: dict[str, list[dict[str, float]]] = {c: [] for c in commands}
    for _ in range(repeat):
        for c in commands:
            runs[c].append(timed(c, folder, scratch))
            for leftover in scratch.iterdir():
                shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
    return {c: min(r, key=lambda x: x["cpu"]) for c, r in runs.items()}


def report(title: str, results: dict[str, dict[str, float]]) -> None:
    base = results["audit"]["cpu"]
    print(title)
    rows = []
    for c, r in results.items():
        ratio = r["cpu"] / base if base > 0 else float("inf")
        verdict = ""
        if c == "stats" or c.startswith("export-"):
            verdict = "MET" if ratio <= GOAL else "MISSED"
        rows.append([COMMANDS[c], f"{r['wall']:.3f}", f"{r['cpu']:.3f}", f"{ratio:.2f}x", verdict])
    print(bench_replay.table(rows, ["command", "wall s", "cpu s", "/ audit", f"goal <= {GOAL}x"]))
    if "export-parquet" in results:
        r = results["export-parquet"]
        print(f"(parquet: pyarrow's import, once per process, apart: {r['import_wall']:.3f} s wall, {r['import_cpu']:.3f} s cpu)")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000, help="hands in the replay corpus (at least)")
    ap.add_argument("--match-hands", type=int, default=500, help="hands per replay corpus file")
    ap.add_argument("--tiny", type=int, default=1000, help="one-hand match files in the second corpus (0: skip)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command, the best kept")
    ap.add_argument("--page-hands", type=int, default=16, help="hands of the match whose replay page is measured")
    ap.add_argument("--loads", type=int, default=5, help="page loads in Chromium for the time to ready")
    ap.add_argument("--no-page", action="store_true", help="leave the page out")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if min(a.hands, a.match_hands, a.repeat) < 1:
        ap.error("--hands, --match-hands and --repeat must be 1 or more")
    commands = ["audit", "stats", "export-csv", "export-jsonl"]
    if has_pyarrow():
        commands.append("export-parquet")
    directory = Path(tempfile.mkdtemp(prefix="bench-data-"))
    try:
        print(f"ginlog many-match benchmark  (python {sys.version.split()[0]}, seed {a.seed}, best of {a.repeat}, "
              "fresh process each, CPU seconds after the imports)")
        if not has_pyarrow():
            print("pyarrow not installed: no parquet figures (pip install 'ginlog[data]')")
        scratch = directory / "scratch"
        scratch.mkdir()
        t0 = time.perf_counter()
        (directory / "replay").mkdir()
        corpus = bench_replay.make_corpus(directory / "replay", a.hands, a.match_hands, a.seed, format.now_ts())
        print(f"replay corpus: {len(corpus.paths)} files, {corpus.hands:,} hands, {corpus.events:,} events, "
              f"{corpus.size / bench_replay.MB:.1f} MB (made in {time.perf_counter() - t0:.1f} s)")
        print()
        report("over the replay corpus:", best(commands, directory / "replay", a.repeat, scratch))
        if a.tiny > 0:
            size = tiny_corpus(directory / "tiny", a.tiny, a.seed)
            print()
            print(f"tiny corpus: {a.tiny} one-hand files, {size / bench_replay.MB:.1f} MB")
            report("over the tiny corpus:", best([*commands, "site"], directory / "tiny", a.repeat, scratch))
        if not a.no_page:
            print()
            print("the replay page:")
            bench_page.main(["--hands", str(a.page_hands), "--loads", str(a.loads)])
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
