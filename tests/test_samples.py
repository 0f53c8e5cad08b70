"""The sample games: valid ones replay cleanly and say what the README says; invalid ones fail as expected."""

from __future__ import annotations

import json
from collections.abc import Sequence
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ginlog.match.reading import MatchReport, read_match
from ginlog.game.rules import Rules, preset
from ginlog.play.state import FinishedHand, MatchState, Shown

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
INVALID = SAMPLES / "invalid"
VALID = ["standard-match.jsonl", "modern-match.jsonl", "table-view-match.jsonl", "score-pad-match.jsonl",
         "hollywood-match.jsonl"]
EXPECTED = json.loads((INVALID / "expected.json").read_text())


@pytest.fixture(scope="module")
def reports() -> dict[str, MatchReport]:
    return {name: read_match(SAMPLES / name, collect=True) for name in VALID}


def state_of(report: MatchReport) -> MatchState:
    """A valid sample's state (the reading of a valid file always ends with one)."""
    assert report.state is not None, report.errors
    return report.state


def raw_events(name: str) -> list[dict[str, Any]]:
    """The file's lines as plain JSON, read independently of ginlog."""
    return [json.loads(line) for line in (SAMPLES / name).read_text().splitlines()]


# ---------------------------------------------------------------------------
# Independent arithmetic (no ginlog.game.scoring, no ginlog.game.melds)


def value(card: object) -> int:
    rank = str(card)[0]
    return {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)


def rank_suit(card: object) -> tuple[int, str]:
    text = str(card)
    return "A23456789TJQK".index(text[0]) + 1, text[1]


def is_meld(cards: Sequence[object]) -> bool:
    rs = [rank_suit(c) for c in cards]
    if len(rs) < 3 or len(set(rs)) != len(rs):
        return False
    if len({r for r, _ in rs}) == 1:
        return len(rs) <= 4
    if len({s for _, s in rs}) != 1:
        return False
    ranks = sorted(r for r, _ in rs)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def deadwood(shown: Shown) -> int:
    return sum(value(c) for c in shown.deadwood)


def check_layout(shown: Shown) -> None:
    """The melds, lay-offs and deadwood split the shown cards exactly, and every meld is one."""
    parts = [str(c) for m in shown.melds for c in m.cards] + [str(c) for c in shown.layoffs] + [str(c) for c in shown.deadwood]
    assert sorted(parts) == sorted(str(c) for c in shown.cards)
    for m in shown.melds:
        assert is_meld(list(m.cards)), m


def check_layoffs_in_order(knocker: Shown, layoffs: tuple[object, ...]) -> None:
    """Each lay-off extends one of the knocker's melds as it stands when it is made (any choice of meld)."""

    def fits(melds: list[list[str]], rest: list[str]) -> bool:
        if not rest:
            return True
        card, more = rest[0], rest[1:]
        return any(
            is_meld(m + [card]) and fits(melds[:i] + [m + [card]] + melds[i + 1 :], more)
            for i, m in enumerate(melds)
        )

    melds = [[str(c) for c in m.cards] for m in knocker.melds]
    assert fits(melds, [str(c) for c in layoffs]), (melds, layoffs)


def expected_points(rules: Rules, how: str, k: int, d: int) -> tuple[str, int]:
    """(who scores: 'knocker'/'defender'/'nobody', points) from the two deadwood counts."""
    if how == "void":
        return "nobody", 0
    if how == "big_gin":
        assert rules.big_gin_bonus is not None, "a big gin under rules without it"
        return "knocker", rules.big_gin_bonus + d
    if how == "gin" or k == 0:
        return "knocker", rules.gin_bonus + d
    if k < d:
        return "knocker", d - k
    if k == d and not rules.undercut_on_tie:
        return "nobody", 0
    return "defender", k - d + rules.undercut_bonus


def who(state: MatchState, seat: int | None) -> str | None:
    """The state says who by seat; these checks say it by name."""
    return None if seat is None else state.players[seat]


def by_name(state: MatchState, per_seat: tuple[int, int]) -> dict[str, int]:
    return dict(zip(state.players, per_seat))


def repriced(state: MatchState, fh: FinishedHand, pad: dict[str, Any] | None) -> tuple[str | None, int]:
    """Who scored the hand and how much, recomputed from what was shown (or the pad's figures)."""
    rules = state.rules
    if fh.score.outcome == "void":
        return None, 0
    out = who(state, fh.result.out)
    defender = state.players[1 - state.players.index(out)]
    if fh.recorded == "moves":
        knocker_shown = next(s for s in fh.shown if who(state, s.player) == out)
        defender_shown = next(s for s in fh.shown if who(state, s.player) == defender)
        check_layout(knocker_shown)
        check_layout(defender_shown)
        assert not knocker_shown.layoffs
        k, d = deadwood(knocker_shown), deadwood(defender_shown)
        if fh.result.how in ("gin", "big_gin"):
            assert k == 0 and not defender_shown.layoffs
        else:
            assert k <= rules.knock_limit
            check_layoffs_in_order(knocker_shown, defender_shown.layoffs)
        how = fh.result.how
    else:
        assert pad is not None
        how, k, d = pad["how"], pad.get("knocker_deadwood", 0), pad.get("defender_deadwood", 0)
    side, points = expected_points(rules, how, k, d)
    return {"knocker": out, "defender": defender, "nobody": None}[side], points


def hollywood_games(players: tuple[str, str], wins: list[tuple[str, int]], target: int) -> list[dict[str, int]]:
    """Hollywood's three games from the wins alone: a win scores in the open games its player is in,
    and enters the first open game the player is not in yet (a shut-out player moves on)."""
    games = [dict.fromkeys(players, 0) for _ in range(3)]
    entered: list[set[str]] = [set(), set(), set()]
    closed = [False, False, False]
    for player, points in wins:
        for k in range(3):
            if closed[k]:
                continue
            new = player not in entered[k]
            games[k][player] += points
            entered[k].add(player)
            closed[k] = games[k][player] >= target
            if new:
                break
    return games


def outcomes(state: MatchState) -> list[str]:
    return [fh.score.outcome for fh in state.hands]


def chained(fh: FinishedHand) -> bool:
    """Some defender laid off two cards in a row onto the same end of one run."""
    if fh.result.out is None:
        return False
    for shown in fh.shown:
        lay = [rank_suit(c) for c in shown.layoffs]
        for (r1, s1), (r2, s2) in zip(lay, lay[1:]):
            if s1 == s2 and abs(r1 - r2) == 1:
                return True
    return False


# ---------------------------------------------------------------------------
# Valid samples


@pytest.mark.parametrize("name", VALID)
def test_valid_sample_has_no_errors(reports: dict[str, MatchReport], name: str) -> None:
    report = reports[name]
    assert report.errors == ()
    assert report.lines == len(raw_events(name))


@pytest.mark.parametrize("name", VALID)
def test_every_hand_reprices_from_what_was_shown(reports: dict[str, MatchReport], name: str) -> None:
    state = state_of(reports[name])
    pads = [e for e in raw_events(name) if e["type"] == "hand_result"]
    pad_iter = iter(pads)
    sums = {p: 0 for p in state.players}
    wins: list[tuple[str, int]] = []
    for fh in state.hands:
        pad = next(pad_iter) if fh.recorded == "result" else None
        winner, points = repriced(state, fh, pad)
        assert (who(state, fh.score.winner), fh.score.points) == (winner, points), f"hand {fh.number}"
        if winner is not None:
            sums[winner] += points
            wins.append((winner, points))
    assert next(pad_iter, None) is None
    if state.rules.hollywood is None:
        assert by_name(state, state.tally.totals()) == sums
    else:  # the running totals are the three games' together
        games = hollywood_games(state.players, wins, state.rules.game_target or 0)
        assert by_name(state, state.tally.totals()) == {p: sum(g[p] for g in games) for p in state.players}
        assert [by_name(state, g.points) for g in state.tally.games] == games


@pytest.mark.parametrize("name", VALID)
def test_dealers_follow_the_winner_and_stay_after_a_void(reports: dict[str, MatchReport], name: str) -> None:
    state = state_of(reports[name])
    for before, after in zip(state.hands, state.hands[1:]):
        expected = before.dealer if before.score.winner is None else before.score.winner
        assert after.dealer == expected


def test_standard_match_is_a_whole_match_with_every_ending(reports: dict[str, MatchReport]) -> None:
    state = state_of(reports["standard-match.jsonl"])
    assert state.rules == preset("standard")
    assert state.phase == "over" and state.winner is not None
    winner = who(state, state.winner)
    assert winner is not None
    totals = by_name(state, state.totals())
    assert totals[winner] >= 100
    assert max(v for p, v in totals.items() if p != winner) < 100
    kinds = outcomes(state)
    assert "gin" in kinds and "undercut" in kinds and "void" in kinds
    assert kinds.count("knock") >= 3
    voids = [fh for fh in state.hands if fh.score.outcome == "void"]
    assert all("stock" in (fh.void_reason or "") for fh in voids)
    assert any(chained(fh) for fh in state.hands)
    assert state.first_dealer_how == "cut"


def test_standard_match_records_full_information_notes_and_a_correction() -> None:
    events = raw_events("standard-match.jsonl")
    deals = [e for e in events if e["type"] == "hand_dealt"]
    assert deals and all(len(e["stock"]) == 31 and len(e["hands"]) == 2 for e in deals)
    assert sum(e["type"] == "note" for e in events) >= 2
    corrections = [(i, e) for i, e in enumerate(events) if e["type"] == "correction"]
    assert len(corrections) == 1
    i, corr = corrections[0]
    undone, redone = events[i - 1], events[i + 1]
    assert corr["undoes"] == undone["seq"]
    assert undone["type"] == redone["type"] == "card_discarded"
    assert undone["player"] == redone["player"] and undone["card"] != redone["card"]


def test_the_corrected_discard_is_the_one_in_the_replay(reports: dict[str, MatchReport]) -> None:
    events = raw_events("standard-match.jsonl")
    i = next(i for i, e in enumerate(events) if e["type"] == "correction")
    wrong, right = events[i - 1]["card"], events[i + 1]["card"]
    state = state_of(reports["standard-match.jsonl"])
    first = state.hands[0]
    ann = next(s for s in first.shown if who(state, s.player) == events[i - 1]["player"])
    held = {str(c) for c in ann.cards}
    assert wrong in held and right not in held


def test_modern_match_is_a_shutout_with_game_bonus_and_boxes(reports: dict[str, MatchReport]) -> None:
    state = state_of(reports["modern-match.jsonl"])
    rules = state.rules
    assert rules == preset("modern")
    assert state.phase == "over"
    winner = who(state, state.winner)
    assert winner is not None
    loser = next(p for p in state.players if p != winner)
    points = by_name(state, state.tally.totals())
    assert points[loser] == 0 and points[winner] >= 100
    hands_won = sum(1 for fh in state.hands if who(state, fh.score.winner) == winner)
    assert all(who(state, fh.score.winner) in (winner, None) for fh in state.hands)
    # Game 100, box 25 a hand won, and the shutout doubles all of it.
    assert by_name(state, state.totals()) == {winner: 2 * (points[winner] + 100 + 25 * hands_won), loser: 0}
    assert "big_gin" in outcomes(state)


def test_hollywood_match_has_a_player_shut_out_of_game_1(reports: dict[str, MatchReport]) -> None:
    state = state_of(reports["hollywood-match.jsonl"])
    assert state.rules == preset("hollywood") and state.phase == "over"
    g1, g2, g3 = state.tally.games
    assert all(g.closed for g in (g1, g2, g3))
    iris, jack = (state.players.index(p) for p in ("Iris", "Jack"))
    assert g1.points[jack] == 0 and g1.winner == iris  # Jack never scored in game 1 ...
    first = next(fh for fh in state.hands if fh.score.winner == jack)
    assert first.number > 1 and all(fh.score.winner == iris for fh in state.hands[: first.number - 1])
    assert g2.points[jack] > 0  # ... so his first win went to game 2
    assert who(state, state.winner) == "Iris"


def test_table_view_match_records_only_what_both_players_see(reports: dict[str, MatchReport]) -> None:
    state = state_of(reports["table-view-match.jsonl"])
    assert len(state.hands) >= 3
    events = raw_events("table-view-match.jsonl")
    deals = [e for e in events if e["type"] == "hand_dealt"]
    assert deals and all("hands" not in e and "stock" not in e for e in deals)
    draws = [e for e in events if e["type"] == "card_drawn"]
    assert all("card" not in e for e in draws if e["source"] == "stock")
    pile = [e for e in draws if e["source"] == "pile"]
    assert pile and all("card" in e for e in pile)
    scored = [fh for fh in state.hands if fh.score.outcome != "void"]
    assert scored and all(len(fh.shown) == 2 for fh in scored)
    assert sum(e["type"] == "hand_shown" for e in events) == 2 * len(scored)


def test_score_pad_match_is_hand_results_only(reports: dict[str, MatchReport]) -> None:
    state = state_of(reports["score-pad-match.jsonl"])
    assert state.rules in (preset("classic"), preset("standard"))
    events = raw_events("score-pad-match.jsonl")
    assert [e["type"] for e in events[:2]] == ["match_started", "first_dealer"]
    pads = events[2:]
    assert pads and all(e["type"] == "hand_result" for e in pads)
    assert any("points" in e for e in pads) and any("points" not in e for e in pads)
    assert any(e["how"] == "void" for e in pads)
    assert state.phase == "over" and state.winner is not None
    for fh, pad in zip(state.hands, pads):
        assert fh.recorded == "result"
        if "points" in pad:
            assert fh.score.points == pad["points"]


def test_score_pad_final_totals_add_the_end_of_match_bonuses(reports: dict[str, MatchReport]) -> None:
    state = state_of(reports["score-pad-match.jsonl"])
    rules = state.rules
    points = by_name(state, state.tally.totals())
    won = {p: sum(1 for fh in state.hands if who(state, fh.score.winner) == p) for p in state.players}
    winner = who(state, state.winner)
    assert winner is not None
    loser = next(p for p in state.players if p != winner)
    shutout = rules.shutout_bonus if rules.shutout == "flat" and points[loser] == 0 else 0
    expected = {p: points[p] + rules.box_bonus * won[p] for p in state.players}
    expected[winner] += rules.game_bonus + shutout
    assert by_name(state, state.totals()) == expected


# ---------------------------------------------------------------------------
# Invalid samples


def test_every_invalid_file_has_an_expectation() -> None:
    assert sorted(p.name for p in INVALID.glob("*.jsonl")) == sorted(EXPECTED)
    assert len(EXPECTED) >= 10


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invalid_sample_fails_first_as_expected(name: str) -> None:
    report = read_match(INVALID / name, collect=True)
    assert report.errors, name
    first = report.errors[0]
    want = EXPECTED[name]
    assert (first.rule, first.line, first.seq) == (want["rule"], want["line"], want["event"]), first.one_line()
    assert first.one_line().startswith(f"{INVALID / name}:{want['line']}:")


def test_invalid_samples_cover_each_fault() -> None:
    rules = {e["rule"] for e in EXPECTED.values()}
    assert {"discard-taken-card", "knock-limit", "layoff-after-gin", "turn-order", "duplicate-card",
            "chain", "seq", "torn-tail", "json", "unknown-event"} <= rules


def test_readme_has_a_line_for_every_file() -> None:
    text = (SAMPLES / "README.md").read_text()
    for name in VALID:
        assert sum(line.startswith(f"- `{name}`") for line in text.splitlines()) == 1
    for name, e in EXPECTED.items():
        line = next(line for line in text.splitlines() if line.startswith(f"- `invalid/{name}`"))
        assert f"`{e['rule']}` at line {e['line']}" in line


# ---------------------------------------------------------------------------
# Regeneration


def test_generate_rebuilds_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "samples"
    subprocess.run([sys.executable, str(SAMPLES / "generate.py"), str(out)], check=True, capture_output=True, timeout=120)
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    kept = sorted(
        p.relative_to(SAMPLES).as_posix()
        for p in SAMPLES.rglob("*")
        if p.is_file() and p.name != "generate.py" and "__pycache__" not in p.parts
    )
    assert made == kept
    for rel in made:
        assert (out / rel).read_bytes() == (SAMPLES / rel).read_bytes(), rel


# ---------------------------------------------------------------------------
# ginlog samples DIR: the same files, from the package (so after a plain pip install too)


def test_samples_command_writes_the_bundled_matches(tmp_path: Path) -> None:
    from importlib.resources import files

    from test_cli import invoke

    from ginlog.app.cli import command

    bundled = Path(str(files("ginlog") / "samples"))
    assert bundled.resolve() == SAMPLES.resolve(), "sample_games/ is the package's ginlog/samples/"
    app = command()
    games = tmp_path / "games"
    r = invoke(app, ["samples", str(games)])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{games}: 5 sample matches, and 10 damaged ones in {games / 'invalid'}/ for audit to find\n"
    written = sorted(p.relative_to(games).as_posix() for p in games.rglob("*.jsonl"))
    assert written == sorted([*VALID, *(f"invalid/{p.name}" for p in INVALID.glob("*.jsonl"))])
    assert all((games / name).read_bytes() == (SAMPLES / name).read_bytes() for name in written)
    (games / "standard-match.jsonl").write_bytes(b"mine\n")
    r = invoke(app, ["samples", str(games)])
    assert r.exit_code == 1 and "is there already (nothing written)" in r.stderr
    assert (games / "standard-match.jsonl").read_bytes() == b"mine\n"
    r = invoke(app, ["samples", str(games / "standard-match.jsonl")])
    assert r.exit_code == 2 and "not a folder" in r.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "invalid").symlink_to(elsewhere)  # a planted link: nothing is written through it
    r = invoke(app, ["samples", str(tmp_path / "linked")])
    assert r.exit_code == 2 and "is a symbolic link" in r.stderr
    assert list(elsewhere.iterdir()) == [] and sorted(p.name for p in (tmp_path / "linked").iterdir()) == ["invalid"]
