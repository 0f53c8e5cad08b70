"""``ginlog audit --jobs 1`` over imported OpenSpiel hands, against a bare loop, before and after, in one run.

    python benchmarks/bench_audit.py [--records DIR] [--hands 8000] [--base REV] [--rounds 5] [--parts]

1. Input. ``--hands`` OpenSpiel ``gin_rummy`` records (one hand each) from
   ``--records`` (default: the importer's 229 test fixtures,
   ``tests/data/openspiel/records``), imported by this checkout's importer
   (``ginlog import openspiel`` of the revision before: one match file a record, about 50 lines
   each) into one folder. The issue's 8,000 hands need more records than the
   fixtures hold; make them with the real engine (``generate.py``'s docstring
   says how to install pyspiel in a scratch environment)::

       /tmp/osvenv/bin/python tests/data/openspiel/generate.py /tmp/records --per-config 2667 --max-tries 2700

   The files are the same for both revisions (the format did not change).
2. Three commands over that folder, each in a fresh process, taking turns
   ``--rounds`` times (bare, before, after, bare, before, ...), each timed
   as the CPU seconds (user + system) of the whole process, start-up
   included, from ``getrusage(RUSAGE_CHILDREN)``:
   - **bare**: a plain Python loop that lists the folder, opens each file and,
     for every line, ``json.loads`` and ``hashlib.sha256(...).hexdigest()``;
   - **before**: ``ginlog audit --jobs 1 FOLDER`` (output to /dev/null) with the
     package of revision ``--base`` (default: where this branch left ``main``,
     ``git merge-base HEAD main``), extracted with ``git archive`` into a
     temporary folder put first on ``PYTHONPATH``, in this checkout's
     environment (same interpreter and dependencies);
   - **after**: the same command with this checkout's package (its folder
     first on ``PYTHONPATH`` in the same way).
   The minimum of the rounds is kept for each (the median is printed too),
   and the ratios to the bare loop's time; the goal is at most 1.25×. Beside
   each ratio of the minima, in brackets, the median over the rounds of each
   round's own ratio (its three runs seconds apart, under one load): on a
   shared machine the load moves between rounds, and that one moves less. Each
   child also reports its CPU time after its start-up (the interpreter, and
   for ginlog the imports of the command's modules and the Typer app, built as
   ``main()`` builds it for ``audit``: with the command alone where the
   checkout's ``build_app`` takes the command's name, so that the whole
   process costs what the executable's does), printed as a second table: what
   the per-file work costs, apart from the fixed cost.
3. With ``--parts``, where this checkout's audit spends its time, in one more
   fresh process over the same folder (warm, the garbage collector off as the
   reader has it, the parts taking turns ``--rounds`` times, the best kept):
   the bare loop's work in process; the reader alone (the chain, the seqs, the
   fast path's block check, the times); the reading through the rules
   (:class:`~ginlog.match.visitors.FinalState`); ``audit_file`` (that, and the
   verdict); the rules alone (a fold over the events, read once before);
   ``audit_file`` over each file cut to its first two lines (the fixed cost of
   a file, whatever its length); and the reader and the rules by turns, file
   by file (the events read before, as for the rules alone), against the
   two's sum: what alternating them costs beyond their own work (each finds
   the caches the other left: an eighth to a sixth more on 2026-12-02,
   docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from revisions import base_commit, extract, git

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "openspiel" / "records"
GOAL = 1.25

#: The bare loop: what any reader of the file must do at least (read, parse, hash every line).
_BARE = r"""
import hashlib, json, os, sys, time
c = time.process_time()
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    if name.endswith(".jsonl"):
        with open(os.path.join(folder, name), "rb") as f:
            for line in f:
                line = line.rstrip(b"\n")
                json.loads(line)
                hashlib.sha256(line).hexdigest()
sys.stderr.write("cpu %r\n" % (time.process_time() - c))
"""

#: ``ginlog audit`` as the executable runs it (``ginlog.app.cli.main``), from whichever package is first on the path.
_AUDIT = r"""
import sys, time
sys.argv = ["ginlog", "audit", "--jobs", "1", sys.argv[1]]
from ginlog.app.cli import build_app, main
import importlib
import ginlog.app.check.audit, ginlog.app.cli.check, ginlog.match.reading  # the start-up
for name in ("ginlog.app.check.report", "ginlog.app.views.render"):  # the audit's report, wherever this checkout has it
    try:
        importlib.import_module(name)
        break
    except ImportError:
        pass
try:  # the app as main() builds it for this command line (a checkout whose build_app registers the command named)
    build_app("audit")
except TypeError:
    build_app()
c = time.process_time()
try:
    main()
finally:
    sys.stderr.write("cpu %r\n" % (time.process_time() - c))
"""


#: ``--parts``: where the audit's time goes, in process (argv: the folder, the rounds, a folder for the cut files).
_PARTS = r"""
import gc, hashlib, json, os, sys, time
folder, rounds, short = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".jsonl")]
from ginlog.app.check.audit import audit_file
from ginlog.log.reader import read_runs
from ginlog.match.reading import SHARED, FinalState, Visitor, read
from ginlog.play.fold import Fold
os.makedirs(short, exist_ok=True)
shorts = []
for name in names:
    with open(name, "rb") as f:
        head = f.readline() + f.readline()
    shorts.append(os.path.join(short, os.path.basename(name)))
    with open(shorts[-1], "wb") as f:
        f.write(head)
class Events(Visitor):
    def __init__(self):
        super().__init__()
        self.events = []
    def event(self, lineno, seq, event, digest):
        self.events.append(event)
    def end(self):
        return self.events
folds = [read(name, Events()) for name in names]
def bare():
    for name in names:
        with open(name, "rb") as f:
            for line in f:
                line = line.rstrip(b"\n")
                json.loads(line)
                hashlib.sha256(line).hexdigest()
def reader():
    for name in names:
        for _ in read_runs(name, lambda e: None, known=SHARED, warn=lambda c: None):
            pass
def reading():
    for name in names:
        read(name, FinalState(errors=[], warnings=[]))
def audit():
    for name in names:
        audit_file(name)
def rules():
    for events in folds:
        Fold(events[0], 1).apply_run(events, 1, 1)
def per_file():
    for name in shorts:
        audit_file(name)
def alternating():
    for name, events in zip(names, folds):
        for _ in read_runs(name, lambda e: None, known=SHARED, warn=lambda c: None):
            pass
        Fold(events[0], 1).apply_run(events, 1, 1)
parts = (bare, reader, reading, audit, rules, per_file, alternating)
audit()
gc.disable()
best = {}
for _ in range(rounds):
    for part in parts:
        c = time.process_time()
        part()
        best[part.__name__] = min(best.get(part.__name__, 1e9), time.process_time() - c)
print(json.dumps(best))
"""


def import_records(records: Sequence[Path], folder: Path, pythonpath: Path | None = None) -> int:
    """The records imported by the importer of the ginlog on ``pythonpath`` (None: this checkout's), one match
    file each; how many lines in all. The benchmark imports with the revision before, so that both revisions
    read the files (a newer importer may write what an older reader refuses: ``match_id``, say)."""
    code = (
        "import sys\n"
        "from ginlog.app.importers.openspiel import import_files\n"
        "ok, bad = import_files(sys.stdin.read().splitlines(), sys.argv[1], err=sys.stderr)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    run = subprocess.run([sys.executable, "-c", code, str(folder)], input="\n".join(map(str, records)), text=True,
                         env=_env(pythonpath), stderr=subprocess.PIPE, cwd=folder.parent)
    if run.returncode != 0:
        raise SystemExit(f"the records did not import: {run.stderr[-2000:]}")
    return sum(p.read_bytes().count(b"\n") for p in folder.glob("*.jsonl"))


def _env(pythonpath: Path | None) -> dict[str, str]:
    """The children's environment (they run outside any checkout: ``python -c`` puts the working folder first)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user's machine runs it
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return env


def where_ginlog(pythonpath: Path | None) -> str:
    """The folder ``import ginlog`` finds with this ``PYTHONPATH`` (so a run cannot time the wrong package)."""
    out = subprocess.run(
        [sys.executable, "-c", "import ginlog, os; print(os.path.dirname(os.path.dirname(ginlog.__file__)))"],
        check=True, capture_output=True, text=True, env=_env(pythonpath), cwd=tempfile.gettempdir(),
    )
    return out.stdout.strip()


def cpu(code: str, folder: Path, pythonpath: Path | None) -> tuple[float, float]:
    """CPU seconds of a fresh interpreter running ``code`` over ``folder`` (its output discarded): the whole
    process's (user + system), and the work's alone, after the start-up (as the child measured it).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        [sys.executable, "-c", code, str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(pythonpath), cwd=folder,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    last = run.stderr.decode(errors="replace").rstrip().rpartition("\n")[2]
    if run.returncode != 0 or not last.startswith("cpu "):
        raise SystemExit(f"the command failed ({run.returncode}): {run.stderr.decode(errors='replace')[-2000:]}")
    whole = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return whole, float(last[4:])


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=Path, default=FIXTURES, help="folder of OpenSpiel records (*.txt)")
    ap.add_argument("--hands", type=int, default=8000, help="records imported (one hand each)")
    ap.add_argument("--base", default=None, help="the revision before (default: git merge-base HEAD main)")
    ap.add_argument("--rounds", type=int, default=5, help="turns of the three commands; the best of each kept")
    ap.add_argument("--parts", action="store_true", help="then where this checkout's audit spends its time")
    args = ap.parse_args(argv)
    records = sorted(args.records.glob("*.txt"))[: args.hands]
    if len(records) < args.hands:
        raise SystemExit(f"{args.records} has {len(records)} records, fewer than --hands {args.hands}: make more (see --help)")
    commit = base_commit(args.base)
    with tempfile.TemporaryDirectory(prefix="bench-audit-") as tmp:
        work = Path(tmp)
        folder = work / "imported"
        before = extract(commit, work / "before", "ginlog", compiled=True)
        lines = import_records(records, folder, before)
        paths: dict[str, Path | None] = {"bare": None, "before": before, "after": ROOT}
        for which in (before, ROOT):
            if where_ginlog(which) != str(which):
                raise SystemExit(f"PYTHONPATH={which} does not import the ginlog there")
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in paths}
        for _ in range(args.rounds):
            for name, pythonpath in paths.items():
                times[name].append(cpu(_BARE if name == "bare" else _AUDIT, folder, pythonpath))
        parts = _parts(folder, args.rounds, work / "cut") if args.parts else None
    head = git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no", "ginlog") else ""
    labels = {
        "bare": "bare loop (read, json.loads, SHA-256)",
        "before": f"before: audit at {commit[:12]}",
        "after": f"after:  audit at {head}{dirty}",
    }
    print(f"audit --jobs 1: {len(records):,} imported OpenSpiel hands, {lines:,} lines; "
          f"best (median) CPU seconds of {args.rounds} rounds in turn")
    for part, title in ((0, "the whole process (start-up included)"), (1, "after the start-up (the imports)")):
        best = {k: min(t[part] for t in v) for k, v in times.items()}
        med = {k: statistics.median(t[part] for t in v) for k, v in times.items()}
        print(f" {title}:")
        # Each round's own ratios too (its three runs a few seconds apart, so under one load), and their median.
        ratio = {k: statistics.median(a[part] / b[part] for a, b in zip(v, times["bare"])) for k, v in times.items()}
        for name, label in labels.items():
            print(f"  {label:<48} {best[name]:>7.3f} s ({med[name]:.3f})  {best[name] / best['bare']:>5.2f}× bare"
                  f" (rounds: {ratio[name]:.2f}×)")
        print(f"  after ÷ before (time): {best['after'] / best['before']:.3f}"
              f" (rounds: {statistics.median(a[part] / b[part] for a, b in zip(times['after'], times['before'])):.3f})")
    best = {k: min(t[0] for t in v) for k, v in times.items()}
    print(f" goal: the whole audit at most {GOAL}× the bare loop: {'met' if best['after'] / best['bare'] <= GOAL else 'missed'}")
    if parts is not None:
        labels = {
            "bare": "the bare loop's work",
            "reader": "the reader alone (chain, seqs, fast path, times)",
            "reading": "the reading through the rules (FinalState)",
            "audit": "audit_file (that, and the verdict)",
            "rules": "the rules alone (a fold over the events)",
            "per_file": "audit_file of each file's first two lines",
            "alternating": "the reader, then the rules, file by file",
        }
        print(f" where the audit's time goes, in process, after {head} (best CPU seconds of {args.rounds} rounds in turn):")
        for name, label in labels.items():
            print(f"  {label:<52} {parts[name]:>7.3f} s  {parts[name] / parts['bare']:>5.2f}× bare")
        alone = parts["reader"] + parts["rules"]
        print(f"  the reader and the rules alternating, against the two alone in turn: {parts['alternating'] / alone:.2f}×"
              " (what running the two by turns costs beyond their sum: the caches each leaves to the other)")
    return 0


def _parts(folder: Path, rounds: int, cut: Path) -> dict[str, float]:
    """``--parts``: the in-process figures of this checkout, in one fresh process (see the docstring)."""
    run = subprocess.run(
        [sys.executable, "-c", _PARTS, str(folder), str(rounds), str(cut)],
        capture_output=True, text=True, env=_env(ROOT), cwd=folder,
    )
    if run.returncode != 0:
        raise SystemExit(f"--parts failed ({run.returncode}): {run.stderr[-2000:]}")
    parts: dict[str, float] = json.loads(run.stdout.strip().rpartition("\n")[2])
    return parts


if __name__ == "__main__":
    raise SystemExit(main())
