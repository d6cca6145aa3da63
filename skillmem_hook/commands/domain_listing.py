"""``skillmem search --domain D``: every skill of one domain, for a domain the block collapsed.

With ``max_block_tokens`` the block may show a domain as one line naming
its count; this lists the names that line stands for, by name, so an agent
can pick one and load it with ``skillmem read NAME``.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES, domains_hint
from skillmem_hook.errors import EXIT_OK, UsageError
from skillmem_hook.report import emit
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill


def skills_in_domain(skills: Sequence[Skill], domain: str) -> list[Skill]:
    """The skills placed in ``domain``; a UsageError naming the domains for one that is not a domain."""
    if domain not in DOMAIN_NAMES:
        raise UsageError(f"{domain!r} is not a domain", domains_hint(domain, "the domains:"))
    return [skill for skill in skills if skill.domain == domain]


def list_domain(skills: Sequence[Skill], domain: str, *, text: bool, notices: Sequence[Mapping[str, str]] = ()) -> int:
    """Every skill of the domain, sorted by the name the block shows; ``notices`` as search's answer has them."""
    results = [
        {
            "name": skill.label,
            "domain": skill.domain,
            "path": os.path.relpath(os.path.join(skill.root, skill.path, SKILL_FILE)).replace(os.sep, "/"),
            "description": skill.description,
        }
        for skill in sorted(skills, key=lambda skill: skill.label)
    ]
    if text:
        lines = [f"{result['name']}  {result['path']}" for result in results] or [f"no skill in {domain}"]
        notes = [f"note: skills root {item['root']} {item['notice']}" for item in notices]
        write_utf8(sys.stdout, "\n".join(notes + lines) + "\n")
        return EXIT_OK
    document: dict[str, object] = {"domain": domain, "results": results, "count": len(results)}
    if notices:
        document["notices"] = list(notices)
    emit(document)
    return EXIT_OK
