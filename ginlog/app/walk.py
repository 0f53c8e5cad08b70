"""The files that paths name, one at a time: :func:`~ginlog.app.audit.expand_paths` as a stream.

``expand_paths`` returns every file in a list, which for a million files is
a hundred megabytes before anything is read. :func:`iter_paths` yields the
same files in the same order (files, folders searched for ``*.jsonl``,
globs), each as it is found: a folder is walked one directory at a time,
each sorted so that the order is that of the sorted full paths (a folder
``b`` sorts as ``b/``, after ``b.jsonl``), and, like ``Path.rglob``, a
symbolic link to a folder is not followed. What is not found comes as a
:class:`~ginlog.errors.StoreError`, in its place among the arguments.

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> for name in ("b.jsonl", "b/x.jsonl", "a.jsonl", "b/c/y.jsonl", "notes.txt"):
...     os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
...     open(os.path.join(root, name), "w").close()
>>> [os.path.relpath(p, root) for p in iter_paths([root])]
['a.jsonl', 'b.jsonl', 'b/c/y.jsonl', 'b/x.jsonl']
>>> count_paths([root, os.path.join(root, "missing")])
5
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ginlog.errors import GinlogError, StoreError

__all__ = ["iter_paths", "count_paths"]


def _walk(folder: str) -> Iterator[str]:
    """``*.jsonl`` files under ``folder``, in the order of their sorted full paths.

    One directory's listing is held at a time, and only the names that
    matter (sub-folders, as ``name/``, and ``*.jsonl``): about 60 bytes a file.
    """
    names: list[str] = []
    try:
        with os.scandir(folder) as it:
            for e in it:
                if e.is_dir() and not e.is_symlink():
                    names.append(e.name + "/")
                elif e.name.endswith(".jsonl"):
                    names.append(e.name)
    except OSError:
        return
    names.sort()
    for name in names:
        if name.endswith("/"):
            yield from _walk(os.path.join(folder, name[:-1]))
        else:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                yield path


def iter_paths(paths: Iterable[str]) -> Iterator[str | GinlogError]:
    """Each file the arguments name, in order; a :class:`StoreError` for an argument that names none."""
    for p in paths:
        if p == "-":
            yield p
        elif os.path.isdir(p):
            yield from _walk(str(Path(p)))
        elif os.path.exists(p):
            yield p
        elif glob.has_magic(p):
            found = False
            for hit in sorted(glob.iglob(p, recursive=True)):
                found = True
                if os.path.isfile(hit):
                    yield hit
            if not found:
                yield StoreError(f"no file matches {p}", rule="file", path=p)
        else:
            yield StoreError("no such file or folder", rule="file", path=p)


def count_paths(paths: Iterable[str]) -> int:
    """How many items :func:`iter_paths` yields (for a progress bar's total): one walk, nothing kept."""
    return sum(1 for _ in iter_paths(paths))
