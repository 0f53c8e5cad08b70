"""A rematch: a new match file with the same players and rules as an old one.

Used by ``ginlog new NEW --rematch OLD`` and by the recorder's ``rematch
NEW.jsonl`` once a match is over. Only ``match_started`` is written: who deals
first is chosen at the table as for any match (``dealer NAME`` or ``cut``),
so a rematch records nothing the players did not say.
"""

from __future__ import annotations

import os

from ginlog.match.session import MatchSession
from ginlog.play.state import MatchState

__all__ = ["rematch_title", "start_rematch"]


def rematch_title(title: str | None) -> str | None:
    """The old title with `` (rematch)`` after it, if there was one.

    >>> rematch_title("Friday"), rematch_title(None)
    ('Friday (rematch)', None)
    """
    return None if title is None else f"{title} (rematch)"


def start_rematch(path: str | os.PathLike[str], old: MatchState, *, title: str | None = None) -> MatchSession:
    """Create ``path`` for a rematch of ``old`` (refusing an existing file, as :meth:`MatchSession.create` does)."""
    return MatchSession.create(path, old.players, old.rules, title=title if title is not None else rematch_title(old.title))
