"""The export's formats (:mod:`ginlog.app.data.formats`): a registry of whole writers, each read back here by a
reader of its own; and CSV that is safe in a spreadsheet (issue 20, item 5): a text cell that would start a formula
gets a leading ``'``, numbers stay numbers, ``--raw`` writes the text exactly, JSON lines keep it exactly."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.data.formats import COLUMNS, FORMATS, INT_COLUMNS, Row, TextRows, export_format, formats_help
from ginlog.game.rules import preset
from ginlog.play.reducer import fold
from ginlog.play.simulate import simulate_match

from test_cli import HAND, exe, invoke

NAMES = ("=HYPERLINK(1)", "@Bo")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once for the module (read only by the tests)."""
    m = tmp_path_factory.mktemp("spreadsheet") / "m.jsonl"
    made = exe("new", m, f"--player={NAMES[0]}", f"--player={NAMES[1]}", "--title", "+cmd|' /C calc'!A0")
    assert made.returncode == 0, made.stderr
    hand = [e.replace("Ann", "=hyp").replace("Bob", "@bo") for e in HAND]
    assert exe("play", m, *hand).returncode == 0
    return m


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_export_csv_guards_formula_cells_and_keeps_numbers(hostile: Path) -> None:
    run = exe("export", hostile)
    assert run.returncode == 0, run.stderr
    (row,) = rows(run.stdout)
    assert row["player_1"] == "'" + NAMES[0] and row["player_2"] == "'" + NAMES[1]
    assert row["title"] == "'+cmd|' /C calc'!A0"
    assert row["hand"] == "1" and row["points"].isdigit()  # numbers are not text: no guard
    assert not any(v.startswith(("=", "+", "-", "@")) for v in row.values())


def test_raw_and_jsonl_keep_the_text_exactly(hostile: Path) -> None:
    (raw,) = rows(exe("export", hostile, "--raw").stdout)
    assert (raw["player_1"], raw["player_2"]) == NAMES and raw["title"].startswith("+cmd")
    (line,) = exe("export", hostile, "--format", "jsonl").stdout.splitlines()
    assert (json.loads(line)["player_1"], json.loads(line)["player_2"]) == NAMES


def test_stats_csv_guards_names_unless_raw(hostile: Path) -> None:
    guarded = {r["name"] for r in rows(exe("stats", hostile, "--csv").stdout)}
    assert guarded == {"'" + n for n in NAMES}
    assert {r["name"] for r in rows(exe("stats", hostile, "--csv", "--raw").stdout)} == set(NAMES)


def _shrug() -> type:
    class Shrug:
        """Someone shrugs."""

    return Shrug


# ---------------------------------------------------------------------------
# Export formats


def _read_csv(path: Path) -> list[list[Any]]:
    with open(path, newline="", encoding="utf-8") as f:
        header, *rows = list(csv.reader(f))
    assert tuple(header) == COLUMNS
    return [[None if v == "" else int(v) if c in INT_COLUMNS else v for c, v in zip(COLUMNS, r)] for r in rows]


def _read_jsonl(path: Path) -> list[list[Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert all(tuple(r) == COLUMNS for r in rows)
    return [list(r.values()) for r in rows]


def _read_parquet(path: Path) -> list[list[Any]]:
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(path)
    assert tuple(table.column_names) == COLUMNS
    return [list(r.values()) for r in table.to_pylist()]


#: Each registered format's reader, here in the tests: a new format without one fails below.
READ_BACK = {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}


def _rows() -> list[Row]:
    from ginlog.app.data.export import hand_rows
    from ginlog.match.dated import DatedReport
    from ginlog.match.visitors import MatchReport

    state = fold(simulate_match(preset("standard"), seed=3, max_hands=3)).state
    report = MatchReport("m.jsonl", state, (), 9, None)
    return list(hand_rows(DatedReport(report, None, None, "ab" * 32, ("2026-11-29T19:56:25.123Z",) * 3)))


def test_every_format_has_a_reader_in_the_tests() -> None:
    assert set(READ_BACK) == set(FORMATS)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format_writes_what_it_says(name: str, tmp_path: Path) -> None:
    """Each registered format, opened as the command opens it, reads back as the rows by its own reader."""
    from ginlog.app.data.export import open_writer

    rows = _rows()
    path = tmp_path / f"hands.{name}"
    out = open_writer(name, str(path))
    out.write(rows)
    out.finish()
    assert READ_BACK[name](path) == [list(r) for r in rows]
    assert FORMATS[name].name == name


def test_a_format_that_is_not_a_whole_writer_is_refused() -> None:
    with pytest.raises(TypeError, match="leaves out close"):

        @export_format("tsv")
        class Tsv(TextRows):
            """Tab-separated."""

            def write(self, rows: Iterable[Row]) -> None: ...

    with pytest.raises(TypeError, match="must subclass"):
        export_format("tsv")(_shrug())
    assert "tsv" not in FORMATS


def test_an_unknown_format_is_refused_not_written_as_another() -> None:
    from ginlog.app.data.export import open_writer

    with pytest.raises(ValueError, match="not 'tsv'"):
        open_writer("tsv", None)


def test_the_export_command_lists_the_registered_formats() -> None:

    from ginlog.app.cli import command

    result = invoke(command(), ["export", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert all(name in result.output for name in FORMATS), result.output
    assert formats_help() in " ".join(result.output.split())
