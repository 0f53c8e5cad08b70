"""What tables commonly play: the range of each numeric knob, and the knobs of a rule set outside it.

A match file records its rules in full, and any value the knobs accept is
played faithfully: a knock limit of 100 makes every hand a knock. That is
not an error (a table may play what it likes), but an audit that called
such a match "clean" without a word would mislead, so the audit warns
(``unusual-rules``) about every knob outside this table. The ranges hold
every preset's value and what the rule books and the common house rules
use; a knob not listed (a choice between named options, a true/false) is
always usual.

==================  ============  ===========================================
knob                usual         why
==================  ============  ===========================================
knock_limit         0 to 10       10 or fewer (how-to guide); 9 (newspaper); 0 gin only
gin_bonus           10 to 50      20 (guide), 25 (modern, newspaper, OpenSpiel)
big_gin_bonus       20 to 50      31 (modern); 50 at some tables; null = not played
undercut_bonus      10 to 50      10 (guide), 25 (modern, OpenSpiel), 20 at some tables
void_stock_size     0 to 2        2 (the rule books); 0: the stock played out
game_target         50 to 500     100 (guide), 150 (Oklahoma), 250 (Hollywood); null = one hand
game_bonus          0 to 200      100 (modern, classic)
box_bonus           0 to 50       25 (modern), 20 (classic)
shutout_bonus       0 to 200      100 (classic)
upcard_take_limit   2 to 100      50 (OpenSpiel); null = no limit
layoff_chain_limit  1 to 13       2 (OpenSpiel); null = no limit
==================  ============  ===========================================

>>> from ginlog.game.rules import PRESETS, preset, with_knobs
>>> [name for name, r in PRESETS.items() if unusual_knobs(r)]
[]
>>> unusual_knobs(with_knobs(preset("standard"), knock_limit="100"))
[('knock_limit', 100, (0, 10))]
"""

from __future__ import annotations

from typing import Final

from ginlog.game.rules import Rules

__all__ = ["USUAL", "unusual_knobs"]

#: Each numeric knob's usual range, both ends included (see the module's table).
USUAL: Final[dict[str, tuple[int, int]]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (10, 50),
    "big_gin_bonus": (20, 50),
    "undercut_bonus": (10, 50),
    "void_stock_size": (0, 2),
    "game_target": (50, 500),
    "game_bonus": (0, 200),
    "box_bonus": (0, 50),
    "shutout_bonus": (0, 200),
    "upcard_take_limit": (2, 100),
    "layoff_chain_limit": (1, 13),
}


Unusual = tuple[str, int, tuple[int, int]]


def unusual_knobs(rules: Rules) -> list[Unusual]:
    """Each knob of ``rules`` outside its usual range: ``(knob, value, (low, high))``, in the table's order.

    A knob left at null (not played, no limit) is always usual. The last rules
    asked about are remembered by identity (the reader hands every file of an
    import or a club the same frozen :class:`Rules`: ``ginlog.log.known``), so
    an audit of many one-hand files looks their knobs up once.
    """
    global _last
    if _last is not None and _last[0] is rules:
        return list(_last[1])
    out: list[Unusual] = []
    for knob, (low, high) in USUAL.items():
        value = getattr(rules, knob)
        if value is not None and not low <= value <= high:
            out.append((knob, value, (low, high)))
    _last = (rules, tuple(out))
    return out


#: The last rules :func:`unusual_knobs` was asked about, and its answer (frozen values: safe to keep).
_last: tuple[Rules, tuple[Unusual, ...]] | None = None
