"""Files from a newer ginlog: one clear error naming what it needs (docs/VERSIONING.md).

Each case takes the README's match as ``ginlog new`` + ``ginlog play`` write it,
changes what a newer ginlog would write differently (a newer ``v``, an event
type, a field, a knob, a choice), re-chains the lines so only that change is
wrong, and reads it through the public API: ``read_match`` and ``ginlog validate``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginlog import __version__
from ginlog.errors import GinlogError
from ginlog.game.rules import LATER_KNOBS, PRESETS, SCHEMA_2_KNOBS, preset, rules_from_dict, rules_to_dict
from ginlog.log.format import digest, encode
from ginlog.log.events import SCHEMA_VERSION
from ginlog.match.reading import read_match
from test_cli import HAND, ONE_LINE, app, assert_one_line_error, exe, new_file, run  # noqa: F401 - app: a fixture

NEWER = "ginlog 9.0.0"
THIS = f"ginlog {__version__}"

Lines = list[dict[str, Any]]


@pytest.fixture
def match(app: Any, tmp_path: Path) -> Lines:
    """The README's match, one decoded dict a line."""
    path = new_file(app, tmp_path / "written.jsonl")
    r = run(app, "play", path, *HAND)
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def rewrite(lines: Lines, path: Path, change: Callable[[Lines], None]) -> Path:
    """Apply ``change`` to a copy of the lines and write them with a sound hash chain."""
    lines = json.loads(json.dumps(lines))
    change(lines)
    prev = None
    out = []
    for n, line in enumerate(lines, 1):
        fields = {k: v for k, v in line.items() if k not in ("seq", "ts", "type", "v", "prev")}
        raw = encode(n, line["ts"], line["type"], line["v"], prev, fields)
        prev = digest(raw)
        out.append(raw)
    path.write_bytes(b"\n".join(out) + b"\n")
    return path


def started_by(tool: str) -> Callable[[Lines], None]:
    def change(lines: Lines) -> None:
        lines[0]["tool"] = tool

    return change


def both(*changes: Callable[[Lines], None]) -> Callable[[Lines], None]:
    def change(lines: Lines) -> None:
        for c in changes:
            c(lines)

    return change


def all_at_v3(lines: Lines) -> None:
    for line in lines:
        line["v"] = SCHEMA_VERSION + 1


def new_event_at_end(lines: Lines) -> None:
    lines.append({"ts": lines[-1]["ts"], "type": "hollywood_tally", "v": SCHEMA_VERSION, "columns": 3})


def new_knob(lines: Lines) -> None:
    lines[0]["rules"]["round_the_corner"] = True


def new_field(lines: Lines) -> None:
    lines[-1]["comment"] = "well played"


def new_choice(lines: Lines) -> None:
    drawn = next(line for line in lines if line["type"] == "card_drawn")
    drawn["source"] = "wall"


def validate_error(app: Any, path: Path, rule: str) -> str:
    """``ginlog validate``'s one error line for ``path`` (exit 1), checked for file, line, event and rule."""
    r = run(app, "validate", path)
    assert r.exit_code == 1, r.output
    m = assert_one_line_error(r.stderr, path=str(path), rule=rule, need_line=True, need_event=True)
    assert m["line"] == m["event"]  # one line, one event: the line that needs the newer ginlog
    return str(m["msg"])


def test_a_newer_schema_version_says_upgrade(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "v3.jsonl", both(all_at_v3, started_by(NEWER)))
    msg = validate_error(app, path, "newer-version")
    assert f"schema version {SCHEMA_VERSION + 1}" in msg and f"reads 1 to {SCHEMA_VERSION}" in msg
    assert f"this is {THIS}" in msg and f"started by {NEWER}" in msg and msg.endswith("upgrade ginlog")
    with pytest.raises(GinlogError) as info:
        read_match(path)
    assert (info.value.rule, info.value.line, info.value.seq) == ("newer-version", 1, 1)
    # The reader stops at the first line: the rest cannot be checked against it, so one error, not one a line.
    assert [e.rule for e in read_match(path, collect=True).errors] == ["newer-version"]


def test_a_newer_line_appended_to_an_older_file(app: Any, match: Lines, tmp_path: Path) -> None:
    def last_at_v3(lines: Lines) -> None:
        lines[-1]["v"] = SCHEMA_VERSION + 1

    path = rewrite(match, tmp_path / "tail.jsonl", last_at_v3)
    msg = validate_error(app, path, "newer-version")
    assert msg.startswith("written by a newer ginlog") and f"started by {THIS}" in msg
    assert read_match(path, collect=True).errors[0].line == len(match)


def test_an_unknown_event_type_from_a_newer_ginlog(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "event.jsonl", both(new_event_at_end, started_by(NEWER)))
    msg = validate_error(app, path, "unknown-event")
    assert msg == (
        f"unknown event type 'hollywood_tally' (the file was started by {NEWER}; this is {THIS}: upgrade ginlog to read it)"
    )
    with pytest.raises(GinlogError) as info:
        read_match(path)
    assert (info.value.rule, info.value.line) == ("unknown-event", len(match) + 1)


def test_an_unknown_event_type_in_a_file_of_this_ginlog_may_be_newer(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "event.jsonl", new_event_at_end)
    msg = validate_error(app, path, "unknown-event")
    assert msg.endswith(f"(the file was started by {THIS}; this is {THIS}: a newer ginlog may know it)")


def test_an_unknown_knob_from_a_newer_ginlog(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "knob.jsonl", both(new_knob, started_by(NEWER)))
    msg = validate_error(app, path, "unknown-knob")
    assert msg == (
        f"match_started: rules: unknown rule knob 'round_the_corner' "
        f"(the file was started by {NEWER}; this is {THIS}: upgrade ginlog to read it)"
    )


def test_an_unknown_knob_without_a_tool(app: Any, match: Lines, tmp_path: Path) -> None:
    def no_tool(lines: Lines) -> None:
        del lines[0]["tool"]

    path = rewrite(match, tmp_path / "knob.jsonl", both(new_knob, no_tool))
    msg = validate_error(app, path, "unknown-knob")
    assert msg.endswith(f"'round_the_corner' (this is {THIS}: a newer ginlog may know it)")


def test_an_unknown_field_from_a_newer_ginlog(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "field.jsonl", both(new_field, started_by(NEWER)))
    msg = validate_error(app, path, "unknown-field")
    assert "unknown field(s) comment" in msg and msg.endswith("upgrade ginlog to read it)")


def test_a_new_choice_from_a_newer_ginlog_keeps_its_rule(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "choice.jsonl", both(new_choice, started_by(NEWER)))
    with pytest.raises(GinlogError) as info:
        read_match(path)
    assert info.value.rule == "event" and "'wall'" in info.value.message
    assert info.value.message.endswith(f"(the file was started by {NEWER}; this is {THIS}: a newer ginlog may read it)")
    # The same line in a file of this ginlog is simply wrong: no word of a newer one.
    path = rewrite(match, tmp_path / "choice-here.jsonl", new_choice)
    with pytest.raises(GinlogError) as info:
        read_match(path)
    assert "newer" not in info.value.message


def test_an_odd_tool_text_stays_on_one_line(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "odd.jsonl", both(new_knob, started_by("gin\nscorer " + "x" * 200)))
    msg = validate_error(app, path, "unknown-knob")
    assert "a newer ginlog may know it" in msg and len(msg) < 250


def test_through_the_executable(match: Lines, tmp_path: Path) -> None:
    files = [
        rewrite(match, tmp_path / "v3.jsonl", both(all_at_v3, started_by(NEWER))),
        rewrite(match, tmp_path / "event.jsonl", both(new_event_at_end, started_by(NEWER))),
        rewrite(match, tmp_path / "knob.jsonl", both(new_knob, started_by(NEWER))),
    ]
    p = exe("validate", *files)
    assert p.returncode == 1
    errors = p.stderr.strip().splitlines()
    assert [ONE_LINE.match(e)["rule"] for e in errors] == ["newer-version", "unknown-event", "unknown-knob"]  # type: ignore[index]
    assert all(NEWER in e and "upgrade ginlog" in e for e in errors)


def test_this_ginlog_does_not_append_to_a_newer_file(app: Any, match: Lines, tmp_path: Path) -> None:
    path = rewrite(match, tmp_path / "v3.jsonl", both(all_at_v3, started_by(NEWER)))
    before = path.read_bytes()
    r = run(app, "play", path, "note hello")
    assert r.exit_code != 0
    assert_one_line_error(r.stderr, path=str(path), rule="newer-version")
    assert path.read_bytes() == before


def test_the_knobs_recorded_in_full_are_schema_2s() -> None:
    """A knob added later is recorded only when set (docs/VERSIONING.md), so this list never grows."""
    assert SCHEMA_2_KNOBS == {
        "knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "undercut_on_tie", "may_discard_taken_card",
        "void_stock_size", "game_target", "next_dealer", "game_bonus", "box_bonus", "box_timing", "shutout",
        "shutout_bonus", "oklahoma", "upcard_take_limit", "void_on_upcard_loop", "wall_knock", "layoff_chain_limit",
    }
    for rules in PRESETS.values():
        used = {name for name, default in LATER_KNOBS if getattr(rules, name) != default}
        assert set(rules_to_dict(rules)) == SCHEMA_2_KNOBS | used  # hollywood, openspiel: their later knobs
        assert rules_from_dict(rules_to_dict(rules)) == rules
    assert "hollywood" not in rules_to_dict(PRESETS["standard"])
    assert rules_to_dict(PRESETS["hollywood"])["hollywood"] == {"shut_out_moves_on": True}
    assert "loop_counts_first_upcard" not in rules_to_dict(preset("standard"))
    assert rules_to_dict(preset("openspiel"))["loop_counts_first_upcard"] is True
