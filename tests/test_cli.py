"""The ``ginlog`` command line, driven in process (Typer's CliRunner) and as the real executable.

Most cases run in process, which is fast. The real executable (the console
script next to the interpreter) is used where only it can tell: ``play``'s fast
path that skips Typer, exit codes as the shell sees them, entries piped into
``record``, standard input given as ``-``, and colour on a real terminal.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
import typer
import typer.main

import ptys
from forked import can_fork, run_forked
from typer.testing import CliRunner, Result

from ginlog import __version__
from ginlog.log import events as E
from ginlog.app.cli import command, main
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.play.reducer import fold
from ginlog.game.rules import preset
from ginlog.play.simulate import simulate_match

GINLOG = Path(sys.executable).parent / "ginlog"

#: The README's example hand: Bob knocks with 1, Ann is left with 62, Bob scores 61.
HAND = [
    "dealer Ann",
    "upcard 7h",
    "pass",
    "pass",
    "stock",
    "knock qc",
    "show 2h 3h 4h 8c 8d 8s 5s 6s 7s ad",
    "show 5h 6h 8h jc qh kd 9d 9c 4c td",
]
#: The same hand up to Bob's mistaken discard (event 7), Ann to draw.
TO_DISCARD = [*HAND[:5], "discard qc"]

OUTCOMES = {"knock", "undercut", "gin", "big_gin", "void"}
ONE_LINE = re.compile(r"^(?P<file>[^\s:][^:]*?)(:(?P<line>\d+))?: (event (?P<event>\d+): )?(?P<msg>.+) \[(?P<rule>[a-z0-9-]+)\]$")
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


# ---------------------------------------------------------------------------
# Helpers


@pytest.fixture(scope="module")
def app() -> Any:
    """The command line as the click command ``main()`` runs, made once per process (``ginlog.app.cli.command``)."""
    return command()


def invoke(app: Any, args: Sequence[str], *, input: str | bytes | None = None,
           env: Mapping[str, str | None] | None = None) -> Result:
    """Typer's ``CliRunner().invoke(app, args)``, on a click command as well as on a Typer app.

    *Why:* given the Typer app, the runner makes the click command of it again at every call (Typer reads every
    command's signature: about 20 ms of CPU, and the default run made 436 of them); given the command that
    ``main()`` runs (the ``app`` fixture), it runs it as it is. The same isolation (standard streams, input,
    environment), exit status and exception as the runner's own ``invoke``.
    """
    if isinstance(app, typer.Typer):
        app = typer.main.get_command(app)
    runner = CliRunner()
    exception: BaseException | None = None
    exc_info: Any = None
    code = 0
    with runner.isolation(input=input, env=env) as (out, err, both):
        try:
            app.main(args=list(args), prog_name=app.name or "root")
        except SystemExit as exc:
            status = 0 if exc.code is None else exc.code
            if not isinstance(status, int):
                sys.stdout.write(f"{status}\n")
                status = 1
            code, exception = status, (exc if status != 0 else None)
        except Exception as exc:
            code, exception, exc_info = 1, exc, sys.exc_info()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr, output = out.getvalue(), err.getvalue(), both.getvalue()
    return Result(runner=runner, stdout_bytes=stdout, stderr_bytes=stderr, output_bytes=output, return_value=None,
                  exit_code=code, exception=exception, exc_info=exc_info)


def run(app: Any, *args: object, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    """Invoke the command line in process (:func:`invoke`); a Python exception (not SystemExit) is a failure."""
    result = invoke(app, [str(a) for a in args], input=input, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"ginlog {' '.join(map(str, args))} raised {result.exception!r}") from result.exception
    assert "Traceback" not in result.output
    return result


def exe(*args: object, input: str | bytes | None = None, env: dict[str, str] | None = None, cwd: Path | None = None,
        python_flags: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """Run the installed ``ginlog`` executable (through ``main()``, so with the fast path)."""
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    base = dict(os.environ)
    for k in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        base.pop(k, None)
    base.update(env or {})
    data = input.encode() if isinstance(input, str) else input
    if not python_flags and can_fork(base):  # the same main(), without the interpreter's start (tests/forked.py)
        proc = run_forked([str(GINLOG), *map(str, args)], input=data, env=base, cwd=cwd, timeout=120)
    else:
        proc = subprocess.run(
            [sys.executable, *python_flags, str(GINLOG), *map(str, args)],
            input=data, capture_output=True, env=base, cwd=cwd, timeout=120,
        )
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    # Never a terminal here, so never an escape sequence (colour only on a terminal).
    assert "\x1b[" not in out.stdout + out.stderr, (args, out.stdout[-500:], out.stderr[-500:])
    return out


def assert_one_line_error(stderr: str, path: str | None = None, rule: str | None = None,
                          need_line: bool = False, need_event: bool = False) -> re.Match[str]:
    lines = [x for x in stderr.splitlines() if x.strip()]
    assert len(lines) == 1, f"expected one error line, got {stderr!r}"
    m = ONE_LINE.match(lines[0])
    assert m, f"not 'FILE:LINE: event N: ... [rule]': {lines[0]!r}"
    if path is not None:
        assert m["file"] == path, lines[0]
    if rule is not None:
        assert m["rule"] == rule, lines[0]
    if need_line:
        assert m["line"] is not None, lines[0]
    if need_event:
        assert m["event"] is not None, lines[0]
    return m


def write_events(path: Path, events: Sequence[E.Event]) -> Path:
    """A match file holding ``events``, written through the session (every event checked)."""
    MatchSession.write(path, events)
    return path


def winner_of(state: Any) -> str | None:
    """The match winner's name (the state says who by seat)."""
    return None if state.winner is None else state.players[state.winner]


def totals_of(state: Any) -> dict[str, int]:
    return dict(zip(state.players, state.totals()))


def entry_for(ev: E.Event) -> str | None:
    """The entry typed at the table for one simulated (table-view) event; None for match_started."""
    if isinstance(ev, E.MatchStarted):
        return None
    if isinstance(ev, E.FirstDealer):
        return f"dealer {ev.dealer}"
    if isinstance(ev, E.HandDealt):
        return f"upcard {ev.upcard}"
    if isinstance(ev, E.UpcardPassed):
        return "pass"
    if isinstance(ev, E.CardDrawn):
        return "take" if ev.source == "pile" else "stock"
    if isinstance(ev, E.CardDiscarded):
        return f"discard {ev.card}"
    if isinstance(ev, E.Knocked):
        return f"knock {ev.card}"
    if isinstance(ev, E.Gin):
        return f"gin {ev.card}"
    if isinstance(ev, E.BigGin):
        return "biggin"
    if isinstance(ev, E.HandShown):
        return "show " + " ".join(str(c) for c in ev.cards)
    raise AssertionError(f"no entry for {ev!r}")


def entries_for(events: Sequence[E.Event]) -> list[str]:
    return [e for e in map(entry_for, events) if e is not None]


def as_recorded(state: Any) -> Any:
    """A simulated match's first dealer is 'random'; typed as 'dealer NAME' it is 'agreed'."""
    return attrs.evolve(state, first_dealer_how="agreed")


def last_line_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes().rstrip(b"\n").split(b"\n")[-1]).hexdigest()


def new_file(app: Any, path: Path, rules: str = "standard") -> Path:
    r = run(app, "new", path, "--player", "Ann", "--player", "Bob", "--rules", rules)
    assert r.exit_code == 0, r.output
    return path


@pytest.fixture
def friday(app: Any, tmp_path: Path) -> Path:
    """The README's match after its hand: 9 events, Bob 61."""
    path = new_file(app, tmp_path / "friday.jsonl")
    r = run(app, "play", path, *HAND)
    assert r.exit_code == 0, r.output
    return path


@pytest.fixture
def at_discard(app: Any, tmp_path: Path) -> Path:
    """The README's hand up to Bob's discard of the Q♣ (event 7); Ann must draw."""
    path = new_file(app, tmp_path / "discard.jsonl")
    r = run(app, "play", path, *TO_DISCARD)
    assert r.exit_code == 0, r.output
    return path


@pytest.fixture(scope="module")
def sim_standard() -> list[E.Event]:
    return simulate_match(preset("standard"), seed=1, mode="table")


# ---------------------------------------------------------------------------
# --version, --help


def test_main_runs_the_command_made_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``main()`` runs the click command made once per process (``ginlog.app.cli.command``), not one that Typer
    makes again at every call: what lets a forked child of a warm process skip it (tests/forked.py)."""
    made: list[Any] = []
    real = typer.main.get_command

    def counted(typer_app: Any) -> Any:
        made.append(typer_app)
        return real(typer_app)

    monkeypatch.setattr(typer.main, "get_command", counted)
    command.cache_clear()
    try:
        for _ in range(2):
            with pytest.raises(SystemExit) as exc:
                main(["--version"])
            assert exc.value.code == 0
    finally:
        command.cache_clear()
    assert capsys.readouterr().out == f"ginlog {__version__}\n" * 2
    assert len(made) == 1


def test_version(app: Any) -> None:
    r = run(app, "--version")
    assert r.exit_code == 0
    assert r.stdout.strip() == f"ginlog {__version__}"
    p = exe("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"ginlog {__version__}"


def _leaf_commands(app: Any) -> list[list[str]]:
    out: list[list[str]] = []

    def walk(cmd: Any, path: list[str]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
        else:
            out.append(path)

    walk(app, [])
    return out


def test_every_command_is_there(app: Any) -> None:
    names = {" ".join(p) for p in _leaf_commands(app)}
    assert names >= {"new", "play", "record", "undo", "repair", "show", "replay", "score", "validate", "audit",
                     "schema", "rules", "import openspiel"}


def test_help_of_every_command_has_an_example(app: Any) -> None:
    for path in _leaf_commands(app):
        r = run(app, *path, "--help")
        assert r.exit_code == 0, (path, r.output)
        assert "Example" in r.output, f"ginlog {' '.join(path)} --help has no example"
        assert "ginlog " in r.output


def test_play_help_through_the_executable_reaches_typer(tmp_path: Path) -> None:
    p = exe("play", tmp_path / "x.jsonl", "--help")
    assert p.returncode == 0, p.stderr
    assert "Example" in p.stdout and "all entries are legal" in p.stdout.replace("\n", " ").replace("  ", " ")
    assert not (tmp_path / "x.jsonl").exists()


def test_commands_are_plain_functions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each command can be called directly, its options defaulting as on the command line; it returns its exit code."""
    from ginlog.app.cli import read, record

    path = str(tmp_path / "m.jsonl")
    record.new(path, ["Ann", "Bob"])
    assert capsys.readouterr().out == f"{path}: new match, Ann v Bob, rules standard\n"
    assert record.play(path, HAND[:2]) == 0
    assert capsys.readouterr().out == f"{path}: 2 event(s) appended, now at event 3\n"
    read.score(path, json_=True)
    assert json.loads(capsys.readouterr().out)["totals"] == {"Ann": 0, "Bob": 0}
    with pytest.raises(SystemExit) as exit_info:
        record.play(path, ["discard 7h"])  # Bob's upcard offer: take or pass
    assert exit_info.value.code == 1
    assert_one_line_error(capsys.readouterr().err, path=path, need_line=True, need_event=True)


# ---------------------------------------------------------------------------
# new


def test_new_creates_a_match_file(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, "--player", "Ann", "--player", "Bob")
    assert r.exit_code == 0
    assert r.stdout == f"{path}: new match, Ann v Bob, rules standard\n"
    lines = path.read_bytes().splitlines()
    assert len(lines) == 1
    first = json.loads(lines[0])
    assert first["seq"] == 1 and first["type"] == "match_started" and first["prev"] is None
    assert first["players"] == ["Ann", "Bob"] and first["rules"]["knock_limit"] == 10


def test_new_with_a_preset_and_knobs(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, "-p", "Ann", "-p", "Bob", "--rules", "modern", "--set", "knock_limit=9",
            "--title", "Club night")
    assert r.exit_code == 0, r.output
    assert r.stdout.strip().endswith("rules modern with knock_limit=9")
    first = json.loads(path.read_bytes())
    assert first["rules"]["knock_limit"] == 9 and first["rules"]["gin_bonus"] == 25
    assert first["title"] == "Club night"


def test_new_refuses_to_overwrite(app: Any, friday: Path) -> None:
    before = friday.read_bytes()
    r = run(app, "new", friday, "--player", "Cy", "--player", "Di")
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(friday))
    assert "exists" in r.stderr
    assert friday.read_bytes() == before
    p = exe("new", friday, "--player", "Cy", "--player", "Di")
    assert p.returncode == 1 and friday.read_bytes() == before
    assert_one_line_error(p.stderr, path=str(friday))


@pytest.mark.parametrize(
    "extra",
    [
        ["--player", "Ann", "--player", "Bob", "--rules", "nope"],
        ["--player", "Ann", "--player", "Bob", "--set", "no_such_knob=1"],
        ["--player", "Ann", "--player", "Bob", "--set", "knock_limit=abc"],
        ["--player", "Ann", "--player", "Bob", "--set", "knock_limit"],
        ["--player", "Ann"],
        ["--player", "Ann", "--player", "Bob", "--player", "Cy"],
        [],
    ],
    ids=["bad-preset", "unknown-knob", "bad-knob-value", "set-without-value", "one-player", "three-players", "no-player"],
)
def test_new_usage_errors_exit_2_and_write_nothing(app: Any, tmp_path: Path, extra: list[str]) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, *extra)
    assert r.exit_code == 2, r.output
    assert not path.exists()


def test_new_same_name_twice_is_a_usage_error(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, "-p", "Ann", "-p", "Ann")
    assert not path.exists()
    assert r.exit_code == 2


# ---------------------------------------------------------------------------
# record


def test_record_the_readme_hand_through_the_executable(app: Any, tmp_path: Path) -> None:
    path = new_file(app, tmp_path / "friday.jsonl")
    p = exe("record", path, input="\n".join([*HAND, "quit"]) + "\n")
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stderr == ""
    assert "ok 2: Ann deals first (agreed)" in p.stdout
    assert "ok 3: Hand 1: Ann deals; upcard 7♥" in p.stdout
    assert "ok 7: Bob knocks, Q♣ face down" in p.stdout
    assert "Ann lays off 5♥ 6♥ 8♥ and has 62: Bob scores 61." in p.stdout
    assert "Score: Ann 0, Bob 61" in p.stdout
    assert p.stdout.rstrip().endswith(f"Stopped at event 9; 'ginlog record {path}' resumes.")
    data = json.loads(run(app, "score", path, "--json").stdout)
    assert data["totals"] == {"Ann": 0, "Bob": 61}
    assert data["hands"][0]["outcome"] == "knock" and data["hands"][0]["winner"] == "Bob"
    # Cards are forgiving on input and canonical in the file.
    rows = [json.loads(x) for x in path.read_bytes().splitlines()]
    assert rows[2]["upcard"] == "7H" and rows[6]["card"] == "QC"


def test_record_forgiving_card_spellings(app: Any, tmp_path: Path) -> None:
    path = new_file(app, tmp_path / "m.jsonl")
    r = run(app, "record", path, input="dealer ann\nup 7♡\np\np\ns\nd Q♣\ns\nd Th\n")
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in path.read_bytes().splitlines()]
    assert [r_["type"] for r_ in rows[1:]] == ["first_dealer", "hand_dealt", "upcard_passed", "upcard_passed",
                                              "card_drawn", "card_discarded", "card_drawn", "card_discarded"]
    assert rows[2]["upcard"] == "7H" and rows[6]["card"] == "QC" and rows[8]["card"] == "TH"
    assert rows[1]["dealer"] == "Ann"


def test_record_a_whole_match_through_the_executable(app: Any, tmp_path: Path, sim_standard: list[E.Event]) -> None:
    path = new_file(app, tmp_path / "match.jsonl")
    p = exe("record", path, input="\n".join(entries_for(sim_standard)) + "\n")
    expected = fold(sim_standard).state
    assert p.returncode == 0, p.stdout[-2000:]
    assert "refused" not in p.stdout
    assert p.stdout.rstrip().endswith(f"Winner: {winner_of(expected)}")
    _check_recorded_match(app, path, sim_standard)


@pytest.mark.parametrize(("rules", "seed"), [("standard", 2), ("modern", 5)])
def test_record_a_whole_match_in_process(app: Any, tmp_path: Path, rules: str, seed: int) -> None:
    events = simulate_match(preset(rules), seed=seed, mode="table")
    path = new_file(app, tmp_path / "match.jsonl", rules=rules)
    r = run(app, "record", path, input="\n".join(entries_for(events)) + "\n")
    assert r.exit_code == 0, r.stdout[-2000:]
    _check_recorded_match(app, path, events)


def _check_recorded_match(app: Any, path: Path, events: list[E.Event]) -> None:
    expected = fold(events).state
    assert expected.phase == "over"
    assert len(path.read_bytes().splitlines()) == len(events)
    audit = run(app, "audit", path, "--json")
    assert audit.exit_code == 0, audit.output
    summary = json.loads(audit.stdout)["summary"]
    assert summary["ok"] == 1 and summary["invalid"] == 0 and summary["finished"] == 1
    sheet = json.loads(run(app, "score", path, "--json").stdout)
    assert sheet["totals"] == totals_of(expected)
    assert sheet["winner"] == winner_of(expected) is not None
    assert len(sheet["hands"]) == len(expected.hands)
    assert [h["outcome"] for h in sheet["hands"]] == [h.score.outcome for h in expected.hands]
    assert read_match(str(path)).state == as_recorded(expected)


def test_record_refuses_an_illegal_entry_and_goes_on(app: Any, tmp_path: Path) -> None:
    path = new_file(app, tmp_path / "m.jsonl")
    entries = [*TO_DISCARD, "knock qc", "bogus", "undo Bob meant to knock", *HAND[5:]]
    r = run(app, "record", path, input="\n".join(entries) + "\n")
    assert r.exit_code == 1  # piped, and an entry was refused
    assert "refused: Ann must draw before they knock [draw-first] (nothing written)" in r.stdout
    assert "refused: unknown entry 'bogus'" in r.stdout
    assert "ok 8: Correction: event 7 undone (Bob meant to knock)" in r.stdout
    assert "Bob scores 61" in r.stdout
    rows = [json.loads(x) for x in path.read_bytes().splitlines()]
    assert [x["type"] for x in rows[6:]] == ["card_discarded", "correction", "knocked", "hand_shown", "hand_shown"]
    assert rows[7]["undoes"] == 7
    assert json.loads(run(app, "score", path, "--json").stdout)["totals"] == {"Ann": 0, "Bob": 61}


def test_record_refusal_exit_code_through_the_executable(app: Any, at_discard: Path) -> None:
    before = at_discard.read_bytes()
    p = exe("record", at_discard, input="knock qc\nquit\nstock\n")
    assert p.returncode == 1  # piped, and an entry was refused
    assert "refused: Ann must draw before they knock [draw-first] (nothing written)" in p.stdout
    assert p.stdout.rstrip().endswith(f"Stopped at event 7; 'ginlog record {at_discard}' resumes.")
    assert at_discard.read_bytes() == before


def test_record_undo_entry_gives_the_state_without_the_undone_event(app: Any, at_discard: Path, tmp_path: Path) -> None:
    r = run(app, "record", at_discard, input="undo\n")
    assert r.exit_code == 0, r.output
    assert "ok 8: Correction: event 7 undone" in r.stdout
    without = new_file(app, tmp_path / "without.jsonl")
    assert run(app, "play", without, *TO_DISCARD[:-1]).exit_code == 0
    assert read_match(str(at_discard)).state == read_match(str(without)).state


def test_record_resumes_after_quit(app: Any, tmp_path: Path, sim_standard: list[E.Event]) -> None:
    entries = entries_for(sim_standard)
    # Stop mid-hand: just after the first draw from the stock in the second hand.
    second_deal = [i for i, e in enumerate(entries) if e.startswith("upcard")][1]
    k = next(i for i in range(second_deal, len(entries)) if entries[i] == "stock") + 1
    path = new_file(app, tmp_path / "m.jsonl")
    first = run(app, "record", path, input="\n".join([*entries[:k], "quit", *entries[k:]]) + "\n")
    assert first.exit_code == 0, first.output
    assert first.stdout.rstrip().endswith(f"Stopped at event {k + 1}; 'ginlog record {path}' resumes.")
    assert len(path.read_bytes().splitlines()) == k + 1  # nothing after 'quit' was read
    second = run(app, "record", path, input="\n".join(entries[k:]) + "\n")
    assert second.exit_code == 0, second.output
    assert f"resuming at event {k + 1}" in second.stdout.splitlines()[0]
    assert read_match(str(path)).state == as_recorded(fold(sim_standard).state)


def test_record_file_error_goes_to_stderr(app: Any, tmp_path: Path) -> None:
    # A missing file cannot be read: exit 1 (as in every command), one line saying how to start a match.
    r = run(app, "record", tmp_path / "missing.jsonl", input="note x\n")
    assert r.exit_code == 1
    assert "ginlog new" in r.stderr and "missing.jsonl" not in r.stdout
    assert_one_line_error(r.stderr, path=str(tmp_path / "missing.jsonl"), rule="file")
    # A damaged file: exit 1, one line on stderr naming the place and the rule.
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    r = run(app, "record", bad, input="note x\n")
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, rule="json")
    assert "bad.jsonl" not in r.stdout


# ---------------------------------------------------------------------------
# play, undo


def test_play_appends_through_the_fast_path_without_typer(at_discard: Path) -> None:
    p = exe("play", at_discard, "stock", "discard 5c", python_flags=["-X", "importtime"])
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"{at_discard}: 2 event(s) appended, now at event 9\n"
    imported = {ln.rsplit("|", 1)[1].strip() for ln in p.stderr.splitlines() if ln.startswith("import time:")}
    assert "ginlog.app.cli" in imported
    heavy = sorted(m for m in imported if m.split(".")[0] in ("typer", "rich", "click"))
    assert not heavy, f"the play fast path imported {heavy[:5]}"


@pytest.mark.parametrize("name", [b"caf\xe9.jsonl", "café.jsonl".encode()], ids=["latin-1", "utf-8"])
def test_play_says_what_it_appended_on_an_ascii_stdout(tmp_path: Path, name: bytes) -> None:
    """Issue 13 (files): the events are written, so the line saying so must not die on the file's name
    (not UTF-8, or not ASCII on an ASCII-only standard output): exit 0, the name shown visibly."""
    path = os.fsdecode(os.fsencode(tmp_path) + b"/" + name)
    MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
    p = exe("play", path, "dealer Ann", env={"PYTHONIOENCODING": "ascii:strict"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.endswith(": 1 event(s) appended, now at event 2\n") and p.stdout.isascii()
    assert ("<U+DCE9>" if name.startswith(b"caf\xe9") else "caf\\xe9") in p.stdout
    assert MatchSession.open(path).seq == 2


@pytest.mark.parametrize("command", [["replay"], ["score"], ["show"], ["undo"], ["validate"], ["audit"], ["stats"],
                                     ["export", "--format", "csv"]], ids=lambda c: c[0])
def test_every_command_survives_an_ascii_only_stdout(at_discard: Path, command: list[str]) -> None:
    """A suit (♥) on a standard output that cannot encode it is shown escaped, never a traceback after the work."""
    p = exe(command[0], at_discard, *command[1:], env={"PYTHONIOENCODING": "ascii:strict"})
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert p.stdout.strip()


def test_play_in_process(app: Any, at_discard: Path) -> None:
    # Each argument is one whole entry (issue 13): words are no longer glued into entries.
    before = at_discard.read_bytes()
    r = run(app, "play", at_discard, "stock", "discard", "5c", "note", "split", "words")
    assert r.exit_code == 1 and at_discard.read_bytes() == before
    assert_one_line_error(r.stderr, path=str(at_discard), rule="entry")
    r = run(app, "play", at_discard, "stock", "discard 5c", "note split words")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{at_discard}: 3 event(s) appended, now at event 10\n"
    rows = [json.loads(x) for x in at_discard.read_bytes().splitlines()]
    assert rows[-1]["type"] == "note" and rows[-1]["text"] == "split words"
    assert rows[-2] == {**rows[-2], "type": "card_discarded", "player": "Ann", "card": "5C"}


@pytest.mark.parametrize(
    "entries",
    [["knock qc"], ["stock", "stock"], ["note fine", "stock", "discard 5c", "take", "discard 5c", "bogus"]],
    ids=["single", "second-illegal", "last-unparsable"],
)
def test_play_is_all_or_nothing_in_process(app: Any, at_discard: Path, entries: list[str]) -> None:
    before = at_discard.read_bytes()
    r = run(app, "play", at_discard, *entries)
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(at_discard))
    assert at_discard.read_bytes() == before


def test_play_single_illegal_entry_error_line(app: Any, at_discard: Path) -> None:
    before = at_discard.read_bytes()
    r = run(app, "play", at_discard, "knock qc")
    assert r.exit_code == 1 and r.stdout == ""
    m = assert_one_line_error(r.stderr, path=str(at_discard), rule="draw-first", need_line=True, need_event=True)
    assert m["line"] == m["event"] == "8"
    assert at_discard.read_bytes() == before


def test_play_is_all_or_nothing_through_the_fast_path(at_discard: Path) -> None:
    before = at_discard.read_bytes()
    p = exe("play", at_discard, "stock", "discard 5c", "stock", "stock")
    assert p.returncode == 1
    assert p.stdout == ""
    m = assert_one_line_error(p.stderr, path=str(at_discard), rule="draw-twice", need_line=True, need_event=True)
    assert m["line"] == m["event"] == "11"  # the fourth entry, Bob's second draw
    assert at_discard.read_bytes() == before


def test_play_without_entries_is_a_usage_error(app: Any, at_discard: Path) -> None:
    r = run(app, "play", at_discard)
    assert r.exit_code == 2
    p = exe("play", at_discard)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_undo_gives_the_state_without_the_undone_event(app: Any, at_discard: Path, tmp_path: Path) -> None:
    r = run(app, "undo", at_discard, "--reason", "Bob meant to knock")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{at_discard}: 1 event(s) appended, now at event 8\nundone: event 7, Bob discards Q♣\n"
    last = json.loads(at_discard.read_bytes().splitlines()[-1])
    assert last["type"] == "correction" and last["undoes"] == 7 and last["reason"] == "Bob meant to knock"
    without = new_file(app, tmp_path / "without.jsonl")
    assert run(app, "play", without, *TO_DISCARD[:-1]).exit_code == 0
    assert read_match(str(at_discard)).state == read_match(str(without)).state
    # A second undo goes back one more effective event (Bob's draw).
    assert run(app, "undo", at_discard).exit_code == 0
    shorter = new_file(app, tmp_path / "shorter.jsonl")
    assert run(app, "play", shorter, *TO_DISCARD[:-2]).exit_code == 0
    assert read_match(str(at_discard)).state == read_match(str(shorter)).state


def test_undo_with_nothing_to_undo(app: Any, tmp_path: Path) -> None:
    path = new_file(app, tmp_path / "m.jsonl")
    before = path.read_bytes()
    r = run(app, "undo", path)
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(path), rule="correction")
    assert path.read_bytes() == before


# ---------------------------------------------------------------------------
# repair


def test_torn_tail_audit_repair_audit(app: Any, friday: Path) -> None:
    intact = friday.read_bytes()
    torn = b'{"seq":10,"ts":"2026-11-29T20'
    with open(friday, "ab") as f:
        f.write(torn)
    r = run(app, "audit", friday)
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(friday), rule="torn-tail")
    assert run(app, "play", friday, "note after the crash").exit_code == 1
    assert friday.read_bytes() == intact + torn
    r = run(app, "repair", friday)
    assert r.exit_code == 0, r.output
    assert friday.read_bytes() == intact
    side = [p for p in friday.parent.iterdir() if p.name.startswith(friday.name) and p != friday]
    assert len(side) == 1 and side[0].read_bytes() == torn
    assert str(side[0]) in r.stdout and "moved" in r.stdout
    assert run(app, "audit", friday).exit_code == 0
    assert run(app, "audit", friday.parent).exit_code == 0  # the side file is not a *.jsonl
    r = run(app, "repair", friday)
    assert r.exit_code == 0 and "nothing to repair" in r.stdout
    assert run(app, "play", friday, "note after the repair").exit_code == 0


# ---------------------------------------------------------------------------
# show, replay


def test_show_at_as(app: Any, friday: Path) -> None:
    r = run(app, "show", friday, "--at", 6, "--as", "Ann")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"{friday} at event 6:"
    assert "Score: Ann 0, Bob 0 (to 100)" in lines
    assert "Hand 1: Ann dealt; knock limit 10; stock 30; pile 7♥" in lines
    assert "  Bob: 11 cards; seen taking -" in lines
    assert "  Bob to discard, knock or go gin." in lines
    r = run(app, "show", friday)
    assert r.exit_code == 0 and r.stdout.splitlines()[0] == f"{friday} at event 9:"
    assert "Next hand: 2, Bob deals ('upcard CARD')." in r.stdout
    r = run(app, "show", friday, "--as", "Zed")
    assert r.exit_code == 2 and "Zed" in r.stderr


@pytest.fixture
def full_info(tmp_path: Path) -> Path:
    events = simulate_match(preset("standard"), seed=3, mode="full", max_hands=1)
    # seed 3: Ann deals; Bob takes the upcard 6♠ (event 4).
    assert isinstance(events[3], E.CardDrawn) and events[3].source == "pile" and str(events[3].card) == "6S"
    return write_events(tmp_path / "full.jsonl", events)


def test_show_as_a_player_hides_the_opponents_dealt_cards(app: Any, full_info: Path) -> None:
    r = run(app, "show", full_info, "--at", 4, "--as", "Ann")
    assert r.exit_code == 0
    assert "  Bob: 11 cards; seen taking 6♠" in r.stdout.splitlines()


def test_replay_from_to(app: Any, friday: Path) -> None:
    r = run(app, "replay", friday)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "   1  Match between Ann and Bob (ginlog 0.1.0)"
    assert "   3  Hand 1: Ann deals; upcard 7♥" in lines
    assert "   7  Bob knocks, Q♣ face down" in lines
    assert any("♠" in x and "♦" in x and "♣" in x for x in lines)
    assert "      Score: Ann 0, Bob 61" in lines
    r = run(app, "replay", friday, "--from", 4, "--to", 6)
    assert r.exit_code == 0
    assert r.stdout.splitlines() == ["   4  Bob passes the upcard", "   5  Ann passes the upcard",
                                     "   6  Bob draws from the stock"]


def test_replay_to_zero_is_a_usage_error(app: Any, friday: Path) -> None:
    """Events are numbered from 1: --to 0 (or --at 0) is a usage error, not an empty replay."""
    r = run(app, "replay", friday, "--to", 0)
    assert r.exit_code == 2
    assert r.stdout == ""
    r = run(app, "show", friday, "--at", 0)
    assert r.exit_code == 2


def test_replay_of_a_finished_match_names_the_winner(app: Any, tmp_path: Path, sim_standard: list[E.Event]) -> None:
    path = write_events(tmp_path / "m.jsonl", sim_standard)
    r = run(app, "replay", path)
    assert r.exit_code == 0
    assert r.stdout.splitlines()[-1] == f"Winner: {winner_of(fold(sim_standard).state)}"


# ---------------------------------------------------------------------------
# score


def test_score_json_shape(app: Any, friday: Path) -> None:
    r = run(app, "score", friday, "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert {"players", "hands", "totals", "winner", "bonuses", "head"} <= set(data)
    assert data["players"] == ["Ann", "Bob"]
    assert data["head"] == last_line_digest(friday)
    (hand,) = data["hands"]
    assert {"number", "dealer", "outcome", "winner", "points"} <= set(hand)
    assert (hand["number"], hand["dealer"], hand["outcome"], hand["winner"], hand["points"]) == (1, "Ann", "knock", "Bob", 61)
    assert data["totals"] == {"Ann": 0, "Bob": 61} and data["winner"] is None
    assert set(data["bonuses"]) == {"game", "boxes", "shutout"}


def test_score_json_of_a_finished_modern_match(app: Any, tmp_path: Path) -> None:
    events = simulate_match(preset("modern"), seed=5, mode="full")
    path = write_events(tmp_path / "m.jsonl", events)
    state = fold(events).state
    data = json.loads(run(app, "score", path, "--json").stdout)
    assert data["totals"] == totals_of(state) and data["winner"] == winner_of(state) is not None
    assert data["head"] == last_line_digest(path)
    assert [h["number"] for h in data["hands"]] == list(range(1, len(data["hands"]) + 1))
    for h in data["hands"]:
        assert h["outcome"] in OUTCOMES
        assert h["dealer"] in data["players"]
        assert (h["winner"] is None) == (h["outcome"] == "void") or h["points"] == 0
    assert data["bonuses"]["game"] == {winner_of(state): 100}
    assert data["bonuses"]["boxes"]


def test_score_sheet(app: Any, friday: Path) -> None:
    r = run(app, "score", friday)
    assert r.exit_code == 0
    assert "Totals: Ann 0, Bob 61" in r.stdout
    assert "Match in progress." in r.stdout
    assert f"Head: {last_line_digest(friday)}" in r.stdout


# ---------------------------------------------------------------------------
# Bad files: one line, no traceback, exit 1


def _bad_files(base: Path, friday: Path) -> dict[str, Path]:
    good = friday.read_bytes()
    lines = good.split(b"\n")
    files = {}
    p = base / "bad-json.jsonl"
    p.write_bytes(good + b'{"seq":10, not json\n')
    files["bad-json"] = p
    edited = list(lines)
    edited[3] = edited[3].replace(b'"player":"Bob"', b'"player":"Bob" ')  # any byte change breaks the chain
    assert edited[3] != lines[3]
    p = base / "edited.jsonl"
    p.write_bytes(b"\n".join(edited))
    files["edited"] = p
    unknown = {"seq": 10, "ts": "2026-11-29T20:01:02.345Z", "type": "frobnicate", "v": 2,
               "prev": last_line_digest(friday), "player": "Ann"}
    p = base / "unknown.jsonl"
    p.write_bytes(good + json.dumps(unknown, separators=(",", ":")).encode() + b"\n")
    files["unknown-type"] = p
    p = base / "folder.jsonl"
    p.mkdir()
    files["directory"] = p
    p = base / "empty.jsonl"
    p.write_bytes(b"")
    files["empty"] = p
    return files


EXPECTED_RULE = {"bad-json": "json", "edited": "chain", "unknown-type": "unknown-event", "directory": "file",
                 "empty": "first-event"}


@pytest.mark.parametrize("command", ["score", "validate", "replay", "show"])
def test_bad_files_give_one_line_errors(app: Any, tmp_path: Path, friday: Path, command: str) -> None:
    for kind, path in _bad_files(tmp_path, friday).items():
        if (command, kind) == ("replay", "empty"):
            continue  # a known bug, below
        r = run(app, command, path)
        assert r.exit_code == 1, (kind, r.output)
        m = assert_one_line_error(r.stderr, path=str(path), rule=EXPECTED_RULE[kind])
        if kind in ("bad-json", "edited", "unknown-type"):
            assert m["line"] is not None, (kind, r.stderr)
        if kind in ("edited", "unknown-type"):
            assert m["event"] is not None, (kind, r.stderr)
        if kind == "edited":
            assert m["line"] == "5"  # line 4 was changed: line 5's prev no longer matches


def test_replay_of_an_empty_file_is_an_error(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    r = run(app, "replay", path)
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(path), rule="first-event")


def test_bad_files_through_the_executable(tmp_path: Path, app: Any, friday: Path) -> None:
    files = _bad_files(tmp_path, friday)
    p = exe("validate", files["directory"], files["unknown-type"])
    assert p.returncode == 1
    assert len(p.stderr.strip().splitlines()) == 2
    for line in p.stderr.strip().splitlines():
        assert ONE_LINE.match(line), line


def test_validate_lists_every_problem(app: Any, tmp_path: Path, friday: Path) -> None:
    lines = friday.read_bytes().split(b"\n")
    lines[3] = lines[3] + b" "
    unknown = {"seq": 10, "ts": "2026-11-29T20:01:02.345Z", "type": "frobnicate", "v": 2,
               "prev": last_line_digest(friday)}
    path = tmp_path / "two.jsonl"
    path.write_bytes(b"\n".join(lines[:-1]) + b"\n" + json.dumps(unknown).encode() + b"\n")
    r = run(app, "validate", path)
    assert r.exit_code == 1
    errs = r.stderr.strip().splitlines()
    assert len(errs) == 2
    assert [ONE_LINE.match(e)["rule"] for e in errs] == ["chain", "unknown-event"]  # type: ignore[index]


@pytest.mark.parametrize("command", ["validate", "audit"])
def test_a_line_without_seq_is_an_error_not_a_crash(app: Any, tmp_path: Path, command: str) -> None:
    path = tmp_path / "noseq.jsonl"
    path.write_bytes(b"{}\n")
    r = invoke(app, [command, str(path)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 1
    assert "[seq]" in r.stderr


def test_validate_ok_invalid_and_json(app: Any, tmp_path: Path, friday: Path) -> None:
    r = run(app, "validate", friday)
    assert r.exit_code == 0 and r.stdout == f"{friday}: ok (9 events, 1 hands)\n"
    bad = _bad_files(tmp_path, friday)["edited"]
    r = run(app, "validate", friday, bad)
    assert r.exit_code == 1
    # The invalid file's problem on standard error; on standard output, after the clean file's line, what to run next.
    assert r.stdout == (f"{friday}: ok (9 events, 1 hands)\n"
                        f"{bad}: next: 'ginlog replay {bad} --to 4' shows the record up to its first problem\n")
    r = run(app, "validate", friday, bad, "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["ok"] is False and [f["file"] for f in data["files"]] == [str(friday), str(bad)]
    good, wrong = data["files"]
    assert good["ok"] is True and good["errors"] == [] and good["events"] == 9 and good["hands"] == 1
    assert good["head"] == last_line_digest(friday) and good["totals"] == {"Ann": 0, "Bob": 61}
    assert wrong["ok"] is False
    (err,) = wrong["errors"]
    assert set(err) == {"file", "line", "event", "rule", "message"}
    assert (err["file"], err["line"], err["event"], err["rule"]) == (str(bad), 5, 5, "chain")
    assert json.loads(run(app, "validate", friday, "--json").stdout)["ok"] is True


def test_stdin_for_score_and_validate(app: Any, tmp_path: Path, friday: Path) -> None:
    good = friday.read_bytes()
    r = run(app, "validate", "-", input=good.decode())
    assert r.exit_code == 0 and "ok (9 events, 1 hands)" in r.stdout
    p = exe("score", "-", "--json", input=good)
    assert p.returncode == 0 and json.loads(p.stdout)["head"] == last_line_digest(friday)
    p = exe("validate", "-", input=_bad_files(tmp_path, friday)["edited"].read_bytes())
    assert p.returncode == 1
    m = assert_one_line_error(p.stderr, rule="chain", need_line=True, need_event=True)
    assert m["file"] in ("-", "<stdin>")


# ---------------------------------------------------------------------------
# audit


@pytest.fixture
def club(tmp_path: Path, friday: Path, sim_standard: list[E.Event]) -> Path:
    """club/friday.jsonl (ok), club/league/week1/sim.jsonl (ok, finished), club/league/old/edited.jsonl (bad)."""
    root = tmp_path / "club"
    (root / "league" / "week1").mkdir(parents=True)
    (root / "league" / "old").mkdir(parents=True)
    shutil.copy(friday, root / "friday.jsonl")
    write_events(root / "league" / "week1" / "sim.jsonl", sim_standard)
    bad = _bad_files(tmp_path, friday)["edited"]
    shutil.copy(bad, root / "league" / "old" / "edited.jsonl")
    (root / "league" / "notes.txt").write_text("not a match\n")
    return root


def test_audit_folder_recursively_with_json_summary(app: Any, club: Path, sim_standard: list[E.Event]) -> None:
    r = run(app, "audit", club, "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert set(data) == {"summary", "files"}
    s = data["summary"]
    assert set(s) >= {"files", "ok", "invalid", "events", "hands", "finished", "errors_by_rule"}
    assert (s["files"], s["ok"], s["invalid"], s["finished"]) == (3, 2, 1, 1)
    assert s["errors_by_rule"] == {"chain": 1}
    assert s["events"] == sum(f["events"] for f in data["files"])
    assert s["hands"] == sum(f["hands"] for f in data["files"])
    names = sorted(Path(f["file"]).relative_to(club).as_posix() for f in data["files"])
    assert names == ["friday.jsonl", "league/old/edited.jsonl", "league/week1/sim.jsonl"]
    by_name = {Path(f["file"]).name: f for f in data["files"]}
    assert by_name["sim.jsonl"]["winner"] == winner_of(fold(sim_standard).state)
    assert by_name["sim.jsonl"]["phase"] == "over"
    r2 = run(app, "audit", club, "--json", "--jobs", 2)
    assert r2.exit_code == 1 and json.loads(r2.stdout) == data
    # Without --json: the problems one a line on stderr, the table on stdout.
    r3 = run(app, "audit", club)
    assert r3.exit_code == 1
    assert_one_line_error(r3.stderr, rule="chain", need_line=True, need_event=True)
    assert "Audit" in r3.stdout and "chain 1" in r3.stdout


def test_audit_globs_and_clean_folders(app: Any, club: Path) -> None:
    r = run(app, "audit", f"{club}/**/*.jsonl", "--json")
    assert json.loads(r.stdout)["summary"]["files"] == 3
    r = run(app, "audit", f"{club}/league/week*/*.jsonl", f"{club}/friday.jsonl", "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["summary"]["files"] == 2
    r = run(app, "audit", club / "league" / "week1", "--quiet")
    assert r.exit_code == 0


def test_audit_jobs_through_the_executable(club: Path) -> None:
    p = exe("audit", club, "--jobs", 2, "--json")
    assert p.returncode == 1
    assert json.loads(p.stdout)["summary"]["files"] == 3


def test_audit_anchor(app: Any, friday: Path) -> None:
    head = last_line_digest(friday)
    r = run(app, "audit", friday, "--anchor", head)
    assert r.exit_code == 0, r.output
    assert f"Head: {head}" in r.stdout
    # Lines appended later still reach the kept head.
    assert run(app, "play", friday, "note later").exit_code == 0
    assert run(app, "audit", friday, "--anchor", head).exit_code == 0
    # Cut the last two lines off: the file is intact but no longer reaches the head.
    data = friday.read_bytes().rstrip(b"\n").split(b"\n")
    friday.write_bytes(b"\n".join(data[:-2]) + b"\n")
    assert run(app, "audit", friday).exit_code == 0
    r = run(app, "audit", friday, "--anchor", head)
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(friday), rule="anchor")
    r = run(app, "audit", friday, friday, "--anchor", head)
    assert r.exit_code == 2


def test_audit_missing_path(app: Any, tmp_path: Path) -> None:
    missing = tmp_path / "nothere"
    r = run(app, "audit", missing)
    assert r.exit_code == 1
    assert_one_line_error(r.stderr, path=str(missing), rule="file")
    r = run(app, "audit", f"{tmp_path}/nothing-*.jsonl", "--json")
    assert r.exit_code == 1
    (f,) = json.loads(r.stdout)["files"]
    assert f["ok"] is False and f["errors"][0]["rule"] == "file"


# ---------------------------------------------------------------------------
# schema, rules


def test_schema(app: Any) -> None:
    if importlib.util.find_spec("ginlog.log.schema") is None:
        pytest.skip("ginlog/schema.py is being written")
    r = run(app, "schema")
    assert r.exit_code == 0, r.output
    line = json.loads(r.stdout)
    assert line["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(line["properties"]["type"]["enum"]) == set(E.EVENT_TYPES)
    r = run(app, "schema", "card_drawn")
    assert r.exit_code == 0
    drawn = json.loads(r.stdout)
    assert {"seq", "ts", "type", "v", "prev", "player", "source", "card"} <= set(drawn["properties"])
    assert {"player", "source"} <= set(drawn["required"]) and "card" not in drawn["required"]
    assert "stock" in json.dumps(drawn["properties"]["source"]) and "pile" in json.dumps(drawn["properties"]["source"])
    r = run(app, "schema", "no_such_event")
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1


def test_rules(app: Any) -> None:
    r = run(app, "rules")
    assert r.exit_code == 0
    names = [ln.split()[0] for ln in r.stdout.splitlines()[:6]]
    assert names == ["standard", "newspaper", "modern", "classic", "oklahoma", "openspiel"]
    r = run(app, "rules", "modern")
    assert r.exit_code == 0
    knobs = {ln.split()[0]: ln.split()[1] for ln in r.stdout.splitlines() if ln.strip()}
    assert knobs["gin_bonus"] == "25" and knobs["big_gin_bonus"] == "31" and knobs["shutout"] == '"double"'
    assert knobs["knock_limit"] == "10"
    r = run(app, "rules", "nope")
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# Colour


def test_no_ansi_when_not_a_terminal(app: Any, friday: Path, club: Path) -> None:
    for args in (["replay", friday], ["score", friday], ["audit", club], ["show", friday], ["rules", "modern"]):
        r = run(app, *args, env={"NO_COLOR": "1"})
        assert "\x1b[" not in r.output, args
    # exe() itself checks every output of the executable (never a terminal) for escape sequences.
    p = exe("replay", friday, env={"NO_COLOR": "1"})
    assert p.returncode == 0 and "\x1b[" not in p.stdout + p.stderr


def test_no_colour_with_no_color_on_a_terminal(club: Path) -> None:
    """On a real terminal with NO_COLOR set: no colour codes (bold and dim are not colour)."""
    code, out = ptys.on_a_pty("audit", club, env=ptys.terminal_env(NO_COLOR="1", COLUMNS="100"), echo=True)
    text = out.decode(errors="replace")
    assert code == 1
    assert "Audit" in text and "Traceback" not in text
    assert not COLOUR_SGR.search(text), sorted(set(re.findall(r"\x1b\[[0-9;]*m", text)))
