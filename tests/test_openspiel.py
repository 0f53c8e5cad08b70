"""Importing OpenSpiel gin_rummy records: every fixture made by the real engine
replays under ginlog's reducer to exactly the returns OpenSpiel gave."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import attrs
import pytest
from typing import Any

from ginlog.app.check.audit import audit_file
from ginlog.app.cli import command
from ginlog.errors import GinlogError
from ginlog.log.events import MatchStarted
from ginlog.match.reading import read_match
from ginlog.app.importers.openspiel import MELDS, RANGES, SUPPORTED, import_file, parse_record, record_events
from ginlog.play.reducer import fold
from ginlog.app.views.match import hand_summary
from ginlog.app.views.match_json import score_json

from test_cli import invoke

DATA = Path(__file__).parent / "data" / "openspiel"
RECORDS = DATA / "records"
RETURNS: dict[str, dict[str, Any]] = json.loads((RECORDS / "returns.json").read_text())
REFUSED_DIR = DATA / "refused"
REFUSED: dict[str, dict[str, Any]] = json.loads((REFUSED_DIR / "refused.json").read_text())


def test_fixtures_cover_what_the_issue_asks() -> None:
    assert len(RETURNS) >= 200
    tags = [t for info in RETURNS.values() for t in info["tags"]]
    for tag in ("gin", "knock", "undercut", "tie", "layoff", "void_stock", "void_upcard_limit", "void_upcard_loop", "wall_knock"):
        assert tags.count(tag) >= 3, tag
    configs = {json.dumps(info["params"], sort_keys=True) for info in RETURNS.values()}
    assert len(configs) >= 3
    assert any(info["params"]["oklahoma"] for info in RETURNS.values())
    assert any(info["params"]["gin_bonus"] == 20 and info["params"]["undercut_bonus"] == 10 for info in RETURNS.values())


def test_fixtures_hold_first_upcard_bounces() -> None:
    """Issue 13: OpenSpiel's repeated-move void counts a bounce of the very first upcard (0.33% of uniform hands)."""
    bounces = [name for name, info in RETURNS.items() if "first_upcard_bounce" in info["tags"]]
    assert len(bounces) >= 10
    for name in bounces:
        assert {"void_upcard_loop", "first_upcard_taken"} <= set(RETURNS[name]["tags"])


def test_a_first_upcard_bounce_counts_only_under_the_knob() -> None:
    """The same record under the openspiel preset without loop_counts_first_upcard: the hand goes on, so it is truncated."""
    name = next(n for n, info in sorted(RETURNS.items()) if "first_upcard_bounce" in info["tags"])
    params, actions, _ = parse_record((RECORDS / name).read_text(), name)
    events = record_events(params, actions, name)
    assert score_json(fold(events).state, None)["hands"][0]["outcome"] == "void"
    first = events[0]
    assert isinstance(first, MatchStarted) and first.rules.loop_counts_first_upcard
    old = [attrs.evolve(first, rules=attrs.evolve(first.rules, loop_counts_first_upcard=False)), *events[1:]]
    assert fold(old).state.hand is not None  # ginlog's old reading: the hand still in play after the second bounce


def test_meld_numbering_matches_the_engine() -> None:
    table = json.loads((DATA / "melds.json").read_text())
    assert len(table) == len(MELDS) == 185
    for row in table:
        assert [str(c) for c in MELDS[row["action"] - 56]] == row["cards"]


@pytest.mark.parametrize("name", sorted(RETURNS))
def test_record_replays_to_openspiels_returns(name: str, tmp_path: Path) -> None:
    info = RETURNS[name]
    out = import_file(RECORDS / name, tmp_path)
    assert out == tmp_path / (Path(name).stem + ".jsonl")
    audit = audit_file(str(out))
    assert audit.ok, audit.errors
    report = read_match(out)
    assert report.state is not None
    sheet = score_json(report.state, report.head)
    (hand,) = sheet["hands"]
    r0, r1 = info["returns"]
    assert hand["net"] == {"P0": r0, "P1": r1}
    assert sheet["net"] == {"P0": r0, "P1": r1}
    tags = set(info["tags"])
    if tags & {"void_stock", "void_upcard_limit", "void_upcard_loop"}:
        assert hand["outcome"] == "void" and hand["points"] == 0
    if "undercut" in tags:
        assert hand["outcome"] == "undercut"
    if "tie" in tags:
        assert hand["winner"] is None and hand["points"] == 0
    if "layoff" in tags:
        assert any(s.layoffs for s in report.state.hands[0].shown)
    if "gin" in tags:
        assert hand["outcome"] == "gin"
    if hand["points"] == 0:  # OpenSpiel's 0 and 0: nobody won, whatever the outcome
        assert hand["winner"] is None and sheet["winner"] is None


def test_refused_fixtures_cover_each_kind() -> None:
    """Issue 22: records OpenSpiel's own deserialize_game_and_state refuses (tests/data/openspiel/mutate.py)."""
    kinds = [info["kind"] for info in REFUSED.values()]
    for kind in ("meld-before-pass", "meld-for-pass", "knocker-extra", "layoff-after-melds"):
        assert kinds.count(kind) >= 10, kind


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_record_openspiel_refuses_is_refused(name: str) -> None:
    """One line naming the record, the action OpenSpiel cannot apply, and the rule. A meld laid while the
    lay-offs are open (no 54 before it) used to end them quietly and the record was accepted."""
    info = REFUSED[name]
    with pytest.raises(GinlogError) as caught:
        record_events(*parse_record((REFUSED_DIR / name).read_text(), name))
    line = caught.value.one_line()
    assert line.startswith(f"{name}: action {info['position']}: "), line
    assert caught.value.rule == "action"
    if info["kind"].startswith("meld-"):
        assert "before laying melds" in line


def test_the_refused_fixtures_are_refused_by_the_engine() -> None:
    """The fixtures are what the issue says: OpenSpiel refuses each (where pyspiel is installed)."""
    pyspiel = pytest.importorskip("pyspiel")
    for name in sorted(REFUSED):
        with pytest.raises(Exception):
            pyspiel.deserialize_game_and_state((REFUSED_DIR / name).read_text())


def _header(game: str = "gin_rummy()") -> str:
    return f"# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n"


SAMPLE = (RECORDS / "default-050.txt").read_text()


def _actions() -> list[int]:
    return list(parse_record(SAMPLE, "x")[1])


@pytest.mark.parametrize(
    ("text", "rule", "where"),
    [
        ("hello\n", "header", None),
        (_header("chess()") + "1\n", "header", None),
        (_header("gin_rummy(knock_cards=9)"), "parameter", None),
        (_header("gin_rummy(hand_size=7)"), "parameter", None),
        (_header("gin_rummy(oklahoma=maybe)"), "parameter", None),
        (_header() + "\n".join(map(str, _actions()[:15])) + "\n", "truncated", 15),
        (_header() + "\n".join(map(str, _actions()[:-2])) + "\n", "truncated", 34),
        (_header() + "\n".join(map(str, _actions()[:21] + [53])) + "\n", "action", 22),
        (_header() + "\n".join(map(str, _actions()[:21] + [52, 52])) + "\n", "action", 23),
        (_header() + "\n".join(map(str, _actions()[:21] + ["x"])) + "\n", "action", 22),
        (_header() + "\n".join(map(str, [0] * 21)) + "\n", "duplicate-card", None),
    ],
)
def test_bad_records_name_the_record_and_the_action(text: str, rule: str, where: int | None) -> None:
    with pytest.raises(GinlogError) as info:
        record_events(*parse_record(text, "bad.txt"))
    err = info.value
    assert err.rule == rule
    assert err.path == "bad.txt"
    line = err.one_line()
    assert line.startswith("bad.txt: ")
    if where is not None:
        assert f"action {where}:" in line


def test_an_illegal_discard_is_caught_by_the_reducer() -> None:
    acts = _actions()
    # P0 takes the upcard (52) and then discards a card P1 holds.
    bad = acts[:22] + [acts[10]]
    with pytest.raises(GinlogError) as info:
        record_events(*parse_record(_header() + "\n".join(map(str, bad)) + "\n", "bad.txt"))
    assert info.value.rule == "card-elsewhere"
    assert "action 23:" in info.value.one_line()


def test_cli_import_and_audit_a_folder(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    names = sorted(RETURNS)[:12]
    for n in names:
        (src / n).write_text((RECORDS / n).read_text())
    (src / "broken.txt").write_text(_header() + "1\n2\n")
    out = tmp_path / "out"
    res = invoke(command(), ["import", "openspiel", str(src), "-o", str(out)])
    assert res.exit_code == 1  # one record failed; the others went on
    assert "imported 12 record(s)" in res.stdout and "1 failed" in res.stdout
    assert "broken.txt" in res.stderr and "Traceback" not in res.output
    assert sorted(p.name for p in out.iterdir()) == sorted(Path(n).stem + ".jsonl" for n in names)
    res = invoke(command(), ["audit", str(out)])
    assert res.exit_code == 0, res.output
    assert "Files" in res.stdout and "12" in res.stdout
    res = invoke(command(), ["audit", str(out), "--json"])
    summary = json.loads(res.stdout)["summary"]
    assert summary["files"] == summary["ok"] == summary["finished"] == 12
    # How the hands ended, as OpenSpiel's returns say: a void scores 0 for both.
    voids = sum(1 for n in names if RETURNS[n]["returns"] == [0, 0] and not {"tie"} & set(RETURNS[n]["tags"]))
    assert summary["outcomes"].get("void", 0) == voids
    assert sum(summary["outcomes"].values()) == 12
    res = invoke(command(), ["score", str(out / (Path(names[0]).stem + ".jsonl")), "--json"])
    assert json.loads(res.stdout)["hands"][0]["net"]["P0"] == RETURNS[names[0]]["returns"][0]


@pytest.mark.parametrize("name", sorted(n for n, info in RETURNS.items() if "zero_point" in info["tags"]))
def test_a_hand_that_scores_nothing_names_no_winner_in_any_view(name: str, tmp_path: Path) -> None:
    """Issue 22: gin with gin_bonus=0 against a defender at 0 deadwood, dealt and played by the engine, which
    returns 0 and 0. score, score --json, export, stats and the page all say nobody won (it said "gin, winner P0")."""
    assert RETURNS[name]["returns"] == [0, 0]
    out = import_file(RECORDS / name, tmp_path)
    app = command()
    sheet = json.loads(invoke(app, ["score", str(out), "--json"]).stdout)
    (hand,) = sheet["hands"]
    assert (hand["outcome"], hand["out"], hand["winner"], hand["points"], sheet["winner"]) == ("gin", "P0", None, 0, None)
    text = invoke(app, ["score", str(out)]).stdout
    assert "gin, nobody scores" in text and "P0 +0" not in text
    rows = list(csv.DictReader(io.StringIO(invoke(app, ["export", str(out)]).stdout)))
    assert [(r["how"], r["outcome"], r["out"], r["winner"], r["points"]) for r in rows] == [("gin", "gin", "P0", "", "0")]
    players = {p["name"]: p for p in json.loads(invoke(app, ["stats", str(out), "--json"]).stdout)["players"]}
    assert players["P0"]["hands_won"] == players["P1"]["hands_won"] == 0
    assert players["P0"]["matches_won"] == 0 and players["P0"]["rated_matches"] == 0
    page = tmp_path / "page.html"
    assert invoke(app, ["html", str(out), "-o", str(page)]).exit_code == 0
    assert '"winner":null' in page.read_text() and '"winner":"P0"' not in page.read_text()
    assert "nobody scores (it scores 0)" in show_summary(out)


@pytest.mark.parametrize(("key", "bounds"), sorted(RANGES.items()))
def test_the_supported_ranges_are_the_ones_read_and_stated(key: str, bounds: tuple[int, int]) -> None:
    """Issue 22: the ranges refused only in the error are in ``--help``, the README and docs/IMPORTS.md, and a
    record at each bound reads while one just outside is refused with one line naming the parameter and the range."""
    lo, hi = bounds
    stated = f"{key} {lo} to {hi}"
    help_text = " ".join(invoke(command(), ["import", "openspiel", "--help"]).stdout.split())
    assert stated in help_text and stated in " ".join(SUPPORTED.split())
    root = Path(__file__).parent.parent
    row = next(ln for ln in (root / "README.md").read_text().splitlines() if "ginlog import openspiel" in ln)
    assert stated in row
    assert f"`{key}`" in (root / "docs" / "IMPORTS.md").read_text()
    for value in (lo, hi):
        parse_record(_header(f"gin_rummy({key}={value})") + "1\n", "ok.txt")
    for value in (lo - 1, hi + 1):
        with pytest.raises(GinlogError) as info:
            parse_record(_header(f"gin_rummy({key}={value})") + "1\n", "bad.txt")
        assert info.value.rule == "parameter"
        assert info.value.one_line().startswith(f"bad.txt: {key}={value} is out of range (ginlog reads {lo} to {hi})")


@pytest.mark.parametrize("key", ["hand_size", "num_ranks", "num_suits"])
def test_only_the_standard_deck_is_read_and_that_is_stated(key: str) -> None:
    help_text = " ".join(invoke(command(), ["import", "openspiel", "--help"]).stdout.split())
    assert key in help_text and "10, 13, 4" in help_text
    with pytest.raises(GinlogError) as info:
        parse_record(_header(f"gin_rummy({key}=7)") + "1\n", "bad.txt")
    assert info.value.rule == "parameter" and f"{key}=7 is not supported" in info.value.one_line()


def show_summary(path: Path) -> str:
    """The hand's summary in words (what ``replay`` and the page say when it ends)."""
    report = read_match(path)
    assert report.state is not None
    return hand_summary(report.state.hands[0], report.state.players)


def test_import_refuses_to_overwrite(tmp_path: Path) -> None:
    import_file(RECORDS / "default-050.txt", tmp_path)
    with pytest.raises(GinlogError) as info:
        import_file(RECORDS / "default-050.txt", tmp_path)
    assert info.value.rule == "exists"


def test_live_engine_side_by_side(tmp_path: Path) -> None:
    """Fresh hands from the real engine, where it is installed."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(2026)
    for params in ({}, {"oklahoma": True}, {"gin_bonus": 20, "undercut_bonus": 10}, {"knock_card": 8}):
        game = pyspiel.load_game("gin_rummy", params)
        for _ in range(15):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = [a for a, _p in state.chance_outcomes()]
                    state.apply_action(rng.choice(outcomes))
                else:
                    legal = state.legal_actions()
                    prefer = [a for a in legal if a == 55 or a >= 56]
                    state.apply_action(rng.choice(prefer) if prefer and rng.random() < 0.7 else rng.choice(legal))
            text = pyspiel.serialize_game_and_state(game, state)
            events = record_events(*parse_record(text, "live"))
            net = score_json(fold(events).state, None)["hands"][0]["net"]
            assert [net["P0"], net["P1"]] == [int(r) for r in state.returns()]


@pytest.mark.parametrize("where", ["a-file", "a-file/sub"])
def test_cli_import_to_an_output_that_cannot_be_a_folder(tmp_path: Path, where: str) -> None:
    """-o naming a file (or a folder under one) is one error line naming it, exit 2 (as an -o that cannot be
    written is in export and html), not a traceback."""
    (tmp_path / "a-file").write_text("x")
    out = tmp_path / where
    res = invoke(command(), ["import", "openspiel", str(RECORDS / "default-050.txt"), "-o", str(out)])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert res.stderr.splitlines() == [res.stderr.strip()] and str(out) in res.stderr and "[file]" in res.stderr
    assert (tmp_path / "a-file").read_text() == "x"


def test_import_files_refuses_an_output_folder_it_cannot_make(tmp_path: Path) -> None:
    import os

    from ginlog.app.importers.openspiel import import_files

    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        if os.access(ro, os.W_OK):  # root writes anywhere: make a folder under a file instead
            (tmp_path / "f").write_text("x")
            target = tmp_path / "f" / "sub"
        else:
            target = ro / "sub"
        with pytest.raises(GinlogError) as info:
            import_files([str(RECORDS / "default-050.txt")], target)
        assert info.value.rule == "file" and "output folder" in info.value.one_line()
    finally:
        ro.chmod(0o755)


def test_a_card_laid_off_twice_is_refused_as_openspiel_refuses_it() -> None:
    """Found by benchmarks/bench_refusals.py: the defender lays 5H off onto a run, then again onto a set (a
    lay-off replaced by another legal one, the old one left in); OpenSpiel refuses the second (5H is no longer in
    the hand), and ginlog read two cards' worth of lay-off from one card."""
    text = (DATA / "layoff-twice.txt").read_text()
    with pytest.raises(GinlogError) as caught:
        record_events(*parse_record(text, "layoff-twice.txt"))
    assert caught.value.rule == "bad-layoff" and "5H is laid off twice" in caught.value.message
    pyspiel = pytest.importorskip("pyspiel")
    with pytest.raises(Exception):
        pyspiel.deserialize_game_and_state(text)
