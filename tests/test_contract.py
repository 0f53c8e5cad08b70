"""The event vocabulary as a checked contract: every registered event type is known everywhere.

An event type is declared once, in :mod:`ginlog.log.events` (``@registered``).
The type checker proves that the reducer's rulebook, the views' words and the
entry language each have a case for every member of the ``Event`` union; these
tests prove the rest: the union is the registry, each type has a rule (or is
the timeline's own), a description, words, an entry (or says where it comes
from), a schema example and a row in the README's table, and the entry
language reads back what :func:`~ginlog.app.record.retype.entry_for` writes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginlog.app.record.entry import NOT_TYPED, WORDS, parse_entry

from ginlog.app.record.retype import entry_for
from ginlog.app.views.match import describe
from ginlog.errors import IllegalMove
from ginlog.game.rules import PRESETS, preset
from ginlog.log.events import (
    EVENT_KINDS,
    EVENT_TYPES,
    Correction,
    Event,
    FirstDealer,
    HandDealt,
    HandResultOnly,
    HandShown,
    MatchStarted,
    Note,
    event_from_fields,
    event_type,
)
from ginlog.play.reducer import apply, start
from ginlog.play.rulebook import RULES, rule_for
from ginlog.play.simulate import simulate_match
from ginlog.play.state import Timeline

ROOT = Path(__file__).resolve().parents[1]

#: Types with no rule of play: the timeline handles them (a correction goes back, a note changes nothing).
TIMELINE_ONLY = {"correction", "note", "seal"}


def examples() -> dict[str, Event]:
    """One event of each type, from the schema tests' examples (each a valid line's fields)."""
    from test_schema import EXAMPLES  # tests/ is on the path: the examples live with the schema tests

    return {t: event_from_fields(t, fields) for t, fields in EXAMPLES.items()}


def test_the_event_union_is_the_registry() -> None:
    names = [k.name for k in EVENT_KINDS]
    classes = [k.cls for k in EVENT_KINDS]
    assert len(set(names)) == len(names) and len(set(classes)) == len(classes)
    # (That the Event union is the registered classes is checked when ginlog.log.events is imported, and
    # EVENT_TYPES is built from EVENT_KINDS: asserting either again here could not fail.)
    assert all(event_type(object.__new__(k.cls)) == k.name for k in EVENT_KINDS)


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda k: k.name)
def test_every_event_type_has_a_description(kind: Any) -> None:
    assert kind.description and "\n" not in kind.description
    assert kind.description == (kind.cls.__doc__ or "").strip().splitlines()[0]


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda k: k.name)
def test_every_event_type_has_a_rule_of_play(kind: Any) -> None:
    rule = rule_for(object.__new__(kind.cls))
    if kind.name in TIMELINE_ONLY:
        assert rule is None and kind.cls not in RULES
    else:
        assert rule is not None and RULES[kind.cls] is rule  # the hot path's table is the match's answer


def test_every_event_type_has_a_schema_example() -> None:
    assert set(examples()) == {k.name for k in EVENT_KINDS}


def readme_event_types() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = lines.index("| type | fields |")
    names: list[str] = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        names += re.findall(r"`([a-z_]+)`", line.split("|")[1])
    return names


def test_every_event_type_has_a_readme_row() -> None:
    documented = readme_event_types()
    assert sorted(documented) == sorted(k.name for k in EVENT_KINDS), "README's '| type | fields |' table"
    assert len(documented) == len(set(documented))


@pytest.mark.parametrize("type_", sorted(EVENT_TYPES))
def test_every_event_type_has_words_and_an_entry(type_: str) -> None:
    ev = examples()[type_]
    tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("modern")))
    assert describe(ev, None, tl.state)
    entry = entry_for(ev)
    if type_ in NOT_TYPED:
        assert entry is None
    else:
        assert entry is not None and entry.split()[0] in WORDS
    assert set(NOT_TYPED) <= set(EVENT_TYPES)


#: What each event type meets right after match_started: applied (None) or refused, with this rule.
#: Types not listed belong inside a hand, and there is none yet.
AFTER_THE_START = {
    "first_dealer": None, "note": None, "match_abandoned": None, "seal": None,
    "match_started": "first-event", "hand_dealt": "first-dealer", "hand_result": "first-dealer",
    "correction": "correction",
}


@pytest.mark.parametrize("type_", sorted(EVENT_TYPES))
def test_every_event_type_is_ruled_on_never_crashes(type_: str) -> None:
    """From a fresh match any event is applied or refused with its own rule (not a fallback), whatever its type."""
    tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("modern")))
    want = AFTER_THE_START.get(type_, "no-hand")
    try:
        after = apply(tl, examples()[type_], 2)
    except IllegalMove as exc:
        assert exc.rule == want, (type_, exc.rule, str(exc))
    else:
        assert want is None, f"{type_} was applied, not refused with {want!r}"
        assert after.state != tl.state or type_ in ("note", "seal")  # a note and a seal change nothing; the others do


# ---------------------------------------------------------------------------
# The entry language reads back what entry_for writes


def as_typed(ev: Event) -> Event:
    """What the entry for ``ev`` records: the parts the language does not say dropped."""
    if isinstance(ev, FirstDealer) and ev.how != "cut":
        return attrs.evolve(ev, how="agreed")
    if isinstance(ev, HandDealt):
        return attrs.evolve(ev, hands=None, stock=None)
    if isinstance(ev, HandShown):
        return attrs.evolve(ev, cards=tuple(sorted(ev.cards)))
    if isinstance(ev, Note):
        return attrs.evolve(ev, player=None)
    if isinstance(ev, HandResultOnly):
        return attrs.evolve(ev, winner=None)
    return ev


def check_round_trip(events: list[Event]) -> int:
    first = events[0]
    assert isinstance(first, MatchStarted) and entry_for(first) is None
    tl: Timeline = start(first)
    checked = 0
    for seq, ev in enumerate(events[1:], start=2):
        text = entry_for(ev)
        assert text is not None
        (typed,) = parse_entry(text, tl)
        assert as_typed(typed) == as_typed(ev), text
        checked += 1
        tl = apply(tl, ev, seq)
    return checked


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 10_000),
    mode=st.sampled_from(["full", "table"]),
)
def test_every_simulated_event_is_read_back_from_its_entry(name: str, seed: int, mode: str) -> None:
    events = simulate_match(preset(name), seed=seed, mode=mode, max_hands=3)  # type: ignore[arg-type]
    assert check_round_trip(events) == len(events) - 1


def test_the_other_event_types_are_read_back_from_their_entries() -> None:
    started = MatchStarted(players=("Ann", "Bob"), rules=preset("classic"))
    cut = FirstDealer(dealer="Ann", how="cut", cuts={"Ann": parse("3C"), "Bob": parse("9D")})
    pads = [
        HandResultOnly(how="knock", out="Ann", knocker_deadwood=4, defender_deadwood=27, points=23),
        HandResultOnly(how="gin", out="Bob", defender_deadwood=31),
        HandResultOnly(how="void"),
    ]
    assert check_round_trip([started, cut, Note(text="coffee"), *pads]) == 5
    tl = apply(apply(start(started), cut, 2), pads[0], 3)
    for ev in (Correction(undoes=3, reason="wrong pad"), Correction(undoes=3)):
        assert parse_entry(entry_for(ev) or "", tl) == [ev]
    from ginlog.log.events import HandVoid, MatchAbandoned

    for ending in (HandVoid(reason="misdeal"), MatchAbandoned(reason="rain")):
        assert parse_entry(entry_for(ending) or "", tl) == [ending]
    shown = HandShown(
        player="Ann", cards=tuple(sorted(map(parse, "2H 3H 4H 8C 8D 8S 5S 6S 7S AD".split()))),
        melds=(tuple(map(parse, "2H 3H 4H".split())),), layoffs=(parse("5S"),),
    )
    text = entry_for(shown)
    assert text == "show [2H 3H 4H] 6S 7S 8S 8C AD 8D lay 5S"
    dealt = apply(apply(start(started), cut, 2), HandDealt(dealer="Ann", upcard=parse("7H")), 3)  # Bob to play
    (typed,) = parse_entry(text, dealt)
    assert as_typed(typed) == as_typed(attrs.evolve(shown, player="Bob"))


def parse(text: str) -> Any:
    from ginlog.game.cards import parse_card

    return parse_card(text)
