"""What one SKILL.md's bytes declare, as a value (declared.py reads it from the bytes).

Apart from the reading, so the kept catalog and the cache (store/) can hold
and rebuild it on a warm run without loading the frontmatter's parsers.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.catalog.placement.domains import Placement


class SkillText:
    """What one SKILL.md's bytes declare, whatever its path: the part a cache can keep by content.

    ``name`` and ``description`` are None when the file does not give them;
    ``metadata`` holds the text values of the frontmatter's ``metadata`` map.
    ``title`` is the body's first ``# `` heading. ``placement`` is where the
    table files a skill of the declared name, once known: derived, but kept
    with the rest so a cached skill is not placed again. ``sections`` holds
    the body's headings and "when to use" text (catalog/sections.py), for search;
    None when the reader did not ask for them (the hooks' build: only search reads them).
    """

    __slots__ = ("description", "metadata", "name", "placement", "sections", "title", "warnings")

    def __init__(
        self,
        name: str | None,
        description: str | None,
        warnings: list[str],
        metadata: dict[str, str],
        *,
        title: str = "",
        placement: Placement | None = None,
        sections: str | None = "",
    ) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.warnings = warnings
        self.metadata = metadata
        self.placement = placement
        self.sections = sections
