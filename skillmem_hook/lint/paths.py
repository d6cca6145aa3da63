"""Follow a path's links one by one, and stop before any step that leaves the repository.

Lint never stats or reads outside the repository it checks: a link in a
repository's tree (a ``SKILL.md``, a ``scripts`` folder) is the
repository's content, and where it points is not lint's business beyond
saying so. ``os.path.realpath`` would stat every step of the target; this
stats only the steps that stay inside.
"""

from __future__ import annotations

import os
import stat

# As the kernel's own limit on links followed in one lookup (ELOOP).
_MAX_LINKS = 40

OUTSIDE = "outside"
MISSING = "missing"


def resolve_inside(boundary: str, path: str) -> str:
    """``path`` with its links followed: the real path, or MISSING, or OUTSIDE when a step leaves ``boundary``.

    Both are absolute. A path that loops or is not under ``boundary`` to
    start with is OUTSIDE.
    """
    boundary = os.path.normpath(boundary)
    pending = _parts_below(boundary, os.path.normpath(path))
    if pending is None:
        return OUTSIDE
    current, links = boundary, 0
    while pending:
        candidate = os.path.join(current, pending.pop(0))
        try:
            mode = os.lstat(candidate).st_mode
        except OSError:
            return MISSING
        if not stat.S_ISLNK(mode):
            current = candidate
            continue
        links += 1
        try:
            target = os.path.normpath(os.path.join(current, os.readlink(candidate)))
        except OSError:
            return MISSING
        below = _parts_below(boundary, target)
        if below is None or links > _MAX_LINKS:
            return OUTSIDE
        current, pending = boundary, below + pending
    return current


def is_inside(boundary: str, path: str) -> bool:
    """Whether the normalised absolute ``path`` is ``boundary`` or below it, by its letters alone."""
    return _parts_below(os.path.normpath(boundary), os.path.normpath(path)) is not None


def _parts_below(boundary: str, path: str) -> list[str] | None:
    if path == boundary:
        return []
    prefix = boundary if boundary.endswith(os.sep) else boundary + os.sep
    if not path.startswith(prefix):
        return None
    return [part for part in path[len(prefix) :].split(os.sep) if part]
