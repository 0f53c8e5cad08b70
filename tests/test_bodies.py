"""The replay's fast path: lines whose body was seen before are not parsed.

A :class:`ginlog.log.known.KnownBodies` given to the reader reads the envelope
of a line as ginlog writes it off the bytes and, when the rest (the ``type``,
``v`` and the fields) is a body it already knows, skips JSON and structuring.
That is only sound if a file reads the same with and without it (``known=None``):
every error in the same place with the same words, the same state, the same
head. These tests hold the two paths equal on valid files and on files with
bytes changed, lines moved, and lines rewritten into every non-canonical
spelling of the same JSON.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginlog.errors import GinlogError
from ginlog.log.events import SCHEMA_VERSION, Event, event_fields, event_type
from ginlog.log.format import ENVELOPE_KEYS, Line, digest, encode
from ginlog.log.known import KnownBodies
from ginlog.log.reader import BLOCK, Run, read_lines, read_runs
from ginlog.match.reading import iter_steps, read_match
from ginlog.game.rules import preset
from ginlog.play.simulate import Mode, simulate_match

from budget import examples

TS = "2026-11-29T19:56:25.123Z"


def encode_all(events: Sequence[Event], ts: Sequence[str] | None = None) -> list[bytes]:
    out, prev = [], None
    for seq, ev in enumerate(events, start=1):
        raw = encode(seq, ts[seq - 1] if ts else TS, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = digest(raw)
        out.append(raw)
    return out


def rechain(raws: Sequence[bytes], start: int = 0) -> list[bytes]:
    """Fix every ``prev`` from line ``start`` on (as a forger would), keeping each line's other bytes."""
    out = list(raws[:start])
    prev = digest(out[-1]) if out else None
    for raw in raws[start:]:
        fixed = re.sub(rb'"prev":(null|"[0-9a-f]{64}")', b'"prev":' + (json.dumps(prev).encode()), raw, count=1)
        out.append(fixed)
        prev = digest(fixed)
    return out


BASES: tuple[tuple[str, Mode, int], ...] = (("standard", "full", 1), ("modern", "table", 2), ("oklahoma", "full", 3))
MATCHES = {
    (name, mode, seed): encode_all(simulate_match(preset(name), seed=seed, mode=mode, max_hands=3))
    for name, mode, seed in BASES
}


def errors_of(errors: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [(type(e).__name__, e.rule, e.line, e.seq, e.message) for e in errors]


def outcome(data: bytes, known: KnownBodies | None, block: int = BLOCK) -> tuple[Any, ...]:
    """Everything a reader learns from ``data``: by :func:`read_match` and step by step."""
    report = read_match(io.BytesIO(data), name="m.jsonl", collect=True, known=known, block=block)
    errors: list[Any] = []
    steps = [
        (s.line, s.seq, s.event, s.digest, s.state)
        for s in iter_steps(io.BytesIO(data), errors=errors, name="m.jsonl", known=known, block=block)
    ]
    return (errors_of(report.errors), report.state, report.lines, report.head, report.timeline, steps, errors_of(errors))


#: Block sizes to read with: the default, and small ones that cut lines (and runs of known lines) anywhere.
BLOCKS = (BLOCK, 61, 200, 777, 4096)


def warmed(raws: Sequence[bytes]) -> KnownBodies:
    """Known bodies primed by reading the lines ``raws``."""
    known = KnownBodies()
    read_match(io.BytesIO(b"".join(r + b"\n" for r in raws)), name="warm.jsonl", collect=True, known=known)
    assert len(known), "priming remembered no bodies"
    return known


def read_both(data: bytes, warm: Sequence[bytes], block: int = BLOCK) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Read ``data`` with the fast path primed by the lines ``warm``, and again with it off.

    The fast read takes ``block`` bytes at a time; the slow one the default.
    """
    fast = outcome(data, warmed(warm), block)
    slow = outcome(data, None)  # every line parsed
    return fast, slow


def _raise(err: GinlogError) -> None:
    raise err


def lines_of(items: Iterable[Line | Run]) -> list[tuple[int, int | None, str, bytes, Event | None]]:
    """The reader's items line by line: (lineno, seq, digest, raw, the event if the line was known, else None)."""
    out: list[tuple[int, int | None, str, bytes, Event | None]] = []
    for item in items:
        if isinstance(item, Run):
            out += [(item.lineno + i, item.seq + i, item.digests[i], item.raws[i], ev) for i, ev in enumerate(item.events)]
        else:
            out.append((item.lineno, item.seq, item.digest, item.raw, None))
    return out


def join(raws: Sequence[bytes]) -> bytes:
    return b"".join(r + b"\n" for r in raws)


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("key", sorted(MATCHES))
def test_a_valid_file_reads_the_same_with_and_without_the_fast_path(key: tuple[str, Mode, int], block: int) -> None:
    raws = MATCHES[key]
    fast, slow = read_both(join(raws), raws, block)
    assert fast == slow
    assert fast[0] == [] and fast[2] == len(raws) and len(fast[5]) == len(raws)


def test_most_lines_of_a_match_take_the_fast_path() -> None:
    raws = MATCHES[("standard", "full", 1)]
    known = warmed(raws)
    known.decode = False  # the bodies remembered alone
    rows = lines_of(read_runs(io.BytesIO(join(raws)), _raise, known=known))
    hits = sum(1 for row in rows if row[4] is not None)
    assert hits >= len(rows) * 0.6, f"{hits} of {len(rows)} lines known"
    # ... and each known line gives the event the slow path builds, with the same seq and digest.
    slow = list(read_lines(io.BytesIO(join(raws))))
    assert [(r[0], r[1], r[2]) for r in rows] == [(s.lineno, s.data["seq"], s.digest) for s in slow]
    steps = list(iter_steps(io.BytesIO(join(raws)), known=None))
    for row, step in zip(rows, steps):
        if row[4] is not None:
            assert row[4] == step.event


def test_lines_written_at_different_times_still_take_the_fast_path() -> None:
    events = simulate_match(preset("standard"), seed=5, mode="full", max_hands=2)
    stamps = [f"2026-11-29T19:{m:02d}:{s:02d}.{ms:03d}Z" for m in range(60) for s in range(60) for ms in (7,)][: len(events)]
    raws = encode_all(events, stamps)
    fast, slow = read_both(join(raws), raws)
    assert fast == slow and fast[0] == []
    known = warmed(raws)
    known.decode = False
    rows = lines_of(read_runs(io.BytesIO(join(raws)), _raise, known=known))
    assert sum(1 for row in rows if row[4] is not None) >= len(rows) // 2


# Every way of writing a known line that is not exactly ginlog's, and some that are not JSON.
def _respell(raw: bytes) -> list[bytes]:
    obj = json.loads(raw)
    env = {k: obj[k] for k in ENVELOPE_KEYS}
    fields = {k: v for k, v in obj.items() if k not in env}
    body = json.dumps(fields, separators=(",", ":"))[1:-1].encode()
    seq = str(env["seq"]).encode()
    prev = json.dumps(env["prev"]).encode()
    mid = b'"type":"%s","v":%d' % (env["type"].encode(), env["v"])
    head = b'{"seq":' + seq + b',"ts":"' + env["ts"].encode() + b'",' + mid + b',"prev":' + prev
    return [
        raw.replace(b'{"seq":', b'{ "seq":', 1),  # white space: same JSON, not ginlog's spelling
        raw.replace(b'{"seq":', b'{"seq":0', 1),  # a leading zero: not JSON
        raw.replace(b'"seq":' + seq, b'"seq":' + seq + b".0", 1),  # a float seq
        raw.replace(b'"seq":' + seq, b'"seq":' + str(int(seq) + 1).encode(), 1),  # the wrong seq
        raw.replace(b'"ts":"' + env["ts"].encode(), b'"ts":"' + env["ts"].replace("-11-", "-13-").encode(), 1),
        raw.replace(b'"ts":"' + env["ts"].encode(), b'"ts":"' + env["ts"].replace(".123Z", "Z").encode(), 1),
        raw.replace(b'"ts":"' + env["ts"].encode(), b'"ts":"' + env["ts"].replace("T19", "T24").encode(), 1),
        raw.replace(prev, prev.upper(), 1),  # upper-case hex: a broken link
        raw.replace(b'"v":%d' % env["v"], b'"v":1', 1),  # an older version: upcast
        raw.replace(b'"v":%d' % env["v"], b'"v":%d.0' % env["v"], 1),
        raw[:-1] + b" }",
        raw[:-1] + b"}}",
        raw[:-1],  # no closing brace
        raw[:-1] + b',"extra":1}',
        raw[:-1] + b',"seq":' + seq + b"}",  # a key twice
        raw[:-1] + b',"ts":"' + env["ts"].encode() + b'"}',
        head + b"," + body + b',"prev":' + prev + b"}",  # prev twice
        b'{"ts":"' + env["ts"].encode() + b'","seq":' + seq + b"," + mid + b',"prev":' + prev + b"," + body + b"}",
        b"{" + body + b"," + head[1:] + b"}",  # the fields first
        raw.replace(b'"type":"', b'"type" :"', 1),
        raw.replace(b'"prev":', b'"prev" :', 1),
        raw.replace(b'"prev":"', b'"prev": "', 1),
        raw.replace(b'","type"', b'" ,"type"', 1),
        raw.replace(b"\\", b"\\\\", 1),
        raw.replace(b'"type":"' + env["type"].encode(), b'"type":"' + env["type"].encode() + b"x", 1),
    ]


@settings(max_examples=examples(60, quick=20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_rewritten_line_reads_the_same_with_and_without_the_fast_path(data: Any) -> None:
    raws = MATCHES[data.draw(st.sampled_from(sorted(MATCHES)), label="match")]
    i = data.draw(st.integers(1, len(raws) - 1), label="line")
    variants = _respell(raws[i])
    new = data.draw(st.sampled_from(variants), label="variant")
    fix = data.draw(st.booleans(), label="re-chain after it")
    edited = list(raws)
    edited[i] = new
    if fix:
        edited = rechain(edited, i)
    fast, slow = read_both(join(edited), raws, data.draw(st.sampled_from(BLOCKS), label="block"))
    assert fast == slow


@settings(max_examples=examples(120, quick=40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bytes_changed_anywhere_read_the_same_with_and_without_the_fast_path(data: Any) -> None:
    raws = MATCHES[data.draw(st.sampled_from(sorted(MATCHES)), label="match")]
    edited = list(raws)
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        kind = data.draw(st.sampled_from(("byte", "drop", "insert", "swap", "repeat", "delete")), label="kind")
        i = data.draw(st.integers(1, len(edited) - 1), label="line")
        raw = edited[i]
        at = data.draw(st.integers(0, len(raw) - 1), label="at")
        char = data.draw(st.sampled_from(b'0123456789abcdef{}[]",: \\xAnZT.-'), label="byte")  # never a newline
        if kind == "byte":
            edited[i] = raw[:at] + bytes([char]) + raw[at + 1 :]
        elif kind == "drop":
            edited[i] = raw[:at] + raw[at + 1 :]
        elif kind == "insert":
            edited[i] = raw[:at] + bytes([char]) + raw[at:]
        elif kind == "swap" and i + 1 < len(edited):
            edited[i], edited[i + 1] = edited[i + 1], edited[i]
        elif kind == "repeat":
            edited.insert(i, raw)
        elif kind == "delete" and len(edited) > 2:
            del edited[i]
    if data.draw(st.booleans(), label="re-chain"):
        edited = rechain(edited, 1)
    fast, slow = read_both(join(edited), raws, data.draw(st.sampled_from(BLOCKS), label="block"))
    assert fast == slow


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("shift", (-1, 1, 40))
def test_a_wrong_seq_is_reported_and_the_lines_after_it_are_read_against_the_new_count(shift: int, block: int) -> None:
    # After line 9 claims another seq, the reader takes the next line on
    # either count, the one line 9 gave or the one before it (one edited seq
    # is one error, not two), and goes on from the seq that line holds: the
    # fast path must read the lines after it as the plain path does.
    raws = MATCHES[("standard", "full", 1)]
    edited = list(raws)
    edited[8] = edited[8].replace(b'{"seq":9,', b'{"seq":%d,' % (9 + shift), 1)
    fast, slow = read_both(join(rechain(edited, 8)), raws, block)
    assert fast == slow
    assert [(rule, line) for _kind, rule, line, _seq, _msg in fast[0]] == [("seq", 9)]


def test_the_deal_and_the_shown_hands_are_read_without_json() -> None:
    # They never repeat, so they are not known bodies; KnownBodies.read_body reads their usual form.
    raws = MATCHES[("standard", "full", 1)]
    known = warmed(raws)
    rows = lines_of(read_runs(io.BytesIO(join(raws)), _raise, known=known))
    unique = [row for row in rows if b'"type":"hand_dealt"' in row[3] or b'"type":"hand_shown"' in row[3]]
    assert len(unique) >= 6 and all(row[4] is not None for row in unique)
    steps = list(iter_steps(io.BytesIO(join(raws)), known=None))
    assert [row[4] for row in unique] == [steps[row[0] - 1].event for row in unique]
    known.decode = False  # ... and without the body readers, they are parsed
    rows = lines_of(read_runs(io.BytesIO(join(raws)), _raise, known=known))
    assert all(row[4] is None for row in rows if b'"type":"hand_dealt"' in row[3] or b'"type":"hand_shown"' in row[3])


def _rewrite_cards(raw: bytes) -> list[bytes]:
    """Ways to spoil a deal or shown hand that its reader without JSON must leave to the JSON path."""
    cards = re.findall(rb'"[A2-9TJQK][SHDC]"', raw)
    first, second = cards[0], cards[1]
    player = re.search(rb'"(?:dealer|player)":"([A-Za-z]+)"', raw)
    assert player is not None
    name = player.group(1)
    out = [
        raw.replace(second, first, 1),  # a card twice
        raw.replace(first, first.lower(), 1),
        raw.replace(first, b'"1S"', 1),
        raw.replace(first, b'"10S"', 1),
        raw.replace(first, first[:-1] + b' "', 1),
        raw.replace(first + b",", first + b",,", 1),
        raw.replace(first, b"null", 1),
        raw.replace(b'"' + name + b'"', b'"' + name + b' Lee"'),  # a name with a space: valid, read by JSON
        raw.replace(b'"' + name + b'"', b'"' + name * 9 + b'"'),  # over 40 characters
        raw.replace(b'"' + name + b'"', b'"\\u0041' + name[1:] + b'"'),  # an escape
        raw[:-1] + b',"melds":null}',
        raw[:-1] + b',"extra":1}',
        raw.replace(b"[", b"[ ", 1),
        raw.replace(b"]", b",]", 1),
    ]
    if b'"hands":{' in raw:
        a, b = re.findall(rb'"hands":\{"([A-Za-z]+)":\[[^]]*\],"([A-Za-z]+)"', raw)[0]
        out += [
            raw.replace(b'"' + b + b'":[', b'"' + a + b'":[', 1),  # a player twice
            re.sub(rb',"' + b + rb'":\[[^]]*\]', b"", raw, count=1),  # one hand only
            re.sub(rb',"stock":\[[^]]*\]', b"", raw, count=1),  # no stock: valid
            re.sub(rb'"stock":\[("[A-Z0-9]{2}",)', b'"stock":[', raw, count=1),  # a card short
        ]
    return out


@pytest.mark.parametrize("kind", ("hand_dealt", "hand_shown"))
def test_a_spoilt_deal_or_shown_hand_reads_the_same_with_and_without_the_fast_path(kind: str) -> None:
    raws = MATCHES[("standard", "full", 1)]
    i = next(i for i, raw in enumerate(raws) if b'"type":"%s"' % kind.encode() in raw)
    for new in _rewrite_cards(raws[i]):
        assert new != raws[i]
        for fix in (False, True):
            edited = list(raws)
            edited[i] = new
            if fix:
                edited = rechain(edited, i)
            fast, slow = read_both(join(edited), raws)
            assert fast == slow, new


@pytest.fixture(scope="module")
def sealed_raws(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """A match of two hands sealed by Ann (Ed25519) and Bob (ECDSA): its lines."""
    from sealing import finished_match, seal

    m = finished_match(tmp_path_factory.mktemp("sealed") / "m.jsonl", seed=3, hands=2)
    seal(m, "ann_ed25519", "Ann")
    seal(m, "bob_ecdsa", "Bob")
    return m.read_bytes().splitlines()


def test_a_seal_is_read_off_its_bytes_alone(sealed_raws: list[bytes]) -> None:
    """A seal as ginlog writes it takes the fast path (not parsed as JSON), as a run of its own line."""
    for block in BLOCKS:
        fast, slow = read_both(join(sealed_raws), sealed_raws, block)
        assert fast == slow and fast[0] == []
    items = list(read_runs(io.BytesIO(join(sealed_raws)), _raise, known=warmed(sealed_raws)))
    seals = [i for i in items if isinstance(i, Run) and event_type(i.events[0]) == "seal"]
    assert [(s.lineno, len(s.events)) for s in seals] == [(len(sealed_raws) - 1, 1), (len(sealed_raws), 1)]


def _respoil_seal(raw: bytes) -> list[bytes]:
    """Ways to spoil a seal line that its reader without JSON must leave to the JSON path (or read the same)."""
    sig = re.search(rb'"signature":"([^"]*)"', raw)
    assert sig is not None
    body = sig.group(1)
    b64 = body.split(b"\\n")[1]
    return [
        raw.replace(b'"player":"Ann"', b'"player":"Ann Lee"'),  # valid JSON, not this match's player
        raw.replace(b'"player":"Ann"', b'"player":"\\u0041nn"'),  # an escape: the same name
        raw.replace(b'"seat":0', b'"seat":2'),
        raw.replace(b'"seat":0', b'"seat":"0"'),
        raw.replace(b'"seat":0', b'"seat":0.0'),
        raw.replace(b'"line":', b'"line":0', 1),
        raw.replace(b'"line":', b'"line":-', 1),
        raw.replace(b'"line":', b'"line":99999999999999', 1),
        raw.replace(b'"fingerprint":"SHA256:', b'"fingerprint":"SHA256:A', 1),
        raw.replace(b'"fingerprint":"SHA256:', b'"fingerprint":"MD5:', 1),
        re.sub(rb'"head":"([0-9a-f])', rb'"head":"F', raw, count=1),
        raw.replace(b'"at":"20', b'"at":"19', 1),
        raw.replace(b'"at":"2026-', b'"at":"2026-13-'[:-1], 1),
        raw.replace(b"T", b"t", 1),
        raw.replace(b"SIGNATURE-----\\n", b"SIGNATURE-----\\r\\n", 1),
        raw.replace(b"SIGNATURE-----\\n", b"SIGNATURE-----\\u000a", 1),  # the same newline, another escape
        raw.replace(b"/", b"\\/", 1),  # the same slash, escaped
        raw.replace(b64, b64[:20] + (b"A" if b64[20:21] != b"A" else b"B") + b64[21:], 1),  # forged: still base64
        raw.replace(b64, b64[:-8], 1),  # cut short
        raw.replace(b64, b64[:10] + b"!" + b64[11:], 1),  # not base64
        raw.replace(b"-----END", b"----END", 1),
        raw.replace(b'","signature"', b'","extra":1,"signature"', 1),
        raw[:-1] + b',"seat":1}',  # a key twice
        raw.replace(b'"seat":0,"fingerprint"', b'"fingerprint"', 1).replace(b'"line":', b'"seat":0,"line":', 1),  # order
        raw.replace(b'","type":"seal","v":2', b'","type":"seal","v":1', 1),
        raw.replace(body, body.replace(b"\\n", b"\\n" * 2), 1),
    ]


def test_a_spoilt_seal_reads_the_same_with_and_without_the_fast_path(sealed_raws: list[bytes]) -> None:
    i = len(sealed_raws) - 2  # Ann's seal (Bob's follows it)
    for new in _respoil_seal(sealed_raws[i]):
        assert new != sealed_raws[i], new
        for fix in (False, True):
            edited = list(sealed_raws)
            edited[i] = new
            if fix:
                edited = rechain(edited, i)
            fast, slow = read_both(join(edited), sealed_raws)
            assert fast == slow, new
