"""The walks each agent makes of its folders: the skill folders it finds, in the order it finds them.

The edge that lists folders (names and types; no file is read here). Every
walk reads one shared listing of each real folder (``Folders``), so a tree
that several agents read is listed once. A link is followed only to a folder
inside the repository or inside a configured root: an agent would follow it
anywhere, but what lies elsewhere is not among the skills ``budget`` replays,
and a walk never goes where the catalog does not read.
"""

from __future__ import annotations

import os
from collections import deque

from skillmem_hook.catalog import SKILL_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class Found:
    """A skill folder an agent found: its real path, the root (repository-relative) and the names below it."""

    __slots__ = ("parts", "real", "root")

    def __init__(self, real: str, root: str, parts: tuple[str, ...]) -> None:
        self.real = real
        self.root = root
        self.parts = parts

    @property
    def path(self) -> str:
        """The folder as the agent names it, relative to the repository (through any link)."""
        return "/".join((self.root, *self.parts))


class Listing:
    """One real folder: its sub-folders (name, real path) in code-point order, its entry count, its SKILL.md."""

    __slots__ = ("entries", "folders", "skill")

    def __init__(self, folders: list[tuple[str, str]], entries: int, skill: bool) -> None:
        self.folders = folders
        self.entries = entries
        self.skill = skill


class Folders:
    """The listings of the real folders the walks read, each read once; links followed within ``bounds``."""

    def __init__(self, top: str, bounds: Iterable[str]) -> None:
        self.top = os.path.realpath(top)
        self.bounds = {os.path.realpath(self.top), *(os.path.realpath(bound) for bound in bounds)}
        self._listings: dict[str, Listing] = {}

    def real(self, root: str) -> str | None:
        """The real path of a repository-relative folder, or None when it is not a folder."""
        path = os.path.join(self.top, root)
        return os.path.realpath(path) if os.path.isdir(path) else None

    def listing(self, real: str) -> Listing:
        if real not in self._listings:
            self._listings[real] = self._read(real)
        return self._listings[real]

    def _read(self, real: str) -> Listing:
        folders: list[tuple[str, str]] = []
        entries = 0
        skill = False
        try:
            with os.scandir(real) as listing:
                for entry in listing:
                    entries += 1
                    skill = skill or (entry.name == SKILL_FILE and _is_file(entry))
                    target = self._folder(entry)
                    if target is not None:
                        folders.append((entry.name, target))
        except OSError:
            return Listing([], 0, skill=False)  # unreadable or gone: the agent finds nothing there either
        folders.sort()
        return Listing(folders, entries, skill)

    def _folder(self, entry: os.DirEntry[str]) -> str | None:
        """The real path of a sub-folder (a link to one inside the bounds included), else None."""
        try:
            if entry.is_dir(follow_symlinks=False):
                return entry.path  # a real folder below a real one: its path is real
            if not entry.is_symlink() or not entry.is_dir():
                return None
        except OSError:
            return None
        target = os.path.realpath(entry.path)
        inside = any(target == bound or target.startswith(bound + os.sep) for bound in self.bounds)
        return target if inside else None


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def at_depth(folders: Folders, root: str, depth: int, *, itself: bool = False, hidden: bool = True) -> list[Found]:
    """The skill folders exactly ``depth`` folders below ``root`` (and ``root`` itself when ``itself``)."""
    start = folders.real(root)
    if start is None:
        return []
    found = [Found(start, root, ())] if itself and folders.listing(start).skill else []
    level: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    for _ in range(depth):
        level = [
            (child, (*parts, name))
            for real, parts in level
            for name, child in folders.listing(real).folders
            if hidden or not name.startswith(".")
        ]
    found += [Found(real, root, parts) for real, parts in level if parts and folders.listing(real).skill]
    return found


class BreadthFirst:
    """Codex's walk of one root: breadth-first, hidden names skipped, within its depth, folder and entry caps.

    ``visited`` holds the real folders it read; ``stopped`` says which cap
    ended the walk early ('' when none did).
    """

    def __init__(self, folders: Folders, root: str, depth: int, folder_cap: int, entry_cap: int) -> None:
        self.root = root
        self.found: list[Found] = []
        self.visited: set[str] = set()
        self.stopped = ""
        start = folders.real(root)
        if start is not None:
            self._walk(folders, start, depth, folder_cap, entry_cap)

    def _walk(self, folders: Folders, start: str, depth: int, folder_cap: int, entry_cap: int) -> None:
        self.visited.add(start)
        queue: deque[tuple[str, tuple[str, ...]]] = deque([(start, ())])
        entries = 0
        while queue:
            real, parts = queue.popleft()
            listing = folders.listing(real)
            if entries + listing.entries > entry_cap:
                self.stopped = "entries"  # the walk has listed all it lists: this folder and those after it are unread
                self.visited.difference_update(item for item, _ in (*queue, (real, parts)))
                return
            entries += listing.entries
            if listing.skill:
                self.found.append(Found(real, self.root, parts))
            for name, child in listing.folders:
                if name.startswith(".") or len(parts) + 1 > depth or child in self.visited:
                    continue
                if len(self.visited) >= folder_cap:
                    self.stopped = self.stopped or "folders"
                    break
                self.visited.add(child)
                queue.append((child, (*parts, name)))


def everywhere(folders: Folders, root: str, *, hidden: bool) -> list[Found]:
    """Every skill folder below ``root``, at any depth, ``root`` itself included, each real folder once."""
    start = folders.real(root)
    if start is None:
        return []
    found: list[Found] = []
    seen = {start}
    stack: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    while stack:
        real, parts = stack.pop()
        if folders.listing(real).skill:
            found.append(Found(real, root, parts))
        for name, child in reversed(folders.listing(real).folders):
            if (hidden or not name.startswith(".")) and child not in seen:
                seen.add(child)
                stack.append((child, (*parts, name)))
    found.sort(key=lambda item: js_order("/".join((*item.parts, SKILL_FILE))))
    return found


def outermost(found: list[Found]) -> list[Found]:
    """Copilot CLI's rule: in path order, a SKILL.md below a skill folder already taken is not a skill.

    The order is the JavaScript sort of the whole path, so a sub-folder whose
    name sorts before ``SKILL.md`` (an upper-case or digit name) is taken
    before its parent, and both are skills.
    """
    taken: list[str] = []
    kept = []
    for item in found:
        folder = "/".join(item.parts)
        if not any(folder.startswith(outer + "/") for outer in taken):
            taken.append(folder)
            kept.append(item)
    return kept


def js_order(text: str) -> bytes:
    """The key that sorts strings as JavaScript does: by UTF-16 code unit."""
    return text.encode("utf-16-be", "surrogatepass")
