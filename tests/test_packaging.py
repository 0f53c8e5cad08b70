"""The wheel holds the whole package: every module, the page's assets, ``py.typed``.

Workers on a cluster (and anyone who installs ginlog) get the wheel, not the
checkout: a sub-package that package discovery missed, or a data file that
``package-data`` does not name, passes every other test here and fails there.
The wheel is built by pip (``pip wheel --no-deps --no-build-isolation``: the
backend installed with the test extras, no index needed) from a copy of the
package, so the checkout gets no ``build/`` or ``*.egg-info`` of the test's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ginlog"


def _package_files() -> set[str]:
    """Every file of the package in the checkout, as a wheel names it (``ginlog/...``), caches left out."""
    return {
        p.relative_to(ROOT).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
    }


def test_the_wheel_holds_every_module_and_data_file(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(PACKAGE, src / "ginlog", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), str(src)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    # An older venv's setuptools cannot build a wheel alone: pip install -e '.[test]' again brings one that can.
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = out.glob("ginlog-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = z.read(entry_points).decode()
    in_package = {n for n in names if n.startswith("ginlog/")}
    want = _package_files()
    assert sum(n.endswith(".py") for n in want) > 50  # the package as it is: the whole tree was seen
    assert {"ginlog/py.typed", "ginlog/app/pages/page_assets/viewer.js", "ginlog/app/pages/page_assets/viewer.css"} <= want
    assert sorted(want - in_package) == [], "in the checkout but not in the wheel"
    assert sorted(in_package - want) == [], "in the wheel but not in the checkout"
    assert "ginlog = ginlog.app.cli:main" in scripts
