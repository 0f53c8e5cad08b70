"""The state of a match, as the reducer rebuilds it: frozen values, nothing else.

:class:`MatchState` is what a replay shows at any event: players and rules,
the running score, every finished hand, and the hand in progress
(:class:`HandState`). Cards a player is *known* to hold are kept as bit masks
(see :attr:`ginlog.game.cards.Card.bit`), so "is this card possible here?" and
card conservation are single integer operations.

Where each of the 52 cards is, at any moment of a hand:

- known in a player's hand (``known``), on the pile (``pile``), face down
  under a knock (``ending.card``), or in the recorded stock order;
- otherwise *unknown*: in the stock or hidden in a hand. The count of unknown
  cards always equals the stock count plus the hidden part of each hand
  (:meth:`HandState.conservation_error` checks exactly that).

Who is who is a seat (:data:`~ginlog.game.seats.Seat`, 0 or 1: the order of
``players``) in every field; only :attr:`MatchState.players` holds names, and
the views turn seats into names with it (see :mod:`ginlog.game.seats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import attrs

from ginlog.game.cards import Card, cards_mask, cards_value, mask_cards
from ginlog.game.melds import Arrangement, Meld
from ginlog.game.rules import Rules
from ginlog.game.scoring import HandResult, HandScore, Tally
from ginlog.game.seats import OTHER, Seat, seat_of

__all__ = ["MatchState", "HandState", "Ending", "Shown", "FinishedHand", "Timeline", "ALL_CARDS", "placed_mask"]

ALL_CARDS: Final = cards_mask(Card(s, r) for s in range(4) for r in range(1, 14))

HandPhase = Literal["offer", "draw", "discard", "wall", "show", "defend"]
MatchPhase = Literal["setup", "ready", "hand", "over", "abandoned"]


def popcount(mask: int) -> int:
    return mask.bit_count()


def placed_mask(known: Sequence[int], pile_mask: int, ending: Ending | None, stock_order: Sequence[Card] | None) -> int:
    """Every card whose place in a hand is known: in a hand, on the pile (``pile_mask``), face down, or in the
    recorded stock.

    Shared by :class:`HandState` and the reducer's working copy (which keeps its pile's mask as it goes).
    """
    m = known[0] | known[1] | pile_mask
    if ending is not None and ending.card is not None:
        m |= ending.card.bit
    if stock_order is not None:
        m |= cards_mask(stock_order)
    return m


@attrs.frozen
class Shown:
    """A hand laid out at the end of a hand (``player``: the seat that showed it)."""

    player: Seat
    cards: tuple[Card, ...]
    melds: tuple[Meld, ...]
    layoffs: tuple[Card, ...]
    deadwood: tuple[Card, ...]
    declared: bool  # melds given by the player, not found by ginlog

    @property
    def deadwood_value(self) -> int:
        return cards_value(self.deadwood)


@attrs.frozen
class Ending:
    """How the seat going out ended the hand, and what it has shown so far."""

    how: Literal["knock", "gin", "big_gin"]
    player: Seat
    card: Card | None  # face-down discard (None for big gin)
    knocker: Shown | None = None
    # When the knocker left the arrangement to ginlog, every least-deadwood
    # arrangement stays a candidate until the defender shows: the one that
    # leaves the defender least to lay off is then used.
    candidates: tuple[Arrangement, ...] = ()


@attrs.frozen
class HandState:
    """A hand in progress. Per-player values are indexed by seat, as ``dealer`` and ``turn`` are seats."""

    number: int
    dealer: Seat
    upcard: Card | None  # None: an 11/10 deal (deal_eleven), which turns no upcard
    knock_limit: int
    phase: HandPhase
    turn: Seat
    stock: int
    pile: tuple[Card, ...]
    known: tuple[int, int]
    sizes: tuple[int, int]
    stock_order: tuple[Card, ...] | None = None
    passes: int = 0
    taken: Card | None = None
    ending: Ending | None = None
    upcard_takes: int = 0  # takes from the pile after the first offer (OpenSpiel's limit)
    counted_take: bool = False  # the card in ``taken`` was taken after the first offer
    bounced: Seat | None = None  # the seat whose last discard was the card it had just taken
    wall: bool = False  # the stock is down to the void size: take only to knock (OpenSpiel)
    # What both players have seen each one take from the pile and not discard
    # since (in a full-information record ``known`` holds more than that).
    seen: tuple[int, int] = (0, 0)
    moves: int = 0  # draws and discards so far (RLCard's move_limit counts them, after the deal)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def placed_mask(self) -> int:
        """Every card whose place is known."""
        return placed_mask(self.known, cards_mask(self.pile), self.ending, self.stock_order)

    def unknown_cards(self) -> tuple[Card, ...]:
        """Cards that are in the stock or hidden in a hand, as far as the record says."""
        return mask_cards(ALL_CARDS & ~self.placed_mask())

    def conservation_error(self) -> str | None:
        """None when every card is in exactly one place; else what is wrong."""
        places = [self.known[0], self.known[1], cards_mask(self.pile)]
        counts = [popcount(self.known[0]), popcount(self.known[1]), len(self.pile)]
        if self.ending is not None and self.ending.card is not None:
            places.append(self.ending.card.bit)
            counts.append(1)
        if self.stock_order is not None:
            places.append(cards_mask(self.stock_order))
            counts.append(len(self.stock_order))
        union = 0
        for p in places:
            union |= p
        if popcount(union) != sum(counts) or len(set(self.pile)) != len(self.pile):
            return "a card is in two places"
        hidden = self.sizes[0] - counts[0] + self.sizes[1] - counts[1]
        if min(self.sizes[0] - counts[0], self.sizes[1] - counts[1]) < 0:
            return "a hand holds more known cards than its size"
        in_stock_unknown = self.stock - (len(self.stock_order) if self.stock_order is not None else 0)
        if 52 - popcount(union) != hidden + in_stock_unknown:
            return f"{52 - popcount(union)} cards unaccounted for, expected {hidden + in_stock_unknown}"
        return None


@attrs.frozen
class FinishedHand:
    """One hand of the score sheet: what happened and what the rules made of it."""

    number: int
    dealer: Seat
    result: HandResult
    score: HandScore
    recorded: Literal["moves", "result"]
    shown: tuple[Shown, ...] = ()
    void_reason: str | None = None
    totals: tuple[int, int] = (0, 0)  # running totals after this hand (as the tally counts them)


@attrs.frozen
class MatchState:
    """The whole match after some prefix of its events."""

    players: tuple[str, str]
    rules: Rules
    tally: Tally
    phase: MatchPhase = "setup"
    dealer: Seat | None = None  # who deals the next hand (or the current one)
    hands: tuple[FinishedHand, ...] = ()
    hand: HandState | None = None
    first_dealer_how: str | None = None
    abandoned: str | None = None
    title: str | None = None
    tool: str | None = None

    def seat(self, name: str) -> Seat:
        """The seat of the player called ``name``; ``unknown-player`` for anyone else."""
        return seat_of(self.players, name)

    def name(self, seat: Seat) -> str:
        """The name of the player in ``seat`` (what the views show)."""
        return self.players[seat]

    @staticmethod
    def other(seat: Seat) -> Seat:
        return OTHER[seat]

    @property
    def winner(self) -> Seat | None:
        """The match winner once it is over (for a one-hand match: whoever scored)."""
        if self.tally.winner is not None:
            return self.tally.winner
        if self.phase == "over" and self.rules.single_hand and self.hands:
            return self.hands[-1].score.winner
        return None

    @property
    def finished(self) -> bool:
        return self.phase in ("over", "abandoned")

    def totals(self) -> tuple[int, int]:
        """Running totals by seat; once the match is over, with its end-of-match bonuses."""
        if self.phase == "over":
            return self.tally.final_totals(self.rules)
        return self.tally.totals()


@attrs.frozen
class Timeline:
    """The reducer's whole state: the match now, and the states corrections can go back to.

    ``seq`` is the last *effective* event (the one a correction would undo);
    ``back`` holds ``(seq, state)`` before each of the last effective events,
    newest last, at most :data:`ginlog.play.reducer.UNDO_DEPTH` of them, so memory
    stays flat however long the match.
    """

    state: MatchState
    seq: int
    back: tuple[tuple[int, MatchState], ...] = ()

