"""Where a repository keeps its skills and its prompt files, from the paths git lists. Pure."""

from __future__ import annotations

import posixpath

from skillmem_hook.catalog import SKILL_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# The folder name collections give their skills root (skills/, .claude/skills/, a translation's <lang>/skills/).
ROOT_NAME = "skills"


def skill_roots(skill_files: Iterable[str]) -> list[str]:
    """The fewest roots that hold every skill: each SKILL.md's nearest ``skills`` folder above its own.

    ``skill_files`` are paths relative to the repository's top, with ``/``. A
    skill outside any ``skills`` folder gives its parent folder. A root inside
    another is dropped: the outer one finds its skills too. A SKILL.md at the
    top (the repository is one skill) gives no root.
    """
    found = set()
    for path in skill_files:
        folder = posixpath.dirname(path)
        if not folder or posixpath.basename(path) != SKILL_FILE:
            continue
        parts = folder.split("/")
        above = [number for number in range(len(parts) - 1) if parts[number] == ROOT_NAME]
        found.add("/".join(parts[: above[-1] + 1]) if above else (posixpath.dirname(folder) or "."))
    kept: list[str] = []
    for root in sorted(found, key=lambda root: (root != ".", root.count("/"), root)):
        if not any(outer == "." or root.startswith(outer + "/") for outer in kept):
            kept.append(root)
    return sorted(kept)


def hidden(path: str) -> bool:
    """True for a path inside a hidden folder other than an agent's (``.claude/``, ``.agents/``, ``.codex/``)."""
    parts = path.split("/")[:-1]
    return any(
        part.startswith(".") and not (number == 0 and part in _AGENT_FOLDERS) for number, part in enumerate(parts)
    )


_AGENT_FOLDERS = (".claude", ".agents", ".codex")
