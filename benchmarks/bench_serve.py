"""The phone page measured: tap to acknowledgement under load, and taps per hand against the terminal's keystrokes.

Run by hand::

    python benchmarks/bench_serve.py taps                      # taps per hand against bench_keystrokes' keystrokes
    python benchmarks/bench_serve.py load [--matches 25] [--seconds 60] [--every 2]

**load** starts the real ``ginlog serve`` (a child process on 127.0.0.1, a
free port) for ``--matches`` new matches and drives two phones a match, as
``asyncio`` tasks over httpx: each phone follows the match's event stream
and, every ``--every`` seconds (the two phones of a match half a period
apart), taps the match's next entry with the seq its stream last told it,
sent again by the same id after a network error, as the page does (the
phones in ``--procs`` processes, 4 by default: real phones each have a CPU,
and fifty phones in one event loop measure that loop's queue). The
entries are three whole hands (the README walkthrough's, a match won 122 to
61), then notes. It reports each tap's time from sending to the answer
(p50, p95, max), the answers by status, the server's CPU, and checks the
files afterwards: every acknowledged tap's line is there at the seq it was
told, once, and there is no other line (no lost and no doubled line). It
fails (exit 1) on any 5xx or any lost or doubled line.

**taps** counts the taps the page needs for the hands ``bench_keystrokes``
counts keystrokes of (the README walkthrough's hand, a typical simulated
hand, the whole simulated match: table view, stock cards unseen): a button
is one tap, a card or a player one more, "Card not seen" one, a shown hand
its unknown cards, then Preview and Confirm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import bench_keystrokes  # noqa: E402
from serving import HAND_TAPS  # noqa: E402
from ginlog.game.rules import preset
from ginlog.log.events import (
    BigGin, CardDiscarded, CardDrawn, Correction, Event, FirstDealer, Gin, HandDealt, HandShown, Knocked,
    MatchStarted, UpcardPassed,
)
from ginlog.match.session import MatchSession
from ginlog.play.reducer import apply, start
from ginlog.play.simulate import simulate_match
from ginlog.play.state import Timeline

#: One hand as taps (the README walkthrough's): the non-dealer knocks with the Q♣ and wins 61 (the tests' own,
#: ``tests/serving.py``, after its first tap, the first dealer).
HAND: list[dict[str, Any]] = HAND_TAPS[1:]
#: Three such hands end a match at 100 (122 to 61).
MATCH: list[dict[str, Any]] = [{"word": "dealer", "player": 0}, *HAND, *HAND, *HAND]


def plan(match: int, n: int) -> dict[str, Any]:
    """The ``n``-th tap of a match: the three hands, then a note that says which tap it is."""
    return MATCH[n] if n < len(MATCH) else {"word": "note", "text": f"match {match} tap {n}"}  # (the load: the tap's id)


# ---------------------------------------------------------------------------------------------- taps per hand


def taps_of(event: Event, tl: Timeline) -> int:
    """The page's taps for ``event`` recorded from ``tl`` (see the module's docstring)."""
    match event:
        case FirstDealer():
            return 4 if event.how == "cut" else 2  # the button and a name; a cut: two cards and Record
        case HandDealt() | CardDiscarded() | Knocked() | Gin():
            return 2  # the button and a card (or "No card", "ginlog picks the card")
        case CardDrawn():
            return 1 if event.source == "pile" else 2  # take; the stock and a card or "Card not seen"
        case UpcardPassed() | BigGin() | Correction():
            return 1
        case HandShown():
            hand = tl.state.hand
            known = hand.known[hand.turn].bit_count() if hand is not None else 0
            return 1 + (len(event.cards) - known) + 2  # the button, the cards not yet known, Preview, Confirm
        case _:
            raise SystemExit(f"no tap count for {type(event).__name__}")


def taps(tl: Timeline, events: Sequence[Event]) -> int:
    total = 0
    for ev in events:
        total += taps_of(ev, tl)
        tl = apply(tl, ev)
    return total


def taps_table(rules: str = "standard", seed: int = 1, n_hands: int = 12) -> str:
    rows, note = bench_keystrokes.run(rules, seed, n_hands)
    fresh = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    walk_events, _ = bench_keystrokes.typed(fresh, bench_keystrokes.WALKTHROUGH)
    events = simulate_match(preset(rules), seed=seed, mode="table", max_hands=n_hands)
    hands = bench_keystrokes.hands_of(events)
    counted = {rows[0].label: taps(fresh, walk_events)}
    m = re.match(r"simulated hand (\d+)", rows[1].label)
    assert m is not None
    begin, evs = hands[int(m.group(1)) - 1]
    counted[rows[1].label] = taps(begin, evs)
    counted[rows[2].label] = sum(taps(b, e) for b, e in hands)
    lines = [f"{'hand':<48} {'taps':>6} {'keys before':>12} {'keys after':>11} {'taps/after':>11}", "-" * 92]
    for row in rows:
        before, after = bench_keystrokes.keystrokes(row.before), bench_keystrokes.keystrokes(row.after)
        n = counted[row.label]
        lines.append(f"{row.label:<48} {n:>6} {before:>12} {after:>11} {n / after:>10.2f}x")
    return "\n".join(lines) + "\n" + note


# ---------------------------------------------------------------------------------------------- the load


class Serve:
    """``ginlog serve`` in a child process on 127.0.0.1 (a free port): its address and token."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "ginlog.app.cli", "serve", *paths, "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            m = re.search(r"open http://127\.0\.0\.1:(\d+)/\?t=(\S+)", line)
            if m:
                self.base, self.token = f"http://127.0.0.1:{m.group(1)}", m.group(2)
                return
        raise SystemExit("ginlog serve did not start: " + (self.proc.stderr.read() if self.proc.stderr else ""))

    def cpu(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


async def _phone(web: Any, base: str, match: int, role: int, every: float, until: float, shared: dict[str, Any],
                 out: dict[str, Any]) -> None:
    seen: dict[str, int] = {"seq": 0}
    ready = asyncio.Event()

    async def follow() -> None:
        async with web.stream("GET", f"{base}/api/m/{match}/events") as r:
            if r.status_code != 200:
                out["statuses"][r.status_code] = out["statuses"].get(r.status_code, 0) + 1
                return
            buf = ""
            async for chunk in r.aiter_text():
                buf += chunk
                while "\n\n" in buf:
                    msg, buf = buf.split("\n\n", 1)
                    if msg.startswith("event: state"):
                        seen["seq"] = json.loads(msg.split("data: ", 1)[1])["seq"]
                        ready.set()

    listener = asyncio.create_task(follow())
    await asyncio.wait_for(ready.wait(), 30)
    await asyncio.sleep(role * every / 2 + (match % 10) * every / 20)  # the two phones half a period apart
    while time.monotonic() < until:
        n = shared["next"]
        body = {"id": f"tap-{match}-{n}-{role}-{os.urandom(4).hex()}", "expect": seen["seq"], **plan(match, n)}
        if body["word"] == "note":
            body["text"] = body["id"]  # so a note twice in the file is one tap written twice
        began = time.perf_counter()
        while True:  # the same id again after a network error, as the page does
            try:
                r = await web.post(f"{base}/api/m/{match}/tap", json=body, headers=out["headers"])
                break
            except Exception:  # noqa: BLE001 - any network error: send again
                out["resent"] += 1
                await asyncio.sleep(0.2)
        out["latency"].append(time.perf_counter() - began)
        out["statuses"][r.status_code] = out["statuses"].get(r.status_code, 0) + 1
        if r.status_code == 200:
            answer = r.json()
            shared["next"] = n + 1
            out["acked"].append((match, answer["seq"], answer["entry"]))
        await asyncio.sleep(every)
    listener.cancel()


def _drive_part(base: str, token: str, ids: Sequence[int], seconds: float, every: float) -> dict[str, Any]:
    """One process's phones (the matches ``ids``): what :func:`_drive` gathered."""
    return asyncio.run(_drive(base, token, ids, seconds, every))


def _drive_all(base: str, token: str, matches: int, seconds: float, every: float, procs: int) -> dict[str, Any]:
    """The phones of ``matches`` matches, in ``procs`` processes (real phones do not share one CPU: one process
    for fifty phones measures its own event loop as much as the server), their figures put together."""
    if procs <= 1:
        return _drive_part(base, token, range(matches), seconds, every)
    import concurrent.futures

    parts = [list(range(matches))[i::procs] for i in range(procs)]
    with concurrent.futures.ProcessPoolExecutor(procs) as pool:
        outs = list(pool.map(_drive_part, *zip(*[(base, token, ids, seconds, every) for ids in parts])))
    out: dict[str, Any] = {"latency": [], "statuses": {}, "acked": [], "resent": 0, "client_cpu": 0.0}
    for o in outs:
        out["latency"] += o["latency"]
        out["acked"] += o["acked"]
        out["resent"] += o["resent"]
        out["client_cpu"] += o["client_cpu"]
        for k, v in o["statuses"].items():
            out["statuses"][k] = out["statuses"].get(k, 0) + v
    return out


async def _drive(base: str, token: str, ids: Sequence[int], seconds: float, every: float) -> dict[str, Any]:
    import httpx

    cpu0 = time.process_time()

    out: dict[str, Any] = {"latency": [], "statuses": {}, "acked": [], "resent": 0,
                           "headers": {"x-ginlog-token": token, "origin": base}}
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=200)
    async with httpx.AsyncClient(headers={"x-ginlog-token": token}, timeout=30, limits=limits) as web:
        until = time.monotonic() + seconds
        shared = {m: {"next": 0} for m in ids}
        await asyncio.gather(*(_phone(web, base, m, role, every, until, shared[m], out)
                               for m in ids for role in (0, 1)))
    out["client_cpu"] = time.process_time() - cpu0
    return out


def check_files(paths: Sequence[str], acked: Sequence[tuple[int, int, str]]) -> list[str]:
    """What is wrong with the files against the acknowledged taps: a line lost, doubled, or not acknowledged."""
    problems = []
    for m, path in enumerate(paths):
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        mine = sorted((seq, entry) for mm, seq, entry in acked if mm == m)
        seqs = [s for s, _ in mine]
        if len(set(seqs)) != len(seqs):
            problems.append(f"{path}: two acknowledged taps at one seq")
        if seqs != list(range(2, len(lines) + 1)):
            problems.append(f"{path}: {len(lines) - 1} lines after the first, {len(seqs)} acknowledged")
        notes = [json.loads(line).get("text") for line in lines if '"type":"note"' in line]
        if len(set(notes)) != len(notes):
            problems.append(f"{path}: a tap's note written twice")
    return problems


def fsync_floor(folder: str, n: int = 200) -> tuple[float, float]:
    """The reference measured in the same run: one line appended and fsynced (what every tap's write costs at
    least), p50 and p95 in ms, while nothing else of ginlog runs."""
    path = os.path.join(folder, "floor.bin")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    times = []
    try:
        for _ in range(n):
            began = time.perf_counter()
            os.write(fd, b"x" * 200 + b"\n")
            os.fsync(fd)
            times.append(time.perf_counter() - began)
    finally:
        os.close(fd)
    times.sort()
    return statistics.median(times) * 1000, times[int(n * 0.95) - 1] * 1000


def load(matches: int = 25, seconds: float = 60.0, every: float = 2.0, folder: str | None = None,
         procs: int = 1) -> tuple[dict[str, Any], str]:
    """Run the load; the figures and the report's text."""
    with tempfile.TemporaryDirectory(dir=folder) as d:
        floor = fsync_floor(d)
        paths = []
        for m in range(matches):
            path = os.path.join(d, f"m{m:02d}.jsonl")
            MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
            paths.append(path)
        server = Serve(paths)
        try:
            cpu0 = server.cpu()
            out = _drive_all(server.base, server.token, matches, seconds, every, procs)
            cpu, mine = server.cpu() - cpu0, out["client_cpu"]
        finally:
            server.stop()
        problems = check_files(paths, out["acked"])
    lat = sorted(out["latency"])
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p95 = lat[max(0, int(len(lat) * 0.95) - 1)] * 1000 if lat else float("nan")
    fives = sum(n for s, n in out["statuses"].items() if s >= 500)
    figures = {"taps": len(lat), "p50_ms": p50, "p95_ms": p95, "max_ms": max(lat, default=0) * 1000,
               "statuses": dict(sorted(out["statuses"].items())), "server_cpu_s": cpu, "resent": out["resent"],
               "problems": problems, "five_xx": fives, "acked": len(out["acked"]), "fsync_ms": floor, "client_cpu_s": mine,
               "load_average": os.getloadavg()[0]}
    text = (f"{matches} matches, two phones each following the event stream and tapping every {every:g} s, {seconds:g} s"
            f" (the phones in {procs} process{'es' if procs != 1 else ''})\n"
            f"taps {len(lat)}: answers {figures['statuses']}; sent again after a network error {out['resent']}\n"
            f"tap to acknowledgement: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {figures['max_ms']:.1f} ms\n"
            f"server CPU {cpu:.1f} s ({cpu / seconds * 100:.0f}% of a core), the phones' {mine:.1f} s; the machine's load average at the end"
            f" {figures['load_average']:.1f} (2 cores)\n"
            f"reference, the same run: a line appended and fsynced alone: p50 {floor[0]:.1f} ms, p95 {floor[1]:.1f} ms\n"
            f"files: {'every acknowledged line there once, no other line' if not problems else '; '.join(problems)}")
    return figures, text


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("taps")
    t.add_argument("--rules", default="standard")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--hands", type=int, default=12)
    lo = sub.add_parser("load")
    lo.add_argument("--matches", type=int, default=25)
    lo.add_argument("--seconds", type=float, default=60.0)
    lo.add_argument("--every", type=float, default=2.0)
    lo.add_argument("--procs", type=int, default=4, help="processes the phones run in (real phones have a CPU each)")
    args = ap.parse_args(argv)
    if args.what == "taps":
        print(taps_table(args.rules, args.seed, args.hands))
        return 0
    figures, text = load(args.matches, args.seconds, args.every, procs=args.procs)
    print(text)
    return 1 if figures["five_xx"] or figures["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
