"""Build the catalog: find each root's SKILL.md files, read what they declare (through the cache), select.

Two views of a root. The file system's (walk.py): every SKILL.md on disk.
Git's (tracked.py): the SKILL.md files git's index tracks, read from their
blobs, which is what the next commit holds. The hooks take git's view in a
git work tree; the CLI takes the file system's unless asked. listing.py
lists each root's files in its view, reading.py reads what they declare;
this module chooses the view, keeps the snapshot, and makes the skills.
"""

from __future__ import annotations

import gc
import os

from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
from skillmem_hook.catalog.listing import git_listings, list_root
from skillmem_hook.catalog.skillfile.names import SkillProblem, check_path_is_utf8, shown_path, utf8_path
from skillmem_hook.catalog.skills import deduplicate, make_skill
from skillmem_hook.catalog.store.locations import catalog_cache_location

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.discovery.git import WorkTree
    from skillmem_hook.catalog.listing import PendingSkill
    from skillmem_hook.catalog.skills import Skill


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
    listings = git_listings(distinct, work_tree)
    snapshot = None
    if work_tree is not None:
        from skillmem_hook.catalog.store.snapshot import snapshot_for  # noqa: PLC0415 - git's view only

        snapshot = snapshot_for(cache_path, listings, options, work_tree.top)
    with _NoCycleCollection():
        catalog = snapshot.load(sections=options.sections) if snapshot is not None else None
        if catalog is None:
            catalog = _build(distinct, options, work_tree, cache_path, listings or {})
            if snapshot is not None and options.store_cache:
                snapshot.save(catalog)
    catalog.work_tree = work_tree
    return catalog


class _NoCycleCollection:
    """The cyclic garbage collector paused while the catalog is made, and resumed as it was.

    Making a catalog allocates a few objects per skill that live on, and
    none that form cycles; the collector, run by allocation counts, walks
    every live object at each full pass, and the passes come more often as
    they grow: at 100,000 skills a cold run spent some 370 ms of 7.5 s CPU
    in it (3 full passes), 1,100 ms with what it costs the caches, against
    20 ms at 10,000. What is freed is freed by reference counts as before.
    A class, not contextlib's decorator: a warm run loads no contextlib
    (with what it loads, a twelfth of a warm hook's instructions).
    """

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info: object) -> None:
        if self.was_enabled:
            gc.enable()


def _build(
    roots: list[str],
    options: CatalogOptions,
    work_tree: WorkTree | None,
    cache_path: str | None,
    listings: dict[str, bytes],
) -> Catalog:
    # A warm run (the snapshot holds the catalog) reads no SKILL.md: the cache and the parsers load only here.
    from skillmem_hook.catalog.placement.selection import (  # noqa: PLC0415 - a warm hook run places nothing
        apply_domains,
        split_excluded,
    )
    from skillmem_hook.catalog.reading import read_entries  # noqa: PLC0415 - a warm hook run parses nothing
    from skillmem_hook.catalog.store.cache import ContentCache  # noqa: PLC0415 - a warm hook run parses nothing

    cache = ContentCache(cache_path)
    pending: list[PendingSkill] = []
    skipped: list[dict[str, str]] = []
    notices: list[dict[str, str]] = []
    for root in roots:
        found, root_skipped = list_root(root, work_tree, notices, listings, options)
        pending += found
        found.clear()  # only pending holds them, so _make_skills frees each as its skill is made
        skipped += ({"root": root, "path": path, "reason": reason} for path, reason in root_skipped)
    skipped = [item for item in skipped if not _into_another_root(item, roots)]
    read_entries(pending, cache, sections=options.sections)
    parsed = _make_skills(pending, skipped)
    if options.store_cache:
        cache.save()
    del cache  # its entries were the run's largest holding at 100,000 skills; the skills keep what they need
    kept, excluded = split_excluded(_one_per_real_folder(parsed, roots), options.exclude)
    kept, duplicates = deduplicate(kept)
    apply_domains(kept, options.domains)
    return Catalog(kept, duplicates, skipped, excluded=excluded, notices=notices)


def _one_per_real_folder(skills: list[Skill], roots: list[str]) -> list[Skill]:
    """A skill two roots reach (one root lies inside another, through a link) is one skill: its first root's.

    Not a duplicate to report: it is the same file. Only the skills of such
    roots have their real paths looked up, so the usual layouts pay nothing.
    """
    real = {root: os.path.realpath(root) for root in roots}
    nested = {
        root
        for root in roots
        for other in roots
        if _inside(real[other], real[root]) or _inside(real[root], real[other])
    }
    if not nested:
        return skills
    seen: set[str] = set()
    kept = []
    for skill in skills:
        if skill.root in nested:
            folder = os.path.realpath(os.path.join(skill.root, skill.path))
            if folder in seen:
                continue
            seen.add(folder)
        kept.append(skill)
    return kept


def _into_another_root(item: dict[str, str], roots: list[str]) -> bool:
    """Whether a link skipped as leaving its root leads into another root, whose walk lists what it holds."""
    from skillmem_hook.catalog.discovery.links import OUTSIDE_ROOT  # noqa: PLC0415 - a warm hook run lists nothing

    if item["reason"] != OUTSIDE_ROOT:
        return False
    target = os.path.realpath(os.path.join(item["root"], item["path"]))
    for root in roots:
        real_root = os.path.realpath(root)
        if root != item["root"] and (target == real_root or _inside(target, real_root)):
            inside = os.path.relpath(target, real_root)
            return not any(part.startswith(".") for part in inside.split(os.sep) if part != ".")  # the walk skips those
    return False


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` lies below ``folder`` (both real paths)."""
    return path.startswith(folder + os.sep)


def _work_tree(options: CatalogOptions) -> WorkTree | None:
    if options.tracked is False:
        return None
    from skillmem_hook.catalog.discovery.git import find_work_tree  # noqa: PLC0415 - only git's view needs git

    work_tree = find_work_tree()
    if work_tree is None and options.tracked:
        from skillmem_hook.catalog.discovery.ownership import repository_error  # noqa: PLC0415 - only the error

        raise repository_error("not inside a git work tree, so there is no index to read", "drop --tracked")
    return work_tree


def _cache_path(work_tree: WorkTree | None, options: CatalogOptions) -> str | None:
    return catalog_cache_location(work_tree) if options.cache else None


def _distinct(roots: Sequence[str]) -> list[str]:
    by_real: dict[str, str] = {}
    for root in roots:
        utf8_path(root, "skills root")  # every skill below would carry the bytes into links and JSON: say it once
        by_real.setdefault(os.path.realpath(root), root)
    return list(by_real.values())


def _make_skills(pending: list[PendingSkill], skipped: list[dict[str, str]]) -> list[Skill]:
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
