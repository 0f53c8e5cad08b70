"""Four surfaces at the edges, attacked as a hostile user or program would (registered in :mod:`hostile_campaign`):
the recorder's history file, ``new --rematch OLD``, ``NAME +POINTS`` quick entries, and ``-o`` output paths.

Each campaign draws inputs from the strategies of :mod:`hostile_inputs` (plus explicit nasty examples: escape
sequences, OSC 8 links, bidi overrides, rich markup, NUL, very long text, invalid UTF-8), runs the real
``ginlog`` through :class:`hostile_campaign.Ctx` and records every check with a reproducer.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import hostile_campaign as hc
import hostile_inputs as hi
from hostile_campaign import Cmd, Ctx, Run, basic, campaign_of, raw_problems
from hostile_inputs import chain, cli_safe, objs_of
from hostile_checks import LINE, record_file, write_file
import reliability_campaigns as rc

from ginlog.app.record.entry import parse_entry
from ginlog.errors import GinlogError
from ginlog.game.rules import preset
from ginlog.game.scoring import check_hand_points
from ginlog.log.events import FirstDealer, event_from_line
from ginlog.match.session import MatchSession
from ginlog.play.reducer import apply, fold
from ginlog.text import check_players
from ginlog.text import visible as shown

TMP = re.compile(r"\.tmp\d+$")


def _events(path: Path) -> list[Any]:
    return [event_from_line(json.loads(x)) for x in path.read_bytes().splitlines()]


def _temps(d: Path) -> list[str]:
    """Temporary files a command left anywhere under ``d``."""
    return [os.fsdecode(p.name)[-40:] for p in d.rglob("*") if TMP.search(os.fsdecode(p.name))]


def _names_file(err: str, *paths: str | bytes) -> bool:
    """Whether an error line names one of ``paths`` in its shown form (a long one by its start)."""
    seen = hc.squash(err)
    return any(hc.squash(shown(os.fsdecode(p)))[:80] in seen for p in paths)


def _one_line(r: Run, *paths: str | bytes) -> list[str]:
    probs = [] if len(r.err_lines()) == 1 else [f"{len(r.err_lines())} lines on stderr: {r.err[:160]!r}"]
    if paths and not _names_file(r.err.decode("utf-8", "replace"), *paths):
        probs.append(f"the error does not name the file: {r.err[:160]!r}")
    return probs + raw_problems(r.err, colour=False)


# =============================================================================
# history: the recorder's .MATCH.history, planted hostile


def _history_bytes(entries: list[str]) -> bytes:
    """A prompt_toolkit history file (``# date`` then ``+line`` per line of an entry), as the recorder writes it."""
    out = b""
    for e in entries:
        out += b"\n# 2026-12-01 12:00:00.000000\n" + b"".join(b"+" + ln.encode("utf-8", "surrogateescape") + b"\n" for ln in e.split("\n"))
    return out


#: The issue's kind of entries, planted in a history: escapes, OSC 8, bidi, markup, NUL, a legal entry last.
HISTORY_FIXED = ["note \x1b[2J\x1b]0;pwned\x07", "note \x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\", "dealer Ann\u202e",
                 "[red]x[/red] [link=http://evil.example]y[/link] [/]", "note a\x00b\x9b31m\u200b", "note two\nlines\rCR",
                 "note " + "long " * 400, "dealer Ann"]
KEYS = [b"\x1b[A\r", b"\x1b[A\x1b[A\r", b"\x1b[A\x1b[B\x1b[A\r", b"\x1b[A\x1b[A\x1b[A\x1b[B\r"]


def _planted(data: bytes) -> list[str]:
    """The entries prompt_toolkit reads from a history file's bytes (as its FileHistory does)."""
    out, lines = [], []
    for raw in data.splitlines(keepends=True):
        line = raw.decode("utf-8", "replace")
        if line.startswith("+"):
            lines.append(line[1:])
        else:
            if lines:
                out.append("".join(lines)[:-1])
            lines = []
    if lines:
        out.append("".join(lines)[:-1])
    return out


def _candidates(entries: list[str], tl: Any) -> list[list[Any]]:
    """What each entry, recalled in its shown form and accepted, would append (the legal ones only)."""
    out = []
    for e in entries:
        try:
            evs = parse_entry(shown(e), tl)
            t = tl
            for ev in evs:
                t = apply(t, ev)
        except GinlogError:
            continue
        out.append(evs)
    return out


#: History files that are not a plain file of their own: never read, written or followed (only 'dealer Ann' typed).
_PLAIN_ONLY = ("symlink", "dangling", "hardlink", "fifo", "folder")


@campaign_of("history")
def history(ctx: Ctx, n: int, seed: int) -> None:
    other = hc.other_user()
    if other is None:
        ctx.tally.skip("unreadable", "tests run as root and setpriv is missing: permissions do not bite")

    def body(case: tuple[list[str], bool, bytes, bytes, int]) -> None:
        entries, legal_last, garbage, keys, kind_pick = case
        entries = [*entries, *(["dealer Ann"] if legal_last else [])]
        fixed = ctx.once("history")
        d = ctx.dir("hist")
        kinds = ["hostile", "garbage", "huge", "symlink", "dangling", "hardlink", "fifo", "folder", "unreadable"]
        chosen = kinds if fixed else ["hostile", "garbage", kinds[kind_pick % len(kinds)]]
        runs: list[tuple[str, Path, bytes, list[str], Cmd]] = []
        outside = write_file(d / "outside.txt", _history_bytes(["note \x1b]0;outside\x07"]))
        for kind in dict.fromkeys(chosen):
            sub = d / kind
            sub.mkdir()
            sub.chmod(0o777)
            m = sub / "m.jsonl"
            MatchSession.create(m, ("Ann", "Bob"), preset("standard"))
            m.chmod(0o666)
            h = sub / ".m.jsonl.history"
            if kind == "hostile":
                write_file(h, _history_bytes(entries))
            elif kind == "garbage":
                write_file(h, garbage + b"\n+\xff\xfe\x00\x1b[2J\n+" + garbage)
            elif kind == "huge":  # 4 MB of entries: loaded in the background, never a hang
                write_file(h, _history_bytes(["note " + "x\x1b[2J" * 50] * 2000) * 4)
            elif kind == "symlink":
                os.symlink(outside, h)
            elif kind == "dangling":
                os.symlink(sub / "nowhere" / "hist", h)
            elif kind == "hardlink":  # the history as a second name of the match file itself
                os.link(m, h)
            elif kind == "fifo":
                os.mkfifo(h)
            elif kind == "folder":
                h.mkdir()
            elif kind == "unreadable":
                if other is None:
                    continue
                write_file(h, _history_bytes(entries))
            typed = (b"dealer Ann\r" if kind in _PLAIN_ONLY else keys) + b"quit\r"
            cmd = Cmd(["record", str(m)], stdin=typed, tty=True, fifo=kind == "fifo", timeout=25.0, nobody=kind == "unreadable")
            planted = _planted(h.read_bytes()) if h.is_file() and not h.is_symlink() and kind != "hardlink" else []
            if kind == "unreadable":
                h.chmod(0)
            runs.append((kind, m, m.read_bytes(), planted, cmd))
        outside_before = outside.read_bytes()
        results = ctx.run(*(c for *_, c in runs))
        text = "\n".join(entries)
        for (kind, m, before, planted, cmd), r in zip(runs, results):
            repro = f"a {kind} history beside m.jsonl ({[e[:40] for e in planted][:4]}); {cmd.shell()[:120]} typing {cmd.stdin!r}"[:600]
            ctx.check("no-crash", basic(r, (0, 1)), repro)
            ctx.check("raw", raw_problems(r.both, colour=True, editor=text if kind != "garbage" else garbage.decode("utf-8", "replace")), repro)
            after = m.read_bytes()
            probs = []
            if after != before:
                if not after.startswith(before):
                    probs.append("the match file was rewritten")
                else:
                    tl = fold([event_from_line(json.loads(before.splitlines()[0]))])  # the match as it began
                    added: list[object]
                    try:
                        added = [event_from_line(json.loads(x)) for x in after[len(before) :].splitlines()]
                    except (ValueError, GinlogError):
                        added = [f"lines that are not events: {after[len(before):][:80]!r}"]
                    legal = _candidates(planted, tl) + ([parse_entry("dealer Ann", tl)] if kind in _PLAIN_ONLY else [])
                    if added not in legal:
                        probs.append(f"appended {added!r:.200}, not a legal entry of the history")
            ctx.check("match-file", probs, repro)
            if kind in _PLAIN_ONLY:
                h = m.with_name(".m.jsonl.history")
                probs = []
                if outside.read_bytes() != outside_before:
                    probs.append("the symlink's target was written")
                if kind in ("symlink", "dangling") and not h.is_symlink():
                    probs.append("the symlink was replaced")
                if kind == "dangling" and (m.parent / "nowhere").exists():
                    probs.append("the dangling link's target was made")
                if kind == "fifo" and not h.is_fifo():
                    probs.append("the FIFO was replaced")
                if kind == "folder" and not h.is_dir():
                    probs.append("the folder was replaced")
                if kind == "hardlink" and os.stat(h).st_nlink != 2:
                    probs.append("the hard link was replaced")
                try:
                    written = len(_events(m)) - 1
                except (ValueError, GinlogError):
                    written = -1
                if r.rc != 0 or written != 1:
                    probs.append(f"exit {r.rc}, {written} event(s) written for 'dealer Ann' (-1: the record no longer reads)")
                ctx.check("not-followed", probs, repro)
            if kind == "unreadable":
                ctx.check("unreadable", basic(r, (0,)), repro)

    strat = st.tuples(st.lists(hi.free_text(300), min_size=1, max_size=5), st.booleans(), st.binary(min_size=1, max_size=300),
                      st.sampled_from(KEYS), st.integers(0, 99))
    hc.drive(ctx, strat, n, seed, body, explicit=[(HISTORY_FIXED, False, b"\xff\xfe\x00\x1b]0;x\x07\xc3(\xed\xa0\x80", KEYS[0], 0)])


# =============================================================================
# rematch: ginlog new NEW --rematch OLD


def _old_file(ctx: Ctx, d: Path, kind: str, case: Any) -> tuple[Path, bool]:
    """OLD of ``kind`` in ``d`` (hostile title, names and tool from ``case``), and whether a reader takes it whole."""
    objs = objs_of(hi.base_events("standard", 1, "full", 1), ctx.work)
    objs[0]["title"] = case.title
    objs[0]["tool"] = case.tool
    objs = [hi.rename(o, {"Ann": case.names[0], "Bob": case.names[1]}) for o in objs]
    old = d / "old.jsonl"
    if kind == "hostile":
        write_file(old, chain(objs))
    elif kind == "start-only":
        write_file(old, chain(objs[:1]))
    elif kind == "torn":
        data = chain(objs)
        write_file(old, data[: len(data) - 7])
    elif kind == "tampered":
        data = chain(objs)
        write_file(old, data.replace(b'"seq":3,', b'"seq":3, ', 1))
    elif kind == "junk":
        write_file(old, b"\xff\xfe\x00not json \x1b[2J\n")
    elif kind == "empty":
        write_file(old, b"")
    elif kind == "huge":  # 10,000 notes of 1,000 characters after the hand
        ts = objs[-1]["ts"]
        objs += [{"seq": len(objs) + i + 1, "ts": ts, "type": "note", "v": 2, "prev": None, "text": "n" * 1000} for i in range(10_000)]
        write_file(old, chain(objs))
    elif kind == "fifo":
        os.mkfifo(old)
    elif kind == "folder":
        old.mkdir()
    elif kind == "symlink":
        write_file(d / "real.jsonl", chain(objs))
        os.symlink(d / "real.jsonl", old)
    if kind not in ("fifo", "folder"):
        from ginlog.match.reading import read_match

        try:
            read_match(str(old))
            return old, True
        except GinlogError:
            return old, False
    return old, False


REMATCH_KINDS = ("hostile", "start-only", "torn", "tampered", "junk", "empty", "huge", "fifo", "folder", "symlink", "missing", "exists", "usage")
#: The issue's own: markup and escape names, a title of OSC 8 and a bidi override, a title at the length limit.
REMATCH_FIXED: tuple[tuple[str, str], str, str] = (
    ("[/]", "[red]x[/red]"), "\x1b]8;;http://evil.example/\x1b\\t\x1b]8;;\x1b\\\u202e [link=x]y[/link]", "t" * 1995)


@campaign_of("rematch")
def rematch(ctx: Ctx, n: int, seed: int) -> None:
    from hostile_checks import TermCase, term_cases

    def body(case: tuple[Any, int, bool]) -> None:
        tc, pick, tty = case
        cases = [(tc, REMATCH_KINDS[pick % len(REMATCH_KINDS)], tty), (tc, "hostile", not tty)]
        if ctx.once("rematch"):
            names, osc, long = REMATCH_FIXED
            odd = TermCase(names, "", "", "", "", osc, "\x1b[31mtool", "", "finished", 1)
            plain = TermCase(("Ann", "Bob"), "", "", "", "", long, "t", "", "finished", 1)
            cases += [(odd, "hostile", True), (plain, "start-only", False), (dataclasses.replace(plain, title="x\ud800y"), "hostile", False)]
            cases += [(tc, k, False) for k in REMATCH_KINDS if k not in ("hostile", "start-only")]
        plan = []
        for c, kind, on_tty in cases:
            d = ctx.dir("rematch")
            new = d / "new.jsonl"
            old, readable = (d / "missing.jsonl", False) if kind == "missing" else _old_file(ctx, d, "hostile" if kind in ("exists", "usage") else kind, c)
            args = ["new", str(new), "--rematch", str(old)]
            if kind == "exists":
                args[1] = str(old)
            if kind == "usage":
                args += ["-p", cli_safe(c.names[0]) or "X"]
            before = old.read_bytes() if old.is_file() else None
            plan.append((c, kind, old, new, readable, before, Cmd(args, tty=on_tty, fifo=kind == "fifo")))
        for (c, kind, old, new, readable, before, cmd), r in zip(plan, ctx.run(*(p[-1] for p in plan))):
            repro = f"{kind} OLD (names {c.names!r}, title {c.title[:80]!r}, tool {c.tool[:40]!r}): {cmd.shell()[:120]}"[:700]
            ctx.check("no-crash", basic(r, (0, 1, 2)), repro)
            ctx.check("terminal", raw_problems(r.both, colour=cmd.tty), repro)
            probs = []
            if readable and kind not in ("exists", "usage"):
                if r.rc != 0 or not new.exists():
                    probs.append(f"a readable OLD not rematched: exit {r.rc}, {r.err[:200]!r}")
                else:
                    a, b = _events(new)[0], _events(old)[0]
                    if (a.players, a.rules) != (b.players, b.rules):
                        probs.append(f"NEW has {a.players}, not OLD's {b.players}, or other rules")
            else:
                want = 2 if kind == "usage" else 1
                if r.rc != want:
                    probs.append(f"exit {r.rc}, not {want}")
                if kind != "exists" and new.exists():
                    probs.append("refused, yet NEW was made")
                if kind == "exists" and old.read_bytes() != before:
                    probs.append("OLD was overwritten")
                if kind != "usage":
                    probs += _one_line(r, str(old), str(new)) if not cmd.tty else []
            ctx.check("outcome", probs, repro)

    hc.drive(ctx, st.tuples(term_cases, st.integers(0, 99), st.booleans()), n, seed, body)


# =============================================================================
# pad: NAME +POINTS quick entries


POINTS_FIXED = ["", "-1", "1e9", "9" * 5000, "\u0663", "25x", "+25", "0", "119", "25\u200b", "\uff12\uff15", "2_5", " 25", "25 +3",
                "\x1b[2J", "1" + "0" * 30]


def _clear_points(points: str, most: int) -> bool | None:
    """True: a hand may score it (accept); False: not a whole number in range (refuse); None: not sure."""
    core = points.rstrip()  # white space after the number is no part of it
    if re.fullmatch(r"[0-9]+", core):
        return 1 <= int(core) <= most if len(core) < 30 else False
    return False if "'" not in points and '"' not in points else None


def _typed_name(name: str) -> str | None:
    """How to type a player's name as one word (None: no plain way)."""
    if not name.isprintable() or "'" in name or '"' in name:
        return None
    return f"'{name}'"  # quoted: a player called like an entry word ('Note') is named so too


@campaign_of("pad")
def pad(ctx: Ctx, n: int, seed: int) -> None:
    rules = preset("classic")
    most = 118

    def body(case: tuple[tuple[str, str], list[tuple[str, str]]]) -> None:
        names, wanted = case
        try:
            first, second = check_players([cli_safe(x) for x in names])
            players = (first, second)
        except GinlogError:
            players = ("Ann", "Bob")
        fixed = ctx.once("pad")
        tries: list[tuple[tuple[str, str], str, str, bool | None]] = []  # players, name typed, points, accepted?
        for who, points in wanted:
            typed = _typed_name(players[0]) if who == "first" else "Zed\u0430" if who == "unknown" else cli_safe(who)
            if typed is None:
                continue
            sure = _clear_points(points, most)
            verdict = sure if who == "first" else (False if who == "unknown" else None)
            tries.append((players, typed, points, verdict))
        generated = len(tries)
        if fixed:  # the issue's own: every bad POINTS; unknown, ambiguous, look-alike and control names
            tries += [(("Ann", "Bob"), "Ann", p, _clear_points(p, most)) for p in POINTS_FIXED]
            tries += [(("Ann", "Annabel"), "An", "25", False), (("Ann", "Annabel"), "ann", "25", True), (("Ann", "Bob"), "\u0410nn", "25", False),
                      (("Ann", "Bob"), "Ann\x1b[2J", "25", False), (("Ann", "Bob"), "A\u202enn", "25", False), (("Ann", "Bob"), "Zed", "25", False),
                      (("Mary Ann", "Bob"), "'Mary Ann'", "31", True), (("Mary Ann", "Bob"), "Mary Ann", "31", False),
                      (("Ann", "Bob"), "Ann", str(most), True), (("Ann", "Bob"), "Ann", str(most + 1), False)]
        plan = []
        for i, (players_, typed, points, verdict) in enumerate(tries):
            # a generated entry both ways; the fixed ones one way each, in turn (the small run stays small)
            for how in ("play", "record") if i < generated else (("play", "record")[i % 2],):
                d = ctx.dir("pad")
                m = d / "m.jsonl"
                MatchSession.create(m, players_, rules)
                MatchSession.open(m).append([FirstDealer(dealer=players_[0], how="agreed")])
                entry = f"{typed} +{points}"
                cmd = Cmd(["play", str(m), entry]) if how == "play" else Cmd(["record", str(m)], stdin=(entry.replace("\n", " ") + "\nquit\n").encode())
                plan.append((players_, entry, verdict, m, m.read_bytes(), cmd))
        runs = ctx.run(*(p[-1] for p in plan))
        scores = []
        for (players_, entry, verdict, m, before, cmd), r in zip(plan, runs):
            repro = f"players {players_!r}: {cmd.shell()[:160]}" + (f" typing {entry!r:.100}" if cmd.args[0] == "record" else "")
            after = m.read_bytes()
            added = after[len(before) :].splitlines() if after.startswith(before) else None
            probs = basic(r, (0, 1))
            probs += raw_problems(r.both, colour=False)
            accepted = r.rc == 0 and added is not None and len(added) == 1
            if verdict is not None and accepted != verdict:
                probs.append(f"{'accepted' if accepted else 'refused'} (exit {r.rc}, {len(added or [])} line(s) added); should be "
                             f"{'accepted' if verdict else 'refused'}: {r.both[-200:]!r}")
            ctx.check("verdict", probs, repro)
            probs = []
            if not accepted:
                if after != before:
                    probs.append("refused, yet the file changed")
                if r.rc != 1:
                    probs.append(f"exit {r.rc}, not 1")
                if cmd.args[0] == "play":
                    probs += _one_line(r, str(m))
                    if not LINE.match(r.err.decode("utf-8", "replace").strip()):
                        probs.append(f"no [rule] in {r.err[-120:]!r}")
                ctx.check("refused", probs, repro)
            else:
                assert added is not None
                got = json.loads(added[0])
                points = entry.rsplit("+", 1)[1].rstrip()
                if got.get("type") != "hand_result" or got.get("how") != "points" or not points.isascii() or got.get("points") != int(points):
                    probs.append(f"written {added[0][:200]!r}")
                if verdict and got.get("winner") != players_[0]:
                    probs.append(f"the winner written is {got.get('winner')!r}, not {players_[0]!r}")
                try:
                    check_hand_points(rules, got.get("points", 0))
                except GinlogError as exc:
                    probs.append(f"written, yet out of range: {exc}")
                ctx.check("accepted", probs, repro)
                scores.append((m, got, repro))
        for (m, got, repro), r in zip(scores, ctx.run(*(Cmd(["score", "--json", str(m)]) for m, *_ in scores))):
            data = r.json() or {}
            hands = data.get("hands") or [{}]
            probs = basic(r, (0,)) + ([] if (hands[-1].get("points"), hands[-1].get("winner")) == (got["points"], got["winner"])
                                      else [f"score --json says {hands[-1]!r:.200}, the file {got}"])
            ctx.check("score-json", probs, repro + "; ginlog score --json m.jsonl")

    point_text = st.one_of(st.integers(1, most).map(str), st.integers(most + 1, 10**40).map(str), st.sampled_from(POINTS_FIXED),
                           st.text(st.characters(exclude_categories=["Cs"]), max_size=6), st.integers(0, 99).map(lambda k: f"{k}\u0663"))
    who = st.one_of(st.sampled_from(["first", "first", "unknown"]), hi.name_text())
    strat = st.tuples(st.tuples(hi.name_text(), hi.name_text()), st.lists(st.tuples(who, point_text), min_size=1, max_size=3))
    hc.drive(ctx, strat, n, seed, body)


# =============================================================================
# output: -o of export, html, a site, import


def _note(ctx: Ctx, text: str) -> None:
    """What a command does where nothing promises otherwise, said once."""
    if text not in ctx.tally.notes:
        ctx.tally.notes.append(text)


@campaign_of("output")
def output(ctx: Ctx, n: int, seed: int) -> None:
    record = record_file()
    other = hc.other_user()
    if other is None:
        ctx.tally.skip("unwritable", "tests run as root and setpriv is missing: permissions do not bite")
    # run in the folder that holds m.jsonl, club/ and rec.txt; -o relative to it
    cmds_of: dict[str, list[str]] = {"export": ["export", "m.jsonl", "-o"], "jsonl": ["export", "m.jsonl", "--format", "jsonl", "--output"],
                                     "html": ["html", "m.jsonl", "--output"], "site": ["html", "club", "--output"],
                                     "import": ["import", "openspiel", "rec.txt", "--output"]}
    # what each kind of -o is tried with (the small run tries each once)
    matrix = {"name": ("export", "html", "site", "import"), "long": ("export", "html", "site", "import"), "bytes": ("jsonl", "html"),
              "dash": ("export", "html"), "match": ("export", "html", "site", "import"), "symlink": ("export", "html"),
              "folder": ("export", "html"), "fifo": ("export", "html", "site", "import"), "missing": ("jsonl", "html"),
              "unwritable": ("export", "html", "site", "import"), "stdout": ("export", "html", "site", "import"),
              "taken": ("import",)}

    def body(case: tuple[str, int, str]) -> None:
        name, pick, kind_ = case
        kinds = list(matrix) if ctx.once("output") else ["name", kind_]
        plan = []
        for kind in dict.fromkeys(kinds):
            if kind == "unwritable" and other is None:
                continue
            for c in matrix[kind]:
                d = ctx.dir("out")
                m = write_file(d / "m.jsonl", rc.match_bytes(hi.base_events("standard", 1, "full", 1), ctx.work))
                club = d / "club"
                club.mkdir()
                write_file(club / "a.jsonl", m.read_bytes())
                write_file(d / "rec.txt", record)
                outside = write_file(ctx.dir("outside") / "keep.txt", b"keep me\n")
                outputs: dict[str, str | bytes] = {"name": name, "long": "x" * 300 + ".out", "bytes": b"caf\xe9\xff.out", "dash": "-x.out", "match": "m.jsonl",
                                  "symlink": "link.out", "folder": "dir", "fifo": "fifo", "missing": "no/such/x.out", "unwritable": "ro/x.out",
                                  "stdout": "-", "taken": "taken"}
                o = outputs[kind]
                if kind == "symlink":
                    os.symlink(outside, d / os.fsdecode(o))
                elif kind == "folder":
                    (d / os.fsdecode(o)).mkdir()
                elif kind == "fifo":
                    os.mkfifo(d / os.fsdecode(o))
                elif kind == "unwritable":
                    (d / "ro").mkdir()
                    (d / "ro").chmod(0o555)
                elif kind == "taken":
                    (d / "taken").mkdir()
                    write_file(d / "taken" / "rec.jsonl", b"mine\n")
                target = os.fsencode(o) if isinstance(o, str) else o
                cmd = Cmd([*cmds_of[c], o], cwd=d, fifo=kind == "fifo", nobody=kind == "unwritable",
                          timeout=hc.HANG_TIMEOUT * 2 if kind == "fifo" else hc.TIMEOUT)
                before = {p: p.read_bytes() for p in (m, outside, d / "taken" / "rec.jsonl") if p.exists()}
                plan.append((kind, c, d, target, outside, before, cmd))
        runs = ctx.run(*(p[-1] for p in plan))
        for (kind, c, d, target, outside, before, cmd), r in zip(plan, runs):
            repro = f"-o {kind}: (cd FOLDER; {cmd.shell()[:200]})"
            path = d / os.fsdecode(target)
            ctx.check("no-crash", basic(r, (0, 1, 2)), repro)
            left = _temps(d)
            ctx.check("no-temp", [f"left {left}"] if left else [], repro)
            probs = raw_problems(r.err, colour=False)
            if r.rc == 0:
                made = path.is_dir() if c in ("site", "import") else kind == "stdout" or path.is_file()
                if not made:
                    probs.append(f"exit 0 and no {'folder' if c in ('site', 'import') else 'file'} {os.fsdecode(target)[:60]!r}")
                if kind == "stdout" and c in ("export", "html") and not r.out:
                    probs.append("-o -: nothing on standard output")
                ctx.check("written", probs, repro)
            else:
                ctx.check("one-line", probs + _one_line(r, target), repro)
            if kind in ("symlink", "match", "taken"):
                changed = [p.name for p, b in before.items() if p.read_bytes() != b]
                if kind == "symlink":
                    ctx.check("not-followed", [f"{changed} written through the symlink"] if outside.name in changed else [], repro)
                if kind in ("taken", "match") or c in ("import", "site"):  # a match record is never written over
                    ctx.check("no-clobber", [f"{changed} overwritten"] if changed else [], repro)
                elif changed:
                    _note(ctx, f"{cmd.shell()[:80]}: exit {r.rc}, the existing {changed} replaced (nothing promises otherwise)")
            if kind == "match" or kind == "stdout" and c in ("site", "import"):  # refused, as a usage slip
                ctx.check("refused", [] if r.rc == 2 else [f"exit {r.rc}, not 2 (refused)"], repro)
            if kind in ("fifo", "stdout") and r.rc == 0 and not (kind == "stdout" and c in ("export", "html")):
                what = "a FIFO" if kind == "fifo" else f"'{os.fsdecode(target)}'"
                _note(ctx, f"{cmd.shell()[:80]}: exit 0; -o {what} became {'a folder' if path.is_dir() else 'a regular file'}")

    pieces = st.sampled_from(["\n", "\r", "\x1b[2J", "\x1b]0;t\x07", "\u202e", "\x07", "\t", "[red]x[/red]", "[/]", "é", " ", "-", "王"])
    name = st.lists(st.one_of(pieces, hi.free_text(20).map(lambda s: cli_safe(s).replace("/", "_"))), min_size=1, max_size=4).map(
        lambda p: ("".join(p) + ".out")[-200:]).filter(lambda s: s not in (".", "..") and not s.startswith("-"))
    hc.drive(ctx, st.tuples(name, st.integers(0, 99), st.sampled_from(sorted(matrix))), n, seed, body)
