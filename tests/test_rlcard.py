"""``ginlog import rlcard``: RLCard's own games (tests/data/rlcard, made by its engine) imported and checked.

The fixtures need no rlcard; the test that plays fresh games does, and skips without it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ginlog.app.cli import command
from ginlog.app.importers.rlcard import RLCard, line_events, reward
from ginlog.errors import ForeignRecordError
from ginlog.play.reducer import fold

from test_cli import invoke

DATA = Path(__file__).parent / "data" / "rlcard"
GAMES = [ln for f in ("games.rlcard.jsonl", "settings.rlcard.jsonl") for ln in (DATA / f).read_text().splitlines()]


def _moves(i: int) -> list[str]:
    moves: list[str] = json.loads(GAMES[i])["moves"]
    return moves


def test_every_engine_game_imports_and_its_rewards_and_deadwood_agree() -> None:
    hows = set()
    for n, game in enumerate(GAMES, 1):
        state = fold(line_events(game, "g", n)).state  # line_events checks the claims
        result = state.hands[0].result
        hows.add(result.how)
        rec = json.loads(game)
        assert tuple(rec["payoffs"]) == pytest.approx(
            reward(result.how, result.out, _final_deadwood(state, result.how, rec)))
    assert hows == {"knock", "gin", "void"}


def _final_deadwood(state: object, how: str, rec: dict[str, object]) -> tuple[int, int]:
    moves = rec["moves"]
    assert isinstance(moves, list)
    scored = {m.split()[0]: int(m.split()[3]) for m in moves if m.split()[1] == "score"}
    return scored["N"], scored["S"]


def test_the_fixtures_hold_what_only_rlcard_allows() -> None:
    """A knock with the card just picked up, a hand dead at the move limit, pickups at the dead stock."""
    knock_taken = limit = dead_pickup = 0
    for i, game in enumerate(GAMES):
        moves = _moves(i)
        for a, b in zip(moves, moves[1:]):
            wa, wb = a.split(), b.split()
            if wa[1] == "pick_up_discard" and wb[1] == "knock" and wa[2] == wb[2]:
                knock_taken += 1
        limit += len(moves) >= 200 + 2 and moves[-3].endswith("declare_dead_hand")
        dead_pickup += any("pick_up_discard" in m for m in moves[-8:]) and moves[-3].endswith("declare_dead_hand")
    assert knock_taken and limit and dead_pickup


@pytest.mark.parametrize("path", sorted((DATA / "refused").glob("*.rlcard.jsonl")), ids=lambda p: p.name.split(".")[0])
def test_a_setting_ginlog_cannot_play_is_refused_in_one_line_naming_it(path: Path, tmp_path: Path) -> None:
    err = io.StringIO()
    ok, bad = RLCard().write([str(path)], tmp_path, err=err)
    assert (ok, bad) == (0, 1)
    (line,) = err.getvalue().splitlines()
    setting = path.name.split(".")[0]
    assert line.startswith(f"{path}:1: setting {setting}=") and line.endswith("[setting]")


def _spoilt(i: int, **change: object) -> str:
    rec = json.loads(GAMES[i])
    rec.update(change)
    return json.dumps(rec)


def _refused(text: str) -> ForeignRecordError:
    with pytest.raises(ForeignRecordError) as info:
        line_events(text, "g.rlcard.jsonl", 3)
    return info.value


def test_a_wrong_reward_is_an_error() -> None:
    rec = json.loads(GAMES[0])
    err = _refused(_spoilt(0, payoffs=[rec["payoffs"][0] + 0.01, rec["payoffs"][1]]))
    assert err.rule == "reward-mismatch" and err.one_line().startswith("g.rlcard.jsonl:3: event ")


def test_a_wrong_scored_deadwood_is_an_error() -> None:
    moves = _moves(0)
    words = moves[-1].split(" ", 4)
    words[3] = str(int(words[3]) + 1)
    err = _refused(_spoilt(0, moves=[*moves[:-1], " ".join(words)]))
    assert err.rule == "deadwood-mismatch" and err.seq == len(moves) - 1


def test_an_illegal_move_is_refused_by_the_reducer_naming_the_move() -> None:
    moves = _moves(0)
    i = next(k for k, m in enumerate(moves) if " draw_card " in m)
    player = moves[i].split()[0]
    err = _refused(_spoilt(0, moves=[*moves[:i], f"{player} draw_card {moves[1].split()[2]}", *moves[i + 1:]]))
    assert err.seq == i and f"move {i} (" in err.message
    err = _refused(_spoilt(0, moves=moves[:-2]))
    assert err.rule == "truncated"


def test_unknown_or_mistyped_settings_are_refused() -> None:
    rec = json.loads(GAMES[0])
    assert _refused(_spoilt(0, settings={**rec["settings"], "max_move": 3})).rule == "setting"
    assert _refused(_spoilt(0, settings={**rec["settings"], "max_move_count": "200"})).rule == "setting"
    assert _refused(_spoilt(0, dealer=1 - rec["dealer"])).rule == "record"


def test_the_command_imports_one_match_a_line_and_exits_1_on_a_bad_line(tmp_path: Path) -> None:
    src = tmp_path / "two.rlcard.jsonl"
    src.write_text(GAMES[0] + "\n\n" + _spoilt(1, payoffs=[9, 9]) + "\n")
    res = invoke(command(), ["import", "rlcard", str(src), "-o", str(tmp_path / "out")])
    assert res.exit_code == 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["two-0001.jsonl"]
    assert "two.rlcard.jsonl:3:" in res.output and "[reward-mismatch]" in res.output
    res = invoke(command(), ["audit", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output


def test_fresh_engine_games_agree() -> None:
    pytest.importorskip("rlcard")
    import sys

    sys.path.insert(0, str(DATA))
    try:
        from make_games import play, rlcard_line
    finally:
        sys.path.remove(str(DATA))
    for seed in range(5000, 5012):
        fold(line_events(rlcard_line(play(seed)), "fresh", seed))
