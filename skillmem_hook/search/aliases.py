"""A skill's aliases: extra words that weigh like its name.

From two places: the configuration's ``aliases:`` map (a skill name, or a
``prefix*``, to words) and the frontmatter's ``metadata.aliases`` (a
comma-separated string, so the Agent Skills spec still validates it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill


def aliases_of(skill: Skill, configured: Mapping[str, Sequence[str]]) -> list[str]:
    """The skill's aliases: the metadata's, then every configured key that names it, exactly or by prefix."""
    found = [word.strip() for word in skill.metadata.get("aliases", "").split(",") if word.strip()]
    for key, words in configured.items():
        if key == skill.name or (key.endswith("*") and skill.name.startswith(key[:-1])):
            found.extend(words)
    return found
