"""A skill as the index sees it: what its SKILL.md declares (declared.py), placed at its path; de-duplication.

Pure: the file system is read elsewhere (``scan.py``).
"""

from __future__ import annotations

import unicodedata

from skillmem_hook.catalog.placement.domains import Placement, place
from skillmem_hook.catalog.skillfile.names import SkillProblem as SkillProblem  # noqa: PLC0414 - re-exported for scan
from skillmem_hook.catalog.skillfile.names import check_name, slug_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.catalog.skillfile.text import SkillText


class Skill:
    """One skill as the index sees it."""

    __slots__ = (
        "description",
        "label",
        "metadata",
        "name",
        "owner",
        "path",
        "placement",
        "root",
        "sections",
        "slug",
        "warnings",
    )

    def __init__(
        self,
        *,
        name: str,
        description: str,
        path: str,
        root: str,
        warnings: list[str],
        metadata: dict[str, str] | None = None,
        title: str = "",
        placement: Placement | None = None,
        sections: str | None = "",
    ) -> None:
        self.name = name
        self.description = description
        self.path = path
        self.root = root
        self.owner = owner_of(path)
        slug = slug_of(name)
        self.slug = name if slug == name else slug  # one string, not two: at 100,000 skills that is megabytes
        self.label = f"{self.owner}/{name}" if self.owner else name
        # the domain, and the field and keyword that chose it
        self.placement = placement or place(name, description, title)
        self.warnings = warnings
        self.metadata = {} if metadata is None else metadata  # shared with what the file declared, never changed
        # headings and "when to use" text of the body, for search; None in a catalog built without (the hooks')
        self.sections = sections

    @property
    def domain(self) -> str:
        return self.placement.domain

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "domain": self.domain,
            "placed_by": {"field": self.placement.field, "keyword": self.placement.keyword},
            "path": self.path,
            "root": self.root,
            "owner": self.owner,
            "description": self.description,
        }


def owner_of(path: str) -> str:
    """The first folder of the skill's path that starts with '@', or ''."""
    if "@" in path:
        for segment in path.split("/"):
            if segment.startswith("@"):
                return segment
    return ""


def parse_skill(data: bytes, *, path: str, folder: str, root: str) -> Skill:
    """Build a skill from the leading bytes of its SKILL.md. Raises SkillProblem with the reason."""
    from skillmem_hook.catalog.skillfile.declared import read_skill_text  # noqa: PLC0415 - a warm hook parses nothing

    return make_skill(read_skill_text(data), path=path, folder=folder, root=root)


def make_skill(text: SkillText, *, path: str, folder: str, root: str) -> Skill:
    """Place what a SKILL.md declares at its path: the folder's name is the default name."""
    skill = Skill(
        name=_nfc(text.name) or _nfc(folder),
        description=_nfc(text.description),
        path=path,
        root=root,
        warnings=list(text.warnings),
        metadata=text.metadata,
        title=_nfc(text.title),
        placement=text.placement if text.name else None,  # a folder-named skill is placed by its folder's name
        sections=text.sections,
    )
    if skill.name.startswith("@") and "/" in skill.name:
        raise SkillProblem(
            "the name reads as an owner's label (@owner/name); only an '@' folder gives a skill an owner"
        )
    check_name(skill.label)  # the label, since an owner's folder name is part of the line
    if text.name:
        text.placement = skill.placement
    return skill


def deduplicate(skills: list[Skill]) -> tuple[list[Skill], list[tuple[Skill, Skill]]]:
    """Keep the first skill of each (owner, slug), in the given order.

    Returns the kept skills and (dropped, kept) pairs.
    """
    kept: dict[tuple[str, str], Skill] = {}
    dropped: list[tuple[Skill, Skill]] = []
    for skill in skills:
        key = (skill.owner, skill.slug)
        first = kept.setdefault(key, skill)
        if first is not skill:
            dropped.append((skill, first))
    return list(kept.values()), dropped


def _nfc(text: str | None) -> str:
    if not text:
        return ""
    text = text.strip()
    return text if text.isascii() else unicodedata.normalize("NFC", text)
