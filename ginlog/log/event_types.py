"""The event classes: one small frozen class per thing that happens at the table, each registered once.

Each class is registered by :func:`~ginlog.log.registry.registered` under
the ``type`` its lines carry, with its :class:`~ginlog.log.registry.Traits`
(what it means in bulk: begins a hand, takes one back, changes nothing, may
follow a hand's end), and is a member of the :data:`Event` union. Import
them from :mod:`ginlog.log.events`, which adds the registry's derived sets
and the JSON form (this module is the classes alone, so that each stays
short enough to read).

>>> from ginlog.log.registry import kinds
>>> [k.name for k in kinds() if k.traits.changes_nothing]
['note', 'seal']
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, TypeAlias

import attrs

from ginlog import __version__
from ginlog.errors import EventError
from ginlog.game.cards import Card
from ginlog.game.rules import Rules
from ginlog.log.format import MAX_SEQ
from ginlog.log import sshsig
from ginlog.log.registry import Traits, registered
from ginlog.log.times import valid_ts
from ginlog.numbers import InRange
from ginlog.text import MAX_NAME, check_kept_players

__all__ = [
    "MAX_NAME",
    "MAX_TEXT",
    "Cards",
    "Event",
    "MatchStarted",
    "FirstDealer",
    "HandDealt",
    "UpcardPassed",
    "CardDrawn",
    "CardDiscarded",
    "Knocked",
    "Gin",
    "BigGin",
    "HandShown",
    "HandResultOnly",
    "HandVoid",
    "Note",
    "Correction",
    "MatchAbandoned",
    "Seal",
]

Cards: TypeAlias = tuple[Card, ...]
MAX_TEXT = 2000


def _name(_i: object, a: attrs.Attribute[Any], v: str | None) -> None:
    if v is not None and not (0 < len(v) <= MAX_NAME and v.strip() == v and v.isprintable()):
        raise EventError(f"{a.name} must be a name of 1 to {MAX_NAME} printable characters, not {v!r}", rule="event")


#: A match's id: 32 lowercase hex digits (128 bits: random for a new match, derived from the record for an import).
MATCH_ID: Final = re.compile(r"[0-9a-f]{32}")


def _match_id(_i: object, a: attrs.Attribute[Any], v: str | None) -> None:
    if v is not None and (type(v) is not str or not MATCH_ID.fullmatch(v)):
        raise EventError(f"{a.name} must be 32 lowercase hex digits, not {v!r}"[:200], rule="event")


def _text(_i: object, a: attrs.Attribute[Any], v: str | None) -> None:
    if v is not None and len(v) > MAX_TEXT:
        raise EventError(f"{a.name} is longer than {MAX_TEXT} characters", rule="event")


#: Deadwood on a score pad: ten cards leave at most 98, and the reducer says so
#: (rule ``result``); the format takes up to 200 so that message can be given.
_deadwood: Final = InRange(0, 200, EventError, "event")
#: Claimed points: no hand scores anywhere near this under knobs in their ranges
#: (deadwood 98 + a bonus of 1000, doubled), so a larger claim is not a pad's.
_points: Final = InRange(0, 1_000_000, EventError, "event")
#: ``correction.undoes`` names a seq, and no seq is beyond :data:`~ginlog.log.format.MAX_SEQ`.
_seq: Final = InRange(1, MAX_SEQ, EventError, "event")


@registered(
    "match_started",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class MatchStarted:
    """The first line of every match: who plays, under exactly which rules, recorded by what."""

    players: tuple[str, str] = attrs.field(validator=attrs.validators.deep_iterable(_name))
    rules: Rules
    tool: str = f"ginlog {__version__}"
    title: str | None = attrs.field(default=None, validator=_text)
    #: Which match this is, whatever file holds it (copies, links, backups): random for a new match, derived from
    #: the record for an import, so importing it twice gives one id. Optional (files before 2026-12 have none:
    #: their first line's SHA-256 stands in), so no schema bump (docs/VERSIONING.md).
    match_id: str | None = attrs.field(default=None, validator=_match_id)

    def __attrs_post_init__(self) -> None:
        # Each name as ginlog.text keeps it, and no two that could be taken for each
        # other (rules "name", "name-clash"): a file from another program is held to
        # what `ginlog new` writes. (The other events' names must be one of these.)
        check_kept_players(self.players)


@registered(
    "first_dealer",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class FirstDealer:
    """Who deals the first hand, and how that was decided (``cut`` records both cut cards)."""

    dealer: str = attrs.field(validator=_name)
    how: Literal["cut", "agreed", "random"]
    cuts: dict[str, Card] | None = None


@registered(
    "hand_dealt",
    Traits(begins_hand=True, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class HandDealt:
    """A new hand: the dealer always, the upcard unless the rules deal 11/10 without one; both hands and the stock
    order only where known."""

    dealer: str = attrs.field(validator=_name)
    #: Left out only under ``deal_eleven`` (RLCard), which turns no upcard; the reducer holds each deal to its rules.
    upcard: Card | None = None
    hands: dict[str, Cards] | None = None
    stock: Cards | None = None


@registered(
    "upcard_passed",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class UpcardPassed:
    """The player to act declines the first upcard."""

    player: str = attrs.field(validator=_name)


@registered(
    "card_drawn",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class CardDrawn:
    """A draw from the stock or the pile (taking the upcard is a draw from the pile).

    ``card`` is given when it is known: always for the pile (it is face up), for
    the stock only when the deal or the drawer's hand is being recorded.
    """

    player: str = attrs.field(validator=_name)
    source: Literal["stock", "pile"]
    card: Card | None = None


@registered(
    "card_discarded",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class CardDiscarded:
    """A card put face up on the pile, ending a turn."""

    player: str = attrs.field(validator=_name)
    card: Card


@registered(
    "knocked",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class Knocked:
    """A knock: ``card`` goes face down; the knocker's hand is then shown (:class:`HandShown`)."""

    player: str = attrs.field(validator=_name)
    card: Card


@registered(
    "gin",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class Gin:
    """Going gin: discard ``card``, all ten others melded."""

    player: str = attrs.field(validator=_name)
    card: Card


@registered(
    "big_gin",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class BigGin:
    """All eleven cards melded after the draw, no discard (when the rules play it)."""

    player: str = attrs.field(validator=_name)


@registered(
    "hand_shown",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class HandShown:
    """A hand laid out at the end: the knocker's first, then the defender's.

    ``melds`` declares the arrangement; left out, ginlog finds the best one.
    ``layoffs`` (defender only) are cards laid off onto the knocker's melds, in
    the order made; left out together with ``melds``, ginlog finds the best.
    """

    player: str = attrs.field(validator=_name)
    cards: Cards
    melds: tuple[Cards, ...] | None = None
    layoffs: Cards | None = None


@registered(
    "hand_result",
    Traits(begins_hand=True, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class HandResultOnly:
    """A hand kept on a score pad: how it ended and each side's deadwood, no moves.

    ``points`` and ``winner``, when given, are what the pad claims; ginlog
    prices the hand itself and reports a mismatch. ``how="points"`` is a pad
    that says only who scored how much (``Ann +25``): ``winner`` and
    ``points`` are then required and are the facts, with no ``out``, deadwood
    or ``upcard`` (the pad's points include any doubling); the rules add what
    any won hand brings (boxes, the game bonus).
    """

    how: Literal["knock", "gin", "big_gin", "void", "points"]
    out: str | None = attrs.field(default=None, validator=_name)
    knocker_deadwood: int = attrs.field(default=0, validator=_deadwood)
    defender_deadwood: int = attrs.field(default=0, validator=_deadwood)
    upcard: Card | None = None
    points: int | None = attrs.field(default=None, validator=_points)
    winner: str | None = attrs.field(default=None, validator=_name)


@registered(
    "hand_void",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class HandVoid:
    """The players agree to throw in the current hand (a misdeal, say); the same dealer deals again."""

    reason: str = attrs.field(validator=_text)


@registered(
    "note",
    Traits(begins_hand=False, takes_back=False, changes_nothing=True, may_follow_end=True, undoable=True),
)
@attrs.frozen(kw_only=True)
class Note:
    """Free text, kept in the record; changes nothing."""

    text: str = attrs.field(validator=_text)
    player: str | None = attrs.field(default=None, validator=_name)


@registered(
    "correction",
    Traits(begins_hand=False, takes_back=True, changes_nothing=False, may_follow_end=False, undoable=True),
)
@attrs.frozen(kw_only=True)
class Correction:
    """Undo the last effective event (``undoes`` names it). The file keeps both."""

    undoes: int = attrs.field(validator=_seq)
    reason: str | None = attrs.field(default=None, validator=_text)


@registered(
    "match_abandoned",
    Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=True, undoable=True),
)
@attrs.frozen(kw_only=True)
class MatchAbandoned:
    """The match stops here, unfinished."""

    reason: str = attrs.field(validator=_text)


#: A line's SHA-256 as the chain writes it, and an SSH key's fingerprint as OpenSSH prints it.
_seat: Final = InRange(0, 1, EventError, "event")
_HEAD: Final = re.compile(r"[0-9a-f]{64}")
_FINGERPRINT: Final = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


def _head(_i: object, a: attrs.Attribute[Any], v: str) -> None:
    if type(v) is not str or not _HEAD.fullmatch(v):
        raise EventError(f"{a.name} must be a line's SHA-256, 64 lowercase hex digits", rule="seal-armor")


def _fingerprint(_i: object, a: attrs.Attribute[Any], v: str) -> None:
    if type(v) is not str or not _FINGERPRINT.fullmatch(v):
        raise EventError(f"{a.name} must be a key's fingerprint as OpenSSH prints it (SHA256: and 43 base64"
                         " characters)", rule="seal-armor")


def _at(_i: object, a: attrs.Attribute[Any], v: str) -> None:
    if not valid_ts(v):
        raise EventError(f"{a.name} must be a UTC time as ginlog writes it", rule="timestamp")


def _armored(_i: object, a: attrs.Attribute[Any], v: str) -> None:
    sshsig.parse(v)  # its shape only (no cryptography needed): the signature is checked by the reading


@registered(
    "seal",
    Traits(begins_hand=False, takes_back=False, changes_nothing=True, may_follow_end=True, undoable=False),
)
@attrs.frozen(kw_only=True)
class Seal:
    """A player vouches for the record up to a line: that line's hash signed with their SSH key (SSHSIG).

    ``signature`` is OpenSSH's armored SSHSIG (namespace ``ginlog``) over
    :func:`ginlog.log.sshsig.statement` of the match's first line's hash,
    ``head`` (line ``line``'s SHA-256: the last line before the seal that is
    not a seal) and ``at``, the seal's time (signed; the envelope's ``ts``
    is not). A seal changes nothing in the game and nothing takes it back:
    an undo after it takes back the move before it, and is itself unsealed.
    Only between hands, after the end or after an abandon.
    """

    player: str = attrs.field(validator=_name)
    seat: int = attrs.field(validator=_seat)
    fingerprint: str = attrs.field(validator=_fingerprint)
    line: int = attrs.field(validator=_seq)
    head: str = attrs.field(validator=_head)
    at: str = attrs.field(validator=_at)
    signature: str = attrs.field(validator=_armored)


Event: TypeAlias = (
    MatchStarted | FirstDealer | HandDealt | UpcardPassed | CardDrawn | CardDiscarded | Knocked
    | Gin | BigGin | HandShown | HandResultOnly | HandVoid | Note | Correction | MatchAbandoned | Seal
)
