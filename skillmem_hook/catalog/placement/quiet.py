"""Which skills ``quiet:`` names: by name or prefix, as ``exclude:`` does, or every one below a folder.

A pattern holding a ``/`` (``.claude/skills/``, ``vendor/pack``) is a folder, but for an owner's label
(``@acme/pdf``, a name as ``exclude:`` reads it; ``@acme/`` is the owner's folder),
relative to the configuration file's folder: every skill in it or below it,
and every SKILL.md left out there, is quiet. A vendored pack is one line,
not its skills' names. Folders are compared as written, made absolute and
normalised (a link is not followed): the roots are read the same way.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.placement.selection import best_match, folder_name, left_out_folder, names

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill


def is_folder_pattern(pattern: str) -> bool:
    """A folder holds a ``/``; an owner's label (``@acme/pdf``, ``@acme/*``: one ``/``, not last) is a name."""
    return "/" in pattern and not (pattern.startswith("@") and pattern.count("/") == 1 and not pattern.endswith("/"))


class Quiet:
    """The ``quiet:`` patterns, with ``base`` the folder a folder pattern is relative to.

    Given the ``skills``, a pattern that is exactly a skill's name or label is that name, even
    with a ``/`` ("Tailwind v4 + shadcn/ui Stack"): a name that exists wins over the folder, which ``X/`` (the
    last ``/``) still names. And a name no skill has is also a folder's name, as a SKILL.md left out is named:
    ``ai-sdk-core`` quiets the skill "AI SDK Core" in ``.../ai-sdk-core/``. Without them, patterns read as before.
    """

    __slots__ = ("folder_names", "folders", "table")

    def __init__(self, patterns: Sequence[str], base: str, skills: Iterable[Skill] | None = None) -> None:
        known = set() if skills is None else {name for skill in skills for name in (skill.name, skill.label)}
        folders = [pattern for pattern in patterns if is_folder_pattern(pattern) and not _names_one(pattern, known)]
        self.table = {pattern: True for pattern in patterns if pattern not in folders}
        self.folders = {pattern: os.path.normpath(os.path.join(os.path.abspath(base), pattern)) for pattern in folders}
        self.folder_names = (
            frozenset()
            if skills is None
            else frozenset(pattern for pattern in self.table if pattern not in known and "/" not in pattern)
        )

    def skill(self, skill: Skill) -> bool:
        """Whether the skill's warnings are quiet: its name, a prefix of it, or a folder above it is named."""
        if best_match(self.table, skill) or self._below(skill.root, skill.path):
            return True
        return bool(self.folder_names) and folder_name(skill) in self.folder_names

    def left_out(self, item: Mapping[str, str]) -> bool:
        """Whether a SKILL.md left out of the block (``Catalog.skipped``) is quiet: its folder named, or one above."""
        return names(self.table, left_out_folder(item)) or self._below(item["root"], item["path"])

    def unmatched_folders(self, places: Iterable[tuple[str, str]]) -> list[str]:
        """The folder patterns with none of ``places`` (a root and a path in it) in or below them, as written."""
        found = {_absolute(root, path) for root, path in places}
        return [pattern for pattern, folder in self.folders.items() if not any(_inside(at, folder) for at in found)]

    def _below(self, root: str, path: str) -> bool:
        if not self.folders:
            return False
        at = _absolute(root, path)
        return any(_inside(at, folder) for folder in self.folders.values())

    def names_over_folders(self, places: Iterable[tuple[str, str]], base: str) -> list[str]:
        """The patterns with a ``/`` read as a skill's name though a skill lies in or below that folder too."""
        found = {_absolute(root, path) for root, path in places}
        return [
            pattern
            for pattern in self.table
            if is_folder_pattern(pattern)
            and any(_inside(at, os.path.normpath(os.path.join(os.path.abspath(base), pattern))) for at in found)
        ]


def _names_one(pattern: str, known: set[str]) -> bool:
    """Whether the pattern is a skill's very name or label, not a folder: never ``X/``, which says a folder."""
    return pattern in known and not pattern.endswith("/")


def _absolute(root: str, path: str) -> str:
    return os.path.normpath(os.path.join(os.path.abspath(root), path))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
