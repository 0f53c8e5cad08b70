"""Players across files (issue 20, item 3): look-alike names warned about, and a club's players file (``--players``).

Through the CLI's own functions (``ginlog.app.cli.data``), as ``ginlog stats``,
``export`` and ``html DIR -o SITE`` run them. Before this work, ``Ann``,
``ann`` and Cyrillic ``Аnn`` in three files were three players without a word,
and there was no way to make two spellings one player.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.cli import data as cli_data
from ginlog.app.data.players import PlayersFileError, load_players
from ginlog.game.rules import preset
from ginlog.play.simulate import simulate_match

from data_matches import EPOCH, encode_match

CYRILLIC_ANN = "\u0410nn"


def _club(folder: Path, pairs: list[tuple[str, str]]) -> Path:
    folder.mkdir()
    for i, players in enumerate(pairs):
        events = simulate_match(preset("openspiel"), seed=i + 1, players=players)
        (folder / f"m{i}.jsonl").write_bytes(encode_match(events, EPOCH + timedelta(minutes=i)))
    return folder


def _stats(args: list[str], capsys: pytest.CaptureFixture[str], players: Path | None = None) -> tuple[int, dict[str, Any], str]:
    code = cli_data.stats(args, json_=True, players_file=None if players is None else str(players))
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out else {}, out.err


def test_lookalike_names_across_files_are_kept_apart_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path / "club", [("Ann", "Bob"), ("ann", "Bob"), (CYRILLIC_ANN, "Bob")])
    code, data, err = _stats([str(club)], capsys)
    assert code == 0
    assert sorted(p["name"] for p in data["players"]) == sorted(["Ann", "ann", CYRILLIC_ANN, "Bob"])
    warned = data["warnings"]
    assert {w["rule"] for w in warned} == {"player-clash"} and len(warned) == 3  # each pair of the three
    for w in warned:
        assert "kept apart" in w["message"] and str(club) in w["message"]
    assert f"'ann' ({club / 'm1.jsonl'})" in err and "(warning)" in err


def test_a_players_file_makes_spellings_one_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path / "club", [("Ann", "Bob"), ("ann", "Bob"), (CYRILLIC_ANN, "Bob"), ("Cy", "Bob")])
    roster = tmp_path / "players.toml"
    roster.write_text(f'[[player]]\nname = "Ann Lee"\naliases = ["Ann", "ann", "{CYRILLIC_ANN}"]\nkeys = []\n\n'
                      '[[player]]\nname = "Bob"\n', encoding="utf-8")
    code, data, _err = _stats([str(club)], capsys, roster)
    assert code == 0 and data["warnings"] == []
    by_name = {p["name"]: p for p in data["players"]}
    assert set(by_name) == {"Ann Lee", "Bob", "Cy"} and by_name["Ann Lee"]["matches"] == 3
    assert by_name["Ann Lee"]["rated_matches"] == 3
    assert [h["players"] for h in data["head_to_head"]] == [["Ann Lee", "Bob"], ["Bob", "Cy"]]
    assert cli_data.export([str(club)], "csv", players_file=str(roster)) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["player_1"] for r in rows} == {"Ann Lee", "Cy"} and {r["winner"] for r in rows} <= {"Ann Lee", "Bob", "Cy"}
    assert cli_data.site(str(club), str(tmp_path / "site"), str(roster)) == 0
    assert "Ann Lee" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_a_players_file_that_makes_both_players_one_is_an_error_in_that_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path / "club", [("Ann", "Bob"), ("Ann", "Cy")])
    roster = tmp_path / "players.toml"
    roster.write_text('[[player]]\nname = "Ann"\naliases = ["Bob"]\n', encoding="utf-8")
    code, data, err = _stats([str(club)], capsys, roster)
    assert code == 1
    bad = [f for f in data["files"] if not f["ok"]]
    assert [f["file"] for f in bad] == [str(club / "m0.jsonl")] and bad[0]["errors"][0]["rule"] == "players"
    assert sum(p["matches"] for p in data["players"]) == 2  # the other match only


@pytest.mark.parametrize("text, why", [
    ('[[player]]\nname = "Ann"\n[[player]]\nname = "ann"\n', "could be taken for each other"),
    ('[[player]]\nname = "Ann"\naliases = ["Bo"]\n[[player]]\nname = "Bob"\naliases = ["BO"]\n', "could be taken for each other"),
    ('[[player]]\nname = "Ann"\nemail = "a@b"\n', "unknown key 'email'"),
    ('[[player]]\naliases = ["x"]\n', "no name"),
    ('[[player]]\nname = "Ann\\u200b"\n', "U+200B"),
    ('[[player]]\nname = 7\n', "a name is text"),
    ('[players]\nAnn = 1\n', "unknown table or key 'players'"),
    ('name = \n', "not TOML"),
])
def test_a_bad_players_file_is_one_line_and_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str) -> None:
    club = _club(tmp_path / "club", [("Ann", "Bob")])
    roster = tmp_path / "players.toml"
    roster.write_text(text, encoding="utf-8")
    with pytest.raises(PlayersFileError, match=re.escape(why)):
        load_players(str(roster))
    for command in ("stats", "export"):
        if command == "stats":
            code = cli_data.stats([str(club)], players_file=str(roster))
        else:
            code = cli_data.export([str(club)], "csv", players_file=str(roster))
        assert code == 2
        out = capsys.readouterr()
        assert out.out == "" and len(out.err.splitlines()) == 1 and str(roster) in out.err and why.split("'")[0] in out.err


def test_a_missing_players_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path / "club", [("Ann", "Bob")])
    assert cli_data.stats([str(club)], players_file=str(tmp_path / "nope.toml")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.toml: cannot read it" in err
