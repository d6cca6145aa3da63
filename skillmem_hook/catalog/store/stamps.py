"""A cheap answer to "did the skills change on disk?": the stats of the folders and SKILL.md files.

A snapshot records (mtime, size) of every skills root, every folder below
it that a scan enters, every SKILL.md, and the configuration file. Adding,
removing or renaming a skill changes a folder's mtime; editing one changes
its SKILL.md's. Re-checking a snapshot is one ``stat`` per recorded path, no
folder listing and no file read, so it can run before every request.

The roots and the files besides them (the configuration) are stamped with
their change time and inode too (``full_stamp``), git's own index stamps
beside the two a person or tar can set (``tar -p``, ``touch -d``): a folder
unpacked, copied or made anew is a new inode made at that moment. So a
snapshot taken on another machine (a route or search index an archive ships
in its ``.git``) never matches a root here, and what it was kept with is
built again from a scan. Only a missing path has a stamp anyone can write
down, (-1, -1, -1, -1): a snapshot vouches for nothing unless it stamps each
root so, and a path that exists (``vouches_for``). Every other path keeps
the two stamps: the other two on each of 4,000 paths made a warm route
prompt's parse of the snapshot twice as slow.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

# (mtime_ns, size), and for a root or a file besides the roots also (ctime_ns, inode); -1 each for a missing path
Stamp = tuple[int, ...]
FULL = 4  # a full stamp's length (``full_stamp``)


def stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


def full_stamp(path: str) -> Stamp:
    """``stamp`` and the change time and inode: what no copy of ``path`` made elsewhere (an archive's) can hold."""
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1, -1, -1)
    return (status.st_mtime_ns, status.st_size, status.st_ctime_ns, status.st_ino)


class StatSnapshot:
    """The stamps of the paths that decide what a catalog holds, grouped by folder.

    Grouped as stored (a folder with its final '/' → [name, mtime_ns, size]
    rows, a root's and a file's [name, mtime_ns, size, ctime_ns, inode]), so
    a long folder name is written once, and a stored snapshot is checked
    without first being rebuilt into a mapping of full paths.
    """

    __slots__ = ("grouped",)

    def __init__(self, grouped: dict[str, list[list[Any]]]) -> None:
        self.grouped = grouped

    @classmethod
    def of(cls, stamps: dict[str, Stamp]) -> StatSnapshot:
        grouped: dict[str, list[list[Any]]] = {}
        for path, stamped in sorted(stamps.items()):
            cut = path.rfind("/") + 1  # the folder keeps its final '/', so '/x' and 'x' stay apart
            grouped.setdefault(path[:cut], []).append([path[cut:], *stamped])
        return cls(grouped)

    @property
    def stamps(self) -> dict[str, Stamp]:
        return {folder + row[0]: _recorded(row) for folder, rows in self.grouped.items() for row in rows}

    def is_current(self) -> bool:
        """True while every recorded path still has its recorded stamp (False for a malformed snapshot)."""
        try:
            for folder, rows in self.grouped.items():
                try:  # the loop of two stamps, as fast as before the full ones came: 4,000 rows on every prompt
                    for name, mtime, size in rows:
                        if stamp(folder + name) != (mtime, size):
                            return False
                except ValueError:  # a row of another length: a root's or a file's full stamp (few, in small folders)
                    if not _rows_current(folder, rows):
                        return False
        except (TypeError, ValueError, IndexError):
            return False
        return True

    def vouches_for(self, roots: Sequence[str]) -> bool:
        """Whether this snapshot can be one a walk of ``roots`` took on this machine: it stamps each root with
        a full stamp, and at least one path that exists so (False for a malformed snapshot).

        A full stamp of a path that exists holds its change time and inode, which no copy made elsewhere can
        know; a missing path's stamp anyone can write. So an index whose snapshot is empty, stamps its roots
        with two stamps, or fully stamps only missing paths, would be current on every machine, whatever
        rows it holds: it is not taken.
        """
        try:
            exists = False
            for root in roots:
                cut = root.rfind("/") + 1
                row = next((row for row in self.grouped.get(root[:cut], ()) if row[0] == root[cut:]), None)
                if row is None or len(row) != 1 + FULL:
                    return False
                exists = exists or row[1] != -1
            return exists or any(
                len(row) == 1 + FULL and row[1] != -1 for rows in self.grouped.values() for row in rows
            )
        except (TypeError, IndexError, AttributeError, KeyError):
            return False

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
        full = {path: full_stamp(path) for path in [*files, *roots]}
        self.stamps = dict(full)
        for root in roots:
            cut = root.rfind("/") + 1
            rows = self.known.get(root[:cut], ())
            self._walk(root, next((_recorded(row) for row in rows if row[0] == root[cut:]), None))
        self.stamps.update(full)  # a root below another root: its walk stamped it as a folder
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


def _rows_current(folder: str, rows: Iterable[list[Any]]) -> bool:
    """Whether each row of ``folder`` keeps its stamp, a full one (five fields) or two (three); raises on another."""
    for row in rows:
        if len(row) == 1 + FULL:
            if full_stamp(folder + row[0]) != (row[1], row[2], row[3], row[4]):
                return False
        elif stamp(folder + row[0]) != (row[1], row[2], *row[3:]):  # three fields, or a row that raises (too short)
            return False
    return True


def _recorded(row: list[Any]) -> Stamp:
    """The stamp a stored row records (``[name, mtime_ns, size]``, or a full one's ``[..., ctime_ns, inode]``)."""
    return tuple(row[1:])
