"""Walk skill roots, read each SKILL.md's leading bytes, and build the catalog.

The I/O edge of the core: everything after reading is done by ``skills.py``.

Symlink policy: a link (to a folder or to a SKILL.md) is followed when its
target lies inside the same root, since then every checkout has it. A link
that leaves the root, dangles, or loops back to a folder above it is skipped
and reported, so the block never depends on what one machine has elsewhere.
"""

from __future__ import annotations

import os
import unicodedata

from skillmem_hook.catalog.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.catalog.skills import HEADING_WINDOW, SkillProblem, deduplicate, parse_skill
from skillmem_hook.errors import FileAccessError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.skills import Skill

SKILL_FILE = "SKILL.md"
MAX_FRONTMATTER = 1024 * 1024


class Catalog:
    """The skills of one or more roots, de-duplicated, with what was left out."""

    __slots__ = ("duplicates", "skills", "skipped")

    def __init__(
        self, skills: list[Skill], duplicates: list[tuple[Skill, Skill]], skipped: list[dict[str, str]]
    ) -> None:
        self.skills = skills
        self.duplicates = duplicates
        self.skipped = skipped

    @property
    def warnings(self) -> list[dict[str, str]]:
        return [
            {"root": skill.root, "path": skill.path, "warning": warning}
            for skill in self.skills
            for warning in skill.warnings
        ]


def scan_roots(roots: Sequence[str]) -> Catalog:
    """Build the catalog of every skill below the given roots.

    De-duplication spans all roots; of two skills with one (owner, slug), the
    one in the earlier root, then with the earlier path, is kept.
    """
    parsed: list[Skill] = []
    skipped: list[dict[str, str]] = []
    for root in roots:
        found, root_skipped = find_skill_files(root)
        skipped.extend({"root": root, "path": path, "reason": reason} for path, reason in root_skipped)
        for path, file_path in found:
            folder = os.path.basename(os.path.realpath(root)) if path == "." else path.rsplit("/", 1)[-1]
            try:
                data = read_skill_head(file_path)
                parsed.append(parse_skill(data, path=path, folder=folder, root=root))
            except SkillProblem as problem:
                skipped.append({"root": root, "path": path, "reason": str(problem)})
    kept, duplicates = deduplicate(parsed)
    return Catalog(kept, duplicates, skipped)


def find_skill_files(root: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(skill folder relative to root, SKILL.md path) pairs sorted by folder, and (folder, reason) skipped."""
    real_root = _checked_root(root)
    found: list[tuple[str, str]] = []
    skipped: list[tuple[str, str]] = []
    stack = [(root, "", real_root)]
    while stack:
        folder, relative, real = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as error:
            skipped.append((relative or ".", f"cannot read the folder: {error.strerror}"))
            continue
        for entry in entries:
            name = entry.name
            if name == SKILL_FILE:
                reason = _skill_file_problem(entry, real_root, real)
                if reason is None:
                    found.append((_nfc(relative) or ".", entry.path))
                else:
                    skipped.append((relative or ".", reason))
                continue
            if name.startswith("."):
                continue
            child = f"{relative}/{name}" if relative else name
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, child, real + os.sep + name))
            elif entry.is_symlink():
                reason = _link_problem(entry, real_root, real)
                if reason is not None:
                    skipped.append((_nfc(child), reason))
                elif entry.is_dir():
                    stack.append((entry.path, child, os.path.realpath(entry.path)))
    found.sort()
    skipped.sort()
    return found, skipped


def _checked_root(root: str) -> str:
    if not os.path.exists(root):
        raise FileAccessError(
            f"the skills root {root!r} does not exist", "pass --root the folder that holds your skills"
        )
    if not os.path.isdir(root):
        raise FileAccessError(
            f"the skills root {root!r} is not a folder", "pass --root the folder that holds your skills"
        )
    return os.path.realpath(root)


def _skill_file_problem(entry: os.DirEntry[str], real_root: str, real_parent: str) -> str | None:
    if entry.is_symlink():
        reason = _link_problem(entry, real_root, real_parent)
        if reason is not None:
            return reason
    return None if entry.is_file() else "SKILL.md is not a regular file"


def _link_problem(entry: os.DirEntry[str], real_root: str, real_parent: str) -> str | None:
    target = os.path.realpath(entry.path)
    if not os.path.exists(target):
        return "dangling symlink"
    if target != real_root and not target.startswith(real_root + os.sep):
        return "symlink leads outside the root; only links inside the root are followed"
    if entry.name != SKILL_FILE and (real_parent == target or real_parent.startswith(target + os.sep)):
        return "symlink loops back to a folder above it"
    return None


def read_skill_head(file_path: str) -> bytes:
    """The leading bytes of a SKILL.md: its frontmatter and a window of body after it.

    Never more than MAX_FRONTMATTER plus HEADING_WINDOW, however large the file.
    """
    try:
        handle = os.open(file_path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise SkillProblem(f"cannot read SKILL.md: {error.strerror}") from None
    try:
        data = os.read(handle, HEADING_WINDOW)
        if len(data) < HEADING_WINDOW:
            return data
        body_start = _frontmatter_end(data)
        while body_start is None:
            if len(data) >= MAX_FRONTMATTER:
                raise SkillProblem("the frontmatter is not closed within the first 1 MiB")
            more = os.read(handle, min(len(data), MAX_FRONTMATTER - len(data)))
            if not more:
                return data
            data += more
            body_start = _frontmatter_end(data)
        return data + _read_up_to(handle, body_start + HEADING_WINDOW - len(data))
    except OSError as error:
        raise SkillProblem(f"cannot read SKILL.md: {error.strerror}") from None
    finally:
        os.close(handle)


def _read_up_to(handle: int, size: int) -> bytes:
    """Up to ``size`` more bytes; os.read may return fewer than asked before the end."""
    chunks = []
    while size > 0 and (chunk := os.read(handle, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _frontmatter_end(data: bytes) -> int | None:
    """Where the body starts (0 with no frontmatter); None while the frontmatter is still open."""
    try:
        span = frontmatter_span(data)
    except UnclosedFrontmatter:
        return None
    return 0 if span is None else span[2]


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)
