"""Which rule of play each event type goes to: one exhaustive ``match``, and the table built from it.

:func:`rule_for` is a ``match`` over the :data:`~ginlog.log.events.Event`
union ending in ``assert_never``, so the type checker refuses an event type
without a case, and :func:`_rule` makes it check that each rule takes the
event type of its case. :data:`RULES` is the same answer as a table, built
at import by asking :func:`rule_for` about every registered event type: the
replay's inner loop looks a rule up with one ``dict.get`` (a ``match`` tries
its cases in turn), and the two cannot disagree, since one is made from the
other. Corrections and notes have no rule: they are the timeline's business
(:mod:`ginlog.play.timeline`).

>>> from ginlog.log.events import CardDrawn, Note
>>> RULES[CardDrawn].__name__, Note in RULES
('draw', False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeAlias, TypeVar, assert_never

from ginlog.log.events import (
    EVENT_KINDS,
    BigGin,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    HandVoid,
    Knocked,
    MatchAbandoned,
    MatchStarted,
    Note,
    Seal,
    UpcardPassed,
)
from ginlog.play import endings, setup, turns
from ginlog.play.working import WorkingMatch

__all__ = ["Rule", "rule_for", "RULES"]

#: A rule of play: edit the working copy for this event, or raise IllegalMove.
Rule: TypeAlias = Callable[[WorkingMatch, Any], None]
_E = TypeVar("_E")


def _rule(event: _E, rule: Callable[[WorkingMatch, _E], None]) -> Rule:
    """``rule``, once the type checker has seen that it takes events like ``event``."""
    return rule


def rule_for(event: Event) -> Rule | None:
    """The rule ``event`` goes to; None for a correction or a note (they change no state by rule)."""
    match event:
        case MatchStarted():
            return _rule(event, setup.started_twice)
        case FirstDealer():
            return _rule(event, setup.first_dealer)
        case HandDealt():
            return _rule(event, setup.deal)
        case UpcardPassed():
            return _rule(event, turns.upcard_passed)
        case CardDrawn():
            return _rule(event, turns.draw)
        case CardDiscarded():
            return _rule(event, turns.discard)
        case Knocked() | Gin() | BigGin():
            return _rule(event, turns.go_out)
        case HandShown():
            return _rule(event, endings.hand_shown)
        case HandResultOnly():
            return _rule(event, endings.hand_result)
        case HandVoid():
            return _rule(event, endings.hand_void)
        case MatchAbandoned():
            return _rule(event, setup.abandon)
        case Note() | Seal() | Correction():
            return None
        case _:
            assert_never(event)


def _rules() -> dict[type, Rule]:
    """The table, checked against the traits each event type was registered with.

    An event with no rule must be one that changes nothing or takes back
    (the timeline's business), and one of those must have no rule: a no-op
    given a do-nothing rule would be applied, and counted, as a move.
    """
    table = {}
    for kind in EVENT_KINDS:
        # A blank instance: the cases above look at the class only.
        rule = rule_for(object.__new__(kind.cls))
        ruleless = kind.traits.changes_nothing or kind.traits.takes_back
        if (rule is None) != ruleless:
            raise TypeError(
                f"event type {kind.name!r}: rule_for gives it {'no rule' if rule is None else 'a rule'}, but its traits"
                f" say it {'changes nothing or takes back' if ruleless else 'is a move'} (ginlog.log.registry.Traits)"
            )
        if rule is not None:
            table[kind.cls] = rule
    return table


#: Event class -> its rule (no entry for corrections and notes).
RULES: Final[dict[type, Rule]] = _rules()
