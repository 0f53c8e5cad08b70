"""Tests for ginlog.log.format: the bytes of one line, written and parsed."""

from __future__ import annotations

import hashlib
import re

import pytest
from typing import Any

from ginlog.errors import MalformedLine, StoreError
from ginlog.log.format import MAX_LINE_BYTES, digest, encode, now_ts, parse_line

TS = "2026-11-29T19:56:25.123Z"


def test_encode_is_compact_ordered_utf8() -> None:
    raw = encode(1, TS, "start", 2, None, {"name": "Zoë", "n": [1, 2]})
    assert raw == (
        '{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"start","v":2,"prev":null,'
        '"name":"Zoë","n":[1,2]}'
    ).encode("utf-8")
    assert digest(raw) == hashlib.sha256(raw).hexdigest()


def test_now_ts_format() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", now_ts())


@pytest.mark.parametrize(
    "fields",
    [{"seq": 5}, {"prev": None}, {"x": float("nan")}, {"x": {1, 2}}, {"x": "\ud800"}, {"x": "a" * MAX_LINE_BYTES}],
)
def test_encode_refuses_what_could_not_be_read_back(fields: dict[str, Any]) -> None:
    with pytest.raises(StoreError):
        encode(1, TS, "t", 1, None, fields)


def test_encode_refuses_bad_envelope() -> None:
    for args in [(0, TS, "t", 1, None), (1, "yesterday", "t", 1, None), (1, TS, "", 1, None),
                 (1, TS, "t", True, None), (2, TS, "t", 1, "not-a-digest")]:
        with pytest.raises(StoreError) as info:
            encode(*args, {})
        assert info.value.rule == "envelope"



@pytest.mark.parametrize(
    ("raw", "rule"),
    [(b'{"seq":1,"seq":2}', "duplicate-key"), (b"[]", "not-object"), (b"  ", "blank-line"), (b'{"x":NaN}', "non-finite")],
)
def test_parse_line_refuses_with_the_rule(raw: bytes, rule: str) -> None:
    with pytest.raises(MalformedLine) as info:
        parse_line(raw)
    assert info.value.rule == rule and info.value.line is None  # the reader adds the place
