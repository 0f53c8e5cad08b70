"""``ginlog stats``: every figure against a naive recount from the events and the score sheet, invalid files left out.

The recount here shares nothing with :mod:`ginlog.app.data.stats` but the reducer:
it folds each generated match's *event list* (not the file), reads the names
off ``score_json`` (the views' sheet, by name), takes how each hand ended
from the raw events (a ``knocked`` event, a ``gin``...), and plays Elo with
the textbook formula in the order the matches began.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.cli import data as cli_data
from ginlog.match.dated import Dated
from ginlog.app.views.match_json import score_json
from ginlog.log.events import BigGin, Gin, HandDealt, HandResultOnly, Knocked
from ginlog.match.reading import read
from ginlog.play.reducer import fold

from data_matches import Generated, corpus, line_ts, ts_at


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Generated], list[Path]]:
    folder = tmp_path_factory.mktemp("stats")
    made, bad = corpus(folder)
    return folder, made, bad


def hows(events: tuple[Any, ...]) -> list[str]:
    """How each hand ended, from the raw events alone (no correction in these matches undoes an ending)."""
    out: list[str] = []
    for e in events:
        if isinstance(e, HandDealt):
            out.append("void")
        elif isinstance(e, Knocked):
            out[-1] = "knock"
        elif isinstance(e, Gin):
            out[-1] = "gin"
        elif isinstance(e, BigGin):
            out[-1] = "big_gin"
        elif isinstance(e, HandResultOnly):
            out.append(e.how)
    return out


def naive(made: list[Generated]) -> tuple[dict[str, dict[str, Any]], dict[tuple[str, str], dict[str, Any]]]:
    players: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    pairs: dict[tuple[str, str], dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    rated = []
    for g in made:
        state = fold(list(g.events)).state
        sheet = score_json(state, None)
        names = sheet["players"]
        how = hows(g.events)[: len(sheet["hands"])]
        pair = tuple(sorted(names))
        pairs[pair]["matches"] += 1
        for name in names:
            p = players[name]
            p["matches"] += 1
            p["matches_finished"] += sheet["complete"]
            p["matches_won"] += sheet["winner"] == name
            pairs[pair]["wins " + name] += sheet["winner"] == name
        if sheet["complete"] and sheet["winner"] is not None:
            rated.append((g.start, names, sheet["winner"]))
        for row, h in zip(sheet["hands"], how):
            if h == "knock" and row["deadwood"][row["out"]] == 0:
                h = "gin"  # the definition (docs/DATA.md): out with no deadwood is a gin, however recorded
            pairs[pair]["hands"] += 1
            for name in names:
                p = players[name]
                p["hands"] += 1
                if row["winner"] == name:
                    p["hands_won"] += 1
                    p["points"] += row["points"]
                    pairs[pair]["hands_won " + name] += 1
                    pairs[pair]["points " + name] += row["points"]
                    p["undercuts"] += row["outcome"] == "undercut"
                if row["out"] == name and h in ("gin", "big_gin"):
                    p["gins"] += 1  # won or not: a gin that scores 0 is still one
                if row["out"] == name and h == "knock":
                    p["knocks"] += 1
                    p["knock_dw"] += row["deadwood"][name]
                    p["was_undercut"] += row["outcome"] == "undercut"
                if row["out"] is not None and row["out"] != name:
                    p["defences"] += 1
                    p["defence_dw"] += row["deadwood"][name]
                    p["opp_knocks"] += h == "knock"
        for name in names:
            players[name]["bonus_points"] += sheet["totals"][name]
    for name, p in players.items():
        p["bonus_points"] -= p["points"]
    # Elo, K = 32, from 1500, in the order the matches began.
    rating: dict[str, float] = defaultdict(lambda: 1500.0)
    for _start, (a, b), winner in sorted(rated, key=lambda r: r[0]):
        loser = b if winner == a else a
        e = 1 / (1 + 10 ** ((rating[loser] - rating[winner]) / 400))
        rating[winner] += 32 * (1 - e)
        rating[loser] -= 32 * (1 - e)
        players[winner]["rated"] += 1
        players[loser]["rated"] += 1
    for name in players:
        players[name]["rating"] = rating[name] if players[name]["rated"] else None
    return players, pairs


def rate(n: float, d: float) -> float | None:
    return None if d == 0 else n / d


def run_stats(capsys: pytest.CaptureFixture[str], *args: Any, **kw: Any) -> tuple[int, str, str]:
    code = cli_data.stats(*args, **kw)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_figure_agrees_with_a_naive_recount(generated: Any, capsys: pytest.CaptureFixture[str]) -> None:
    folder, made, bad = generated
    code, out, err = run_stats(capsys, [str(folder), str(folder / "missing.jsonl")], json_=True)
    assert code == 1  # invalid files were found; the figures are still printed
    data = json.loads(out)
    assert sorted(data) == ["files", "head_to_head", "players", "warnings"]
    want, pairs = naive(made)
    got = {p["name"]: p for p in data["players"]}
    assert set(got) == set(want) == {"Ann", "Bob", "Cy", "Dee"}
    # The sample covers every kind of hand and result.
    assert all(sum(want[n][k] for n in want) > 0 for k in ("gins", "knocks", "undercuts", "was_undercut", "bonus_points"))
    for name, w in want.items():
        g = got[name]
        for key in ("matches", "matches_finished", "matches_won", "hands", "hands_won", "points", "bonus_points",
                    "gins", "knocks", "undercuts", "was_undercut"):
            assert g[key] == w[key], (name, key)
        expect_rates = {
            "match_win_rate": rate(w["matches_won"], w["matches_finished"]),
            "hand_win_rate": rate(w["hands_won"], w["hands"]),
            "points_per_hand": rate(w["points"], w["hands"]),
            "gin_rate": rate(w["gins"], w["hands"]),
            "knock_rate": rate(w["knocks"], w["hands"]),
            "undercut_rate": rate(w["undercuts"], w["opp_knocks"]),
            "avg_deadwood_knocking": rate(w["knock_dw"], w["knocks"]),
            "avg_deadwood_defending": rate(w["defence_dw"], w["defences"]),
        }
        for key, value in expect_rates.items():
            assert (g[key] is None) == (value is None) and (value is None or math.isclose(g[key], value, abs_tol=5e-5)), (name, key)
        assert g["rated_matches"] == w["rated"]
        assert (g["rating"] is None) == (w["rating"] is None)
        if w["rating"] is not None:
            assert abs(g["rating"] - w["rating"]) <= 0.05, name
    # Elo depends on the order: the files' order would give other ratings.
    assert len({round(p["rating"] or 0, 1) for p in data["players"]}) > 2
    # Standings: by matches won, then points.
    order = [p["name"] for p in data["players"]]
    assert order == sorted(order, key=lambda n: (-want[n]["matches_won"], -want[n]["points"], n))
    # Head to head, each pair once, names sorted.
    h2h = {tuple(h["players"]): h for h in data["head_to_head"]}
    assert set(h2h) == set(pairs)
    for (a, b), w in pairs.items():
        h = h2h[(a, b)]
        assert h["matches"] == w["matches"] and h["hands"] == w["hands"]
        assert h["wins"] == {a: w["wins " + a], b: w["wins " + b]}
        assert h["hands_won"] == {a: w["hands_won " + a], b: w["hands_won " + b]}
        assert h["points"] == {a: w["points " + a], b: w["points " + b]}
    # Every file has its verdict; the invalid ones are listed and none of their figures counted.
    verdicts = {v["file"]: v for v in data["files"]}
    assert set(verdicts) == {str(g.path) for g in made} | {str(p) for p in bad} | {str(folder / "missing.jsonl")}
    assert all(verdicts[str(g.path)]["ok"] for g in made)
    assert not any(verdicts[str(p)]["ok"] for p in bad) and not verdicts[str(folder / "missing.jsonl")]["ok"]
    for p in [*bad, folder / "missing.jsonl"]:
        assert verdicts[str(p)]["errors"] and str(p) in err
    for g in made:
        v = verdicts[str(g.path)]
        assert v["start"] == ts_at(g.start) and v["end"] == line_ts(g.start, len(g.events))
        assert v["events"] == len(g.events)


def test_only_valid_files_exit_zero_and_csv_is_one_row_per_player(generated: Any, capsys: pytest.CaptureFixture[str]) -> None:
    folder, made, _bad = generated
    code, out, err = run_stats(capsys, [str(folder / "valid")], json_=True)
    # Issue 19: the valid files' warnings are said, as audit says them (a score pad with a huge target here).
    assert code == 0 and err and all(line.endswith("(warning)") for line in err.splitlines()), err
    players = json.loads(out)["players"]
    code, out, _ = run_stats(capsys, [str(folder / "valid")], csv_=True)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["name"] for r in rows] == [p["name"] for p in players]
    for r, p in zip(rows, players):
        assert r == {k: "" if v is None else str(v) for k, v in p.items()}
    # The invalid files change nothing but the verdicts.
    code, out, _ = run_stats(capsys, [str(folder)], json_=True)
    assert code == 1 and json.loads(out)["players"] == players


def test_text_output_and_usage(generated: Any, capsys: pytest.CaptureFixture[str]) -> None:
    folder, _made, bad = generated
    code, out, err = run_stats(capsys, [str(folder)])
    assert code == 1
    assert "Standings" in out and "Ann v Bob:" in out and f"{3 + 17} files: 17 valid, 3 invalid" in out
    assert all(str(p) in err for p in bad)
    assert run_stats(capsys, [str(folder)], json_=True, csv_=True)[0] == 2


def test_no_files_at_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As for audit (issue 13): a folder holding no match file is a problem in the report, and exit 1."""
    code, out, _ = run_stats(capsys, [str(tmp_path)], json_=True)
    data = json.loads(out)
    assert code == 1 and data["players"] == [] and data["head_to_head"] == []
    assert [(f["file"], f["ok"], f["errors"][0]["rule"]) for f in data["files"]] == [(str(tmp_path), False, "file")]


def test_dates_of_hands_with_and_without_the_fast_path(generated: Any) -> None:
    _folder, made, _bad = generated
    for g in made:
        starts = [seq for seq, e in enumerate(g.events, 1) if isinstance(e, (HandDealt, HandResultOnly))]
        for known in ("shared", None):
            r = read(str(g.path), Dated([])) if known else read(str(g.path), Dated([]), known=None)
            assert r.ok and r.report.state is not None
            n = len(r.report.state.hands)
            assert r.hand_begins == tuple(line_ts(g.start, s) for s in starts[:n]), g.path.name
            assert r.start == ts_at(g.start) and r.end == line_ts(g.start, len(g.events))


def test_a_correction_that_undoes_a_deal_takes_its_date_back(tmp_path: Path) -> None:
    from ginlog.game.rules import preset
    from ginlog.log.events import Correction
    from ginlog.play.simulate import simulate_match

    from data_matches import EPOCH, write

    events = simulate_match(preset("standard"), seed=3, max_hands=2)
    second = [i for i, e in enumerate(events) if isinstance(e, HandDealt)][1]
    events = [*events[: second + 1], Correction(undoes=second + 1), *events[second:]]
    path = write(tmp_path / "c.jsonl", events, EPOCH)
    r = read(str(path), Dated([]))
    assert r.ok
    starts = [1 + i for i, e in enumerate(events) if isinstance(e, HandDealt)]
    assert r.hand_begins == (line_ts(EPOCH, starts[0]), line_ts(EPOCH, starts[2]))


def test_a_knock_that_leaves_no_deadwood_is_a_gin_in_stats_and_the_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 22: one definition of a knock and a gin. A score pad's ``knock 0``, an OpenSpiel gin (its knock action,
    then no deadwood shown) and a gin that scores 0 are gins, never knocks, and leave the knocking average; stats and
    the export's ``how`` agree with a naive recount from the events."""
    import attrs

    from ginlog.app.importers.openspiel import OpenSpiel, import_file
    from ginlog.log.events import HandShown
    from ginlog.game.rules import preset
    from ginlog.log.events import FirstDealer, MatchStarted

    from data_matches import EPOCH, write

    rules = attrs.evolve(preset("standard"), game_target=10**6, gin_bonus=0)
    pad: list[Any] = [
        MatchStarted(players=("Ann", "Bob"), rules=rules), FirstDealer(dealer="Bob", how="agreed"),
        HandResultOnly(how="knock", out="Ann", knocker_deadwood=0, defender_deadwood=20),  # a gin, 20
        HandResultOnly(how="knock", out="Ann", knocker_deadwood=5, defender_deadwood=20),  # a knock, 15
        HandResultOnly(how="gin", out="Ann", knocker_deadwood=0, defender_deadwood=0),  # a gin that scores 0
        HandResultOnly(how="knock", out="Bob", knocker_deadwood=7, defender_deadwood=3),  # Bob knocks, undercut
    ]
    write(tmp_path / "pad.jsonl", pad, EPOCH)
    records = Path(__file__).parent / "data" / "openspiel" / "records"
    spiel = json.loads((records / "returns.json").read_text())
    gin = next(n for n, i in sorted(spiel.items()) if "gin" in i["tags"] and "zero_point" not in i["tags"])
    imported = import_file(records / gin, tmp_path)
    code, out, _err = run_stats(capsys, [str(tmp_path)], json_=True)
    assert code == 0
    got = {p["name"]: p for p in json.loads(out)["players"]}
    assert (got["Ann"]["gins"], got["Ann"]["knocks"], got["Ann"]["avg_deadwood_knocking"]) == (2, 1, 5.0)
    assert (got["Bob"]["knocks"], got["Bob"]["was_undercut"], got["Ann"]["undercuts"], got["Ann"]["undercut_rate"]) == (1, 1, 1, 1.0)
    assert cli_data.export([str(tmp_path)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["how"] for r in rows if r["file"].endswith("pad.jsonl")] == ["gin", "knock", "gin", "knock"]
    assert [r["outcome"] for r in rows if r["file"].endswith("pad.jsonl")] == ["gin", "knock", "gin", "undercut"]
    # The naive recount, from the events: who went out, and what deadwood they declared or showed.
    want: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for e in pad:
        if isinstance(e, HandResultOnly) and e.out is not None:
            want[e.out]["gins" if e.how == "gin" or e.knocker_deadwood == 0 else "knocks"] += 1
    spiel_events = OpenSpiel().read(str(records / gin))
    knocker = next(e.player for e in spiel_events if isinstance(e, Knocked))
    shown = next(e for e in spiel_events if isinstance(e, HandShown) and e.player == knocker)
    melded = {c for m in shown.melds or () for c in m}
    left = sum(c.value for c in shown.cards if c not in melded)
    want[knocker]["gins" if left == 0 else "knocks"] += 1
    assert left == 0  # the fixture is a gin: OpenSpiel's knock action, no deadwood shown
    for name, w in want.items():
        assert (got[name]["gins"], got[name]["knocks"]) == (w["gins"], w["knocks"]), name
    spiel_row = next(r for r in rows if r["file"] == str(imported))
    assert (spiel_row["how"], spiel_row["out"]) == ("gin", knocker)
    assert got[knocker]["knocks"] == 0 and got[knocker]["avg_deadwood_knocking"] is None


def test_readme_documents_every_key_and_column() -> None:
    from ginlog.app.data.export import COLUMNS
    from ginlog.app.data.stats import PLAYER_KEYS

    root = Path(__file__).resolve().parent.parent
    text = (root / "README.md").read_text(encoding="utf-8") + (root / "docs" / "DATA.md").read_text(encoding="utf-8")
    missing = [k for k in (*PLAYER_KEYS, *COLUMNS, "head_to_head", "files", "players") if f"`{k}`" not in text and f'"{k}"' not in text]
    assert not missing, f"not in the README: {missing}"


