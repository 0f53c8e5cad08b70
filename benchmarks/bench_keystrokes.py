"""Keystrokes at the table: what a hand takes to record with today's long entries and with the quickest ones.

Run by hand (not a test)::

    python benchmarks/bench_keystrokes.py [--rules standard] [--seed 1] [--hands 12] [--show]

A keystroke is a character typed, plus one Enter per entry (Shift is not
counted). Two entry lists are counted for the same events:

- **before**: today's long entries, as :func:`ginlog.app.record.retype.entry_for`
  writes them (whole words, whole names, the card of every take) and, for the
  README walkthrough's hand, its entries as the README types them;
- **after**: the shortest entries the language accepts for the same events,
  found by trying them: one-letter words (``s t d k g p``, ``up``), a name's
  shortest unique prefix, no card where ginlog knows it (``t``, ``g``), and a
  draw with the turn's ending on one line (``s d 7h``). A whole turn saves an
  entry, not a keystroke, over the two one-letter entries (``s d 7h`` and
  ``s``, ``d 7h`` are both 7 keystrokes), so the "short, no whole turns"
  column is there to show where the savings come from;
- **Tab**: the "after" list typed with the recorder's own completer
  (:func:`ginlog.app.record.completion.choices`, what Tab offers at the prompt):
  each word costs the fewest keys of typing it whole or typing a beginning and
  one Tab where the completer offers exactly one choice that gives the same
  events (``sh`` Tab for ``show``). Cards are two characters and names already
  a shortest prefix, so Tab saves little: it is for finding a form.

Each list is typed into a fresh match through ``parse_entry`` and the reducer
(every event checked), and the lists must give the same events, else the run
fails. Rows: the README walkthrough's hand; one typical hand of a simulated
match recorded as a person at the table records it (table view: a card
drawn from the stock is not seen; the hand with the median number of long
entries among the hands that were played out); and that whole match.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from ginlog.app.record.completion import choices
from ginlog.app.record.entry import WORDS, parse_entry
from ginlog.app.record.retype import entry_for
from ginlog.errors import GinlogError
from ginlog.game.rules import PRESETS, preset
from ginlog.game.cards import parse_card
from ginlog.log.events import BigGin, CardDiscarded, CardDrawn, Event, Gin, HandShown, Knocked, MatchStarted
from ginlog.play.reducer import apply, start
from ginlog.play.simulate import simulate_match
from ginlog.play.state import Timeline

#: The README walkthrough's hand as the README types it (without the mistaken discard and its undo).
WALKTHROUGH = [
    "dealer Ann",
    "upcard 7h",
    "pass",
    "pass",
    "stock",
    "knock qc",
    "show 2h 3h 4h 8c 8d 8s 5s 6s 7s ad",
    "show 5h 6h 8h jc qh kd 9d 9c 4c td",
]
ENDS = (CardDiscarded, Knocked, Gin, BigGin)


def keystrokes(entries: Sequence[str]) -> int:
    """Characters typed and one Enter per entry.

    >>> keystrokes(["s d 7h"]), keystrokes(["s", "d 7h"]), keystrokes(["stock", "discard 7h"])
    (7, 7, 17)
    """
    return sum(len(e) + 1 for e in entries)


def typed(tl: Timeline, entries: Sequence[str]) -> tuple[list[Event], Timeline]:
    """The events ``entries`` stand for, typed one after another from ``tl`` (each checked by the reducer)."""
    events: list[Event] = []
    for text in entries:
        for ev in parse_entry(text, tl):
            tl = apply(tl, ev)
            events.append(ev)
    return events, tl


def _aliases(word: str) -> list[str]:
    canonical = WORDS[word]
    return sorted((w for w, c in WORDS.items() if c == canonical), key=len)


def _variants(token: str, players: Sequence[str]) -> list[str]:
    """``token`` and what may stand for it: a card in lower case, a player's name by any prefix."""
    out = [token.lower()]
    for p in players:
        if token == p:
            out += [p[:n].lower() for n in range(1, len(p))]
    return out


def _compact(cards: Sequence[str], grouped: bool) -> list[list[str]]:
    """A list of cards typed compactly, as the language takes it: run together (``2h3h4h``), and with ``grouped``
    each suit's ranks before the suit, as a hand is held (``234h``: suits in the order they come, ranks ace low)."""
    low = [c.lower() for c in cards]
    out = [["".join(low)]]
    if grouped:
        suits: dict[str, list[str]] = {}
        for c in sorted(low, key=lambda c: parse_card(c).rank):
            suits.setdefault(c[-1], []).append(c[:-1])
        order = list(dict.fromkeys(c[-1] for c in low))
        out.append(["".join("".join(suits[suit]) + suit for suit in order)])
    return out


def _is_card(token: str) -> bool:
    try:
        parse_card(token)
    except GinlogError:
        return False
    return True


def forms(event: Event, tl: Timeline, grouped: bool = True) -> list[str]:
    """Every spelling of ``event``'s entry that may stand for it, shortest first (each still to be tried):
    the word's short forms or none (a card alone), a name's prefixes, no last card (take, gin), a shown hand's
    cards run together."""
    long = entry_for(event)
    assert long is not None, event
    head, *tail = long.split(" ")
    heads = _aliases(head) if head in WORDS else _variants(head, tl.state.players)
    if head in WORDS and tail:
        heads.append("")  # a card alone (7h), cards alone (a shown hand)
    players = tl.state.players
    tails: list[list[str]] = [[]]
    for token in tail:
        tails = [[*t, v] for t in tails for v in _variants(token, players)]
    if tail:
        tails += [t[:-1] for t in tails]  # an optional last card (take, gin)
    if isinstance(event, HandShown) and event.melds is None and event.layoffs is None:
        tails += _compact(tail, grouped)
    return sorted({" ".join(w for w in [h, *t] if w) for h in heads for t in tails} - {""}, key=len)


def same(a: Sequence[Event], b: Sequence[Event]) -> bool:
    """The same events, but for the order of a shown hand's cards (ginlog arranges the hand: the order says
    nothing, and a person types the hand as it is held, a suit at a time)."""
    def norm(e: Event) -> Event:
        return attrs.evolve(e, cards=tuple(sorted(e.cards))) if isinstance(e, HandShown) else e
    return len(a) == len(b) and all(norm(x) == norm(y) for x, y in zip(a, b))


def _first(texts: Sequence[str], tl: Timeline, want: Sequence[Event]) -> str | None:
    for text in texts:
        try:
            if same(parse_entry(text, tl), want):
                return text
        except GinlogError:  # a form the language does not take here
            continue
    return None


def shortest_entry(event: Event, tl: Timeline, grouped: bool = True) -> str:
    """The shortest entry that records exactly what the long one does, found by trying the shorter forms."""
    long = entry_for(event)
    assert long is not None, event
    return _first(forms(event, tl, grouped), tl, parse_entry(long, tl)) or long


def quick_entries(events: Sequence[Event], tl: Timeline, whole_turns: bool = True, grouped: bool = True) -> list[str]:
    """The shortest entries for ``events`` from ``tl``; with ``whole_turns``, a draw and its ending on one line."""
    out: list[str] = []
    i = 0
    while i < len(events):
        ev = events[i]
        text = shortest_entry(ev, tl, grouped)
        nxt = events[i + 1] if i + 1 < len(events) else None
        after = apply(tl, ev)
        if whole_turns and isinstance(ev, CardDrawn) and isinstance(nxt, ENDS):
            ends = forms(nxt, after, grouped)
            draws = forms(ev, tl, grouped)
            # The whole turn: a draw and its end on one line, or the end alone where it stands for both (7h).
            turn = _first(sorted({*ends, *(f"{d} {e}" for d in draws for e in ends)}, key=len), tl, [ev, nxt])
            if turn is not None:
                out.append(turn)
                tl = apply(after, nxt)
                i += 2
                continue
        out.append(text)
        tl = after
        i += 1
    return out


def tab_keystrokes(entry: str, tl: Timeline) -> int:
    """``entry``'s keystrokes with Tab: each word typed whole, or a beginning and one Tab where that is fewer.

    A Tab counts only where the completer offers one choice and the entry with
    it gives the same events (a name completed whole stands for the same player).

    >>> from ginlog.game.rules import preset
    >>> tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    >>> tab_keystrokes("dealer a", tl), keystrokes(["dealer a"])
    (6, 9)
    """
    want = parse_entry(entry, tl)
    words = entry.split(" ")
    total = len(words)  # the spaces between words, and Enter
    for i, word in enumerate(words):
        line = " ".join(words[:i]) + " " if i else ""
        cost = len(word)
        for k in range(len(word) - 1):  # a beginning of k characters, then Tab (1 key): fewer only when k + 1 < len
            offered = choices(line + word[:k], tl.state)
            if len(offered) != 1:
                continue
            done = line + offered[0].text
            try:
                if same(parse_entry(" ".join([done, *words[i + 1:]]), tl), want):
                    cost = k + 1
                    break
            except GinlogError:
                continue
        total += cost
    return total


@attrs.frozen
class Row:
    """One hand's (or match's) entry lists, checked to give the same events."""

    label: str
    before: tuple[str, ...]
    short: tuple[str, ...]
    after: tuple[str, ...]
    events: int
    tab: int  # the "after" list's keystrokes with Tab, and the Enter that accepts each show ginlog arranges
    ungrouped: int = 0  # the "after" list's keystrokes without the suit-grouped card lists (234h)


def measure(label: str, tl: Timeline, before: Sequence[str]) -> tuple[Row, Timeline]:
    """Type ``before`` from ``tl``, find the quick lists for the same events, and check all three agree."""
    events, end = typed(tl, before)
    short = quick_entries(events, tl, whole_turns=False)
    after = quick_entries(events, tl)
    plain = quick_entries(events, tl, grouped=False)
    for entries in (short, after, plain):
        again, end_again = typed(tl, entries)
        if not same(again, events) or end_again.state.totals() != end.state.totals() or [
                h.score for h in end_again.state.hands] != [h.score for h in end.state.hands]:
            raise SystemExit(f"{label}: the quick entries do not give the same events: {entries}")
    # At a terminal the recorder shows how it arranges a hand shown without melds and asks: Enter accepts.
    accepts = sum(isinstance(e, HandShown) and e.melds is None for e in events)
    return Row(label, tuple(before), tuple(short), tuple(after), len(events), with_tab(after, tl) + accepts,
               keystrokes(plain)), end


def with_tab(entries: Sequence[str], tl: Timeline) -> int:
    """The keystrokes of ``entries`` typed from ``tl`` with Tab where it saves keys."""
    total = 0
    for text in entries:
        total += tab_keystrokes(text, tl)
        for ev in parse_entry(text, tl):
            tl = apply(tl, ev)
    return total


def hands_of(events: Sequence[Event]) -> list[tuple[Timeline, list[Event]]]:
    """A simulated match's events after its first dealer, cut into hands, each with the timeline it starts from."""
    tl = apply(start(events[0]), events[1])
    hands: list[tuple[Timeline, list[Event]]] = []
    current: list[Event] = []
    begin = tl
    for ev in events[2:]:
        if not current:
            begin = tl
        tl = apply(tl, ev)
        current.append(ev)
        if tl.state.hand is None:
            hands.append((begin, current))
            current = []
    return hands


def run(rules_name: str, seed: int, n_hands: int) -> tuple[list[Row], str]:
    """The rows: the walkthrough's hand, a typical simulated hand, the whole simulated match."""
    rows = []
    fresh = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    row, _ = measure("README walkthrough hand", fresh, WALKTHROUGH)
    rows.append(row)
    events = simulate_match(preset(rules_name), seed=seed, mode="table", max_hands=n_hands)
    hands = hands_of(events)
    per_hand = []
    whole_before: list[str] = []
    whole_short: list[str] = []
    whole_after: list[str] = []
    played = []
    for k, (begin, evs) in enumerate(hands, start=1):
        before = [e for e in (entry_for(ev) for ev in evs) if e is not None]
        hand_row, _ = measure(f"simulated hand {k}", begin, before)
        per_hand.append(hand_row)
        whole_before += hand_row.before
        whole_short += hand_row.short
        whole_after += hand_row.after
        if any(isinstance(ev, (Knocked, Gin, BigGin)) for ev in evs):
            played.append(hand_row)
    pool = sorted(played or per_hand, key=lambda r: (len(r.before), r.label))
    typical = pool[(len(pool) - 1) // 2]
    rows.append(attrs.evolve(typical, label=f"{typical.label} of {len(hands)} (typical: median length)"))
    total = sum(r.events for r in per_hand)
    rows.append(Row(f"simulated match, {len(hands)} hands", tuple(whole_before), tuple(whole_short),
                    tuple(whole_after), total, sum(r.tab for r in per_hand), sum(r.ungrouped for r in per_hand)))
    median = statistics.median(len(r.before) for r in pool)
    mid = {k: statistics.median(f(r) for r in pool) for k, f in MEDIANS.items()}
    note = (f"simulated: rules {rules_name}, seed {seed}, table view (stock cards unseen); "
            f"{len(played)} of {len(hands)} hands played out, median {median:g} long entries; "
            f"first dealer by the simulator, not typed\n"
            f"median keystrokes per played-out hand: before {mid['before']:g}, after {mid['after']:g}"
            f" (without 234h: {mid['ungrouped']:g}), at a terminal with Tab and Accept {mid['tab']:g}"
            f" (issue 21's goal: at most 100)")
    return rows, note


#: The figures whose median over the played-out hands the note gives.
MEDIANS: Final[dict[str, Callable[[Row], int]]] = {
    "before": lambda r: keystrokes(r.before),
    "after": lambda r: keystrokes(r.after),
    "ungrouped": lambda r: r.ungrouped,
    "tab": lambda r: r.tab,
}


def render(rows: Sequence[Row], note: str, show: bool) -> str:
    head = (f"{'':<44} {'entries':>22}   {'keystrokes':>30}\n"
            f"{'hand':<44} {'before':>7} {'short':>6} {'after':>7}   {'before':>7} {'short':>6} {'after':>7} "
            f"{'after/before':>12} {'Tab':>6} {'Tab/before':>10}")
    lines = ["keystrokes at the table: a character typed is 1, and 1 Enter per entry; 'short' = one-letter words",
             "and name prefixes but one entry per event, 'after' = with whole turns (s d 7h) too; 'Tab' = 'after'",
             "typed with the recorder's completer where a beginning and Tab is fewer keys, and the Enter that",
             "accepts each hand ginlog arranges (at a terminal it asks)", "", head,
             "-" * len(head.splitlines()[1])]
    for r in rows:
        b, s, a = keystrokes(r.before), keystrokes(r.short), keystrokes(r.after)
        lines.append(f"{r.label:<44} {len(r.before):>7} {len(r.short):>6} {len(r.after):>7}   "
                     f"{b:>7} {s:>6} {a:>7} {a / b:>11.2f}x {r.tab:>6} {r.tab / b:>9.2f}x")
    lines += ["", note, "verified: each row's three lists give the same events through parse_entry and the reducer"]
    if show:
        for r in rows[:2]:
            lines += ["", f"{r.label}:", f"  before: {' | '.join(r.before)}", f"  after:  {' | '.join(r.after)}"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS), help="the simulated match's preset")
    parser.add_argument("--seed", type=int, default=1, help="the simulated match's seed (default 1)")
    parser.add_argument("--hands", type=int, default=12, help="hands simulated (default 12)")
    parser.add_argument("--show", action="store_true", help="print the entry lists of the first two rows")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    rows, note = run(args.rules, args.seed, args.hands)
    print(render(rows, note, args.show))
    return 0


if __name__ == "__main__":
    sys.exit(main())
