"""The reading driver's ``raw`` hook: a visitor with ``raw_lines`` gets each line's bytes before its event; others never."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from ginlog.game.rules import preset
from ginlog.log.events import Event
from ginlog.log.known import KnownBodies
from ginlog.match.reading import FinalState, Visitor, read
from ginlog.play.simulate import simulate_match

from data_matches import EPOCH, encode_match


class Seen(Visitor[None, list[tuple[str, int, Any]]]):
    raw_lines = True

    def __init__(self) -> None:
        super().__init__([])
        self.log: list[tuple[str, int, Any]] = []

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.log.append(("raw", lineno, list(raws)))

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        self.log.append(("event", lineno, 1))

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[None]:
        self.log.append(("run", lineno, len(events)))
        return ()

    def end(self) -> list[tuple[str, int, Any]]:
        return self.log


@pytest.mark.parametrize("fast", [True, False])
def test_every_line_comes_raw_first(fast: bool) -> None:
    data = encode_match(simulate_match(preset("standard"), seed=2, max_hands=3), EPOCH)
    lines = data.split(b"\n")[:-1]
    known = KnownBodies() if fast else None
    if fast:
        read(io.BytesIO(data), FinalState([]), known=known)  # the second reading finds every body known
    log = read(io.BytesIO(data), Seen(), known=known, block=4096)
    covered: list[int] = []
    for (kind, lineno, raws), (next_kind, next_line, n) in zip(log[::2], log[1::2]):
        assert kind == "raw" and next_kind in ("run", "event") and next_line == lineno and len(raws) == n
        assert raws == lines[lineno - 1 : lineno - 1 + n]
        covered += range(lineno, lineno + n)
    assert covered == list(range(1, len(lines) + 1))
    assert any(k == "run" for k, _l, _n in log) == fast


def test_a_visitor_without_raw_lines_is_never_given_bytes() -> None:
    data = encode_match(simulate_match(preset("standard"), seed=2, max_hands=1), EPOCH)

    class NoRaw(Seen):
        raw_lines = False

    log = read(io.BytesIO(data), NoRaw())
    assert log and all(kind != "raw" for kind, _l, _n in log)
