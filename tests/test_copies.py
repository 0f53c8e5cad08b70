"""A match counted once (issue 20, item 2): links, copies, backups and forks in ``stats``, ``export`` and the site.

Each test builds a small club folder and runs the commands as a user would
(in this process, through ``ginlog.app.cli.data``: the CLI's own functions,
so the default run stays cheap), then reads their output. On the code before
this work every one of these counted a match as many times as it had files
(exit 0, no word), or called ``stats club club2`` (``club2`` a link to
``club``) an error.

:func:`test_judge_agrees_with_brute_force` checks the rule itself against a
naive oracle over random families of copies (prefixes, identical copies,
forks), with the files' lines held in memory.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginlog.app.cli import data as cli_data
from ginlog.app.data.copies import Copy, judge
from ginlog.game.rules import preset
from ginlog.game.seats import Seat
from ginlog.log.events import MatchStarted, Note
from ginlog.match.session import MatchSession
from ginlog.play.simulate import simulate_match

from budget import examples
from data_matches import EPOCH, encode_match


def _match(seed: int, players: tuple[str, str] = ("Ann", "Bob"), minutes: int = 0, match_id: str | None = None) -> bytes:
    events = simulate_match(preset("openspiel"), seed=seed, players=players)
    if match_id is not None:
        first = events[0]
        assert isinstance(first, MatchStarted)
        events = [attrs.evolve(first, match_id=match_id), *events[1:]]
    return encode_match(events, EPOCH + timedelta(minutes=minutes or seed))


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """``club/``: three different matches, a.jsonl, b.jsonl, c.jsonl."""
    folder = tmp_path / "club"
    folder.mkdir()
    for i, name in enumerate("abc"):
        (folder / f"{name}.jsonl").write_bytes(_match(i + 1))
    return folder


def _stats(args: list[str], capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, dict[str, Any], str]:
    code = cli_data.stats(args, json_=True, players_file=more[0] if more else None)
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def _matches(data: dict[str, Any]) -> int:
    return sum(int(p["matches"]) for p in data["players"]) // 2


def test_links_copies_and_two_names_of_one_folder_count_once(club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.link(club / "a.jsonl", club / "hard.jsonl")
    (club / "sym.jsonl").symlink_to("b.jsonl")
    shutil.copy(club / "c.jsonl", club / "c-backup.jsonl")
    (tmp_path / "club2").symlink_to(club)
    code, data, err = _stats([str(club), str(tmp_path / "club2"), str(club / "a.jsonl"), str(club / ".." / "club" / "b.jsonl")],
                             capsys)
    assert code == 0, err  # (club2 was "no match file in this folder" before: a false error)
    assert _matches(data) == 3
    copies = {w["file"]: w for f in data["files"] for w in f["warnings"] if w["rule"] == "copy"}
    # of identical copies the first by path counts ("c-backup.jsonl" before "c.jsonl"), whatever order they came in
    assert set(copies) == {str(club / "hard.jsonl"), str(club / "sym.jsonl"), str(club / "c.jsonl")}
    assert str(club / "a.jsonl") in copies[str(club / "hard.jsonl")]["message"]  # the warning names both paths
    assert str(club / "c-backup.jsonl") in copies[str(club / "c.jsonl")]["message"]
    for name in ("hard", "sym", "c"):
        assert f"{club / name}.jsonl: the same match as " in err
    # what the walk reads once (a folder by its second name, a file inside a folder named too) is said as well
    said = {w["file"]: w["message"] for w in data["warnings"]}
    assert said[str(tmp_path / "club2")] == f"the same folder as {club}: searched once"
    assert said[str(club / "a.jsonl")] == "in a folder searched already: read once"
    assert f"{tmp_path / 'club2'}: the same folder as {club}: searched once [copy] (warning)" in err


def test_an_earlier_backup_does_not_count_and_is_named(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (club / "a.jsonl").read_bytes().splitlines(keepends=True)
    (club / "a-old.jsonl").write_bytes(b"".join(lines[: len(lines) // 2]))
    code, data, err = _stats([str(club)], capsys)
    assert code == 0 and _matches(data) == 3
    hands = {p["name"]: p["hands"] for p in data["players"]}
    assert hands == {"Ann": 3, "Bob": 3}  # one hand a match: the backup's hand is not counted again
    said = [w for f in data["files"] for w in f["warnings"] if w["rule"] == "copy"]
    assert len(said) == 1 and said[0]["file"] == str(club / "a-old.jsonl")
    assert f"are the first of {club / 'a.jsonl'}" in said[0]["message"]


def test_a_fork_is_an_error_in_both_and_neither_counts(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (club / "a.jsonl").read_bytes().splitlines(keepends=True)
    fork = club / "a-fork.jsonl"
    fork.write_bytes(b"".join(lines[:10]))
    MatchSession.open(fork).append([Note(text="written on another copy")])
    code, data, err = _stats([str(club)], capsys)
    assert code == 1
    assert _matches(data) == 2  # b and c
    bad = {f["file"]: f for f in data["files"] if not f["ok"]}
    assert set(bad) == {str(club / "a.jsonl"), str(fork)}
    for f in bad.values():
        assert f["errors"][0]["rule"] == "fork" and "differ from line 11" in f["errors"][0]["message"]
    assert f"{fork}: the same match as {club / 'a.jsonl'}" in err


def test_an_invalid_longer_copy_leaves_its_valid_prefix_counting(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = (club / "a.jsonl").read_bytes()
    (club / "a.jsonl").write_bytes(good[: good.rindex(b"\n", 0, len(good) - 1) + 1])  # its last line gone: valid
    (club / "a-damaged.jsonl").write_bytes(good + b"not json\n")
    code, data, _err = _stats([str(club)], capsys)
    assert code == 1 and _matches(data) == 3
    by_file = {f["file"]: f for f in data["files"]}
    assert by_file[str(club / "a.jsonl")]["ok"] and not by_file[str(club / "a-damaged.jsonl")]["ok"]
    assert by_file[str(club / "a-damaged.jsonl")]["errors"][0]["rule"] != "fork"


def test_export_writes_each_match_once_in_the_order_they_began(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.link(club / "c.jsonl", club / "0-first-by-name.jsonl")
    assert cli_data.export([str(club)], "csv") == 0
    out = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out.out)))
    # by start, not by name; c's rows once, from the first of its copies by path
    assert [r["file"] for r in rows] == [str(club / f"{n}.jsonl") for n in ("a", "b", "0-first-by-name")]
    assert f"{club / 'c.jsonl'}: the same match as {club / '0-first-by-name.jsonl'}" in out.err


def test_the_site_counts_each_match_once(club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.link(club / "a.jsonl", club / "hard.jsonl")
    assert cli_data.site(str(club), str(tmp_path / "site")) == 0
    err = capsys.readouterr().err
    assert "4 match files, 0 invalid, 1 a copy of another" in err
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert index.count("a copy: counted once") == 1
    assert "<td>Ann</td><td>3</td>" in index.replace('<td class="n">', "<td>")  # Ann: 3 matches, not 4


# --------------------------------------------------------------------------- match_id


def test_new_matches_get_ids_and_an_import_keeps_one(tmp_path: Path) -> None:
    a = MatchSession.create(tmp_path / "a.jsonl", ("Ann", "Bob"), preset("standard"))
    b = MatchSession.create(tmp_path / "b.jsonl", ("Ann", "Bob"), preset("standard"))
    ids = [json.loads(p.read_bytes().splitlines()[0])["match_id"] for p in (tmp_path / "a.jsonl", tmp_path / "b.jsonl")]
    assert a is not b and ids[0] != ids[1] and all(len(i) == 32 for i in ids)
    from ginlog.app.importers.openspiel import OpenSpiel

    record = sorted((Path(__file__).parent / "data" / "openspiel" / "records").glob("*.txt"))[0]
    for d in ("i1", "i2"):
        (tmp_path / d).mkdir()
    one, two = (OpenSpiel().write_one(record, tmp_path / d) for d in ("i1", "i2"))
    first = [json.loads(p.read_bytes().splitlines()[0]) for p in (one, two)]
    assert first[0]["match_id"] == first[1]["match_id"]


def test_a_match_id_that_is_not_32_hex_digits_is_refused() -> None:
    from ginlog.errors import EventError

    with pytest.raises(EventError, match="32 lowercase hex digits"):
        MatchStarted(players=("Ann", "Bob"), rules=preset("standard"), match_id="ABC")


def test_two_matches_begun_together_are_two_by_their_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same players, rules and millisecond: one match to a first-line hash, two to their ids."""
    club = tmp_path / "club"
    club.mkdir()
    (club / "x.jsonl").write_bytes(_match(3, minutes=5, match_id="1" * 32))
    (club / "y.jsonl").write_bytes(_match(4, minutes=5, match_id="2" * 32))
    code, data, _err = _stats([str(club)], capsys)
    assert code == 0 and _matches(data) == 2


# --------------------------------------------------------------------------- order-free


def test_every_figure_is_the_same_in_any_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Standings, ratings, the files' list and the export, for every order of the arguments (``--run-slow``; eight
    of them in the default run); three matches begin in the same millisecond (their ratings followed the order of
    the arguments before)."""
    names = []
    for i, (players, minutes) in enumerate(((("Ann", "Bob"), 7), (("Bob", "Cy"), 7), (("Cy", "Ann"), 9), (("Ann", "Cy"), 7))):
        p = tmp_path / f"m{i}.jsonl"
        p.write_bytes(_match(i + 1, players, minutes=minutes))
        names.append(str(p))
    shutil.copy(names[0], tmp_path / "m0-copy.jsonl")
    names.append(str(tmp_path / "m0-copy.jsonl"))
    seen_stats, seen_export = set(), set()
    orders = list(itertools.permutations(names))  # 120; the quick run takes every 15th, and the reverse
    for order in orders[:: 120 // examples(120, quick=8)] + orders[-1:]:
        code, data, _err = _stats(list(order), capsys)
        assert code == 0
        seen_stats.add(json.dumps(data, sort_keys=True))
        assert cli_data.export(list(order), "jsonl") == 0
        seen_export.add(capsys.readouterr().out)
    assert len(seen_stats) == 1 and len(seen_export) == 1
    ratings = {p["name"]: p["rating"] for p in json.loads(seen_stats.pop())["players"]}
    assert len(set(ratings.values())) > 1


# --------------------------------------------------------------------------- the rule, against brute force


def _naive(files: dict[str, tuple[str, ...]]) -> dict[str, bool]:
    """Which files count: per first line, every pair of files must be one the other's beginning; then the longest
    (the first by name among equals) counts."""
    out: dict[str, bool] = {}
    groups: dict[str, list[str]] = {}
    for name, lines in files.items():
        groups.setdefault(lines[0], []).append(name)
    for names in groups.values():
        chain = all(files[a][: len(files[b])] == files[b] or files[b][: len(files[a])] == files[a]
                    for a, b in itertools.combinations(names, 2))
        best = min(names, key=lambda n: (-len(files[n]), n))
        for n in names:
            out[n] = chain and n == best
    return out


@st.composite
def _families(draw: st.DrawFn) -> dict[str, tuple[str, ...]]:
    files: dict[str, tuple[str, ...]] = {}
    for m in range(draw(st.integers(1, 3))):
        trunk = tuple(f"m{m}-{i}" for i in range(draw(st.integers(1, 6))))
        for c in range(draw(st.integers(1, 4))):
            cut = draw(st.integers(1, len(trunk)))
            tail = tuple(f"fork{m}-{c}-{i}" for i in range(draw(st.integers(0, 2)) if draw(st.booleans()) else 0))
            files[f"{m}-{c}.jsonl"] = trunk[:cut] + tail
    return files


@settings(max_examples=examples(300, quick=60), deadline=None)
@given(_families())
def test_judge_agrees_with_brute_force(files: dict[str, tuple[str, ...]]) -> None:
    def differ(a: str, b: str, n: int) -> int | None:
        la, lb = files[a], files[b]
        for i in range(n):
            if i >= len(la) or i >= len(lb) or la[i] != lb[i]:
                return i + 1
        return None

    copies = [Copy(name, lines[0], len(lines), lines[-1] + str(len(lines))) for name, lines in files.items()]
    judged = judge(copies, differ)
    assert {c.path: judged[c].counts for c in copies} == _naive(files)
    for c in copies:
        j = judged[c]
        assert j.counts or j.warnings or j.errors  # a copy left out is always told why
        assert not (j.errors and j.counts)


def test_ratings_of_matches_begun_together_do_not_depend_on_the_order_they_are_added() -> None:
    """The rating on its own: matches begun in the same millisecond are played in the order of their identity."""
    from ginlog.app.data.rating import Elo

    ts = "2026-03-01T12:00:00.000Z"
    matches: list[tuple[str, str, Seat, str]] = [("Ann", "Bob", 0, "a" * 32), ("Bob", "Cy", 1, "b" * 32), ("Cy", "Ann", 0, "c" * 32), ("Ann", "Cy", 1, "d" * 32)]
    seen = set()
    for order in itertools.permutations(matches):
        elo = Elo()
        for first, second, winner, match in order:
            elo.add(ts, first, second, winner=winner, match=match)
        seen.add(tuple(sorted((n, round(r, 9)) for n, r in elo.ratings().items())))
    assert len(seen) == 1


def test_the_audit_says_what_it_read_once(club: Path, tmp_path: Path) -> None:
    from test_cli import exe

    (tmp_path / "club2").symlink_to(club)
    r = exe("audit", club, tmp_path / "club2", club / "a.jsonl")
    assert r.returncode == 0
    assert f"{tmp_path / 'club2'}: the same folder as {club}: searched once [copy] (warning)" in r.stderr
    assert f"{club / 'a.jsonl'}: in a folder searched already: read once [copy] (warning)" in r.stderr
