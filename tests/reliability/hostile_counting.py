"""Issue 20's counting classes, attacked as a club member would (registered in :mod:`hostile_campaign`).

copies (a match reached twice: hard links, symlinks, copies, the same file or folder named twice, an earlier
backup, a fork), lookalike (names across files that could be taken for each other, and a players file that
makes them one), order (every figure the same whatever the order of the arguments).

Each input builds a small club folder from the sample games (each a match of its own), plants copies at
random, runs ``stats --json``, ``export --format jsonl`` and a site as forks of this process, and checks
what they say against what a naive count of the folder says should count.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

from hypothesis import strategies as st

import hostile_campaign as hc
from hostile_campaign import Cmd, Ctx, Run, basic, campaign_of, raw_problems
from hostile_checks import write_file

from ginlog.log.events import Note
from ginlog.match.session import MatchSession
from ginlog.text import names_clash

SAMPLES = hc.ROOT / "sample_games"
GAMES = ("standard", "modern", "table-view", "score-pad", "hollywood")
PLANTS = ("hardlink", "symlink", "copy", "prefix", "fork", "folder-link", "absolute")


def _sample(name: str) -> bytes:
    """A sample game's bytes; for another ginlog under test (``GINLOG_UNDER_TEST``, an older commit), without the
    ``match_id`` it would refuse (its first line's hash is then the match's identity), so the class fails there for
    what it tests."""
    data = (SAMPLES / f"{name}-match.jsonl").read_bytes()
    if not hc.UNDER_TEST:
        return data
    from hostile_inputs import chain

    objs = [json.loads(x) for x in data.splitlines()]
    objs[0].pop("match_id", None)
    return chain(objs)


def _club(ctx: Ctx, games: int) -> tuple[Path, list[Path]]:
    d = ctx.dir("club")
    club = d / "club"
    club.mkdir()
    return d, [write_file(club / f"{name}.jsonl", _sample(name)) for name in GAMES[:games]]


def _matches(r: Run) -> int | None:
    data = r.json()
    if not isinstance(data, dict):
        return None
    return sum(int(p.get("matches", 0)) for p in data.get("players") or []) // 2


def _export_matches(r: Run) -> dict[str, set[str]]:
    """Each match id in an export's rows, with the files its rows came from."""
    out: dict[str, set[str]] = {}
    for line in r.out.decode("utf-8", "replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        out.setdefault(row.get("match"), set()).add(row.get("file"))
    return out


@campaign_of("copies")
def copies(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[int, list[tuple[str, int, int]]]) -> None:
        games, plants = case
        if ctx.once("copies"):  # the issue's own: a hard link, a symlink, two names of one folder, a backup, a fork
            plants = [("hardlink", 0, 0), ("symlink", 1, 0), ("folder-link", 0, 0), ("absolute", 0, 0),
                      ("prefix", 1, 30), ("fork", 2, 12), *plants]
            games = max(games, 3)
        d, files = _club(ctx, games)
        club = files[0].parent
        args = ["club"]
        forked: set[int] = set()
        copied: list[tuple[Path, int]] = []  # a file planted in the club, and which match it is a copy of
        for k, (plant, which, cut) in enumerate(plants):
            src = files[which % len(files)]
            lines = src.read_bytes().splitlines(keepends=True)
            dst = club / f"{src.stem}-{plant}-{k}.jsonl"
            if plant == "hardlink":
                os.link(src, dst)
            elif plant == "symlink":
                dst.symlink_to(src.name)
            elif plant == "copy":
                shutil.copy(src, dst)
            elif plant == "prefix":
                dst.write_bytes(b"".join(lines[: max(1, min(cut, len(lines) - 1))]))
            elif plant == "fork":
                dst.write_bytes(b"".join(lines[: max(2, min(cut, len(lines) - 1))]))
                MatchSession.open(dst).append([Note(text=f"a fork {k}")])
                forked.add(which % len(files))
            elif plant == "folder-link":
                link = d / f"club-link-{k}"
                link.symlink_to("club")
                args.append(link.name)
                continue
            else:
                args.append(str(src.resolve()))
                continue
            copied.append((dst, which % len(files)))
        want = len(files) - len(forked)
        not_counted = len([p for p, i in copied if i not in forked])  # (a fork's copies are errors, not copies)
        runs = ctx.run(Cmd(["stats", "--json", *args], cwd=d, fork=True),
                       Cmd(["export", "--format", "jsonl", *args], cwd=d, fork=True),
                       Cmd(["html", "club", "-o", "site"], cwd=d, fork=True))
        repro = f"a club of {len(files)} matches with {plants!r} planted: (cd FOLDER; ginlog stats --json {' '.join(args)})"
        code = 1 if forked else 0
        for r in runs:
            ctx.check("no-crash", basic(r, (code,)) + raw_problems(r.err, colour=False), f"{repro}: {r.cmd.shell()}")
        stats, export, site = runs
        got = _matches(stats)
        exported = _export_matches(export)
        probs = [] if got == want else [f"stats counted {got} matches, not {want}"]
        probs += [] if len(exported) == want else [f"the export has the rows of {len(exported)} matches, not {want}"]
        probs += [f"match {m}'s rows come from {sorted(f)}" for m, f in exported.items() if len(f) != 1]
        ctx.check("counted-once", probs, repro)
        warned = [ln for ln in stats.err.decode("utf-8", "replace").splitlines() if ln.endswith("[copy] (warning)")]
        said = [ln for ln in warned if "the same match as" in ln or "are the first of" in ln]
        notices = [ln for ln in warned if ln not in said]  # what the walk read once: a folder's second name, a file in it
        again = len([1 for plant, _w, _c in plants if plant in ("folder-link", "absolute")])
        named = [] if len(said) == not_counted else [f"{len(said)} copy warnings, not {not_counted}: {said[:3]!r}"]
        named += [f"a warning that does not name both files: {ln[:200]!r}" for ln in said if ln.count("club/") < 2]
        named += [] if len(notices) == again else [f"{len(notices)} notices of what was read once, not {again}: {notices[:2]!r}"]
        ctx.check("copy-named", named, repro)
        data = stats.json() or {}
        forks = {f["file"] for f in data.get("files") or [] if any(e.get("rule") == "fork" for e in f.get("errors") or [])}
        expect = {str(files[i].relative_to(d)) for i in forked}
        ctx.check("fork-error", [] if expect <= forks and (not forked or stats.rc == 1) else
                  [f"forks of {sorted(expect)} not errors (got {sorted(forks)}, exit {stats.rc})"], repro)
        index = (d / "site" / "index.html").read_text(encoding="utf-8") if (d / "site" / "index.html").exists() else ""
        marked = index.count("a copy: counted once")
        ctx.check("site-once", [] if marked == not_counted else [f"the site's index marks {marked} copies, not {not_counted}"],
                  repro)

    plant = st.tuples(st.sampled_from(PLANTS), st.integers(0, 4), st.integers(1, 80))
    hc.drive(ctx, st.tuples(st.integers(2, len(GAMES)), st.lists(plant, min_size=1, max_size=5)), n, seed, body)


#: Spellings that clash with "Ann" (case, compatibility, UTS #39 skeletons) and names that do not.
ANNS = ("Ann", "ann", "ANN", "\u0410nn", "\uff21nn", "A\u0274\u0274")
OTHERS = ("Bob", "Cy", "Dee")


def _sample_with(players: tuple[str, str], path: Path, k: int) -> Path:
    """The standard sample's match with other players (its match id made its own)."""
    lines = _sample("standard").splitlines()
    objs = [json.loads(x) for x in lines]
    mapping = {"Ann": players[0], "Bob": players[1]}
    text = json.dumps(objs).replace('"Ann"', "\0A").replace('"Bob"', "\0B")
    text = text.replace("\0A", json.dumps(mapping["Ann"])).replace("\0B", json.dumps(mapping["Bob"]))
    objs = json.loads(text)
    if not hc.UNDER_TEST:
        objs[0]["match_id"] = f"{k:032x}"
    objs[0]["title"] = f"match {k}"
    from hostile_inputs import chain

    return write_file(path, chain(objs))


@campaign_of("lookalike")
def lookalike(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: list[tuple[str, str]]) -> None:
        pairs = case
        if ctx.once("lookalike"):
            pairs = [("Ann", "Bob"), ("ann", "Bob"), ("\u0410nn", "Bob"), *pairs]
        d = ctx.dir("names")
        club = d / "club"
        club.mkdir()
        for k, pair in enumerate(pairs):
            _sample_with(pair, club / f"m{k}.jsonl", k + 1)
        names = sorted({n for p in pairs for n in p})
        clashing = {(a, b) for i, a in enumerate(names) for b in names[i + 1:] if names_clash(a, b)}
        roster = d / "players.toml"
        anns = [x for x in names if x in ANNS]
        roster.write_text('[[player]]\nname = "Ann Lee"\naliases = [' + ", ".join(json.dumps(a) for a in anns) + "]\n",
                          encoding="utf-8")
        plain, merged = ctx.run(Cmd(["stats", "--json", "club"], cwd=d, fork=True),
                                Cmd(["stats", "--json", "club", "--players", "players.toml"], cwd=d, fork=True))
        repro = f"matches {pairs!r}: (cd FOLDER; ginlog stats --json club [--players players.toml])"
        for r in (plain, merged):
            ctx.check("no-crash", basic(r, (0,)) + raw_problems(r.err, colour=False), f"{repro}: {r.cmd.shell()}")
        data = plain.json() or {}
        players = {p.get("name") for p in data.get("players") or []}
        warned = {tuple(sorted(w.get("message", "").split("'")[1:4:2])) for w in data.get("warnings") or []}
        probs = [] if players == set(names) else [f"players {sorted(players)!r}, not {names!r} (kept apart)"]
        probs += [f"{a!r} and {b!r} look alike, and no warning says so" for a, b in clashing if tuple(sorted((a, b))) not in warned]
        ctx.check("warned-apart", probs, repro)
        mdata = merged.json() or {}
        mplayers = {p.get("name") for p in mdata.get("players") or []}
        want = (set(names) - set(anns)) | ({"Ann Lee"} if anns else set())
        ctx.check("players-file", [] if mplayers == want and not [w for w in mdata.get("warnings") or []
                                                                   if "Ann" in w.get("message", "")]
                  else [f"with the players file: {sorted(mplayers)!r}, not {sorted(want)!r}"], repro)

    pair = st.tuples(st.sampled_from(ANNS), st.sampled_from(OTHERS))
    hc.drive(ctx, st.lists(pair, min_size=1, max_size=4), n, seed, body)


@campaign_of("order")
def order(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: tuple[int, int, bool]) -> None:
        games, shuffle_seed, same_time = case
        d, files = _club(ctx, games)
        if same_time or ctx.once("order"):  # matches begun in the same millisecond: ties broken by content
            for k, f in enumerate(files):
                lines = f.read_bytes().splitlines()
                objs = [json.loads(x) for x in lines]
                objs[0]["ts"] = "2026-03-06T19:00:00.000Z"
                from hostile_inputs import chain

                f.write_bytes(chain(objs))
        shutil.copy(files[0], files[0].with_name("zz-copy.jsonl"))
        names = [str(p.relative_to(d)) for p in files] + ["club/zz-copy.jsonl"]
        other = list(names)
        random.Random(shuffle_seed).shuffle(other)
        orders = (names, other, list(reversed(names))) if getattr(ctx, "long", False) else (other, list(reversed(names)))
        runs = ctx.run(*(Cmd([*words, *args], cwd=d, fork=True) for args in orders
                         for words in (["stats", "--json"], ["export", "--format", "jsonl"])))
        repro = f"{len(names)} files (same start: {same_time}) named in orders {names!r} and {other!r}"
        for r in runs:
            ctx.check("no-crash", basic(r, (0,)) + raw_problems(r.err, colour=False), f"{repro}: {r.cmd.shell()[:200]}")
        stats = {r.out for r in runs[0::2]}
        export = {r.out for r in runs[1::2]}
        probs = ([] if len(stats) == 1 else ["stats --json differs with the order of the arguments"]) + (
            [] if len(export) == 1 else ["the export differs with the order of the arguments"])
        ctx.check("same-output", probs, repro)

    most = len(GAMES) if getattr(ctx, "long", False) else 3  # (the hollywood sample is the longest: the long run's)
    hc.drive(ctx, st.tuples(st.integers(2, most), st.integers(0, 10**6), st.booleans()), n, seed, body)

