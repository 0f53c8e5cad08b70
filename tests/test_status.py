"""The recorder's status line and a finished match's result in words, pure functions of the match state."""

from __future__ import annotations

from ginlog.app.record.status import status_line

from recording import at


def test_status_line() -> None:
    st = at(["dealer Ann", "upcard 7h"])
    assert status_line(st) == "Hand 1 · Mary Lou to take or pass the upcard · stock 31 · pile 7♥ · Ann 0, Mary Lou 0 (to 100)"
    assert status_line(at(["dealer Ann"])) == "Hand 1: Ann deals (upcard CARD) · Ann 0, Mary Lou 0 (to 100)"

