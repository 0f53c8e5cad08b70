"""Events and their JSON form: strict structuring, errors with the line, and the upcaster."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import attrs
import pytest

from ginlog.game.cards import parse_card
from ginlog.errors import EventError, GinlogError
from ginlog.log.events import (
    EVENT_TYPES,
    SCHEMA_VERSION,
    CardDrawn,
    HandResultOnly,
    Note,
    MatchStarted,
    event_fields,
    event_from_fields,
    event_from_line,
    upcast,
)
from ginlog.match.reading import read_match
from ginlog.game.rules import preset, rules_to_dict

TS = "2026-11-29T19:56:25.123Z"


def chain(lines: list[str]) -> bytes:
    """Hand-written lines (without seq/prev) chained the way a match file is."""
    out: list[bytes] = []
    prev = None
    for seq, text in enumerate(lines, start=1):
        body = json.loads(text)
        head = {"seq": seq, "ts": TS, "type": body.pop("type"), "v": body.pop("v"), "prev": prev}
        raw = json.dumps(head | body, separators=(",", ":"), ensure_ascii=False).encode()
        prev = hashlib.sha256(raw).hexdigest()
        out.append(raw)
    return b"\n".join(out) + b"\n"


# A match written by the draft format (schema version 1), by hand: the rules as a
# preset name plus overrides, and "from": "discard" for a draw from the pile.
V1_LINES = [
    '{"type":"match_started","v":1,"players":["Ann","Bob"],"preset":"modern","overrides":{"knock_limit":9},"tool":"ginlog 0.0"}',
    '{"type":"first_dealer","v":1,"dealer":"Ann","how":"agreed"}',
    '{"type":"hand_dealt","v":1,"dealer":"Ann","upcard":"7H"}',
    '{"type":"card_drawn","v":1,"player":"Bob","from":"discard","card":"7H"}',
    '{"type":"card_discarded","v":1,"player":"Bob","card":"KS"}',
    '{"type":"card_drawn","v":1,"player":"Ann","from":"stock"}',
]


def test_an_older_file_is_read_through_the_upcaster(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(chain(V1_LINES))
    report = read_match(path, collect=True)
    assert report.ok, [e.one_line() for e in report.errors]
    state = report.state
    assert state is not None
    modern = rules_to_dict(preset("modern"))
    assert rules_to_dict(state.rules) == modern | {"knock_limit": 9}
    hand = state.hand
    assert hand is not None
    # Bob took the upcard from the pile (v1 "discard"), threw KS, Ann drew from the stock.
    assert hand.pile == (parse_card("KS"),)
    assert hand.seen[state.seat("Bob")] == parse_card("7H").bit
    assert (state.name(hand.turn), hand.phase, hand.stock) == ("Ann", "discard", 30)


def test_upcasting_gives_the_current_events() -> None:
    fields = upcast("card_drawn", 1, {"player": "Ann", "from": "discard", "card": "7H"})
    assert event_from_fields("card_drawn", fields) == CardDrawn(player="Ann", source="pile", card=parse_card("7H"))
    with pytest.raises(EventError) as info:
        upcast("note", SCHEMA_VERSION + 1, {"text": "from the future"})
    assert info.value.rule == "newer-version"  # docs/VERSIONING.md: a newer ginlog wrote it
    with pytest.raises(EventError) as info:
        upcast("note", 0, {"text": "from before the first"})
    assert info.value.rule == "version"


@pytest.mark.parametrize("type_", sorted(EVENT_TYPES))
def test_every_event_type_is_refused_with_an_unknown_field(type_: str) -> None:
    with pytest.raises(EventError) as info:
        event_from_fields(type_, {"surprise": 1})
    assert info.value.rule == "event" and type_ in info.value.message


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"player": "Ann", "card": "10h"}, "expected a card"),
        ({"player": "Ann", "card": 7}, "expected a card"),
        ({"player": 3, "card": "7H"}, "expected text"),
        ({"player": "Ann"}, "missing field 'card'"),
        ({"player": "Ann", "card": "7H", "x": None}, "unknown field"),
        ({"player": " Ann", "card": "7H"}, "name"),
    ],
)
def test_wrong_shapes_say_which_field(fields: dict[str, object], words: str) -> None:
    with pytest.raises(EventError) as info:
        event_from_fields("card_discarded", fields)
    assert words in info.value.message


def test_strict_numbers_and_booleans() -> None:
    base = {"how": "knock", "out": "Ann", "knocker_deadwood": 5, "defender_deadwood": 20}
    ev = event_from_fields("hand_result", base)
    assert isinstance(ev, HandResultOnly) and ev.knocker_deadwood == 5
    for bad in ("5", 5.0, True):
        with pytest.raises(EventError):
            event_from_fields("hand_result", base | {"knocker_deadwood": bad})


def test_round_trip_of_a_match_started() -> None:
    ev = MatchStarted(players=("Ann", "Bob"), rules=preset("oklahoma"), title="Friday")
    assert event_from_fields("match_started", json.loads(json.dumps(event_fields(ev)))) == ev


def test_bad_lines_name_their_line(tmp_path: Path) -> None:
    lines = chain(V1_LINES[:3]).decode().splitlines()
    data = json.loads(lines[2])
    data["type"] = "hand_delt"
    lines[2] = json.dumps(data, separators=(",", ":"))
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(lines) + "\n")
    report = read_match(path, collect=True)
    rules = {(e.rule, e.line) for e in report.errors}
    assert ("unknown-event", 3) in rules  # the type is unknown ...
    with pytest.raises(GinlogError) as info:
        read_match(path)
    assert info.value.line == 3 and info.value.one_line().startswith(f"{path}:3: event 3:")


def test_envelope_checks() -> None:
    good = {"seq": 2, "ts": TS, "type": "note", "v": SCHEMA_VERSION, "prev": "ab" * 32, "text": "hi"}
    ev = event_from_line(good)
    assert isinstance(ev, Note) and ev.text == "hi"
    for key, bad in (("ts", "2026-13-01T00:00:00Z"), ("ts", "yesterday"), ("v", "2"), ("type", None)):
        with pytest.raises(EventError):
            event_from_line(good | {key: bad})


def test_a_line_in_another_key_order_never_lends_its_event_to_a_later_line() -> None:
    """Regression: the memo once stored a line whose first five keys were not the envelope.

    Both lines put two fields before the envelope, so the items after the first
    five are ``type`` and ``prev``; the second line must still be read as Bob's.
    """
    def line(player: str) -> dict[str, object]:
        return {"seq": 2, "v": 2, "player": player, "source": "stock", "ts": TS, "type": "card_drawn", "prev": "ab" * 32}

    assert event_from_line(line("Ann")) == CardDrawn(player="Ann", source="stock")
    assert event_from_line(line("Bob")) == CardDrawn(player="Bob", source="stock")


def test_the_first_line_a_process_reads_has_its_ts_checked() -> None:
    """Regression: the remembered last ts started as None, so a first line without ts passed."""
    import subprocess
    import sys

    code = (
        "from ginlog.log.events import event_from_line\n"
        "from ginlog.errors import EventError\n"
        "try:\n"
        "    event_from_line({'seq': 1, 'type': 'upcard_passed', 'v': 2, 'prev': None, 'player': 'Ann'})\n"
        "except EventError as exc:\n"
        "    print(exc.rule, exc.message)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("timestamp ts must be a UTC time")


@pytest.mark.parametrize("name", ["\rev", "a\nb", "x\u2028y", "tab\there", "z" * 200])
def test_an_unknown_field_named_with_a_control_character_still_gives_one_line(name: str) -> None:
    """Regression (found by the long fuzz campaign): one flipped byte turned ``"prev"`` into
    ``"\\rev"``, a valid JSON escape, and the message naming the unknown field held a carriage return."""
    line = {"seq": 2, "ts": TS, "type": "card_drawn", "v": 2, "prev": "ab" * 32,
            "player": "Ann", "source": "stock", name: "x"}
    with pytest.raises(EventError) as info:
        event_from_line(line)
    text = info.value.one_line()
    assert text.isprintable() and "unknown field" in text
    assert len(text) < 200
    shown = name if name.isprintable() else repr(name)
    assert shown[:30] in text
