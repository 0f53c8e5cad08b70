"""The fast path on imported files: shown hands with declared melds and lay-offs, rules and players remembered.

An OpenSpiel import declares every shown hand's melds (and the defender's
lay-offs), and every file of an import plays the same rules with the same two
players. :meth:`ginlog.log.known.KnownBodies.read_body` reads such a shown
hand off its bytes, :func:`ginlog.game.rules.rules_from_dict` and
:func:`ginlog.text.check_kept_players` remember what they found valid. Each
must give exactly what the plain path gives: the same events, the same errors
in the same words.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from ginlog.app.importers.openspiel import parse_record, record_events
from ginlog.errors import GinlogError
from ginlog.game.rules import Rules, preset, rules_from_dict, rules_to_dict
from ginlog.log.events import SCHEMA_VERSION, Event, event_fields, event_from_line, event_type
from ginlog.log.format import digest, encode, parse_line
from ginlog.log.known import KnownBodies
from ginlog.match.reading import read_match
from ginlog.text import check_kept_players

RECORDS = Path(__file__).resolve().parent / "data" / "openspiel" / "records"
TS = "2026-12-01T12:00:00.000Z"


def imported(name: str) -> list[bytes]:
    """The lines ``ginlog import openspiel`` writes for one fixture (one ``ts`` for all)."""
    events: list[Event] = record_events(*parse_record((RECORDS / name).read_text(), name))
    out, prev = [], None
    for seq, ev in enumerate(events, start=1):
        raw = encode(seq, TS, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = digest(raw)
        out.append(raw)
    return out


def rechain(raws: list[bytes]) -> list[bytes]:
    out, prev = [], None
    for raw in raws:
        fixed = re.sub(rb'"prev":(null|"[0-9a-f]{64}")', b'"prev":null' if prev is None else b'"prev":"%s"' % prev.encode(), raw, count=1)
        out.append(fixed)
        prev = digest(fixed)
    return out


def outcome(raws: list[bytes], known: KnownBodies | None) -> tuple[object, ...]:
    report = read_match(io.BytesIO(b"".join(r + b"\n" for r in raws)), name="m.jsonl", collect=True, known=known)
    return (
        [e.one_line() for e in report.errors],
        report.errors_total,
        report.head,
        None if report.state is None else (report.state.phase, report.state.totals(), len(report.state.hands)),
    )


NAMES = sorted(p.name for p in RECORDS.glob("*.txt"))[::20]


@pytest.mark.parametrize("name", NAMES)
def test_an_imported_file_reads_the_same_with_and_without_the_fast_path(name: str) -> None:
    raws = imported(name)
    assert outcome(raws, KnownBodies()) == outcome(raws, None)
    assert outcome(raws, None)[0] == []


def test_shown_hands_with_melds_and_layoffs_are_read_without_json() -> None:
    shown = [raw for name in NAMES for raw in imported(name) if b'"type":"hand_shown"' in raw]
    assert any(b'"layoffs"' in raw for raw in shown) and any(b'"melds"' in raw for raw in shown)
    known = KnownBodies()
    for raw in shown:
        key = (raw[raw.index(b'","type"') : raw.index(b',"prev"')], raw[raw.index(b'"player"') :])
        assert known.read_body(key) is not None, raw


def _spoilt(raw: bytes) -> list[bytes]:
    """Ways to spoil a shown hand's melds or lay-offs that the reader without JSON must leave to JSON."""
    melds = raw.index(b'"melds":')
    cards = re.findall(rb'"[A2-9TJQK][SHDC]"', raw[melds:])
    first, second = cards[0], cards[1]
    head, tail = raw[:melds], raw[melds:]
    out = [
        head + tail.replace(second, first, 1),  # a card twice in a meld
        head + tail.replace(first, first.lower(), 1),
        head + tail.replace(first, b"null", 1),
        head + tail.replace(b"[[", b"[[],[", 1),  # an empty meld
        head + tail.replace(b"]]", b"],]]", 1),
        head + tail.replace(b'"melds":[', b'"melds":[ ', 1),
        head + tail.replace(b'"melds":', b'"melds":null,"x":', 1),
        raw[:-1] + b',"melds":[]}',  # a key twice
        raw[:-1] + b',"extra":1}',
        head + b'"melds":[]}',  # valid: nothing melded
        head + b'"melds":[],"layoffs":[]}',  # valid too
    ]
    lay = raw.find(b'"layoffs":')
    laid = re.findall(rb'"[A2-9TJQK][SHDC]"', raw[lay:]) if lay >= 0 else []
    if laid:
        out += [
            raw[:lay] + raw[lay:].replace(laid[0], b'"XX"', 1),
            raw[:lay] + b'"layoffs":[' + laid[0] + b"," + laid[0] + b"]}",  # a card laid off twice
            raw[:lay] + b'"layoffs":' + laid[0] + b"}",  # not a list
        ]
    return out


def test_a_spoilt_shown_hand_reads_the_same_with_and_without_the_fast_path() -> None:
    tried = 0
    for name in NAMES[:6]:
        raws = imported(name)
        for i, raw in enumerate(raws):
            if b'"type":"hand_shown"' not in raw or b'"melds":' not in raw:
                continue
            for new in _spoilt(raw):
                for fix in (False, True):
                    edited = list(raws)
                    edited[i] = new
                    if fix:
                        edited = rechain(edited)
                    assert outcome(edited, KnownBodies()) == outcome(edited, None), new
                    tried += 1
    assert tried > 50


def test_rules_read_twice_are_the_same_rules_and_bad_ones_always_fail() -> None:
    for name in ("openspiel", "oklahoma", "standard", "modern"):
        data = rules_to_dict(preset(name))
        assert rules_from_dict(data) == rules_from_dict(dict(data)) == preset(name)
    data = rules_to_dict(preset("openspiel"))
    assert rules_from_dict(data) == preset("openspiel")  # remembered now; a value of another type is not the same key
    for key, value in (("knock_limit", True), ("knock_limit", 10.0), ("knock_limit", "10"), ("wall_knock", 1)):
        bad = dict(data, **{key: value})
        for _ in range(2):
            with pytest.raises(GinlogError) as exc:
                rules_from_dict(bad)
            assert exc.value.rule == "rules"
    ok = dict(data, oklahoma={"spades_double": True, "ace": "gin"})
    assert isinstance(rules_from_dict(ok), Rules) and rules_from_dict(ok) == rules_from_dict(dict(ok))
    for _ in range(2):
        with pytest.raises(GinlogError):
            rules_from_dict(dict(data, oklahoma={"spades_double": 1, "ace": "gin"}))


def test_players_found_kept_once_are_still_checked_when_they_are_not() -> None:
    for _ in range(2):
        check_kept_players(("P0", "P1"))
        with pytest.raises(GinlogError) as exc:
            check_kept_players(("Ann", "ann"))
        assert exc.value.rule == "name-clash"
        with pytest.raises(GinlogError):
            check_kept_players(("Ann ", "Bob"))


def test_melds_remembered_are_the_melds_and_a_bad_one_is_refused_each_time() -> None:
    from ginlog.errors import MeldError
    from ginlog.game.cards import parse_cards
    from ginlog.game.melds import Meld
    from ginlog.play.endings import _meld

    for text in ("7H 8H 9H", "9H 7H 8H", "QS QC QD QH", "AS 2S 3S 4S 5S"):
        cards = tuple(parse_cards(text))
        assert _meld(cards) == _meld(cards) == Meld.of(cards)
    for text in ("7H 8H TH", "QS QC", "KH AH 2H"):
        cards = tuple(parse_cards(text))
        for _ in range(2):
            with pytest.raises(MeldError):
                _meld(cards)


def _key(raw: bytes) -> tuple[bytes, bytes]:
    """A first line's body key (as :meth:`KnownBodies.check` cuts it: ``prev`` is null)."""
    return raw[raw.index(b'","type"') : raw.index(b',"prev"')], raw[raw.index(b',"prev":null,') + 13 :]


def test_the_first_line_is_read_without_json() -> None:
    for name in NAMES:
        first = imported(name)[0]
        event = KnownBodies.read_body(_key(first))
        assert event is not None and event == event_from_line(parse_line(first)), first


def _spoilt_first(raw: bytes) -> list[bytes]:
    """Ways to change a first line that the reader without JSON must leave to JSON (or read exactly as JSON does)."""
    rules = raw.index(b'"rules":{') + 8
    return [
        raw.replace(b'"title":"', b'"title":"\\u00e9 ', 1),  # an escape
        raw.replace(b'"title":"', b'"title":"\xc3\xa9 ', 1),  # not ASCII
        raw.replace(b'"title":"', b'"title":"\\" ', 1),
        raw.replace(b',"title":"', b',"title":null,"x":"', 1),
        re.sub(rb',"title":"[^"]*"', b"", raw),  # no title: valid
        re.sub(rb',"title":"[^"]*"', b',"title":null', raw),  # valid too
        re.sub(rb',"title":"[^"]*"', b',"title":"' + b"x" * 5000 + b'"', raw),  # too long
        re.sub(rb',"tool":"[^"]*"', b"", raw),  # no tool: valid, the default
        raw.replace(b'"tool":"ginlog', b'"tool":"ginlog 99.0 was', 1),
        raw.replace(b'"players":["P0","P1"]', b'"players":["P0","P0"]', 1),  # a name twice
        raw.replace(b'"players":["P0","P1"]', b'"players":["P0","p0"]', 1),  # names that clash
        raw.replace(b'"players":["P0","P1"]', b'"players":["P0"]', 1),
        raw.replace(b'"players":["P0","P1"]', b'"players":["P 0","P1"]', 1),
        raw[:rules] + b'{"knock_limit":10,' + raw[rules + 1 :],  # a knob twice
        raw.replace(b'"knock_limit":10', b'"knock_limit":9', 1),  # valid: other rules
        raw.replace(b'"knock_limit":10', b'"knock_limit":true', 1),
        raw.replace(b'"knock_limit":10', b'"knock_limit":1e400', 1),
        raw.replace(b'"knock_limit":10', b'"knock_limit":"\\ud800"', 1),
        raw.replace(b'"knock_limit":10', b'"no_such_knob":10', 1),
        raw.replace(b'"oklahoma":null', b'"oklahoma":{"ace":"gin","spades_double":false}', 1),  # valid
        raw.replace(b'"oklahoma":null', b'"oklahoma":{"ace":"}","spades_double":false}', 1),
        raw.replace(b'"oklahoma":null', b'"oklahoma":{"ace":"gin","spades_double":[]}', 1),
        raw[:rules] + b"{}," + raw[raw.index(b',"tool"') + 1 :],  # every knob its default
        raw[:-1] + b',"x":1}',
        raw[:-1] + b',"title":"again"}',
        # the match id (an import's, derived from its record): spoilt, moved, twice, absent
        re.sub(rb'"match_id":"[0-9a-f]{32}"', b'"match_id":"' + b"A" * 32 + b'"', raw),
        re.sub(rb'"match_id":"[0-9a-f]{32}"', b'"match_id":"' + b"a" * 31 + b'"', raw),
        re.sub(rb'"match_id":"[0-9a-f]{32}"', b'"match_id":null', raw),
        re.sub(rb',"match_id":"[0-9a-f]{32}"', b"", raw),  # no id: valid, an older file
        raw[:-1] + b',"match_id":"' + b"b" * 32 + b'"}',
        re.sub(rb'(,"title":"[^"]*")(,"match_id":"[0-9a-f]{32}")', rb"\2\1", raw),  # the id before the title: valid
    ]


def test_a_spoilt_first_line_reads_the_same_with_and_without_the_fast_path() -> None:
    tried = 0
    for name in (NAMES[0], next(n for n in NAMES if n.startswith("oklahoma"))):
        raws = imported(name)
        for new in _spoilt_first(raws[0]):
            for fix in (False, True):
                edited = [new, *raws[1:]]
                if fix:
                    edited = rechain(edited)
                assert outcome(edited, KnownBodies()) == outcome(edited, None), new
                tried += 1
    assert tried >= 52


def test_a_first_line_too_long_is_refused_with_or_without_the_fast_path() -> None:
    """JSON white space inside the rules is still the same rules: a first line padded past the line limit must
    be refused as the plain path refuses it (``line-too-long``), not read off its bytes."""
    raws = imported(NAMES[0])
    rules = raws[0].index(b'"rules":{') + 9
    long = raws[0][:rules] + b" " * 70_000 + raws[0][rules:]
    for edited in ([long, *raws[1:]], rechain([long, *raws[1:]])):
        fast, plain = outcome(edited, KnownBodies()), outcome(edited, None)
        errors = plain[0]
        assert fast == plain and isinstance(errors, list) and any("[line-too-long]" in e for e in errors), plain


def test_a_bad_time_is_refused_though_short_lines_beside_it_join_into_good_times() -> None:
    """The block's distinct times are checked at once, joined: a time that is not one (here a good time's two
    halves swapped) must not pass because the cut-short times of two malformed lines beside it, joined before and
    after it, make the whole read as good times. The order the distinct times are joined in is a set's (it moves
    with the hash seed), so many splits are tried, each file in several orders of its lines."""
    first = imported(NAMES[0])[0]
    start = b'{"seq":1,"ts":"'
    assert first.startswith(start + TS.encode())
    for good in (TS, "2026-03-06T19:00:00.000Z", "1999-12-31T23:59:59.999Z", "2030-07-04T08:15:42.500Z"):
        for a in range(1, 24):
            swapped = (good[a:] + good[:a]).encode()  # 24 bytes, not a time
            line = start + swapped + first[len(start) + 24:]
            x = b'{"seq":2,"ts":"' + good[:a].encode()  # malformed lines whose times are cut short
            y = b'{"seq":3,"ts":"' + good[a:].encode()
            for raws in ([line, x, y], [line, y, x]):
                plain = outcome(raws, None)
                errors = plain[0]
                assert isinstance(errors, list) and any("timestamp" in e for e in errors), plain
                assert outcome(raws, KnownBodies()) == plain, (good, a)
