"""The reliability campaigns behind ``tests/test_reliability.py`` and ``benchmarks/reliability.py``.

"Prove it keeps every record": five campaigns, each a function that runs N
cases and returns a result object with counts and a list of ``failures``
(human-readable strings; empty means the campaign passed). The test file
runs small versions and asserts; the benchmark runs the full versions and
prints the figures.

1. :func:`crash_campaign` -- a forked writer appends notes and is SIGKILLed
   at random moments (plus: kills aimed at a big ``append_many`` batch, and a
   writer that leaves a partial line itself, as a crash inside ``write``
   would); after each kill every append that returned is in the file, the
   file reads cleanly or ends in a torn tail that ``repair`` moves aside, and
   no line before the end is damaged.
2. :func:`race_notes`, :func:`race_rounds`, :func:`race_moves` -- processes
   appending to one match at once, through a :class:`MatchSession` or through
   ``append_many(expect=)``; losers must get :class:`Conflict`.
3. :func:`tamper_campaign` -- every single-byte change, deleted, swapped,
   duplicated line and end truncation of generated match files, audited.
4. :func:`fuzz_file_check` / :func:`fuzz_event_check` plus hypothesis
   strategies -- hostile input never gives a traceback.
5. :func:`illegal_campaign` -- one illegal move injected into a legal match,
   per rule; it must be caught at its line with its rule.

This module is imported by path (``tests/reliability`` has no
``__init__.py``), so it must not import anything from ``tests``.
"""

from __future__ import annotations

import collections
import hashlib
import io
import json
import os
import random
import select
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs

from ginlog.log import files, format, reader, writer
from ginlog.app.check.audit import FileAudit, audit_file
from ginlog.game.cards import DECK, Card, mask_cards
from ginlog.errors import Conflict, GinlogError, TornTail
from ginlog.log.events import (
    SCHEMA_VERSION,
    BigGin,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    HandVoid,
    Knocked,
    MatchAbandoned,
    MatchStarted,
    Note,
    UpcardPassed,
    event_fields,
    event_from_fields,
    event_from_line,
    event_item,
    event_type,
)
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.game.melds import deadwood_of_mask
from ginlog.play.reducer import apply, fold, start
from ginlog.game.rules import Rules, preset
from ginlog.play.simulate import simulate_match
from ginlog.play.state import ALL_CARDS, Timeline

PLAYERS = ("Ann", "Bob")

# =============================================================================
# Shared helpers



def _seq(line: format.Line) -> int:
    """The event number of a line the reader passed (it checked that the line has one)."""
    assert line.seq is not None, line
    return line.seq

def item(event: Event) -> tuple[str, int, dict[str, Any]]:
    """One ``append_many`` item for an event."""
    return event_item(event)


def write_events(path: str | os.PathLike[str], events: Sequence[Event]) -> list[format.Line]:
    """Write events as a new match file through the store (chain intact)."""
    first = writer.create(path, *item(events[0]))
    rest = writer.append_many(path, [item(e) for e in events[1:]], expect=1) if len(events) > 1 else []
    return [first, *rest]


def match_bytes(events: Sequence[Event], workdir: str | os.PathLike[str]) -> bytes:
    """The bytes of a match file written through the store."""
    fd, tmp = tempfile.mkstemp(suffix=".jsonl", dir=workdir)
    os.close(fd)
    os.unlink(tmp)
    try:
        write_events(tmp, events)
        return Path(tmp).read_bytes()
    finally:
        with _suppress():
            os.unlink(tmp)


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return exc[0] is not None and issubclass(exc[0], OSError)  # type: ignore[arg-type]


def short_rules(rules: Rules, target: int = 30) -> Rules:
    """The same rules with a low game target, so a whole match is one or two hands."""
    return attrs.evolve(rules, game_target=target)


def rechain(raws: Sequence[bytes], *, keep: Callable[[int], bool] = lambda i: False) -> list[bytes]:
    """Recompute every ``prev`` of JSON lines (line ``i`` kept as is when ``keep(i)``)."""
    out: list[bytes] = []
    prev: str | None = None
    for i, raw in enumerate(raws):
        if not keep(i):
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError):
                data = None
            if isinstance(data, dict) and "prev" in data:
                data["prev"] = prev
                raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
        out.append(raw)
        prev = hashlib.sha256(raw).hexdigest()
    return out


def error_line(e: dict[str, Any]) -> str:
    """An audit error as ``ginlog validate`` prints it."""
    from ginlog.app.check.audit import error_line as line

    return line(e)


# =============================================================================
# 1. Crashes


@dataclass
class CrashResult:
    kills: int = 0
    by_variant: collections.Counter[str] = field(default_factory=collections.Counter)
    appends_confirmed: int = 0  # appends (lines) whose call returned before the kill
    torn_tails: int = 0  # kills after which the file ended in a torn tail
    torn_by_kill: int = 0  # ... of which SIGKILL itself cut a write (not the simulated partial write)
    cut_batches: int = 0  # a batch cut at a line boundary (whole lines of an unfinished batch)
    repaired: int = 0
    files: int = 0
    # what the kill caught in flight: nothing written, the whole call written but not
    # reported, whole lines of a cut batch, or a torn tail
    outcomes: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)


def note_text(seq: int, rng: random.Random, big: bool = False) -> str:
    """A note that names its own seq, so a line that moved or mixed shows at once."""
    pad = rng.randrange(200, 1900) if big else rng.randrange(0, 120)
    return f"note {seq} " + "x" * pad


def _crash_writer(path: str, wfd: int, seed: int, variant: str) -> None:
    """The child: append notes forever, telling the parent before (I) and after (D) each call."""
    rng = random.Random(seed)
    h = files.head(path)
    seq, prev = h.seq, h.digest

    def send(msg: str) -> None:
        os.write(wfd, msg.encode() + b"\n")

    send(f"S {seq}")
    while True:
        r = rng.random()
        if variant == "torn" and r < 0.2:
            # A crash inside write(): part of the next line reaches the file, then nothing.
            raw = format.encode(seq + 1, format.now_ts(), "note", SCHEMA_VERSION, prev, {"text": note_text(seq + 1, rng)})
            cut = rng.randrange(1, len(raw) + 1)  # the whole line without its newline is torn too
            send(f"T {seq + 1} {cut}")
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            os.write(fd, raw[:cut])
            os.kill(os.getpid(), signal.SIGKILL)
        big = variant in ("bigbatch", "midwrite") or r < 0.03
        if variant == "midwrite":
            n = rng.randrange(600, 1200)  # a ~1 MB write(): long enough to be killed inside it
        else:
            n = rng.randrange(100, 400) if big else (rng.randrange(2, 20) if r < 0.3 else 1)
        notes = [Note(text=note_text(seq + i, rng, big)) for i in range(1, n + 1)]
        send(f"I {seq + n} {n}")
        if not big and rng.random() < 0.25:
            prev = MatchSession.open(path).append(notes)[-1].digest  # read, check, append
        elif n == 1:
            prev = writer.append(path, *item(notes[0]), expect=seq).digest
        else:
            prev = writer.append_many(path, [item(e) for e in notes], expect=seq)[-1].digest
        seq += n
        send(f"D {seq}")


def _fork(target: Callable[[int], None]) -> tuple[int, int]:
    """Fork a child running ``target(write_fd)``; return (pid, read_fd)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        try:
            os.close(r)
            target(w)
        except BaseException:  # noqa: BLE001 - reported to the parent
            code = 3
            with _suppress():
                msg = "E " + traceback.format_exc().replace("\n", " | ")
                os.write(w, msg.encode()[:60000] + b"\n")
        finally:
            os._exit(code)
    os.close(w)
    return pid, r


def _read_all(fd: int, buf: bytes = b"") -> bytes:
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return buf
        buf += chunk


def crash_campaign(
    workdir: str | os.PathLike[str],
    kills: int,
    *,
    seed: int = 0,
    rotate: int = 10,
    max_delay: float = 0.08,
    variants: Sequence[str] = ("random", "bigbatch", "torn", "midwrite"),
) -> CrashResult:
    """SIGKILL a writer ``kills`` times and check the file after each kill.

    Variants, in turn: ``random`` (a random moment of a random mix of single
    appends, batches and the matchfile API), ``bigbatch`` (aimed at a 100-400
    line ``append_many``: the kill comes 0-30 ms after the writer announces
    it), ``torn`` (the writer writes part of a line with ``os.write`` and
    kills itself, a crash mid-write) and ``midwrite`` (the parent watches the
    file size and kills the writer as soon as a ~1 MB batch starts landing,
    so inside its ``write``).
    """
    res = CrashResult()
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="crash-", dir=workdir))
    path = ""
    for k in range(kills):
        if k % rotate == 0 or not path or os.path.getsize(path) > 2_000_000:
            path = str(workdir / f"crash-{seed}-{k}.jsonl")
            MatchSession.create(path, PLAYERS, preset("standard"))
            res.files += 1
        variant = variants[k % len(variants)]
        res.by_variant[variant] += 1
        child_seed = rng.randrange(1 << 30)
        start = files.head(path).seq
        size0 = os.path.getsize(path)
        pid, rfd = _fork(lambda w: _crash_writer(path, w, child_seed, variant))
        buf = b""
        if variant == "midwrite":
            # Kill the moment the batch's bytes start to land: inside its one big write().
            deadline = time.monotonic() + 10
            while os.path.getsize(path) == size0 and time.monotonic() < deadline:
                os.sched_yield()
        elif variant == "bigbatch":
            deadline = time.monotonic() + 5
            while b"I " not in buf and time.monotonic() < deadline:
                ready, _, _ = select.select([rfd], [], [], 0.5)
                if ready:
                    chunk = os.read(rfd, 65536)
                    if not chunk:
                        break
                    buf += chunk
            time.sleep(rng.uniform(0, 0.12))
        elif variant == "torn":
            time.sleep(rng.uniform(0, max_delay * 3))
        else:
            time.sleep(rng.uniform(0, max_delay))
        with _suppress():
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        buf = _read_all(rfd, buf)
        os.close(rfd)
        res.kills += 1
        _check_after_kill(res, path, buf, status, f"kill {k} ({variant})", start)
    return res


def _check_after_kill(res: CrashResult, path: str, buf: bytes, status: int, label: str, start: int) -> None:
    done = 0
    intent = 0
    start_seq: int | None = None
    partial: tuple[int, int] | None = None
    for msg in buf.decode(errors="replace").splitlines():
        kind, _, rest = msg.partition(" ")
        if kind == "S":
            start_seq = int(rest)
        elif kind == "D":
            done = max(done, int(rest))
        elif kind == "I":
            intent = max(intent, int(rest.split()[0]))
        elif kind == "T":
            s, c = rest.split()
            partial = (int(s), int(c))
        elif kind == "E":
            res.failures.append(f"{label}: the writer failed on its own: {rest[:2000]}")
            return
    if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL):
        res.failures.append(f"{label}: the writer was not killed (status {status})")
    size_before = os.path.getsize(path)
    if start_seq is None:  # killed before it said anything
        start_seq = start
    elif start_seq != start:
        res.failures.append(f"{label}: the writer started at event {start_seq}, the file was at {start}")
    done = max(done, start_seq)
    intent = max(intent, start_seq)
    errors: list[GinlogError] = []
    lines = list(reader.read_lines(path, errors=errors))
    n = _seq(lines[-1]) if lines else 0
    res.appends_confirmed += max(0, done - start_seq)
    damaged = [e for e in errors if not isinstance(e, TornTail)]
    if damaged:
        res.failures.append(f"{label}: damaged line(s) before the end: {[str(e) for e in damaged[:3]]}")
    torn = [e for e in errors if isinstance(e, TornTail)]
    if done > n:
        res.failures.append(f"{label}: LOST RECORDS: appends up to event {done} returned, the file ends at {n}")
    limit = max(intent, done, partial[0] - 1 if partial else 0, 1)
    if n > limit and not (partial and n < partial[0]):
        res.failures.append(f"{label}: the file holds event {n}, beyond anything the writer started ({limit})")
    for line in lines[1:]:
        text = line.data.get("text")
        if not (isinstance(text, str) and text.startswith(f"note {line.seq} ")):
            res.failures.append(f"{label}: line {line.lineno} holds the wrong note: {line.raw[:80]!r}")
            break
    if torn:
        res.torn_tails += 1
        if partial is None:
            res.torn_by_kill += 1
        data = Path(path).read_bytes()
        tail = data[data.rfind(b"\n") + 1 :]
        if partial is not None and len(tail) != partial[1]:
            res.failures.append(f"{label}: torn tail of {len(tail)} bytes, the writer wrote {partial[1]}")
        if not tail.startswith(b'{"seq":'[: len(tail)]):
            res.failures.append(f"{label}: the torn tail is not the start of a line: {tail[:60]!r}")
        try:
            rep = writer.repair(path)
        except GinlogError as exc:
            res.failures.append(f"{label}: repair failed: {exc}")
            return
        res.repaired += 1
        if rep.torn != tail or rep.side_file is None or rep.side_file.read_bytes() != tail:
            res.failures.append(f"{label}: repair did not keep the torn bytes in a side file ({rep})")
        if os.path.getsize(path) != size_before - len(tail):
            res.failures.append(f"{label}: repair cut {size_before - os.path.getsize(path)} bytes, the tail was {len(tail)}")
        errors2: list[GinlogError] = []
        lines2 = list(reader.read_lines(path, errors=errors2))
        if errors2 or (_seq(lines2[-1]) if lines2 else 0) != n:
            res.failures.append(f"{label}: after repair: {[str(e) for e in errors2[:3]]}, {len(lines2)} lines (expected {n})")
    elif done < n < intent:
        res.cut_batches += 1  # whole lines of a batch that never returned: a prefix, still a valid match
    res.outcomes[label.split("(")[-1].rstrip(")") + ": " + ("torn" if torn else "nothing in flight" if intent == done else "call not started" if n == done
                 else "cut batch" if n < intent else "call complete, unreported")] += 1
    h = files.head(path)
    if h.torn is not None or h.seq != n:
        res.failures.append(f"{label}: head after the checks is {h}")
    anchor = lines[done - 1].digest if done >= 1 and len(lines) >= done else None
    audit = audit_file(path, anchor=anchor)
    if not audit.ok:
        res.failures.append(f"{label}: audit after repair: {[error_line(e) for e in audit.errors[:3]]}")


# =============================================================================
# 2. Races


@dataclass
class RaceResult:
    races: int = 0
    processes: int = 0
    appends: int = 0
    conflicts: int = 0
    found_made: int = 0  # move race: after a Conflict, the move was found already in the file
    by_kind: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)

    def add(self, other: RaceResult) -> None:
        self.races += other.races
        self.processes += other.processes
        self.appends += other.appends
        self.conflicts += other.conflicts
        self.found_made += other.found_made
        self.by_kind.update(other.by_kind)
        self.failures.extend(other.failures)


def _run_workers(n: int, work: Callable[[int, Any], dict[str, Any]], timeout: float = 120) -> list[dict[str, Any]]:
    """Run ``work(i, barrier)`` in ``n`` forked processes; collect each one's JSON report."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(n, timeout=30)
    children = []
    for i in range(n):

        def target(w: int, i: int = i) -> None:
            out = work(i, barrier)
            os.write(w, json.dumps(out).encode() + b"\n")

        children.append(_fork(target))
    reports = []
    deadline = time.monotonic() + timeout
    for pid, rfd in children:
        buf = b""
        while True:
            ready, _, _ = select.select([rfd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                with _suppress():
                    os.kill(pid, signal.SIGKILL)
                reports.append({"error": "timed out"})
                break
            chunk = os.read(rfd, 65536)
            if not chunk:
                text = buf.decode(errors="replace").strip()
                if text.startswith("E "):
                    reports.append({"error": text[2:]})
                elif text:
                    reports.append(json.loads(text))
                else:
                    reports.append({"error": "no report"})
                break
            buf += chunk
        os.close(rfd)
        os.waitpid(pid, 0)
    return reports


def race_notes(path: str, nprocs: int, per_proc: int, *, batch: int = 1) -> RaceResult:
    """Free-running race: each process appends ``per_proc`` notes through one :class:`MatchSession`,
    retrying on :class:`Conflict` after :meth:`MatchSession.reload` (which re-reads the file)."""
    res = RaceResult(races=1, processes=nprocs)
    res.by_kind["notes" if batch == 1 else "note batches"] += 1
    if not os.path.exists(path):
        MatchSession.create(path, PLAYERS, preset("standard"))
    before = read_match(path).lines

    def work(i: int, barrier: Any) -> dict[str, Any]:
        conflicts = 0
        seqs: list[int] = []
        other: list[str] = []
        barrier.wait()
        session = MatchSession.open(path)
        for j in range(0, per_proc, batch):
            notes = [Note(text=f"w{i} n{j + b}") for b in range(min(batch, per_proc - j))]
            while True:
                try:
                    seqs.extend(step.seq for step in session.append(notes))
                    break
                except Conflict:
                    conflicts += 1
                    session.reload()
                except GinlogError as exc:
                    other.append(str(exc))
                    if len(other) > 20:
                        return {"conflicts": conflicts, "seqs": seqs, "other": other}
                    time.sleep(0.001)
        return {"conflicts": conflicts, "seqs": seqs, "other": other}

    reports = _run_workers(nprocs, work)
    seen: list[int] = []
    for i, rep in enumerate(reports):
        if "error" in rep:
            res.failures.append(f"notes race, worker {i}: {rep['error'][:3000]}")
            continue
        res.conflicts += rep["conflicts"]
        res.appends += len(rep["seqs"])
        seen.extend(rep["seqs"])
        for msg in rep["other"]:
            res.failures.append(f"notes race, worker {i}: not a Conflict: {msg}")
    _check_notes_file(res, path, before, nprocs, per_proc, seen)
    return res


def _check_notes_file(res: RaceResult, path: str, before: int, nprocs: int, per_proc: int, seen: list[int]) -> None:
    audit = audit_file(path)
    if not audit.ok:
        res.failures.append(f"race: the file does not audit clean: {[error_line(e) for e in audit.errors[:3]]}")
    texts = [line.data.get("text") for line in reader.read_lines(path)][before:]
    want = sorted(f"w{i} n{j}" for i in range(nprocs) for j in range(per_proc))
    if sorted(t for t in texts if t is not None) != want:
        dup = [t for t, c in collections.Counter(texts).items() if c > 1]
        res.failures.append(
            f"race: expected each of {len(want)} notes once, found {len(texts)} lines (duplicated: {dup[:5]})"
        )
    if sorted(seen) != list(range(before + 1, before + len(want) + 1)):
        res.failures.append(f"race: the seqs the writers were given are not {before + 1}..{before + len(want)}")
    for i in range(nprocs):  # each writer's notes in its own order
        mine = [t for t in texts if isinstance(t, str) and t.startswith(f"w{i} ")]
        if mine != [f"w{i} n{j}" for j in range(per_proc)]:
            res.failures.append(f"race: writer {i}'s notes are out of order")


def race_rounds(path: str, nprocs: int, rounds: int) -> RaceResult:
    """Lock-step race: each round every process reads the head, waits for the others, then
    appends with ``expect`` = what it read. Exactly one wins; every other gets Conflict."""
    res = RaceResult(races=1, processes=nprocs)
    res.by_kind["rounds"] += 1
    if not os.path.exists(path):
        MatchSession.create(path, PLAYERS, preset("standard"))
    before = read_match(path).lines

    def work(i: int, barrier: Any) -> dict[str, Any]:
        won: list[int] = []
        lost: list[list[int]] = []
        other: list[str] = []
        for rnd in range(rounds):
            barrier.wait()
            seen = read_match(path).lines
            barrier.wait()
            try:
                line = writer.append(path, *item(Note(text=f"w{i} r{rnd}")), expect=seen)
                won.append(_seq(line))
            except Conflict as exc:
                lost.append([seen, exc.detail.seq if isinstance(exc.detail, files.Head) else -1])
            except GinlogError as exc:
                other.append(str(exc))
        return {"won": won, "lost": lost, "other": other}

    reports = _run_workers(nprocs, work)
    wins = collections.Counter[int]()
    for i, rep in enumerate(reports):
        if "error" in rep:
            res.failures.append(f"rounds race, worker {i}: {rep['error'][:3000]}")
            continue
        res.appends += len(rep["won"])
        res.conflicts += len(rep["lost"])
        wins.update(rep["won"])
        for seen, found in rep["lost"]:
            if found != seen + 1:
                res.failures.append(f"rounds race: a loser expected {seen} and the Conflict says the file ends at {found}")
        for msg in rep["other"]:
            res.failures.append(f"rounds race, worker {i}: not a Conflict: {msg}")
    if res.appends != rounds or res.conflicts != rounds * (nprocs - 1) or any(c != 1 for c in wins.values()):
        res.failures.append(
            f"rounds race: {rounds} rounds of {nprocs} gave {res.appends} wins and {res.conflicts} conflicts "
            f"(expected {rounds} and {rounds * (nprocs - 1)})"
        )
    audit = audit_file(path)
    if not audit.ok or audit.events != before + rounds:
        res.failures.append(f"rounds race: audit {audit.ok}, {audit.events} events (expected {before + rounds})")
    return res


def race_moves(path: str, nprocs: int, events: Sequence[Event]) -> RaceResult:
    """Processes race to append the NEXT move of a legal match: read, check the move against
    the state, ``append_many([move], expect=seen)``. Only one can make each move; a loser must
    get Conflict, re-read, and find its move already made."""
    res = RaceResult(races=1, processes=nprocs)
    res.by_kind["moves"] += 1
    write_events(path, events[:1])

    def work(i: int, barrier: Any) -> dict[str, Any]:
        made: list[int] = []
        conflicts = 0
        found = 0
        other: list[str] = []
        barrier.wait()
        while True:
            report = read_match(path)
            seen = report.lines
            if seen >= len(events):
                break
            ev = events[seen]
            assert report.timeline is not None
            apply(report.timeline, ev, seen + 1)  # the move is legal now
            try:
                writer.append_many(path, [item(ev)], expect=seen)
                made.append(seen + 1)
            except Conflict:
                conflicts += 1
                lines = list(reader.read_lines(path))
                if len(lines) > seen and event_from_line(lines[seen].data) == ev:
                    found += 1
                else:
                    other.append(f"after a Conflict at event {seen + 1} the move is not in the file")
            except GinlogError as exc:
                other.append(str(exc))
        return {"made": made, "conflicts": conflicts, "found": found, "other": other}

    reports = _run_workers(nprocs, work)
    made: list[int] = []
    for i, rep in enumerate(reports):
        if "error" in rep:
            res.failures.append(f"move race, worker {i}: {rep['error'][:3000]}")
            continue
        made.extend(rep["made"])
        res.conflicts += rep["conflicts"]
        res.found_made += rep["found"]
        for msg in rep["other"]:
            res.failures.append(f"move race, worker {i}: {msg}")
    res.appends = len(made)
    if sorted(made) != list(range(2, len(events) + 1)):
        res.failures.append(f"move race: moves made {sorted(made)[:10]}..., expected each of 2..{len(events)} once")
    report = read_match(path, collect=True)
    if not report.ok or report.lines != len(events):
        res.failures.append(f"move race: the file has {report.lines} events, errors {[str(e) for e in report.errors[:3]]}")
    elif report.state != fold(events).state:
        res.failures.append("move race: the final state is not the match's")
    if not audit_file(path).ok:
        res.failures.append("move race: the file does not audit clean")
    return res


# =============================================================================
# 3. Tampering

TAMPER_KINDS = (
    "byte: same-class (hash digit, card letter, seq digit...)",
    "byte: space",
    "byte: high bit (invalid UTF-8)",
    "byte: newline",
    "insert: space between tokens",
    "insert: CR before newline",
    "delete line",
    "swap adjacent lines",
    "duplicate line",
    "truncate last lines",
)
_KIND_SHORT = dict(zip(("same", "space", "high", "newline", "ins-space", "crlf", "delete", "swap", "dup", "truncate"), TAMPER_KINDS))

_DIGITS = b"0123456789"
_HEX = b"abcdef"
_SUITS = b"SCDH"
_RANKS = b"A23456789TJQK"


def _same_class(b: int, pos: int) -> int:
    """A different byte of the same kind: digit->digit, hex letter->hex letter, card letter->card letter."""
    for alphabet in (_DIGITS, _HEX, _SUITS, _RANKS, b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
        if b in alphabet:
            i = alphabet.index(b)
            return alphabet[(i + 1 + pos % (len(alphabet) - 1)) % len(alphabet)]
    return b ^ 0x01


@dataclass
class TamperCase:
    kind: str  # short name, see _KIND_SHORT
    where: str
    data: bytes
    last_line_only: bool  # the change is confined to the last line (or cuts lines off the end)


def tamper_cases(data: bytes, *, stride: int = 1, values: str = "all", offset: int = 0) -> Iterator[TamperCase]:
    """Every tampering of one file: bytes (every ``stride``-th position; ``values`` "all" or
    "rotate" = one of the four byte values per position), token inserts, line operations."""
    raws = data.split(b"\n")[:-1]
    starts = []
    pos = 0
    for raw in raws:
        starts.append(pos)
        pos += len(raw) + 1
    n = len(raws)
    last_start = starts[-1]
    kinds = ("same", "space", "high", "newline")
    for p in range(offset % stride, len(data), stride):
        b = data[p]
        choices = kinds if values == "all" else (kinds[(p // stride) % 4],)
        for kind in choices:
            if kind == "same":
                v = _same_class(b, p)
            elif kind == "space":
                v = 0x20 if b != 0x20 else 0x09
            elif kind == "high":
                v = b ^ 0x80
            else:
                v = 0x0A if b != 0x0A else 0x0D
            if v == b:
                continue
            yield TamperCase(kind, f"byte {p} {bytes([b])!r}->{bytes([v])!r}", data[:p] + bytes([v]) + data[p + 1 :], p >= last_start)
    for i, raw in enumerate(raws):
        # JSON-equivalent edits: the data is the same, only the bytes (and so the digest) change.
        cuts = [j + 1 for j, c in enumerate(raw) if c in b":,"]
        if stride > 1:
            cuts = cuts[(i % stride) :: stride] or cuts[:1]
        for j in cuts:
            new = raw[:j] + b" " + raw[j:]
            yield TamperCase("ins-space", f"line {i + 1} +space at {j}", _join(raws[:i] + [new] + raws[i + 1 :]), i == n - 1)
        yield TamperCase("crlf", f"line {i + 1} CR", _join(raws[:i] + [raw + b"\r"] + raws[i + 1 :]), i == n - 1)
    for i in range(n - 1):  # deleting the last line is a truncation
        yield TamperCase("delete", f"line {i + 1}", _join(raws[:i] + raws[i + 1 :]), False)
    for i in range(n - 1):
        yield TamperCase("swap", f"lines {i + 1},{i + 2}", _join(raws[:i] + [raws[i + 1], raws[i]] + raws[i + 2 :]), False)
    for i in range(n):
        yield TamperCase("dup", f"line {i + 1}", _join(raws[: i + 1] + [raws[i]] + raws[i + 1 :]), False)
    for k in range(1, n):
        yield TamperCase("truncate", f"last {k} line(s)", _join(raws[: n - k]), True)


def _join(raws: Sequence[bytes]) -> bytes:
    return b"".join(r + b"\n" for r in raws)


@dataclass
class TamperResult:
    files: int = 0
    cases: int = 0
    total: collections.Counter[str] = field(default_factory=collections.Counter)
    detected: collections.Counter[str] = field(default_factory=collections.Counter)  # without the anchor
    anchored: collections.Counter[str] = field(default_factory=collections.Counter)  # detected with the head anchor
    last_total: collections.Counter[str] = field(default_factory=collections.Counter)  # confined to the last line
    last_detected: collections.Counter[str] = field(default_factory=collections.Counter)
    crashed: collections.Counter[str] = field(default_factory=collections.Counter)  # audit_file raised
    missed: list[str] = field(default_factory=list)  # changes outside the last line that audit missed
    missed_anchored: list[str] = field(default_factory=list)  # any change missed even with the anchor
    failures: list[str] = field(default_factory=list)  # tracebacks, malformed error reports

    def add(self, other: TamperResult) -> None:
        self.files += other.files
        self.cases += other.cases
        for name in ("total", "detected", "anchored", "last_total", "last_detected", "crashed"):
            getattr(self, name).update(getattr(other, name))
        self.missed += other.missed
        self.missed_anchored += other.missed_anchored
        self.failures += other.failures

    def rows(self) -> list[tuple[str, int, int, int, int, int, int]]:
        """(kind, cases, detected without anchor, with anchor, last-line cases, of which detected
        without, audit raised)."""
        return [
            (_KIND_SHORT[k], self.total[k], self.detected[k], self.anchored[k], self.last_total[k], self.last_detected[k], self.crashed[k])
            for k in _KIND_SHORT
            if self.total[k]
        ]


def _audit_safely(path: str, anchor: str | None, failures: list[str], label: str) -> FileAudit | None:
    try:
        a = audit_file(path, anchor=anchor)
    except Exception as exc:  # noqa: BLE001 - the point is to find these
        failures.append(f"{_signature(exc)}: {label}: audit_file raised: {traceback.format_exc(limit=-3)}")
        return None
    for e in a.errors:
        line = error_line(e)
        if "\n" in line or not isinstance(e.get("rule"), str) or not e.get("message"):
            failures.append(f"{label}: malformed error report {e!r}")
    return a


def tamper_file(
    data: bytes, workdir: str | os.PathLike[str], *, stride: int = 1, values: str = "all", part: tuple[int, int] = (0, 1),
    name: str = "file",
) -> TamperResult:
    """Audit every tampering of ``data`` (``part`` = (i, n): only every n-th case from i, for workers)."""
    res = TamperResult(files=1 if part[0] == 0 else 0)
    fd, path = tempfile.mkstemp(suffix=".jsonl", dir=workdir)
    os.close(fd)
    raws = data.split(b"\n")[:-1]
    anchor = hashlib.sha256(raws[-1]).hexdigest()
    first = _audit_safely(_write(path, data), None, res.failures, f"{name} untouched")
    if first is None or not first.ok or first.head != anchor:
        res.failures.append(f"{name}: the untouched file does not audit clean")
        return res
    for idx, case in enumerate(tamper_cases(data, stride=stride, values=values)):
        if idx % part[1] != part[0]:
            continue
        res.cases += 1
        res.total[case.kind] += 1
        label = f"{name}: {_KIND_SHORT[case.kind]} {case.where}"
        _write(path, case.data)
        a = _audit_safely(path, None, res.failures, label)
        if a is None:
            res.crashed[case.kind] += 1
            continue
        if case.last_line_only:
            res.last_total[case.kind] += 1
        if not a.ok:
            res.detected[case.kind] += 1
            res.anchored[case.kind] += 1
            if case.last_line_only:
                res.last_detected[case.kind] += 1
            continue
        if not case.last_line_only:
            res.missed.append(label)
        b = _audit_safely(path, anchor, res.failures, label + " (anchored)")
        if b is not None and not b.ok:
            res.anchored[case.kind] += 1
        elif b is not None:
            res.missed_anchored.append(label)
    os.unlink(path)
    return res


def _write(path: str, data: bytes) -> str:
    with open(path, "wb") as f:
        f.write(data)
    return path


def tamper_campaign(
    files: Sequence[bytes], workdir: str | os.PathLike[str], *, stride: int = 1, values: str = "all", jobs: int = 1
) -> TamperResult:
    """:func:`tamper_file` over several files, spread over ``jobs`` processes."""
    res = TamperResult()
    tasks = [(data, str(workdir), stride, values, (i, jobs), f"file {f + 1}") for f, data in enumerate(files) for i in range(jobs)]
    if jobs <= 1:
        for t in tasks:
            res.add(_tamper_task(t))
        return res
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for r in pool.imap_unordered(_tamper_task, tasks):
            res.add(r)
    return res


def _tamper_task(t: tuple[bytes, str, int, str, tuple[int, int], str]) -> TamperResult:
    data, workdir, stride, values, part, name = t
    return tamper_file(data, workdir, stride=stride, values=values, part=part, name=name)


def tamper_matches(n: int, seed: int = 0) -> list[list[Event]]:
    """``n`` generated one-hand matches, varied in rules and recording mode, kept short."""
    configs = [("standard", "full"), ("modern", "table"), ("newspaper", "full"), ("oklahoma", "table"), ("classic", "full")]
    out = []
    rng = random.Random(seed)
    for i in range(n):
        name, mode = configs[i % len(configs)]
        best: list[Event] | None = None
        for _ in range(12):  # the shortest of a few hands keeps the campaign fast
            events = simulate_match(preset(name), seed=rng.randrange(1 << 30), mode=mode, max_hands=1)  # type: ignore[arg-type]
            if any(isinstance(e, HandShown) for e in events) and (best is None or len(events) < len(best)):
                best = events
        assert best is not None
        out.append(best)
    return out


# =============================================================================
# 4. Hostile input

KNOWN_BUGS: dict[str, str] = {
    # How a known, not yet fixed ginlog bug shows in a campaign (the start of the problem text,
    # e.g. "ValueError@store.py:_read_stream": exception type @ innermost ginlog frame) -> the
    # strict-xfail test in tests/test_reliability.py that pins it. The campaigns count these
    # apart instead of failing on them; when the bug is fixed, its entry goes. Empty: the
    # bugs found so far (KeyError@matchfile.py:iter_steps, ValueError@store.py:_read_stream,
    # multi-line errors from a non-integer seq) are fixed and kept as regression tests.
}


def _signature(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/ginlog/" in f.filename]
    where = f"{os.path.basename(frames[-1].filename)}:{frames[-1].name}" if frames else "?"
    return f"{type(exc).__name__}@{where}"


@dataclass
class FuzzResult:
    inputs: int = 0
    clean_errors: int = 0  # inputs that got one or more clean errors
    valid: int = 0  # inputs that were still a valid match
    tracebacks: int = 0
    known: collections.Counter[str] = field(default_factory=collections.Counter)  # tracebacks of known (xfailed) bugs
    rules: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)

    def note(self, problems: list[str], *, ok: bool | None, rules: Sequence[str] = ()) -> None:
        self.inputs += 1
        self.rules.update(rules)
        unknown = [p for p in problems if not any(p.startswith(k) for k in KNOWN_BUGS)]
        for p in problems:
            for k in KNOWN_BUGS:
                if p.startswith(k):
                    self.known[k] += 1
        if problems:
            self.tracebacks += 1
        self.failures += unknown
        if ok:
            self.valid += 1
        elif ok is False:
            self.clean_errors += 1


def fuzz_file_check(data: bytes, path: str) -> tuple[list[str], bool | None, list[str]]:
    """Audit ``data`` written at ``path`` every way a user can; return (problems, ok, rules).

    A problem is a traceback (any exception but a :class:`GinlogError` where
    one is allowed), an error report that is not one line, or a disagreement
    between reading the file and reading the same bytes as a stream.
    """
    problems: list[str] = []
    _write(path, data)
    ok: bool | None = None
    rules: list[str] = []
    try:
        a = audit_file(path)
        ok = a.ok
        rules = [e["rule"] for e in a.errors]
        for e in a.errors:
            text = error_line(e)
            if "\n" in text or "\r" in text:
                where = "(event number)" if "\n" in str(e.get("event")) or "\r" in str(e.get("event")) else "(message)"
                problems.append(f"multi-line error {where}: {text[:200]!r}")
            if not isinstance(e["rule"], str) or not e["rule"] or not isinstance(e["message"], str):
                problems.append(f"malformed error: {e!r}"[:300])
        if not a.ok and not a.errors:
            problems.append("not ok but no errors")
    except Exception as exc:  # noqa: BLE001
        problems.append(f"{_signature(exc)}: audit_file: {traceback.format_exc(limit=-4)}")
        return problems, None, rules
    try:
        rep = read_match(io.BytesIO(data), collect=True, name=path)
        if [e.to_dict() for e in rep.errors] != list(a.errors):
            problems.append(f"stream and file disagree: {[str(e) for e in rep.errors[:2]]} vs {list(a.errors)[:2]}")
    except Exception as exc:  # noqa: BLE001
        problems.append(f"{_signature(exc)}: read_match(stream): {traceback.format_exc(limit=-4)}")
    try:
        read_match(path)
        if not a.ok:
            problems.append("read_match (raising) accepted a file the audit rejects")
    except GinlogError:
        if a.ok:
            problems.append("read_match (raising) rejected a file the audit accepts")
    except Exception as exc:  # noqa: BLE001
        problems.append(f"{_signature(exc)}: read_match: {traceback.format_exc(limit=-4)}")
    return problems, ok, rules


def fuzz_event_check(tl: Timeline, seq: int, type_: str, fields: dict[str, Any]) -> list[str]:
    """Structure an event from hostile fields and apply it: only clean errors, and an event
    that is accepted writes and reads back as itself."""
    problems: list[str] = []
    try:
        ev = event_from_fields(type_, fields)
    except GinlogError:
        return problems
    except Exception as exc:  # noqa: BLE001
        return [f"{_signature(exc)}: event_from_fields({type_}): {traceback.format_exc(limit=-4)}"]
    try:
        back = event_from_fields(event_type(ev), json.loads(json.dumps(event_fields(ev))))
        if back != ev:
            problems.append(f"{type_}: {ev!r} reads back as {back!r}")
    except Exception as exc:  # noqa: BLE001
        problems.append(f"{_signature(exc)}: round trip of {ev!r}: {exc}")
    try:
        apply(tl, ev, seq)
    except GinlogError:
        pass
    except Exception as exc:  # noqa: BLE001
        problems.append(f"{_signature(exc)}: apply({ev!r}): {traceback.format_exc(limit=-4)}")
    return problems


def fuzz_bases(workdir: str | os.PathLike[str]) -> list[bytes]:
    """Valid match files to mutate: full, table and score-pad style, with a note and a correction."""
    out = []
    for name, mode, seed in (("standard", "full", 1), ("modern", "table", 2), ("oklahoma", "full", 3)):
        events = simulate_match(preset(name), seed=seed, mode=mode, max_hands=1)  # type: ignore[arg-type]
        events = events[:5] + [Note(text="a note", player="Ann"), events[5], Correction(undoes=6)] + events[5:]
        out.append(match_bytes(events, workdir))
    pad: list[Event] = [
        MatchStarted(players=("Ann", "Bob"), rules=preset("classic"), title="pad"),
        FirstDealer(dealer="Ann", how="cut", cuts={"Ann": DECK[0], "Bob": DECK[20]}),
        HandResultOnly(how="knock", out="Bob", knocker_deadwood=4, defender_deadwood=30, points=26, winner="Bob"),
        HandResultOnly(how="void"),
        MatchAbandoned(reason="rain"),
    ]
    out.append(match_bytes(pad, workdir))
    return out


HOSTILE_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 10, 31, 99, 200, 201, 10**6 + 1, 2**63, -(2**63), 1.5, -0.0, 1e308,
    "", " ", "Ann", "Bob", "Zed", "ann", "Ann ", "A\nB", "\u0000", "\ud800", "x" * 2001, "7H", "7h", "10H", "TD", "AS", "KS", "ZZ",
    "stock", "pile", "discard", "cut", "agreed", "random", "knock", "gin", "big_gin", "void", "2026-11-29T19:56:25.123Z",
    [], [None], ["7H"], ["7H", "7H"], ["AS", "2S", "3S"], [["AS", "2S", "3S"]], [[["AS"]]], ["Ann", "Bob"], ["Ann", "Ann"],
    {}, {"Ann": "7H"}, {"Ann": ["7H"]}, {"Ann": "7H", "Bob": "8H"}, {"Ann": "7H", "Bob": "7S"}, {"knock_limit": "10"},
    {"ace": "one"}, {"": None},
]


def deep(depth: int, kind: str = "list") -> str:
    """JSON text nested ``depth`` deep."""
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def hostile_files(workdir: str | os.PathLike[str]) -> dict[str, bytes]:
    """Hand-made hostile files: one per kind of trouble (used by the CLI check and the unit tests)."""
    base = fuzz_bases(workdir)[0]
    raws = base.split(b"\n")[:-1]
    first = raws[0]

    def with_line(line: bytes, chain: bool = True) -> bytes:
        lines = [first, line] + raws[2:5]
        return _join(rechain(lines) if chain else lines)

    two = json.loads(raws[1])
    out = {
        "random-bytes": bytes(random.Random(1).randrange(256) for _ in range(3000)),
        "empty": b"",
        "only-newlines": b"\n\n\n",
        "invalid-utf8": _join([first, raws[1][:30] + b"\xff\xfe" + raws[1][30:]] + raws[2:]),
        "surrogate-escape": with_line(raws[1].replace(b'"random"', b'"\\ud800"')),
        "deep-list": with_line(raws[1][:-1] + b',"x":' + deep(100_000).encode() + b"}"),
        "deep-object": with_line(raws[1][:-1] + b',"x":' + deep(5_000, "object").encode() + b"}"),
        "deep-but-parsable": with_line(raws[1][:-1] + b',"x":' + deep(500).encode() + b"}"),
        "nan": with_line(json.dumps({**two, "seq": float("nan")}).encode()),
        "infinity": with_line(raws[1].replace(b'"seq":2', b'"seq":Infinity')),
        "1e999": with_line(raws[1].replace(b'"seq":2', b'"seq":1e999')),
        "huge-int": with_line(raws[1].replace(b'"seq":2', b'"seq":' + b"9" * 5000)),
        "big-int-seq": with_line(raws[1].replace(b'"seq":2', b'"seq":' + b"9" * 4000)),
        "seq-string": with_line(raws[1].replace(b'"seq":2', b'"seq":"2"')),
        "not-an-object": with_line(b"[1,2,3]", chain=False),
        "duplicate-key": with_line(raws[1][:-1] + b',"dealer":"Bob"}'),
        "wrong-types": with_line(json.dumps({**two, "dealer": 7, "how": ["cut"]}).encode()),
        "huge-line": _join([first, b'{"seq":2,"x":"' + b"a" * 300_000 + b'"}'] + raws[2:]),
        "torn-tail": base[:-20],
        "bom": b"\xef\xbb\xbf" + base,
        "nul-bytes": base[:100] + b"\x00" * 50 + base[150:],
    }
    return out


_BAD_UTF8 = (b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80")
_NUMBERS = (
    "NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * 5000, "9" * 4300, "-" + "9" * 4301, "-0", "1.0", "1e-999",
    "0x10", "01", "1e5", "2.5", "-1", "0", "18446744073709551617",
)
_NUM_RE = __import__("re").compile(rb":(-?\d+)")


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key/index path into a JSON value (the value itself not included)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + (i,))
            out += _paths(v, prefix + (i,))
    return out


def _set_path(obj: Any, path: tuple[Any, ...], value: Any, drop: bool = False) -> None:
    for key in path[:-1]:
        obj = obj[key]
    if drop:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")


def mutate(bases: Sequence[bytes], base: int, mutations: Sequence[tuple[Any, ...]]) -> bytes:
    """Apply mutations to a valid match file. Each is a tuple naming its kind first; positions
    and indexes are taken modulo the current size, so any integers are valid."""
    data = bases[base % len(bases)]
    for m in mutations:
        kind = m[0]
        lines = data.split(b"\n")
        if kind == "flip" and data:
            p = m[1] % len(data)
            data = data[:p] + bytes([m[2]]) + data[p + 1 :]
        elif kind == "insert":
            p = m[1] % (len(data) + 1)
            data = data[:p] + m[2] + data[p:]
        elif kind == "delete" and data:
            p = m[1] % len(data)
            data = data[:p] + data[p + m[2] :]
        elif kind == "splice":
            donor = bases[m[2] % len(bases)].split(b"\n")
            lines[m[1] % len(lines)] = donor[m[3] % len(donor)]
            data = b"\n".join(lines)
        elif kind == "huge":
            size, how = m[2], m[3]
            line = b"x" * size if how == "raw" else b'{"seq":2,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"prev":null,"text":"' + b"y" * size + b'"}'
            lines.insert(m[1] % (len(lines) + 1), line)
            data = b"\n".join(lines)
        elif kind == "deep":
            i = m[1] % len(lines)
            if lines[i].endswith(b"}"):
                lines[i] = lines[i][:-1] + b',"deep":' + deep(m[2], m[3]).encode() + b"}"
                data = b"\n".join(lines)
        elif kind == "utf8":
            p = m[1] % (len(data) + 1)
            data = data[:p] + _BAD_UTF8[m[2] % len(_BAD_UTF8)] + data[p:]
        elif kind == "number":
            i = m[1] % len(lines)
            token = _NUMBERS[m[2] % len(_NUMBERS)]
            hits = list(_NUM_RE.finditer(lines[i]))
            if hits:
                h = hits[m[3] % len(hits)] if len(m) > 3 else hits[0]
                lines[i] = lines[i][: h.start(1)] + token.encode() + lines[i][h.end(1) :]
                data = b"\n".join(lines)
        elif kind in ("field", "drop"):
            i = m[1] % max(1, len(lines) - 1)
            try:
                obj = json.loads(lines[i])
            except (ValueError, RecursionError):
                continue
            paths = _paths(obj)
            if not paths:
                continue
            path = paths[m[2] % len(paths)]
            _set_path(obj, path, m[3] if kind == "field" else None, drop=kind == "drop")
            lines[i] = _dumps(obj)
            if m[-1] is True:  # re-chain, so only the field is wrong and the reader goes deep
                body = [ln for ln in lines if ln]
                data = _join(rechain(body))
            else:
                data = b"\n".join(lines)
    return data


def file_strategy(bases: Sequence[bytes]) -> Any:
    """Hypothesis strategy of hostile match files: random bytes, or a valid file mutated."""
    from hypothesis import strategies as st

    pos = st.integers(0, 1 << 20)
    hostile = st.integers(0, len(HOSTILE_VALUES) - 1).map(lambda i: HOSTILE_VALUES[i])
    leaf = st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12), hostile,
        st.sampled_from([str(c) for c in DECK]),
    )
    value = st.recursive(leaf, lambda c: st.one_of(st.lists(c, max_size=4), st.dictionaries(st.text(max_size=6), c, max_size=3)), max_leaves=8)
    mutation = st.one_of(
        st.tuples(st.just("flip"), pos, st.integers(0, 255)),
        st.tuples(st.just("insert"), pos, st.binary(min_size=1, max_size=40)),
        st.tuples(st.just("delete"), pos, st.integers(1, 300)),
        st.tuples(st.just("splice"), pos, st.integers(0, 10), pos),
        st.tuples(st.just("huge"), pos, st.sampled_from([65535, 65536, 65537, 70_000, 300_000]), st.sampled_from(["raw", "string"])),
        st.tuples(st.just("deep"), pos, st.sampled_from([50, 500, 990, 5000, 100_000]), st.sampled_from(["list", "object"])),
        st.tuples(st.just("utf8"), pos, pos),
        st.tuples(st.just("number"), pos, pos, pos),
        st.tuples(st.just("field"), pos, pos, value, st.booleans()),
        st.tuples(st.just("field"), pos, pos, value, st.just(True)),
        st.tuples(st.just("drop"), pos, pos, st.none(), st.booleans()),
    )
    return st.one_of(
        st.binary(max_size=2000),
        st.tuples(st.integers(0, len(bases) - 1), st.lists(mutation, min_size=1, max_size=3)).map(lambda t: mutate(bases, *t)),
    )


def event_strategy(points: Sequence[tuple[Timeline, int, Event | None]]) -> Any:
    """Hypothesis strategy of (timeline, seq, type, fields): the next real event of a match
    with fields changed, dropped or added, or any event type with hostile fields."""
    from hypothesis import strategies as st
    from ginlog.log.events import EVENT_TYPES

    leaf = st.one_of(
        st.none(), st.booleans(), st.integers(-5, 300), st.integers(), st.floats(), st.text(max_size=8),
        st.integers(0, len(HOSTILE_VALUES) - 1).map(lambda i: HOSTILE_VALUES[i]),
        st.sampled_from([str(c) for c in DECK]), st.sampled_from(PLAYERS),
    )
    value = st.recursive(
        leaf,
        lambda c: st.one_of(st.lists(c, max_size=11), st.dictionaries(st.sampled_from(PLAYERS + ("x",)), c, max_size=3)),
        max_leaves=14,
    )
    names = sorted({a.name for cls in EVENT_TYPES.values() for a in attrs.fields(cls)} | {"from", "zzz"})

    @st.composite
    def build(draw: Any) -> tuple[Timeline, int, str, dict[str, Any]]:
        tl, seq, nxt = points[draw(st.integers(0, len(points) - 1))]
        if nxt is not None and draw(st.booleans()):
            type_, fields = event_type(nxt), json.loads(json.dumps(event_fields(nxt)))
        else:
            type_, fields = draw(st.sampled_from(sorted(EVENT_TYPES))), {}
        for _ in range(draw(st.integers(1, 3))):
            key = draw(st.sampled_from(sorted(fields) + names) if fields else st.sampled_from(names))
            if fields and key in fields and draw(st.integers(0, 4)) == 0:
                del fields[key]
            else:
                fields[key] = draw(value)
        return tl, seq, type_, fields

    return build()


def event_points(seed: int = 5) -> list[tuple[Timeline, int, Event | None]]:
    """(timeline, next seq, the real next event) at every moment of a few short matches."""
    out: list[tuple[Timeline, int, Event | None]] = []
    for name, mode in (("standard", "full"), ("modern", "table"), ("oklahoma", "full")):
        m = make_match(short_rules(preset(name), 40), mode, seed, None)
        for k, tl in enumerate(m.timelines, start=1):
            out.append((tl, k + 1, m.events[k] if k < len(m.events) else None))
    return out


# =============================================================================
# 5. Illegal play


@dataclass
class IllegalCase:
    rule: str
    variant: str
    prefix: list[Event]
    illegal: Event
    rest: list[Event]
    tl: Timeline | None  # the timeline the illegal event meets (None: it is line 1)

    @property
    def line(self) -> int:
        return len(self.prefix) + 1


@dataclass
class Match:
    events: list[Event]
    rules: Rules
    mode: str  # full | hands | table
    timelines: list[Timeline]  # timelines[k] = after events[:k+1]


def make_match(rules: Rules, mode: str, seed: int, max_hands: int | None) -> Match:
    events = simulate_match(rules, seed=seed, mode="table" if mode == "table" else "full", max_hands=max_hands)
    if mode == "hands":  # both hands known, the stock order not recorded
        events = [attrs.evolve(e, stock=None) if isinstance(e, HandDealt) else e for e in events]
    tls = [start(events[0])]
    for k, ev in enumerate(events[1:], start=2):
        tls.append(apply(tls[-1], ev, k))
    return Match(events, rules, mode, tls)


Cand = tuple[int, Event, str]  # (position k: the illegal event goes before events[k]; event; variant)


def _positions(m: Match) -> Iterator[tuple[int, Timeline, Event | None]]:
    for k in range(1, len(m.events) + 1):
        yield k, m.timelines[k - 1], m.events[k] if k < len(m.events) else None


def _held(tl: Timeline, player: str) -> list[Card]:
    h = tl.state.hand
    assert h is not None
    return list(mask_cards(h.known[tl.state.seat(player)]))


def _name(tl: Timeline, seat: int) -> str:
    """The state says who by seat; an event says it by name."""
    return tl.state.players[seat]


def _other(tl: Timeline, name: str) -> str:
    a, b = tl.state.players
    return b if name == a else a


def _other_card(rng: random.Random, *avoid: Card | None) -> Card:
    while True:
        c = rng.choice(DECK)
        if c not in avoid:
            return c


def _c_turn_order(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None or h.phase not in ("offer", "draw", "discard"):
            continue
        other = _name(tl, 1 - h.turn)
        if h.phase == "discard":
            yield k, CardDiscarded(player=other, card=rng.choice(DECK)), "discard out of turn"
        else:
            yield k, CardDrawn(player=other, source=rng.choice(("stock", "pile"))), "draw out of turn"


def _c_upcard_offer(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None:
            continue
        if h.phase == "offer":
            yield k, CardDrawn(player=_name(tl, h.turn), source="stock"), "stock during the offer"
        elif h.phase == "draw" and h.passes == 2 and h.stock == 31:
            yield k, CardDrawn(player=_name(tl, h.turn), source="pile"), "pile after both passed"
        elif h.phase == "draw":
            yield k, UpcardPassed(player=_name(tl, h.turn)), "pass after the offer"


def _c_draw_first(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None or h.phase not in ("offer", "draw"):
            continue
        held = _held(tl, _name(tl, h.turn)) or list(DECK)
        card = rng.choice(held)
        cls = rng.choice((CardDiscarded, Knocked, Gin))
        yield k, cls(player=_name(tl, h.turn), card=card), f"{cls.__name__} before drawing"


def _c_draw_twice(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is not None and h.phase == "discard":
            yield k, CardDrawn(player=_name(tl, h.turn), source=rng.choice(("stock", "pile"))), "second draw"


def _c_discard_taken(m: Match, rng: random.Random) -> Iterator[Cand]:
    if m.rules.may_discard_taken_card:
        return
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is not None and h.phase == "discard" and h.taken is not None:
            cls = rng.choice((CardDiscarded, CardDiscarded, Knocked))
            yield k, cls(player=_name(tl, h.turn), card=h.taken), f"{cls.__name__} of the card taken"


def _c_card_elsewhere(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None or h.phase != "discard":
            continue
        if h.pile:
            yield k, CardDiscarded(player=_name(tl, h.turn), card=rng.choice(h.pile)), "discard a card on the pile"
        other = _held(tl, _name(tl, 1 - h.turn))
        if other:
            yield k, CardDiscarded(player=_name(tl, h.turn), card=rng.choice(other)), "discard a card in the other hand"
        if h.stock_order:
            yield k, Knocked(player=_name(tl, h.turn), card=rng.choice(h.stock_order)), "knock with a card still in the stock"


def _c_card_not_held(m: Match, rng: random.Random) -> Iterator[Cand]:
    if m.mode != "hands":
        return
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None or h.phase != "discard":
            continue
        unknown = mask_cards(ALL_CARDS & ~h.placed_mask())
        if unknown:
            yield k, CardDiscarded(player=_name(tl, h.turn), card=rng.choice(unknown)), "discard a card from the stock"


def _c_stock_order(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is not None and h.phase == "draw" and h.stock_order:
            yield k, CardDrawn(player=_name(tl, h.turn), source="stock", card=_other_card(rng, h.stock_order[0])), "wrong stock card"


def _c_pile_top(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None or not h.pile or h.phase not in ("offer", "draw") or (h.phase == "draw" and h.passes == 2 and h.stock == 31):
            continue
        yield k, CardDrawn(player=_name(tl, h.turn), source="pile", card=_other_card(rng, h.pile[-1])), "wrong pile card"


def _c_knock_limit(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is None or h.phase != "discard":
            continue
        i = h.turn
        held = [c for c in _held(tl, _name(tl, h.turn)) if c != h.taken or m.rules.may_discard_taken_card]
        if h.knock_limit == 0 and held:
            yield k, Knocked(player=_name(tl, h.turn), card=rng.choice(held)), "knock under an Oklahoma ace"
        if m.mode != "full":
            continue
        over = [c for c in held if deadwood_of_mask(h.known[i] & ~c.bit) > h.knock_limit]
        if over:
            yield k, Knocked(player=_name(tl, h.turn), card=rng.choice(over)), "knock over the limit"


def _c_not_gin(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _positions(m):
        st = tl.state
        h = st.hand
        if st.phase == "ready" and isinstance(nxt, HandDealt):
            out = rng.choice(st.players)
            yield k, HandResultOnly(how="gin", out=out, knocker_deadwood=rng.randrange(1, 11), defender_deadwood=20, upcard=nxt.upcard), "score pad gin with deadwood"
        if h is None or h.phase != "discard" or m.mode != "full":
            continue
        i = h.turn
        held = [c for c in _held(tl, _name(tl, h.turn)) if c != h.taken or m.rules.may_discard_taken_card]
        dead = [c for c in held if deadwood_of_mask(h.known[i] & ~c.bit) > 0]
        if dead:
            yield k, Gin(player=_name(tl, h.turn), card=rng.choice(dead)), "gin with deadwood"
        if m.rules.big_gin_bonus is not None and deadwood_of_mask(h.known[i]) > 0:
            yield k, BigGin(player=_name(tl, h.turn)), "big gin with deadwood"


def _c_big_gin_off(m: Match, rng: random.Random) -> Iterator[Cand]:
    if m.rules.big_gin_bonus is not None:
        return
    for k, tl, nxt in _positions(m):
        st = tl.state
        h = st.hand
        if h is not None and h.phase in ("offer", "draw", "discard"):
            yield k, BigGin(player=_name(tl, h.turn)), f"big gin in phase {h.phase}"
        if st.phase == "ready" and isinstance(nxt, HandDealt):
            yield k, HandResultOnly(how="big_gin", out=rng.choice(st.players), defender_deadwood=30, upcard=nxt.upcard), "score pad big gin"


def _shows(m: Match, phase: str) -> Iterator[tuple[int, Timeline, HandShown]]:
    for k, tl, nxt in _positions(m):
        h = tl.state.hand
        if h is not None and h.phase == phase and isinstance(nxt, HandShown):
            yield k, tl, nxt


def _c_layoff_after_gin(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _shows(m, "defend"):
        h = tl.state.hand
        assert h is not None and h.ending is not None
        if h.ending.how in ("gin", "big_gin"):
            yield k, attrs.evolve(nxt, layoffs=(rng.choice(nxt.cards),)), f"lay-off after {h.ending.how}"


def _c_bad_layoff(m: Match, rng: random.Random) -> Iterator[Cand]:
    from ginlog.game.layoffs import check_layoffs

    for k, tl, nxt in _shows(m, "defend"):
        h = tl.state.hand
        assert h is not None and h.ending is not None
        if h.ending.how != "knock":
            continue
        yield k, attrs.evolve(nxt, layoffs=(_other_card(rng, *nxt.cards),)), "lay off a card not in the hand"
        misfits = []
        for c in nxt.cards:
            try:
                for cand in h.ending.candidates:
                    check_layoffs(cand.melds, [c])
                    break
            except GinlogError:
                misfits.append(c)
        if misfits:
            yield k, attrs.evolve(nxt, layoffs=(rng.choice(misfits),)), "lay off a card that fits no meld"


def _c_knocker_layoff(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _shows(m, "show"):
        yield k, attrs.evolve(nxt, layoffs=(rng.choice(nxt.cards),)), "the knocker lays off"


def _c_card_not_shown(m: Match, rng: random.Random) -> Iterator[Cand]:
    for phase in ("show", "defend"):
        for k, tl, nxt in _shows(m, phase):
            known = set(_held(tl, nxt.player))
            drop = [c for c in nxt.cards if c in known]
            if not drop:
                continue
            out = rng.choice(drop)
            cards = tuple(sorted([c for c in nxt.cards if c != out] + [_other_card(rng, *nxt.cards)]))
            yield k, attrs.evolve(nxt, cards=cards, melds=None, layoffs=None), f"{phase}: a known card left out"


def _c_hand_size(m: Match, rng: random.Random) -> Iterator[Cand]:
    for phase in ("show", "defend"):
        for k, tl, nxt in _shows(m, phase):
            cards = list(nxt.cards)
            if rng.random() < 0.5:
                cards.pop(rng.randrange(len(cards)))
            else:
                cards.append(_other_card(rng, *cards))
            yield k, attrs.evolve(nxt, cards=tuple(cards), melds=None, layoffs=None), f"{phase}: {len(cards)} cards"


def _c_duplicate_card(m: Match, rng: random.Random) -> Iterator[Cand]:
    for phase in ("show", "defend"):
        for k, tl, nxt in _shows(m, phase):
            cards = list(nxt.cards)
            cards[-1] = cards[0]
            yield k, attrs.evolve(nxt, cards=tuple(cards), melds=None, layoffs=None), f"{phase}: a card listed twice"
    for k, tl, dealt in _positions(m):
        if isinstance(dealt, HandDealt) and dealt.hands is not None:
            a, b = tl.state.players
            hands = dict(dealt.hands)
            hb = list(hands[b])
            hb[rng.randrange(10)] = rng.choice(hands[a])
            if len(set(hb)) == 10:
                yield k, attrs.evolve(dealt, hands={a: hands[a], b: tuple(hb)}), "a card dealt to both players"
            ha = list(hands[a])
            assert dealt.upcard is not None  # the campaigns play the standard deal
            ha[rng.randrange(10)] = dealt.upcard
            yield k, attrs.evolve(dealt, hands={a: tuple(ha), b: hands[b]}), "the upcard dealt to a player"


def _c_dealer(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _positions(m):
        if isinstance(nxt, HandDealt):
            yield k, attrs.evolve(nxt, dealer=_other(tl, nxt.dealer)), "the wrong dealer"


def _c_match_over(m: Match, rng: random.Random) -> Iterator[Cand]:
    k = len(m.events)
    st = m.timelines[-1].state
    if st.phase != "over":
        return
    p = rng.choice(st.players)
    yield k, HandDealt(dealer=p if st.dealer is None else st.players[st.dealer], upcard=rng.choice(DECK)), "deal after the end"
    yield k, CardDrawn(player=p, source="stock"), "draw after the end"
    yield k, MatchAbandoned(reason="too late"), "abandon after the end"
    yield k, HandResultOnly(how="void"), "score pad hand after the end"


def _c_points_mismatch(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _positions(m):
        st = tl.state
        if st.phase != "ready" or not isinstance(nxt, HandDealt):
            continue
        out = rng.choice(st.players)
        assert nxt.upcard is not None  # the campaigns play the standard deal
        limit = m.rules.knock_limit_for(nxt.upcard)
        how = rng.choice(("knock", "gin", "void"))
        if how == "void":
            ev = HandResultOnly(how="void", upcard=nxt.upcard)
        elif how == "gin":
            ev = HandResultOnly(how="gin", out=out, defender_deadwood=rng.randrange(0, 60), upcard=nxt.upcard)
        else:
            ev = HandResultOnly(how="knock", out=out, knocker_deadwood=rng.randrange(0, limit + 1), defender_deadwood=rng.randrange(0, 60), upcard=nxt.upcard)
        score = apply(tl, ev, k + 1).state.hands[-1].score
        if score.winner is not None and rng.random() < 0.4:
            yield k, attrs.evolve(ev, points=score.points, winner=st.players[1 - score.winner]), f"{how}: the wrong winner"
        else:
            yield k, attrs.evolve(ev, points=score.points + rng.randrange(1, 30)), f"{how}: the wrong points"


def _c_correction(m: Match, rng: random.Random) -> Iterator[Cand]:
    yield 1, Correction(undoes=1), "nothing to undo"
    for k, tl, _ in _positions(m):
        if tl.seq >= 2:
            wrong = rng.choice([s for s in (tl.seq - 1, tl.seq + 1, tl.seq + 7, 1) if s != tl.seq])
            yield k, Correction(undoes=wrong), "undo the wrong event"


def _c_first_event(m: Match, rng: random.Random) -> Iterator[Cand]:
    yield 0, m.events[1], "the file starts with first_dealer"
    for k, _tl, _ in _positions(m):
        yield k, m.events[0], "match_started again"


# A few more rules the reducer names, for completeness.


def _c_first_dealer(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        if tl.state.phase in ("ready", "hand"):
            yield k, FirstDealer(dealer=rng.choice(tl.state.players), how="agreed"), "the first dealer twice"


def _c_hand_in_progress(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is not None:
            yield k, HandDealt(dealer=_name(tl, h.dealer), upcard=rng.choice(DECK)), "deal during a hand"


def _c_no_hand(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        if tl.state.phase == "ready":
            p = rng.choice(tl.state.players)
            yield k, rng.choice((CardDrawn(player=p, source="stock"), HandVoid(reason="misdeal"))), "play with no hand"


def _c_unknown_player(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is not None and h.phase in ("offer", "draw"):
            yield k, CardDrawn(player="Zed", source="stock"), "a stranger draws"


def _c_show_early(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, _ in _positions(m):
        h = tl.state.hand
        if h is not None and h.phase in ("draw", "discard"):
            yield k, HandShown(player=_name(tl, h.turn), cards=tuple(sorted(rng.sample(DECK, 10)))), f"show in phase {h.phase}"


def _c_deal(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _positions(m):
        if isinstance(nxt, HandDealt) and nxt.hands is not None:
            a, b = tl.state.players
            yield k, attrs.evolve(nxt, hands={a: nxt.hands[a][1:], b: nxt.hands[b]}), "nine cards dealt"


def _c_cut(m: Match, rng: random.Random) -> Iterator[Cand]:
    a, b = PLAYERS
    ca, cb = sorted(rng.sample(DECK, 2), key=lambda c: c.rank)
    if ca.rank != cb.rank:
        yield 1, FirstDealer(dealer=b, how="cut", cuts={a: ca, b: cb}), "the higher cut deals"


def _c_bad_meld(m: Match, rng: random.Random) -> Iterator[Cand]:
    for k, tl, nxt in _shows(m, "show"):
        cards = list(nxt.cards)
        for _ in range(20):
            trio = rng.sample(cards, 3)
            try:
                from ginlog.game.melds import Meld

                Meld.of(trio)
            except GinlogError:
                yield k, attrs.evolve(nxt, melds=(tuple(sorted(trio)),)), "a declared meld that is not one"
                break


ILLEGAL_BUILDERS: dict[str, tuple[Callable[[Match, random.Random], Iterator[Cand]], tuple[str, ...]]] = {
    # rule: (candidates, recording modes it needs)
    "turn-order": (_c_turn_order, ("full", "table")),
    "upcard-offer": (_c_upcard_offer, ("full", "table")),
    "draw-first": (_c_draw_first, ("full", "table")),
    "draw-twice": (_c_draw_twice, ("full", "table")),
    "discard-taken-card": (_c_discard_taken, ("full", "table")),
    "card-elsewhere": (_c_card_elsewhere, ("full", "table", "hands")),
    "card-not-held": (_c_card_not_held, ("hands",)),
    "stock-order": (_c_stock_order, ("full",)),
    "pile-top": (_c_pile_top, ("full", "table")),
    "knock-limit": (_c_knock_limit, ("full",)),
    "not-gin": (_c_not_gin, ("full",)),
    "big-gin-off": (_c_big_gin_off, ("full", "table")),
    "layoff-after-gin": (_c_layoff_after_gin, ("full", "table")),
    "bad-layoff": (_c_bad_layoff, ("full", "table")),
    "knocker-layoff": (_c_knocker_layoff, ("full", "table")),
    "card-not-shown": (_c_card_not_shown, ("full",)),
    "hand-size": (_c_hand_size, ("full", "table")),
    "duplicate-card": (_c_duplicate_card, ("full",)),
    "dealer": (_c_dealer, ("full", "table")),
    "match-over": (_c_match_over, ("full", "table")),
    "points-mismatch": (_c_points_mismatch, ("full", "table")),
    "correction": (_c_correction, ("full", "table")),
    "first-event": (_c_first_event, ("full", "table")),
    "first-dealer": (_c_first_dealer, ("full", "table")),
    "hand-in-progress": (_c_hand_in_progress, ("full", "table")),
    "no-hand": (_c_no_hand, ("full", "table")),
    "unknown-player": (_c_unknown_player, ("full", "table")),
    "show-early": (_c_show_early, ("full", "table")),
    "deal": (_c_deal, ("full",)),
    "cut": (_c_cut, ("full", "table")),
    "bad-meld": (_c_bad_meld, ("full", "table")),
}

_RULE_SETS = ("standard", "newspaper", "modern", "classic", "oklahoma")


def build_illegal(rule: str, rng: random.Random, tries: int = 60) -> IllegalCase:
    """One case of ``rule``: a generated legal match with one illegal event injected."""
    builder, modes = ILLEGAL_BUILDERS[rule]
    for attempt in range(tries):
        name = rng.choice(_RULE_SETS)
        if rule == "big-gin-off" and name == "modern":
            name = "standard"
        rules = short_rules(preset(name), rng.choice((20, 40, 60))) if rule == "match-over" else preset(name)
        # Short matches keep the audit fast; a rare situation (a gin) falls back to whole matches.
        max_hands = None if rule == "match-over" or attempt >= tries // 3 else rng.choice((1, 1, 2))
        m = make_match(rules, rng.choice(modes), rng.randrange(1 << 30), max_hands)
        cands = list(builder(m, rng))
        if not cands:
            continue
        k, ev, variant = rng.choice(cands)
        if k == 0:
            return IllegalCase(rule, variant, [], ev, m.events[2:], None)
        rest = m.events[k:] if rng.random() < 0.8 else []
        return IllegalCase(rule, f"{variant} ({name}, {m.mode})", m.events[:k], ev, rest, m.timelines[k - 1])
    raise RuntimeError(f"no situation for {rule} found in {tries} generated matches")


@dataclass
class IllegalResult:
    total: collections.Counter[str] = field(default_factory=collections.Counter)
    caught: collections.Counter[str] = field(default_factory=collections.Counter)  # right line, right rule, nothing else
    variants: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)


def check_illegal(case: IllegalCase, path: str) -> list[str]:
    """Write the case through the store, audit it, and say what is wrong (nothing = caught)."""
    problems = []
    seq = case.line
    # What the reducer says of the event on its own, through its JSON form as the reader sees it.
    try:
        ev = event_from_fields(event_type(case.illegal), json.loads(json.dumps(event_fields(case.illegal))))
        if case.tl is None:
            start(ev)
        else:
            apply(case.tl, ev, seq)
        direct = None
    except GinlogError as exc:
        direct = exc.rule
    if direct != case.rule:
        problems.append(f"{case.rule} ({case.variant}): applied directly, the event gives {direct!r}")
    events = case.prefix + [case.illegal] + case.rest
    if os.path.exists(path):
        os.unlink(path)
    write_events(path, events)
    a = audit_file(path)
    got = [(e["line"], e["event"], e["rule"]) for e in a.errors]
    if got != [(seq, seq, case.rule)]:
        problems.append(
            f"{case.rule} ({case.variant}) at line {seq}: audit reported {got[:4]} "
            f"[{'; '.join(error_line(e) for e in a.errors[:2])}]"
        )
    return problems


def illegal_campaign(workdir: str | os.PathLike[str], total: int, *, seed: int = 0, rules: Sequence[str] | None = None) -> IllegalResult:
    """``total`` cases, the rules taken in turn (so each gets total/len(rules), give or take one)."""
    res = IllegalResult()
    rng = random.Random(seed)
    path = str(Path(workdir) / f"illegal-{seed}.jsonl")
    names = list(rules or ILLEGAL_BUILDERS)
    for i in range(total):
        rule = names[i % len(names)]
        res.total[rule] += 1
        try:
            case = build_illegal(rule, rng)
        except Exception as exc:  # noqa: BLE001
            res.failures.append(f"{rule}: could not build a case: {exc!r}")
            continue
        res.variants[f"{rule}: {case.variant.split(' (')[0]}"] += 1
        try:
            problems = check_illegal(case, path)
        except Exception:  # noqa: BLE001
            problems = [f"{rule} ({case.variant}): {traceback.format_exc(limit=-4)}"]
        if problems:
            res.failures += problems
        else:
            res.caught[rule] += 1
    return res
