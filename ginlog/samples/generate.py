#!/usr/bin/env python3
"""Regenerate every sample match file: ``python sample_games/generate.py [OUTDIR]``.

OUTDIR defaults to the directory of this script. Old outputs there (``*.jsonl``,
``invalid/``, ``README.md``) are deleted first, then everything is written again.

Valid files are written only through ginlog's one writer
(:class:`ginlog.match.session.MatchSession`), so every line was checked by
the reducer before it was written. Hands are either dealt by hand here (a chosen 52-card order and
chosen moves, as a table would play them) or simulated with
``simulate_hand`` from seeds searched for the wanted outcome.

Invalid files start as valid files written the same way and are then damaged
the way a real fault would: an illegal move is appended with the low-level
``writer.append`` (so the hash chain is intact and only the rule is broken:
the session would refuse it, which is its job, so this damage goes round it
as a file editor would);
edited, deleted, torn and garbled lines are made by changing the file's bytes.

The output is byte-stable: each file's session is given a fixed, ticking
clock, and illegal lines get their ``ts`` from the same clock.
The generator reads back every file it writes and checks it (valid files have
no error; each invalid file's first error is what ``invalid/expected.json`` says).
"""

from __future__ import annotations

import hashlib

import json
import random
import shutil
import sys
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ginlog.log import writer
from ginlog.game.cards import DECK, Card, parse_card, parse_cards
from ginlog.log.events import (
    SCHEMA_VERSION,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    Knocked,
    Note,
    UpcardPassed,
    event_item,
)
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.game.rules import Rules, preset
from ginlog.play.simulate import Mode, simulate_hand
from ginlog.play.state import FinishedHand, MatchState, Timeline
from ginlog.game.seats import Seat
from ginlog.app.views.match import named, winner_name

HERE = Path(__file__).resolve().parent


# ---------------------------------------------------------------------------
# A fixed clock, so the files are byte-stable


class Clock:
    """Timestamps in the store's format, starting at ``start`` and ticking ``step`` seconds a call."""

    def __init__(self, start: str, step: int = 23) -> None:
        self.t = datetime.strptime(start, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
        self.step = timedelta(seconds=step)

    def __call__(self) -> str:
        now = self.t
        self.t += self.step
        return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


# ---------------------------------------------------------------------------
# Writing through the API


class Writer:
    """A match file written through a :class:`MatchSession` on a fixed clock, with its timeline."""

    def __init__(self, path: Path, players: tuple[str, str], rules: Rules, title: str, start: str) -> None:
        self.path = path
        self.clock = Clock(start)
        self.next_seed = 0
        # A match id fixed by the file's name (a new match's is random), so the files are byte-stable.
        match_id = hashlib.sha256(b"ginlog sample " + path.name.encode()).hexdigest()[:32]
        self.session = MatchSession.create(path, players, rules, title=title, clock=self.clock, match_id=match_id)

    @property
    def tl(self) -> Timeline:
        return self.session.timeline

    @property
    def state(self) -> MatchState:
        return self.tl.state

    @property
    def lines(self) -> int:
        """Lines in the file (the seq of the last one)."""
        return sum(1 for _ in self.path.open("rb"))

    def add(self, *events: Event) -> Timeline:
        self.session.append(events)
        return self.tl

    def raw_append(self, type_: str, fields: dict[str, Any]) -> int:
        """Append one line with the store alone (no rule check); return its line number.

        Only for the invalid samples, which break a rule on purpose: the
        session is the writer that refuses such a line, so this goes round it
        to the store, as the byte-level damage below goes round both. The
        session is not used on this file afterwards (it would see a Conflict).
        """
        line = writer.append(self.path, type_, SCHEMA_VERSION, fields, expect=self.lines, ts=self.clock())
        return line.lineno

    def raw_event(self, event: Event) -> int:
        type_, _v, fields = event_item(event)
        return self.raw_append(type_, fields)


def c(text: str) -> Card:
    return parse_card(text)


def cs(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def deal(dealer: str, hands: dict[str, str], upcard: str, stock_top: str = "", *, seed: int = 0,
         leave_out: str = "") -> HandDealt:
    """A full-information deal: both hands, the upcard, and the stock (top first).

    ``stock_top`` are the first stock cards in order; the rest of the stock is
    the unused cards in an order shuffled from ``seed``. ``leave_out`` names
    cards kept out of the stock (only for a deliberately wrong deal).
    """
    hand_cards = {p: tuple(sorted(cs(h))) for p, h in hands.items()}
    top = list(cs(stock_top))
    used = {card for h in hand_cards.values() for card in h} | {c(upcard)} | set(top) | set(cs(leave_out))
    rest = [card for card in DECK if card not in used]
    random.Random(seed).shuffle(rest)
    stock = tuple(top + rest)[:31]
    return HandDealt(dealer=dealer, upcard=c(upcard), hands=hand_cards, stock=stock)


def draw(player: str, source: str = "stock", card: str | None = None) -> CardDrawn:
    return CardDrawn(player=player, source=source, card=c(card) if card else None)  # type: ignore[arg-type]


def discard(player: str, card: str) -> CardDiscarded:
    return CardDiscarded(player=player, card=c(card))


def show(player: str, cards: str, melds: list[str] | None = None, layoffs: str | None = None) -> HandShown:
    return HandShown(
        player=player,
        cards=tuple(sorted(cs(cards))),
        melds=tuple(cs(m) for m in melds) if melds is not None else None,
        layoffs=cs(layoffs) if layoffs is not None else None,
    )


# ---------------------------------------------------------------------------
# Seed search with the simulator


def find_hand(
    w: Writer,
    want: Callable[[FinishedHand, list[Event]], bool],
    *,
    mode: Mode = "full",
    knock_rates: tuple[float, ...] = (0.8, 0.3, 0.0),
    tries: int = 3000,
) -> list[Event]:
    """The first simulated hand from ``w``'s state that ``want`` accepts.

    Seeds are tried in order from the one after the last seed this file used
    (so no deal repeats), each with every knock rate in turn.
    """
    for seed in range(w.next_seed, w.next_seed + tries):
        for rate in knock_rates:
            events, after = simulate_hand(w.state, random.Random(seed), mode=mode, knock_rate=rate)
            if after.hands and want(after.hands[-1], events):
                w.next_seed = seed + 1
                return events
    raise RuntimeError("no seed gives the wanted hand")


def outcome(fh: FinishedHand) -> str:
    return fh.score.outcome


def has_chain(fh: FinishedHand) -> bool:
    """A defender laid off 2+ cards in a row onto the same end of a knocker's run."""
    knocker = next((s for s in fh.shown if s.player == fh.result.out), None)
    defender = next((s for s in fh.shown if s.player != fh.result.out), None)
    if knocker is None or defender is None:
        return False
    lay = defender.layoffs
    for a, b in zip(lay, lay[1:]):
        if a.suit == b.suit and abs(a.rank - b.rank) == 1:
            return True
    return False


def describe(fh: FinishedHand, players: tuple[str, str]) -> str:
    s = fh.score
    if s.outcome == "void":
        return f"h{fh.number} void"
    how = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "big gin"}[s.outcome]
    chain = ", chained lay-off" if has_chain(fh) else ""
    return f"h{fh.number} {how} {who(players, s.winner)} +{s.points}{chain}"


def who(players: tuple[str, str], seat: Seat | None) -> str | None:
    return None if seat is None else players[seat]


def sheet(st: MatchState) -> str:
    return "; ".join(describe(h, st.players) for h in st.hands)


# ---------------------------------------------------------------------------
# The valid files


STANDARD_HAND_1 = {
    # Ann deals; Bob is the non-dealer.
    "Bob": "5S 6S 7S 2H 3H 4H KC KD 9C JH",
    "Ann": "8S 9S AD 2D 3D QC QS 6C 4C TD",
}


def standard_hand_1(w: Writer) -> None:
    """A hand-dealt first hand: a mis-entered discard corrected, and a chained lay-off."""
    w.add(
        deal("Ann", STANDARD_HAND_1, "2C", "KH 4D 7C 5C AC", seed=1),
        UpcardPassed(player="Bob"),
        UpcardPassed(player="Ann"),
        draw("Bob", card="KH"),
        discard("Bob", "JH"),
        draw("Ann", card="4D"),
        discard("Ann", "QC"),  # entered wrongly...
    )
    w.add(
        Correction(undoes=w.tl.seq, reason="Ann threw the queen of spades, not clubs"),
        discard("Ann", "QS"),  # ...and entered again
        draw("Bob", card="7C"),
        discard("Bob", "7C"),
        draw("Ann", card="5C"),
        discard("Ann", "TD"),
        draw("Bob", card="AC"),
        Knocked(player="Bob", card=c("9C")),
        show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC"),
        # Ann lays off 8S then 9S onto Bob's 5S 6S 7S: a chain on one run end.
        show("Ann", "8S 9S AD 2D 3D 4D QC 4C 5C 6C", melds=["AD 2D 3D 4D", "4C 5C 6C"], layoffs="8S 9S"),
    )


def write_standard(out: Path) -> str:
    w = Writer(out / "standard-match.jsonl", ("Ann", "Bob"), preset("standard"),
               "Sample: a whole match to 100, standard rules, full information", "2026-03-06T19:00:00")
    w.add(
        FirstDealer(dealer="Ann", how="cut", cuts={"Ann": c("3C"), "Bob": c("9D")}),
        Note(text="Friday game at the club; Ann keeps the sheet."),
    )
    standard_hand_1(w)
    wants: list[Callable[[FinishedHand, list[Event]], bool]] = [
        lambda fh, ev: outcome(fh) == "undercut",
        lambda fh, ev: outcome(fh) == "void",
        lambda fh, ev: outcome(fh) == "knock" and has_chain(fh),
        lambda fh, ev: outcome(fh) == "gin",
    ]
    for i, want in enumerate(wants):
        w.add(*find_hand(w, want))
        if i == 1:
            w.add(Note(text="Stock down to two cards: nobody scores, same dealer deals again.", player="Bob"))
    while w.state.phase == "ready":
        w.add(*find_hand(w, lambda fh, ev: outcome(fh) == "knock" and fh.score.points >= 12))
    st = w.state
    return f"whole match, standard, full information, cut for deal, one correction, two notes: {sheet(st)}; {winner_name(st)} wins {named(st.players, st.totals())}"


def write_modern(out: Path) -> str:
    w = Writer(out / "modern-match.jsonl", ("Cleo", "Dev"), preset("modern"),
               "Sample: a shutout under modern tournament rules", "2026-03-07T15:30:00")
    w.next_seed = 10_000
    w.add(FirstDealer(dealer="Dev", how="random"))

    def cleo(kind: str) -> Callable[[FinishedHand, list[Event]], bool]:
        return lambda fh, ev: outcome(fh) == kind and who(w.state.players, fh.score.winner) == "Cleo"

    for kind in ("big_gin", "undercut", "knock", "gin"):
        w.add(*find_hand(w, cleo(kind)))
        if w.state.phase != "ready":
            break
    while w.state.phase == "ready":
        w.add(*find_hand(w, lambda fh, ev: who(w.state.players, fh.score.winner) == "Cleo"))
    st = w.state
    b = st.tally.bonuses(st.rules)
    game, boxes = named(st.players, b.game), named(st.players, b.boxes)
    return (f"whole match, modern, full information, Dev never scores: {sheet(st)}; "
            f"{winner_name(st)} {named(st.players, st.tally.totals())['Cleo']} + game {game.get('Cleo', 0)} + boxes {boxes.get('Cleo', 0)}, "
            f"shutout doubles: final {named(st.players, st.totals())}")


def write_table_view(out: Path) -> str:
    w = Writer(out / "table-view-match.jsonl", ("Eve", "Finn"), preset("standard"),
               "Sample: recorded in table view (what both players see)", "2026-03-08T20:10:00")
    w.next_seed = 20_000
    w.add(FirstDealer(dealer="Eve", how="agreed"))
    kinds = ["knock", "gin", "undercut"]
    while w.state.phase == "ready":
        kind = kinds.pop(0) if kinds else None

        def want(fh: FinishedHand, ev: list[Event], kind: str | None = kind) -> bool:
            took = any(isinstance(e, CardDrawn) and e.source == "pile" for e in ev)
            return took and (outcome(fh) == kind if kind else outcome(fh) != "void")

        w.add(*find_hand(w, want, mode="table"))
    st = w.state
    return f"whole match, table view (no deal, stock draws unknown, pile draws named, hands shown at the end): {sheet(st)}; {winner_name(st)} wins {named(st.players, st.totals())}"


def write_score_pad(out: Path) -> str:
    w = Writer(out / "score-pad-match.jsonl", ("Gus", "Hana"), preset("classic"),
               "Sample: a score pad (hand results only), classic rules", "2026-03-09T18:45:00")
    w.add(FirstDealer(dealer="Gus", how="agreed"))
    w.add(HandResultOnly(how="knock", out="Gus", knocker_deadwood=4, defender_deadwood=27, points=23, winner="Gus"))
    w.add(HandResultOnly(how="gin", out="Hana", defender_deadwood=31, points=51))
    w.add(HandResultOnly(how="void"))
    w.add(HandResultOnly(how="knock", out="Gus", knocker_deadwood=8, defender_deadwood=5))
    w.add(HandResultOnly(how="knock", out="Hana", knocker_deadwood=2, defender_deadwood=40, points=38))
    st = w.state
    b = st.tally.bonuses(st.rules)
    return (f"whole match, classic, hand_result events only (points claimed on hands 1, 2, 5): "
            f"{sheet(st)}; {winner_name(st)} wins {named(st.players, st.tally.totals())}, "
            f"with game {named(st.players, b.game)} and boxes {named(st.players, b.boxes)}: final {named(st.players, st.totals())}")


# ---------------------------------------------------------------------------
# The invalid files

# The hand every small invalid file starts from (Ann deals, Bob is the non-dealer).
BASE_DEAL = deal("Ann", STANDARD_HAND_1, "2C", "KH 4D 7C 5C AC", seed=1)
BASE_OPENING: list[Event] = [
    BASE_DEAL,
    UpcardPassed(player="Bob"),
    UpcardPassed(player="Ann"),
    draw("Bob", card="KH"),
    discard("Bob", "JH"),
]
BASE_REST: list[Event] = [
    draw("Ann", card="4D"),
    discard("Ann", "QS"),
    draw("Bob", card="7C"),
    discard("Bob", "7C"),
    draw("Ann", card="5C"),
    discard("Ann", "TD"),
    draw("Bob", card="AC"),
    Knocked(player="Bob", card=c("9C")),
    show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC"),
    show("Ann", "8S 9S AD 2D 3D 4D QC 4C 5C 6C"),
]


def small(out: Path, name: str, start: str, events: list[Event], rules: str = "standard") -> Writer:
    w = Writer(out / "invalid" / name, ("Ann", "Bob"), preset(rules), f"Invalid sample: {name}", start)
    w.add(FirstDealer(dealer="Ann", how="agreed"), *events)
    return w


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def write_invalid(out: Path) -> dict[str, dict[str, Any]]:
    inv = out / "invalid"
    expected: dict[str, dict[str, Any]] = {}
    notes: dict[str, str] = {}

    def expect(name: str, rule: str, line: int, event: int | None, what: str) -> None:
        expected[name] = {"rule": rule, "line": line, "event": event}
        notes[name] = what

    # Illegal moves: a valid prefix, then one illegal line with an intact chain.
    w = small(out, "discard-taken-card.jsonl", "2026-03-10T19:00:00", BASE_OPENING)
    w.add(draw("Ann", "pile", "JH"))
    n = w.raw_event(discard("Ann", "JH"))
    expect(w.path.name, "discard-taken-card", n, n, "Ann takes JH from the pile and discards it at once")

    w = small(out, "knock-over-limit.jsonl", "2026-03-10T19:10:00", [
        deal("Ann", {"Bob": "5S 6S 7S 8S 2H 3H 4H 5C 4D KC", "Ann": "9S TS AD 3D 6D QC QS 6C 7C TD"}, "2C", "2D", seed=2),
        UpcardPassed(player="Bob"), UpcardPassed(player="Ann"), draw("Bob", card="2D"),
    ])
    n = w.raw_event(Knocked(player="Bob", card=c("KC")))
    expect(w.path.name, "knock-limit", n, n, "Bob knocks KC leaving 5C 4D 2D = 11 deadwood (limit 10)")

    w = small(out, "layoff-after-gin.jsonl", "2026-03-10T19:20:00", [
        deal("Ann", {"Bob": "5S 6S 7S 2H 3H 4H KC KD KH 9C", "Ann": "9S 4S AD 2D 3D QC QS 6C 4C TD"}, "2C", "8S", seed=3),
        UpcardPassed(player="Bob"), UpcardPassed(player="Ann"), draw("Bob", card="8S"),
        Gin(player="Bob", card=c("9C")), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"),
    ])
    n = w.raw_event(show("Ann", "9S 4S AD 2D 3D QC QS 6C 4C TD", melds=["AD 2D 3D"], layoffs="9S 4S"))
    expect(w.path.name, "layoff-after-gin", n, n, "Ann lays off 9S and 4S after Bob's gin")

    w = small(out, "wrong-turn.jsonl", "2026-03-10T19:30:00", BASE_OPENING)
    n = w.raw_event(draw("Bob", card="4D"))
    expect(w.path.name, "turn-order", n, n, "Bob draws again after his discard; it is Ann's turn")

    w = small(out, "duplicate-card-in-deal.jsonl", "2026-03-10T19:40:00", [])
    bad = deal("Ann", {"Bob": STANDARD_HAND_1["Bob"], "Ann": "8S 9S AD 2D 3D QC QS 6C 4C KC"}, "2C",
               "KH 4D 7C 5C AC", seed=1, leave_out="TD")
    n = w.raw_event(bad)
    expect(w.path.name, "duplicate-card", n, n, "the deal gives KC to both players (TD was miscopied)")

    w = small(out, "unknown-event-type.jsonl", "2026-03-10T19:50:00", BASE_OPENING + BASE_REST)
    n = w.raw_append("hand_scored", {"winner": "Bob", "points": 9})
    expect(w.path.name, "unknown-event", n, n, "a line of type hand_scored (not a ginlog event) after the hand")

    # Damaged bytes: a valid file first, then the fault.
    w = small(out, "edited-line.jsonl", "2026-03-10T20:00:00", [
        HandResultOnly(how="knock", out="Ann", knocker_deadwood=6, defender_deadwood=14, points=8),
        HandResultOnly(how="knock", out="Bob", knocker_deadwood=8, defender_deadwood=5),
        HandResultOnly(how="gin", out="Ann", defender_deadwood=22),
    ])
    data = lines_of(w.path)
    k = 4  # the undercut: Bob knocked 8 against Ann's 5; someone makes it Bob's knock 3
    assert b'"knocker_deadwood":8' in data[k - 1]
    data[k - 1] = data[k - 1].replace(b'"knocker_deadwood":8', b'"knocker_deadwood":3')
    w.path.write_bytes(b"".join(data))
    expect(w.path.name, "chain", k + 1, k + 1,
           f"line {k} edited (knocker_deadwood 8 -> 3, still legal); line {k + 1}'s prev no longer matches")

    w = small(out, "deleted-line.jsonl", "2026-03-10T20:10:00", BASE_OPENING + BASE_REST)
    data = lines_of(w.path)
    k = 8  # Ann's draw of 4D
    assert b'"card_drawn"' in data[k - 1] and b'"4D"' in data[k - 1]
    del data[k - 1]
    w.path.write_bytes(b"".join(data))
    expect(w.path.name, "seq", k, k + 1, f"line {k} (Ann draws 4D) deleted; the next line has seq {k + 1}")

    w = small(out, "torn-tail.jsonl", "2026-03-10T20:20:00", BASE_OPENING + BASE_REST)
    data = lines_of(w.path)
    last = data[-1]
    data[-1] = last[: len(last) // 2]
    w.path.write_bytes(b"".join(data))
    expect(w.path.name, "torn-tail", len(data), None,
           f"the last line (Ann's show) cut after {len(data[-1])} bytes, as by a crash mid-write")

    w = small(out, "bad-json.jsonl", "2026-03-10T20:30:00", BASE_OPENING + BASE_REST)
    data = lines_of(w.path)
    k = 9  # Ann's discard of QS, hand-edited without quotes
    assert b'"card":"QS"' in data[k - 1]
    data[k - 1] = data[k - 1].replace(b'"card":"QS"', b'"card":QS')
    w.path.write_bytes(b"".join(data))
    expect(w.path.name, "json", k, None, f'line {k} hand-edited to "card":QS (no quotes): not JSON')

    (inv / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")
    return {name: {**expected[name], "what": notes[name]} for name in sorted(expected)}


def write_hollywood(out: Path) -> str:
    """Hollywood scoring: Jack is shut out of game 1, so his first win is entered in game 2."""
    w = Writer(out / "hollywood-match.jsonl", ("Iris", "Jack"), preset("hollywood"),
               "Sample: Hollywood scoring, three games at once", "2026-03-10T20:00:00")
    w.next_seed = 30_000
    w.add(FirstDealer(dealer="Jack", how="agreed"))

    def won_by(name: str) -> Callable[[FinishedHand, list[Event]], bool]:
        return lambda fh, ev: who(w.state.players, fh.score.winner) == name

    while not w.state.tally.hollywood_games(w.state.rules)[0].closed:
        w.add(*find_hand(w, won_by("Iris")))
    w.add(*find_hand(w, won_by("Jack")))
    while w.state.phase == "ready":
        w.add(*find_hand(w, lambda fh, ev: outcome(fh) != "void"))
    st = w.state
    games = "; ".join(
        f"game {i} to {who(st.players, g.winner)} {named(st.players, g.final_totals(st.rules))}"
        for i, g in enumerate(st.tally.games, start=1)
    )
    return (f"whole match, hollywood (three games at once), full information, Jack shut out of game 1 "
            f"(his first win goes to game 2): {sheet(st)}; {games}; "
            f"{winner_name(st)} wins {named(st.players, st.totals())}")


# ---------------------------------------------------------------------------
# Checks and README


def check_valid(path: Path) -> None:
    report = read_match(path, collect=True)
    if report.errors:
        raise SystemExit(f"{path} should be valid: {report.errors[0].one_line()}")


def check_invalid(path: Path, exp: dict[str, Any]) -> None:
    report = read_match(path, collect=True)
    if not report.errors:
        raise SystemExit(f"{path} should be invalid")
    e = report.errors[0]
    got = {"rule": e.rule, "line": e.line, "event": e.seq}
    want = {k: exp[k] for k in ("rule", "line", "event")}
    if got != want:
        raise SystemExit(f"{path}: first error {got} ({e.one_line()}), expected {want}")


def clean(out: Path) -> None:
    for p in out.glob("*.jsonl"):
        p.unlink()
    shutil.rmtree(out / "invalid", ignore_errors=True)
    readme = out / "README.md"
    if readme.exists():
        readme.unlink()


def main(argv: list[str]) -> int:
    out = Path(argv[1]).resolve() if len(argv) > 1 else HERE
    out.mkdir(parents=True, exist_ok=True)
    clean(out)
    (out / "invalid").mkdir()
    valid = {
        "standard-match.jsonl": write_standard(out),
        "modern-match.jsonl": write_modern(out),
        "table-view-match.jsonl": write_table_view(out),
        "score-pad-match.jsonl": write_score_pad(out),
        "hollywood-match.jsonl": write_hollywood(out),
    }
    for name in valid:
        check_valid(out / name)
    invalid = write_invalid(out)
    for name, exp in invalid.items():
        check_invalid(out / "invalid" / name, exp)
    readme = [
        "# Sample games",
        "",
        "Made by `python sample_games/generate.py [OUTDIR]` (deterministic, byte-stable; do not edit by hand).",
        "Hands are h1, h2, ...; `+N` is the points the hand scored. Totals are after end-of-match bonuses.",
        "",
        "## Valid",
        "",
        *(f"- `{name}`: {text}" for name, text in valid.items()),
        "",
        "## Invalid (`invalid/`; the first error each gives is also in `invalid/expected.json`)",
        "",
        *(
            f"- `invalid/{name}`: {e['what']} -> first error `{e['rule']}` at line {e['line']}"
            f"{'' if e['event'] is None else ', event ' + str(e['event'])}"
            for name, e in invalid.items()
        ),
        "",
    ]
    (out / "README.md").write_text("\n".join(readme))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
