"""SK501: skills that steal each other's requests, found by asking the search ranker.

For each skill, the first sentence of its description and its "Use when" /
"当…时" trigger phrases are put to the search index of the whole catalog,
as a user's request would be. The skill is flagged when another skill ranks
first for its first sentence, or ranks within ``CLOSE`` of it, and for at
least half of its phrasings: a product family (``odoo-*``, ``n8n-*``) whose
descriptions share their words sends real requests to the wrong member.
Pure: the catalog's skills in, one message per flagged skill out; the
ranking is search's own (``SearchIndex``), not one of lint's.
"""

from __future__ import annotations

import re

from skillmem_hook.search.rank import SearchIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill

# The rival's score at or above this share of the skill's own is a margin too small to trust.
CLOSE = 0.97
MAX_QUERY = 300
MAX_TRIGGERS = 3
_SENTENCE_END = re.compile("(?<=[.!?])\\s+|[\u3002\uff01\uff1f\\n]")
_TRIGGER = re.compile(
    r"(?i)\b(?:use (?:this skill )?when|use it when|when to use|triggers? on|use for)\b[:\s]*([^.。\n]{8,200})"
    r"|当([^。\n]{2,80})时"
)


def phrasings(description: str) -> list[str]:
    """The first sentence of the description, then up to three of its trigger phrases."""
    sentences = [part.strip() for part in _SENTENCE_END.split(description.strip()) if part.strip()]
    found = [sentences[0][:MAX_QUERY]] if sentences else []
    for match in _TRIGGER.finditer(description):
        found.append((match.group(1) or match.group(2)).strip())
        if len(found) > MAX_TRIGGERS:
            break
    return found


def stolen_requests(
    skills: Sequence[Skill], checked: Collection[tuple[str, str]], aliases: Mapping[str, Sequence[str]] | None = None
) -> dict[tuple[str, str], str]:
    """For each checked skill ((root, path)) that another one shadows: the message that names the rival."""
    index = SearchIndex.build(skills, aliases)
    flagged: dict[tuple[str, str], str] = {}
    for skill in skills:
        if (skill.root, skill.path) not in checked:
            continue
        verdicts = [_verdict(index, skill, phrase) for phrase in phrasings(skill.description)]
        if not verdicts or verdicts[0] is None:
            continue
        if sum(verdict is not None for verdict in verdicts) * 2 >= len(verdicts):
            flagged[(skill.root, skill.path)] = verdicts[0]
    return flagged


def _verdict(index: SearchIndex, skill: Skill, phrase: str) -> str | None:
    """None when the phrase finds this skill first by a clear margin; else what went wrong, naming the rival."""
    hits = index.query(phrase, 2)
    if not hits:
        return None
    quoted = phrase if len(phrase) <= 80 else phrase[:77] + "..."
    if hits[0].skill is not skill:
        return (
            f"a request worded as its description ('{quoted}') finds '{hits[0].skill.label}' first; "
            "say what sets this skill apart"
        )
    if len(hits) > 1 and hits[1].score >= hits[0].score * CLOSE:
        return (
            f"a request worded as its description ('{quoted}') finds this skill only just ahead of "
            f"'{hits[1].skill.label}'; say what sets this skill apart"
        )
    return None
