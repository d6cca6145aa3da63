"""A cheap answer to "did the skills change on disk?": the stats of the folders and SKILL.md files.

A snapshot records (mtime, size) of every skills root, every folder below
it that a scan enters, every SKILL.md, and the configuration file. Adding,
removing or renaming a skill changes a folder's mtime; editing one changes
its SKILL.md's. Re-checking a snapshot is one ``stat`` per recorded path, no
folder listing and no file read, so it can run before every request.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

SKILL_FILE = "SKILL.md"
Stamp = tuple[int, int]  # (mtime_ns, size); (-1, -1) for a path that does not exist


def stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


class Snapshot:
    """The stamps of the paths that decide what a catalog holds."""

    __slots__ = ("stamps",)

    def __init__(self, stamps: dict[str, Stamp]) -> None:
        self.stamps = stamps

    def is_current(self) -> bool:
        """True while every recorded path still has its recorded stamp."""
        for path, recorded in self.stamps.items():
            try:
                status = os.stat(path)
            except OSError:
                if recorded != (-1, -1):
                    return False
                continue
            if (status.st_mtime_ns, status.st_size) != recorded:
                return False
        return True

    def as_json(self) -> dict[str, list[list[object]]]:
        """Paths grouped by folder, so a long folder name is written once, not once per file."""
        grouped: dict[str, list[list[object]]] = {}
        for path, (mtime, size) in sorted(self.stamps.items()):
            cut = path.rfind("/") + 1  # the folder keeps its final '/', so '/x' and 'x' stay apart
            grouped.setdefault(path[:cut], []).append([path[cut:], mtime, size])
        return grouped

    @classmethod
    def from_json(cls, grouped: object) -> Snapshot:
        """Raises ValueError when ``grouped`` is not shaped as ``as_json`` writes it."""
        try:
            stamps = {folder + name: (mtime, size) for folder, rows in grouped.items() for name, mtime, size in rows}  # type: ignore[attr-defined]
        except (AttributeError, TypeError, ValueError):
            raise ValueError("a snapshot maps folders to [name, mtime_ns, size] rows") from None
        return cls(stamps)


def take_snapshot(roots: Sequence[str], files: Iterable[str] = ()) -> Snapshot:
    """Walk the roots as a scan does (hidden folders skipped) and stamp what decides the catalog.

    ``files`` are stamped too, present or not (the configuration file: creating it changes the roots).
    """
    stamps = {path: stamp(path) for path in files}
    for root in roots:
        stamps[root] = stamp(root)
        folders = [root]
        while folders:
            folder = folders.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = list(listing)
            except OSError:
                continue  # the scan reports it; the folder's own stamp notices when it becomes readable
            for entry in entries:
                if entry.name == SKILL_FILE:
                    stamps[entry.path] = stamp(entry.path)
                elif not entry.name.startswith(".") and entry.is_dir():
                    stamps[entry.path] = stamp(entry.path)
                    if not entry.is_symlink():  # a link's target inside the root is walked where it lies
                        folders.append(entry.path)
    return Snapshot(stamps)
