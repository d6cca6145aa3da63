"""What lint reads from disk and git for one skill: its SKILL.md, its subfolders, whether a file is there.

Every path is followed link by link inside the repository (``lint.paths``):
a link that leads out of it is reported, never statted or read.
"""

from __future__ import annotations

import os
import stat

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import tracked_entries
from skillmem_hook.errors import FileAccessError
from skillmem_hook.files import kind_of
from skillmem_hook.lint.paths import MISSING, OUTSIDE, resolve_inside
from skillmem_hook.visible import git_add_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# The body is read whole to find what it points at; past this, a file is not a skill's text.
MAX_LINT_BYTES = 4 * 1024 * 1024
_HINT = "pass the path of a SKILL.md"


class LeavesRepository(Exception):
    """The SKILL.md is a link whose target lies outside the repository."""


def read_skill_file(path: str, boundary: str) -> bytes:
    """The first MAX_LINT_BYTES of the SKILL.md at ``path``, read only if it resolves inside ``boundary``.

    Raises LeavesRepository for a link out of it, FileAccessError when it cannot be read.
    """
    real = resolve_inside(boundary, os.path.abspath(path))
    if real == OUTSIDE:
        raise LeavesRepository(path)
    if real == MISSING:
        raise FileAccessError(f"cannot read {path}: No such file or directory", _HINT)
    try:
        # O_NONBLOCK: a FIFO with no writer would otherwise wait forever; O_NOFOLLOW: the path was resolved.
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        handle = os.open(real, flags)
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", _HINT) from None
    try:
        kind = os.fstat(handle).st_mode
        if not stat.S_ISREG(kind):
            raise FileAccessError(f"cannot read {path}: {kind_of(kind)}, not a regular file", _HINT)
        chunks = []
        size = 0
        while size < MAX_LINT_BYTES and (chunk := os.read(handle, MAX_LINT_BYTES - size)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", _HINT) from None
    finally:
        os.close(handle)


def subfolders(skill_dir: str) -> list[str]:
    """The names of the folders (and links, never followed) in the skill's folder."""
    try:
        with os.scandir(skill_dir) as entries:
            return [
                entry.name
                for entry in entries
                if entry.name != SKILL_FILE and (entry.is_dir(follow_symlinks=False) or entry.is_symlink())
            ]
    except OSError:
        return []


def existence(
    skill_dir: str, boundary: str, in_index: set[str] | None, base: str | None = None
) -> Callable[[str], bool | str]:
    """``exists(relative)`` for the files of the skill in ``skill_dir`` (see ``check_references``).

    With ``in_index`` (the hook), a file counts when git's index holds it;
    one on disk that git does not track is named with the ``git add`` to run, from ``base`` (the folder a
    finding's message names paths from, whatever the current folder: the hook runs there; None: here).
    """

    def exists(relative: str) -> bool | str:
        target = os.path.normpath(os.path.join(skill_dir, relative))
        if in_index is not None and target in in_index:
            return True
        found = resolve_inside(boundary, target)
        if found == OUTSIDE:
            return "leads out of the repository through a link; lint does not follow it: commit the file itself"
        if found == MISSING:
            return False
        if in_index is None:
            return True
        return f"exists but git does not track it; git add {git_add_path(os.path.relpath(target, base or '.'))}"

    return exists


def tracked_files(folders: Sequence[str]) -> set[str]:
    """Every path git's index holds below the folders, and the folders on the way: absolute, normalised."""
    paths: set[str] = set()
    for entry in tracked_entries([os.path.relpath(folder) for folder in folders] or ["."], everything=True):
        path = os.path.abspath(entry.path)
        while path not in paths and path != os.path.dirname(path):
            paths.add(path)
            path = os.path.dirname(path)
    return paths
