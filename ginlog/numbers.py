"""The door for numbers from files: every count and knob has a documented range, checked in one place.

A match file is untrusted input. JSON lets a whole number have thousands of
digits, and Python's arithmetic takes them in its stride, but ``str()`` of an
int over 4,300 digits raises ``ValueError`` (``sys.set_int_max_str_digits``):
a knob of 4,300 nines plus a little deadwood made the first error message that
mentioned the points crash the CLI with a traceback. So every whole number a
record holds is checked against a range when its event (or its rules) is
built, by an :class:`InRange` validator, and a number is only ever shown in a
message through :func:`shown_int`, which never converts more than a few digits.

The JSON Schema (:mod:`ginlog.log.schema`) reads ``lo`` and ``hi`` off each
validator for its ``minimum`` and ``maximum``, so the two cannot drift.

>>> shown_int(12345)
'12345'
>>> shown_int(10**5000)
'1000000000000000000…(5001 digits)'
>>> shown_int(-(10**40))
'-100000000000000000…(41 digits)'
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from ginlog.errors import GinlogError

__all__ = ["InRange", "shown_int", "SHOWN_DIGITS"]

#: At most this many characters of a number appear in a message.
SHOWN_DIGITS: Final = 20

# log10(2): an int of n bits has about n * this many decimal digits.
_LOG10_2: Final = 0.30102999566398120


def shown_int(value: int) -> str:
    """A whole number for a message: itself when short, else its first digits and how many there are.

    Never calls ``str()`` on a long int (which fails past 4,300 digits and is
    slow before that): the leading digits come from a division by a power of
    ten, the count from the bit length (exact: checked against that power).
    """
    if -(10 ** (SHOWN_DIGITS - 1)) < value < 10**SHOWN_DIGITS:
        return str(value)
    sign = "-" if value < 0 else ""
    magnitude = -value if value < 0 else value
    digits = int(magnitude.bit_length() * _LOG10_2)  # within one of the true count
    while 10**digits <= magnitude:
        digits += 1
    while digits > 1 and 10 ** (digits - 1) > magnitude:
        digits -= 1
    keep = SHOWN_DIGITS - 1 - len(sign)
    head = magnitude // 10 ** (digits - keep)
    return f"{sign}{head}…({digits} digits)"


@attrs.frozen
class InRange:
    """An attrs validator: a whole number from ``lo`` to ``hi`` (``None`` passes: the field's type says if it may be null).

    ``error`` and ``rule`` are what a value outside raises, so a knob's
    message is a :class:`~ginlog.errors.RulesError` ``[rules]`` and an event
    field's an :class:`~ginlog.errors.EventError` ``[event]``; the message
    names the field and the range.

    >>> from ginlog.errors import RulesError
    >>> check = InRange(0, 1000, RulesError, "rules")
    >>> field = attrs.make_class("K", {"gin_bonus": attrs.field()}).__attrs_attrs__[0]
    >>> check(None, field, 25)
    >>> check(None, field, 10**5000)
    Traceback (most recent call last):
    ...
    ginlog.errors.RulesError: gin_bonus must be a whole number from 0 to 1000, not 1000000000000000000…(5001 digits) [rules]
    """

    lo: int
    hi: int
    error: type[GinlogError]
    rule: str

    def __call__(self, _inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None:
            return
        if type(value) is not int:  # bool is not a count; cattrs' strict hooks refuse floats earlier
            raise self.error(
                f"{attribute.name} must be a whole number from {self.lo} to {self.hi}, not {_short(value)}",
                rule=self.rule,
            )
        if not self.lo <= value <= self.hi:
            raise self.error(
                f"{attribute.name} must be a whole number from {self.lo} to {self.hi}, not {shown_int(value)}",
                rule=self.rule,
            )

    @property
    def text(self) -> str:
        """The range as the documentation writes it: ``0..1000``."""
        return f"{self.lo}..{self.hi}"


def _short(value: object) -> str:
    text = repr(value) if not isinstance(value, int) else shown_int(value)
    return text if len(text) <= 40 else text[:37] + "..."
