"""Deep folder chains for tests: ``root/d/d/...`` removed without any path growing long.

Shared by ``tests/test_paths.py`` and the hostile campaign's deep class (``tests/reliability/hostile_limits.py``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def remove_deep(root: Path) -> None:
    """Remove ``root/d/d/...``: each round lifts ``d/d`` into ``d``'s place and removes ``d``, so no path ever
    grows long (``shutil.rmtree`` recurses, and fails at this depth)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        while "d" in os.listdir(fd):
            sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            try:
                for name in os.listdir(sub):
                    if name == "d":
                        os.rename("d", "next", src_dir_fd=sub, dst_dir_fd=fd)
                    else:
                        os.unlink(name, dir_fd=sub)
            finally:
                os.close(sub)
            os.rmdir("d", dir_fd=fd)
            if "next" in os.listdir(fd):
                os.rename("next", "d", src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        os.close(fd)
    shutil.rmtree(root)
