"""A cheap answer to "did the skills change on disk?": the stats of the folders and SKILL.md files.

A snapshot records (mtime, size) of every skills root, every folder below
it that a scan enters, every SKILL.md, and the configuration file. Adding,
removing or renaming a skill changes a folder's mtime; editing one changes
its SKILL.md's. Re-checking a snapshot is one ``stat`` per recorded path, no
folder listing and no file read, so it can run before every request.

Currency only: every path keeps (mtime, size), the roots and the files
besides them too. Whether a kept index was written here (an archive's
``.git`` can ship one whose stamps ``tar -p`` keeps) is the seal's to say
(``seal.read_sealed_file``: the inode and change time of the file as
written); a change time and inode on the roots would answer nothing more.
For currency they would see only what the two stamps miss on every other
path: a root or a configuration
put back with its old time and size (``touch -d``, ``cp -p`` of another
version), or replaced by a rename within one clock tick of the snapshot.
The configuration's bytes are the route index's own stamp (``config_stamp``)
and the search index's key; a search index stamped within a tick of a change
is never stored (``store._racy``).
"""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

Stamp = tuple[int, int]  # (mtime_ns, size); (-1, -1) for a path that does not exist


def stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


class StatSnapshot:
    """The stamps of the paths that decide what a catalog holds, grouped by folder.

    Grouped as stored (a folder with its final '/' → [name, mtime_ns, size]
    rows), so a long folder name is written once, and a stored snapshot is
    checked without first being rebuilt into a mapping of full paths.
    """

    __slots__ = ("grouped",)

    def __init__(self, grouped: dict[str, list[list[Any]]]) -> None:
        self.grouped = grouped

    @classmethod
    def of(cls, stamps: dict[str, Stamp]) -> StatSnapshot:
        grouped: dict[str, list[list[Any]]] = {}
        for path, (mtime, size) in sorted(stamps.items()):
            cut = path.rfind("/") + 1  # the folder keeps its final '/', so '/x' and 'x' stay apart
            grouped.setdefault(path[:cut], []).append([path[cut:], mtime, size])
        return cls(grouped)

    @property
    def stamps(self) -> dict[str, Stamp]:
        return {folder + name: (mtime, size) for folder, rows in self.grouped.items() for name, mtime, size in rows}

    def is_current(self) -> bool:
        """True while every recorded path still has its recorded stamp (False for a malformed snapshot)."""
        try:
            for folder, rows in self.grouped.items():
                for name, mtime, size in rows:
                    if stamp(folder + name) != (mtime, size):
                        return False
        except (TypeError, ValueError):
            return False
        return True

    def as_json(self) -> dict[str, list[list[Any]]]:
        return self.grouped

    def as_text(self) -> bytes:
        """The snapshot as the route and search indexes keep it: the same stamps give the same bytes.

        So a route prompt takes the search index as current when its kept text
        is the route index's (just checked) without parsing it (0.5 MB at 2,000 skills).
        UTF-8, not ASCII escapes, which made the route index's parse of it a quarter
        slower on Chinese folder names; surrogatepass: a folder name that is not UTF-8
        holds surrogates, and json.loads reads them back so.
        """
        import json  # noqa: PLC0415 - only a build writes a snapshot; a warm run compares the kept bytes

        return json.dumps(self.grouped, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")

    @classmethod
    def from_json(cls, grouped: object) -> StatSnapshot:
        """Raises ValueError when ``grouped`` is not a mapping; a malformed row makes it not current."""
        if not isinstance(grouped, dict):
            raise ValueError("a snapshot maps folders to [name, mtime_ns, size] rows")
        return cls(grouped)


def take_snapshot(roots: Sequence[str], files: Iterable[str] = ()) -> StatSnapshot:
    """Walk the roots as a scan does (hidden folders skipped) and stamp what decides the catalog.

    ``files`` are stamped too, present or not (the configuration file: creating it changes the roots).
    """
    return _Walk(None).snapshot(roots, files)


def retake_snapshot(known: StatSnapshot, roots: Sequence[str], files: Iterable[str] = ()) -> StatSnapshot:
    """``take_snapshot``'s answer, listing only the folders whose stamp changed since ``known`` (of the same roots).

    A folder that kept its stamp kept its entries (a folder's mtime changes
    when an entry is added, removed or renamed), so its entries recorded in
    ``known`` are stamped again without listing it: after an edit, one stat
    per recorded path (about 4,000 on a 2,000-skill collection) instead of
    a listing of every folder. The premise is the snapshot's own (``is_current``).
    """
    try:
        return _Walk(known.grouped).snapshot(roots, files)
    except (TypeError, ValueError, IndexError, AttributeError):  # a stored snapshot of another shape
        return take_snapshot(roots, files)


class _Walk:
    """One walk of the roots; with ``known`` rows (``StatSnapshot.grouped``), unchanged folders are not listed."""

    def __init__(self, known: dict[str, list[list[Any]]] | None) -> None:
        self.known = known or {}
        self.stamps: dict[str, Stamp] = {}

    def snapshot(self, roots: Sequence[str], files: Iterable[str]) -> StatSnapshot:
        self.stamps = {path: stamp(path) for path in files}
        for root in roots:
            self.stamps[root] = stamp(root)
            cut = root.rfind("/") + 1
            rows = self.known.get(root[:cut], ())
            self._walk(root, next((_recorded(row) for row in rows if row[0] == root[cut:]), None))
        return StatSnapshot.of(self.stamps)

    def _walk(self, root: str, was: Stamp | None) -> None:
        folders = [(root, was)]
        while folders:
            folder, was = folders.pop()
            prefix = folder if folder.endswith("/") else folder + "/"
            rows = self.known.get(prefix, ()) if was is not None else ()
            if was is not None and was == self.stamps[folder]:
                folders += self._restamped(prefix, rows)
            else:
                folders += self._listed(folder, {row[0]: _recorded(row) for row in rows})

    def _restamped(self, prefix: str, rows: Iterable[list[Any]]) -> list[tuple[str, Stamp | None]]:
        """Stamp the entries recorded in an unchanged folder; the folders among them to walk next."""
        below: list[tuple[str, Stamp | None]] = []
        for row in rows:
            name, was = row[0], _recorded(row)
            path = prefix + name
            now = self.stamps[path] = stamp(path)
            if name == SKILL_FILE:
                continue
            # A folder with entries recorded is walked (its own stamp says whether to list it); a changed one
            # too, unless it is a link, whose target inside the root is walked where it lies.
            if path + "/" in self.known or (now != was and not os.path.islink(path)):
                below.append((path, was))
        return below

    def _listed(self, folder: str, recorded: dict[str, Stamp]) -> list[tuple[str, Stamp | None]]:
        """List a new or changed folder, as ``take_snapshot`` always did; the folders in it to walk next."""
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            return []  # the scan reports it; the folder's own stamp notices when it becomes readable
        below: list[tuple[str, Stamp | None]] = []
        for entry in entries:
            if entry.name == SKILL_FILE:
                self.stamps[entry.path] = stamp(entry.path)
            elif not entry.name.startswith(".") and entry.is_dir():
                self.stamps[entry.path] = stamp(entry.path)
                if not entry.is_symlink():  # a link's target inside the root is walked where it lies
                    below.append((entry.path, recorded.get(entry.name)))
        return below


def _recorded(row: list[Any]) -> Stamp:
    """The stamp a stored row records (``[name, mtime_ns, size]``)."""
    return (row[1], row[2])
