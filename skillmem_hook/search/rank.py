"""Rank skills for an intent. A placeholder with the final signature: word overlap only.

The issue on search replaces the ranking; callers (the CLI, the MCP server,
the route hook) depend only on ``search`` and ``Hit``.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill

_WORD = re.compile(r"[^\W_]+")


class Hit:
    """One ranked skill and its score (higher is better)."""

    __slots__ = ("score", "skill")

    def __init__(self, skill: Skill, score: float) -> None:
        self.skill = skill
        self.score = score


def search(
    skills: Sequence[Skill], intent: str, top: int = 5, aliases: Mapping[str, Sequence[str]] | None = None
) -> list[Hit]:
    """The ``top`` skills that best fit ``intent``, best first, ties broken by label."""
    words = set(_WORD.findall(intent.casefold()))
    hits = []
    for skill in skills:
        text = " ".join([skill.name, skill.description, *(aliases or {}).get(skill.name, ())])
        score = float(len(words & set(_WORD.findall(text.casefold()))))
        if score > 0:
            hits.append(Hit(skill, score))
    hits.sort(key=lambda hit: (-hit.score, hit.skill.label))
    return hits[:top]
