"""Which skills a commit touches, asked of git: pre-commit never passes the files a commit deletes.

A commit that deletes, renames or stops tracking a script breaks the SKILL.md
that runs it without touching the SKILL.md, so the hook lints every skill
that owns a changed path: the nearest folder above it whose SKILL.md git
tracks. Everything is read from two git calls (the staged paths with their
status, and the index below the roots, after the one that finds the work tree;
a third finds renames when the commit deletes a path and adds one), so a commit
that touches no skill costs little.
"""

from __future__ import annotations

import os
import posixpath

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import run_git, tracked_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Sequence


class Touched:
    """The SKILL.md files to lint, and how many git tracks below the roots in all."""

    __slots__ = ("skill_files", "total")

    def __init__(self, skill_files: list[str], total: int) -> None:
        self.skill_files = skill_files
        self.total = total


class Changes:
    """The paths a run changes (relative to here), and those of them the commit itself deletes or stops tracking."""

    __slots__ = ("deleted", "paths")

    def __init__(self, paths: list[str], deleted: list[str]) -> None:
        self.paths = paths
        self.deleted = deleted


def changed_paths() -> list[str] | None:
    """The paths the commit adds, changes, deletes or stops tracking (a rename as both), relative to here.

    Under ``pre-commit run --from-ref A --to-ref B``, the paths changed
    between the two. None when git cannot say (the caller then trusts the
    names pre-commit passed).
    """
    changes = commit_changes()
    return None if changes is None else changes.paths


def commit_changes() -> Changes | None:
    """``changed_paths``, with the staged deletions among them: one git call, two for a commit that deletes a path
    and adds one (a rename?).

    Under a ref range (``PRE_COMMIT_FROM_REF`` and ``PRE_COMMIT_TO_REF``: the
    pre-push stage, ``pre-commit run --from-ref A --to-ref B`` in CI) no path
    is the commit's own deletion: the range's were made by commits already
    made.
    """
    start, end = os.environ.get("PRE_COMMIT_FROM_REF"), os.environ.get("PRE_COMMIT_TO_REF")
    ranged = bool(start and end)
    listed = _name_status([f"{start}...{end}"] if ranged else ["--cached"], renames=False)
    if listed is None or ranged:
        return None if listed is None else Changes([path for _, paths in listed for path in paths], [])
    # A staged rename is no deletion: its known findings come back under the new path, which the failing run
    # explains. git pairs a rename only from a path deleted and one added, so only such a commit asks again with
    # renames found (that diff opens the attribute files, so they are looked at first: one more git call).
    statuses = {status for status, _ in listed}
    if b"D" in statuses and b"A" in statuses:
        listed = _name_status(["--cached"], renames=True)
        if listed is None:
            return None
    paths = [path for _, named in listed for path in named]
    return Changes(paths, [path for status, named in listed if status == b"D" for path in named])


def _name_status(what: list[str], *, renames: bool) -> list[tuple[bytes, list[str]]] | None:
    """Each change of ``git diff --name-status`` over ``what``: its status letter and its paths (two for a rename or
    copy: R100, C75), or None when git fails."""
    arguments = ["diff", "--no-ext-diff", "--no-textconv", "--name-status", "--relative", "-z"]
    code, out = run_git([*arguments, *what, "--find-renames" if renames else "--no-renames"])
    if code != 0:
        return None
    changes: list[tuple[bytes, list[str]]] = []
    fields = out.split(b"\0")
    at = 0
    while at + 1 < len(fields) and fields[at]:
        status = fields[at]
        count = 2 if status[:1] in (b"R", b"C") else 1
        changes.append((status[:1], [os.fsdecode(path) for path in fields[at + 1 : at + 1 + count] if path]))
        at += 1 + count
    return changes


def touched_skills(paths: Iterable[str], roots: Sequence[str]) -> Touched:
    """The SKILL.md (tracked, below the roots) of each skill that owns one of the paths."""
    folders = {
        posixpath.dirname(entry.path)
        for entry in tracked_entries(list(roots))
        if not entry.is_link and posixpath.basename(entry.path) == SKILL_FILE
    }
    owners = owning_folders(paths, folders)
    return Touched(sorted(posixpath.join(owner, SKILL_FILE) for owner in owners), len(folders))


def owning_folders(paths: Iterable[str], folders: Collection[str]) -> set[str]:
    """The skill folders (``folders``: relative to the top, ``/``-separated, ``""`` the top itself) that own one of
    the paths: for each path, the nearest of them at or above it, so a nested skill's change is not its parent's.

    Each folder is walked once, however many paths lie in it, so the cost is linear in the paths (hostile15's F1:
    200,000 staged files).
    """
    owners: set[str] = set()
    known: dict[str, str | None] = {}  # a folder walked: its owner, or None
    for given in paths:
        path = posixpath.normpath(given.replace(os.sep, "/"))
        if path in folders:  # a skill's folder itself (a submodule's entry)
            owners.add(path)
            continue
        folder = _parent(path)
        owner = known[folder] if folder in known else _nearest_owner(folder, folders, known)
        if owner is not None:
            owners.add(owner)
    return owners


def _nearest_owner(folder: str, folders: Collection[str], known: dict[str, str | None]) -> str | None:
    """The nearest of ``folders`` at or above ``folder``; None when there is none. ``known`` keeps each answer."""
    walked = []
    owner: str | None = None
    while True:
        if folder in known:
            owner = known[folder]
            break
        walked.append(folder)
        if folder in folders:
            owner = folder
            break
        if not folder or folder == "/":
            break
        folder = _parent(folder)
    for at in walked:
        known[at] = owner
    return owner


def _parent(path: str) -> str:
    """``posixpath.dirname`` of a normalised path, at a fraction of its cost (a commit may stage 200,000 files);
    ``//x``'s is ``/``, so the walk ends there."""
    cut = path.rfind("/")
    return path[:cut] if cut > 0 else path[: cut + 1]
