"""The event registry: each event type's ``type`` name, class, description and traits, declared once.

An event class is registered by :func:`registered`, with its envelope
``type`` and its :class:`Traits`: what the event means for the code that
handles events in bulk rather than one ``match`` case at a time (where a
hand is cut, what the fold may skip, what may come after a hand's last
line, what no correction takes back). Every set of event classes that such code needs is derived from these
traits (:func:`having`), so a new event type states its meaning in one place
and cannot be left out of a set kept elsewhere.

>>> t = Traits(begins_hand=False, takes_back=False, changes_nothing=True, may_follow_end=True, undoable=True)
>>> t.changes_nothing, t.begins_hand
(True, False)

Why required flags and not defaults: the bug this fixes was a new no-op event
whose author never thought about "may follow a hand's end" (``score`` then
dated a hand's end one line late on the fast path). With no defaults, each
new type answers each question, and a registration without traits fails (at
import, and for the type checker).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import TypeVar

__all__ = ["Traits", "EventKind", "registered", "kinds", "having"]


class Traits(typing.NamedTuple):
    """What an event type means to the code that handles events by kind. Every flag must be given.

    - ``begins_hand``: the first line of a hand (``hand_dealt``, or
      ``hand_result`` for a hand kept on a score pad). :mod:`ginlog.match.dated`
      dates a hand's begin here and cuts a fast-path run before it.
    - ``takes_back``: undoes the last effective event (``correction``). No
      rule of play: the timeline and the fold handle it; the fast path
      applies it alone, since it may take a hand (and its end) back.
    - ``changes_nothing``: no rule of play and no state change (``note``):
      the fold and the timeline skip it, and undoing it needs no rebuild.
    - ``may_follow_end``: never finishes a hand nor begins one, so it may
      come after the line that finished a hand (``note``,
      ``match_abandoned``): the fast path looks past these for the line that
      ended the hand.
    - ``undoable``: the event enters the undo history, so a correction can
      take it back. False only for what nothing may undo (``seal``: issue 24):
      the timeline and the fold leave it out of the history, so a correction
      after it takes back the move before it (and is itself unsealed). Such an
      event must change nothing: leaving it out keeps no state of its own.

    (A named tuple, not an attrs class: registration runs at every start-up.)

    >>> Traits(begins_hand=True, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True).begins_hand
    True
    """

    begins_hand: bool
    takes_back: bool
    changes_nothing: bool
    may_follow_end: bool
    undoable: bool


def _check(name: str, t: Traits) -> None:
    """Refuse traits that contradict each other (a no-op cannot begin a hand, ...).

    >>> _check("x", Traits(begins_hand=True, takes_back=False, changes_nothing=True, may_follow_end=True, undoable=True))
    Traceback (most recent call last):
    ...
    TypeError: event type 'x': an event that changes nothing neither begins a hand nor takes one back, and may follow a hand's end
    """
    if not isinstance(t, Traits) or not all(type(flag) is bool for flag in t):
        raise TypeError(f"event type {name!r}: traits must be a Traits of five true/false flags, not {t!r}")
    if t.changes_nothing and (t.begins_hand or t.takes_back or not t.may_follow_end):
        raise TypeError(
            f"event type {name!r}: an event that changes nothing neither begins a hand nor takes one back,"
            " and may follow a hand's end"
        )
    if not t.undoable and not t.changes_nothing:
        raise TypeError(f"event type {name!r}: an event nothing undoes is left out of the undo history, so it must"
                        " change nothing")
    if t.begins_hand and (t.may_follow_end or t.takes_back):
        raise TypeError(f"event type {name!r}: an event that begins a hand neither takes back nor may follow a hand's end")


class EventKind(typing.NamedTuple):
    """One event type: the ``type`` its lines carry, its class, one line saying what it records, and its traits.

    (A named tuple, not an attrs class: it is made at every start-up, where
    each attrs class costs a ``compile``.)
    """

    name: str
    cls: type
    description: str
    traits: Traits


_KINDS: list[EventKind] = []
_C = TypeVar("_C", bound=type)


def registered(name: str, traits: Traits) -> Callable[[_C], _C]:
    """Register an event class under the envelope ``type`` ``name``: the one place an event type is declared.

    The description is the first line of the class's docstring; ``traits``
    say what the event means in bulk (see :class:`Traits`). Everything
    else that must know every event type is checked against this registry:
    the :data:`~ginlog.log.events.Event` union (at import), the reducer's
    rules (at import, against the traits: :mod:`ginlog.play.rulebook`), the
    views' words and the entry language (exhaustive ``match`` statements the
    type checker proves), the JSON Schema (generated from it), and the
    README's table and the schema examples (``tests/test_contract.py``).

    >>> @registered("shrug", Traits(begins_hand=False, takes_back=False, changes_nothing=True, may_follow_end=True,
    ...                             undoable=True))
    ... class Shrug:
    ...     '''Someone shrugs.'''
    >>> kinds()[-1].name, kinds()[-1].description
    ('shrug', 'Someone shrugs.')
    >>> _KINDS.pop().cls is Shrug  # (a doctest: leave the registry as it was)
    True
    """
    _check(name, traits)

    def register(cls: _C) -> _C:
        doc = (cls.__doc__ or "").strip()
        if not doc:
            raise TypeError(f"{cls.__name__} needs a docstring: its first line describes the event")
        if any(k.name == name or k.cls is cls for k in _KINDS):
            raise TypeError(f"event type {name!r} ({cls.__name__}) is registered twice")
        _KINDS.append(EventKind(name, cls, doc.splitlines()[0], traits))
        return cls

    return register


def kinds() -> tuple[EventKind, ...]:
    """Every event type registered so far, in the order registered."""
    return tuple(_KINDS)


def having(trait: Callable[[Traits], bool], kinds_: tuple[EventKind, ...]) -> frozenset[type]:
    """The classes of ``kinds_`` whose traits pass ``trait``: how every set of event classes is made.

    ``trait`` is a function of the traits (``lambda t: t.begins_hand``), so
    the type checker knows each trait named.

    >>> k = EventKind("note", object, "Free text.", Traits(False, False, True, True, True))
    >>> having(lambda t: t.changes_nothing, (k,)) == {object}, having(lambda t: t.begins_hand, (k,))
    (True, frozenset())
    """
    return frozenset(k.cls for k in kinds_ if trait(k.traits))
