"""ginlog: record gin rummy matches as immutable events, replay them, audit them.

The top level exports the pure core a program needs most often:

>>> from ginlog import parse_card, min_deadwood
>>> parse_card("10h")
Card('TH')
>>> min_deadwood("AS 2S 3S 4S 5S AC AD AH QH KH")
20
"""

from __future__ import annotations

__version__ = "0.1.0"

from .cards import Card, parse_card, parse_cards
from .errors import GinlogError
from .melds import (
    Arrangement,
    Meld,
    best_arrangement,
    best_defence,
    best_discard,
    min_deadwood,
)

__all__ = [
    "__version__",
    "Card",
    "parse_card",
    "parse_cards",
    "GinlogError",
    "Meld",
    "Arrangement",
    "min_deadwood",
    "best_arrangement",
    "best_discard",
    "best_defence",
]
