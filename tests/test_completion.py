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
    assert [c.text for c in choices("", st)][:3] == ["dealer", "cut", "note"]
    assert [c.text for c in choices("d", st)] == ["dealer"]  # no discard before there is a hand
    assert [c.text for c in choices("dealer ", st)] == ["Ann", "'Mary Lou'"]
    assert [c.text for c in choices("cut 'mary", st)] == ["'Mary Lou'"]
    assert [c.text for c in choices("result ", st)] == ["knock", "gin", "biggin", "void"]
    assert [c.text for c in choices("result gin A", st)] == ["Ann"]
    st = at(["dealer Ann"])
    assert [c.text for c in choices("r", st)] == ["result"]
    st = at(["dealer Ann", "upcard 7h", "pass", "pass"])
    stock = [c.text for c in choices("stock ", st)]
    assert len(stock) == 51 and "7h" not in stock  # every card not yet seen: the upcard is seen
    assert [(c.text, c.shown) for c in choices("take ", st)] == [("7h", "7♥")]
    assert [c.text for c in choices("upcard T", st)] == ["10S", "10C", "10D", "10H"]
    st = at(["dealer Ann", "upcard 7h", "pass", "take"])
    assert "7h" not in [c.text for c in choices("discard 7", st)]  # just taken: it may not go back this turn
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
    assert sorted(offered) == sorted(["2h", "3h", "4h", "8c", "8d", "8s", "5s", "6s", "7s", "ad"])
    assert "7h" not in offered and "5h" not in offered  # the 7h was just taken: it may not go back


def test_completion_ends_a_whole_turn_from_the_hand_after_the_draw() -> None:
    """``t d``/``s d``/``s 5c d`` (a whole turn in one entry): the cards that may end it, the drawn one included."""
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Bob"), rules=rules), 1)
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    hands = (parse_cards("2h 3h 4h 8c 8d 8s 5s 6s 7s ad"), parse_cards("5h 6h 8h jc qh kd 9d 9c 4c td"))
    tl = apply(tl, E.HandDealt(dealer="Ann", upcard=parse_cards("7h")[0], hands={"Ann": hands[1], "Bob": hands[0]}))
    hand = sorted(["2h", "3h", "4h", "8c", "8d", "8s", "5s", "6s", "7s", "ad"])
    assert sorted(c.text for c in choices("t d ", tl.state)) == hand  # not the 7h just taken
    assert sorted(c.text for c in choices("take k ", tl.state)) == hand
    assert sorted(c.text for c in choices("s d ", tl.state)) == hand
    assert [c.text for c in choices("s d 8", tl.state)] == ["8s", "8c", "8d"]
    assert sorted(c.text for c in choices("s qc d q", tl.state)) == ["qc"]
    assert choices("s xx d ", tl.state) == []
    shown_already = [c.text for c in choices("show 2h 3h ", tl.state)]
    assert "2h" not in shown_already and "4h" in shown_already



def test_completion_offers_only_what_is_legal_now() -> None:
    """Issue 21: all sixteen words at the upcard offer, all 52 cards with the one just taken; now the phase's."""
    offer = at(["dealer Ann", "upcard 7h"])
    assert [c.text for c in choices("", offer)] == ["take", "pass", "void", "note", "undo", "abandon", "table", "help", "quit"]
    assert [c.text for c in choices("s", offer)] == []  # no stock at the offer
    assert [c.text for c in choices("t", offer)] == ["take", "table"]
    draw = at(["dealer Ann", "upcard 7h", "pass", "pass"])
    assert [c.text for c in choices("d", draw)] == []  # no discard before the draw
    assert [c.text for c in choices("s d", draw)] == ["discard"] and [c.text for c in choices("t k", draw)] == ["knock"]
    assert [c.text for c in choices("m", draw)] == ["'Mary Lou'"]  # NAME ENTRY: the player to act only
    assert [c.text for c in choices("a", draw)] == ["abandon", "as", "ac", "ad", "ah"]  # not Ann: not her turn
    assert [c.text for c in choices("'Mary Lou' ", draw)][:2] == ["take", "stock"]
    alone = [c.text for c in choices("7", draw)]  # a card alone: a draw and that discard
    assert "7h" not in alone and len(alone) == 3
    taken = at(["dealer Ann", "upcard 7h", "take"])
    assert [c.text for c in choices("", taken)][:4] == ["discard", "knock", "gin", "void"]
    held = [c.text for c in choices("discard ", taken)]
    assert "7h" not in held and len(held) == 51  # every card but the one just taken (nothing else is seen)
    assert [c.text for c in choices("q", at(["dealer Ann"]))] == ["quit", "qs", "qc", "qd", "qh"]  # the upcard alone


def test_completion_offers_the_hand_first_where_it_is_known() -> None:
    st = at(["dealer Ann", "upcard 7h", "pass", "pass", "s d 9c", "take", "d 2s", "s d 3s"])
    offered = [c.text for c in choices("s d ", st)]
    assert offered[0] == "9c"  # Ann took the 9c: she holds it, so it comes first
    assert "2s" not in offered and "3s" not in offered and len(offered) == 49  # 9c, then all not seen


def test_completion_of_a_shown_hand_takes_compact_lists_and_cards_alone() -> None:
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Bob"), rules=rules), 1)
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    hands = (parse_cards("2h 3h 4h 8c 8d 8s 5s 6s 7s ad"), parse_cards("5h 6h 8h jc qh kd 9d 9c 4c td"))
    tl = apply(tl, E.HandDealt(dealer="Ann", upcard=parse_cards("7h")[0], hands={"Ann": hands[1], "Bob": hands[0]}))
    for ev in (E.UpcardPassed(player="Bob"), E.UpcardPassed(player="Ann"), E.CardDrawn(player="Bob", source="stock")):
        tl = apply(tl, ev)
    tl = apply(tl, E.Knocked(player="Bob", card=parse_cards("qc")[0]))
    left = [c.text for c in choices("234h 8c8d8s ", tl.state)]
    assert sorted(left) == sorted(["5s", "6s", "7s", "ad"])
    assert [c.text for c in choices("show 234h 5", tl.state)] == ["5s"]
