"""Find the SKILL.md files below a root on the file system.

The file-system edge of the catalog. Folder names are read as bytes and
decoded as UTF-8 (surrogate escapes for bytes that are not), so the result
is the same under every locale.

Each real folder is walked once, known by device and inode: first every
folder reached without following a link, then the links to folders, in
sorted order, skipping those whose target was walked already. So time is
linear in the number of real folders, whatever links point where.

Links are followed as links.py says. A SKILL.md reached through a link (the
file itself, or a folder on the way) must then pass the read rule
(confinement.py): it is checked once the walk is done, all such files in
one git call, so a tree without links asks git nothing. A file or link that
disappears while the walk runs (a concurrent checkout) is simply absent.
"""

from __future__ import annotations

import heapq
import os
import stat
import unicodedata

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.confinement import outside_boundary, read_area, refusals
from skillmem_hook.catalog.discovery.links import REFUSED, link_problem, walked_link_reason
from skillmem_hook.errors import FileAccessError

FOLDER_NAMED_SKILL_FILE = "SKILL.md is a folder, not a file"
# Below a root outside the work tree that the repository names, git cannot say whether a link lands on a file the
# repository holds (the read rule's test), and the repository chose the root: so no link is followed there.
LINK_BELOW_NAMED_OUTSIDE = (
    "symlink below a skills root outside the repository that the repository names: no link is followed there;"
    " pass the root with --root to follow links inside it"
)
_SKILL_FILE = SKILL_FILE.encode()
_SEP = os.sep.encode()


class SkillFile:
    """A SKILL.md found on disk: its folder relative to the root, and its path to open."""

    __slots__ = ("file_path", "relative")

    def __init__(self, relative: str, file_path: bytes) -> None:
        self.relative = relative
        self.file_path = file_path


def find_skill_files(
    root: str, *, user_root: bool = True, boundary: str | None = None
) -> tuple[list[SkillFile], list[tuple[str, str]]]:
    """SKILL.md files sorted by folder, and (folder, reason) pairs skipped, both relative to the root.

    ``user_root``: the user named the root; False when the repository did, and then, should the root lie
    outside the work tree, no link below it is followed (a SKILL.md or a folder that is a link is skipped).
    ``boundary``: where the repository ends when there is no work tree (``confinement.outside_boundary``).
    """
    return _Walk(root, user_root=user_root, boundary=boundary).run()


class _Walk:
    def __init__(self, root: str, *, user_root: bool = True, boundary: str | None = None) -> None:
        self.real_root = check_root(root)
        self.boundary = boundary
        self.links_refused: bool | None = False if user_root else None  # None: not asked of git yet
        self.root = os.fsencode(root)
        self.found: list[SkillFile] = []
        self.skipped: list[tuple[str, str]] = []
        self.walked: set[tuple[int, int]] = set()
        self.links: list[tuple[str, bytes, bytes]] = []  # (relative, link path, real parent) of links to follow
        self.landings: dict[str, bytes] = {}  # where each SKILL.md reached through a link lies (its real path)
        self.listed: list[bytes] = []  # the real targets of the links followed: their listing holds the landings

    def run(self) -> tuple[list[SkillFile], list[tuple[str, str]]]:
        self._walk_from(self.root, "", self.real_root)
        while self.links:
            relative, path, real_parent = heapq.heappop(self.links)
            self._follow(relative, path, real_parent)
        if self.landings:
            self._confine()
        self.found.sort(key=lambda found: found.relative)
        self.skipped.sort()
        return self.found, self.skipped

    def _walk_from(self, folder: bytes, relative: str, real: bytes, *, linked: bool = False) -> None:
        """Walk the real folders below ``folder`` (a link to one is queued for later, never followed here).

        ``linked``: ``folder`` is a link's target, so every SKILL.md below it is reached through that link.
        """
        stack = [(folder, relative, real)]
        while stack:
            folder, relative, real = stack.pop()
            try:
                identity = os.stat(folder)
                if (identity.st_dev, identity.st_ino) in self.walked:
                    continue
                self.walked.add((identity.st_dev, identity.st_ino))
                with os.scandir(folder) as listing:
                    entries = list(listing)
            except FileNotFoundError:
                continue  # gone while the walk ran
            except OSError as error:
                self.skipped.append((relative or ".", f"cannot read the folder: {error.strerror}"))
                continue
            for entry in entries:
                self._visit(entry, relative, real, stack, linked=linked)

    def _visit(
        self,
        entry: os.DirEntry[bytes],
        relative: str,
        real: bytes,
        stack: list[tuple[bytes, str, bytes]],
        *,
        linked: bool,
    ) -> None:
        name = entry.name
        if name == _SKILL_FILE:
            reason = self._skill_file_problem(entry, real)
            if reason is None and (not (linked or entry.is_symlink()) or self._landed(relative or ".", entry, real)):
                self.found.append(SkillFile(relative or ".", entry.path))
            elif reason:
                self.skipped.append((relative or ".", reason))
            if reason != FOLDER_NAMED_SKILL_FILE:
                return
            # A folder named SKILL.md is walked like any other: git's view lists the skills it holds.
        if name.startswith(b"."):
            return
        text = _nfc(name.decode("utf-8", "surrogateescape"))
        child = f"{relative}/{text}" if relative else text
        try:
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, child, real + _SEP + name))
            elif entry.is_symlink():
                if self._no_links():
                    if os.path.isdir(entry.path):
                        self.skipped.append((child, LINK_BELOW_NAMED_OUTSIDE))
                    return
                heapq.heappush(self.links, (child, entry.path, real))
        except OSError:
            return  # gone while the walk ran

    def _no_links(self) -> bool:
        """Whether links are refused here: a root the repository names that lies outside it (or outside its folder).

        Asked of git at the first link met, so a walk that meets none costs no git call.
        """
        if self.links_refused is None:
            self.links_refused = outside_boundary(os.fsdecode(self.real_root), self.boundary)
        return self.links_refused

    def _follow(self, relative: str, path: bytes, real_parent: bytes) -> None:
        reason = link_problem(path, self.real_root)
        if reason is not None:
            if reason:
                self.skipped.append((relative, reason))
            return
        if not os.path.isdir(path):
            return  # a link to a file that is not a SKILL.md
        try:
            target = os.stat(path)
            real = os.path.realpath(path)
        except FileNotFoundError:
            return  # gone while the walk ran
        if (target.st_dev, target.st_ino) in self.walked:
            self.skipped.append((relative, walked_link_reason(real_parent, real)))
            return
        self.listed.append(real)
        self._walk_from(path, relative, real, linked=True)

    def _landed(self, relative: str, entry: os.DirEntry[bytes], real_parent: bytes) -> bool:
        """Note where a SKILL.md reached through a link lies, for ``_confine``; False when it is gone."""
        if entry.is_symlink():
            try:
                landing = os.path.realpath(entry.path)
            except FileNotFoundError:
                return False  # removed between realpath's lstat and its readlink (a concurrent checkout)
            self.listed.append(landing)  # not below a folder already listed, when it leads elsewhere in the root
        else:
            landing = real_parent + _SEP + _SKILL_FILE
        self.landings[relative] = landing
        return True

    def _confine(self) -> None:
        """Skip, with a reason, each SKILL.md reached through a link that the read rule does not allow."""
        landings = {relative: os.fsdecode(landing) for relative, landing in self.landings.items()}
        area = read_area(os.fsdecode(self.real_root))
        refused = refusals(landings, area, sorted({os.fsdecode(real) for real in self.listed}))
        if refused:
            self.found = [found for found in self.found if found.relative not in refused]
            self.skipped += ((relative, REFUSED[problem]) for relative, problem in refused.items())

    def _skill_file_problem(self, entry: os.DirEntry[bytes], real_parent: bytes) -> str | None:
        """None to use the file, a reason to skip it, or '' when it is gone."""
        try:
            if entry.is_symlink():
                if self._no_links():
                    return LINK_BELOW_NAMED_OUTSIDE
                reason = link_problem(entry.path, self.real_root)
                if reason is not None:
                    return reason
            if entry.is_file():
                return None
            if entry.is_dir(follow_symlinks=False):
                return FOLDER_NAMED_SKILL_FILE
            return "SKILL.md is not a regular file" if os.path.lexists(entry.path) else ""
        except OSError:
            return ""


def check_root(root: str) -> bytes:
    """The root's real path; FileAccessError when it does not exist or is not a folder."""
    try:
        mode = os.stat(root).st_mode
    except OSError:
        mode = None
    if mode is None:
        raise FileAccessError(
            f"the skills root {root!r} does not exist", "pass --root the folder that holds your skills"
        )
    if not stat.S_ISDIR(mode):
        raise FileAccessError(
            f"the skills root {root!r} is not a folder", "pass --root the folder that holds your skills"
        )
    return os.path.realpath(os.fsencode(root))


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)
