"""Commands that behave (issue 21, item 5): each rough edge a newcomer met, as the newcomer met it.

In process (Typer's CliRunner, cheap) wherever a pipe is what is tested; on a
pseudo-terminal (forked where it can
be, so without an interpreter's start: :func:`on_a_pty`) where only a
terminal tells: the page refused there, colour by meaning, ``replay --step``'s
prompt and Ctrl-C.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import ptys
from test_cli import HAND, TO_DISCARD, app, new_file, run  # noqa: F401 - app: a fixture

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"  # a link to ginlog/samples
SGR = re.compile(r"\x1b\[[0-9;]*m")
GREEN, RED = "\x1b[32m", "\x1b[1;31m"


@pytest.fixture(scope="module")
def friday(app: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's match after its hand: 9 events, Bob 61 (read, never changed)."""
    path = new_file(app, tmp_path_factory.mktemp("friday") / "friday.jsonl")
    assert run(app, "play", path, *HAND).exit_code == 0
    return path


@pytest.fixture
def table_view(app: Any, tmp_path: Path) -> Path:
    """The README's hand up to Bob's discard (event 7): nobody's cards known."""
    path = new_file(app, tmp_path / "discard.jsonl")
    assert run(app, "play", path, *TO_DISCARD).exit_code == 0
    return path


# ---------------------------------------------------------------------------
# html, audit --quiet


def test_html_without_o_refuses_a_terminal_and_writes_to_a_pipe(app: Any, friday: Path) -> None:
    code, text = on_a_pty("html", friday)
    assert code == 2 and "<html" not in text and "give -o" in text and f"ginlog html {friday} -o page.html" in text
    r = run(app, "html", friday)  # CliRunner's output is a pipe: the page, as before
    assert r.exit_code == 0 and r.stdout.startswith("<!doctype html>")


def test_audit_quiet_still_names_each_invalid_file(app: Any, tmp_path: Path, friday: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    shutil.copy(friday, club / "good.jsonl")
    shutil.copy(SAMPLES / "invalid" / "edited-line.jsonl", club / "edited.jsonl")
    r = run(app, "audit", club, "--quiet")
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{club / 'edited.jsonl'}:5: event 5: ") and lines[0].endswith("[chain]")
    assert "good.jsonl" not in r.stdout + r.stderr and "Invalid" in r.stdout  # the summary table, no per-file lines


# ---------------------------------------------------------------------------
# Colour by meaning, through the sink


def test_colour_by_meaning_on_a_terminal(tmp_path: Path, app: Any) -> None:
    path = new_file(app, tmp_path / "m.jsonl")
    code, text = on_a_pty("record", path, piped=b"dealer Ann\nknock qc\nquit\n")
    assert code == 1
    lines = text.replace("\r\n", "\n").splitlines()
    ok = next(line for line in lines if "ok 2:" in line)
    refused = next(line for line in lines if "refused:" in line)
    assert ok.startswith(GREEN) and refused.startswith(RED), (ok, refused)
    score = next(line for line in lines if line.startswith("Score:"))
    assert not SGR.search(score)  # what means nothing is not painted


def test_no_colour_with_no_color_or_on_a_pipe(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ginlog.app.shell.terminal import Terminal, paints, tone_of

    class Tty:
        def __init__(self) -> None:
            self.text = ""

        def write(self, s: str) -> int:
            self.text += s
            return len(s)

        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    tty = Tty()
    Terminal(tty).out("refused: Ann must draw first [draw-first] (nothing written)")  # type: ignore[arg-type]
    assert tty.text.startswith(RED)
    monkeypatch.setenv("NO_COLOR", "1")
    tty = Tty()
    Terminal(tty).out("refused: Ann must draw first [draw-first] (nothing written)")  # type: ignore[arg-type]
    assert tty.text == "refused: Ann must draw first [draw-first] (nothing written)\n"
    monkeypatch.delenv("NO_COLOR")
    with open(tmp_path / "out.txt", "w", encoding="utf-8") as f:
        assert not paints(f)
    assert tone_of("m.jsonl: 1 of 1 hands are recorded as results only [score-pad] (warning)") == "warning"


# ---------------------------------------------------------------------------
# replay and show: --step, --from/--to, --at past the end, the hands nobody saw


def test_replay_step_prompts_and_q_quits(friday: Path) -> None:
    code, text = on_a_pty("replay", friday, "--step", typed=b"\nq\n")
    bare = SGR.sub("", text)
    assert code == 0, bare
    assert bare.count("Enter: next event, q: quit") == 2
    assert "Ann deals first" in bare and "Hand 1: Ann deals" not in bare  # event 2 shown, then q


def test_replay_from_after_to_and_past_the_end_are_usage_errors(app: Any, friday: Path) -> None:
    r = run(app, "replay", friday, "--from", "30", "--to", "10")
    assert r.exit_code == 2 and r.stdout == "" and "--from 30 is after --to 10" in r.stderr
    r = run(app, "replay", friday, "--from", "30")
    assert r.exit_code == 2 and r.stdout == "" and "its last event is 9" in r.stderr
    assert run(app, "replay", friday, "--from", "9").exit_code == 0


def test_show_at_past_the_end_names_the_last_event(app: Any, friday: Path) -> None:
    r = run(app, "show", friday, "--at", "9999")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"ginlog: show: --at 9999 is past the end of {friday}: its last event is 9 (give --at 9 or less)\n"
    assert run(app, "show", friday, "--at", "9").exit_code == 0


def test_show_says_how_many_cards_nobody_knows(app: Any, table_view: Path) -> None:
    r = run(app, "show", table_view)
    assert r.exit_code == 0
    assert "  Ann: 10 unknown cards" in r.stdout.splitlines() and "- +" not in r.stdout


# ---------------------------------------------------------------------------
# Writers: - and names without .jsonl refused (the warning of a name an entry word takes: tests/test_language.py)


def test_writers_refuse_a_name_that_is_no_match_file(app: Any, tmp_path: Path, friday: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("-", "c.txt", "friday"):
        for args in (["new", name, "--player", "Ann", "--player", "Bob"], ["new", name, "--rematch", friday]):
            r = run(app, *args)
            assert r.exit_code == 2, r.output
            assert ("standard input" in r.stderr) if name == "-" else (".jsonl" in r.stderr and "try " in r.stderr)
            assert not (tmp_path / name).exists()


def test_the_recorders_rematch_refuses_a_name_without_jsonl(app: Any, tmp_path: Path) -> None:
    over = tmp_path / "over.jsonl"
    shutil.copy(SAMPLES / "score-pad-match.jsonl", over)
    r = run(app, "record", over, input="rematch next.txt\nquit\n")
    assert "refused: " in r.stdout and "try next.jsonl" in r.stdout
    assert not (tmp_path / "next.txt").exists()


# ---------------------------------------------------------------------------
# validate and repair say what to run next


def test_validate_of_a_folder_points_to_audit(app: Any, tmp_path: Path) -> None:
    r = run(app, "validate", tmp_path)
    assert r.exit_code == 1 and f"next: 'ginlog audit {tmp_path}'" in r.stdout


def test_repair_of_a_tampered_file_points_to_validate(app: Any, tmp_path: Path) -> None:
    edited = tmp_path / "edited.jsonl"
    shutil.copy(SAMPLES / "invalid" / "edited-line.jsonl", edited)
    r = run(app, "repair", edited)
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0].endswith("[chain]") and f"'ginlog validate {edited}'" in r.stdout
    torn = tmp_path / "torn.jsonl"
    shutil.copy(SAMPLES / "invalid" / "torn-tail.jsonl", torn)
    r = run(app, "repair", torn)
    assert r.exit_code == 0 and f"'ginlog record {torn}' resumes" in r.stdout


# ---------------------------------------------------------------------------
# Ctrl-C: one line, 130, in every command (but the recorder's line editor, which keeps its own)


def on_a_pty(*args: object, typed: bytes = b"", piped: bytes | None = None, ready: bytes | None = None,
             interrupt: bool = False) -> tuple[int, str]:
    """Run ``ginlog ARGS`` with its output on a pseudo-terminal (``tests/ptys.py``, forked where it can be): standard
    input the terminal too (``typed`` is typed there, echo off), or a pipe holding ``piped``. With ``interrupt``,
    a moment after ``ready`` is in the output (or after a moment), SIGINT as Ctrl-C sends it. The exit code and
    the output."""
    code, out = ptys.on_a_pty(*args, env=ptys.terminal_env(COLUMNS="120"), typed=typed, piped=piped, ready=ready,
                              interrupt=interrupt, timeout=30)
    return code, out.decode("utf-8", "replace").replace("\r\n", "\n")


def test_ctrl_c_is_one_line_and_130(friday: Path, tmp_path: Path) -> None:
    over = tmp_path / "over.jsonl"
    shutil.copy(SAMPLES / "score-pad-match.jsonl", over)
    before = over.read_bytes()
    for args, ready in ((["score", "-"], None), (["replay", friday, "--step"], b"Enter: next event"),
                        (["undo", over], b"[y/N]")):
        code, text = on_a_pty(*args, ready=ready, interrupt=True)
        assert code == 130, (args, text)
        assert text.rstrip().endswith("ginlog: interrupted") and "Traceback" not in text, (args, text)
    assert over.read_bytes() == before


def test_the_top_level_help_has_an_example(app: Any) -> None:
    r = run(app, "--help")
    assert r.exit_code == 0 and "Example: ginlog samples games" in r.stdout
