"""Any OpenSpiel header is one line and exit 1, never a traceback (issue 20, item 7: a 5,000-digit parameter
ended the import in a ``ValueError`` from ``int()``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_cli import exe

RECORDS = Path(__file__).resolve().parent / "data" / "openspiel" / "records"


def imported_with(tmp_path: Path, header: str | None = None, *, zeros: int = 0) -> tuple[int, list[str]]:
    """Import the first fixture with its [Game] line replaced (or its gin_bonus given leading zeros)."""
    record = sorted(RECORDS.glob("*.txt"))[0].read_text(encoding="utf-8").splitlines()
    game = record.index("[Game]")
    record[game + 1] = header if header is not None else record[game + 1].replace("gin_bonus=", "gin_bonus=" + "0" * zeros)
    src = tmp_path / "r.txt"
    src.write_text("\n".join(record) + "\n", encoding="utf-8")
    run = exe("import", "openspiel", src, "-o", tmp_path / "out")
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, run.stderr.splitlines()


@pytest.mark.parametrize("header", [
    "gin_rummy(gin_bonus=" + "9" * 5000 + ")",
    "gin_rummy(gin_bonus=-" + "1" * 5000 + ")",
    "gin_rummy(" + "k" * 5000 + "=1)",
    "gin_rummy(knock_card=" + "0" * 5000 + "99999999999)",
    "gin_rummy(oklahoma=" + "9" * 4300 + ")",  # a flag's value, cut in the message too (the hostile campaign's header class)
])
def test_a_hostile_header_is_one_line(tmp_path: Path, header: str) -> None:
    code, lines = imported_with(tmp_path, header)
    assert code == 1 and len(lines) == 1 and "[parameter]" in lines[0] and len(lines[0]) < 300, lines


def test_leading_zeros_are_not_digits_of_the_value(tmp_path: Path) -> None:
    code, lines = imported_with(tmp_path, zeros=5000)
    assert code == 0, lines
