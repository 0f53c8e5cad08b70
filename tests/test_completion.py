"""Completion at the table: the words, names and cards that can come next, a pure function of the match state."""

from __future__ import annotations

from ginlog.app.record.completion import AFTER_WORDS, choices
from ginlog.game.cards import parse_cards
from ginlog.game.rules import preset
from ginlog.log import events as E
from ginlog.play.reducer import apply, start

from recording import at


def test_completion_offers_words_names_and_the_cards_that_can_be_named() -> None:
    st = at([])
    assert [c.text for c in choices("", st)][:3] == ["dealer", "cut", "upcard"]
    assert [c.text for c in choices("d", st)] == ["dealer", "discard"]
    assert [c.text for c in choices("dealer ", st)] == ["Ann", "'Mary Lou'"]
    assert [c.text for c in choices("cut 'mary", st)] == ["'Mary Lou'"]
    assert [c.text for c in choices("result ", st)] == ["knock", "gin", "biggin", "void"]
    assert [c.text for c in choices("result gin A", st)] == ["Ann"]
    st = at(["dealer Ann", "upcard 7h", "pass", "pass"])
    stock = [c.text for c in choices("stock ", st)]
    assert len(stock) == 51 and "7h" not in stock  # every card not yet seen: the upcard is seen
    assert [(c.text, c.shown) for c in choices("take ", st)] == [("7h", "7♥")]
    assert [c.text for c in choices("upcard T", st)] == ["10S", "10C", "10D", "10H"]
    st = at(["dealer Ann", "upcard 7h", "pass", "take"])
    assert "7h" in [c.text for c in choices("discard 7", st)]  # known in Mary Lou's hand
    assert [c.text for c in choices("over", st, words=AFTER_WORDS)] == []
    assert [c.text for c in choices("re", st, words=AFTER_WORDS)] == ["rematch"]
    assert [c.text for c in choices("se", st, words=AFTER_WORDS)] == ["seal"]


def test_completion_offers_the_hand_itself_in_a_full_information_record() -> None:
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Bob"), rules=rules), 1)
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    hands = (parse_cards("2h 3h 4h 8c 8d 8s 5s 6s 7s ad"), parse_cards("5h 6h 8h jc qh kd 9d 9c 4c td"))
    tl = apply(tl, E.HandDealt(dealer="Ann", upcard=parse_cards("7h")[0], hands={"Ann": hands[1], "Bob": hands[0]}))
    tl = apply(tl, E.CardDrawn(player="Bob", source="pile", card=parse_cards("7h")[0]))
    offered = [c.text for c in choices("discard ", tl.state)]
    assert sorted(offered) == sorted(["2h", "3h", "4h", "8c", "8d", "8s", "5s", "6s", "7s", "ad", "7h"])
    assert len(offered) == 11 and "7h" in offered and "5h" not in offered


def test_completion_ends_a_whole_turn_from_the_hand_after_the_draw() -> None:
    """``t d``/``s d``/``s 5c d`` (a whole turn in one entry): the cards that may end it, the drawn one included."""
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Bob"), rules=rules), 1)
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    hands = (parse_cards("2h 3h 4h 8c 8d 8s 5s 6s 7s ad"), parse_cards("5h 6h 8h jc qh kd 9d 9c 4c td"))
    tl = apply(tl, E.HandDealt(dealer="Ann", upcard=parse_cards("7h")[0], hands={"Ann": hands[1], "Bob": hands[0]}))
    hand = sorted(["2h", "3h", "4h", "8c", "8d", "8s", "5s", "6s", "7s", "ad"])
    assert sorted(c.text for c in choices("t d ", tl.state)) == sorted([*hand, "7h"])
    assert sorted(c.text for c in choices("take k ", tl.state)) == sorted([*hand, "7h"])
    assert [c.text for c in choices("s d 8", tl.state)] == ["8s", "8c", "8d"]
    assert sorted(c.text for c in choices("s qc d q", tl.state)) == ["qc"]
    assert choices("s xx d ", tl.state) == []
    shown_already = [c.text for c in choices("show 2h 3h ", tl.state)]
    assert "2h" not in shown_already and "4h" in shown_already

