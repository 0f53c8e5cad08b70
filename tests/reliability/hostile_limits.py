"""Issue 20's classes, attacked as a hostile user or program would (registered in :mod:`hostile_campaign`).

links (outputs through planted links, a site that forgets, modes, a killed export), formula (spreadsheet
cells), deep (folders nested past recursion and PATH_MAX), jobs (a huge ``--jobs``), entry (an entry longer
than the longest legal one), closed (a closed standard stream), clock (a clock out of range), header (an
OpenSpiel header with thousands of digits), timestamp (times the writer would never write).

Their commands run as forks of the campaign's process where that sees what a fresh ``ginlog`` sees
(:func:`hostile_campaign.forks`): the same ``main()``, a few milliseconds a run instead of 0.2 CPU-s, which
keeps them in the default test run. ``GINLOG_UNDER_TEST=/tmp/old`` runs them, in fresh processes, on
another ginlog (an older commit's worktree): how each class fails there.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import hostile_campaign as hc
import hostile_inputs as hi
from hostile_campaign import Cmd, Ctx, Run, basic, campaign_of, raw_problems
from hostile_inputs import chain, objs_of, rename
from hostile_checks import LINE, record_file, write_file
import reliability_campaigns as rc
from deep_folders import remove_deep

from ginlog.app.check.verdicts import MAX_JOBS
from ginlog.app.data.formats import FORMULA_STARTS, INT_COLUMNS
from ginlog.app.record.language import MAX_ENTRY
from ginlog.errors import GinlogError
from ginlog.log.event_types import MAX_TEXT
from ginlog.log.times import FIRST_YEAR, LAST_YEAR, ts_of_ns, valid_ts
from ginlog.text import check_players

SAMPLES = hc.ROOT / "sample_games"
TEMP = re.compile(r"\.tmp\d*$")  # today's temporary names (.NAME.ginlog-HEX.tmp) and the old ones (NAME.tmpPID)


def _one_line(r: Run, *, rule: str | None = None, most: int = 300) -> list[str]:
    lines = [ln for ln in r.err_lines() if ln.strip()]
    probs = [] if len(lines) == 1 else [f"{len(lines)} lines on stderr: {r.err[:200]!r}"]
    if lines and len(lines[0]) > most:
        probs.append(f"a line of {len(lines[0]):,} characters")
    if rule and not any(f"[{rule}]" in ln for ln in lines):
        probs.append(f"no [{rule}] in {r.err[:200]!r}")
    return probs


def _snapshot(*folders: Path) -> dict[Path, tuple[bytes, int]]:
    """Every regular file under ``folders`` (links not followed): its bytes and inode."""
    out = {}
    for folder in folders:
        for p in folder.rglob("*"):
            if p.is_file() and not p.is_symlink():
                out[p] = (p.read_bytes(), p.stat().st_ino)
    return out


def _records(snap: dict[Path, tuple[bytes, int]]) -> dict[Path, tuple[bytes, int]]:
    return {p: v for p, v in snap.items() if v[0].startswith(b'{"seq":1,') and b'"match_started"' in v[0][:200]}


def _changed(before: dict[Path, tuple[bytes, int]]) -> list[str]:
    return [p.name for p, (data, _) in before.items() if not p.is_file() or p.read_bytes() != data]


def _temps(folder: Path, planted: set[Path]) -> list[str]:
    return sorted(p.name[-48:] for p in folder.rglob("*") if TEMP.search(p.name) and p not in planted)


def _next_pid() -> int:
    try:
        return int(Path("/proc/sys/kernel/ns_last_pid").read_text()) + 1
    except (OSError, ValueError):
        return os.getpid() + 1


# =============================================================================
# links: outputs through planted links, a site that forgets, modes, a killed export

#: What each command writes (run in the folder that holds the matches): its -o, and the argument order.
LINK_CMDS = {"csv": ["export", "m.jsonl", "-o", "out.csv"], "jsonl": ["export", "m.jsonl", "--format", "jsonl", "-o", "out.jsonl"],
             "page": ["html", "m.jsonl", "-o", "out.html"], "site": ["html", "games", "-o", "site"]}
PLANTS = ("tmp-symlink", "tmp-hardlink", "mode", "matches-link", "site-link", "rebuild", "kill")


@campaign_of("links")
def links(ctx: Ctx, n: int, seed: int) -> None:
    long = getattr(ctx, "long", False)

    def body(case: tuple[str, str, int, int, float, int]) -> None:
        plant, which, mode, stems, delay, pids = case
        fixed = ctx.once("links")
        tries = [(plant, which)]
        if fixed:  # the issue's own: a link at the old temporary name of each output, a planted matches/, a rebuild
            tries = [("tmp-symlink", "csv"), ("tmp-hardlink", "page"), ("tmp-symlink", "site"), ("matches-link", "site"),
                     ("rebuild", "site"), ("mode", "jsonl"), ("kill", "csv"), *tries]
        for plant_, which_ in dict.fromkeys(tries):
            _link_try(ctx, plant_, which_, mode, stems, delay, pids if long else min(pids, 48))

    strat = st.tuples(st.sampled_from(PLANTS), st.sampled_from(sorted(LINK_CMDS)), st.sampled_from([0o600, 0o640, 0o604, 0o660, 0o644, 0o700]),
                      st.integers(2, 4), st.floats(0.0, 0.25), st.integers(24, 96))
    hc.drive(ctx, strat, n, seed, body)


def _link_try(ctx: Ctx, plant: str, which: str, mode: int, stems: int, delay: float, pids: int) -> None:
    if plant in ("matches-link", "site-link", "rebuild"):
        which = "site"
    elif plant == "kill" and which not in ("csv", "jsonl") or plant == "mode" and which == "site":
        which = "csv"
    d = ctx.dir("links")
    outside = ctx.dir("outside")
    keep = write_file(outside / "keep.jsonl", (SAMPLES / "score-pad-match.jsonl").read_bytes())
    write_file(d / "m.jsonl", (SAMPLES / "standard-match.jsonl").read_bytes())
    victim = write_file(d / "victim.jsonl", (SAMPLES / "modern-match.jsonl").read_bytes())
    games = d / "games"
    games.mkdir()
    names = ["standard", "modern", "table-view", "score-pad"][:stems]
    for k, name in enumerate(names):
        write_file(games / f"g{k}.jsonl", (SAMPLES / f"{name}-match.jsonl").read_bytes())
    args = list(LINK_CMDS[which])
    out = d / args[-1]
    site = d / "site"
    planted: set[Path] = set()
    probs: list[str] = []
    kind = f"{plant} at {which} ({' '.join(args)})"
    if which == "site" and plant in ("tmp-symlink", "tmp-hardlink", "rebuild"):  # a first build names the pages
        (first,) = ctx.run(Cmd(args, cwd=d, fork=True))
        ctx.check("no-crash", basic(first, (0,)), f"{kind}: the first build: {first.cmd.shell()}")
    if plant == "kill":  # an export long enough to be killed while it writes
        for k in range(12 if getattr(ctx, "long", False) else 4):
            write_file(games / f"h{k}.jsonl", (SAMPLES / "hollywood-match.jsonl").read_bytes())
        args = [args[0], "games", *args[2:]]
    if plant == "mode":
        out.write_text("last week's output\n")
        out.chmod(mode)
    elif plant == "matches-link":
        site.mkdir()
        os.symlink(outside, site / "matches")
    elif plant == "site-link":
        os.symlink(outside, site)
    elif plant == "rebuild":
        (site / "matches" / "notes.txt").write_text("mine\n")
        for g in sorted(games.iterdir())[1:]:
            g.unlink()  # withdrawn: its page must go
    before = _snapshot(d, outside)
    records = _records(before)
    outside_names = sorted(p.name for p in outside.iterdir())
    # killed while it writes: a moment after its temporary file appears
    cmd = Cmd(args, cwd=d, fork=True, terminate_after=delay / 10 if plant == "kill" else None, terminate_in=str(d) if plant == "kill" else None)
    if plant in ("tmp-symlink", "tmp-hardlink"):
        # links at every name the old code could pick: NAME.tmpPID for the next pids (the command runs alone)
        targets = [out] if which != "site" else [p for p in site.rglob("*") if p.is_file()]
        start = _next_pid()
        for t in targets:
            for pid in range(start, start + pids):
                tmp = t.with_name(f"{t.name}.tmp{pid}")
                if plant == "tmp-symlink":
                    os.symlink(victim if pid % 2 else keep, tmp)
                else:
                    os.link(victim, tmp)
                planted.add(tmp)
    (r,) = ctx.run(cmd, jobs=1)
    repro = f"{kind}: (cd FOLDER; {cmd.shell()[:200]})"
    ctx.check("no-crash", basic(r, (0, 1, 2, -15) if plant == "kill" else (0, 1, 2)) + raw_problems(r.both, colour=False), repro)
    changed = [p.name for p, (data, ino) in records.items() if not p.is_file() or p.read_bytes() != data]
    ctx.check("records-kept", [f"match records {changed} written over"] if changed else [], repro)
    if plant in ("tmp-symlink", "tmp-hardlink", "matches-link", "site-link"):
        probs = [f"{keep.name} outside written through a link"] if keep.read_bytes() != before[keep][0] else []
        if victim.read_bytes() != before[victim][0]:
            probs.append(f"{victim.name} written through a {'hard ' if plant == 'tmp-hardlink' else ''}link at a temporary name")
        new_outside = sorted(set(p.name for p in outside.iterdir()) - set(outside_names))
        if new_outside:
            probs.append(f"written outside the site: {new_outside[:4]}")
        if plant in ("tmp-symlink", "tmp-hardlink") and r.rc != 0:
            probs.append(f"exit {r.rc}: {r.err[-200:]!r}")
        ctx.check("not-followed", probs, repro)
    ctx.check("no-temp", [f"left {t}" for t in _temps(d, planted)][:3], repro)
    if plant == "mode":
        got = stat.S_IMODE(out.stat().st_mode)
        ctx.check("mode-kept", [] if r.rc == 0 and got == mode else [f"exit {r.rc}, mode {got:o}, not {mode:o}"], repro)
    if plant in ("matches-link", "site-link"):
        probs = [] if r.rc == 2 else [f"exit {r.rc}, not 2"]
        probs += _one_line(r)
        if (outside / "index.html").exists() or (not site.is_symlink() and (site / "index.html").exists()):
            probs.append("a site was written")
        ctx.check("site-refused", probs, repro)
    if plant == "rebuild":
        pages = sorted(p.name for p in (site / "matches").iterdir())
        left = sorted(g.stem for g in games.iterdir())
        stale = [p for p in pages if p.endswith(".html") and not any(p.startswith(f"{s}-") for s in left)]
        probs = [f"exit {r.rc}"] if r.rc != 0 else []
        probs += [f"pages of withdrawn matches kept: {stale}"] if stale else []
        probs += [] if "notes.txt" in pages else ["someone else's notes.txt removed"]
        probs += [] if all(any(p.startswith(f"{s}-") for p in pages) for s in left) else [f"a page missing: {pages}"]
        ctx.check("site-forgets", probs, repro)
    if plant == "kill":
        # killed or not, what is there is whole: the old output, nothing, or a complete export
        probs = [] if not out.exists() or r.rc != 0 or out.read_bytes().count(b"\n") > 1 else ["exit 0 and an empty output"]
        if r.rc not in (-15, 0):
            probs.append(f"exit {r.rc}: neither killed nor done")
        ctx.check("killed", probs + [f"left {t}" for t in _temps(d, planted)], repro + f" (exit {r.rc})")


# =============================================================================
# formula: cells a spreadsheet would run


def _formula_text() -> st.SearchStrategy[str]:
    rest = st.one_of(st.sampled_from(['HYPERLINK("http://evil.example","x")', "cmd|' /C calc'!A0", "1+1", "SUM(A1:A9)", "Bo", "2"]),
                     st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7e), min_size=1, max_size=12))
    return st.tuples(st.sampled_from(FORMULA_STARTS + ("",)), rest).map("".join)


def _name_like(s: str) -> str:
    return s.replace("\t", "").replace("\r", "").strip() or "x"


@campaign_of("formula")
def formula(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[str, str, str, str]) -> None:
        first, second, title, fname = case
        try:
            first, second = check_players([_name_like(first), _name_like(second)])
        except GinlogError:
            first, second = "=Ann", "@Bob"
        cases = [(first, second, title, fname)]
        if ctx.once("formula"):
            cases.append(("=HYPERLINK(1)", "@Bo", "+cmd|' /C calc'!A0", "-x"))
        d = ctx.dir("formula")
        files, texts = [], set()
        for k, (first_, second_, title_, fname_) in enumerate(cases):
            objs = rename(objs_of(hi.base_events("standard", 1, "full", 1), ctx.work), {"Ann": first_, "Bob": second_})
            objs[0]["title"] = title_
            name = re.sub(r"[/\x00]", "_", fname_)[:60] + f"{k}.jsonl"
            write_file(d / name, chain(objs))
            files.append((name, first_, second_, title_))
            texts |= {first_, second_, title_}
        names = [f[0] for f in files]
        cmds = [Cmd([*words, "--", *names], cwd=d, fork=True) for words in (
            ["export"], ["export", "--raw"], ["stats", "--csv"], ["stats", "--csv", "--raw"], ["export", "--format", "jsonl"])]
        runs = ctx.run(*cmds)
        repro = f"matches {[f[1:] for f in files]!r} (players, title) in files {names!r}: (cd FOLDER; ginlog export|stats --csv [--raw] FILES)"
        for r in runs:  # the rows are data (a tab in a file name is the file's): no escape there; the messages shown
            probs = basic(r, (0,)) + raw_problems(r.err, colour=False) + (["ESC in the data"] if b"\x1b" in r.out else [])
            ctx.check("no-crash", probs, f"{repro}: {r.cmd.shell()[:160]}")
        guarded = [_cells(runs[0].out, INT_COLUMNS), _cells(runs[2].out, None)]
        raw = [_cells(runs[1].out, INT_COLUMNS), _cells(runs[3].out, None)]
        probs = [f"a cell starts a formula: {c!r}" for rows in guarded for c in rows if c.startswith(FORMULA_STARTS)]
        if not all(guarded):
            probs.append("no rows")
        ctx.check("guarded", probs[:3], repro)
        probs = []
        for g_rows, r_rows in zip(guarded, raw):
            if len(g_rows) != len(r_rows):
                probs.append(f"{len(r_rows)} raw cells, {len(g_rows)} guarded")
            for g, w in zip(g_rows, r_rows):
                if g != (("'" + w) if w.startswith(FORMULA_STARTS) else w):
                    probs.append(f"guarded {g!r} is not raw {w!r} with a leading '")
        seen = {c for rows in raw for c in rows}
        probs += [f"--raw lost {t!r}" for t in sorted(texts) if t not in seen]
        lines = {(o.get("player_1"), o.get("player_2"), o.get("title")) for o in map(json.loads, runs[4].out.splitlines())}
        if lines != {f[1:] for f in files}:
            probs.append(f"JSON lines changed the text: {sorted(lines)[:2]!r}")
        ctx.check("raw-exact", probs[:4], repro)

    text = _formula_text()
    hc.drive(ctx, st.tuples(text, text, text, text), n, seed, body)


def _cells(out: bytes, numeric: frozenset[str] | None) -> list[str]:
    """The text cells of a CSV: export's but its number columns (``numeric``); stats's names (None)."""
    rows = list(csv.DictReader(io.StringIO(out.decode("utf-8", "replace"))))
    return [v or "" for row in rows for k, v in row.items() if (k not in numeric if numeric is not None else k == "name")]


# =============================================================================
# deep: folders nested past recursion and PATH_MAX

PATH_MAX = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096
SHM = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _make_deep(root: Path, depth: int, levels: set[int]) -> None:
    data = (SAMPLES / "standard-match.jsonl").read_bytes()
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for level in range(1, depth + 1):
            os.mkdir("d", dir_fd=fd)
            sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = sub
            if level in levels:
                out = os.open("m.jsonl", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=fd)
                os.write(out, data)
                os.close(out)
    finally:
        os.close(fd)


DEEP_CMDS = (["audit", "--json"], ["audit"], ["stats"], ["export"], ["stats", "--json"])


@campaign_of("deep")
def deep(ctx: Ctx, n: int, seed: int) -> None:
    long = getattr(ctx, "long", False)

    def body(case: tuple[int, list[int], int]) -> None:
        depth, picks, which = case
        tries = [(depth, picks, [DEEP_CMDS[which % len(DEEP_CMDS)]])]
        if ctx.once("deep"):  # the issue's own: 1,200 folders, and a tree past PATH_MAX, every command
            past = [(2500, [10, 2500], list(DEEP_CMDS[:4])), (10_000, [10, 10_000], [DEEP_CMDS[0]])] if long else [(2100, [10, 2100], [DEEP_CMDS[0]])]
            tries = [(1200, [10, 1200], list(DEEP_CMDS[:4] if long else DEEP_CMDS[:3:2])), *past, *tries]
        for depth_, picks_, cmds in tries:
            # in memory where there is a tmpfs: thousands of folders made and removed on a disk cost seconds
            root = Path(tempfile.mkdtemp(prefix="ginlog-deep-", dir=SHM)) / "root"
            root.mkdir()
            levels = {max(1, min(depth_, p)) for p in picks_}
            _make_deep(root, depth_, levels)
            try:
                runs = ctx.run(*(Cmd([*c, str(root)], fork=True) for c in cmds))
            finally:
                remove_deep(root)
                root.parent.rmdir()
            base = len(os.fsencode(str(root)))
            reachable = sorted(lv for lv in levels if base + 2 * lv + len("/m.jsonl") < PATH_MAX - 16)
            beyond = sorted(lv for lv in levels if base + 2 * lv + len("/m.jsonl") >= PATH_MAX + 16)
            for r in runs:
                repro = f"{depth_:,} nested folders, matches at depths {sorted(levels)}: {r.cmd.shell()[:60]} ROOT"
                probs = basic(r, (0, 1))
                if b"RecursionError" in r.both:
                    probs.append("RecursionError")
                ctx.check("no-crash", probs + raw_problems(r.both, colour=False), repro)
                said = [ln for ln in r.err_lines() if "past the system's limit" in ln]
                probs = []
                if beyond and r.rc != 1:
                    probs.append(f"exit {r.rc}: a folder past PATH_MAX is a problem, never a skip")
                if len(said) > max(1, len(beyond)) or (beyond and not said and "--json" not in r.cmd.args):
                    probs.append(f"{len(said)} lines about the limit: {r.err[-300:]!r}")
                ctx.check("one-line", probs, repro)
                if r.cmd.args[:2] == ["audit", "--json"]:
                    files = (r.json() or {}).get("files") or []
                    ok = sum(1 for f in files if f.get("ok"))
                    probs = [] if ok == len(reachable) else [f"{ok} files audited, not {len(reachable)} (depths {reachable})"]
                    if beyond and not any("past the system's limit" in json.dumps(f) for f in files):
                        probs.append("the files past PATH_MAX not named")
                    ctx.check("every-file", probs, repro)

    depth = st.integers(1100, 12_000 if long else 1300)
    hc.drive(ctx, st.tuples(depth, st.lists(st.integers(1, 12_000), min_size=1, max_size=3), st.integers(0, 99)), n, seed, body)


# =============================================================================
# jobs: a huge --jobs


@campaign_of("jobs")
def jobs(ctx: Ctx, n: int, seed: int) -> None:
    d = ctx.dir("jobs")
    files = [str(write_file(d / f"{name}.jsonl", (SAMPLES / f"{name}-match.jsonl").read_bytes())) for name in ("standard", "score-pad")]
    files.append(str(SAMPLES / "invalid" / "wrong-turn.jsonl"))
    (one,) = ctx.run(Cmd(["audit", "--json", *files], fork=True))

    def body(case: tuple[int, str]) -> None:
        value, where = case
        fixed = ([MAX_JOBS + 1, 1_000_000, 10**30] if getattr(ctx, "long", False) else [1_000_000]) if ctx.once("jobs") else []
        tries = [value, *fixed]
        for v in tries:
            # another ginlog (the old one) started that many processes: capped there, for the machine's sake
            asked = min(v, 40) if hc.UNDER_TEST else v
            args = ["audit", "--json", *files, "--jobs", str(asked)] if where == "after" else ["audit", "--jobs", str(asked), "--json", *files]
            (r,) = ctx.run(Cmd(args, fork=True, timeout=60))
            repro = f"ginlog {' '.join(args)[:200]}"
            ctx.check("no-crash", basic(r, (0, 1)) + raw_problems(r.both, colour=False), repro)
            said = [ln for ln in r.err_lines() if "--jobs" in ln]
            want = f"ginlog: --jobs {asked} is more than {MAX_JOBS} (4 a CPU): using {MAX_JOBS}"
            ctx.check("one-line", [] if said == [want] else [f"said {said[:2]!r}, not {want!r}"], repro)
            same = (r.rc, _verdicts(r)) == (one.rc, _verdicts(one))
            ctx.check("same-verdict", [] if same else [f"exit {r.rc}, not {one.rc}, or other verdicts than --jobs 1"], repro)

    value = st.one_of(st.integers(MAX_JOBS + 1, 4 * MAX_JOBS), st.integers(100, 10**6), st.integers(10**6, 10**40))
    hc.drive(ctx, st.tuples(value, st.sampled_from(["after", "before"])), n, seed, body)


def _verdicts(r: Run) -> Any:
    data = r.json() or {}
    return [(f.get("file"), f.get("ok"), f.get("hands"), [e.get("rule") for e in f.get("errors") or []]) for f in data.get("files") or []]


# =============================================================================
# entry: longer than the longest legal one


ENTRY_WORDS = ("note", "dealer", "result", "void", "abandon", "take", "undo", "")


@campaign_of("entry")
def entry(ctx: Ctx, n: int, seed: int) -> None:
    long = getattr(ctx, "long", False)

    def body(case: tuple[str, str, int, str]) -> None:
        word, piece, extra, how = case
        text = (f"{word} " if word else "") + piece * (1 + (MAX_ENTRY + extra) // len(piece))
        tries = [(text, how, False)]
        if ctx.once("entry"):  # the issue's own: one past the cap, a pasted screenful; the longest note is taken
            tries += [("note " + "x" * MAX_ENTRY, "play", False), ("dealer " + "Ann " * 50_000, "record", False),
                      ("note " + "x" * MAX_TEXT, "play", True)]
        for text_, how_, legal in tries:
            if how_ == "play" and len(text_.encode()) > 120_000:  # past what execve takes as one argument (128 KiB)
                how_ = "record"
            d = ctx.dir("entry")
            m = d / "m.jsonl"
            write_file(m, rc.match_bytes(hi.base_events("standard", 1, "full", 1)[:1], ctx.work))
            before = m.read_bytes()
            cmd = (Cmd(["play", str(m), text_], fork=True) if how_ == "play"
                   else Cmd(["record", str(m)], stdin=(text_.replace("\n", " ") + "\nquit\n").encode(), fork=True))
            (r,) = ctx.run(cmd)
            repro = f"{how_} with an entry of {len(text_):,} characters ({text_[:40]!r}...)"
            ctx.check("no-crash", basic(r, (0, 1)) + raw_problems(r.both, colour=False), repro)
            after = m.read_bytes()
            if legal:
                ctx.check("longest-taken", [] if r.rc == 0 and after.count(b"\n") == 2 else [f"exit {r.rc}: {r.err[-200:]!r}"], repro)
                continue
            said = [ln for ln in hc.visible(r).splitlines() if "no entry is longer than" in ln]
            probs = [] if r.rc == 1 else [f"exit {r.rc}, not 1"]
            probs += [] if after == before else ["the file changed"]
            probs += [] if len(said) == 1 and len(said[0]) < 200 else [f"{len(said)} lines refuse it; output {len(r.both):,} bytes: {r.both[:160]!r}"]
            ctx.check("refused", probs, repro)
            ctx.check("at-once", [] if r.seconds < 5 and len(r.both) < 4000 else [f"{r.seconds:.1f} s, {len(r.both):,} bytes of output"], repro)

    piece = st.sampled_from(["x", "Ann ", "25 ", "\x1b[2J", "[red]x[/red] ", "\u202e", "é", "note ", " ", "😀"])
    extra = st.integers(1, 200_000 if long else 20_000)
    hc.drive(ctx, st.tuples(st.sampled_from(ENTRY_WORDS), piece, extra, st.sampled_from(["play", "record"])), n, seed, body)


# =============================================================================
# closed: a standard stream closed by the caller


def _closed_cmds(m: Path, sample: str) -> dict[str, list[str]]:
    return {"record": ["record", str(m)], "replay-step": ["replay", "--step", sample], "replay": ["replay", sample],
            "score-stdin": ["score", "-"], "audit-stdin": ["audit", "-"], "show": ["show", str(m)], "undo": ["undo", str(m)],
            "play": ["play", str(m), "dealer Ann"], "validate": ["validate", sample], "stats": ["stats", sample]}


@campaign_of("closed")
def closed(ctx: Ctx, n: int, seed: int) -> None:
    sample = str(SAMPLES / "standard-match.jsonl")

    def body(case: tuple[str, tuple[int, ...]]) -> None:
        which, fds = case
        tries = [(which, fds)]
        if ctx.once("closed"):  # the issue's own: record <&-, replay --step <&-; play >&- still records
            tries += [("record", (0,)), ("replay-step", (0,)), ("play", (1,))]
        for which_, fds_ in dict.fromkeys(tries):
            d = ctx.dir("closed")
            m = write_file(d / "m.jsonl", rc.match_bytes(hi.base_events("standard", 1, "full", 1)[:1], ctx.work))
            before = m.read_bytes()
            cmd = Cmd(_closed_cmds(m, sample)[which_], fork=True, closed=fds_, timeout=10)
            (r,) = ctx.run(cmd)
            repro = cmd.shell()[:200]
            ctx.check("no-crash", basic(r, (0, 1)) + raw_problems(r.both, colour=False), repro)
            after = m.read_bytes()
            if which_ == "play":  # an entry given on the command line is recorded, whatever became of the output
                ok = r.rc == 0 and after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
                lines = after.count(b"\n")
                ctx.check("nothing-lost", [] if ok else [f"exit {r.rc}, {lines} lines"], repro)
            elif which_ != "undo" or 0 in fds_:
                ctx.check("nothing-lost", [] if after == before else ["the match file changed"], repro)

    fds = st.sampled_from([(0,), (0,), (1,), (0, 1), (2,), (0, 2)])
    hc.drive(ctx, st.tuples(st.sampled_from(sorted(_closed_cmds(Path("m"), "s"))), fds), n, seed, body)


# =============================================================================
# clock: a clock out of range

_NS_LAST = (253402300800 * 10**9) - 1  # 9999-12-31T23:59:59.999999999Z


@campaign_of("clock")
def clock(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[int, str]) -> None:
        ns, how = case
        tries = [(ns, how)]
        if ctx.once("clock"):  # the issue's own: before 1970, past what gmtime takes, past int64 nanoseconds (2262)
            tries += [(-1, "new"), (2**64 * 10**9, "play"), (2**63 + 10**9, "play"), (-(2**63) - 1, "new")]
        for ns_, how_ in dict.fromkeys(tries):
            d = ctx.dir("clock")
            m = d / "m.jsonl"
            if how_ != "new":
                write_file(m, rc.match_bytes(hi.base_events("standard", 1, "full", 1)[:1], ctx.work))
            before = m.read_bytes() if m.exists() else None
            args = {"new": ["new", str(m), "--player", "Ann", "--player", "Bob"], "play": ["play", str(m), "dealer Ann"],
                    "record": ["record", str(m)]}[how_]
            cmd = Cmd(args, fork=True, clock_ns=ns_, stdin=b"dealer Ann\nquit\n" if how_ == "record" else None)
            (r,) = ctx.run(cmd)
            repro = cmd.shell()[:200]
            ctx.check("no-crash", basic(r, (0, 1)) + raw_problems(r.both, colour=False), repro)
            writable = 0 <= ns_ <= _NS_LAST
            after = m.read_bytes() if m.exists() else None
            probs = []
            if writable:
                added = (after or b"")[len(before or b""):].splitlines()
                want = ts_of_ns(ns_)
                if r.rc != 0 or not added:
                    probs.append(f"a clock ginlog writes refused: exit {r.rc}, {r.err[-200:]!r}")
                elif any(json.loads(x).get("ts") != want for x in added):
                    probs.append(f"written {[json.loads(x).get('ts') for x in added]}, not {want}")
            else:
                if r.rc != 1:
                    probs.append(f"exit {r.rc}, not 1")
                if after != before:
                    probs.append("the file was made or changed" + (f": ts {json.loads(after.splitlines()[-1]).get('ts')!r}" if after else ""))
                if how_ != "record":
                    probs += _one_line(r, rule="clock")
                elif b"[clock]" not in r.both:
                    probs.append("no [clock] said")
            ctx.check("verdict", probs, repro)

    ns = st.one_of(st.integers(-(2**80), -1), st.integers(_NS_LAST + 1, 2**90), st.integers(2**63, _NS_LAST),
                   st.integers(0, 2**63 - 1), st.sampled_from([-1, 0, 2**63, -(2**63), _NS_LAST, _NS_LAST + 1, 2**64 * 10**9]))
    hc.drive(ctx, st.tuples(ns, st.sampled_from(["new", "play", "record"])), n, seed, body)


# =============================================================================
# header: an OpenSpiel header with thousands of digits

HEADER_KEYS = ("gin_bonus", "undercut_bonus", "knock_card", "num_ranks", "num_suits", "hand_size", "oklahoma")


@campaign_of("header")
def header(ctx: Ctx, n: int, seed: int) -> None:
    record = record_file().decode("utf-8").splitlines()
    at = record.index("[Game]") + 1
    long = getattr(ctx, "long", False)

    def body(case: tuple[str, int, str, int, bool]) -> None:
        key, digits, sign, zeros, in_key = case
        if zeros and not in_key:  # leading zeros before a legal value: no digits of it
            line, legal = f"gin_rummy(gin_bonus={'0' * zeros}20,undercut_bonus=10)", True
        else:
            line, legal = f"gin_rummy({'k' * digits + '=1' if in_key else f'{key}={sign}' + '9' * digits},undercut_bonus=10)", False
        tries = [(line, legal)]
        if ctx.once("header"):  # the issue's own: 5,000 digits in a value and in a name; leading zeros are no digits
            tries += [("gin_rummy(gin_bonus=" + "9" * 5000 + ")", False), ("gin_rummy(" + "k" * 5000 + "=1)", False),
                      ("gin_rummy(gin_bonus=" + "0" * 5000 + "20)", True)]
        for line_, legal in tries:
            d = ctx.dir("header")
            lines = list(record)
            lines[at] = line_
            write_file(d / "r.txt", ("\n".join(lines) + "\n").encode())
            (r,) = ctx.run(Cmd(["import", "openspiel", "r.txt", "-o", "out"], cwd=d, fork=True))
            repro = f"[Game] {line_[:60]}... ({len(line_):,} characters): ginlog import openspiel r.txt -o out"
            ctx.check("no-crash", basic(r, (0, 1)) + raw_problems(r.both, colour=False), repro)
            if legal:
                ctx.check("verdict", [] if r.rc == 0 else [f"a legal header refused: {r.err[:200]!r}"], repro)
            else:
                probs = [] if r.rc == 1 else [f"exit {r.rc}, not 1"]
                probs += _one_line(r, rule="parameter")
                if (d / "out").exists() and any((d / "out").iterdir()):
                    probs.append("refused, yet a match was written")
                ctx.check("verdict", probs, repro)

    digits = st.integers(4300, 50_000 if long else 8000)
    hc.drive(ctx, st.tuples(st.sampled_from(HEADER_KEYS), digits, st.sampled_from(["", "-", "+"]),
                            st.sampled_from([0, 0, 0, 1, 4301, 6000]), st.booleans()), n, seed, body)


# =============================================================================
# timestamp: times the writer would never write


@st.composite
def never_written(draw: st.DrawFn) -> str:
    """A ``ts`` no ginlog writes: no such day, a year out of range, the wrong precision."""
    how = draw(st.sampled_from(["feb29", "day31", "year", "precision", "range", "zone"]))
    year, month, day, frac = draw(st.integers(FIRST_YEAR, LAST_YEAR)), draw(st.integers(1, 12)), draw(st.integers(1, 28)), ".000"
    if how == "feb29":
        year = draw(st.integers(FIRST_YEAR, LAST_YEAR).filter(lambda y: not (y % 4 == 0 and (y % 100 or y % 400 == 0))))
        month, day = 2, draw(st.sampled_from([29, 30, 31]))
    elif how == "day31":
        month, day = draw(st.sampled_from([4, 6, 9, 11])), 31
    elif how == "year":
        year = draw(st.integers(0, FIRST_YEAR - 1))
    elif how == "precision":
        frac = draw(st.sampled_from(["", ".1", ".12", ".1234", ".123456", ".123456789"]))
    elif how == "range":
        month, day = draw(st.sampled_from([(0, 1), (13, 1), (1, 0), (1, 32), (12, 99)]))
    ts = f"{year:04d}-{month:02d}-{day:02d}T{draw(st.integers(0, 23)):02d}:{draw(st.integers(0, 59)):02d}:{draw(st.integers(0, 59)):02d}{frac}Z"
    if how == "zone":
        ts = ts[:-1] + draw(st.sampled_from(["+00:00", "z", "", "Z ", " Z"]))
    return ts


@st.composite
def real_time(draw: st.DrawFn) -> str:
    """A ``ts`` the writer could write (leap days, the first and last years): no false alarm."""
    year = draw(st.sampled_from([FIRST_YEAR, 2000, 2024, 2028, 2400, LAST_YEAR]) | st.integers(FIRST_YEAR, LAST_YEAR))
    month = draw(st.integers(1, 12))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    day = draw(st.integers(1, [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]))
    return f"{year:04d}-{month:02d}-{day:02d}T23:59:59.{draw(st.integers(0, 999)):03d}Z"


@campaign_of("timestamp")
def timestamp(ctx: Ctx, n: int, seed: int) -> None:
    objs = objs_of(hi.base_events("standard", 1, "full", 1), ctx.work)

    def body(case: tuple[list[str], list[str], int]) -> None:
        bad, good, pick = case
        if ctx.once("timestamp"):
            bad = [*bad, "2026-02-29T12:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-11-29T19:56:25Z"]
        d = ctx.dir("ts")
        plan = []
        for k, ts in enumerate([*bad, *good]):
            line = 1 + (pick + k) % len(objs)
            forged = [dict(o) for o in objs]
            forged[line - 1]["ts"] = ts
            f = write_file(d / f"t{k:02d}.jsonl", chain(forged))
            plan.append((f, ts, line, not valid_ts(ts)))
        runs = ctx.run(Cmd(["audit", "--json", str(d)], fork=True), Cmd(["validate", *(str(f) for f, *_ in plan)], fork=True))
        for r in runs:
            ctx.check("no-crash", basic(r, (0, 1)) + raw_problems(r.both, colour=False), r.cmd.shell()[:120])
        by_path = {f.get("file"): f for f in (runs[0].json() or {}).get("files") or []}
        for f, ts, line, refused in plan:
            repro = f"ts {ts!r} at line {line} of a legal match: ginlog audit --json FOLDER; ginlog validate FILE"
            got = by_path.get(str(f)) or {}
            rules = [(e.get("rule"), e.get("line")) for e in got.get("errors") or []]
            said = [ln for ln in runs[1].err_lines() if ln.startswith(f"{f}:")]
            if refused:
                probs = [] if ("timestamp", line) in rules else [f"audit --json: {rules[:3]}, no [timestamp] at line {line}"]
                if not any(ln.startswith(f"{f}:{line}:") and ln.endswith("[timestamp]") and LINE.match(ln) for ln in said):
                    probs.append(f"validate: {said[:1]!r}")
                if runs[1].rc != 1:
                    probs.append(f"validate exit {runs[1].rc}")
                ctx.check("refused", probs, repro)
            else:
                probs = [f"a real time refused: {rules[:3]}"] if any(r_ == "timestamp" for r_, _ in rules) else []
                ctx.check("no-false-alarm", probs + [f"validate: {s!r}" for s in said if "[timestamp]" in s][:1], repro)

    hc.drive(ctx, st.tuples(st.lists(never_written(), min_size=1, max_size=5), st.lists(real_time(), min_size=1, max_size=2), st.integers(0, 99)),
             n, seed, body)
