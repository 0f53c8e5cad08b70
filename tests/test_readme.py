"""The README cannot go stale: every command block is executed as written, and its tables and JSON are checked
against the code.

Every ```console, ```sh and ```bash block is run, in order, in one empty temporary folder, with the venv's
``bin`` first on PATH, but a block right after a ``<!-- not run: WHY -->`` line (the set-up commands, run
by the slow test and ``.ci/run``; the cluster's). In a console block a ``$ `` line is a command and the lines
after it its standard output, which must be equal (trailing spaces aside); in an sh block each line is a
command, its output not shown. A command must exit 0, or the code its trailing ``# exit N`` comment says; one
whose shown output says ``refused:`` may exit 1 (a piped ``ginlog record`` that refused an entry). A ``pip``
line is not run (the test's venv has what it names), nor ``python -c "import X...`` without X installed
(duckdb is optional): each such skip is said. To keep the CPU small, a plain ``ginlog ARGS`` (or
``COMMAND | ginlog ARGS``) runs ginlog's ``main()`` in a forked child (tests/forked.py), without an
interpreter's start; anything else runs in bash.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from forked import can_fork, run_forked

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLES = ROOT / "sample_games"
BIN = Path(sys.executable).parent
GINLOG = BIN / "ginlog"

SETUP_COMMANDS = (
    "python3 -m venv .venv && . .venv/bin/activate && pip install -q -e . && ginlog score sample_games/standard-match.jsonl",
    "python3 -m venv .venv && . .venv/bin/activate && pip install -q -e '.[test]' && mypy && lint-imports && python -m pytest",
)


def readme() -> str:
    return README.read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    """The text under a ``#`` heading, up to the next heading of any level."""
    m = re.search(rf"^#+ {re.escape(title)}\s*$(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert m, f"README has no section {title!r}"
    return m.group(1)


@attrs.frozen
class Command:
    """One command of a README block: as written, the standard output shown (None: not shown), the exit codes
    it may end with, and the README line it is on."""

    text: str
    output: list[str] | None
    codes: tuple[int, ...]
    line: int


_EXIT = re.compile(r"\s#\s*exit (\d+)\b")


def _codes(cmd: str, output: list[str] | None) -> tuple[int, ...]:
    if m := _EXIT.search(cmd):
        return (int(m.group(1)),)
    return (0, 1) if output and any("refused:" in line for line in output) else (0,)


def command_blocks(text: str) -> list[list[Command]]:
    """Each runnable block (```console, ```sh, ```bash; not after ``<!-- not run: ... -->``) as its commands."""
    lines = text.splitlines()
    blocks: list[list[Command]] = []
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if not fence.startswith("```") or fence == "```":
            i += 1
            continue
        kind = fence[3:].strip()
        above = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        assert end is not None, f"README line {i + 1}: a block is not closed"
        if kind in ("console", "sh", "bash") and not above.startswith("<!-- not run:"):
            blocks.append(_commands(kind, lines, i + 1, end))
        i = end + 1
    return blocks


def _commands(kind: str, lines: list[str], start: int, end: int) -> list[Command]:
    found: list[tuple[str, list[str] | None, int]] = []
    i = start
    while i < end:
        line = lines[i]
        at = i + 1
        if kind == "console" and not line.startswith("$ "):
            assert found, f"README line {at}: output before any '$ ' command"
            out = found[-1][1]
            assert out is not None
            out.append(line.rstrip())
            i += 1
            continue
        cmd = line[2:] if kind == "console" else line
        while cmd.endswith("\\") and i + 1 < end:
            i += 1
            cmd = cmd[:-1] + "\n" + lines[i]
        if cmd.strip() and not cmd.lstrip().startswith("#"):
            found.append((cmd, [] if kind == "console" else None, at))
        i += 1
    return [Command(cmd, out, _codes(cmd, out), at) for cmd, out, at in found]


def walkthrough_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    """The console blocks' commands and outputs (what the slow set-up test replays after a fresh install)."""
    return [[(c.text, c.output or []) for c in block] for block in command_blocks(text) if all(c.output is not None for c in block)]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "COLUMNS")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def _sh(cmd: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _plain_ginlog(words: str, cwd: Path) -> list[str] | None:
    """``ginlog ARGS`` as bash would pass it, if its words are plain (quotes, and globs that match, expanded as
    bash does, sorted); None for anything else (a variable, a redirection, a substitution)."""
    if re.search(r"[$`<>;&(){}\\]", words.replace("\\n", "")) or words.split()[:1] != ["ginlog"]:
        return None
    try:
        lexer = shlex.shlex(words, posix=True, punctuation_chars=False)
        lexer.whitespace_split = True
        lexer.commenters = ""
        argv = list(lexer)
    except ValueError:
        return None
    quoted = set(re.findall(r"'([^']*)'|\"([^\"]*)\"", words))
    out: list[str] = []
    for word in argv:
        if any(ch in word for ch in "*?[") and not any(word in q for q in quoted):
            found = sorted(str(Path(m).relative_to(cwd)) for m in glob.glob(str(cwd / word)))
            if not found:
                return None
            out.extend(found)
        else:
            out.append(word)
    return out


def run_command(cmd: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``cmd`` as bash runs it; a plain ``ginlog ARGS`` (or ``COMMAND | ginlog ARGS``) forked, without an
    interpreter's start, where a fork sees what a fresh process would (tests/forked.py)."""
    bare = _EXIT.split(cmd)[0].rstrip()
    left, bar, right = bare.rpartition(" | ")
    argv = _plain_ginlog(right if bar else bare, cwd)
    if argv is None or not can_fork(env) or not GINLOG.exists():
        return _sh(cmd, cwd, env)
    feed = b""
    if bar:
        if "ginlog" in left:
            return _sh(cmd, cwd, env)
        first = subprocess.run(["bash", "-c", left], cwd=cwd, env=env, capture_output=True, timeout=60)
        feed = first.stdout
    p = run_forked([str(GINLOG), *argv[1:]], input=feed, env=env, cwd=cwd, timeout=300)
    return subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode("utf-8", "replace"),
                                       p.stderr.decode("utf-8", "replace"))


def _skip_why(cmd: str) -> str | None:
    if cmd.split()[0] == "pip":
        return f"{cmd!r} installs packages"
    m = re.match(r"python -c \"import (\w+)", cmd)
    if m and importlib.util.find_spec(m.group(1)) is None:
        return f"{cmd[:40]!r}...: {m.group(1)} is not installed"
    return None


# ---------------------------------------------------------------------------
# The README's blocks


def test_command_blocks_are_found() -> None:
    blocks = command_blocks(readme())
    assert len(blocks) >= 6
    commands = [c.text for b in blocks for c in b]
    assert commands[0].startswith("ginlog new friday.jsonl")
    assert any(c.startswith("ginlog replay") for c in commands) and any(c.startswith("ginlog samples") for c in commands)
    assert any("duckdb" in c for c in commands), "the DuckDB example is run"
    assert not any("pip install -q -e" in c for c in commands), "the set-up commands are the slow test's and .ci/run's"
    assert not any("sample_games" in c for c in commands), "the blocks write in a scratch folder, with 'ginlog samples'"


def test_every_block_runs_as_written(tmp_path: Path) -> None:
    if not (BIN / "ginlog").exists():
        pytest.skip(f"no ginlog executable in {BIN}")
    env = _env()
    _warm_up(tmp_path / "warm")
    skipped: list[str] = []
    outputs: dict[str, str] = {}
    ran = 0
    for block in command_blocks(readme()):
        for c in block:
            if (why := _skip_why(c.text)) is not None:
                skipped.append(why)
                continue
            p = run_command(c.text, tmp_path, env)
            ran += 1
            where = f"README line {c.line}, {c.text!r}"
            assert "Traceback" not in p.stdout + p.stderr, f"{where}:\n{p.stderr}"
            assert p.returncode in c.codes, f"{where} exited {p.returncode}, not {c.codes}:\n{p.stdout}\n{p.stderr}"
            outputs[c.text] = p.stdout
            if c.output:
                actual = [line.rstrip() for line in p.stdout.splitlines()]
                while actual and not actual[-1]:
                    actual.pop()
                want = list(c.output)
                while want and not want[-1]:
                    want.pop()
                assert actual == want, f"{where}: output differs from the README"
    assert ran >= 10
    assert not (ROOT / "friday.jsonl").exists() and not (ROOT / "club").exists() and not (ROOT / "games").exists()
    _check_score_json(outputs["ginlog score friday.jsonl --json"])
    _check_prose_commands(tmp_path, env)
    if skipped:
        pytest.skip("every block ran, but: " + "; ".join(skipped))


def _warm_up(folder: Path) -> None:
    """Run the commands once in this process, so every forked child inherits their imports and the converters
    cattrs writes (each child's 0.3 CPU-s becomes 0.05)."""
    from ginlog.app.cli import command

    from test_cli import invoke

    app = command()  # the one the children run, made here once
    match = str(SAMPLES / "standard-match.jsonl")
    folder.mkdir()
    for args in (["score", match], ["replay", match, "--to", "30"], ["audit", str(SAMPLES / "invalid"), "-q"],
                 ["new", str(folder / "w.jsonl"), "-p", "Ann", "-p", "Bob"]):
        invoke(app, args)
    import ginlog.app.record.recorder  # noqa: F401 - imported for the children


def _check_score_json(real_text: str) -> None:
    """The README's ``score --json`` example is the walkthrough's, key for key and value for value (but the
    hand's date, the head, and the knobs the example leaves out)."""
    text = section(readme(), "JSON output")
    shown = json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))  # type: ignore[union-attr]
    real = json.loads(real_text)
    assert list(shown) == list(real), "the README's score --json keys differ from the real ones"
    assert list(shown["hands"][0]) == list(real["hands"][0]), "the README's hand keys differ from the real ones"
    for key in real:
        if key not in ("rules", "head", "hands"):
            assert shown[key] == real[key], f"score --json's {key!r} in the README is not the real one"
    hand, real_hand = shown["hands"][0], real["hands"][0]
    assert {k: v for k, v in hand.items() if k != "date"} == {k: v for k, v in real_hand.items() if k != "date"}
    knobs = {k: v for k, v in shown["rules"].items() if k != "..."}
    assert knobs and knobs == {k: real["rules"][k] for k in knobs}


def _check_prose_commands(folder: Path, env: dict[str, str]) -> None:
    """Commands the walkthrough's prose names: show --at 6 --as Ann; audit --anchor HEAD."""
    p = run_command("ginlog show friday.jsonl --at 6 --as Ann", folder, env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "friday.jsonl at event 6:"
    p = run_command("ginlog score friday.jsonl --json", folder, env)
    head = json.loads(p.stdout)["head"]
    p = run_command(f"ginlog audit friday.jsonl --anchor {head}", folder, env)
    assert p.returncode == 0, p.stderr


@pytest.mark.slow  # a venv and a pip install: about 9 CPU-s. test_every_block_runs_as_written runs them in the default run.
def test_the_first_command_leaves_ginlog_ready_for_the_walkthrough(tmp_path: Path) -> None:
    """The README's first command, typed in a fresh copy, leaves ``ginlog`` on PATH: the walkthrough runs after it.

    One bash session, as a reader's terminal: the set-up command, then every
    walkthrough command in a folder beside it, with nothing of this test's
    own venv on PATH (issue 14: after the old first command the
    walkthrough's first command failed, "ginlog: command not found").
    """
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout to copy its files")
    src = tmp_path / "ginlog"
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           stdout=subprocess.PIPE, check=True).stdout.split(b"\0")
    for f in filter(None, files):
        name = f.decode()
        if (ROOT / name).is_symlink():  # sample_games: a link to ginlog/samples, kept a link
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(ROOT / name), src / name)
        elif (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    work = tmp_path / "table"
    work.mkdir()
    commands = [c for block in walkthrough_blocks(readme()) for c, _ in block if "sample_games" not in c]
    script = [f"cd {shlex.quote(str(src))}", SETUP_COMMANDS[0] + " > setup.out 2>&1 || exit 3",
              f"cd {shlex.quote(str(work))}"]
    for i, cmd in enumerate(commands):
        (work / f"{i}.sh").write_text(cmd + "\n", encoding="utf-8")
        script.append(f"( . ./{i}.sh ) > {i}.out 2>&1; echo $? > {i}.rc")
    env = {k: v for k, v in _env().items() if k not in ("VIRTUAL_ENV",)}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if Path(p) != BIN)
    p = subprocess.run(["bash", "-c", "\n".join(script)], env=env, capture_output=True, text=True, timeout=600)
    if p.returncode == 3:
        setup = (src / "setup.out").read_text(encoding="utf-8", errors="replace")
        if "No matching distribution" in setup or "Could not find a version" in setup:
            pytest.skip(f"the package index cannot be reached: {setup.splitlines()[-1]}")
        raise AssertionError(f"the README's first command failed:\n{setup}")
    assert p.returncode == 0, p.stderr
    assert (src / ".venv" / "bin" / "ginlog").exists()
    for i, cmd in enumerate(commands):
        out = (work / f"{i}.out").read_text(encoding="utf-8", errors="replace")
        assert "command not found" not in out and "Traceback" not in out, f"{cmd!r}:\n{out}"
        assert (work / f"{i}.rc").read_text().strip() in ("0", "1"), f"{cmd!r}:\n{out}"
    assert (work / "0.rc").read_text().strip() == "0"
    assert (work / "friday.jsonl").exists()


# ---------------------------------------------------------------------------
# The two set-up commands


def test_two_commands_are_in_the_readme() -> None:
    text = section(readme(), "Two commands")
    for cmd in SETUP_COMMANDS:
        assert cmd in text, f"the 'Two commands' section lacks {cmd!r}"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert SETUP_COMMANDS[1] in ci
    assert SETUP_COMMANDS[1] in section(readme(), "Two commands")


def test_first_command_scores_the_sample_match() -> None:
    sample = SAMPLES / "standard-match.jsonl"
    if not sample.exists():
        pytest.skip("sample_games/standard-match.jsonl is not there yet")
    p = run_command("ginlog score sample_games/standard-match.jsonl", ROOT, _env())
    assert p.returncode == 0, p.stderr
    assert "Totals:" in p.stdout and "Head:" in p.stdout


# ---------------------------------------------------------------------------
# Tables against the code


def _table_rows(text: str, header_start: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(header_start))
    rows = []
    for ln in lines[start + 2:]:
        if not ln.startswith("|"):
            break
        rows.append([c.strip() for c in ln.strip().strip("|").split("|")])
    return rows


def _documented_knobs() -> dict[str, object]:
    documented: dict[str, object] = {}
    for knob_cell, default_cell, *_ in _table_rows(section(readme(), "Rules and knobs"), "| knob |"):
        names = re.findall(r"`([a-z_]+)`", knob_cell)
        values = [v.strip() for v in default_cell.split(",")]
        assert len(names) == len(values), knob_cell
        for name, value in zip(names, values):
            try:
                documented[name] = json.loads(value)
            except ValueError:
                documented[name] = value
    return documented


def test_knob_table_defaults_match_the_standard_preset() -> None:
    from ginlog.game.rules import all_knobs, preset

    actual = all_knobs(preset("standard"))
    documented = _documented_knobs()
    assert len(documented) >= 17
    assert {k: actual.get(k, "<not a knob>") for k in documented} == documented


def test_knob_table_lists_every_knob() -> None:
    from ginlog.game.rules import all_knobs, preset

    assert sorted(set(all_knobs(preset("standard"))) - set(_documented_knobs())) == []


def test_commands_table_names_real_commands() -> None:
    from ginlog.app.cli import command

    root = command()
    for cell, *_ in _table_rows(section(readme(), "Commands"), "| command |"):
        words = cell.strip("`").split()
        assert words[0] == "ginlog"
        cmd = root
        for w in words[1:]:
            subs = getattr(cmd, "commands", None)
            if not subs or w.isupper() or w.startswith(("[", "-")):
                break
            assert w in subs, f"README names 'ginlog ... {w}', which is not a command"
            cmd = subs[w]
        assert not getattr(cmd, "commands", None), f"{cell} stops at a command group"


def test_entry_language_table_matches_the_parser() -> None:
    from ginlog.app.record.entry import WORDS

    text = section(readme(), "The entry language")
    for cell, *_ in _table_rows(text, "| entry |"):
        for word in re.findall(r"`([a-z]+)[ `]", cell) + re.findall(r"\(`([a-z]+)`\)", cell):
            assert word in WORDS or word in ("lay",), f"README entry word {word!r} is not in the entry language"
    from ginlog.game.cards import parse_card

    spellings = re.search(r"Cards are forgiving: (.*?) all read as", text, re.S)
    assert spellings
    cards = {str(parse_card(s)) for s in re.findall(r"`([^`]+)`", spellings.group(1))}
    assert cards == {"7H", "TH"}


def test_readme_documents_the_json_shapes() -> None:
    from ginlog.app.views.match_json import SCORE_JSON_KEYS

    text = readme()
    missing = [k for k in SCORE_JSON_KEYS if f"`{k}`" not in text]
    assert not missing, f"score --json keys not in the README: {missing}"
    assert "`errors_by_rule`" in text


def test_readme_documents_the_table_json_shape() -> None:
    """``show --json`` and ``replay --json`` (issue 13): every key of the table, and replay's own, named in the
    shapes' document the README's "JSON output" points to (``docs/DATA.md``, which holds every output's shape)."""
    from ginlog.app.views.match_json import table_json
    from ginlog.game.rules import preset
    from ginlog.log.events import MatchStarted
    from ginlog.play.reducer import start

    assert "docs/DATA.md" in section(readme(), "JSON output")
    text = (ROOT / "docs" / "DATA.md").read_text(encoding="utf-8")
    text = text[text.index("## `show --json` and `replay --json`"):]
    keys = ["event", *table_json(start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))).state),
            "seq", "type", "text", "summary"]
    missing = [k for k in keys if f'"{k}"' not in text]
    assert not missing, f"show/replay --json keys not in docs/DATA.md: {missing}"
