"""Which skills a commit touches, asked of git: pre-commit never passes the files a commit deletes.

A commit that deletes, renames or stops tracking a script breaks the SKILL.md
that runs it without touching the SKILL.md, so the hook lints every skill
that owns a changed path: the nearest folder above it whose SKILL.md git
tracks. Everything is read from two git calls (the staged paths, and the
index below the roots, after the one that finds the work tree), so a commit that
touches no skill costs little.
"""

from __future__ import annotations

import os
import posixpath

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import run_git, tracked_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


class Touched:
    """The SKILL.md files to lint, and how many git tracks below the roots in all."""

    __slots__ = ("skill_files", "total")

    def __init__(self, skill_files: list[str], total: int) -> None:
        self.skill_files = skill_files
        self.total = total


def changed_paths() -> list[str] | None:
    """The paths the commit adds, changes, deletes or stops tracking (a rename as both), relative to here.

    Under ``pre-commit run --from-ref A --to-ref B``, the paths changed
    between the two. None when git cannot say (the caller then trusts the
    names pre-commit passed).
    """
    start, end = os.environ.get("PRE_COMMIT_FROM_REF"), os.environ.get("PRE_COMMIT_TO_REF")
    what = [f"{start}...{end}"] if start and end else ["--cached"]
    code, out = run_git(
        ["diff", "--no-ext-diff", "--no-textconv", "--name-only", "--no-renames", "--relative", "-z", *what]
    )
    if code != 0:
        return None
    return [os.fsdecode(path) for path in out.split(b"\0") if path]


def touched_skills(paths: Iterable[str], roots: Sequence[str]) -> Touched:
    """The SKILL.md (tracked, below the roots) of each skill that owns one of the paths."""
    folders = {
        posixpath.dirname(entry.path)
        for entry in tracked_entries(list(roots))
        if not entry.is_link and posixpath.basename(entry.path) == SKILL_FILE
    }
    owners: set[str] = set()
    for path in paths:
        folder = posixpath.normpath(path.replace(os.sep, "/"))
        folder = posixpath.dirname(folder) if posixpath.basename(folder) == SKILL_FILE else folder
        while True:
            owner = "" if folder == "." else folder
            if owner in folders:
                owners.add(owner)
                break
            if not folder or folder in (".", "/"):
                break
            folder = posixpath.dirname(folder)
    return Touched(sorted(posixpath.join(owner, SKILL_FILE) for owner in owners), len(folders))
