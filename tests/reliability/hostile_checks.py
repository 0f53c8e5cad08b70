"""The classes of issue 13, one campaign each (registered in :mod:`hostile_campaign`).

Each campaign draws inputs from hypothesis strategies (plus the issue's own
examples), runs ``ginlog`` on them through :class:`hostile_campaign.Ctx`, and
records every check as held or failed, with a reproducer. A check's name is
``class/what``; ``tests/test_hostile.py`` has one test per check.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

import hostile_campaign as hc
import hostile_inputs as hi
from hostile_campaign import Cmd, Ctx, Run, basic, campaign_of, missing_shown, raw_problems
from hostile_inputs import chain, cli_safe, objs_of
import reliability_campaigns as rc

from ginlog.game.cards import DECK
from ginlog.game.rules import preset
from ginlog.log.events import (
    Correction, FirstDealer, HandResultOnly, HandVoid, MatchAbandoned, MatchStarted, Note,
)
from ginlog.play.reducer import apply, fold
from ginlog.text import visible as shown

TRACEBACK = hc.TRACEBACK
LINE = re.compile(r"^\S.*\[[a-z0-9-]+\]$")  # FILE[:LINE][: event N]: message [rule]


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n")


def _objs(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_bytes().splitlines()]


def write_file(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    path.chmod(0o666)
    return path


def _html_registered(ctx: Ctx) -> bool:
    if not hasattr(hc, "_html"):
        hc._html = ctx.run(Cmd(["html", "--help"]))[0].rc == 0  # type: ignore[attr-defined]
    return bool(hc._html)  # type: ignore[attr-defined]



def _words(args: Sequence[str | bytes]) -> str:
    """Command words for a note: a bytes argument (a hostile file name) shown with backslash escapes, not as b'...'."""
    return " ".join(a if isinstance(a, str) else a.decode("utf-8", "backslashreplace") for a in args)

# =============================================================================
# crash: numbers with thousands of digits


@st.composite
def big_number(draw: st.DrawFn) -> bytes:
    digits = draw(st.one_of(st.integers(1000, 4300), st.sampled_from([4299, 4300, 4301, 5000, 20000])))
    first = draw(st.sampled_from("123456789"))
    sign = draw(st.sampled_from(["", "", "-"]))
    shape = draw(st.sampled_from(["int", "int", "int", "float", "exp"]))
    body = first + "9" * (digits - 1)
    return (sign + body + {"int": "", "float": ".0", "exp": "e5"}[shape]).encode()


_BIG = "@BIG@"


def _big(objs: list[dict[str, Any]], number: bytes) -> bytes:
    return chain(objs).replace(f'"{_BIG}"'.encode(), number)


def _crash_cmds(d: Path, files: list[Path], *, show: bool = True) -> list[Cmd]:
    """validate and a folder audit (with and without --jobs) over ``files`` in ``d``; score and replay of the first."""
    names = [str(f) for f in files]
    return [Cmd(["validate", *names]), Cmd(["audit", "--json", "--jobs", "2", str(d)]),
            *((Cmd(["audit", str(d)]), Cmd(["score", names[0]]), Cmd(["replay", names[0]])) if show else ())]


def _crash_problems(runs: list[Run], only: str | None = None, codes: tuple[int, ...] = (0, 1)) -> list[str]:
    probs = []
    for r in runs:
        where = r.cmd.shell()[:110]
        if only is not None and only not in where and r.cmd.args[0] not in ("validate", "audit"):
            continue
        probs += [f"{where}: {p}" for p in basic(r, codes)]
        if r.cmd.args[0] in ("validate", "audit") and "--json" not in r.cmd.args:
            bad = [ln for ln in r.err_lines() if ln.strip() and not LINE.match(ln)]
            if bad:
                probs.append(f"{where}: not an error line: {bad[0][:120]!r}")
    return probs


#: (where, field, digits) the issue names: a knob with thousands of digits, a claimed points.
CRASH_FIXED = [("knob", "game_bonus", b"9" * 4300), ("points", "points", b"9" * 4300)]


@campaign_of("crash")
def crash(ctx: Ctx, n: int, seed: int) -> None:
    one = st.one_of(
        st.tuples(st.just("knob"), st.sampled_from(hi.INT_KNOBS), big_number()),
        st.tuples(st.just("points"), st.sampled_from(["points", "points", "knocker_deadwood", "defender_deadwood", "undoes"]), big_number()),
    )

    def body(case: tuple[list[tuple[str, str, bytes]], int]) -> None:
        cases, s = case
        cases = [*cases, *(CRASH_FIXED if ctx.once("crash") else [])]
        d = ctx.dir("crash")
        # the same through the command line: ginlog new --set KNOB=DIGITS, then score-pad hands to the end
        knob, number = next(((f, v) for w, f, v in reversed(cases) if w == "knob" and len(v) <= 4300), ("game_bonus", b"9" * 4300))
        points = next((v for w, f, v in reversed(cases) if w == "points"), b"9" * 4300)
        cli = d / "cli.jsonl"
        setup = ctx.run(Cmd(["new", str(cli), "-p", "Ann", "-p", "Bob", "--set", f"{knob}={number.decode()}"]))
        typed = b"dealer Ann\nresult knock Bob 3 20 points " + points + b"\n" + b"result gin Ann 25\n" * 4 + b"quit\n"
        if cli.exists():
            setup += ctx.run(Cmd(["record", str(cli)], stdin=typed))
        made: dict[str, list[Path]] = {"knob": [], "points": []}
        for i, (where, fld, number) in enumerate(cases):
            if where == "knob":
                objs = objs_of(hi.base_events("standard", s + i, "full", 2), ctx.work)
                objs[0]["rules"][fld] = _BIG
            else:
                objs = objs_of(_pad_events(s + i), ctx.work)
                if fld == "undoes":
                    objs.append({"seq": len(objs) + 1, "ts": objs[-1]["ts"], "type": "correction", "v": 2, "prev": None, "undoes": _BIG})
                else:
                    results = [o for o in objs if o["type"] == "hand_result"]
                    results[i % len(results)][fld] = _BIG
            sub = d / where
            sub.mkdir(exist_ok=True)
            made[where].append(write_file(sub / f"{fld}-{i}.jsonl", _big(objs, number)))
        batches = {w: _crash_cmds(d / w, made[w], show=w == "knob") for w in made if made[w]}
        later = [Cmd(["score", str(cli)])] if cli.exists() else []
        runs = ctx.run(*later, *(c for b in batches.values() for c in b))
        setup += runs[: len(later)]
        runs = runs[len(later) :]
        for where, label in (("knob", "knob-digits"), ("points", "points-digits")):
            if where in batches:
                mine, runs = runs[: len(batches[where])], runs[len(batches[where]) :]
                what = ", ".join(f"{c[1]}={len(c[2])} digits" for c in cases if c[0] == where)
                ctx.check(label, _crash_problems(mine), f"match files with {what}: ginlog validate FILES; audit FOLDER [--jobs 2]; score/replay FILE")
        # a knob out of its range on the command line is a bad value: a usage error (exit 2), one line, no file
        refused = [] if setup[0].rc == 2 and not cli.exists() and len(setup[0].err_lines()) == 1 else [
            f"ginlog new --set {knob}=<{len(number)} digits>: not refused as a usage error "
            f"(exit {setup[0].rc}, {len(setup[0].err_lines())} error line(s), file {'made' if cli.exists() else 'not made'})"]
        ctx.check("new-set-digits", [*_crash_problems(setup[:1], codes=(2,)), *refused, *_crash_problems(setup[1:])],
                  f"ginlog new m.jsonl -p Ann -p Bob --set {knob}=<{len(number)} digits>; printf 'dealer Ann\\nresult knock Bob 3 20 "
                  f"points <{len(points)} digits>\\nresult gin Ann 25 (4 times)' | ginlog record m.jsonl; ginlog score m.jsonl")

    hc.drive(ctx, st.tuples(st.lists(one, min_size=1, max_size=3), st.integers(0, 9)), n, seed, body)


def _pad_events(seed: int = 0, target: int | None = None) -> list[Any]:
    """A match decided by score-pad lines (classic rules), Ann v Bob."""
    rules = preset("classic") if target is None else attrs.evolve(preset("classic"), game_target=target)
    rng = random.Random(seed)
    evs: list[Any] = [MatchStarted(players=("Ann", "Bob"), rules=rules, title="pad"),
                      FirstDealer(dealer="Ann", how="cut", cuts={"Ann": DECK[0], "Bob": DECK[20]})]
    tl = fold(evs)
    while tl.state.phase != "over" and len(evs) < 60:
        who = rng.choice(["Ann", "Bob"])
        e = rng.choice([HandResultOnly(how="gin", out=who, defender_deadwood=rng.randrange(5, 35)),
                        HandResultOnly(how="knock", out=who, knocker_deadwood=rng.randrange(0, 10), defender_deadwood=rng.randrange(12, 40))])
        try:
            tl = apply(tl, e)
        except Exception:
            continue
        evs.append(e)
    return evs


# =============================================================================
# memory


@campaign_of("memory")
def memory(ctx: Ctx, n: int, seed: int) -> None:
    long = getattr(ctx, "long", False)
    shapes = ["x", "{}", "[]", "null", "1", '{"seq":1}', "not json at all, a line of words", "__DUP__", "__HALF__"]
    strat = st.tuples(st.sampled_from(shapes), st.just(50_000) if not long else st.integers(100_000, 1_000_000))
    valid = rc.match_bytes(hi.base_events("standard", 1, "full", 2), ctx.work)
    first, second = valid.splitlines()[:2]

    def body(case: tuple[str, int]) -> None:
        shape, count = case
        d = ctx.dir("mem")
        f = d / "big.jsonl"
        with open(f, "wb") as fh:
            if shape == "__NOTES__":  # a valid match of big notes (100 MB)
                fh.write(_notes_match(ctx, count))
            else:
                if shape in ("__DUP__", "__HALF__"):  # a valid start, then the same line again and again, or junk
                    fh.write(first + b"\n")
                line = (second if shape == "__DUP__" else b"x" if shape == "__HALF__" else shape.encode()) + b"\n"
                block = line * 65536
                for start in range(0, count, 65536):
                    fh.write(block[: min(count - start, 65536) * len(line)])
        size = f.stat().st_size
        limit = hc.QUICK_RSS_MB if size <= 1 << 20 else hc.RSS_MB
        timeout = 90.0 if not long else 900.0
        cmds = [Cmd(["audit", "--json", str(f)], timeout=timeout, memory_mb=2048)]
        # 50,000,000 junk lines take about 8 minutes a command (10 us a line, memory flat): audit --json alone
        if long and count < 10_000_000:
            cmds += [Cmd(["validate", str(f)], timeout=timeout, memory_mb=2048), Cmd(["audit", "--quiet", str(f)], timeout=timeout, memory_mb=2048)]
            if (shape, count) == ("x", 1_000_000):  # the issue's: 777 MB and 53 s to audit
                cmds.append(Cmd(["audit", str(f)], timeout=timeout, memory_mb=2048))
        runs = ctx.run(*cmds, jobs=1 if long else 2)
        what = f"{count} lines {shape!r} ({size / 1e6:.1f} MB)"
        for r in runs:
            ctx.tally.notes.append(f"{_words(r.cmd.args[:-1])} FILE, FILE = {what}: peak {r.rss_mb:.0f} MB, "
                                   f"{r.seconds:.1f} s, exit {r.rc if r.rc is not None else r.why}")
        probs = [f"{_words(r.cmd.args[:-1])}: peak {r.rss_mb:.0f} MB > {limit:.0f} MB ({r.seconds:.0f} s)"
                 for r in runs if r.rss_mb > limit]
        probs += [f"{_words(r.cmd.args[:1])}: {p}" for r in runs for p in basic(r, (0, 1))]
        ctx.check("rss", probs, f"ginlog audit --json{' / validate / audit --quiet' if long else ''} FILE, FILE = {what}")
        data = runs[0].json()
        kept = [len(data["files"][0]["errors"])] if data else []
        if long and len(runs) > 1 and runs[1].rc is not None and TRACEBACK not in runs[1].err:
            kept.append(len(runs[1].err_lines()))
        probs = [f"{k} errors kept (at most {hc.MAX_ERRORS})" for k in kept if k > hc.MAX_ERRORS + 5]
        if not data:
            probs.append(f"audit --json gave no JSON ({runs[0].why or f'exit {runs[0].rc}'})")
        ctx.check("errors-capped", probs,
                  f"ginlog audit --json{' / validate' if long else ''} FILE, FILE = {what}")
        f.unlink()

    # The first input drawn is the simplest: 50,000 lines 'x' (100 KB), the quick case.
    explicit: list[tuple[str, int]] = [("x", 1_000_000), ("x", 50_000_000), ("__NOTES__", 50_000)] if long else []
    hc.drive(ctx, strat, n, seed, body, explicit=explicit)


def _notes_match(ctx: Ctx, notes: int) -> bytes:
    """A valid match of ``notes`` notes of 2000 characters (100 MB for 50,000)."""
    objs = objs_of(hi.base_events("standard", 1, "full", 1)[:3], ctx.work)
    ts = objs[-1]["ts"]
    text = ("a long note " * 200)[:2000]
    objs += [{"seq": len(objs) + i + 1, "ts": ts, "type": "note", "v": 2, "prev": None, "text": text} for i in range(notes)]
    return chain(objs)


# =============================================================================
# terminal


@dataclass(frozen=True)
class TermCase:
    names: tuple[str, str]
    note: str
    reason: str
    void: str
    abandon: str
    title: str
    tool: str
    typed: str
    ending: str
    seed: int

    def brief(self, cmd: str) -> str:
        """The fields ``cmd`` shows, for a reproducer."""
        keys = {"replay": ("names", "note", "reason", "tool", "void", "abandon"), "score": ("names", "title", "abandon"),
                "show": ("names", "abandon"), "new": ("names", "title"), "play": ("names", "note"), "record": ("names", "typed"),
                "undo": ("reason",)}
        return ", ".join(f"{k}={getattr(self, k)!r}" for k in keys.get(cmd, ("names", "note", "title")))


term_cases = st.builds(
    TermCase, st.tuples(hi.name_text(), hi.name_text()).filter(lambda t: t[0].casefold() != t[1].casefold()), hi.free_text(), hi.free_text(), hi.free_text(), hi.free_text(),
    hi.free_text(), hi.free_text(200), hi.free_text(300), st.sampled_from(["finished", "abandoned"]), st.just(1),
)

TERM_EXAMPLES = [  # the issue's own: markup names, escape sequences, OSC 8, C1, bidi, zero-width, filler
    TermCase(("[/]", "[red]x[/red]"), "hi\x1b[2J\x1b[1A\x9b31m\u202eevil\u200b", "[bold]loud[/bold] :warning:",
             "\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\", "\u2066rain\u3164\x07", "\x1b]0;pwned\x07[link=http://evil.example]t[/link]",
             "\x1b[31mtool\x1b[0m", "gg \x1b[2J\x1b]0;x\x07 \u202eok \x9b31m [red]x[/red]", "abandoned", 1),
]

P_NOTE, P_REASON, P_VOID, P_ABANDON = "@note@", "@reason@", "@void@", "@abandon@"


def term_objs(case: TermCase, ctx: Ctx) -> list[dict[str, Any]]:
    ev = list(hi.base_events("standard", case.seed, "full", 2))
    k = 4
    evs = ev[:k] + [Note(text=P_NOTE, player="Ann"), ev[k], Correction(undoes=k + 2, reason=P_REASON), ev[k]]
    evs += ev[k + 1 :] if case.ending == "finished" else [HandVoid(reason=P_VOID), MatchAbandoned(reason=P_ABANDON)]
    objs = objs_of(evs, ctx.work)
    objs[0]["title"] = case.title
    objs[0]["tool"] = case.tool
    fill = {P_NOTE: case.note, P_REASON: case.reason, P_VOID: case.void, P_ABANDON: case.abandon}
    return [hi.rename(o, {"Ann": case.names[0], "Bob": case.names[1], **fill}) for o in objs]


def _typed(text: str) -> str:
    return "".join(ch for ch in cli_safe(text) if ch not in "\n\r")[:300]


#: The names the issue's own case types at 'ginlog new' (a filler, markup), apart from the file's.
NEW_FIXED = ("Ann\u3164", "[/]")


def _term_cmds(case: TermCase, d: Path, f: Path, starts: list[Path], fixed: bool) -> dict[str, Cmd]:
    typed = _typed(case.typed) or "x"
    entry = f"note {typed}\nquit\n".encode()
    # At a terminal the recorder is a line editor: typed text is pasted (bracketed paste, as a person pastes a
    # note), or its ESC and control characters would be keys (Escape, Ctrl-F...), never text.
    pasted = b"\x1b[200~" + f"note {typed}".encode() + b"\x1b[201~\rquit\r"
    names = list(NEW_FIXED) if fixed else [cli_safe(x) for x in case.names]
    return {
        "replay": Cmd(["replay", str(f)]), "replay-tty": Cmd(["replay", str(f)], tty=True),
        "score": Cmd(["score", str(f)]), "score-tty": Cmd(["score", str(f)], tty=True),
        "show": Cmd(["show", str(f)]), "show-tty": Cmd(["show", str(f)], tty=True),
        "new": Cmd(["new", str(d / "n.jsonl"), "-p", names[0] or "A", "-p", names[1] or "B", "--title", cli_safe(case.title) or "t"]),
        "play": Cmd(["play", str(starts[2]), f"dealer {_typed(case.names[0])[:40]}", f"{_typed(case.note)[:60]}"]),
        "record-tty": Cmd(["record", str(starts[0])], stdin=pasted, tty=True),
        "record": Cmd(["record", str(starts[1])], stdin=entry),
        "undo": Cmd(["undo", str(starts[3]), "--reason", cli_safe(case.reason) or "r"]),
    }


_SURROGATE = st.tuples(st.sampled_from(["note", "reason", "title", "tool", "abandon", "void"]),
                       st.integers(0xD800, 0xDFFF), st.text(max_size=5), st.text(max_size=5), st.integers(1, 6))


def _surrogate_case(case: tuple[str, int, str, str, int]) -> tuple[TermCase, str]:
    where, cp, before, after, s = case
    value = cli_safe(before) + chr(cp) + cli_safe(after)
    fields = {k: "plain" for k in ("note", "reason", "void", "abandon", "title", "tool")}
    fields[where] = value
    tc = TermCase(("Ann", "Bob"), fields["note"], fields["reason"], fields["void"], fields["abandon"], fields["title"],
                  fields["tool"], "x", "abandoned", s)
    return tc, f"a match file whose {where} is {value!r} (the JSON escape \\u{cp:04x})"


_PLACES = {"note": "Qnote", "reason": "Qreason", "void": "Qvoid", "abandon": "Qabandon", "title": "Qtitle", "tool": "Qtool"}


_SHOWN_BY = ("replay", "score", "show")


def _baseline_cmds(ctx: Ctx, tc: TermCase) -> list[Cmd]:
    """replay, score and show of this match with plain placeholder texts (none if already counted)."""
    key = (tc.seed, tc.ending)
    cache = ctx.__dict__.setdefault("_baselines", {})
    if key in cache:
        return []
    cache[key] = None
    plain = TermCase(("Qann", "Qbob"), note=_PLACES["note"], reason=_PLACES["reason"], void=_PLACES["void"],
                     abandon=_PLACES["abandon"], title=_PLACES["title"], tool=_PLACES["tool"], typed="x", ending=tc.ending,
                     seed=tc.seed)
    f = write_file(ctx.dir("baseline") / "m.jsonl", chain(term_objs(plain, ctx)))
    return [Cmd([c, str(f)]) for c in _SHOWN_BY]


def _baseline_store(ctx: Ctx, tc: TermCase, runs: list[Run]) -> None:
    texts = {c: hc.visible(r) for c, r in zip(_SHOWN_BY, runs)}
    ctx.__dict__["_baselines"][(tc.seed, tc.ending)] = {
        c: {k: n for k, n in [(("names", 0), t.count("Qann")), (("names", 1), t.count("Qbob")),
                              *(((f, 0), t.count(v)) for f, v in _PLACES.items())] if n}
        for c, t in texts.items()}


def _baseline(ctx: Ctx, tc: TermCase) -> dict[str, dict[tuple[str, int], int]]:
    """How often replay, score and show print each field of this match with plain placeholder texts:
    the hostile match must show each field's visible form at least as often."""
    got: dict[str, dict[tuple[str, int], int]] = ctx.__dict__["_baselines"][(tc.seed, tc.ending)]
    return got


def _too_few(r: Run, want: dict[str, int]) -> list[str]:
    seen = hc.squash(hc.visible(r))
    out = []
    for value, n in want.items():
        needle = hc.squash(shown(value))
        if needle and seen.count(needle) < n:
            out.append(f"{shown(value)[:60]!r} shown {seen.count(needle)} time(s), not {n}")
    return out


@campaign_of("terminal")
def terminal(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[TermCase, tuple[str, int, str, str, int]]) -> None:
        generated, lone = case
        cases = [generated, *(TERM_EXAMPLES if ctx.once("terminal") else [])]  # index 0: the generated one
        d = ctx.dir("term")
        cmds: dict[tuple[int, str], Cmd] = {}
        files = []
        for i, tc in enumerate(cases):
            sub = d / str(i)
            sub.mkdir()
            objs = term_objs(tc, ctx)
            f = write_file(sub / "m.jsonl", chain(objs))
            files.append(f)
            starts = [write_file(sub / f"r{j}.jsonl", chain(objs[:2])) for j in range(4)]
            # the generated case on a terminal only (the issue's own on pipes too: an SGR-looking escape is only seen there)
            cmds.update({(i, k): c for k, c in _term_cmds(tc, sub, f, starts, fixed=i > 0).items() if i or c.tty or k in ("new", "play", "undo")})
        sur, sur_repro = _surrogate_case(lone)
        sf = write_file(d / "surrogate.jsonl", chain(term_objs(sur, ctx)))
        shared = [Cmd(["validate", *map(str, files)]), Cmd(["audit", *map(str, files)], tty=True),
                  Cmd(["validate", str(sf)]), Cmd(["audit", "--json", str(sf)]), Cmd(["replay", str(sf)], tty=True)]
        base = {i: _baseline_cmds(ctx, tc) for i, tc in enumerate(cases)}
        extra = [c for b in base.values() for c in b]
        got = ctx.run(*shared, *cmds.values(), *extra)
        runs = dict(zip(cmds, got[len(shared) : len(shared) + len(cmds)]))
        rest = got[len(shared) + len(cmds) :]
        for i, b in base.items():
            if b:
                _baseline_store(ctx, cases[i], rest[: len(b)])
                rest = rest[len(b) :]
        ok = {line.split(": ok (")[0] for line in got[0].out.decode("utf-8", "replace").splitlines() if ": ok (" in line}
        for r, key in ((got[0], "validate"), (got[1], "audit")):
            probs = basic(r, (0, 1)) + raw_problems(r.both, colour=r.cmd.tty, progress=r.cmd.tty)
            ctx.check(key, probs, f"{r.cmd.shell()[:90]} on match files with {'; '.join(tc.brief(key) for tc in cases)}"[:900])
        probs = [f"{r.cmd.shell()[:40]}: {p}" for r in got[2:5] for p in basic(r, (0, 1)) + raw_problems(r.both, colour=r.cmd.tty)]
        probs += [f"{_words(r.cmd.args[:1])} says exit {r.rc}: the lone surrogate is not refused" for r in got[2:4] if r.rc != 1]
        ctx.check("surrogate", probs, f"ginlog validate / audit --json / replay (on a pty) on {sur_repro}")
        for (i, key), r in runs.items():
            tc = cases[i]
            valid = str(files[i]) in ok
            cmd = key.removesuffix("-tty")
            repro = f"{r.cmd.shell()[:160]} on {'a valid' if valid else 'an invalid'} {tc.ending} match with {tc.brief(cmd)}"[:900]
            typed_at = f"note {_typed(tc.typed) or 'x'}" if key == "record-tty" else None
            probs = basic(r, (0, 1, 2) if cmd == "new" else (0, 1)) + raw_problems(r.both, colour=r.cmd.tty, editor=typed_at)
            ctx.check(cmd, [f"{key}: {p}" for p in probs], repro)
            if not valid and cmd != "record":
                continue
            if cmd in ("replay", "score", "show"):
                want = {getattr(tc, k) if k != "names" else tc.names[j]: c for (k, j), c in _baseline(ctx, tc)[cmd].items()}
                ctx.check(f"{cmd}-visible", _too_few(r, want) if r.rc == 0 else [f"exit {r.rc}"], repro)
            elif cmd == "record" and str(files[i]) in ok:
                words = " ".join((_typed(tc.typed) or "x").split())
                wanted = [*tc.names, *(c for c in dict.fromkeys(words) if shown(c) != c and not c.isspace())]
                ctx.check("record-visible", missing_shown(r, wanted), f"{r.cmd.shell()[:160]} typing: note {words!r}")

    hc.drive(ctx, st.tuples(term_cases, _SURROGATE), n, seed, body)


# =============================================================================
# hang: a FIFO on the command line


@campaign_of("hang")
def hang(ctx: Ctx, n: int, seed: int) -> None:
    record = record_file()
    html = _html_registered(ctx)
    if not html:
        ctx.tally.skip("html", "'ginlog html' is not a command yet (ginlog html --help fails)")

    def body(case: tuple[str, int, bool]) -> None:
        name, pos, jobs = case
        d = ctx.dir("fifo")
        good = [write_file(d / f"g{i}.jsonl", rc.match_bytes(hi.base_events("standard", i + 1, "full", 1), ctx.work)) for i in range(2)]
        rec = write_file(d / "record-0.txt", record)  # not a name the FIFO may have: opening it would block the harness
        keys = ["audit", "validate", "score", "show", "replay", "play", "record", "undo", "repair", "import", *(["html"] if html else [])]
        fifos = {}
        for key in keys:  # a FIFO each: two commands opening one FIFO, a reader and a writer, would unblock each other
            (d / key).mkdir()
            fifos[key] = str(d / key / name)
            os.mkfifo(fifos[key])

        def among(key: str, others: list[str]) -> list[str]:
            out = list(others)
            out.insert(pos % (len(out) + 1), fifos[key])
            return out

        t = hc.HANG_TIMEOUT
        Cmd = functools.partial(hc.Cmd, fifo=True, timeout=t)  # noqa: N806
        cmds = {
            "audit": Cmd(["audit", *among("audit", [str(g) for g in good]), *(["--jobs", "2"] if jobs else [])]),
            "validate": Cmd(["validate", *among("validate", [str(g) for g in good])]),
            "score": Cmd(["score", fifos["score"]]), "show": Cmd(["show", fifos["show"]]),
            "replay": Cmd(["replay", fifos["replay"]]), "play": Cmd(["play", fifos["play"], "note x"]),
            "record": Cmd(["record", fifos["record"]], stdin=b"quit\n"), "undo": Cmd(["undo", fifos["undo"]]),
            "repair": Cmd(["repair", fifos["repair"]]),
            "import": Cmd(["import", "openspiel", *among("import", [str(rec)]), "-o", str(d / "out")]),
        }
        if html:
            cmds["html"] = Cmd(["html", fifos["html"], "-o", str(d / "p.html")])
        runs = ctx.run(*cmds.values(), jobs=len(cmds))
        for key, r in zip(cmds, runs):
            probs = basic(r, (1, 2))
            if not r.timed_out and not r.err.strip():
                probs.append("no error line")
            ctx.check(key, probs, f"mkfifo {name}; {r.cmd.shell()[:160]}")

    strat = st.tuples(st.sampled_from(["f.jsonl", "pipe", "rec.txt", "a b.jsonl", "é.jsonl"]), st.integers(0, 5), st.booleans())
    hc.drive(ctx, strat, n, seed, body)


def record_file() -> bytes:
    """An OpenSpiel record that imports (the first of the test data)."""
    folder = hc.ROOT / "tests" / "data" / "openspiel" / "records"
    return sorted(folder.iterdir())[0].read_bytes()
