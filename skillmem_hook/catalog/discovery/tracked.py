"""The SKILL.md files git tracks below a root: what the next commit holds.

Pure over git's index entries (``git.tracked_entries``), except that a
tracked symlink is resolved on disk, where git's checkout put it. The rules
are the file-system walk's (walk.py, links.py): hidden folders below the
root are skipped; a link is followed only inside the root; a link to a
folder whose files are listed already is not followed again. Two more apply
here: a submodule's files are not in this repository's index, so its skills
are skipped with a reason, and so is a path whose merge conflict is unresolved.
"""

from __future__ import annotations

import os
from bisect import bisect_left

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import pathspec_of as pathspec_of  # noqa: PLC0414 - where it was
from skillmem_hook.catalog.discovery.git import tracked_entries
from skillmem_hook.catalog.discovery.links import OUTSIDE_ROOT, UNTRACKED_TARGET, link_problem, walked_link_reason
from skillmem_hook.catalog.discovery.walk import FOLDER_NAMED_SKILL_FILE
from skillmem_hook.errors import FileAccessError
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.discovery.git import IndexEntry

SUBMODULE = "a git submodule: its skills are in its own repository, not in this one's index"
CONFLICT = "SKILL.md has an unresolved merge conflict: resolve it and git add it"


class TrackedFile:
    """A tracked SKILL.md: its folder relative to the root, and its blob id."""

    __slots__ = ("oid", "relative")

    def __init__(self, relative: str, oid: str) -> None:
        self.relative = relative
        self.oid = oid


def tracked_skill_files(root: str, entries: Sequence[IndexEntry]) -> tuple[list[TrackedFile], list[tuple[str, str]]]:
    """Tracked SKILL.md files sorted by folder, and (folder, reason) pairs skipped, relative to the root."""
    prefix = pathspec_of(root)
    prefix = "" if prefix == "." else prefix + "/"
    by_path = {entry.path: entry for entry in entries}
    in_order = _SortedPaths(by_path)
    found: list[TrackedFile] = []
    skipped: dict[str, str] = {}
    followed: set[str] = set()  # the hidden folders listed through a link: a second link to one is not followed
    for entry in entries:
        relative = entry.path[len(prefix) :] if entry.path.startswith(prefix) else None
        if relative is None or _hidden(relative):
            continue
        folder, _, name = relative.rpartition("/")
        folder = folder or "."
        if "SKILL.md/" in relative:  # as the walk says it of a folder named SKILL.md, whose skills it lists too
            at = ("/" + relative).find("/SKILL.md/")
            skipped[relative[: at - 1] if at > 0 else "."] = FOLDER_NAMED_SKILL_FILE
        if entry.stage != "0":
            if name == SKILL_FILE:
                skipped[folder] = CONFLICT
        elif entry.is_submodule:
            skipped[relative] = SUBMODULE
        elif entry.is_link:
            _resolve_link(entry, relative, root, by_path=in_order, found=found, skipped=skipped, followed=followed)
        elif name == SKILL_FILE:
            found.append(TrackedFile(folder, entry.oid))
    found.sort(key=lambda tracked: tracked.relative)
    return found, sorted(skipped.items())


def _resolve_link(
    entry: IndexEntry,
    relative: str,
    root: str,
    *,
    by_path: _SortedPaths,
    found: list[TrackedFile],
    skipped: dict[str, str],
    followed: set[str],
) -> None:
    folder, _, name = relative.rpartition("/")
    if os.path.islink(entry.path):
        reason = link_problem(os.fsencode(entry.path), os.path.realpath(os.fsencode(root)))
        try:
            target = os.path.relpath(os.path.realpath(entry.path))
        except FileNotFoundError:
            return  # removed from disk while the run read it (a concurrent checkout)
        is_folder = os.path.isdir(entry.path)
    else:
        # core.symlinks=false (Git for Windows' default) checks a link out as a plain file holding its target:
        # parsed, it would be a skill named after its folder. Resolved from git's own record instead, alike everywhere.
        target, reason = _target_in_index(entry, root, by_path.entries)
        is_folder = bool(by_path.below(target))
    if reason is not None:
        if reason:
            skipped[folder or "." if name == SKILL_FILE else relative] = reason
        return
    if name == SKILL_FILE:
        tracked = by_path.entries.get(target) or _look_up(target)
        if tracked is None or tracked.stage != "0":
            skipped[folder or "."] = UNTRACKED_TARGET
        else:
            found.append(TrackedFile(folder or ".", tracked.oid))
    elif is_folder:
        inside = os.path.relpath(target, pathspec_of(root))
        if not _hidden(inside + "/x") or _below(target + "/x", followed):
            real_parent = os.path.realpath(os.path.dirname(entry.path) or ".")
            skipped[relative] = walked_link_reason(os.fsencode(real_parent), os.fsencode(os.path.realpath(target)))
            return
        found += _listed_through(target, relative, by_path, followed)
        followed.add(target)


class _SortedPaths:
    """The index entries by path, and their paths sorted once (on first need): a folder's entries are one slice.

    A repository may commit thousands of links into hidden folders: a scan of every entry per link was
    links x entries (10,000 links and 20,000 entries took a minute); a bisection per link is near-linear.
    """

    __slots__ = ("_sorted", "entries")

    def __init__(self, entries: dict[str, IndexEntry]) -> None:
        self.entries = entries
        self._sorted: list[str] | None = None

    def below(self, folder: str) -> list[str]:
        """The paths below ``folder``, in order: from ``folder + "/"`` up to ``folder + "0"`` ("0" follows "/")."""
        if self._sorted is None:
            self._sorted = sorted(self.entries)
        paths = self._sorted
        return paths[bisect_left(paths, folder + "/") : bisect_left(paths, folder + "0")]


def _below(path: str, folders: set[str]) -> bool:
    """Whether the file ``path`` lies below one of ``folders`` with no hidden folder between: walked already.

    The walk below a followed link skips its hidden folders, so a second link into one of them (``l2`` to
    ``.drafts/.drafts`` beside ``l1`` to ``.drafts``) leads where no walk went. Its ancestors looked up in the
    set, not the set scanned: a lookup per folder on the path, whatever the set holds.
    """
    head = path
    while "/" in head:
        head = head.rpartition("/")[0]
        if head in folders:
            return not _hidden(path[len(head) + 1 :])
    return False


def _listed_through(target: str, relative: str, by_path: _SortedPaths, followed: set[str]) -> list[TrackedFile]:
    """The SKILL.md files below ``target``, a hidden folder the walk never entered, as the link ``relative`` shows them.

    As the walk below a followed link: hidden folders are skipped, a link's blob (its target's path) is no skill,
    and a folder an earlier link listed (``followed``) is not listed again (the walk knows each folder walked).
    """
    found = []
    for path in by_path.below(target):
        below = path[len(target) + 1 :]
        linked = by_path.entries[path]
        if (
            (below == SKILL_FILE or below.endswith("/" + SKILL_FILE))
            and not _hidden(below)
            and linked.stage == "0"
            and not linked.is_link
            and not _below(path, followed)
        ):
            found.append(TrackedFile(relative + path[len(target) : -len(SKILL_FILE) - 1], linked.oid))
    return found


def _target_in_index(entry: IndexEntry, root: str, by_path: dict[str, IndexEntry]) -> tuple[str, str | None]:
    """Where a link git records (mode 120000) leads, read from its blob, links in the index followed.

    (target relative to the current folder, None) when it may be followed,
    else (the path, the reason the walk gives for such a link).
    """
    from skillmem_hook.catalog.discovery.git_blobs import MissingBlob, read_blobs  # noqa: PLC0415 - a warm hook reads no blob

    prefix = pathspec_of(root)
    path, seen = entry.path, set()
    linked: IndexEntry | None = entry
    while linked is not None and linked.is_link:
        if path in seen:
            return path, "symlink loop: the link leads back to itself"
        seen.add(path)
        try:
            ((_, data),) = list(read_blobs([linked.oid], 4096))
        except MissingBlob as missing:
            raise FileAccessError(
                f"git's index names the link {visible(path)} by the blob {missing.name}, which its object store lacks",
                missing.hint,
            ) from None
        text = data.decode("utf-8", "surrogateescape")
        path = os.path.normpath(os.path.join(os.path.dirname(path), text))
        if not text or os.path.isabs(text) or not _within(path, prefix):
            return path, OUTSIDE_ROOT
        linked = by_path.get(path)
    return path, None


def _within(path: str, prefix: str) -> bool:
    if prefix == ".":
        return path != ".." and not path.startswith("../")
    return path == prefix or path.startswith(prefix + "/")


def _hidden(relative: str) -> bool:
    """True when a folder on the path (not the root itself) starts with a dot."""
    folders = relative.rpartition("/")[0]  # string tests, not a split: this runs once per tracked file
    return folders.startswith(".") or "/." in folders


def _look_up(path: str) -> IndexEntry | None:
    """The index entry of one path: for a SKILL.md linked to a file of another name (rare)."""
    entries = tracked_entries([path], everything=True)
    return entries[0] if entries else None
