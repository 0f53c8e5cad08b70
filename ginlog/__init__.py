"""ginlog: record gin rummy matches as immutable events, replay them, audit them.

The top level exports the pure core a program needs most often:

>>> from ginlog import parse_card, min_deadwood
>>> parse_card("10h")
Card('TH')
>>> min_deadwood("AS 2S 3S 4S 5S AC AD AH QH KH")
20

The names are loaded on first use (PEP 562), so ``import ginlog.cli`` for a
scripted ``ginlog play`` does not pay for modules it does not need.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Card": "cards",
    "parse_card": "cards",
    "parse_cards": "cards",
    "GinlogError": "errors",
    "Meld": "melds",
    "Arrangement": "melds",
    "min_deadwood": "melds",
    "best_arrangement": "melds",
    "best_discard": "melds",
    "best_defence": "melds",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card, parse_card, parse_cards
    from .errors import GinlogError
    from .melds import Arrangement, Meld, best_arrangement, best_defence, best_discard, min_deadwood


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ginlog' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
