"""``benchmarks/bench_serve.py``: the taps it counts are the page's, and (behind ``--run-slow``) the bounded load test:
25 matches with two phones each, following the event stream and tapping every 2 seconds, gives no 5xx and no lost
or doubled line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from ginlog.game.rules import preset
from ginlog.log.events import MatchStarted
from ginlog.play.reducer import start

from benchmarking import loaded
from ginlog.app.serve.hub import Hub

from serving import HAND_TAPS, new_match


@pytest.fixture(scope="module")
def bench_serve() -> Iterator[ModuleType]:
    yield from loaded("bench_serve")


def test_the_walkthrough_hand_is_36_taps_and_its_taps_are_the_pages(bench_serve: ModuleType, tmp_path: Path) -> None:
    fresh = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    events, _ = bench_serve.bench_keystrokes.typed(fresh, bench_serve.bench_keystrokes.WALKTHROUGH)
    assert bench_serve.taps(fresh, events) == 36  # against 96 keystrokes at the quickest (bench_keystrokes)
    assert bench_serve.HAND == HAND_TAPS[1:]  # the bench taps what the page's tests tap
    ticks = iter(range(10**6))  # a second between taps: the entries-a-second bound is not what is tested here
    hub = Hub(0, str(new_match(tmp_path / "m.jsonl")), clock=lambda: float(next(ticks)))
    for n in range(len(bench_serve.MATCH) + 1):  # three hands, then a note after the end
        code, answer = hub.tap({"id": f"tap-plan-{n:04d}", "expect": hub.session.seq, **bench_serve.plan(0, n)})
        assert code == 200, (n, answer)
    assert hub.session.state.phase == "over" and hub.state_json()["totals"] == {"Ann": 61, "Bob": 122}  # (game bonus 0 under standard)


@pytest.mark.slow
def test_the_load_gives_no_5xx_and_no_lost_or_doubled_line(bench_serve: ModuleType, tmp_path: Path) -> None:
    figures, text = bench_serve.load(matches=25, seconds=20, every=2.0, folder=str(tmp_path))
    assert figures["five_xx"] == 0 and figures["problems"] == [], text
    assert figures["acked"] >= 25 * 8, text  # every match past its first hand
