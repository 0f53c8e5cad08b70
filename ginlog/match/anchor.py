"""The head hash a user kept, checked against a file's lines: whole, in any case, or its first 12+ hex digits.

``ginlog score`` prints the head (the SHA-256 of the last line) to keep; an
audit given it back (``--anchor``) proves the file still reaches that line,
which is what catches lines cut off the end. People copy hashes as they copy
git's, by their first dozen digits and in either case: a prefix is enough if
it begins exactly one line's digest.

>>> a = Anchor("ABCDEF012345")
>>> a.see(1, ["abcdef0123450000", "ffff"]); a.error("m.jsonl") is None
True
>>> a.see(3, ["abcdef012345ffff"]); a.error("m.jsonl").rule
'anchor'
"""

from __future__ import annotations

from collections.abc import Sequence

from ginlog.errors import IntegrityError

__all__ = ["Anchor"]


class Anchor:
    """A head hash the user kept, or the start of one (at least 12 hex digits): the lines whose digest it begins.

    A whole digest is found once and looked for no more; a prefix is looked
    for in every line, as it must begin exactly one line's digest.
    """

    __slots__ = ("want", "whole", "hits", "first")

    def __init__(self, want: str) -> None:
        self.want = want.lower()
        self.whole = len(want) == 64
        self.hits = 0
        self.first = 0  # the first line whose digest it begins

    def see(self, lineno: int, digests: Sequence[str]) -> None:
        """Lines ``lineno``, ``lineno + 1``, ... have these digests."""
        if self.whole:
            if not self.hits and self.want in digests:
                self.hits, self.first = 1, lineno + list(digests).index(self.want)
            return
        want = self.want
        for i, d in enumerate(digests):
            if d.startswith(want):
                self.hits += 1
                if self.hits == 1:
                    self.first = lineno + i

    def error(self, label: str) -> IntegrityError | None:
        """Why the file does not reach the kept head, or None if it does."""
        if self.hits == 1:
            return None
        if self.hits:
            return IntegrityError(
                f"{self.hits} lines' hashes begin with the kept head {self.want} (the first, line {self.first}):"
                " give more of it",
                rule="anchor",
                path=label,
            )
        return IntegrityError(
            f"the file does not contain the kept head {self.want[:12]}...: lines were removed or changed",
            rule="anchor",
            path=label,
        )
