"""benchmarks/bench_keystrokes.py runs, and its walkthrough figures are the ones the report quotes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import ModuleType

import pytest

from benchmarking import loaded


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    yield from loaded("bench_keystrokes")


def test_the_walkthrough_hand_before_and_after(bench: ModuleType) -> None:
    from ginlog.game.rules import preset
    from ginlog.log.events import MatchStarted
    from ginlog.play.reducer import start

    from test_cli import HAND  # the README's hand, as the CLI tests type it

    assert bench.WALKTHROUGH == HAND  # one hand, counted where it is typed
    row, end = bench.measure("w", start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))), bench.WALKTHROUGH)
    assert end.state.totals() == (0, 61)
    assert list(row.after[:5]) == ["dealer a", "7h", "p", "p", "s k qc"]  # the upcard alone
    assert row.after[5:] == ("234h8ca8d5678s", "568qh49jc9tkd")  # each hand shown as cards alone, a suit at a time
    assert (bench.keystrokes(row.before), bench.keystrokes(row.after), len(row.after)) == (116, 52, 7)
    # With Tab: 'd' Tab for dealer (2 of 6 keys: no other word begins with d before the first deal), and the
    # Enter that accepts each of the two hands ginlog arranges.
    assert row.tab == 52 - 4 + 2


def test_tab_counts_only_a_single_choice_that_gives_the_same_events(bench: ModuleType) -> None:
    from ginlog.game.rules import preset
    from ginlog.log.events import MatchStarted
    from ginlog.play.reducer import start

    tl = start(MatchStarted(players=("Ann", "Abe"), rules=preset("standard")))
    # 'a' begins both names: no single choice, so the name is typed as far as it is unique.
    assert bench.tab_keystrokes("dealer ann", tl) == 2 + 3 + 1 + 1
    assert bench.tab_keystrokes("dealer abe", tl) == 2 + 3 + 1 + 1
    assert bench.tab_keystrokes("dealer an", tl) == 2 + 2 + 1 + 1


def test_bench_keystrokes_runs(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--hands", "2", "--seed", "3", "--show"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"README walkthrough hand +8 +8 +7 +116 +52 +52 +0\.45x +50 +0\.43x", text), text
    assert re.search(r"median keystrokes per played-out hand: before \S+, after \S+ \(without 234h: \S+\), at a"
                     r" terminal with Tab and Accept \S+", text), text
    assert "simulated match, 2 hands" in text and "verified: each row's three lists give the same events" in text
    assert re.search(r"after: +[0-9atjqk]{1,2}[scdh] \| ", text), text  # the upcard alone
