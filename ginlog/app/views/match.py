"""Views: the match in words and tables, for people. Pure functions of the state (the JSON shapes:
:mod:`ginlog.app.views.match_json`).

Nothing here prints; the CLI decides where text goes. Cards are shown with
suit symbols (``10♥``) for people (canonical text, ``TH``, in the JSON shapes).

>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.play.reducer import fold
>>> from ginlog.game.rules import preset
>>> state = fold(simulate_match(preset("standard"), seed=3)).state
>>> score_line(state), winner_name(state)
('Ann 130, Bob 63', 'Ann')

The state says who by seat (0, 1); these views are where seats become names
(``state.players[seat]``), so a name shown is always one of the match's two.

Text for people is plain ``str`` in which every piece of record text (names,
notes, reasons, title, tool) has passed through :func:`ginlog.text.visible`: a
control or bidi character in a record is seen, never emitted. It is still
text, not markup: whoever prints it with rich wraps it in ``rich.text.Text``.
The JSON shapes hold the record's text as it is (data; see
:func:`ginlog.text.json_escaped` for printing them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import assert_never

from ginlog.game.bonuses import FinalBonuses
from ginlog.game.cards import Card, mask_cards
from ginlog.game.hollywood import Game
from ginlog.game.rules import Rules
from ginlog.game.scoring import Tally, running
from ginlog.game.seats import OTHER, SEATS
from ginlog.log.events import (
    BigGin,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    HandVoid,
    Knocked,
    MatchAbandoned,
    MatchStarted,
    Note,
    Seal,
    UpcardPassed,
)
from ginlog.play.state import FinishedHand, MatchState
from ginlog.text import visible

__all__ = [
    "pretty", "describe", "hand_summary", "table_text", "score_line", "named",
    "winner_name", "pile_text", "game_words", "games_lines",
    "games_scored", "target_words", "final_sheet",
]

def pretty(cards: Iterable[Card]) -> str:
    """``A♠ 2♠ 10♥``, sorted."""
    return " ".join(c.pretty for c in sorted(cards))


def describe(event: Event, before: MatchState | None, after: MatchState) -> str:
    """One event in words, e.g. ``Bob takes 7♥ from the pile``.

    Exhaustive over the event types (the type checker proves it): a new event
    type without words here does not pass ``mypy``. Record text is shown
    (:func:`ginlog.text.visible`): ``Note: gg␛[2J``.
    """
    return visible(_words(event, before, after))


def _words(event: Event, before: MatchState | None, after: MatchState) -> str:
    match event:
        case MatchStarted():
            return f"Match between {event.players[0]} and {event.players[1]} ({event.tool})"
        case FirstDealer():
            if event.how == "cut" and event.cuts:
                cuts = ", ".join(f"{p} cuts {c.pretty}" for p, c in event.cuts.items())
                return f"{cuts}: {event.dealer} deals first"
            return f"{event.dealer} deals first ({event.how})"
        case HandDealt():
            known = " (hands and stock recorded)" if event.stock else " (hands recorded)" if event.hands else ""
            n = len(after.hands) + (1 if after.hand is not None else 0)
            up = f"upcard {event.upcard.pretty}" if event.upcard is not None else "11 cards to the non-dealer, no upcard"
            return f"Hand {n}: {event.dealer} deals; {up}{known}"
        case UpcardPassed():
            return f"{event.player} passes the upcard"
        case CardDrawn():
            if event.source == "pile":
                card = event.card or (before.hand.pile_top if before and before.hand else None)
                return f"{event.player} takes {card.pretty if card else 'the top card'} from the pile"
            return f"{event.player} draws from the stock" + (f" ({event.card.pretty})" if event.card else "")
        case CardDiscarded():
            return f"{event.player} discards {event.card.pretty}"
        case Knocked():
            return f"{event.player} knocks, {event.card.pretty} face down"
        case Gin():
            return f"{event.player} goes gin, {event.card.pretty} face down"
        case BigGin():
            return f"{event.player} goes big gin"
        case HandShown():
            return f"{event.player} shows {pretty(event.cards)}"
        case HandResultOnly():
            if event.how == "void":
                return "Score pad: void hand"
            if event.how == "points":
                return f"Score pad: {event.winner} +{event.points} (points only)"
            return (
                f"Score pad: {event.out} {event.how.replace('_', ' ')}s"
                + (f" with {event.knocker_deadwood}" if event.how == "knock" else "")
                + f", defender {event.defender_deadwood}"
            )
        case HandVoid():
            return f"Hand thrown in: {event.reason}"
        case Note():
            return f"Note: {event.text}"
        case Seal():  # who holds the key is the audit's to say, against a club's keys (ginlog audit --allowed-signers)
            return f"Seal of line {event.line} for {event.player}, signed by key {event.fingerprint}"
        case Correction():
            return f"Correction: event {event.undoes} undone" + (f" ({event.reason})" if event.reason else "")
        case MatchAbandoned():
            return f"Match abandoned: {event.reason}"
        case _:
            assert_never(event)


def hand_summary(h: FinishedHand, players: Sequence[str], rules: Rules | None = None, before: Tally | None = None) -> str:
    """What happened in a finished hand and what it scored, in one sentence (``players``: the match's, by seat).

    Under Hollywood scoring, given the ``rules`` and the tally ``before`` the
    hand, it also says which games the hand scored in and which it closed, so
    a transcript never says "Dev scores 28" while two totals move by 28 each:

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import HandResult, HandScore
    >>> from ginlog.play.state import FinishedHand
    >>> rules = preset("hollywood")
    >>> before = Tally().add(rules, HandScore("knock", 1, 90)).add(rules, HandScore("knock", 0, 5))
    >>> h = FinishedHand(3, 0, HandResult("knock", 1, 2, 30), HandScore("knock", 1, 28), "result")
    >>> hand_summary(h, ("Ann", "Dev"), rules, before)
    'Hand 3: Dev knocks with 2; the defender has 30: Dev scores 28 in games 1 and 2; game 1 closes, won by Dev 118-5.'
    """
    text = _summary(h, players)
    if rules is not None and before is not None and rules.hollywood is not None:
        text = text[:-1] + games_scored(rules, before, h, players) + "."
    return visible(text)


def games_scored(rules: Rules, before: Tally, h: FinishedHand, players: Sequence[str]) -> str:
    """``" in games 2 and 3; game 2 closes, won by Dev 105-40"``: where a hand's points went under Hollywood.

    ``before`` is the tally before the hand. Empty when nobody scored (or
    Hollywood is off); the totals of a closing game are its hand points,
    bonuses apart (they are the sheet's).
    """
    w = h.score.winner
    if rules.hollywood is None or w is None or before.over:
        return ""
    old = before.hollywood_games(rules)
    new = before.add(rules, h.score).hollywood_games(rules)
    entered = [n for n, (a, b) in enumerate(zip(old, new), start=1) if a.hands_won != b.hands_won]
    if not entered:
        return " in no game (every game it could enter is closed)"
    words = f" in game {entered[0]}" if len(entered) == 1 else (
        " in games " + ", ".join(map(str, entered[:-1])) + f" and {entered[-1]}"
    )
    for n, (a, b) in enumerate(zip(old, new), start=1):
        if b.closed and not a.closed:
            hi, lo = b.points[w], b.points[OTHER[w]]
            words += f"; game {n} closes, won by {players[w]} {hi}-{lo}"
    if all(g.closed for g in new):
        words += "; all three games are closed"
    return words


def _summary(h: FinishedHand, players: Sequence[str]) -> str:
    s = h.score
    r = h.result
    if s.outcome == "void":
        reason = f" ({h.void_reason})" if h.void_reason else ""
        return f"Hand {h.number} is void{reason}; {players[h.dealer]} deals again."
    if s.outcome == "points" and s.winner is not None:
        return f"Hand {h.number}: {players[h.dealer]} dealt; the score pad says {players[s.winner]} scores {s.points}."
    parts = []
    knocker = next((x for x in h.shown if x.player == r.out), None)
    defender = next((x for x in h.shown if x.player != r.out), None)
    how = {"knock": "knocks", "gin": "goes gin", "big_gin": "goes big gin"}[r.how] if r.how != "void" else ""
    if r.how == "knock" and s.outcome != "gin":
        how += f" with {r.knocker_deadwood}"
    parts.append(f"Hand {h.number}: {'?' if r.out is None else players[r.out]} {how}")
    if knocker is not None:
        parts[-1] += f" ({' '.join('[' + pretty(m.cards) + ']' for m in knocker.melds)}" + (
            f" {pretty(knocker.deadwood)})" if knocker.deadwood else ")"
        )
    if defender is not None:
        lay = f" lays off {pretty(defender.layoffs)} and" if defender.layoffs else ""
        parts.append(f"{players[defender.player]}{lay} has {r.defender_deadwood}")
    else:
        parts.append(f"the defender has {r.defender_deadwood}")
    if s.winner is None:
        # a tie under undercut_on_tie=false, or a hand priced at 0 (gin with gin_bonus=0 against no deadwood)
        tail = f"nobody scores ({'equal deadwood' if s.outcome == 'knock' else 'it scores 0'})"
    else:
        label = {"undercut": "undercut! ", "gin": "", "big_gin": "", "knock": ""}[s.outcome]
        tail = f"{label}{players[s.winner]} scores {s.points}"
    return "; ".join(parts) + f": {tail}."


def named(players: Sequence[str], per_seat: Sequence[int | None]) -> dict[str, int]:
    """A per-seat pair as a dict by player name, in seat order, leaving out None.

    >>> named(("Ann", "Bob"), (3, None))
    {'Ann': 3}
    """
    return {p: v for p, v in zip(players, per_seat) if v is not None}


def score_line(state: MatchState) -> str:
    """``Ann 0, Bob 61``: the running totals (with the bonuses once the match is over).

    Under Hollywood scoring, the three games (:func:`game_words`), and once the
    match is over the totals over the three, bonuses included:

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import HandScore
    >>> rules = preset("hollywood")
    >>> t = Tally().add(rules, HandScore("gin", 0, 100)).add(rules, HandScore("knock", 1, 12))
    >>> score_line(MatchState(players=("Ann", "Bob"), rules=rules, tally=t, phase="ready"))
    'game 1 Ann 100, Bob 0 (closed: Ann won, bonuses Ann 220) · game 2 Ann 0, Bob 12 (open) · game 3 Ann 0, Bob 0 (open)'

    (Bob, shut out of game 1, scores his first hand in game 2.)
    """
    players = state.players
    totals = ", ".join(f"{p} {t}" for p, t in zip(players, state.totals()))
    games = state.tally.hollywood_games(state.rules)
    if not games:
        return visible(totals)
    line = " · ".join(game_words(players, n, g, state.rules) for n, g in enumerate(games, start=1))
    return visible(line + (f" · over the three, bonuses included: {totals}" if state.phase == "over" else ""))


def game_words(players: Sequence[str], number: int, game: Game, rules: Rules | None = None) -> str:
    """One Hollywood game in a few words: ``game 2 Ann 62, Bob 40 (open)``; its hand points, and once it is
    closed (given the ``rules``) the bonuses it earned: ``(closed: Ann won, bonuses Ann 220, Bob 20)``."""
    a, b = game.points
    if game.winner is None:
        return f"game {number} {players[0]} {a}, {players[1]} {b} (open)"
    bonus = ""
    if rules is not None:
        got = named(players, [v or None for v in (game.bonuses(rules).total(0), game.bonuses(rules).total(1))])
        bonus = (", bonuses " + ", ".join(f"{p} {v}" for p, v in got.items())) if got else ""
    return f"game {number} {players[0]} {a}, {players[1]} {b} (closed: {players[game.winner]} won{bonus})"


def target_words(rules: Rules) -> str:
    """``(to 100)``, ``(each game to 100)`` under Hollywood, ``(one hand)`` without a target."""
    target = rules.game_target
    if not target:
        return "(one hand)"
    return f"(each game to {target})" if rules.hollywood is not None else f"(to {target})"


def games_lines(state: MatchState) -> list[str]:
    """Hollywood's three games, a line each, with each closed game's bonuses and final totals ([] otherwise).

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import HandScore
    >>> rules = preset("hollywood")
    >>> t = Tally().add(rules, HandScore("gin", 0, 100)).add(rules, HandScore("knock", 1, 12))
    >>> games_lines(MatchState(players=("Ann", "Bob"), rules=rules, tally=t, phase="ready"))[0]
    '  game 1: Ann 100, Bob 0, closed: Ann won it (game bonus Ann 100; boxes Ann 20; shutout Ann 100): Ann 320, Bob 0'
    """
    players = state.players
    rules = state.rules
    out = []
    for n, g in enumerate(state.tally.hollywood_games(rules), start=1):
        a, b = g.points
        line = f"  game {n}: {players[0]} {a}, {players[1]} {b}"
        if g.winner is None:
            out.append(line + ", open")
            continue
        bonus = _bonus_words(players, g.bonuses(rules))
        fa, fb = g.final_totals(rules)
        out.append(line + f", closed: {players[g.winner]} won it" + (f" ({bonus})" if bonus else "")
                   + f": {players[0]} {fa}, {players[1]} {fb}")
    return out


def _bonus_words(players: Sequence[str], b: FinalBonuses) -> str:
    """``game bonus Ann 100; boxes Ann 20, Bob 20``: the bonuses awarded, in words ('' for none)."""
    parts = []
    for label, award in (("game bonus", b.game), ("boxes", b.boxes), ("shutout", b.shutout)):
        got = named(players, award)
        if got:
            parts.append(f"{label} " + ", ".join(f"{p} {v}" for p, v in got.items()))
    return "; ".join(parts)


def final_sheet(state: MatchState) -> str:
    """The recorder's final sheet: a row a hand under headings, the bonuses, the totals, the winner.

    >>> from ginlog.play.reducer import fold
    >>> from ginlog.play.simulate import simulate_match
    >>> from ginlog.game.rules import preset
    >>> print(final_sheet(fold(simulate_match(preset("standard"), seed=3, max_hands=1)).state).splitlines()[1])
      Hand  Dealer    Result     Winner    Points
    """
    st = state
    if st.phase == "abandoned":
        return visible(f"Match abandoned: {st.abandoned}")
    players = st.players
    hollywood = st.rules.hollywood is not None
    width = max(8, *(len(visible(p)) for p in players))
    lines = ["Final sheet:", f"  {'Hand':>4}  {'Dealer':<{width}}  {'Result':<9}  {'Winner':<{width}}  {'Points':>6}"
             + ("  Games" if hollywood else "")]
    tally = Tally()
    for h in st.hands:
        s = h.score
        won = "-" if s.winner is None else players[s.winner]
        row = f"  {h.number:>4}  {players[h.dealer]:<{width}}  {s.outcome.replace('_', ' '):<9}  {won:<{width}}  {s.points:>6}"
        if hollywood:
            before = tally.hollywood_games(st.rules)
            tally = tally.add(st.rules, s) if not tally.over else tally
            after = tally.hollywood_games(st.rules)
            entered = [str(n) for n, (a, b) in enumerate(zip(before, after), start=1) if a.hands_won != b.hands_won]
            row += "  " + (" ".join(entered) or "-")
        lines.append(row)
    if hollywood:
        lines.append("  Games (each to the target, with its own bonuses):")
        lines += ["  " + line for line in games_lines(st)]
    else:
        b = st.tally.bonuses(st.rules)
        for label, part in (("game bonus", b.game), ("boxes", b.boxes), ("shutout", b.shutout)):
            for p, v in named(players, part).items():
                lines.append(f"  {label}: {p} +{v}")
    lines.append("  Totals: " + ", ".join(f"{p} {t}" for p, t in zip(players, st.totals())))
    lines.append(f"Winner: {winner_name(st) or 'nobody'}")
    return "\n".join(map(visible, lines))


def winner_name(state: MatchState) -> str | None:
    """The match winner's name, once there is one."""
    w = state.winner
    return None if w is None else state.players[w]


def _cards_of(mask: int) -> str:
    return pretty(mask_cards(mask)) or "-"


def pile_text(pile: Sequence[Card], last: int = 3) -> str:
    """The pile's last cards in pile order, bottom to top, never sorted: ``9♣ 2♥ 7♠ (top last)``.

    >>> from ginlog.game.cards import parse_cards
    >>> pile_text(parse_cards("KD 9C 2H 7S")), pile_text(parse_cards("KD")), pile_text(())
    ('9♣ 2♥ 7♠ (top last)', 'K♦', '-')
    """
    if not pile:
        return "-"
    cards = " ".join(c.pretty for c in pile[-last:])
    return cards + " (top last)" if len(pile) > 1 else cards


def table_text(state: MatchState, as_player: str | None = None) -> str:
    """The table as text: score, hand, turn, pile, what is known of each hand.

    ``as_player`` limits it to what that player could see: their own known
    cards, the pile, and the opponent's cards taken from the pile.
    """
    return "\n".join(map(visible, _table(state, as_player)))


def _table(state: MatchState, as_player: str | None) -> list[str]:
    lines = []
    players = state.players
    if state.rules.hollywood is not None:
        lines.append(f"Score: Hollywood, three games {target_words(state.rules)}")
        lines += games_lines(state)
        if state.phase == "over":
            lines.append("  over the three, bonuses included: " + ", ".join(
                f"{p} {t}" for p, t in zip(players, state.totals())))
    else:
        lines.append(f"Score: {score_line(state)} {target_words(state.rules)}")
    if state.phase == "setup":
        lines.append("Waiting for the first dealer: 'dealer NAME' or 'cut NAME CARD NAME CARD'.")
        return lines
    if state.phase == "abandoned":
        lines.append(f"Abandoned: {state.abandoned}")
        return lines
    if state.phase == "over":
        lines.append(f"Match over. Winner: {winner_name(state) or 'nobody'}")
        return lines
    hand = state.hand
    if hand is None:
        dealer = "?" if state.dealer is None else players[state.dealer]
        lines.append(f"Next hand: {len(state.hands) + 1}, {dealer} deals ('upcard CARD').")
        return lines
    lines.append(
        f"Hand {hand.number}: {players[hand.dealer]} dealt; knock limit {hand.knock_limit}; stock {hand.stock}; "
        f"pile {pile_text(hand.pile)}"
    )
    for i, p in zip(SEATS, players):
        if as_player is not None and p != as_player:
            # The opponent: only cards seen taken from the pile (or shown).
            seen = hand.seen[i]
            lines.append(f"  {p}: {hand.sizes[i]} cards; seen taking {_cards_of(seen)}")
            continue
        hidden = hand.sizes[i] - hand.known[i].bit_count()
        if not hidden:
            lines.append(f"  {p}: {_cards_of(hand.known[i])}")
        elif hidden == hand.sizes[i]:  # table view: nobody said which cards they hold
            lines.append(f"  {p}: {hidden} unknown cards")
        else:
            lines.append(f"  {p}: {_cards_of(hand.known[i])} and {hidden} unknown {'card' if hidden == 1 else 'cards'}")
    if hand.ending is not None:
        lines.append(f"  {players[hand.ending.player]} {hand.ending.how.replace('_', ' ')}s; {players[hand.turn]} to show.")
    else:
        verb = {"offer": "take or pass the upcard", "draw": "draw", "discard": "discard, knock or go gin"}.get(
            hand.phase, hand.phase
        )
        lines.append(f"  {players[hand.turn]} to {verb}.")
    return lines
