"""A skill by the name a person or an agent gives it: ``skillmem read`` and MCP's ``skill_read`` find it alike."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.skills import Skill

MAX_COMPARED = 200


def skills_named(skills: Sequence[Skill], name: str) -> list[Skill]:
    """The skills whose label or declared name is ``name``; else those it names as the route hook compares names.

    An exact label or name wins. Otherwise case, width and separators aside:
    ``metasploit-framework`` and ``METASPLOIT_framework`` name the skill
    "Metasploit Framework".
    """
    wanted = name.strip()
    found = [skill for skill in skills if wanted in (skill.label, skill.name)]
    if found:
        return found
    # The key's module compiles the route's patterns (about 11 ms): a name given as the block shows it needs none.
    from skillmem_hook.search.names import name_key  # noqa: PLC0415 - read by a name as the block shows it

    key = name_key(wanted)
    return [skill for skill in skills if key in (name_key(skill.label), name_key(skill.name))] if key else []


def nearest_names(skills: Sequence[Skill], name: str) -> str:
    """``did you mean 'a', 'b'?`` over the skills' labels; empty when no label is spelled like ``name``."""
    from skillmem_hook.near import did_you_mean  # noqa: PLC0415 - read of a name that is found loads no difflib

    # An MCP client may send megabytes as a name: difflib's time grows with the product of the lengths.
    return did_you_mean(name.strip()[:MAX_COMPARED], (skill.label for skill in skills))
