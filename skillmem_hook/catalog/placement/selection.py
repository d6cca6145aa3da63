"""Which skills a repository keeps in its index, and where it files them: exclusions and domain overrides.

Pure. Patterns are a skill's name (or its ``@owner/name`` label) exactly, or
a prefix ending in ``*``. An exact pattern beats a prefix, and a longer
prefix beats a shorter one, so the most specific rule wins whatever the
order of the configuration file.
"""

from __future__ import annotations

from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES, Placement, domains_hint
from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping, Sequence
    from typing import TypeVar

    from skillmem_hook.catalog.skills import Skill

    T = TypeVar("T")

METADATA_DOMAIN = "domain"
# Ends the warning on a metadata domain that is none; the hooks' report strips it from each line and says it once.
DOMAINS_LISTED = f"(the domains: {', '.join(DOMAIN_NAMES)})"


def best_match(patterns: Mapping[str, T], skill: Skill) -> T | None:
    """The value of the most specific pattern that matches the skill's name or label; None when none does."""
    for name in (skill.label, skill.name):
        if name in patterns:
            return patterns[name]
    best: tuple[int, T] | None = None
    for pattern, value in patterns.items():
        if pattern.endswith("*") and (best is None or len(pattern) > best[0]):
            stem = pattern[:-1]
            if skill.name.startswith(stem) or skill.label.startswith(stem):
                best = (len(pattern), value)
    return None if best is None else best[1]


def left_out_folder(item: Mapping[str, str]) -> str:
    """The folder's name of a SKILL.md left out of the block (``Catalog.skipped``): its name was never read, so
    this is what ``quiet:`` matches and what a person types to ``read`` it."""
    return item["path"].rsplit("/", 1)[-1]


def folder_name(skill: Skill) -> str:
    """The name of the folder that holds the skill's SKILL.md (its root's own, for a SKILL.md at the root): what a
    person types who saw its path, for a skill whose ``name`` is a title."""
    folder = skill.path.rstrip("/").rsplit("/", 1)[-1]
    return skill.root.rstrip("/").rsplit("/", 1)[-1] if folder in ("", ".") else folder


def names(patterns: Collection[str], name: str) -> bool:
    """Whether one of ``patterns`` names ``name``: exactly, or as a prefix ending in ``*`` (for a yes or no,
    as ``quiet:`` asks of a folder whose skill was never read; ``best_match`` when the most specific wins)."""
    return name in patterns or any(pattern.endswith("*") and name.startswith(pattern[:-1]) for pattern in patterns)


def split_excluded(skills: Iterable[Skill], patterns: Sequence[str]) -> tuple[list[Skill], list[Skill]]:
    """(kept, excluded) by the exclusion patterns."""
    if not patterns:
        return list(skills), []
    table = dict.fromkeys(patterns, True)
    kept: list[Skill] = []
    excluded: list[Skill] = []
    for skill in skills:
        (excluded if best_match(table, skill) else kept).append(skill)
    return kept, excluded


def apply_domains(skills: Iterable[Skill], overrides: Mapping[str, str]) -> None:
    """File each skill under the domain the repository's configuration, then its own metadata, names.

    The configuration's values are checked when it is read. A metadata
    domain that is not in the table is a warning and the table decides:
    authors use ``metadata: {domain: ...}`` for their own purposes too
    (``content-marketing``), and a third-party skill must not stop a commit.
    """
    for skill in skills:
        chosen = best_match(overrides, skill) if overrides else None
        if chosen is not None:
            skill.placement = Placement(chosen, "configuration", _pattern_of(overrides, skill))
            continue
        chosen = skill.metadata.get(METADATA_DOMAIN)
        if chosen is None:
            continue
        if chosen in DOMAIN_NAMES:
            skill.placement = Placement(chosen, "metadata", METADATA_DOMAIN)
        else:
            skill.warnings.append(
                f"metadata {METADATA_DOMAIN} {chosen!r} is not a domain, so the table decides {DOMAINS_LISTED}"
            )


def _pattern_of(overrides: Mapping[str, str], skill: Skill) -> str:
    """The pattern of the configuration's ``domains`` that placed the skill, for ``index``'s placed_by."""
    return best_match({pattern: pattern for pattern in overrides}, skill) or ""


def check_domain(domain: str, where: str) -> None:
    if domain not in DOMAIN_NAMES:
        raise UsageError(f"{where}: {domain!r} is not a domain", domains_hint(domain, "the domains are:"))


# How many unknown names of one list are compared for spelling (difflib: each against every name): the patterns
# that name no skill here, and eval's expected names that are no skill.
MAX_SPELLED = 10


def unmatched_patterns(
    key: str, patterns: Iterable[str], skills: Sequence[Skill], folders: Sequence[str] = ()
) -> list[str]:
    """A note for each of the configuration's ``key`` patterns that names no skill (nor, for ``quiet:``, the folder
    of a SKILL.md left out), with the name it is spelled like: an ``exclude: [crewai-typo]`` excluded nothing.

    Linear in patterns and names (a set for exact names, one sorted list bisected for prefixes); only the first
    MAX_SPELLED unmatched patterns are compared for spelling (difflib's cost is each pattern times every name).
    """
    import bisect  # noqa: PLC0415 - only a file with the keys pays for these

    from skillmem_hook.near import near  # noqa: PLC0415 - as bisect: only a file with the keys pays for difflib

    known = {skill.name for skill in skills} | {skill.label for skill in skills} | set(folders)
    ordered = sorted(known)
    notes: list[str] = []
    for pattern in patterns:
        if pattern in known:
            continue
        if pattern.endswith("*"):
            at = bisect.bisect_left(ordered, pattern[:-1])
            if at < len(ordered) and ordered[at].startswith(pattern[:-1]):
                continue
        spelled = len(notes) < MAX_SPELLED and not pattern.endswith("*")
        close = near(pattern, known, 1) if spelled else []
        meant = f"; did you mean '{close[0]}'?" if close else ""
        notes.append(f"{key}: '{pattern}' names no skill{meant}")
    return notes
