"""``skillmem search``: the skills that best fit a user's words, best first.

``path`` in each result is the skill's SKILL.md relative to the current
folder, so an agent can open it as it is.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.catalog.catalog import Catalog
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.errors import EXIT_OK, UsageError
from skillmem_hook.report import emit
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.streams import write_text
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions
    from skillmem_hook.search.rank import Hit

_TEXT_DESCRIPTION = 100


def search(
    roots: Sequence[str],
    intent_words: Sequence[str],
    *,
    top: int,
    aliases: Mapping[str, Sequence[str]],
    text: bool = False,
    options: CatalogOptions | None = None,
    domain: str | None = None,
    semantic: bool = False,
) -> int:
    # Under an ASCII locale the arguments arrive as escaped bytes: read them as the UTF-8 a terminal sends.
    intent = " ".join(os.fsencode(word).decode("utf-8", "replace") for word in intent_words).strip()
    if not intent and domain is None:
        raise UsageError(
            "no intent to search for", "pass the words to search for: skillmem search how do I cache API calls"
        )
    catalog = scan_roots(roots, options)
    skills = catalog.skills
    if domain is not None:  # a collapsed domain of the block: list it, or search within it
        from skillmem_hook.commands.domain_listing import list_domain, skills_in_domain  # noqa: PLC0415

        skills = skills_in_domain(skills, domain)
        if not intent:
            return list_domain(skills, domain, text=text)
    index = SearchIndex.build(skills, aliases)
    if semantic:
        from skillmem_hook.search.semantic import rank_with_meaning, semantic_index_of  # noqa: PLC0415 - the extra

        # Both legs rank the same skills: the domain's, when one is named.
        within = Catalog(list(skills), [], [], work_tree=catalog.work_tree) if domain is not None else catalog
        meaning = semantic_index_of(within, cache=options.cache if options else True)
        hits = rank_with_meaning(index, meaning, intent, top)
    else:
        hits = index.query(intent, top)
    results = [hit_json(hit) for hit in hits]
    if text:
        write_text(sys.stdout, render_text(results))
        return EXIT_OK
    emit({"query": intent, "results": results, "count": len(results)})
    return EXIT_OK


def hit_json(hit: Hit) -> dict[str, object]:
    skill = hit.skill
    skill_file = os.path.join(skill.root, skill.path, "SKILL.md")
    return {
        "name": skill.name,
        "score": hit.score,
        "domain": skill.domain,
        "path": os.path.relpath(skill_file).replace(os.sep, "/"),
        "description": skill.description,
    }


def render_text(results: Sequence[Mapping[str, object]]) -> str:
    """One line per skill (rank, name, score, domain), then its description cut short and its path."""
    if not results:
        return "no skill matches\n"
    lines = []
    for rank, result in enumerate(results, 1):
        description = " ".join(str(result["description"]).split())
        if len(description) > _TEXT_DESCRIPTION:
            description = description[: _TEXT_DESCRIPTION - 1] + "…"
        lines.append(f"{rank}. {visible(str(result['name']))}  ({result['score']}, {result['domain']})")
        lines.append(f"   {description}")
        lines.append(f"   {visible(str(result['path']))}")
    return "\n".join(lines) + "\n"
