"""``ginlog export``: one row per finished hand, every field against the score sheet (``score_json``), each format read back."""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.cli import data as cli_data
from ginlog.app.data.export import COLUMNS, ROW_GROUP, ParquetWriter
from ginlog.app.views.match_json import score_json
from ginlog.log.events import HandDealt, HandResultOnly
from ginlog.log.format import digest
from ginlog.play.reducer import fold

from data_matches import Generated, corpus, line_ts

INTS = {"hand", "points", "deadwood_1", "deadwood_2", "total_1", "total_2", "bonus_1", "bonus_2", "final_1", "final_2",
        *(f"game{n}_{s}" for n in (1, 2, 3) for s in (1, 2))}
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Generated], list[Path]]:
    folder = tmp_path_factory.mktemp("export")
    made, bad = corpus(folder)
    return folder, made, bad


def expected_rows(made: list[Generated]) -> list[dict[str, Any]]:
    """The rows, from the score sheet by name and the file's own lines: nothing from ginlog.app.data.export."""
    rows = []
    def first_line(g: Generated) -> bytes:
        return g.path.read_bytes().split(b"\n", 1)[0]

    # the matches' order: when they began, then which match (the first line's hash), then the path
    for g in sorted(made, key=lambda g: (line_ts(g.start, 1), digest(first_line(g))[:16], str(g.path))):
        state = fold(list(g.events)).state
        sheet = score_json(state, None)
        a, b = sheet["players"]
        starts = [seq for seq, e in enumerate(g.events, 1) if isinstance(e, (HandDealt, HandResultOnly))]
        for i, h in enumerate(sheet["hands"]):
            rows.append({
                "file": str(g.path), "match": digest(first_line(g))[:16], "title": state.title, "player_1": a, "player_2": b,
                "date": line_ts(g.start, starts[i]), "hand": h["number"], "dealer": h["dealer"], "outcome": h["outcome"],
                "out": h["out"], "winner": h["winner"], "points": h["points"],
                "deadwood_1": h["deadwood"].get(a), "deadwood_2": h["deadwood"].get(b),
                "total_1": h["totals"][a], "total_2": h["totals"][b], "recorded": h["recorded"],
                "void_reason": h["void_reason"],
            })
    return rows


def check(got: list[dict[str, Any]], made: list[Generated]) -> None:
    want = expected_rows(made)
    assert len(got) == len(want) == sum(len(fold(list(g.events)).state.hands) for g in made)
    for g, w in zip(got, want):
        assert list(g) == list(COLUMNS)
        assert {k: g[k] for k in w} == w
        assert g["how"] in ("knock", "gin", "big_gin", "void")
        assert g["how"] == g["outcome"] or (g["how"], g["outcome"]) in (("knock", "undercut"), ("knock", "gin"))
        assert g["rules"].split()[0] in ("standard", "newspaper", "modern", "classic", "oklahoma", "openspiel")
    assert {r["outcome"] for r in got} == {"knock", "undercut", "gin", "big_gin", "void"}
    assert derived_finals(got) == {str(g.path): final_totals(fold(list(g.events)).state) for g in made}


def final_totals(state: Any) -> tuple[int, int] | None:
    """``score --json``'s totals by seat once the match is over (None before)."""
    sheet = score_json(state, None)
    return (sheet["totals"][sheet["players"][0]], sheet["totals"][sheet["players"][1]]) if sheet["complete"] else None


def derived_finals(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int] | None]:
    """Each file's final totals as docs/DATA.md derives them from its rows: the last running totals plus every
    ``bonus`` column, for a match whose last row ``closes`` it (and that row's ``final`` columns say the same)."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_file.setdefault(r["file"], []).append(r)
    out: dict[str, tuple[int, int] | None] = {}
    for file, rs in by_file.items():
        last = rs[-1]
        if not (last["closes"] or "").endswith("match"):
            assert all(r["final_1"] is None and r["final_2"] is None for r in rs)
            out[file] = None
            continue
        derived = tuple(last[f"total_{n}"] + sum(r[f"bonus_{n}"] or 0 for r in rs) for n in (1, 2))
        assert derived == (last["final_1"], last["final_2"]), file
        if "hollywood" in last["rules"]:  # the three games' hand points add up to the running totals
            for r in rs:
                assert [r["total_1"], r["total_2"]] == [sum(r[f"game{g}_{n}"] for g in (1, 2, 3)) for n in (1, 2)]
        out[file] = (derived[0], derived[1])
    return out


def typed(row: dict[str, str]) -> dict[str, Any]:
    return {k: (None if v == "" else int(v) if k in INTS else v) for k, v in row.items()}


def test_csv_to_standard_output(generated: Any, capsys: pytest.CaptureFixture[str]) -> None:
    folder, made, bad = generated
    code = cli_data.export([str(folder)], "csv")
    out = capsys.readouterr()
    assert code == 1  # invalid files: listed and left out
    assert all(str(p) in out.err for p in bad)
    check([typed(r) for r in csv.DictReader(io.StringIO(out.out))], made)


def test_jsonl_to_a_file(generated: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, made, _bad = generated
    target = tmp_path / "hands.jsonl"
    assert cli_data.export([str(folder / "valid")], "jsonl", str(target)) == 0
    assert capsys.readouterr().out == ""
    check([json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()], made)
    assert [p.name for p in tmp_path.iterdir()] == ["hands.jsonl"]  # no temporary file left


def test_an_output_that_is_a_folder_is_one_line_and_no_temporary_file(generated: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-o an existing folder: one line naming it, exit 2 (was a traceback at the rename, and the .tmp file left)."""
    folder, _made, _bad = generated
    (tmp_path / "dir").mkdir()
    assert cli_data.export([str(folder / "valid")], "csv", str(tmp_path / "dir")) == 2
    # (issue 19: the valid files' warnings are said too, one a line, before)
    err = "".join(line for line in capsys.readouterr().err.splitlines(True) if not line.endswith("(warning)\n"))
    assert err.startswith(f"ginlog: cannot write {tmp_path / 'dir'}: ") and len(err.splitlines()) == 1, err
    assert [p.name for p in tmp_path.iterdir()] == ["dir"]


def test_parquet_read_back(generated: Any, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    folder, made, _bad = generated
    target = tmp_path / "hands.parquet"
    assert cli_data.export([str(folder / "valid")], "parquet", str(target)) == 0
    table = pq.read_table(target)
    assert table.column_names == list(COLUMNS)
    assert str(table.schema.field("points").type) == "int64" and str(table.schema.field("winner").type) == "string"
    check(table.to_pylist(), made)


def test_parquet_row_groups(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "g.parquet"
    w = ParquetWriter(str(path), row_group=4)
    row = tuple(1 if c in INTS else "x" for c in COLUMNS)
    for _ in range(5):
        w.write([row, row])
    w.close()
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == 10 and [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [4, 4, 2]
    assert ROW_GROUP == 10_000


def test_parquet_usage(generated: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _made, _bad = generated
    assert cli_data.export([str(folder)], "parquet") == 2
    assert "-o FILE" in capsys.readouterr().err
    assert cli_data.export([str(folder)], "xml") == 2
    assert "--format is one of csv, jsonl, parquet" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if it were not installed
    assert cli_data.export([str(folder)], "parquet", str(tmp_path / "x.parquet")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'ginlog[data]'" in err
    assert not (tmp_path / "x.parquet").exists()


def test_a_hostile_output_path_is_shown_not_obeyed(generated: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The usage line names the path the user gave: its controls are shown (␛), the line stays one line."""
    folder, _made, _bad = generated
    out = str(tmp_path / "no\x1b]0;owned\x07\nsuch" / "hands.csv")
    assert cli_data.export([str(folder)], "csv", out) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "␛]0;owned␇" in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("ginlog: cannot write ")
    site = str(tmp_path / "site\x1b[2J")
    (tmp_path / "site\x1b[2J").write_text("")
    assert cli_data.site(str(folder), site) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "␛[2J" in err and len(err.strip().splitlines()) == 1


def simulated(tmp_path: Path) -> list[Path]:
    """Random simulated matches under every preset (and Hollywood's other knobs), a few seeds each, as files."""
    import attrs

    from ginlog.game.rules import PRESETS, with_knobs
    from ginlog.play.simulate import simulate_match

    from data_matches import write

    hollywood = PRESETS["hollywood"]
    rules = {**PRESETS, "strict": with_knobs(hollywood, hollywood="strict"),
             "hand-boxes": attrs.evolve(hollywood, box_timing="hand", shutout="double"),
             "one-game-bonus": attrs.evolve(PRESETS["classic"], box_timing="hand")}
    start = datetime(2026, 3, 1, tzinfo=timezone.utc)
    return [write(tmp_path / f"{name}-{seed}.jsonl", simulate_match(r, seed=seed, players=(f"Ann {name}", f"Bob {seed}")), start)
            for name, r in rules.items() for seed in range(2)]


def test_a_match_result_is_derivable_from_its_rows_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 2: for every sample match and random simulated ones under every preset (Hollywood and
    Oklahoma included), the final totals derived from the export's rows (docs/DATA.md) are ``score --json``'s;
    the same in CSV, JSON lines and Parquet (before, the last row of a Hollywood match read 47/342 for 147/922)."""
    paths = sorted(SAMPLES.glob("*.jsonl")) + simulated(tmp_path)
    from ginlog.match.reading import read_match

    want = {str(p): final_totals(read_match(str(p)).state) for p in paths}
    assert sum(v is not None for v in want.values()) >= len(paths) - 1  # (the table-view sample may be unfinished)
    args = [str(p) for p in paths]
    assert cli_data.export(args, "csv") == 0
    got = {"csv": [typed(r) for r in csv.DictReader(io.StringIO(capsys.readouterr().out))]}
    assert derived_finals(got["csv"]) == want
    # The other formats on the Hollywood sample and a simulated Oklahoma match (the corpus's tests above read
    # every format back on the other presets, and check the same derivation).
    few = [str(SAMPLES / "hollywood-match.jsonl"), str(tmp_path / "oklahoma-1.jsonl")]
    assert cli_data.export(few, "jsonl") == 0
    got["jsonl"] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    pq = pytest.importorskip("pyarrow.parquet")
    assert cli_data.export(few, "parquet", str(tmp_path / "h.parquet")) == 0
    got["parquet"] = pq.read_table(tmp_path / "h.parquet").to_pylist()
    for name in ("jsonl", "parquet"):
        assert derived_finals(got[name]) == {p: want[p] for p in few}, name
        assert got[name] == [r for r in got["csv"] if r["file"] in few], name
    hollywood = [r for r in got["csv"] if r["file"].endswith("hollywood-match.jsonl")]
    assert [r["closes"] for r in hollywood if r["closes"]] == ["game 1", "game 2", "game 3, match"]
