"""ginlog: record gin rummy matches as immutable events, replay them, audit them.

The top level exports the pure core a program needs most often:

>>> from ginlog import parse_card, min_deadwood
>>> parse_card("10h")
Card('TH')
>>> min_deadwood("AS 2S 3S 4S 5S AC AD AH QH KH")
20

The names are loaded on first use (PEP 562), so ``import ginlog.app.cli`` for a
scripted ``ginlog play`` does not pay for modules it does not need.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Card": "game.cards",
    "parse_card": "game.cards",
    "parse_cards": "game.cards",
    "GinlogError": "errors",
    "Meld": "game.melds",
    "Arrangement": "game.melds",
    "min_deadwood": "game.melds",
    "best_arrangement": "game.melds",
    "best_discard": "game.melds",
    "best_defence": "game.layoffs",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # pragma: no cover
    # "X as X": re-exported for the type checker too (mypy --strict reads no name out of a computed __all__).
    from ginlog.game.cards import Card as Card, parse_card as parse_card, parse_cards as parse_cards
    from ginlog.errors import GinlogError as GinlogError
    from ginlog.game.layoffs import best_defence as best_defence
    from ginlog.game.melds import (
        Arrangement as Arrangement,
        Meld as Meld,
        best_arrangement as best_arrangement,
        best_discard as best_discard,
        min_deadwood as min_deadwood,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ginlog' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
