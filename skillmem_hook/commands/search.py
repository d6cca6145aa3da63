"""``skillmem search``: the skills that best fit a user's words, best first.

``path`` in each result is the skill's SKILL.md relative to the current
folder, so an agent can open it as it is.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.arguments import add_catalog_options, add_location_options, add_text_option, positive
from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
from skillmem_hook.catalog.listing import outside_notices
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.decisive import decisive_files
from skillmem_hook.errors import EXIT_OK, UsageError
from skillmem_hook.report import emit
from skillmem_hook.search import store as search_store
from skillmem_hook.search.confidence import confidence, fit, weak_because
from skillmem_hook.search.fields import StoredIndexError
from skillmem_hook.streams import write_text
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Mapping, Sequence

    from skillmem_hook.search.rank import Hit, SearchIndex

TEXT_DESCRIPTION = 100
# A stock opening that says nothing of the skill: 34 of the English collection's 555 descriptions open with the
# first (the plugin-dev convention), and it took half of the line, so the asks after it were cut (newcomer en3).
# The line starts at its "when ..."; the JSON keeps the description whole.
STOCK_OPENINGS = ("this skill should be used ", "use this skill ")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    parser.add_argument("--top", type=positive, default=5, metavar="K", help="at most K skills (default 5)")
    add_text_option(parser, "a short list for a person")
    parser.add_argument(
        "--semantic", action="store_true", help="fuse in a multilingual sentence encoder (the [semantic] extra)"
    )
    parser.add_argument("intent", nargs="*", metavar="INTENT", help="the user's words, in any language")
    parser.add_argument(
        "--domain", metavar="D", help="only the skills of domain D; with no words, list them all (a collapsed domain)"
    )


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    return search(
        require_roots(settings),
        options.intent,
        top=options.top,
        aliases=settings.aliases,
        text=options.text,
        options=settings.catalog_options(),
        domain=options.domain,
        semantic=options.semantic,
        flagged=bool(options.root),
    )


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
    flagged: bool = False,
) -> int:
    # Under an ASCII locale the arguments arrive as escaped bytes: read them as the UTF-8 a terminal sends.
    intent = " ".join(os.fsencode(word).decode("utf-8", "replace") for word in intent_words).strip()
    if not intent and domain is None:
        raise UsageError(
            "no intent to search for", "pass the words to search for: skillmem search how do I cache API calls"
        )
    watched = decisive_files(os.getcwd(), tracked=False)
    options = options or CatalogOptions()
    index = search_store.load_or_build(roots, options, aliases, watched, flagged=flagged)
    notices = outside_notices(roots, options)
    try:
        return answer(
            index, intent, top=top, text=text, options=options, domain=domain, semantic=semantic, notices=notices
        )
    except StoredIndexError:  # a forged row or postings line among the hits: a bad index, built anew and replaced
        index = search_store.load_or_build(roots, options, aliases, watched, flagged=flagged, anew=True)
        return answer(
            index, intent, top=top, text=text, options=options, domain=domain, semantic=semantic, notices=notices
        )


def answer(
    index: SearchIndex,
    intent: str,
    *,
    top: int,
    text: bool,
    options: CatalogOptions,
    domain: str | None,
    semantic: bool,
    notices: Sequence[Mapping[str, str]] = (),
) -> int:
    """Print the ``top`` skills that fit ``intent`` (or ``domain``'s): StoredIndexError before any line is printed.

    ``notices``: about the roots as a whole (one outside the repository that it names), before the results.
    """
    wanted = max(top, 2)  # the second hit tells a clear lead from a near tie
    if domain is not None:  # a collapsed domain of the block: list it, or search within it
        from skillmem_hook.commands.domain_listing import list_domain, skills_in_domain  # noqa: PLC0415 - only --domain

        in_domain = skills_in_domain(index.skills, domain)
        if not intent:
            return list_domain(in_domain, domain, text=text, notices=notices)
        wanted = len(index.skills)  # every hit, then those of the domain
    hits, judge = ranking(index, intent, wanted, semantic=semantic, cache=options.cache)
    if domain is not None:
        hits = [hit for hit in hits if hit.skill.domain == domain]
    found = judge(hits)
    results = [hit_json(hit, hits[0]) for hit in hits[:top]]
    if text:
        why = weak_because(hits, *index.reading(intent, hits[0])[:2]) if found == "weak" and not semantic else []
        write_text(sys.stdout, notices_text(notices) + render_text(results, found, why))
        return EXIT_OK
    document: dict[str, object] = {"query": intent, "match": found, "results": results, "count": len(results)}
    if notices:
        document["notices"] = list(notices)
    emit(document)
    return EXIT_OK


def notices_text(notices: Sequence[Mapping[str, str]]) -> str:
    """One line per notice, for a person: ``note: skills root ROOT NOTICE``."""
    return "".join(f"note: skills root {visible(item['root'])} {item['notice']}\n" for item in notices)


def ranking(
    index: SearchIndex, intent: str, wanted: int, *, semantic: bool, cache: bool
) -> tuple[list[Hit], Callable[[Sequence[Hit]], str]]:
    """The ``wanted`` best hits (fused with the encoder's with ``semantic``), and the ``match`` word of a ranking."""
    if not semantic:
        return index.query(intent, wanted), lambda hits: fit(index, intent, hits)
    from skillmem_hook.search.semantic import (  # noqa: PLC0415 - the [semantic] extra
        fit_with_meaning,
        rank_with_meaning,
        semantic_index_of,
    )

    meaning = semantic_index_of(Catalog(index.skills, [], []), cache=cache)
    hits = rank_with_meaning(index, meaning, intent, wanted)
    return hits, lambda found: fit_with_meaning(index, meaning, intent, found)


def hit_json(hit: Hit, best: Hit) -> dict[str, object]:
    skill = hit.skill
    skill_file = os.path.join(skill.root, skill.path, SKILL_FILE)
    return {
        "name": skill.name,
        "score": hit.score,
        "confidence": confidence(hit, best),
        "domain": skill.domain,
        "path": os.path.relpath(skill_file).replace(os.sep, "/"),
        "description": skill.description,
    }


def render_text(results: Sequence[Mapping[str, object]], fit: str = "weak", why: Sequence[str] = ()) -> str:
    """The match word unless strong, with what it lacked (``why``, of a weak one), then one line per skill (rank,
    name, score, domain), its description cut short and its path."""
    if not results:
        return "no skill matches\n"
    # match's word, for a person as for a program: only a strong one goes unsaid. A weak one says what it lacked:
    # "weak" alone read as "nothing fits" to a newcomer when the best was right, only close to the second.
    weak = f"a weak match ({'; '.join(why)}); the closest:" if why else "a weak match; the closest:"
    lines = {"none": ["no skill fits well; the closest:"], "weak": [weak]}.get(fit, [])
    for rank, result in enumerate(results, 1):
        description = without_stock_opening(" ".join(str(result["description"]).split()))
        if len(description) > TEXT_DESCRIPTION:
            description = description[: TEXT_DESCRIPTION - 1] + "…"
        lines.append(f"{rank}. {visible(str(result['name']))}  ({result['score']}, {result['domain']})")
        lines.append(f"   {description}")
        lines.append(f"   {visible(str(result['path']))}")
    return "\n".join(lines) + "\n"


def without_stock_opening(description: str) -> str:
    """``description`` from its "when" on, when it opens with a stock phrase (``STOCK_OPENINGS``) followed by one."""
    for opening in STOCK_OPENINGS:
        rest = description[len(opening) :]
        if description[: len(opening)].lower() == opening and rest[:5].lower() in ("when ", "whene"):
            return rest[0].upper() + rest[1:]
    return description
