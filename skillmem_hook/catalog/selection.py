"""Which skills a repository keeps in its index, and where it files them: exclusions and domain overrides.

Pure. Patterns are a skill's name (or its ``@owner/name`` label) exactly, or
a prefix ending in ``*``. An exact pattern beats a prefix, and a longer
prefix beats a shorter one, so the most specific rule wins whatever the
order of the configuration file.
"""

from __future__ import annotations

from skillmem_hook.catalog.domains import DOMAIN_NAMES
from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import TypeVar

    from skillmem_hook.catalog.skills import Skill

    T = TypeVar("T")

METADATA_DOMAIN = "domain"


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

    Raises UsageError for a metadata domain that is not in the table (the
    configuration's own values are checked when it is read).
    """
    for skill in skills:
        chosen = best_match(overrides, skill) if overrides else None
        if chosen is None:
            chosen = skill.metadata.get(METADATA_DOMAIN)
            if chosen is None:
                continue
            check_domain(chosen, f"{skill.path}/SKILL.md: metadata {METADATA_DOMAIN}")
        skill.domain = chosen


def check_domain(domain: str, where: str) -> None:
    if domain not in DOMAIN_NAMES:
        raise UsageError(
            f"{where}: {domain!r} is not a domain",
            "the domains are: " + ", ".join(DOMAIN_NAMES),
        )
