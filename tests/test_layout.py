"""The layout says where each module's tests are: every module under ``ginlog/`` has its own test file or a row in
``docs/DESIGN.md``'s table "Where each module's tests are", so a new module without tests fails the build.

A module's own file is ``tests/test_<name>.py``, or ``tests/test_<room>_<name>.py`` when ``<name>`` is also the
name of a package (``app/cli/data.py`` beside the ``app/data/`` room: ``tests/test_cli_data.py``). A row names
a module that exists, test files that exist, and only a module without a file of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ginlog"
TESTS = ROOT / "tests"
HEADING = "## Where each module's tests are"


def modules() -> list[Path]:
    """Every module of the package but the packages' ``__init__``, relative to ``ginlog/``."""
    return sorted(p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")


def own_file(module: Path) -> Path | None:
    """The module's own test file, if it has one."""
    packages = {p.parent.name for p in PACKAGE.rglob("__init__.py")}
    name, room = module.stem, module.parent.name
    candidates = [f"test_{room}_{name}.py"] if name in packages and room != "." else []
    if name not in packages:
        candidates.append(f"test_{name}.py")
    return next((TESTS / c for c in candidates if (TESTS / c).is_file()), None)


def table() -> dict[str, str]:
    """The rows of DESIGN's table: module (relative to ``ginlog/``) to where its tests are."""
    text = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    assert HEADING in text, f"docs/DESIGN.md has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+\.py)` \| (.+) \|$", section, flags=re.M)
    assert len(rows) == len({m for m, _ in rows}), "a module has two rows"
    return dict(rows)


def test_every_module_has_its_test_file_or_a_row() -> None:
    rows = table()
    missing = [str(m) for m in modules() if own_file(m) is None and str(m) not in rows]
    assert not missing, f"no tests/test_<module>.py and no row in DESIGN's table: {missing}"


def test_every_row_is_a_module_without_a_file_of_its_own_and_names_test_files_that_exist() -> None:
    known = {str(m) for m in modules()}
    for module, where in table().items():
        assert module in known, f"DESIGN's table names {module}, which is not a module of ginlog/"
        assert own_file(Path(module)) is None, f"{module} has {own_file(Path(module))}: its row is not needed"
        named = re.findall(r"`(test_\w+\.py|\w+\.py)`", where)
        for name in named:
            assert (TESTS / name).is_file(), f"{module}'s row names tests/{name}, which does not exist"
        assert named or where.startswith(("doctests only", "plumbing", "declarations")), (
            f"{module}'s row says no test file and is not marked doctests only, plumbing or declarations"
        )
