"""A stale stored index refreshed by re-indexing only the skills whose SKILL.md changed.

The first search after an edit would otherwise read every body and build
every posting again (seconds at 2,000 skills). The stored index's snapshot
says which SKILL.md files it saw, with their stamps; a skill whose file
keeps its stamp, its place and its name and description keeps its postings
(``search/patch.py``). When skills came, went or moved, or many changed, or
anything does not add up, the index is built anew: the patch is only ever
a shortcut to the same bytes.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.store.stamps import SKILL_FILE
from skillmem_hook.search.store import read_body, search_index_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions
    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.catalog.store.stamps import Stamp, StatSnapshot
    from skillmem_hook.search.rank import SearchIndex

# Patch while at most one skill in this many changed: on the Chinese collection a patch of one
# skill in 8 took 1.1 s CPU, a build 2.4 s (a patch of one skill, 0.15 s).
PATCH_SHARE = 8


def refreshed_search_index(
    roots: Sequence[str],
    options: CatalogOptions,
    aliases: Mapping[str, Sequence[str]],
    stale: tuple[SearchIndex, StatSnapshot] | None,
    now: StatSnapshot,
) -> SearchIndex:
    """Scan the roots and index every skill: the ``stale`` index patched where it can be, else a new build."""
    from skillmem_hook.catalog.scan import scan_roots  # noqa: PLC0415
    from skillmem_hook.search.patch import reindexed  # noqa: PLC0415

    skills = scan_roots(roots, options).skills
    if stale is not None:
        changed = changed_skills(stale[0].skills, skills, stale[1], now)
        if changed is not None and len(changed) * PATCH_SHARE <= len(skills):
            try:
                return reindexed(stale[0], skills, {number: read_body(skills[number]) for number in changed}, aliases)
            except ValueError:
                pass  # an index of another shape: build it anew
    return search_index_of(skills, aliases)


def changed_skills(
    indexed: Sequence[Skill], skills: Sequence[Skill], before: StatSnapshot, now: StatSnapshot
) -> list[int] | None:
    """The places of the skills whose SKILL.md may have changed since ``before``; None when skills came, went or moved.

    A SKILL.md missing from either snapshot (a skill reached through a link) counts as changed.
    """
    if [(skill.root, skill.path) for skill in indexed] != [(skill.root, skill.path) for skill in skills]:
        return None
    try:
        was, is_now = before.stamps, now.stamps
    except (TypeError, ValueError):  # a stored snapshot of another shape
        return None
    return [
        number
        for number, (old, new) in enumerate(zip(indexed, skills))
        if _stamp(was, new) is None
        or _stamp(was, new) != _stamp(is_now, new)
        or (old.name, old.description) != (new.name, new.description)
    ]


def _stamp(stamps: Mapping[str, Stamp], skill: Skill) -> Stamp | None:
    stamp = stamps.get(os.path.join(skill.root, skill.path, SKILL_FILE))
    return None if stamp is None else (stamp[0], stamp[1])
