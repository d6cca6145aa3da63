"""Find the SKILL.md files below a root on the file system, and read their leading bytes.

The file-system edge of the catalog. Folder names are read as bytes and
decoded as UTF-8 (surrogate escapes for bytes that are not), so the result
is the same under every locale.

Each real folder is walked once, known by device and inode: first every
folder reached without following a link, then the links to folders, in
sorted order, skipping those whose target was walked already. So time is
linear in the number of real folders, whatever links point where.

Symlink policy: a link (to a folder or to a SKILL.md) is followed when its
target lies inside the same root, since then every checkout has it. A link
that leaves the root, dangles or loops is skipped and reported, so the
block never depends on what one machine has elsewhere. A file or link that
disappears while the walk runs (a concurrent checkout) is simply absent.
"""

from __future__ import annotations

import errno
import heapq
import os
import stat
import unicodedata

from skillmem_hook.catalog.skillfile.head import MAX_READ, head_length
from skillmem_hook.catalog.skillfile.names import SkillProblem
from skillmem_hook.errors import FileAccessError

SKILL_FILE = "SKILL.md"
FOLDER_NAMED_SKILL_FILE = "SKILL.md is a folder, not a file"
OUTSIDE_ROOT = "symlink leads outside the root; only links inside the root are followed"
_SKILL_FILE = b"SKILL.md"
_SEP = os.sep.encode()


class SkillFile:
    """A SKILL.md found on disk: its folder relative to the root, and its path to open."""

    __slots__ = ("file_path", "relative")

    def __init__(self, relative: str, file_path: bytes) -> None:
        self.relative = relative
        self.file_path = file_path


def find_skill_files(root: str) -> tuple[list[SkillFile], list[tuple[str, str]]]:
    """SKILL.md files sorted by folder, and (folder, reason) pairs skipped, both relative to the root."""
    return _Walk(root).run()


class _Walk:
    def __init__(self, root: str) -> None:
        self.real_root = check_root(root)
        self.root = os.fsencode(root)
        self.found: list[SkillFile] = []
        self.skipped: list[tuple[str, str]] = []
        self.walked: set[tuple[int, int]] = set()
        self.links: list[tuple[str, bytes, bytes]] = []  # (relative, link path, real parent) of links to follow

    def run(self) -> tuple[list[SkillFile], list[tuple[str, str]]]:
        self._walk_from(self.root, "", self.real_root)
        while self.links:
            relative, path, real_parent = heapq.heappop(self.links)
            self._follow(relative, path, real_parent)
        self.found.sort(key=lambda found: found.relative)
        self.skipped.sort()
        return self.found, self.skipped

    def _walk_from(self, folder: bytes, relative: str, real: bytes) -> None:
        """Walk the real folders below ``folder`` (a link to one is queued for later, never followed here)."""
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
                self._visit(entry, relative, real, stack)

    def _visit(
        self, entry: os.DirEntry[bytes], relative: str, real: bytes, stack: list[tuple[bytes, str, bytes]]
    ) -> None:
        name = entry.name
        if name == _SKILL_FILE:
            reason = self._skill_file_problem(entry, real)
            if reason is None:
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
                heapq.heappush(self.links, (child, entry.path, real))
        except OSError:
            return  # gone while the walk ran

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
        self._walk_from(path, relative, real)

    def _skill_file_problem(self, entry: os.DirEntry[bytes], real_parent: bytes) -> str | None:
        """None to use the file, a reason to skip it, or '' when it is gone."""
        try:
            if entry.is_symlink():
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


def walked_link_reason(real_parent: bytes, real_target: bytes) -> str:
    """Why a link to a folder walked already is not followed again."""
    if real_parent == real_target or real_parent.startswith(real_target + _SEP):
        return "symlink loops back to a folder above it"
    return "symlink leads to a folder walked already"


def link_problem(path: bytes, real_root: bytes) -> str | None:
    """Why a link is not followed: a reason, '' when it is gone, None when it may be followed."""
    try:
        os.stat(path)
    except FileNotFoundError:
        try:
            os.lstat(path)
        except FileNotFoundError:
            return ""
        return "dangling symlink"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "symlink loop: the link leads back to itself"
        return f"cannot follow the symlink: {error.strerror}"
    try:
        target = os.path.realpath(path)
    except FileNotFoundError:
        return ""  # removed between realpath's lstat and its readlink (Python's realpath lets that through)
    if target != real_root and not target.startswith(real_root + _SEP):
        return OUTSIDE_ROOT
    return None


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


def read_skill_head(file_path: bytes | str) -> bytes | None:
    """The leading bytes of a SKILL.md (see ``head.skill_head``); None when the file is gone.

    Never holds more than about two reads of HEAD_CHUNK beyond what it keeps, however large the file.
    """
    try:
        handle = os.open(file_path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SkillProblem(f"cannot read SKILL.md: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise SkillProblem("SKILL.md is not a regular file")
        return _read_head(handle)
    except OSError as error:
        raise SkillProblem(f"cannot read SKILL.md: {error.strerror}") from None
    finally:
        os.close(handle)


HEAD_CHUNK = 64 * 1024


def _read_head(handle: int) -> bytes:
    """Read in chunks until the head's length is known, then exactly up to it."""
    data = b""
    while True:
        chunk = _read_up_to(handle, HEAD_CHUNK)
        data = data + chunk if data else chunk
        at_end = len(chunk) < HEAD_CHUNK or len(data) >= MAX_READ
        length = head_length(data, at_end=at_end)
        if length is not None:
            if length > len(data) and not at_end:
                data += _read_up_to(handle, length - len(data))
            return data if len(data) <= length else data[:length]


def _read_up_to(handle: int, size: int) -> bytes:
    """Up to ``size`` bytes; os.read may return fewer than asked before the end."""
    chunks = []
    while size > 0 and (chunk := os.read(handle, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)
