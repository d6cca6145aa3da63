"""A snapshot of the whole catalog git's view gives, so a warm run (every commit's hook) rebuilds nothing.

Git's view is a function of git's listing of the roots (paths, modes, blob
ids, stages), the parsing code and the options, with one exception: a
tracked symlink is resolved on disk. So the snapshot is keyed by a hash of
all of those, and is neither used nor written when any listed entry is a
link. It also records the content cache file's size, times and inode: when
that file changed or went away since (a damaged cache, a cold run), the
snapshot is passed over too, so the cache is rebuilt as it would be anyway.

The file, ``catalog.json`` beside the cache, is a file of records
(records.py): a header line holding the key, then the values many skills
share (roots, placements), one line per skill, and a checksum; it is
written and read a line at a time, so 100,000 skills never sit in memory
as one text. A file of another key, damaged or truncated, is ignored and
rewritten, never an error; it is replaced atomically, like the cache.
"""

from __future__ import annotations

import os
import unicodedata

from skillmem_hook.catalog.catalog import Catalog
from skillmem_hook.catalog.placement.domains import Placement
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.catalog.store.cache import MAX_CACHE_BYTES, parser_fingerprint
from skillmem_hook.catalog.store.json_text import dumps, loads
from skillmem_hook.catalog.store.locations import catalog_snapshot_location
from skillmem_hook.catalog.store.records import DamagedFile, read_batches, write_records_quietly

try:  # hashlib's own BLAKE2, without hashlib, whose OpenSSL a warm run would load only for this
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from typing import Any

    from skillmem_hook.catalog.catalog import Catalog, CatalogOptions

FORMAT = "skillmem-catalog-2"
_LINK_RECORD = b"120000 "


class Snapshot:
    """Where the snapshot of one catalog lives, and the key it must hold to be used."""

    __slots__ = ("cache_path", "key", "path")

    def __init__(self, cache_path: str, key: str) -> None:
        self.cache_path = cache_path
        self.path = catalog_snapshot_location(cache_path)
        self.key = key

    def load(self, *, sections: bool = True) -> Catalog | None:
        """The catalog stored under this key, or None (no file, another key, damage, a changed cache).

        Also None when ``sections`` are wanted and a skill was kept without them (the hooks' build).
        """
        try:
            records = _parsed(read_batches(self.path, self._header(), MAX_CACHE_BYTES))
            return _catalog_from_records(records, sections=sections)
        except (OSError, ValueError, TypeError, IndexError, KeyError, RecursionError):  # DamagedFile among them
            return None

    def save(self, catalog: Catalog) -> None:
        write_records_quietly(self.path, self._header(), _records(catalog))

    def _header(self) -> dict[str, object]:
        return {"format": FORMAT, "key": self.key, "cache": _file_stamp(self.cache_path)}


def snapshot_for(
    cache_path: str | None, listings: Mapping[str, bytes] | None, options: CatalogOptions, top: str
) -> Snapshot | None:
    """The snapshot slot for these listings (root: git's raw listing), or None when the shortcut does not apply."""
    if cache_path is None or listings is None or any(_has_link(out) for out in listings.values()):
        return None
    return Snapshot(cache_path, snapshot_key(listings, options, top))


def snapshot_key(listings: Mapping[str, bytes], options: CatalogOptions, top: str) -> str:
    """A hash of everything git's view of these roots depends on, links aside."""
    settings = [
        FORMAT,
        parser_fingerprint(),
        unicodedata.unidata_version,
        os.getcwd(),
        top,
        [[root, os.path.realpath(root)] for root in listings],
        list(options.exclude),
        sorted(options.domains.items()),
    ]
    digest = blake2b(ascii(settings).encode("ascii"), digest_size=32)  # ascii(): one text for one value
    for out in listings.values():
        digest.update(b"%d\n" % len(out))
        digest.update(out)
    return digest.hexdigest()


def _has_link(out: bytes) -> bool:
    return out.startswith(_LINK_RECORD) or b"\0" + _LINK_RECORD in out


def _file_stamp(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


class _Rows:
    """Skills as JSON rows, small to load: values many skills share (roots, placements) are stored once.

    A row: name, description, path, root's number, warnings, metadata,
    placement's number, sections, owner, then slug and label, each null when
    it equals the name (most do).
    """

    def __init__(self) -> None:
        self.roots: dict[str, int] = {}
        self.placements: dict[Placement, int] = {}

    def row(self, skill: Skill) -> list[object]:
        return [
            skill.name,
            skill.description,
            skill.path,
            self.roots.setdefault(skill.root, len(self.roots)),
            skill.warnings,
            skill.metadata,
            self.placements.setdefault(skill.placement, len(self.placements)),
            skill.sections,
            skill.owner,
            None if skill.slug == skill.name else skill.slug,
            None if skill.label == skill.name else skill.label,
        ]


def _skill_from_row(row: Sequence[Any], roots: Sequence[str], placements: Sequence[Placement]) -> Skill:
    """The skill as saved: its derived fields (owner, slug, label, placement) are not computed again."""
    _, name, description, path, root, warnings, metadata, placement, sections, owner, slug, label = row  # tag first
    skill = Skill.__new__(Skill)
    skill.name, skill.description, skill.path, skill.root = name, description, path, roots[root]
    skill.warnings, skill.metadata, skill.sections = warnings, metadata, sections
    skill.owner = owner
    skill.slug = name if slug is None else slug
    skill.label = name if label is None else label
    skill.placement = placements[placement]
    return skill


def _records(catalog: Catalog) -> Iterator[bytes]:
    """The catalog as lines: what rows share first, then a row per skill, made as the file is written."""
    rows = _Rows()
    for skill in (*catalog.skills, *catalog.excluded, *(dropped for dropped, _ in catalog.duplicates)):
        rows.roots.setdefault(skill.root, len(rows.roots))
        rows.placements.setdefault(skill.placement, len(rows.placements))
    yield _line(["shared", list(rows.roots), [list(placement) for placement in rows.placements]])
    yield _line(["found", catalog.skipped, catalog.notices])
    targets = {id(skill) for _, skill in catalog.duplicates}  # only these need their number: few, unlike the skills
    position = {}
    for number, skill in enumerate(catalog.skills):
        if id(skill) in targets:
            position[id(skill)] = number
        yield _line(["s", *rows.row(skill)])
    for skill in catalog.excluded:
        yield _line(["x", *rows.row(skill)])
    for dropped, kept in catalog.duplicates:
        yield _line(["d", position[id(kept)], *rows.row(dropped)])


# ensure_ascii: a surrogate-escaped path survives as \udcxx, and no record holds a raw line feed. One encoder
# for the run (json_text.dumps): json.dumps with separators makes a new one per call.
def _line(value: object) -> bytes:
    """One record: what ``json.dumps(value, separators=(",", ":"))`` gives, as ASCII bytes."""
    return dumps(value, compact=True).encode("ascii")


def _catalog_from_records(rows: Iterator[Any], *, sections: bool) -> Catalog:
    kind, roots, placement_rows = next(rows)
    kind_found, skipped, notices = next(rows)
    if (kind, kind_found) != ("shared", "found"):
        raise DamagedFile("not a catalog")
    placements = [Placement(*placement) for placement in placement_rows]
    skills: list[Skill] = []
    excluded: list[Skill] = []
    duplicates: list[tuple[Skill, Skill]] = []
    for row in rows:
        if sections and row[8 if row[0] != "d" else 9] is None:
            raise DamagedFile("kept without the sections asked for")
        if row[0] == "s":
            skills.append(_skill_from_row(row, roots, placements))
        elif row[0] == "x":
            excluded.append(_skill_from_row(row, roots, placements))
        else:
            duplicates.append((_skill_from_row([row[0], *row[2:]], roots, placements), skills[row[1]]))
    return Catalog(skills, duplicates, skipped, excluded=excluded, notices=notices)


def _parsed(batches: Iterator[list[bytes]]) -> Iterator[Any]:
    """Each record as JSON, a batch parsed in one call: one call per record cost a warm run a fifth more CPU."""
    for batch in batches:
        yield from loads(b"[" + b",".join(batch) + b"]")  # type: ignore[misc]
