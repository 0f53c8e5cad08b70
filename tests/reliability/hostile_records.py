"""The classes of issue 13 about what is read and written: silent success, moves nobody made,
names, misleading clean audits, files, display, same verdict (see :mod:`hostile_checks` for the rest).
"""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path
from typing import Any, cast

import attrs
from hypothesis import strategies as st

import hostile_campaign as hc
import hostile_inputs as hi
from hostile_campaign import Cmd, Ctx, Run, basic, campaign_of, raw_problems
from hostile_inputs import chain, cli_safe, objs_of
from hostile_checks import _lines, _words, _objs, _pad_events, record_file, write_file, term_cases, term_objs
import reliability_campaigns as rc

from ginlog.app.record.retype import entry_for
from ginlog.game.cards import parse_card
from ginlog.game.rules import preset
from ginlog.log.events import Correction, HandResultOnly
from ginlog.match.session import MatchSession
from ginlog.match.reading import read_match
from ginlog.play.reducer import apply, fold, start
from ginlog.play.simulate import simulate_match

NL = b"\n"
folder_name = st.text(st.sampled_from("abcdéz _-.Ж王"), min_size=1, max_size=10).filter(lambda s: s not in (".", "..") and "/" not in s)


def _match(ctx: Ctx, path: Path, seed: int = 1, hands: int = 1) -> Path:
    return write_file(path, rc.match_bytes(hi.base_events("standard", seed, "full", hands), ctx.work))


def _files_of(r: Run) -> list[dict[str, Any]]:
    data = r.json()
    return data.get("files", []) if isinstance(data, dict) else []


def _said_error(r: Run, json_: bool, stderr_too: bool = False) -> bool:
    """An error in the JSON's files (or, with ``stderr_too``, on standard error instead), or on standard error."""
    if json_ and not (stderr_too and r.err.strip()):
        return any(f.get("errors") for f in _files_of(r))
    return bool(r.err.strip())


# =============================================================================
# silent success


@campaign_of("silent")
def silent(ctx: Ctx, n: int, seed: int) -> None:
    other = hc.other_user()
    if other is None:
        for cid in ("unreadable-folder", "unreadable-subfolder"):
            ctx.tally.skip(cid, "tests run as root and setpriv is missing: permissions do not bite")

    def body(case: tuple[str, bool, bool, int]) -> None:
        name, json_, jobs, depth = case
        d = ctx.dir("silent")
        flags = [*(["--json"] if json_ else []), *(["--jobs", "2"] if jobs else [])]
        deep = "/".join([name] * depth)
        # an unreadable folder; a folder with an unreadable sub-folder
        u = d / "u" / name
        u.mkdir(parents=True)
        _match(ctx, u / "m.jsonl")
        s = d / "s"
        (s / deep / "locked").mkdir(parents=True)
        _match(ctx, s / "ok.jsonl")
        _match(ctx, s / deep / "locked" / "m.jsonl")
        # a glob that matches only folders; a symlinked sub-folder; an empty folder
        g = d / "g"
        for sub in ("a.jsonl", f"{name}.jsonl"):
            (g / sub).mkdir(parents=True, exist_ok=True)
        target = d / "target"
        target.mkdir()
        _match(ctx, target / "linked.jsonl")
        lnk = d / "l"
        (lnk / deep).mkdir(parents=True)
        os.symlink(target, lnk / deep / "link")
        e = d / "e" / deep
        e.mkdir(parents=True)
        (e / "notes.txt").write_text("not a match")
        for p in d.rglob("*"):
            if not p.is_symlink():
                p.chmod(0o777 if p.is_dir() else 0o666)
        u.chmod(0)
        (s / deep / "locked").chmod(0)
        cmds = {
            "glob-only-folders": Cmd(["audit", f"{g}/*.jsonl", *flags]),
            "symlinked-subfolder": Cmd(["audit", str(lnk), "--json", *(f for f in flags if f != "--json")]),
            "empty-folder": Cmd(["audit", str(d / "e"), *flags]),
        }
        if other is not None:
            cmds["unreadable-folder"] = Cmd(["audit", str(u), *flags], nobody=True)
            cmds["unreadable-subfolder"] = Cmd(["audit", str(s), *flags], nobody=True)
        runs = dict(zip(cmds, ctx.run(*cmds.values())))
        for key, r in runs.items():
            probs = basic(r, (0, 1))
            if key == "symlinked-subfolder":
                seen = any("linked.jsonl" in f.get("file", "") for f in _files_of(r))
                if r.rc == 0 and not seen:
                    probs.append("exit 0 and the linked folder's match is not audited")
                elif r.rc == 1 and not _said_error(r, True):
                    probs.append("exit 1 but no error line")
            else:
                if r.rc != 1:
                    probs.append(f"exit {r.rc}, not 1")
                # a glob's folders may each hold no match file: when none does, the one line (exit 1) is on
                # standard error, --json or not (the JSON has no file to put it on)
                if not _said_error(r, json_, stderr_too=key == "glob-only-folders"):
                    probs.append("no error line")
            ctx.check(key, probs, f"{r.cmd.shell()[:200]}  (folder {key}, name {name!r}, depth {depth})")
        u.chmod(0o777)
        (s / deep / "locked").chmod(0o777)

    strat = st.tuples(folder_name, st.booleans(), st.booleans(), st.integers(0, 2))
    hc.drive(ctx, strat, n, seed, body)

    def stdin_body(case: tuple[int, int, bool]) -> None:
        a, b, first = case
        d = ctx.dir("stdin")
        data = rc.match_bytes(hi.base_events("standard", a, "full", 1), ctx.work)
        f = _match(ctx, d / "f.jsonl", b)
        args = ["-", str(f)] if first else [str(f), "-"]
        r = ctx.run(Cmd(["audit", *args, "--jobs", "2", "--json"], stdin=data))[0]
        probs = basic(r, (0,))
        got = {x["file"]: x for x in _files_of(r)}
        mine = got.get("<stdin>")
        if mine is None or not mine["ok"] or mine["events"] != data.count(b"\n"):
            probs.append(f"standard input not read in the parent: {json.dumps(mine)[:200]}")
        ctx.check("stdin-with-jobs", probs, f"ginlog audit {' '.join(args)} --jobs 2 --json < a valid match ({data.count(NL)} lines)")

    hc.drive(ctx, st.tuples(st.integers(1, 6), st.integers(1, 6), st.booleans()), n, seed + 1, stdin_body)

    def anchor_body(case: tuple[int, int, str, str]) -> None:
        s, cut, caser, junk = case
        d = ctx.dir("anchor")
        f = _match(ctx, d / "m.jsonl", s)
        head = read_match(str(f)).head
        assert head is not None
        mixed = "".join(c.upper() if i % 2 else c for i, c in enumerate(head))
        forms = {"upper case": head.upper(), f"{caser} case, prefix {cut}": (mixed if caser == "mixed" else head.upper() if caser == "upper" else head)[:cut]}
        bad = cli_safe(junk)
        runs = ctx.run(*(Cmd(["audit", str(f), "--anchor", v]) for v in forms.values()), Cmd(["audit", str(f), "--anchor", bad]))
        for (label, v), r in zip(forms.items(), runs):
            probs = basic(r, (0,))
            ctx.check("anchor-accepted", probs, f"ginlog audit m.jsonl --anchor {v}  ({label} of the head {head})")
        r = runs[-1]
        probs = basic(r, (2,)) + ([] if r.err.strip() else ["no error line"])
        ctx.check("anchor-malformed", probs, f"ginlog audit m.jsonl --anchor {bad!r}")

    junk = st.one_of(st.just(""), st.text(st.sampled_from("xyzg-+ #\u00e9"), min_size=1, max_size=70),
                     st.integers(65, 80).map(lambda k: "a" * k), st.just("0c24ac5a0b5d 82ae"))
    hc.drive(ctx, st.tuples(st.integers(1, 6), st.integers(12, 64), st.sampled_from(["lower", "upper", "mixed"]), junk), n, seed + 2,
             anchor_body)


# =============================================================================
# moves nobody made: each argument is one whole entry


_FREE = ("note", "void", "abandon", "undo", "u")
#: A draw's entry and the entries that end a turn: the two merged are a whole turn, one legal entry.
_DRAWS = ("take", "stock")
_ENDINGS = ("discard", "knock", "gin", "biggin")


#: The issue's own: 'note Bob says pass' where a pass is legal; extra words; a missing word; two whole entries.
MOVES_FIXED = [(["note", "Bob", "says", "pass"], True), (["pass pass"], True), (["dealer"], True), (["note Bob says", "pass"], False)]


@campaign_of("moves")
def moves(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[int, int, int, str, int]) -> None:
        s, at, count, mangle, which = case
        evs = simulate_match(preset("standard"), seed=s, mode="table", max_hands=1)
        entries = [entry_for(e) for e in evs]
        at = 2 + at % max(1, len(evs) - 2 - count)
        args = [e for e in entries[at : at + count] if e]
        if len(args) < 2:
            return
        i = which % len(args)
        want = len(args)  # events the entries stand for
        if mangle == "split" and " " in args[i]:
            words = args[i].split()
            args = args[:i] + [words[0], " ".join(words[1:])] + args[i + 1 :]
        elif mangle == "merge" and i + 1 < len(args) and args[i].split()[0] not in _FREE:
            # A draw merged with the entry that ends its turn is a whole turn (issue 14): one entry, two events.
            whole_turn = args[i].split()[0] in _DRAWS and args[i + 1].split()[0] in _ENDINGS
            args = args[:i] + [args[i] + " " + args[i + 1]] + args[i + 2 :]
            mangle = "none" if whole_turn else mangle
        else:
            mangle = "none"
        cases = [(evs[:at], args, mangle != "none", want)]
        if ctx.once("moves"):
            cases += [(evs[:3], a, m, len(a)) for a, m in MOVES_FIXED]
        d = ctx.dir("moves")
        files = [write_file(d / f"m{j}.jsonl", rc.match_bytes(head, ctx.work)) for j, (head, *_) in enumerate(cases)]
        befores = [f.read_bytes() for f in files]
        runs = ctx.run(*(Cmd(["play", str(f), *a]) for f, (_, a, *_) in zip(files, cases)))
        for r, f, before, (_, a, mangled, events) in zip(runs, files, befores, cases):
            _judge(ctx, r, f, before, a, mangled, events)

    strat = st.tuples(st.integers(1, 40), st.integers(0, 60), st.integers(2, 5), st.sampled_from(["split", "merge", "none"]), st.integers(0, 9))
    hc.drive(ctx, strat, n, seed, body)


def _judge(ctx: Ctx, r: Run, f: Path, before: bytes, args: list[str], mangled: bool, events: int) -> None:
    after = f.read_bytes()
    added = after[len(before) :].count(b"\n") if after.startswith(before) else -1
    probs = basic(r, (0, 1, 2))
    if mangled and (r.rc == 0 or after != before):
        probs.append(f"exit {r.rc}, {added} event(s) written: {[o['type'] for o in map(json.loads, after[len(before):].splitlines())]}")
    if not mangled and (r.rc != 0 or added != events):
        probs.append(f"exit {r.rc}, {added} event(s) written for {len(args)} whole entries ({events} events): {r.err[:200]!r}")
    if r.rc and after != before:
        probs.append("refused, yet the file changed")
    ctx.check("whole-entries", probs, f"ginlog play m.jsonl {' '.join(repr(a) for a in args)}  ({'not ' if mangled else ''}each a whole entry)")


# =============================================================================
# names


NAME_CLASHES = [("Ann", "ann", "case"), ("Ann", "\u0410nn", "confusable"), ("Zo\u00eb", "Zoe\u0308", "nfd")]


@campaign_of("names")
def names(ctx: Ctx, n: int, seed: int) -> None:
    def refuse(cid: str, pairs: list[tuple[str, str, str]]) -> None:
        d = ctx.dir("names")
        files = [d / f"m{i}.jsonl" for i in range(len(pairs))]
        runs = ctx.run(*(Cmd(["new", str(f), "-p", a, "-p", b]) for f, (a, b, _) in zip(files, pairs)))
        for f, (a, b, why), r in zip(files, pairs, runs):
            probs = basic(r, (1, 2))
            if r.rc == 0:
                probs.append("accepted")
            elif len(r.err_lines()) != 1:
                probs.append(f"{len(r.err_lines())} lines on stderr")
            if f.exists() and r.rc != 0:
                probs.append("refused, yet the file exists")
            probs += raw_problems(r.both, colour=False)
            ctx.check(cid, probs, f"ginlog new m.jsonl -p {a!r} -p {b!r}  ({why})")

    hc.drive(ctx, hi.clash_pair(), n, seed, lambda case: refuse("clash-refused", [case, *(NAME_CLASHES if ctx.once("clash") else [])]))

    invisible = st.tuples(st.sampled_from(["Ann", "Bob", "Kim", "Zoë"]),
                          st.sampled_from([*hi._INVISIBLE, "\x1b[2J", "\x07", "\u202e", "\u2066", "\x9b"]), st.integers(0, 3))

    def invis(case: tuple[str, str, int]) -> None:
        base, ch, i = case
        i = min(i, len(base))
        fixed = [("\u3164", "Olga", "only a filler"), ("Bob\u200b", "Olga", "zero width")] if ctx.once("invisible") else []
        refuse("invisible-refused", [(base[:i] + ch + base[i:], "Olga", f"holds {ch!r}"), *fixed])

    hc.drive(ctx, invisible, n, seed + 1, invis)

    word = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzéöñ"), min_size=2, max_size=8).map(str.capitalize)

    def spaced(case: tuple[str, str, str]) -> None:
        first, last, other = ("Mary", "Ann", "Bob") if ctx.once("spaced") else case
        name = f"{first} {last}"
        if other.lower() == name.lower() or other.lower().startswith(first.lower()):
            return
        d = ctx.dir("spaced")
        files = [d / f"m{i}.jsonl" for i in range(3)]
        for f in files:
            MatchSession.create(f, (name, other), preset("standard"))
        d2 = ctx.dir("ambiguous")
        twin = f"{first} {last[::-1]}x"
        amb = d2 / "m.jsonl"
        MatchSession.create(amb, (name, twin), preset("standard"))
        before = amb.read_bytes()
        runs = ctx.run(
            Cmd(["play", str(amb), f"dealer {first}"]),
            Cmd(["play", str(files[0]), f"dealer '{name}'"]),
            Cmd(["record", str(files[1])], stdin=f"dealer '{name}'\nquit\n".encode()),
            Cmd(["play", str(files[2]), f"dealer {other.swapcase()}"]),
        )
        r = runs.pop(0)
        probs = basic(r, (1, 2)) + (["accepted"] if r.rc == 0 else []) + (["the file changed"] if amb.read_bytes() != before else [])
        ctx.check("ambiguous-prefix", probs, f"players {name!r} and {twin!r}: ginlog play m.jsonl 'dealer {first}'")
        for r, f, want, cid in zip(runs, files, [name, name, other], ["spaced-name", "spaced-name", "case-insensitive"]):
            objs = _objs(f)
            got = objs[1].get("dealer") if len(objs) > 1 else None
            probs = basic(r, (0,)) + ([] if got == want else [f"dealer written: {got!r}"])
            ctx.check(cid, probs, f"players {name!r} and {other!r}: {r.cmd.shell()[:120]}")

    hc.drive(ctx, st.tuples(word, word, word), n, seed + 2, spaced)


# =============================================================================
# warnings: a clean audit that hides what a reader should know

WARNING_KEYS = {"rule", "line", "event", "message"}


def _ts(when: datetime.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


@campaign_of("warnings")
def warnings(ctx: Ctx, n: int, seed: int) -> None:
    # unusual yet legal: past what any table uses, within ginlog's bounds (a knob past those is an error,
    # not a warning: gin_bonus 0..1000, knock_limit 0..100, game_target 1..10**9); the high end excluded
    knobs = {"knock_limit": (11, 101), "gin_bonus": (101, 1001), "undercut_bonus": (101, 1001),
             "void_stock_size": (11, 30), "game_target": (10**5 + 1, 10**7), "box_bonus": (101, 1001)}

    def body(case: tuple[int, int, int, str, int]) -> None:
        s, line, delta, knob, pick = case
        if ctx.once("warnings"):  # the issue's own: a knock limit of 100
            knob, pick = "knock_limit", 1
        d = ctx.dir("warn")
        expect: dict[str, tuple[Path, int | None]] = {}
        pad = _pad_events(s)
        expect["score-pad"] = (write_file(d / "pad.jsonl", rc.match_bytes(pad, ctx.work)), None)
        st_ = fold(pad).state
        loser = "Ann" if st_.winner == 1 else "Bob"
        again = pad + [Correction(undoes=len(pad), reason="wrong hand")]
        tl = fold(again)
        while tl.state.phase != "over" and len(again) < 80:
            e = HandResultOnly(how="gin", out=loser, defender_deadwood=60)
            tl = apply(tl, e)
            again.append(e)
        if tl.state.winner is not None and tl.state.players[tl.state.winner] == loser:
            expect["reopened"] = (write_file(d / "reopened.jsonl", rc.match_bytes(again, ctx.work)), len(pad) + 1)
        full = list(simulate_match(preset("standard"), seed=s, max_hands=3))
        objs = objs_of(full, ctx.work)
        i = 2 + line % (len(objs) - 2)
        prev = datetime.datetime.strptime(objs[i - 1]["ts"], "%Y-%m-%dT%H:%M:%S.%fZ")
        objs[i]["ts"] = _ts(prev - datetime.timedelta(seconds=delta))
        expect["time-order"] = (write_file(d / "time.jsonl", chain(objs)), i + 1)
        lo, hi = knobs[knob]
        # played under the unusual rules themselves (a big void_stock_size voids a hand early, a big bonus
        # ends the match early): legal, so the warning is all there is to see
        value = 100 if knob == "knock_limit" and pick % 2 else lo + pick % (hi - lo)
        unusual = attrs.evolve(preset("standard"), **cast(dict[str, Any], {knob: value}))
        objs = objs_of(list(simulate_match(unusual, seed=s, max_hands=2)), ctx.work)
        expect["unusual-rules"] = (write_file(d / "rules.jsonl", chain(objs)), 1)
        clean = write_file(d / "clean.jsonl", rc.match_bytes(full, ctx.work))
        files = sorted(str(p) for p in d.iterdir())
        runs = ctx.run(Cmd(["audit", "--json", str(d)]), Cmd(["validate", "--json", *files]), Cmd(["audit", "--json", "--jobs", "2", str(d)]))
        for rule, (path, at) in expect.items():
            for r in runs:
                ctx.check(rule, _warned(r, str(path), rule, at),
                          f"{r.cmd.shell()[:60]} with {path.name} ({rule}; seed {s}, {knob}={objs[0]['rules'][knob]}, line {i + 1} {delta} s back)")
        for r in runs:
            entry = next((f for f in _files_of(r) if f.get("file") == str(clean)), None)
            w = entry.get("warnings") if entry else None
            probs = basic(r, (0, 1))
            if not isinstance(w, list):
                probs.append(f"no warnings list: {w!r}")
            elif any(x.get("rule") in expect for x in w):
                probs.append(f"a plain match warned: {w[:2]}")
            ctx.check("no-false-alarm", probs, f"{r.cmd.shell()[:60]} on a plain simulated match (standard rules)")

    strat = st.tuples(st.integers(0, 50), st.integers(0, 10**6), st.integers(1, 10**7), st.sampled_from(sorted(knobs)), st.integers(0, 10**6))
    hc.drive(ctx, strat, n, seed, body)


def _warned(r: Run, path: str, rule: str, line: int | None) -> list[str]:
    probs = basic(r, (0, 1))
    entry = next((f for f in _files_of(r) if f.get("file") == path), None)
    if entry is None:
        return probs + ["the file is not in the JSON"]
    if not entry.get("ok"):
        probs.append(f"the file is not ok: {entry.get('errors', [])[:1]}")
    w = entry.get("warnings")
    hits = [x for x in w if isinstance(x, dict) and x.get("rule") == rule] if isinstance(w, list) else []
    if not hits:
        return probs + [f"no '{rule}' warning (warnings: {w!r})"[:200]]
    if any(set(x) < WARNING_KEYS for x in hits):
        probs.append(f"a warning without {sorted(WARNING_KEYS)}: {hits[0]}")
    if rule == "time-order" and line is not None and not any(x.get("line") in (line, line - 1) for x in hits):
        probs.append(f"the warning is at line {hits[0].get('line')}, not {line}")
    summary = (r.json() or {}).get("summary")
    if r.cmd.args[0] == "audit" or summary is not None:
        counted = [v for k, v in (summary or {}).items() if "warning" in k]
        if not any((isinstance(v, dict) and v.get(rule, 0) >= 1) or (isinstance(v, int) and v >= 1) for v in counted):
            probs.append(f"'{rule}' not counted in the summary ({sorted(summary or {})})")
    return probs


# =============================================================================
# files


@campaign_of("files")
def files(ctx: Ctx, n: int, seed: int) -> None:
    record = record_file()
    other = hc.other_user()
    if other is None:
        ctx.tally.skip("import-unwritable", "tests run as root and setpriv is missing: permissions do not bite")
    path_piece = st.sampled_from(["\n", "\r", "\x1b[2J", "\x1b]0;t\x07", "\u202e", "\x07", "\t", "[red]x[/red]", "é", " "])

    def body(case: tuple[list[str], str, int, int, list[str], bytes, bool]) -> None:
        lines, ext, cut, length, pieces, raw_name, flip = case
        if ctx.once("files"):  # the issue's own: a 250-byte name, a newline and ESC in a path, a Latin-1 name
            length, pieces, raw_name = 250, ["bad", "\n", "name\x1b[2J"], b"caf\xe9"
        d = ctx.dir("files")
        # repair: a non-match file without its final newline; a symlink; a long name
        text = ("\n".join(lines)).encode()
        if text.endswith(b"\n") or not text:
            text += b"tail"
        plain = write_file(d / f"notes{ext}", text)
        valid = rc.match_bytes(hi.base_events("standard", 1 + cut % 5, "full", 1), ctx.work)
        last = valid.splitlines()[-1]
        torn = valid + last[: 1 + cut % (len(last) - 1)].replace(b'"seq":', b'"seq":9')
        target = write_file(d / "target.jsonl", torn)
        os.symlink(target, d / "link.jsonl")
        long_name = d / ("m" * (length - len(".jsonl")) + ".jsonl")
        torn_long = valid + b'{"seq":99,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"text":"torn'
        write_file(long_name, torn_long)
        # import: -o an existing file; -o a folder nobody may write
        rec = write_file(d / "rec.txt", record)
        occupied = write_file(d / "occupied", b"x")
        ro = d / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        # a hostile path in an error line: a file that is not there, and one that is, with more problems than kept
        bad = d / ("".join(pieces) + ".jsonl")
        many = write_file(d / ("".join(pieces) + "-many.jsonl").replace("/", "_"), b"x\nx\nx\n")  # [/red]: no folder
        # a file name that is not UTF-8 (or is, with non-ASCII), and a strict standard output
        odd = os.fsencode(d) + b"/" + raw_name + b".jsonl"
        MatchSession.create(os.fsdecode(odd), ("Ann", "Bob"), preset("standard"))
        cmds = {
            "repair-non-match": Cmd(["repair", str(plain)]),
            "repair-symlink": Cmd(["repair", str(d / "link.jsonl")]),
            "repair-long-name": Cmd(["repair", str(long_name)]),
            "import-output-file": Cmd(["import", "openspiel", str(rec), "-o", str(occupied)]),
            "strict-stdout": Cmd(["play", odd, "dealer Ann"], env={"PYTHONIOENCODING": "ascii:strict"}),
        }
        if other is not None:
            cmds["import-unwritable"] = Cmd(["import", "openspiel", str(rec), "-o", str(ro / "sub")], nobody=True)
            cmds["import-unwritable-2"] = Cmd(["import", "openspiel", str(rec), "-o", str(ro)], nobody=True)
        cmds |= {f"many-{c}": Cmd([c, str(many), "--max-errors", "1"]) for c in ("audit", "validate")}
        paths = [Cmd([c, str(bad)]) for c in ("validate", "score")] + [Cmd(["play", str(bad), "note x"])]
        all_runs = ctx.run(*cmds.values(), *paths)
        runs = dict(zip(cmds, all_runs))
        r = runs["repair-non-match"]
        probs = basic(r, (0, 1, 2)) + ([] if plain.read_bytes() == text else [f"truncated to {plain.read_bytes()[-40:]!r}"])
        ctx.check("repair-non-match", probs, f"printf {text[-60:]!r} > notes{ext}; ginlog repair notes{ext}")
        r = runs["repair-symlink"]
        probs = basic(r, (0, 1, 2))
        if target.read_bytes() != torn:
            probs.append(f"the target was truncated ({len(torn)} -> {len(target.read_bytes())} bytes)")
        if not (d / "link.jsonl").is_symlink():
            probs.append("the symlink was replaced")
        ctx.check("repair-symlink", probs, "ln -s target.jsonl link.jsonl (a match with a torn tail); ginlog repair link.jsonl")
        r = runs["repair-long-name"]
        probs = basic(r, (0,))
        if long_name.read_bytes() != valid:
            probs.append("the torn tail is still there")
        kept = [p for p in d.iterdir() if p != long_name and p.is_file() and not p.is_symlink() and torn_long[len(valid) :] in p.read_bytes()]
        if not kept:
            probs.append("the torn bytes were not kept in a side file")
        ctx.check("repair-long-name", probs, f"a match file named {length} bytes, torn tail: ginlog repair m...m.jsonl")
        for key in ("import-output-file", "import-unwritable", "import-unwritable-2"):
            if key in runs:
                r = runs[key]
                probs = basic(r, (1, 2)) + ([] if len(r.err_lines()) == 1 else [f"{len(r.err_lines())} lines on stderr"])
                ctx.check(key.removesuffix("-2"), probs, r.cmd.shell()[:200])
        r = runs["strict-stdout"]
        now = _lines(Path(os.fsdecode(odd)))
        probs = basic(r, (0, 1))
        if (r.rc == 0) != (now == 2) or now not in (1, 2):
            probs.append(f"exit {r.rc} with {now - 1} event(s) appended")
        ctx.check("strict-stdout", probs, f"PYTHONIOENCODING=ascii:strict ginlog play {odd[-30:]!r} 'dealer Ann'")
        for c in ("audit", "validate"):  # the line for the problems not kept names the file too
            r = runs[f"many-{c}"]
            probs = basic(r, (1,)) + raw_problems(r.err, colour=False)
            if sum(1 for line in r.err_lines() if line.strip() and "[" in line) != 2:
                probs.append(f"not 2 lines (one problem, one for the 2 not kept) on stderr: {r.err[:200]!r}")
            ctx.check("path-many-errors", probs, f"ginlog {c} {str(many)[-40:]!r} --max-errors 1 (3 bad lines)")
        for r in all_runs[len(cmds) :]:
            probs = basic(r, (1, 2)) + raw_problems(r.err, colour=False)
            if len(r.err_lines()) != 1:
                probs.append(f"{len(r.err_lines())} lines on stderr: {r.err[:120]!r}")
            ctx.check("path-one-line", probs, f"ginlog {_words(r.cmd.args[:1])} {str(bad)[-40:]!r} (no such file)")
        ro.chmod(0o755)

    text_line = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\n"), max_size=30)
    name_bytes = st.one_of(st.binary(min_size=1, max_size=6).filter(lambda b: b"/" not in b and b"\x00" not in b and b not in (b".", b"..")),
                           st.sampled_from([b"caf\xe9", b"caf\xc3\xa9", b"\xff\xfe", b"x\x80y"]))
    strat = st.tuples(st.lists(text_line, min_size=1, max_size=4), st.sampled_from([".jsonl", ".txt", ""]), st.integers(0, 10**6),
                      st.integers(240, 255), st.lists(path_piece, min_size=1, max_size=4), name_bytes, st.booleans())
    hc.drive(ctx, strat, n, seed, body)


# =============================================================================
# display: the pile in order


def _piles(events: list[Any]) -> list[tuple[int, list[str]]]:
    """(seq, pile bottom first) wherever a hand is on and the pile's last three are not in sorted order."""
    out = []
    tl = start(events[0], 1)
    for seq, e in enumerate(events[1:], start=2):
        tl = apply(tl, e, seq)
        h = tl.state.hand
        if h is not None and len(h.pile) >= 2 and sorted(h.pile[-3:]) != list(h.pile[-3:]):
            out.append((seq, [str(c) for c in h.pile]))
    return out


def _find_piles(obj: Any) -> list[Any]:
    if isinstance(obj, dict):
        return ([obj["pile"]] if "pile" in obj else []) + [p for v in obj.values() for p in _find_piles(v)]
    if isinstance(obj, list):
        return [p for v in obj for p in _find_piles(v)]
    return []


def _codes(cards: Any) -> list[str] | None:
    try:
        return [str(parse_card(c)) for c in cards]
    except Exception:
        return None


@campaign_of("display")
def display(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[int, int]) -> None:
        s, pick = case
        events = simulate_match(preset("standard"), seed=s, max_hands=1)
        spots = _piles(events)
        if not spots:
            return
        at, pile = spots[pick % len(spots)]
        d = ctx.dir("display")
        f = write_file(d / "m.jsonl", rc.match_bytes(events, ctx.work))
        runs = ctx.run(Cmd(["show", str(f), "--at", str(at)]), Cmd(["show", str(f), "--at", str(at), "--json"]),
                       Cmd(["replay", str(f), "--to", str(at), "--json"]))
        r = runs[0]
        m = re.search(r"(?:^|[\s;,])pile[\s:]+(.*)$", r.out.decode("utf-8", "replace"), re.M)
        shown_cards = [c for c in (_codes([t]) for t in re.split(r"[\s,;:()\[\]]+", m.group(1) if m else "") if t) if c]
        cards = [c[0] for c in shown_cards]
        probs = basic(r, (0,))
        if len(cards) < 2 or cards != pile[-len(cards) :]:
            probs.append(f"shows {m.group(0).strip() if m else None!r}; the pile is {pile} (bottom first)")
        ctx.check("pile-order", probs, f"ginlog show m.jsonl --at {at}  (seed {s}; pile {' '.join(pile[-3:])}, top last)")
        for cid, r in (("show-json", runs[1]), ("replay-json", runs[2])):
            probs = basic(r, (0,))
            try:
                docs = [json.loads(r.out)] if r.out.strip().startswith((b"{", b"[")) and r.rc == 0 else []
            except ValueError:
                docs = [json.loads(x) for x in r.out.splitlines() if x.strip()] if r.rc == 0 else []
            piles = [p for doc in docs for p in _find_piles(doc)]
            if not piles or _codes(piles[-1]) != pile:
                probs.append(f"pile {piles[-1] if piles else None}, not {pile}")
            ctx.check(cid, probs, f"{r.cmd.shell()[:80]}  (pile bottom first {pile})")

    hc.drive(ctx, st.tuples(st.integers(1, 60), st.integers(0, 100)), n, seed, body)


# =============================================================================
# verdict: validate and audit agree


@campaign_of("verdict")
def verdict(ctx: Ctx, n: int, seed: int) -> None:
    hostile = rc.hostile_files(ctx.work)

    def body(case: tuple[list[Any], list[str]]) -> None:
        terms, kinds = case
        d = ctx.dir("verdict")
        for i, tc in enumerate(terms):
            write_file(d / f"t{i}.jsonl", chain(term_objs(tc, ctx)))
        for kind in kinds:
            write_file(d / f"h-{kind}.jsonl", hostile[kind])
        pad = objs_of(_pad_events(len(kinds)), ctx.work)
        pad[2]["points"] = 999_999
        write_file(d / "pad.jsonl", chain(pad))
        write_file(d / "dup.jsonl", rc.match_bytes(hi.base_events("standard", 2, "full", 1), ctx.work) * 2)
        paths = sorted(str(p) for p in d.iterdir())
        runs = ctx.run(Cmd(["validate", "--json", *paths]), Cmd(["audit", "--json", str(d)]), Cmd(["audit", "--json", "--jobs", "2", str(d)]))
        got = []
        for r in runs:
            got.append({f["file"]: (f["ok"], sorted({e["rule"] for e in f["errors"]})) for f in _files_of(r)})
        if not all(got):
            return  # a command crashed: the crash and terminal classes say so
        for p in paths:
            views = [g.get(p) for g in got]
            probs = [] if views[0] == views[1] == views[2] else [f"validate {views[0]}, audit {views[1]}, audit --jobs 2 {views[2]}"]
            ctx.check("same", probs, f"ginlog validate --json / audit --json on {Path(p).name}")

    kinds = st.lists(st.sampled_from(sorted(hostile)), min_size=1, max_size=4, unique=True)
    hc.drive(ctx, st.tuples(st.lists(term_cases, min_size=1, max_size=3), kinds), n, seed, body)
