"""Where a repository keeps its skills and its prompt files, from the paths git lists. Pure."""

from __future__ import annotations

import posixpath

from skillmem_hook.catalog import SKILL_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# The folder name collections give their skills root (skills/, .claude/skills/, a translation's <lang>/skills/).
ROOT_NAME = "skills"
# The hidden folders agents read skills from: Claude Code, Codex and OpenCode (.agents), Codex (.codex),
# GitHub Copilot (.github/skills), Gemini CLI (.gemini/skills), OpenCode (.opencode/skill, .opencode/skills).
AGENT_FOLDERS = (".claude", ".agents", ".codex", ".github", ".gemini", ".opencode")
# The prompt files the agents read at the top: Codex, Copilot and OpenCode AGENTS.md, Claude Code CLAUDE.md,
# Gemini CLI GEMINI.md, GitHub Copilot .github/copilot-instructions.md. init creates only the first two.
AGENT_PROMPT_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md", ".github/copilot-instructions.md")
CREATED_PROMPT_FILES = AGENT_PROMPT_FILES[:2]


def skill_roots(skill_files: Iterable[str]) -> list[str]:
    """The fewest roots that hold every skill below a folder: each SKILL.md's nearest ``skills`` folder above its own.

    ``skill_files`` are paths relative to the repository's top, with ``/``. A
    skill outside any ``skills`` folder gives its parent folder, unless that
    is the top: the repository's top is never a root (it would hold ``.git``
    and every file git ignores), and ``top_level_skills`` names those
    skills. A root inside another is dropped: the outer one finds its skills too.
    """
    found = set()
    for path in skill_files:
        folder = posixpath.dirname(path)
        if not folder or posixpath.basename(path) != SKILL_FILE:
            continue
        parts = folder.split("/")
        above = [number for number in range(len(parts) - 1) if parts[number] == ROOT_NAME]
        root = "/".join(parts[: above[-1] + 1]) if above else posixpath.dirname(folder)
        if root:
            found.add(root)
    return _outermost(found)


def top_level_skills(skill_files: Iterable[str]) -> list[str]:
    """The skill folders right at the top (``template/SKILL.md``): no root below the top holds them."""
    return sorted({posixpath.dirname(path) for path in skill_files if _is_top_level_skill(path)})


def _is_top_level_skill(path: str) -> bool:
    folder = posixpath.dirname(path)
    return bool(folder) and "/" not in folder and posixpath.basename(path) == SKILL_FILE


def choose_roots(skill_files: Iterable[str]) -> tuple[list[str], list[str]]:
    """(the roots init proposes, the top-level skill folders it leaves out).

    The roots below the top when there are any; when every skill sits in a
    folder right at the top (a flat collection), each such folder is a root
    of its own: never the top itself.
    """
    files = list(skill_files)
    roots, top_level = skill_roots(files), top_level_skills(files)
    if roots:
        return roots, [folder for folder in top_level if folder not in roots]
    return top_level, []


def _outermost(found: Iterable[str]) -> list[str]:
    kept: list[str] = []
    for root in sorted(found, key=lambda root: (root.count("/"), root)):
        if not any(root.startswith(outer + "/") for outer in kept):
            kept.append(root)
    return sorted(kept)


def hidden(path: str) -> bool:
    """True for a path inside a hidden folder other than an agent's at the top (``.claude/``, ``.github/`` ...)."""
    parts = path.split("/")[:-1]
    return any(
        part.startswith(".") and not (number == 0 and part in AGENT_FOLDERS) for number, part in enumerate(parts)
    )
