"""How many examples a property test draws: fewer in the default run (its CPU budget), all with ``--run-slow``.

``@settings(max_examples=examples(400, quick=100))``: the default run draws
half of ``quick``, at least 10 (derandomized, so the same ones every run), ``--run-slow``
the whole ``400``. ``tests/conftest.py`` sets :data:`FULL` before the test
modules are imported (``pytest_configure``), so the decorators see it.
"""

from __future__ import annotations

FULL = False


def examples(full: int, *, quick: int) -> int:
    """``full`` with ``--run-slow``; else half of ``quick`` (at least 10): the default run's budget on a host that
    measured twice as slow as the one these were tuned on (``docs/PERFORMANCE.md``, the test run's CPU)."""
    return full if FULL else max(10, quick // 2)
