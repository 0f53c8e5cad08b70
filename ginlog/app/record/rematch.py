"""A rematch: a new match file with the same players and rules as an old one.

Used by ``ginlog new NEW --rematch OLD`` and by the recorder's ``rematch
NEW.jsonl`` once a match is over. Only ``match_started`` is written: who deals
first is chosen at the table as for any match (``dealer NAME`` or ``cut``),
so a rematch records nothing the players did not say.
"""

from __future__ import annotations

import os

from ginlog.app.shell.outputs import match_name_refusal
from ginlog.errors import StoreError
from ginlog.log.events import MAX_TEXT
from ginlog.match.session import MatchSession
from ginlog.play.state import MatchState

__all__ = ["rematch_title", "start_rematch"]

_AGAIN = " (rematch)"


def rematch_title(title: str | None) -> str | None:
    """The old title with `` (rematch)`` after it, if there was one; the old title cut so the new one stays
    within the length a title may have (a legal match of a long title can be rematched, again and again).

    >>> rematch_title("Friday"), rematch_title(None), len(rematch_title("t" * 2000) or "")
    ('Friday (rematch)', None, 2000)
    """
    return None if title is None else title[: MAX_TEXT - len(_AGAIN)] + _AGAIN


def start_rematch(path: str | os.PathLike[str], old: MatchState, *, title: str | None = None) -> MatchSession:
    """Create ``path`` for a rematch of ``old`` (refusing an existing file, as :meth:`MatchSession.create` does,
    and a name that is no match file's: ``-``, one without ``.jsonl``).

    >>> from ginlog.game.rules import preset
    >>> from ginlog.play.reducer import start
    >>> from ginlog.log.events import MatchStarted
    >>> old = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))).state
    >>> start_rematch("next.txt", old)
    Traceback (most recent call last):
    ginlog.errors.StoreError: next.txt: a match file's name ends in .jsonl (folders are searched for *.jsonl): try next.jsonl [file-name]
    """
    if (why := match_name_refusal(os.fspath(path))) is not None:
        raise StoreError(why, rule="file-name")
    return MatchSession.create(path, old.players, old.rules, title=title if title is not None else rematch_title(old.title))
