"""The route hook's precomputed index: what it needs of the catalog, kept in one JSON file.

The hook runs on every prompt, so it must not scan and parse every SKILL.md
each time. The index holds each skill's name, description, aliases and
SKILL.md path, with a snapshot (``catalog/store/stamps.py``) of the folders and files it
came from; it is rebuilt when the snapshot no longer matches the disk. It
lives under ``.git/`` when the prompt's folder is a repository's top, else in
the user's cache folder, never among the files a user commits.
"""

from __future__ import annotations

import json
import os
import zlib

from skillmem_hook.agents.config_stamp import Stamp, config_stamp
from skillmem_hook.agents.route import Target
from skillmem_hook.catalog.store.seal import read_sealed_file
from skillmem_hook.catalog.store.stamps import StatSnapshot, take_snapshot
from skillmem_hook.catalog.store.trust import leaves_root
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.config_file import SearchSettings
from skillmem_hook.search.names import folder_keys, skill_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.config import Settings


# 6: a skill's own short CJK name or alias needs a mark; 7: the configuration the score rule's search needs;
# 8: a slug name typed with spaces needs a mark; 9: the snapshot a text of its own, as the search index keeps it;
# 10: the notices about roots outside the repository that it names, said on every prompt's stderr;
# 11: a folder's name no skill has ('!folder'), a title's words joined by '+', '/' or '&' ('&title')
# 12: each root's stamp holds the change time and inode too (``catalog/store/stamps.py``);
# 13: (mtime, size) again on every path: the seal says where a file was written
HEADER = "skillmem-route-index 13"
MAX_INDEX_BYTES = 256 * 1024 * 1024
# The kept configuration's most characters of text, a configuration's own limit. YAML's anchors can make
# a 64 KiB file hundreds of MB spelled out; such a configuration is read again by each prompt instead.
MAX_KEPT_BYTES = 64 * 1024


Row = tuple[str, str, str, list[str]]  # label, root, folder, the keys a prompt names it by (route.skill_keys)


class RouteIndex:
    """One row per skill, the roots, and the snapshot of the disk they were read from.

    Descriptions are left out: they would make the file, read on every
    prompt, several times larger, and only the search needs them. ``search``
    keeps what the score rule's search needs of the configuration
    (``Settings.search``; None when it is too large to keep), and ``config``
    which configuration that was (``config_stamp``): while both the snapshot
    and the stamp hold, a warm prompt need not read the configuration again,
    and importing PyYAML alone costs about a bare interpreter's start.
    ``notices``: (root, notice) for each root outside the repository that it
    names (``listing.outside_notices``), found at the build: a warm prompt
    asks git nothing to say them.
    """

    __slots__ = ("config", "notices", "roots", "rows", "search", "snapshot", "snapshot_text")

    def __init__(
        self,
        roots: list[str],
        rows: list[Row],
        snapshot: StatSnapshot,
        search: SearchSettings | None,
        config: Stamp,
        *,
        snapshot_text: bytes | None = None,
        notices: list[tuple[str, str]] | None = None,
    ) -> None:
        self.roots = roots
        self.notices = notices or []
        self.rows = rows
        self.snapshot = snapshot
        # As the search index keeps its own (StatSnapshot.as_text): equal bytes, the same stamps.
        self.snapshot_text = snapshot.as_text() if snapshot_text is None else snapshot_text
        self.search = search
        self.config = config

    def is_current(self) -> bool:
        """Whether the disk still holds what the index was built from: its files, and its configuration's bytes."""
        return self.snapshot.is_current() and config_stamp(os.getcwd()) == self.config

    def targets(self) -> list[tuple[Target, list[str]]]:
        """(target, keys) per skill, for ``route.build_name_table``."""
        return [(Target(label, root, folder), keys) for label, root, folder, keys in self.rows]

    def to_bytes(self) -> bytes:
        """A header line with the payload's checksum, then the payload: a damaged file is noticed cheaply.

        The payload is a JSON document, a line break, and the snapshot's text.
        """
        document = {
            "roots": self.roots,
            "skills": self.rows,
            "search": None if self.search is None else self.search.as_json(),
            "config": self.config,
            "notices": self.notices,
        }
        # surrogatepass: a folder name that is not UTF-8 (stamped in the snapshot) round-trips, as json.loads reads it.
        # JSON escapes every line break in a string: the first one ends the document.
        payload = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
        payload += b"\n" + self.snapshot_text
        return f"{HEADER} {_checksum(payload)}\n".encode() + payload

    @classmethod
    def from_bytes(cls, data: bytes, end: int | None = None) -> RouteIndex:
        """Raises ValueError for bytes this version did not write, or that changed since.

        The checksum stands in for a check of every field: checking 6,000 rows
        one by one would cost more than the rest of a warm run. It guards
        against damage, not malice; a kept file's seal (``seal.read_sealed_file``),
        which follows the index at ``end``, says it was written here.
        """
        cut = data.find(b"\n")
        header, payload = data[: max(cut, 0)], data[cut + 1 : len(data) if end is None else end]
        if header != f"{HEADER} {_checksum(payload)}".encode():
            raise ValueError("not a route index of this version, or damaged")
        document_text, _, snapshot_text = payload.partition(b"\n")
        document = json.loads(document_text)
        snapshot = StatSnapshot.from_json(json.loads(snapshot_text))
        roots = document["roots"]
        _check_provenance(roots)
        known = set(roots)
        rows = [tuple(row) for row in document["skills"]]
        if any(row[1] not in known or leaves_root(row[2]) for row in rows):
            raise ValueError("a row of the route index names a folder outside its roots")
        search = document.get("search", False)  # null: too large to keep; missing: not an index of this shape
        kept = None if search is None else SearchSettings.from_json(search)
        config = document.get("config")
        if not isinstance(config, list) or len(config) != 2:
            raise ValueError("the route index keeps no configuration stamp")
        notices = document["notices"]
        if not isinstance(notices, list) or not all(_is_notice(item) for item in notices):
            raise ValueError("the route index's notices are not (root, notice) pairs")
        pairs = [(item[0], item[1]) for item in notices]
        return cls(roots, rows, snapshot, kept, config, snapshot_text=snapshot_text, notices=pairs)


def _is_notice(item: object) -> bool:
    return isinstance(item, list) and len(item) == 2 and all(isinstance(part, str) for part in item)


def _check_provenance(roots: object) -> None:
    """Refuse an index that keeps no roots: a shape this version never writes.

    Where the file was written is the seal's to say (``seal.read_sealed_file``),
    and a snapshot written here stamps every root (``take_snapshot``); so the
    snapshot is not asked to vouch for the roots. Its stamps say only whether
    the disk changed.
    """
    if not isinstance(roots, list) or not roots:
        raise ValueError("the route index keeps no roots")


def _checksum(payload: bytes) -> str:
    return f"{len(payload)}-{zlib.crc32(payload):08x}"


def build_route_index(flag_roots: Sequence[str] | None) -> RouteIndex:
    """Scan the configured roots (as every command finds them) into a fresh index."""
    from skillmem_hook.catalog.listing import outside_notices  # noqa: PLC0415 - a warm index never needs it
    from skillmem_hook.catalog.scan import scan_roots  # noqa: PLC0415 - a warm index never needs the scanner
    from skillmem_hook.decisive import decisive_files  # noqa: PLC0415 - a warm route prompt builds no index

    # Before the configuration is read, and the files before the scan: a change during either shows next time.
    config = config_stamp(os.getcwd())
    settings = load_settings(flag_roots or None)
    roots = require_roots(settings)
    snapshot = take_snapshot(roots, decisive_files(os.getcwd(), tracked=settings.tracked))
    options = settings.catalog_options()
    skills = scan_roots(roots, options).skills
    ordered = sorted(skills, key=lambda skill: skill.label)
    rows: list[Row] = [
        (skill.label, skill.root, skill.path, keys)
        for skill, keys in zip(ordered, keys_by_skill(ordered, settings.aliases))
    ]
    notices = [(item["root"], item["notice"]) for item in outside_notices(roots, options)]
    return RouteIndex(roots, rows, snapshot, _kept(settings), config, notices=notices)


def keys_by_skill(skills: Sequence[Skill], aliases: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """``route_keys`` of each skill, with its folder's name where no skill is named so (``names.folder_keys``)."""
    from skillmem_hook.catalog.placement.selection import folder_name  # noqa: PLC0415 - a warm route prompt builds no index

    return folder_keys((folder_name(skill), route_keys(skill, aliases)) for skill in skills)


def route_keys(skill: Skill, aliases: Mapping[str, Sequence[str]]) -> list[str]:
    """The keys by which a prompt names ``skill``: its name, its own aliases and the configuration's.

    A skill's own aliases are the repository's words, so a one-word one needs a mark, like a
    one-word name ("fix" must not fire on "fix the typo"); the configuration's stay trusted.
    """
    from skillmem_hook.search.aliases import aliases_of  # noqa: PLC0415 - a warm route prompt builds no index

    own = aliases_of(skill, {})
    configured = aliases_of(skill, aliases)[len(own) :]
    return skill_keys([skill.name, *own], configured)


def _kept(settings: Settings) -> SearchSettings | None:
    """``settings.search``, or None when its text would pass MAX_KEPT_BYTES (counted without spelling it out)."""
    text = sum(map(len, settings.exclude)) + sum(len(name) + len(domain) for name, domain in settings.domains.items())
    text += sum(len(name) + sum(map(len, words)) for name, words in settings.aliases.items())
    return settings.search if text <= MAX_KEPT_BYTES else None


def stored_route_index(location: str) -> RouteIndex | None:
    """The index stored at ``location`` while it matches the disk; None when it must be built again."""
    try:
        # A regular file only, capped, and this user's alone: a FIFO must not hang the prompt, nor another
        # user's file choose its hint.
        # And written here, on this machine (its seal): one an archive ships in its .git is not.
        stored = RouteIndex.from_bytes(*read_sealed_file(location, MAX_INDEX_BYTES))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing, unreadable, damaged or of another shape: rebuild it
    return stored if stored.is_current() else None


def current_route_index(location: str, flag_roots: Sequence[str] | None) -> RouteIndex:
    """The stored index while it matches the disk; otherwise a new one, stored for next time."""
    stored = stored_route_index(location)
    if stored is not None:
        return stored
    fresh = build_route_index(flag_roots)
    _store(location, fresh.to_bytes())
    return fresh


def _store(location: str, data: bytes) -> None:
    """Write atomically; a folder that cannot be written only costs the next prompt a rebuild."""
    from skillmem_hook.catalog.store.locations import say_when_not_kept  # noqa: PLC0415 - a warm prompt stores nothing
    from skillmem_hook.catalog.store.seal import write_sealed_quietly  # noqa: PLC0415 - a warm prompt stores nothing

    write_sealed_quietly(location, data)
    say_when_not_kept(location, "route index")
