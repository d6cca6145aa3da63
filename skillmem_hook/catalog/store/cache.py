"""A content-addressed cache of what each SKILL.md declares, so an unchanged skill is never read again.

Keys: ``b:<blob id>`` for a file git tracks (the id is a hash of the bytes,
so it can never be stale), ``f:<path>:<size>:<mtime>:<ctime>:<inode>`` for a
file read from disk. A file whose times are within RACY_SECONDS of the run
is not kept, so an edit within the same clock tick (same size, same time
stamp) is always read anew, as git treats racily clean entries.

The file lives in the git directory (``git rev-parse --git-path skillmem``),
so nothing shows in ``git status``. It is a file of records (records.py):
a header naming the format, a fingerprint of the parsing code and the
Unicode version, then one ``key<TAB>JSON`` line per entry, kept as bytes
until a run asks for that key, and a checksum. A file that is missing,
corrupt, truncated, of another version or unwritable is ignored and
rebuilt, never an error (nor a hang: only a regular file of at most
MAX_CACHE_BYTES is read). It is streamed to a temporary file and renamed
over the old one, so concurrent runs never see half a file. The checksum
finds damage, not forgery: the git directory is trusted as git's own files
are, since whoever can write there can already run code through its hooks.
An archive's ``.git`` is not, and blob ids are anyone's to reproduce, so the
file is sealed with its own inode and change time (records.py): one
unpacked or copied here is ignored and rewritten.
"""

from __future__ import annotations

import os
import time
import unicodedata
import zlib

from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES, Placement
from skillmem_hook.catalog.skillfile.text import SkillText
from skillmem_hook.catalog.store.json_text import dumps, loads
from skillmem_hook.catalog.store.records import DamagedFile, read_batches, write_lines_quietly, write_records_quietly

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Union

    Entry = Union[SkillText, str]  # what a SKILL.md declares, or why it cannot be used

FORMAT = "skillmem-cache-2"
RACY_SECONDS = 3
MAX_CACHE_BYTES = 512 * 1024 * 1024  # 100,000 skills take about 40 MB
# The whole catalog wing (its job folders included): any change to how a skill is read or placed is a new parser.
_CATALOG_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ContentCache:
    """Entries by key, loaded from ``path`` (None: a cache that keeps nothing)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.started = time.time_ns()
        self.header = {"format": FORMAT, "parser": parser_fingerprint(), "unicode": unicodedata.unidata_version}
        self.stored = _load(path, self.header) if path else {}  # each entry's JSON bytes, parsed when asked for
        self.used: dict[str, object] = {}  # JSON bytes, or entries to serialise at save()
        self.changed = False

    def get(self, key: str, *, sections: bool = True) -> Entry | None:
        """The entry kept under ``key``; None when there is none, or when ``sections`` are wanted and it has none.

        The hooks' build keeps its entries without the body's sections (only
        search reads them): search's first scan reads those files again and
        keeps the entries whole, which then serve every reader.
        """
        raw = self.stored.get(key)
        try:
            entry = None if raw is None else _entry_from_json(loads(raw))
        except (ValueError, RecursionError):
            entry = None
        if entry is None or (sections and type(entry) is SkillText and entry.sections is None):
            return None
        self.used[key] = raw
        return entry

    def put(self, key: str, entry: Entry, *, times_ns: tuple[int, ...] = ()) -> None:
        if any(stamp > self.started - RACY_SECONDS * 1_000_000_000 for stamp in times_ns):
            return  # racily clean: a later edit could keep this key
        self.used[key] = entry  # serialised at save(), by when the catalog has filled in its domain
        self.changed = True

    def save(self) -> None:
        """Write the entries this run used (and the older ones, within bounds) when any is new."""
        if not self.path or not self.changed:
            return
        older = len(self.stored) + len(self.used) <= 4 * len(self.used) + 1000
        write_records_quietly(self.path, self.header, self._records(keep_older=older))

    def _records(self, *, keep_older: bool) -> Iterator[bytes]:
        """One ``key<TAB>JSON`` line per entry, made as the file is written: never the whole file in memory."""
        for key, value in self.used.items():
            if "\t" not in key and "\n" not in key:  # a path holding either is just not kept
                raw = value if type(value) is bytes else dumps(_entry_to_json(value)).encode("ascii")
                yield key.encode("utf-8", "surrogateescape") + b"\t" + raw
        if keep_older:
            for key, raw in self.stored.items():
                if key not in self.used:
                    yield key.encode("utf-8", "surrogateescape") + b"\t" + raw


def parser_fingerprint() -> str:
    """A checksum of the catalog's own source, so a new version of the parsing code never reads old entries.

    Every warm hook run computes it, so the files are read unbuffered: four system calls each, not nine.
    """
    checksum = 0
    try:
        for path in _catalog_sources(_CATALOG_FOLDER):
            checksum = zlib.crc32(_read_whole(path), checksum)
    except OSError:
        return "unknown"
    return f"{checksum:08x}"


def _catalog_sources(top: str) -> list[str]:
    """The wing's ``.py`` files, by folder then name (``sorted(os.walk(top))``'s order), ``__pycache__`` left out."""
    found: list[tuple[str, str]] = []
    folders = [top]
    while folders:
        folder = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    found.append((folder, entry.name))
                elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):  # as os.walk
                    folders.append(entry.path)
    return [os.path.join(folder, name) for folder, name in sorted(found)]


def _read_whole(path: str) -> bytes:
    """The file's bytes: one read of fstat's size and a byte more, more reads only if it grew meanwhile."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        size = os.fstat(descriptor).st_size + 1
        chunks = [os.read(descriptor, size)]
        while len(chunks[-1]) == size:
            chunks.append(os.read(descriptor, size))
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _load(path: str, header: dict[str, str]) -> dict[str, bytes]:
    stored: dict[str, bytes] = {}
    try:
        # A regular file only, and capped: a FIFO or a link to /dev/zero put there must not hang the run.
        for batch in read_batches(path, header, MAX_CACHE_BYTES):
            for record in batch:
                key, tab, raw = record.partition(b"\t")
                if tab:
                    stored[key.decode("utf-8", "surrogateescape")] = raw
    except (OSError, DamagedFile):
        return {}
    return stored


def _entry_to_json(entry: object) -> object:
    if isinstance(entry, SkillText):
        placement = None if entry.placement is None else list(entry.placement)
        return [entry.name, entry.description, entry.warnings, entry.metadata, entry.title, placement, entry.sections]
    return entry  # a reason, or a raw value read from the file


def _entry_from_json(raw: object) -> Entry | None:
    """The entry, or None for anything that is not exactly what ``_entry_to_json`` writes.

    JSON gives exact types, so ``type(...) is`` (cheaper than isinstance) tells the same; this runs once per skill.
    """
    if type(raw) is str:
        return raw
    if type(raw) is not list or len(raw) != 7:
        return None
    name, description, warnings, metadata, title, placement, sections = raw
    if not (
        (name is None or type(name) is str)
        and (description is None or type(description) is str)
        and type(title) is str
        and (sections is None or type(sections) is str)
        and type(warnings) is list
        and (not warnings or all(type(item) is str for item in warnings))
        and type(metadata) is dict
        and (not metadata or all(type(value) is str for value in metadata.values()))
        and (placement is None or _is_placement(placement))
    ):
        return None
    return SkillText(
        name,
        description,
        warnings,
        metadata,
        title=title,
        placement=None if placement is None else Placement(*placement),
        sections=sections,
    )


def _is_placement(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and value[0] in DOMAIN_NAMES
        and isinstance(value[1], str)
        and isinstance(value[2], str)
    )


def _is_text_or_none(value: object) -> bool:
    return value is None or isinstance(value, str)


def write_file_quietly(path: str, *chunks: bytes) -> None:
    """Replace the file with the chunks, atomically; any failure leaves the old one (or none) and is ignored."""
    write_lines_quietly(path, chunks)
