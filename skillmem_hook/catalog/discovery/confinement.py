"""Where a file a repository names may lie, whether skillmem reads it or writes it: the one rule of both.

The threat model: a repository's content (a contributor's pull request, a
vendored skill pack) is untrusted; the person running the tool, their git
directory and their machine are what skillmem protects. So a file that is
read or written because the repository names it (a prompt file or ``write:``
file, a SKILL.md) must:

- resolve inside the work tree (outside one, inside a folder the caller
  names: the configuration's for a write, the skills root for a read);
- lie outside every git directory: the work tree's own (both of a linked
  work tree) and any folder or file named ``.git`` on the way (a nested
  repository's, a vendored pack's), in any case, as git itself refuses them;
- when it is reached through a symlink (the file itself or a folder on the
  way), land on a file git tracks: a write then shows in ``git diff``, and a
  read hands out only what the repository holds itself, never an ignored
  ``.env``. (Git's ignore rules never apply to a tracked file, so "tracked"
  is also "not ignored".)

The writes: ``block/targets.py``. The reads: the file-system walk
(``walk.py``) and the safe reader (``safe_read.py``); git's view lists only
tracked files, so it holds the rule by its nature. The letters of a path
are checked for every file; git is asked only about files reached through a
link, which are rare, so a tree without links costs no git call.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery.git import WorkTreeMoved, find_top_and_git_dirs, tracked_entries
from skillmem_hook.catalog.dot_git import holds_repository, within
from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence
    from typing import TypeVar

    Key = TypeVar("Key")

OUTSIDE = "outside"
IN_GIT_DIRECTORY = "in a git directory"
UNTRACKED = "not tracked by git"
_BATCH = 1000  # paths per git call: a linked pack of 100,000 skills stays far below the system's argument limit


class Area:
    """The folder a repository's files may lie in (a real path), and the git directories they may not lie in.

    ``git``: the folder is a git work tree's, so a file reached through a link must be one git tracks.
    """

    __slots__ = ("forbidden", "git", "top")

    def __init__(self, top: str, forbidden: Sequence[str], *, git: bool) -> None:
        self.top = top
        self.forbidden = forbidden
        self.git = git


def repository_area(base: str) -> Area:
    """The work tree around the current folder, as git's environment names it; outside one, the folder ``base``.

    Raises UsageError when git is missing: a write is refused rather than guessed at.
    """
    return _area(base, find_top_and_git_dirs())


def read_area(real_root: str) -> Area:
    """Where the skills of a root (a real path) may be read from: the work tree holding it, or else the root itself.

    A root outside the work tree (a user's ``~/.claude/skills``) is the user's own; below it, links stay
    inside it and out of git directories. Without git on the PATH the same holds for every root.
    """
    found = _top_and_git_dirs_or_none()
    area = _area(real_root, found)
    if area.git and not within(real_root, area.top):
        return Area(real_root, area.forbidden, git=False)
    return area


def _top_and_git_dirs_or_none() -> tuple[str, list[str]] | None:
    """``find_top_and_git_dirs()`` (None outside a work tree), or None where git is not on the PATH; a work tree its
    configuration moved is refused."""
    try:
        return find_top_and_git_dirs()
    except WorkTreeMoved:
        raise
    except UsageError:  # git is not on PATH
        return None


def outside_boundary(real_root: str, boundary: str | None = None) -> bool:
    """Whether a root (a real path) lies outside the repository around the current folder.

    The repository is the work tree git finds from the current folder; outside one (an unpacked archive, no git
    on the PATH), the folder ``boundary`` (the project's top as skillmem finds it: the folder holding the
    ``.skillmem.yaml``), or the current folder when none is given.
    """
    found = _top_and_git_dirs_or_none()
    top = found[0] if found is not None else (boundary or os.curdir)
    return not within(real_root, os.path.realpath(top))


def _area(base: str, found: tuple[str, list[str]] | None) -> Area:
    if found is None:
        top = os.path.realpath(base)
        return Area(top, [os.path.join(top, ".git")], git=False)
    top, git_dirs = found
    real_top = os.path.realpath(top)
    return Area(real_top, [os.path.join(real_top, ".git"), *map(os.path.realpath, git_dirs)], git=True)


def escape(real: str, area: Area) -> str | None:
    """OUTSIDE or IN_GIT_DIRECTORY when the real path ``real`` may not be used; None when its letters allow it."""
    if not within(real, area.top):
        return OUTSIDE
    if any(within(real, folder) for folder in area.forbidden) or _names_git(real[len(area.top) :]):
        return IN_GIT_DIRECTORY
    return None


def refusals(landings: Mapping[Key, str], area: Area, listed: Sequence[str] = ()) -> dict[Key, str]:
    """Why each file reached through a link may not be read or written: OUTSIDE, IN_GIT_DIRECTORY or UNTRACKED.

    ``landings``: each file's real path, by a key of the caller's; those allowed are left out. ``listed``:
    as ``untracked`` takes it (the paths among them that the rule allows are listed).
    """
    refused: dict[Key, str] = {}
    allowed: dict[Key, str] = {}
    for key, landing in landings.items():
        problem = escape(landing, area)
        if problem is None:
            allowed[key] = landing
        else:
            refused[key] = problem
    if area.git and allowed:
        not_tracked = untracked(set(allowed.values()), [path for path in listed if escape(path, area) is None])
        refused.update((key, UNTRACKED) for key, landing in allowed.items() if landing in not_tracked)
    return refused


def untracked(landings: Collection[str], listed: Sequence[str] = ()) -> set[str]:
    """Those of the real paths ``landings`` that git's index does not hold as regular files.

    ``listed``: real paths (files or folders) whose listing holds every landing, when they are fewer (the
    folder a link leads to, for the skills found below it); the landings themselves by default.
    """
    here = os.path.realpath(os.curdir)
    relative = [os.path.relpath(path, here) for path in (listed or sorted(landings))]
    tracked = {
        os.path.normpath(os.path.join(here, entry.path))
        for start in range(0, len(relative), _BATCH)
        for entry in tracked_entries(relative[start : start + _BATCH], everything=True)
        if entry.stage == "0" and not entry.is_link and not entry.is_submodule
    }
    return {path for path in landings if path not in tracked}


def nested_repository(real: str, area: Area) -> str | None:
    """The outermost folder from ``real`` (a real path, itself included) up to the work tree's top (left out) that
    holds a ``.git`` of its own: a submodule's work tree, or another repository's; None when there is none.

    What lies there is another repository's: this one's index holds none of it (git refuses to ``git add`` it:
    "Pathspec ... is in submodule"), and a commit here never holds what is written there. A stat per folder
    below the top, no git call.

    A ``.git`` counts by the one rule (``dot_git.holds_repository``): a git directory, or a file with a
    ``gitdir:`` line. A bare ``mkdir .git``, a FIFO, a broken link or a file of other text named ``.git`` is
    none, and ``git add`` adds what lies below it. A ``gitdir:`` file counts whatever it names, stricter than
    git (which adds what lies below one naming no git directory): a submodule whose git directory is missing is
    still a submodule.
    """
    found = None
    folder = real
    while area.git and folder != area.top and within(folder, area.top):
        if holds_repository(folder):
            found = folder
        folder = os.path.dirname(folder)
    return found


def _names_git(relative: str) -> bool:
    """Whether a folder or file named ``.git`` (in any case) lies on the path below the area's top."""
    return ".git" in relative.lower() and any(part.lower() == ".git" for part in relative.split(os.sep))
