"""CSV that is safe in a spreadsheet (issue 20, item 5): a text cell that would start a formula gets a leading
``'``, numbers stay numbers, ``--raw`` writes the text exactly, JSON lines keep it exactly."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from test_cli import HAND, exe

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
