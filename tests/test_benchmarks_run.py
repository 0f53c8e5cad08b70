"""The benchmark scripts run end to end at a tiny size (no timing assertions)."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from benchmarking import loaded
from ginlog.game.melds import min_deadwood


@pytest.fixture(scope="module")
def bench_melds() -> Iterator[ModuleType]:
    yield from loaded("bench_melds")


NUMBER = r"\d+\.\d\d"
CALLS = ("deadwood_of_mask", "min_deadwood", "best_arrangement")
TINY = ["--n", "50", "--seed", "3", "--repeat", "2"]


def _common(text: str) -> None:
    """What every run prints: the sizes, ginlog's rows, RLCard's figures labelled as quoted, the target."""
    assert "50 hands per set, seed 3, 2 calls per hand" in text
    assert "quoted, not measured: RLCard (pure Python) 11 / 40 µs" in text
    target = rf"target: median ≤ 5 µs on meld-rich hands \(deadwood_of_mask\): {NUMBER} µs, (MET|MISSED)"
    assert re.search(target, text), text


def test_bench_melds_runs_without_openspiel(bench_melds: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_melds.main([*TINY, "--no-openspiel"]) == 0
    text = capsys.readouterr().out
    _common(text)
    assert "OpenSpiel: not measured (--no-openspiel); ginlog's figures only" in text
    for hands in ("random", "meld-rich"):
        for call in CALLS:
            row = rf"^{hands}\s+ginlog {call}\s+{NUMBER}\s+{NUMBER}$"
            assert re.search(row, text, re.MULTILINE), f"no row matching {row!r} in:\n{text}"
    assert "OpenSpiel min_deadwood" not in text and "÷" not in text  # no ratio without a measurement

    # The hand sets are what they say: ten distinct cards; every meld-rich hand holds a meld.
    rng = random.Random(7)
    rich = [bench_melds.meld_rich_hand(rng) for _ in range(100)]
    plain = [bench_melds.random_hand(rng) for _ in range(100)]
    assert all(len(h) == 10 and len(set(h)) == 10 for h in rich + plain)
    assert all(min_deadwood(h) < sum(c.value for c in h) for h in rich)


def test_bench_melds_says_when_pyspiel_is_missing(
    bench_melds: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    assert bench_melds.main(TINY) == 0
    text = capsys.readouterr().out
    _common(text)
    assert "OpenSpiel: not measured (pyspiel is not installed: pip install open_spiel); ginlog's figures only" in text
    assert "OpenSpiel min_deadwood" not in text


def test_bench_melds_against_openspiel(bench_melds: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    assert bench_melds.main(TINY) == 0
    text = capsys.readouterr().out
    _common(text)
    assert re.search(r"^OpenSpiel \S+ \(C\+\+ through pybind11\) timed on the same hands in this run$", text, re.M)
    for hands in ("random", "meld-rich"):
        for call in CALLS:
            other = "best_meld_group" if call == "best_arrangement" else "min_deadwood"
            row = rf"^{hands}\s+ginlog {call}\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}\s+{other}$"
            assert re.search(row, text, re.MULTILINE), f"no row matching {row!r} in:\n{text}"
        for call in ("min_deadwood", "best_meld_group"):
            row = rf"^{hands}\s+OpenSpiel {call}\s+{NUMBER}\s+{NUMBER}$"
            assert re.search(row, text, re.MULTILINE), f"no row matching {row!r} in:\n{text}"


class _Off:
    """OpenSpiel's utilities with one call made to give another deadwood."""

    def __init__(self, utils: Any, name: str) -> None:
        self._utils, self._name = utils, name

    def __getattr__(self, attr: str) -> Any:
        real = getattr(self._utils, attr)
        if attr != self._name:
            return real
        if attr == "min_deadwood":
            return lambda cards: real(cards) + 1
        return lambda cards: real(cards)[1:]  # best_meld_group: one meld fewer


@pytest.mark.parametrize("call", ["min_deadwood", "best_meld_group"])
def test_bench_melds_refuses_to_compare_unlike_results(bench_melds: ModuleType, call: str) -> None:
    """A benchmark that compares must prove it compared like with like: any disagreement stops it."""
    pyspiel = pytest.importorskip("pyspiel")
    openspiel = bench_melds.OpenSpiel(pyspiel)
    bench_melds.run(20, 3, 1, openspiel)  # the real thing agrees
    openspiel.utils = _Off(openspiel.utils, call)
    with pytest.raises(AssertionError):
        bench_melds.run(20, 3, 1, openspiel)


@pytest.fixture(scope="module")
def bench_fidelity() -> Iterator[ModuleType]:
    yield from loaded("bench_fidelity")


def test_bench_fidelity_says_when_the_engine_is_missing(bench_fidelity: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 2 and one line without the engine."""
    if "pyspiel" not in sys.modules:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            assert bench_fidelity.main(["--n", "1"]) == 2
            assert "pyspiel is not installed" in capsys.readouterr().err


def test_bench_fidelity_agrees_with_rlcard_on_a_few_fresh_games(bench_fidelity: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """Where RLCard is installed: a tiny run of two of its settings, every figure agreeing."""
    pytest.importorskip("rlcard")
    assert bench_fidelity.main(["--engine", "rlcard", "--n", "4", "--rules", "default", "--rules", "moves40"]) == 0
    out = capsys.readouterr().out
    assert "8 hands, 2 rule sets" in out and "full agreement: 2 of 2" in out


def test_bench_fidelity_agrees_on_a_few_fresh_hands(bench_fidelity: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """Where OpenSpiel is installed: a tiny run of two rule sets, every figure agreeing."""
    pytest.importorskip("pyspiel")
    assert bench_fidelity.main(["--n", "5", "--rules", "default", "--rules", "gin0"]) == 0
    out = capsys.readouterr().out
    assert "10 hands, 2 rule sets" in out and "full agreement: 2 of 2" in out
