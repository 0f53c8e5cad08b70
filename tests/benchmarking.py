"""A benchmark script loaded as a module, for the tests that run it small (``test_bench*_run.py``).

The scripts live in ``benchmarks/``, outside the package, and import each
other by name (``bench_data`` imports ``bench_replay``), so each is loaded
from its file under its own name and taken out of ``sys.modules`` again
afterwards, with whatever benchmark modules it pulled in.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def loaded(name: str) -> Iterator[ModuleType]:
    """``benchmarks/NAME.py`` as the module ``NAME`` while the generator is open (a fixture's body), with the
    benchmarks' folder first on ``sys.path`` meanwhile, as when the script is run (its shared modules, such as
    ``revisions``, are imported from there)."""
    before = set(sys.modules)
    added = str(BENCHMARKS) not in sys.path
    if added:
        sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        yield module
    finally:
        if added:
            sys.path.remove(str(BENCHMARKS))
        for extra in set(sys.modules) - before:
            where = getattr(sys.modules.get(extra), "__file__", None) or ""
            if extra.startswith("bench") or Path(where).parent == BENCHMARKS:
                sys.modules.pop(extra, None)
