"""Which SKILL.md files each root holds, in git's view or the file system's: a PendingSkill for each.

Git's view (tracked.py) lists what the index tracks, for a root inside the
work tree; a root outside it, or a run outside git, is walked on disk
(walk.py). What each file declares is read afterwards (reading.py).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions
    from skillmem_hook.catalog.discovery.git import WorkTree
    from skillmem_hook.catalog.store.cache import Entry

OUTSIDE_REPOSITORY = "lies outside the repository, so it was read from disk and the block depends on this machine"
NAMED_OUTSIDE = (
    "lies outside the repository, and the repository names it: its skills are not the repository's own,"
    " and no link below it is followed (pass it with --root if it is yours)"
)
ROOT_IN_SUBMODULE = "the root lies in a git submodule: its skills are in its own repository, not in this one's index"


class PendingSkill:
    """A SKILL.md to turn into a skill: where it lies, its cache key, and how to read it on a miss."""

    __slots__ = ("entry", "file_path", "key", "oid", "relative", "root", "times")

    def __init__(self, root: str, relative: str, key: str, *, oid: str = "", file_path: bytes = b"") -> None:
        self.root = root
        self.relative = relative
        self.key = key
        self.oid = oid
        self.file_path = file_path
        self.times: tuple[int, ...] = ()
        self.entry: Entry | None = None


def _inside(root: str, work_tree: WorkTree) -> bool:
    real_top = os.path.realpath(work_tree.top)
    real_root = os.path.realpath(root)
    return real_root == real_top or real_root.startswith(real_top + os.sep)


def git_listings(roots: list[str], work_tree: WorkTree | None) -> dict[str, bytes] | None:
    """Git's raw listing of each root, when every root lies in the work tree (else None: some are walked)."""
    if work_tree is None or not all(_inside(root, work_tree) for root in roots):
        return None
    from skillmem_hook.catalog.discovery.git import list_index, pathspec_of  # noqa: PLC0415 - git's view only

    return {root: list_index([pathspec_of(root)]) for root in roots}


def list_root(
    root: str,
    work_tree: WorkTree | None,
    notices: list[dict[str, str]],
    listings: dict[str, bytes],
    options: CatalogOptions,
) -> tuple[list[PendingSkill], list[tuple[str, str]]]:
    """The root's SKILL.md files, and (folder, reason) pairs skipped; a notice when git's view surprises.

    ``options.user_roots``: the user named the root (``--root``); else the repository did, and no link is
    followed below it when it lies outside the repository (walk.py), and the notice NAMED_OUTSIDE says so.
    """
    from skillmem_hook.catalog.discovery.walk import check_root, find_skill_files  # noqa: PLC0415 - warm: no listing

    if work_tree is not None:
        if _inside(root, work_tree):
            found, skipped = _list_tracked(root, listings)
            if not found and not skipped:
                check_root(root)  # neither in git's index nor on disk: a typo, said as the file-system view says it
                if _in_submodule(root, work_tree):
                    return [], [(".", ROOT_IN_SUBMODULE)]
                notices.append({"root": root, "notice": _nothing_tracked(root)})
            return found, skipped
        notices.append({"root": root, "notice": OUTSIDE_REPOSITORY})
    else:
        notices += outside_notices([root], options)
    files, skipped = find_skill_files(root, user_root=options.user_roots, boundary=options.boundary)
    return [PendingSkill(root, found.relative, "", file_path=found.file_path) for found in files], skipped


def outside_notices(roots: Sequence[str], options: CatalogOptions) -> list[dict[str, str]]:
    """A NAMED_OUTSIDE notice for each root the repository names that lies outside it (none for ``--root``).

    A root below the current folder lies inside the repository (the current folder does): git is asked only
    about a root elsewhere (``../skills``, an absolute path), so the usual layouts cost no git call.
    """
    if options.user_roots:
        return []
    from skillmem_hook.catalog.discovery.confinement import outside_boundary  # noqa: PLC0415 - rare
    from skillmem_hook.catalog.dot_git import within  # noqa: PLC0415 - rare

    here = os.path.realpath(os.curdir)
    notices = []
    for root in roots:
        real = os.path.realpath(root)
        if not within(real, here) and outside_boundary(real, options.boundary):
            notices.append({"root": root, "notice": NAMED_OUTSIDE})
    return notices


def _list_tracked(root: str, listings: dict[str, bytes]) -> tuple[list[PendingSkill], list[tuple[str, str]]]:
    from skillmem_hook.catalog.discovery.git import list_index, parse_index  # noqa: PLC0415 - git's view only
    from skillmem_hook.catalog.discovery.tracked import pathspec_of, tracked_skill_files  # noqa: PLC0415 - git's view

    # Popped: at 100,000 skills the listing is some 10 MB the rest of the run no longer needs.
    listing = listings.pop(root) if root in listings else list_index([pathspec_of(root)])
    found, skipped = tracked_skill_files(root, parse_index(listing))
    return [PendingSkill(root, tracked.relative, "b:" + tracked.oid, oid=tracked.oid) for tracked in found], skipped


def _in_submodule(root: str, work_tree: WorkTree) -> bool:
    """Whether the root (or a folder above it in the work tree) has a .git of its own: git lists nothing there."""
    from skillmem_hook.catalog.discovery.confinement import Area, nested_repository  # noqa: PLC0415 - an empty root

    real_top = os.path.realpath(work_tree.top)
    return nested_repository(os.path.realpath(root), Area(real_top, (), git=True)) is not None


def _nothing_tracked(root: str) -> str:
    """Why git's view of a root is empty: said, since a block that loses every skill surprises."""
    from skillmem_hook.catalog.discovery.git import ignored_paths  # noqa: PLC0415 - git's view only

    ignored = bool(ignored_paths([root])) if os.path.isdir(root) else False
    why = "git ignores it, so " if ignored else ""
    return f"{why}git tracks no SKILL.md below it: the block lists none of its skills (git add them, or fix --root)"
