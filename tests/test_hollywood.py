"""Hollywood scoring: three games at once, checked against the rule books' worked examples and by properties.

The rules (``ginlog.game.hollywood``): a player's first winning hand scores in
game 1, the second in games 1 and 2, the third and later in every open game;
each game closes at the target with its own game bonus, boxes and shutout;
the match is over when all three are closed. Every expected number is worked
out in a comment.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginlog.app.views.match_json import score_json
from ginlog.errors import IllegalMove, RulesError
from ginlog.game.hollywood import FRESH, Game, add_win, games_entered
from ginlog.game.rules import Hollywood, Rules, preset, rules_from_dict, rules_to_dict, with_knobs
from ginlog.game.scoring import HandScore, Tally
from ginlog.log.events import Event, FirstDealer, HandResultOnly, MatchStarted
from ginlog.play.reducer import apply, fold
from ginlog.play.simulate import simulate_match
from ginlog.play.state import MatchState

HOLLYWOOD = preset("hollywood")
STRICT = with_knobs(HOLLYWOOD, hollywood="strict")


def knock_for(player: str, points: int) -> HandResultOnly:
    """A score-pad knock worth ``points`` to ``player`` (knocker 1, defender 1 + points)."""
    return HandResultOnly(how="knock", out=player, knocker_deadwood=1, defender_deadwood=1 + points, points=points)


def pad_match(players: tuple[str, str], wins: list[tuple[str, int]], rules: Rules = HOLLYWOOD) -> MatchState:
    """A score-pad match: each (player, points) a hand that player wins by knocking."""
    events: list[Event] = [
        MatchStarted(players=players, rules=rules),
        FirstDealer(dealer=players[0], how="agreed"),
        *(knock_for(p, n) for p, n in wins),
    ]
    return fold(events).state


def games_after(data: dict[str, Any], player: str) -> list[list[int]]:
    """Per hand, ``player``'s totals in games 1, 2 and 3."""
    return [[g.get(player, 0) for g in h["game_totals"]] for h in data["hands"]]


# ---------------------------------------------------------------------------
# The rule books' worked examples


def test_ginrummy_cards_worked_example() -> None:
    # ginrummy.cards, "Hollywood Gin - Three Games in One", its example score sheet (seven hands).
    state = pad_match(("You", "Opp"), [("You", 18), ("Opp", 12), ("You", 25), ("Opp", 30),
                                       ("You", 15), ("You", 22), ("Opp", 20)])
    data = score_json(state, None)
    assert games_after(data, "You") == [
        [18, 0, 0],    # You's first win: game 1 only
        [18, 0, 0],
        [43, 25, 0],   # second win: games 1 and 2
        [43, 25, 0],
        [58, 40, 15],  # third: all three
        [80, 62, 37],
        [80, 62, 37],
    ]
    assert games_after(data, "Opp") == [
        [0, 0, 0], [12, 0, 0], [12, 0, 0], [42, 30, 0], [42, 30, 0], [42, 30, 0], [62, 50, 20],
    ]
    assert [h["in_games"] for h in data["hands"]] == [[1], [1], [1, 2], [1, 2], [1, 2, 3], [1, 2, 3], [1, 2, 3]]
    assert [g["totals"] for g in data["games"]] == [
        {"You": 80, "Opp": 62}, {"You": 62, "Opp": 50}, {"You": 37, "Opp": 20},
    ]
    assert [g["winner"] for g in data["games"]] == [None, None, None]  # all open
    assert data["phase"] == "ready" and data["winner"] is None


def test_pokerwiner_standard_hollywood_sample_game() -> None:
    # pokerwiner.com, "Standard Hollywood Gin Rummy", sample game: A wins by 25, 18 and 36.
    # Game 1: 25, 43, 79; game 2: 18, 54; game 3: 36.
    data = score_json(pad_match(("A", "B"), [("A", 25), ("A", 18), ("A", 36)]), None)
    assert games_after(data, "A") == [[25, 0, 0], [43, 18, 0], [79, 54, 36]]


def test_onlinecardgames_example_closes_game_1_with_its_bonuses() -> None:
    # onlinecardgames.io, "Hollywood Gin": wins of 32, 28 and 45 make game 1 105 (closed), game 2 73, game 3 45.
    data = score_json(pad_match(("You", "Opp"), [("You", 32), ("You", 28), ("You", 45)]), None)
    g1, g2, g3 = data["games"]
    assert (g1["totals"], g2["totals"], g3["totals"]) == ({"You": 105, "Opp": 0}, {"You": 73, "Opp": 0},
                                                         {"You": 45, "Opp": 0})
    assert (g1["winner"], g1["closed_at"], g2["winner"], g3["winner"]) == ("You", 3, None, None)
    # Game 1's bonuses (the preset: classic's): game 100, three boxes of 20, Opp shut out: +100 flat.
    assert g1["bonuses"] == {"game": {"You": 100}, "boxes": {"You": 60}, "shutout": {"You": 100}}
    assert g1["final"] == {"You": 365, "Opp": 0}
    assert data["bonuses"] == {"game": {}, "boxes": {}, "shutout": {}}  # the match's: once it is over
    assert data["phase"] == "ready"


def test_a_whole_match_closes_each_game_and_ends_when_all_three_are() -> None:
    # A wins 40, 40, 40: game 1 120 (closed at hand 3), game 2 80, game 3 40.
    # B wins 30: B's first win, game 1 is closed: B was shut out of it, so it enters game 2 (Hoyle).
    # A wins 30: games 2 and 3 (110: game 2 closes at hand 5; 70).
    # B wins 50: B is in game 2 (closed) and enters game 3 with it: 50.
    # A wins 30: game 3 100, closes at hand 7: the match is over.
    wins = [("A", 40), ("A", 40), ("A", 40), ("B", 30), ("A", 30), ("B", 50), ("A", 30)]
    state = pad_match(("A", "B"), wins)
    data = score_json(state, None)
    assert [h["in_games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3], [2], [2, 3], [3], [3]]
    g1, g2, g3 = data["games"]
    assert [g["totals"] for g in data["games"]] == [{"A": 120, "B": 0}, {"A": 110, "B": 30}, {"A": 100, "B": 50}]
    assert [(g["winner"], g["closed_at"]) for g in data["games"]] == [("A", 3), ("A", 5), ("A", 7)]
    # Game 1: A 120 + game 100 + boxes 3 x 20 + shutout 100 = 380; B 0.
    assert g1["final"] == {"A": 380, "B": 0}
    # Game 2: A won hands 2, 3, 5 in it: 110 + 100 + 60 = 270; B hand 4: 30 + 20 = 50.
    assert g2["final"] == {"A": 270, "B": 50}
    # Game 3: A hands 3, 5, 7: 100 + 100 + 60 = 260; B hand 6: 50 + 20 = 70.
    assert g3["final"] == {"A": 260, "B": 70}
    assert data["phase"] == "over" and data["complete"] and data["winner"] == "A"
    # The match's totals: the three games' finals together (380 + 270 + 260 = 910; 0 + 50 + 70 = 120).
    assert data["totals"] == {"A": 910, "B": 120}
    assert data["bonuses"] == {"game": {"A": 300}, "boxes": {"A": 180, "B": 40}, "shutout": {"A": 100}}
    # net stays the hands' zero-sum view: A 180, B -80 - ... (each hand +points / -points).
    assert data["net"] == {"A": 180 - 80, "B": 80 - 180}
    # Nothing more may be played.
    tl = fold([MatchStarted(players=("A", "B"), rules=HOLLYWOOD), FirstDealer(dealer="A", how="agreed"),
               *(knock_for(p, n) for p, n in wins)])
    with pytest.raises(IllegalMove) as info:
        apply(tl, knock_for("B", 10), 99)
    assert info.value.rule == "match-over"


def test_strict_counting_loses_a_shut_out_players_first_win() -> None:
    # The same match with shut_out_moves_on false: B's first win (hand 4) is its first, so game 1 only,
    # which is closed: it scores nowhere. B's second (hand 6): games 1-2, both closed by then: nowhere.
    wins = [("A", 40), ("A", 40), ("A", 40), ("B", 30), ("A", 30), ("B", 50), ("A", 30)]
    data = score_json(pad_match(("A", "B"), wins, STRICT), None)
    assert [h["in_games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3], [], [2, 3], [], [3]]
    assert [g["totals"] for g in data["games"]] == [{"A": 120, "B": 0}, {"A": 110, "B": 0}, {"A": 100, "B": 0}]
    assert data["phase"] == "over"


def test_a_player_shut_out_of_game_2_only_enters_game_3() -> None:
    # B wins once (game 1: 5), then A closes games 1 and 2 while B is not in game 2.
    # A: 30 (g1), 30 (g1 g2), 50 (g1 110 closed, g2 80, g3 50), 30 (g2 110 closed, g3 80).
    # B's second win: B is in game 1 (closed), game 2 closed without B: B enters game 3.
    wins = [("B", 5), ("A", 30), ("A", 30), ("A", 50), ("A", 30), ("B", 7)]
    data = score_json(pad_match(("A", "B"), wins), None)
    assert data["hands"][-1]["in_games"] == [3]
    assert data["games"][2]["totals"] == {"A": 80, "B": 7}
    assert data["games"][1]["bonuses"]["shutout"] == {"A": 100}  # B scored nothing in game 2


def test_after_a_shut_out_the_count_starts_again() -> None:
    # Issue 21's stated choice: A closes game 1 (120) with B at 0; B's next win is the first score in game 2,
    # and the one after scores in game 2 and game 3, as a second win does (the literal reading, where the
    # count goes on, would call it B's second win overall: games 1 and 2, so game 2 alone).
    wins = [("A", 40), ("A", 40), ("A", 40), ("B", 5), ("B", 5)]
    data = score_json(pad_match(("A", "B"), wins), None)
    assert [h["in_games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3], [2], [2, 3]]
    assert [g["totals"] for g in data["games"]] == [{"A": 120, "B": 0}, {"A": 80, "B": 10}, {"A": 40, "B": 5}]


def test_the_match_goes_to_the_higher_sum_not_to_more_games() -> None:
    # Issue 21's stated choice: B wins game 1 (A shut out: 100 + 120 + 100 + 80 boxes = 400-0); A wins games 2
    # and 3 (300-140, 260-100), but over the three B is ahead, 640 to 560: B wins the match.
    wins = [("B", 40), ("B", 20), ("B", 20), ("B", 40), ("A", 20), ("A", 20), ("A", 20), ("A", 60)]
    data = score_json(pad_match(("A", "B"), wins), None)
    assert [g["winner"] for g in data["games"]] == ["B", "A", "A"]
    assert [g["final"] for g in data["games"]] == [{"A": 0, "B": 400}, {"A": 300, "B": 140}, {"A": 260, "B": 100}]
    assert data["winner"] == "B" and data["totals"] == {"A": 560, "B": 640}


def test_bonuses_at_once_count_in_every_game_the_hand_enters() -> None:
    rules = with_knobs(HOLLYWOOD, box_timing="hand")
    # Two wins of 30 for A: game 1 30 + 20 + 30 + 20 = 100 (closes); game 2 30 + 20 = 50.
    data = score_json(pad_match(("A", "B"), [("A", 30), ("A", 30)], rules), None)
    assert [g["totals"] for g in data["games"]][:2] == [{"A": 100, "B": 0}, {"A": 50, "B": 0}]
    assert data["games"][0]["winner"] == "A" and data["games"][0]["bonuses"]["boxes"] == {}


def test_shutout_doubles_a_game_total() -> None:
    rules = with_knobs(HOLLYWOOD, shutout="double")
    # Game 1: 60 + 50 = 110, game 100, boxes 40: 250, doubled: +250.
    data = score_json(pad_match(("A", "B"), [("A", 60), ("A", 50)], rules), None)
    assert data["games"][0]["bonuses"]["shutout"] == {"A": 250}
    assert data["games"][0]["final"] == {"A": 500, "B": 0}


def test_without_hollywood_there_are_no_games() -> None:
    data = score_json(pad_match(("A", "B"), [("A", 40)], preset("classic")), None)
    assert data["games"] == [] and data["hands"][0]["in_games"] == [] and data["hands"][0]["game_totals"] == []


# ---------------------------------------------------------------------------
# The fold itself


def test_games_entered_ladder() -> None:
    h = Hollywood()
    assert [games_entered(h, FRESH, 0, n) for n in range(4)] == [(0,), (0,), (0,), (0,)]  # nobody has entered
    one = add_win(HOLLYWOOD, FRESH, 0, 0, 10)
    two = add_win(HOLLYWOOD, one, 0, 1, 10)
    assert games_entered(h, one, 0, 1) == (0, 1)
    assert games_entered(h, two, 0, 2) == (0, 1, 2)
    assert games_entered(Hollywood(shut_out_moves_on=False), two, 0, 2) == (0, 1, 2)
    assert games_entered(h, two, 1, 0) == (0,)


def test_a_game_never_closes_without_a_target() -> None:
    rules = attrs.evolve(HOLLYWOOD, game_target=None)
    games = add_win(rules, FRESH, 0, 0, 500)
    assert games[0] == Game((500, 0), (1, 0), None)


def test_tally_over_is_the_one_seam() -> None:
    t = Tally()
    for points in (60, 60, 60):  # game 1 closes at 120 on the second win; games 2 and 3 still open
        t = t.add(HOLLYWOOD, HandScore("knock", 0, points, "knocker"))
    assert [g.closed for g in t.games] == [True, True, False] and not t.over and t.winner is None
    t = t.add(HOLLYWOOD, HandScore("knock", 0, 60, "knocker"))
    assert t.over and t.winner == 0
    with pytest.raises(IllegalMove):
        t.add(HOLLYWOOD, HandScore("knock", 1, 5, "knocker"))


def test_a_tie_over_the_three_games_ends_the_match_with_no_winner() -> None:
    # Hand-built games: each closed, the finals summing equal (no bonuses under standard's knobs).
    rules = attrs.evolve(preset("standard"), hollywood=Hollywood())
    games = (Game((100, 50), (1, 1), 0), Game((50, 100), (1, 1), 1), Game((100, 100), (1, 1), 0))
    t = Tally((250, 250), (2, 2), None, games)
    assert t.over and t.final_totals(rules) == (250, 250)
    from ginlog.game.hollywood import match_winner

    assert match_winner(rules, games) is None


# ---------------------------------------------------------------------------
# The knob


def test_the_knob_as_text_and_json() -> None:
    std = preset("standard")
    assert with_knobs(std, hollywood="on").hollywood == Hollywood()
    assert with_knobs(std, hollywood="strict").hollywood == Hollywood(shut_out_moves_on=False)
    assert with_knobs(HOLLYWOOD, hollywood="off").hollywood is None
    assert rules_from_dict(rules_to_dict(STRICT)) == STRICT
    assert rules_to_dict(HOLLYWOOD)["hollywood"] == {"shut_out_moves_on": True}
    assert "hollywood" not in rules_to_dict(std)  # a knob after schema 2, left out at its default


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ([], "rules"),
        (True, "rules"),
        ({"shut_out_moves_on": "yes"}, "rules"),
        ({"targets": [100, 125, 150]}, "unknown-knob"),
    ],
)
def test_a_bad_hollywood_in_a_file(value: Any, rule: str) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_dict({"hollywood": value})
    assert info.value.rule == rule


def test_the_preset_is_classic_in_three_games() -> None:
    assert attrs.evolve(HOLLYWOOD, hollywood=None) == preset("classic")
    assert HOLLYWOOD.game_target == 100


# ---------------------------------------------------------------------------
# Properties over simulated matches


VARIANTS = {
    "hollywood": HOLLYWOOD,
    "strict": STRICT,
    "boxes at once": with_knobs(HOLLYWOOD, box_timing="hand"),
    "shutout doubles, to 150": with_knobs(HOLLYWOOD, shutout="double", game_target="150"),
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)))
def test_simulated_hollywood_matches(seed: int, variant: str) -> None:
    rules = VARIANTS[variant]
    state = fold(simulate_match(rules, seed=seed)).state  # simulate ends: every Hollywood match is over
    data = score_json(state, None)
    players = state.players
    target = rules.game_target
    assert target is not None
    hands = data["hands"]
    games = data["games"]
    assert len(games) == 3
    closed_at = [g["closed_at"] for g in games]

    # The match is over exactly when all three games are closed, and on the hand that closed the last.
    assert state.phase == "over" and all(g["winner"] is not None for g in games)
    assert hands[-1]["number"] == max(closed_at)
    # Game 1 closes first (game 2 can close with it, never before it; likewise game 3).
    assert closed_at[0] <= closed_at[1] <= closed_at[2]

    gained: dict[str, int] = dict.fromkeys(players, 0)
    for h in hands:
        number, totals = h["number"], h["game_totals"]
        if h["winner"] is not None:
            gained[h["winner"]] += h["points"] + (rules.box_bonus if rules.box_timing == "hand" else 0)
        for k in range(3):
            reached = max(totals[k].values()) >= target
            # Each game closes exactly when a total in it reaches the target.
            assert (closed_at[k] is not None and number >= closed_at[k]) == reached
            if number == closed_at[k]:
                assert totals[k][games[k]["winner"]] >= target and h["winner"] == games[k]["winner"]
        if closed_at[0] is None or number <= closed_at[0]:
            # Game 1 holds every hand point scored while it is open (bonuses apart).
            assert totals[0] == gained
        for k in (0, 1):
            if closed_at[k] is None or number <= closed_at[k]:
                # While game k is open, game k + 1 holds at most what game k holds, per player.
                for p in players:
                    assert totals[k + 1][p] <= totals[k][p]
        # Every hand's points are zero-sum in net.
        assert sum(h["net"].values()) == 0
    assert sum(data["net"].values()) == 0
    # The match's totals are the three games' finals together; the winner is ahead on them (or nobody: a tie).
    finals = {p: sum(g["final"][p] if p in g["final"] else 0 for g in games) for p in players}
    assert data["totals"] == finals
    a, b = (finals[p] for p in players)
    assert data["winner"] == (players[0] if a > b else players[1] if b > a else None)
    # A game's bonuses are its own: a winner's game bonus each.
    if rules.game_bonus:
        for g in games:
            assert g["bonuses"]["game"] == {g["winner"]: rules.game_bonus}
