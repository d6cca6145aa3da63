"""What each listed SKILL.md declares: from the content cache, from git's blobs, or from disk."""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.head_read import read_skill_head
from skillmem_hook.catalog.skillfile.declared import read_located_text, read_skill_text
from skillmem_hook.catalog.skillfile.head import MAX_READ, located_head
from skillmem_hook.catalog.skillfile.names import SkillProblem
from skillmem_hook.errors import FileAccessError
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from skillmem_hook.catalog.discovery.git_blobs import MissingBlob
    from skillmem_hook.catalog.listing import PendingSkill
    from skillmem_hook.catalog.store.cache import ContentCache, Entry


def read_entries(pending: list[PendingSkill], cache: ContentCache, *, sections: bool = True) -> None:
    """Fill in each entry: from the cache, from git's blobs, or from disk; the body's sections when asked for."""
    blobs: dict[str, list[PendingSkill]] = {}
    for item in pending:
        if item.oid:
            item.entry = cache.get(item.key, sections=sections)
            if item.entry is None:
                blobs.setdefault(item.oid, []).append(item)
        else:
            _read_from_disk(item, cache, sections=sections)
    if blobs:
        from skillmem_hook.catalog.discovery.git_blobs import MissingBlob, read_blobs  # noqa: PLC0415 - a warm run reads no blob

        for oid, data in _checked_out(blobs):
            _fill_from_blob(blobs.pop(oid), cache, oid, _declared_blob(data, sections=sections))
        if blobs:  # those the work tree does not hold as committed: git is started only for them
            try:
                for oid, data in read_blobs(list(blobs), MAX_READ):
                    _fill_from_blob(blobs[oid], cache, oid, _declared_blob(data, sections=sections))
            except MissingBlob as missing:
                raise _named(missing, blobs[missing.name][0]) from None


def _named(missing: MissingBlob, item: PendingSkill) -> FileAccessError:
    """The error for a SKILL.md git's index names by a blob its store lacks: the file named, never "a bug"."""
    path = os.path.normpath(os.path.join(item.root, item.relative, SKILL_FILE))
    return FileAccessError(
        f"git's index names {visible(path)} by the blob {missing.name}, which its object store lacks", missing.hint
    )


def _checked_out(blobs: dict[str, list[PendingSkill]]) -> Iterator[tuple[str, bytes]]:
    """The blobs whose work-tree copy holds their very bytes, read from there rather than from git."""
    from skillmem_hook.catalog.discovery.checkout import read_checked_out  # noqa: PLC0415 - a warm run reads no blob
    from skillmem_hook.catalog.discovery.tracked import pathspec_of  # noqa: PLC0415 - a warm run reads no blob

    by_root: dict[str, list[tuple[str, str]]] = {}
    for oid, items in blobs.items():
        by_root.setdefault(items[0].root, []).append((items[0].relative, oid))
    for root, wanted in by_root.items():
        yield from read_checked_out(pathspec_of(root), sorted(wanted))


def _fill_from_blob(items: list[PendingSkill], cache: ContentCache, oid: str, entry: Entry | None) -> None:
    for item in items:
        item.entry = entry
    if entry is not None:
        cache.put("b:" + oid, entry)


def _read_from_disk(item: PendingSkill, cache: ContentCache, *, sections: bool) -> None:
    try:
        info = os.stat(item.file_path)
    except OSError:
        info = None
    if info is not None:
        item.key = f"f:{os.fsdecode(item.file_path)}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}"
        item.times = (info.st_mtime_ns, info.st_ctime_ns)
        item.entry = cache.get(item.key, sections=sections)
        if item.entry is not None:
            return
    item.entry = _declared(read_skill_head, item.file_path, sections=sections)
    if info is not None and item.entry is not None:
        cache.put(item.key, item.entry, times_ns=item.times)


def _declared(read: Callable[[Any], bytes | None], source: Any, *, sections: bool) -> Entry | None:
    """What the bytes ``read(source)`` gives declare, the reason they cannot be used, or None when the file is gone."""
    try:
        data = read(source)
        return None if data is None else read_skill_text(data, sections=sections)
    except SkillProblem as problem:
        return str(problem)


def _declared_blob(data: bytes, *, sections: bool) -> Entry:
    """What a blob's bytes declare, or the reason they cannot be used; the frontmatter located once for both."""
    try:
        return read_located_text(*located_head(data), sections=sections)
    except SkillProblem as problem:
        return str(problem)
