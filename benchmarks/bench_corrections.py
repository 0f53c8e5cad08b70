"""Corrections benchmark: what a run of corrections costs a read, wherever it falls (issue 13).

    python benchmarks/bench_corrections.py [--pairs 40000] [--repeat 3] [--seed 1] [--keep]

A :class:`~ginlog.play.fold.Fold` keeps a frozen snapshot every
``SNAPSHOT_EVERY`` (128) effective events; a correction used to rebuild the
working copy from the newest snapshot at or before the event it lands on,
replaying up to 127 events. Pairs of an event and its correction placed
where the event is the one that takes a snapshot (just before a boundary)
cost that whole replay each, and the file was ten times slower to read than
one a single event later.

One simulated match (standard rules, target raised so it never ends by
score), and into it, at one point, ``--pairs`` pairs of an event and the
correction that undoes it:

- ``note+undo @127``: a note that would be effective event 128 (taking the
  snapshot), and its correction: "just before a snapshot boundary";
- ``note+undo @128``: the same one event later;
- ``draw+undo @boundary``: the next draw of the match (the same draw again
  and again), where it would take the snapshot, and its correction;
- ``draw+undo @boundary+1``: the same, one event later (a draw at least one
  event after a snapshot);
- ``nested undos``: runs of 64 events undone one by one (the deepest a
  correction goes), 64 events before a boundary;
- ``no corrections``: the same number of lines, each pair replaced by the
  same note and a note of its own (like a correction, a line unlike the others).

Each file is written once (as ginlog writes it: ``format.encode``, one hash
chain) and read with ``read_match`` ``--repeat`` times (best kept); the
table gives the seconds and the ratio to ``no corrections`` of the same length,
measured in the same run.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import attrs

from ginlog.game.rules import preset
from ginlog.log import format
from ginlog.log.events import SCHEMA_VERSION, CardDrawn, Correction, Event, Note, event_fields, event_type
from ginlog.match.reading import read_match
from ginlog.play.fold import SNAPSHOT_EVERY
from ginlog.play.simulate import simulate_match
from ginlog.play.timeline import UNDO_DEPTH

TS = "2026-03-07T15:30:00.000Z"


def write(path: Path, events: list[Event | tuple[str, int]]) -> int:
    """Write ``events`` as a match file; ``("undo", k)`` is a correction of the event k items back."""
    prev: str | None = None
    seqs: list[int] = []
    with open(path, "wb") as fh:
        for seq, item in enumerate(events, 1):
            if isinstance(item, tuple):
                ev: Event = Correction(undoes=seqs[-item[1]])
            else:
                ev = item
            raw = format.encode(seq, TS, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
            prev = format.digest(raw)
            fh.write(raw + b"\n")
            seqs.append(seq)
    return len(events)


def base_match(seed: int) -> list[Event]:
    rules = attrs.evolve(preset("standard"), game_target=10**5)
    return simulate_match(rules, seed=seed, max_hands=40)


def at_effective(events: list[Event], n: int) -> int:
    """The index in ``events`` after which ``n`` effective events (after match_started) have been applied.

    ``events[at_effective(events, n)]`` is then effective event ``n + 1``.
    """
    return n + 1  # the base match has no corrections and every event after the first is effective


def files(pairs: int, seed: int) -> dict[str, list[Event | tuple[str, int]]]:
    events = base_match(seed)
    def boundary(offset: int) -> int:
        """The first snapshot boundary b at which effective event b + offset of the match is a draw."""
        return next(
            k * SNAPSHOT_EVERY for k in range(1, len(events) // SNAPSHOT_EVERY)
            if isinstance(events[at_effective(events, k * SNAPSHOT_EVERY + offset - 1)], CardDrawn)
        )

    b = boundary(0)
    b1 = boundary(1)
    note = Note(text="x")
    out: dict[str, list[Event | tuple[str, int]]] = {}

    def pairs_at(n: int, ev: Event) -> list[Event | tuple[str, int]]:
        i = at_effective(events, n)
        inserted: list[Event | tuple[str, int]] = []
        for _ in range(pairs):
            inserted += [ev, ("undo", 1)]
        return [*events[:i], *inserted, *events[i:]]

    out["note+undo @127"] = pairs_at(SNAPSHOT_EVERY - 1, note)
    out["note+undo @128"] = pairs_at(SNAPSHOT_EVERY, note)
    i = at_effective(events, b - 1)
    out["draw+undo @boundary"] = pairs_at(b - 1, events[i])
    j = at_effective(events, b1)
    out["draw+undo @boundary+1"] = pairs_at(b1, events[j])
    # Nested: before the boundary, the 64 events that follow, then 64 corrections of them, over and over.
    start = b - UNDO_DEPTH
    k = at_effective(events, start)
    run = events[k:k + UNDO_DEPTH]
    nested: list[Event | tuple[str, int]] = []
    while len(nested) < 2 * pairs:
        nested += run
        nested += [("undo", 2 * m + 1) for m in range(UNDO_DEPTH)]
    out["nested undos"] = [*events[:k], *nested[: 2 * pairs], *events[k:]]
    # The reference: as long, no corrections: the same note, then a note of its own
    # (a correction's line is unlike any other, so it is structured, not recognised).
    same: list[Event | tuple[str, int]] = []
    for p in range(pairs):
        same += [note, Note(text=f"n{p}")]
    out["no corrections"] = [*events[:i], *same, *events[i:]]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=40_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-corrections-"))
    try:
        paths = {}
        for name, evs in files(args.pairs, args.seed).items():
            path = folder / (name.replace(" ", "_").replace("@", "at").replace("+", "-") + ".jsonl")
            write(path, evs)
            paths[name] = path
        times: dict[str, float] = {}
        lines: dict[str, int] = {}
        for _ in range(args.repeat):
            for name, path in paths.items():
                t = time.process_time()
                report = read_match(path, collect=True)
                elapsed = time.process_time() - t
                assert not report.errors, (name, report.errors[:1])
                times[name] = min(times.get(name, elapsed), elapsed)
                lines[name] = report.lines
        floor = times["no corrections"]
        print(f"{args.pairs} pairs, best of {args.repeat} reads (read_match, CPU seconds), SNAPSHOT_EVERY={SNAPSHOT_EVERY}")
        print(f"{'file':<24} {'lines':>8} {'cpu s':>8} {'ratio':>7}")
        for name in paths:
            print(f"{name:<24} {lines[name]:>8} {times[name]:>8.3f} {times[name] / floor:>6.2f}x")
        if args.keep:
            print(f"files kept in {folder}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
