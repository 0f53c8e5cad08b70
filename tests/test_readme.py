"""The README cannot go stale: its walkthrough is executed, and its tables are checked against the code.

Every ```console block right after a ``<!-- walkthrough -->`` line is run, in
order, command by command, with bash in one temporary folder and the venv's
``bin`` first on PATH. Where a block gives a command's output, standard output
must equal it exactly (trailing spaces aside); a command given without output
must just succeed. Only a command whose shown output contains ``refused:`` may
exit non-zero (a piped ``ginlog record`` exits 1 when it refused an entry).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLES = ROOT / "sample_games"
BIN = Path(sys.executable).parent

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


def walkthrough_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    """Each walkthrough block as a list of (command, expected stdout lines)."""
    lines = text.splitlines()
    blocks: list[list[tuple[str, list[str]]]] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "<!-- walkthrough -->":
            i += 1
            continue
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        assert i < len(lines) and lines[i].strip() == "```console", f"README line {i + 1}: no ```console after <!-- walkthrough -->"
        i += 1
        block: list[tuple[str, list[str]]] = []
        while i < len(lines) and lines[i].strip() != "```":
            line = lines[i]
            if line.startswith("$ "):
                cmd = line[2:]
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd = cmd[:-1] + "\n" + lines[i]
                block.append((cmd, []))
            else:
                assert block, f"README line {i + 1}: output before any '$ ' command"
                block[-1][1].append(line.rstrip())
            i += 1
        assert i < len(lines), "a walkthrough block is not closed"
        blocks.append(block)
        i += 1
    return blocks


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "COLUMNS")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def _sh(cmd: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _samples_ready() -> bool:
    return SAMPLES.is_dir() and any(SAMPLES.glob("*.jsonl"))


# ---------------------------------------------------------------------------
# The walkthrough


def test_walkthrough_blocks_are_found() -> None:
    blocks = walkthrough_blocks(readme())
    assert len(blocks) >= 4
    commands = [c for b in blocks for c, _ in b]
    assert commands[0].startswith("ginlog new friday.jsonl")
    assert any(c.startswith("ginlog replay") for c in commands)


def test_walkthrough(tmp_path: Path) -> None:
    if not (BIN / "ginlog").exists():
        pytest.skip(f"no ginlog executable in {BIN}")
    env = _env()
    if SAMPLES.is_dir():
        shutil.copytree(SAMPLES, tmp_path / "sample_games")
    skipped = None
    ran = 0
    for block in walkthrough_blocks(readme()):
        for cmd, expected in block:
            if "sample_games" in cmd and not _samples_ready():
                skipped = f"the walkthrough runs {cmd!r} but sample_games/*.jsonl is not there yet"
                break
            p = _sh(cmd, tmp_path, env)
            ran += 1
            where = f"README command {cmd!r}"
            assert "Traceback" not in p.stdout + p.stderr, f"{where}:\n{p.stderr}"
            refused = any("refused:" in line for line in expected)
            if refused:
                assert p.returncode in (0, 1), f"{where} exited {p.returncode}:\n{p.stderr}"
            else:
                assert p.returncode == 0, f"{where} exited {p.returncode}:\n{p.stdout}\n{p.stderr}"
            if expected:
                actual = [line.rstrip() for line in p.stdout.splitlines()]
                while actual and not actual[-1]:
                    actual.pop()
                want = list(expected)
                while want and not want[-1]:
                    want.pop()
                assert actual == want, f"{where}: output differs from the README"
        if skipped:
            break
    assert ran >= 5
    _check_prose_commands(tmp_path, env)
    if skipped:
        pytest.skip(skipped)


def _check_prose_commands(folder: Path, env: dict[str, str]) -> None:
    """Commands the walkthrough's prose names: show --at 6 --as Ann; audit --anchor HEAD."""
    p = _sh("ginlog show friday.jsonl --at 6 --as Ann", folder, env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "friday.jsonl at event 6:"
    p = _sh("ginlog score friday.jsonl --json", folder, env)
    head = json.loads(p.stdout)["head"]
    p = _sh(f"ginlog audit friday.jsonl --anchor {head}", folder, env)
    assert p.returncode == 0, p.stderr


@pytest.mark.slow  # a venv and a pip install: about 9 CPU-s. test_walkthrough runs the same commands in the default run.
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
        if (ROOT / name).is_file():
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
    p = _sh(f"{BIN / 'ginlog'} score sample_games/standard-match.jsonl", ROOT, _env())
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
    import typer.main

    from ginlog.app.cli import build_app

    root = typer.main.get_command(build_app())
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
    from ginlog.app.views.match import SCORE_JSON_KEYS

    text = readme()
    missing = [k for k in SCORE_JSON_KEYS if f"`{k}`" not in text]
    assert not missing, f"score --json keys not in the README: {missing}"
    assert "`errors_by_rule`" in text


def test_readme_documents_the_table_json_shape() -> None:
    """``show --json`` and ``replay --json`` (issue 13): every key of the table, and replay's own, named in the
    shapes' document the README's "JSON output" points to (``docs/DATA.md``, which holds every output's shape)."""
    from ginlog.app.views.match import table_json
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
