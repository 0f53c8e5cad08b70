"""The recorder's line editor, the parts of it that are pure functions: the answer to a question, the history's name.

The editor itself (prompt_toolkit at a terminal) is driven on a pseudo-terminal in
``tests/test_pty_recorder.py``; the questions the recorder asks through it, in ``tests/test_recorder.py``.
"""

from __future__ import annotations

from ginlog.app.record.prompt import history_path, yes_no


def test_yes_no() -> None:
    assert [yes_no(a) for a in ("y", "YES", " n ", "No", "", "yep", "show 7h")] == [True, True, False, False, True, None, None]
    assert yes_no("", default=False) is False


def test_history_lives_beside_the_match() -> None:
    assert history_path("friday.jsonl") == ".friday.jsonl.history"

