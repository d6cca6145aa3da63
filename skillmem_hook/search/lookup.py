"""A skill by the name a person or an agent gives it: ``skillmem read`` and MCP's ``skill_read`` find it alike."""

from __future__ import annotations

import posixpath

from skillmem_hook.catalog.discovery.safe_read import skill_file_path
from skillmem_hook.catalog.placement.selection import folder_name, left_out_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.catalog.skills import Skill

MAX_COMPARED = 200
MAX_NEAREST = 3


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


def skills_in_folder(skills: Sequence[Skill], name: str) -> list[Skill]:
    """The skills whose folder's name is ``name``, folded as names fold (case, width, separators).

    For a name no skill has: search shows a skill's path, so a person types the folder's name of a skill whose
    ``name`` is a title (``cloudflare-r2`` for "Cloudflare R2 Object Storage").
    """
    from skillmem_hook.search.names import name_key  # noqa: PLC0415 - only a name no skill has

    key = name_key(name.strip())
    return [skill for skill in skills if name_key(folder_name(skill)) == key] if key else []


def skills_at_path(skills: Sequence[Skill], name: str) -> list[Skill]:
    """The skills whose folder ``name`` is as a path (``is_folder_path``): what tells apart two skills in folders
    of one name.

    Compared as text, never looked up on disk: what is read is still a skill the scan found inside its root, through
    the one safe reader (no link out, regular files only).
    """
    return [skill for skill in skills if is_folder_path(name, skill.root, skill.path)]


def is_folder_path(name: str, root: str, path: str) -> bool:
    """Whether ``name`` is the path of the folder ``path`` below ``root``: from the root (``team-a/deploy``) or as
    the index lists it (``skills/team-a/deploy``), its SKILL.md too; a name without a folder in it is none."""
    wanted = _as_path(name)
    return "/" in wanted and wanted in (_as_path(path), _as_path(f"{root}/{path}"))


def _as_path(name: str) -> str:
    path = posixpath.normpath(name.strip().replace("\\", "/"))
    return path[: -len("/SKILL.md")] if path.endswith("/SKILL.md") else path


def folder_paths(skills: Sequence[Skill]) -> list[str]:
    """How to name each of ``skills`` by its folder's path: below its root when no other of them shares it."""
    below = [posixpath.normpath(skill.path) for skill in skills]
    listed = [posixpath.normpath(f"{skill.root}/{skill.path}") for skill in skills]
    return sorted(short if below.count(short) == 1 else long for short, long in zip(below, listed))


def read_by_folder(name: str, skill: Skill, where: str) -> str:
    """What a read says when ``name`` found ``skill`` (its SKILL.md ``where``) by its folder's name, not by a name."""
    from skillmem_hook.visible import visible  # noqa: PLC0415 - only a read by a folder's name

    shown = name.strip()[:60] + ("…" if len(name.strip()) > 60 else "")
    return f"no skill is named '{visible(shown)}': read '{visible(skill.label)}' by its folder ({visible(where)})"


def nearest_names(skills: Sequence[Skill], name: str) -> str:
    """``did you mean 'a', 'b'?`` over the skills' labels and folders' names, a skill in a folder of that very name
    first; empty when nothing is spelled like ``name``. A folder's name is suggested as its skill's label."""
    from skillmem_hook.near import near  # noqa: PLC0415 - read of a name that is found loads no difflib

    # An MCP client may send megabytes as a name: difflib's time grows with the product of the lengths.
    wanted = name.strip()[:MAX_COMPARED]
    labels = {skill.label: skill.label for skill in skills}
    for skill in skills:
        labels.setdefault(folder_name(skill), skill.label)
    folders = skills_in_folder(skills, wanted) or skills_at_path(skills, wanted)
    in_folder = [skill.label for skill in folders]
    close = [labels[choice] for choice in near(wanted, labels, MAX_NEAREST + len(in_folder))]
    chosen = list(dict.fromkeys([*sorted(in_folder), *close]))[:MAX_NEAREST]
    quoted = ", ".join(f"'{label}'" for label in chosen)
    if len(folders) > 1:  # two skills in folders of that name: a folder's path tells them apart
        paths = ", ".join(f"'{path}'" for path in folder_paths(folders)[:MAX_NEAREST])
        return f"did you mean {quoted}? or name one by its folder's path: {paths}"
    return f"did you mean {quoted}?" if chosen else ""


def why_not_offered(catalog: Catalog, name: str) -> tuple[str, str] | None:
    """Why ``name`` reads nothing though a SKILL.md answers to it: excluded by the configuration or left out of the
    index, found by its name, its folder's name or its folder's path; (the SKILL.md's path and why, a hint), or
    None. The same words for ``skillmem read`` and MCP's ``skill_read``, each asked once no skill it reads fits."""
    excluded = catalog.excluded
    found = skills_named(excluded, name) or skills_at_path(excluded, name) or skills_in_folder(excluded, name)
    if found:
        where = skill_file_path(found[0].root, found[0].path)
        return (
            f"{where} is excluded by the configuration (exclude: in .skillmem.yaml)",
            "an excluded skill is offered to no agent; read the file itself",
        )
    for item in catalog.skipped:
        if left_out_folder(item) == name.strip() or is_folder_path(name, item["root"], item["path"]):
            return (
                f"{skill_file_path(item['root'], item['path'])} is left out of the index ({item['reason']})",
                "a skill left out is offered to no agent; read the file itself",
            )
    return None
