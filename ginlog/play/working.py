"""The reducer's working copy of a match: a *transient*, edited in place, never shown.

The state a caller sees is frozen (:class:`~ginlog.play.state.MatchState`), and the
reducer stays a pure function of it. Building a new 19-field frozen hand for
every draw and discard is what made a replay slow, though, so the rules are
written against this mutable mirror instead, in the manner of Clojure's
transients: :func:`thaw` a frozen state, let the rules edit the copy, and
:meth:`WorkingMatch.freeze` the result. Nothing outside the reducer ever holds
a working copy, so nobody can observe the mutation; a whole-log replay
(:class:`ginlog.play.reducer.Fold`) thaws once and freezes once.

The mirror has exactly the frozen classes' fields (a test keeps them in step);
the match's ``hands`` and the hand's ``pile``, ``known``, ``sizes`` and
``seen`` are lists here, tuples there.

>>> from ginlog.game.rules import preset
>>> from ginlog.game.scoring import Tally
>>> state = MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally.start(("Ann", "Bob")))
>>> w = thaw(state)
>>> w.phase = "ready"
>>> state.phase, w.freeze().phase
('setup', 'ready')
"""

from __future__ import annotations

from ginlog.game.cards import Card
from ginlog.game.rules import Rules
from ginlog.game.scoring import Tally
from ginlog.play.state import Ending, FinishedHand, HandPhase, HandState, MatchPhase, MatchState, placed_mask

__all__ = ["WorkingMatch", "WorkingHand", "thaw"]


class WorkingHand:
    """A mutable :class:`~ginlog.play.state.HandState` (see the module's notes)."""

    __slots__ = (
        "number", "dealer", "upcard", "knock_limit", "phase", "turn", "stock", "pile", "known", "sizes",
        "stock_order", "passes", "taken", "ending", "upcard_takes", "counted_take", "bounced", "wall", "seen",
    )

    def __init__(
        self,
        number: int,
        dealer: str,
        upcard: Card,
        knock_limit: int,
        phase: HandPhase,
        turn: str,
        stock: int,
        pile: list[Card],
        known: list[int],
        sizes: list[int],
        stock_order: tuple[Card, ...] | None = None,
        passes: int = 0,
        taken: Card | None = None,
        ending: Ending | None = None,
        upcard_takes: int = 0,
        counted_take: bool = False,
        bounced: str | None = None,
        wall: bool = False,
        seen: list[int] | None = None,
    ) -> None:
        self.number = number
        self.dealer = dealer
        self.upcard = upcard
        self.knock_limit = knock_limit
        self.phase = phase
        self.turn = turn
        self.stock = stock
        self.pile = pile
        self.known = known
        self.sizes = sizes
        self.stock_order = stock_order
        self.passes = passes
        self.taken = taken
        self.ending = ending
        self.upcard_takes = upcard_takes
        self.counted_take = counted_take
        self.bounced = bounced
        self.wall = wall
        self.seen = seen if seen is not None else [0, 0]

    @classmethod
    def thaw(cls, h: HandState) -> WorkingHand:
        return cls(
            h.number, h.dealer, h.upcard, h.knock_limit, h.phase, h.turn, h.stock, list(h.pile), list(h.known),
            list(h.sizes), h.stock_order, h.passes, h.taken, h.ending, h.upcard_takes, h.counted_take, h.bounced,
            h.wall, list(h.seen),
        )

    def freeze(self) -> HandState:
        known, sizes, seen = self.known, self.sizes, self.seen
        return HandState(
            self.number, self.dealer, self.upcard, self.knock_limit, self.phase, self.turn, self.stock,
            tuple(self.pile), (known[0], known[1]), (sizes[0], sizes[1]), self.stock_order, self.passes,
            self.taken, self.ending, self.upcard_takes, self.counted_take, self.bounced, self.wall,
            (seen[0], seen[1]),
        )

    def placed_mask(self) -> int:
        """Every card whose place is known (as :meth:`HandState.placed_mask`)."""
        return placed_mask(self.known, self.pile, self.ending, self.stock_order)


class WorkingMatch:
    """A mutable :class:`~ginlog.play.state.MatchState` (see the module's notes)."""

    __slots__ = (
        "players", "rules", "tally", "phase", "dealer", "hands", "hand", "first_dealer_how", "abandoned",
        "title", "tool",
    )

    def __init__(
        self,
        players: tuple[str, str],
        rules: Rules,
        tally: Tally,
        phase: MatchPhase,
        dealer: str | None,
        hands: list[FinishedHand],
        hand: WorkingHand | None,
        first_dealer_how: str | None,
        abandoned: str | None,
        title: str | None,
        tool: str | None,
    ) -> None:
        self.players = players
        self.rules = rules
        self.tally = tally
        self.phase = phase
        self.dealer = dealer
        self.hands = hands
        self.hand = hand
        self.first_dealer_how = first_dealer_how
        self.abandoned = abandoned
        self.title = title
        self.tool = tool

    def freeze(self, *, sheet: bool = True) -> MatchState:
        """The frozen state this copy now describes (the copy stays usable).

        ``sheet=False`` leaves the finished hands out (``hands=()``): copying
        the score sheet is the one cost that grows with the match, and a
        :class:`~ginlog.play.reducer.Fold` snapshot needs only its length.
        """
        hand = self.hand
        return MatchState(
            self.players, self.rules, self.tally, self.phase, self.dealer, tuple(self.hands) if sheet else (),
            None if hand is None else hand.freeze(), self.first_dealer_how, self.abandoned, self.title, self.tool,
        )

    def index(self, player: str) -> int:
        return self.players.index(player)

    def other(self, player: str) -> str:
        return self.players[1 - self.players.index(player)]

    @property
    def finished(self) -> bool:
        return self.phase in ("over", "abandoned")


def thaw(state: MatchState) -> WorkingMatch:
    """A working copy of ``state``; editing it leaves ``state`` as it was."""
    hand = state.hand
    return WorkingMatch(
        state.players, state.rules, state.tally, state.phase, state.dealer, list(state.hands),
        None if hand is None else WorkingHand.thaw(hand), state.first_dealer_how, state.abandoned, state.title,
        state.tool,
    )
