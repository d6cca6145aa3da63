"""Build the catalog: find each root's SKILL.md files, read what they declare (through the cache), select.

Two views of a root. The file system's (walk.py): every SKILL.md on disk.
Git's (tracked.py): the SKILL.md files git's index tracks, read from their
blobs, which is what the next commit holds. The hooks take git's view in a
git work tree; the CLI takes the file system's unless asked.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
from skillmem_hook.catalog.discovery.head_read import read_skill_head
from skillmem_hook.catalog.discovery.walk import check_root, find_skill_files
from skillmem_hook.catalog.placement.selection import apply_domains, split_excluded
from skillmem_hook.catalog.skillfile.declared import read_skill_text
from skillmem_hook.catalog.skillfile.head import MAX_READ, skill_head
from skillmem_hook.catalog.skillfile.names import check_path_is_utf8, is_utf8_path, shown_path
from skillmem_hook.catalog.skills import SkillProblem, deduplicate, make_skill
from skillmem_hook.catalog.store.cache import ContentCache
from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any

    from skillmem_hook.catalog.discovery.git import WorkTree
    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.catalog.store.cache import Entry


OUTSIDE_REPOSITORY = "lies outside the repository, so it was read from disk and the block depends on this machine"


def _nothing_tracked(root: str) -> str:
    """Why git's view of a root is empty: said, since a block that loses every skill surprises."""
    from skillmem_hook.catalog.discovery.git import ignored_paths  # noqa: PLC0415

    ignored = bool(ignored_paths([root])) if os.path.isdir(root) else False
    why = "git ignores it, so " if ignored else ""
    return f"{why}git tracks no SKILL.md below it: the block lists none of its skills (git add them, or fix --root)"


class _Pending:
    """A SKILL.md to turn into a skill: where it lies, its cache key, and how to read it on a miss."""

    __slots__ = ("entry", "file_path", "key", "oid", "relative", "root", "times")

    def __init__(self, root: str, relative: str, key: str, *, oid: str = "", file_path: bytes = b"") -> None:
        self.root = root
        self.relative = relative
        self.key = key
        self.oid = oid
        self.file_path = file_path
        self.times: tuple[int, ...] = ()
        self.entry: Entry | None = None


def scan_roots(roots: Sequence[str], options: CatalogOptions | None = None) -> Catalog:
    """Build the catalog of every skill below the given roots.

    De-duplication spans all roots; of two skills with one (owner, slug), the
    one in the earlier root, then with the earlier path, is kept. A root
    named twice (``skills`` and ``./skills``) is read once.
    """
    options = options or CatalogOptions()
    work_tree = _work_tree(options)
    cache_path = _cache_path(work_tree, options)
    distinct = _distinct(roots)
    listings = _listings(distinct, work_tree)
    snapshot = None
    if work_tree is not None:
        from skillmem_hook.catalog.store.snapshot import snapshot_for  # noqa: PLC0415 - git's view only

        snapshot = snapshot_for(cache_path, listings, options, work_tree.top)
    catalog = snapshot.load() if snapshot is not None else None
    if catalog is None:
        catalog = _build(distinct, options, work_tree, cache_path, listings or {})
        if snapshot is not None:
            snapshot.save(catalog)
    catalog.work_tree = work_tree
    return catalog


def _build(
    roots: list[str],
    options: CatalogOptions,
    work_tree: WorkTree | None,
    cache_path: str | None,
    listings: dict[str, bytes],
) -> Catalog:
    cache = ContentCache(cache_path)
    pending: list[_Pending] = []
    skipped: list[dict[str, str]] = []
    notices: list[dict[str, str]] = []
    for root in roots:
        found, root_skipped = _list_root(root, work_tree, notices, listings)
        pending += found
        found.clear()  # only pending holds them, so _make_skills frees each as its skill is made
        skipped += ({"root": root, "path": path, "reason": reason} for path, reason in root_skipped)
    _read_entries(pending, cache)
    parsed = _make_skills(pending, skipped)
    cache.save()
    del cache  # its entries were the run's largest holding at 100,000 skills; the skills keep what they need
    kept, excluded = split_excluded(parsed, options.exclude)
    kept, duplicates = deduplicate(kept)
    apply_domains(kept, options.domains)
    return Catalog(kept, duplicates, skipped, excluded=excluded, notices=notices)


def _work_tree(options: CatalogOptions) -> WorkTree | None:
    if options.tracked is False:
        return None
    from skillmem_hook.catalog.discovery.git import find_work_tree  # noqa: PLC0415 - only git's view needs git

    work_tree = find_work_tree()
    if work_tree is None and options.tracked:
        raise UsageError("not inside a git work tree, so there is no index to read", "drop --tracked")
    return work_tree


def _cache_path(work_tree: WorkTree | None, options: CatalogOptions) -> str | None:
    if not options.cache:
        return None
    if work_tree is not None:
        return work_tree.cache_path
    from skillmem_hook.catalog.discovery.git import find_git_dir  # noqa: PLC0415

    git_dir = find_git_dir(os.getcwd())
    return None if git_dir is None else os.path.join(git_dir, "skillmem", "cache.json")


def _distinct(roots: Sequence[str]) -> list[str]:
    by_real: dict[str, str] = {}
    for root in roots:
        if not is_utf8_path(root):  # every skill below would carry the bytes into links and JSON: say it once
            raise UsageError(
                f"the skills root '{shown_path(root)}' is not valid UTF-8 (shown with \\x escapes)",
                "rename the folder, or pass a path that reaches it through UTF-8 names",
            )
        by_real.setdefault(os.path.realpath(root), root)
    return list(by_real.values())


def _inside(root: str, work_tree: WorkTree) -> bool:
    real_top = os.path.realpath(work_tree.top)
    real_root = os.path.realpath(root)
    return real_root == real_top or real_root.startswith(real_top + os.sep)


def _listings(roots: list[str], work_tree: WorkTree | None) -> dict[str, bytes] | None:
    """Git's raw listing of each root, when every root lies in the work tree (else None: some are walked)."""
    if work_tree is None or not all(_inside(root, work_tree) for root in roots):
        return None
    from skillmem_hook.catalog.discovery.git import list_index  # noqa: PLC0415
    from skillmem_hook.catalog.discovery.tracked import pathspec_of  # noqa: PLC0415

    return {root: list_index([pathspec_of(root)]) for root in roots}


def _list_root(
    root: str, work_tree: WorkTree | None, notices: list[dict[str, str]], listings: dict[str, bytes]
) -> tuple[list[_Pending], list[tuple[str, str]]]:
    if work_tree is not None:
        if _inside(root, work_tree):
            found, skipped = _list_tracked(root, listings)
            if not found and not skipped:
                check_root(root)  # neither in git's index nor on disk: a typo, said as the file-system view says it
                notices.append({"root": root, "notice": _nothing_tracked(root)})
            return found, skipped
        notices.append({"root": root, "notice": OUTSIDE_REPOSITORY})
    files, skipped = find_skill_files(root)
    return [_Pending(root, found.relative, "", file_path=found.file_path) for found in files], skipped


def _list_tracked(root: str, listings: dict[str, bytes]) -> tuple[list[_Pending], list[tuple[str, str]]]:
    from skillmem_hook.catalog.discovery.git import list_index, parse_index  # noqa: PLC0415
    from skillmem_hook.catalog.discovery.tracked import pathspec_of, tracked_skill_files  # noqa: PLC0415

    # Popped: at 100,000 skills the listing is some 10 MB the rest of the run no longer needs.
    listing = listings.pop(root) if root in listings else list_index([pathspec_of(root)])
    found, skipped = tracked_skill_files(root, parse_index(listing))
    return [_Pending(root, tracked.relative, "b:" + tracked.oid, oid=tracked.oid) for tracked in found], skipped


def _read_entries(pending: list[_Pending], cache: ContentCache) -> None:
    """Fill in each entry: from the cache, from git's blobs, or from disk."""
    blobs: dict[str, list[_Pending]] = {}
    for item in pending:
        if item.oid:
            item.entry = cache.get(item.key)
            if item.entry is None:
                blobs.setdefault(item.oid, []).append(item)
        else:
            _read_from_disk(item, cache)
    if blobs:
        from skillmem_hook.catalog.discovery.git_blobs import read_blobs  # noqa: PLC0415

        for oid, data in _checked_out(blobs):
            _fill_from_blob(blobs.pop(oid), cache, oid, data)
        if blobs:  # those the work tree does not hold as committed: git is started only for them
            for oid, data in read_blobs(list(blobs), MAX_READ):
                _fill_from_blob(blobs[oid], cache, oid, data)


def _checked_out(blobs: dict[str, list[_Pending]]) -> Iterator[tuple[str, bytes]]:
    """The blobs whose work-tree copy holds their very bytes, read from there rather than from git."""
    from skillmem_hook.catalog.discovery.checkout import read_checked_out  # noqa: PLC0415
    from skillmem_hook.catalog.discovery.tracked import pathspec_of  # noqa: PLC0415

    by_root: dict[str, list[tuple[str, str]]] = {}
    for oid, items in blobs.items():
        by_root.setdefault(items[0].root, []).append((items[0].relative, oid))
    for root, wanted in by_root.items():
        yield from read_checked_out(pathspec_of(root), sorted(wanted))


def _fill_from_blob(items: list[_Pending], cache: ContentCache, oid: str, data: bytes) -> None:
    entry = _declared(skill_head, data)
    for item in items:
        item.entry = entry
    if entry is not None:
        cache.put("b:" + oid, entry)


def _read_from_disk(item: _Pending, cache: ContentCache) -> None:
    try:
        info = os.stat(item.file_path)
    except OSError:
        info = None
    if info is not None:
        item.key = f"f:{os.fsdecode(item.file_path)}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}"
        item.times = (info.st_mtime_ns, info.st_ctime_ns)
        item.entry = cache.get(item.key)
        if item.entry is not None:
            return
    item.entry = _declared(read_skill_head, item.file_path)
    if info is not None and item.entry is not None:
        cache.put(item.key, item.entry, times_ns=item.times)


def _declared(read: Callable[..., bytes | None], *arguments: Any, **options: Any) -> Entry | None:
    """What the bytes ``read`` gives declare, the reason they cannot be used, or None when the file is gone."""
    try:
        data = read(*arguments, **options)
        return None if data is None else read_skill_text(data)
    except SkillProblem as problem:
        return str(problem)


def _make_skills(pending: list[_Pending], skipped: list[dict[str, str]]) -> list[Skill]:
    """The skills, in the pending order; the list is emptied as they are made, so each item is freed at once."""
    skills: list[Skill] = []
    pending.reverse()
    while pending:
        item = pending.pop()
        if item.entry is None:
            continue  # the file went away while the run read it
        relative, root = item.relative, item.root
        try:
            if isinstance(item.entry, str):
                raise SkillProblem(item.entry)
            folder = os.path.basename(os.path.realpath(root)) if relative == "." else relative.rsplit("/", 1)[-1]
            check_path_is_utf8(folder if relative == "." else relative)
            skills.append(make_skill(item.entry, path=relative, folder=folder, root=root))
        except SkillProblem as problem:
            skipped.append({"root": root, "path": shown_path(relative), "reason": str(problem)})
    return skills
