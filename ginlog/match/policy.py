"""How an app reading of a match file treats what it finds: one :class:`Policy`, one default, :data:`POLICY`.

Every command that reads a match file (``audit``, ``validate``, ``score``,
``show``, ``replay``, ``stats``, ``export``, ``html``, the site) reads it
with :data:`POLICY`, so a file gets the same verdict everywhere: the same
first error, the same count of errors, the same warnings. Before there was
one policy a command (``audit`` kept 100 errors, ``stats`` and ``html``
every one of a damaged file's 100,000, ``score`` looked for no warning), so
the same file said different things, and memory grew with the damage.

A policy *collects*: every problem is counted (by rule), at most ``keep``
of them (and of the warnings) are kept with their places, and reading goes
on to the end. A visitor given one (``FinalState(policy=POLICY)``) needs no
other error argument.

>>> POLICY.keep, POLICY.warnings
(100, True)
>>> Policy(keep=5).kept(12), Policy(keep=None).kept(12)
(5, 12)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import attrs

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.match.seals import Keyring, Require

__all__ = ["Policy", "POLICY", "KEEP"]

#: Problems (and warnings) kept per file by default; all are counted.
KEEP: Final = 100


@attrs.frozen
class Policy:
    """What a collecting reading keeps: ``keep`` problems and warnings (None: all), whether it warns, and its seal
    policy.

    Small and frozen, so it can be handed to a worker process (or another
    machine) with the path it reads.
    """

    keep: int | None = KEEP
    warnings: bool = True
    #: A club's keys to check each seal against (``audit --allowed-signers``, the players file's ``keys``), and
    #: whether seals are required (``--require-seals all|any``): either makes it a seal policy, which also warns
    #: of what no seal covers (:mod:`ginlog.match.seals`).
    keyring: Keyring | None = None
    require: Require | None = None

    def kept(self, found: int) -> int:
        """How many of ``found`` problems this policy keeps."""
        return found if self.keep is None else min(found, self.keep)


#: The one default: what every command reads a match file with.
POLICY: Final = Policy()
