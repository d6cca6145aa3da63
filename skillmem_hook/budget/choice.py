"""What the repository shows of its agents: those ``budget`` replays by default, and who reads the block.

An agent is chosen when its own folder of skills, its settings folder or
the prompt file it alone reads is at the repository's root. AGENTS.md and
``.agents/skills`` are read by several agents; they stand for Codex, whose
files they first were (name the others with --agent). A repository that
shows none gets Claude Code and Codex, the two every earlier version replayed.
``block_readers`` says which agents read the prompt files that hold the block.
"""

from __future__ import annotations

import os

from skillmem_hook.block.imports import imported_files
from skillmem_hook.budget.rules import CLAUDE_CODE, CODEX, COPILOT_CLI, GEMINI_CLI, OPENCODE, VSCODE
from skillmem_hook.catalog.discovery.git import ignored_paths
from skillmem_hook.catalog.store.locations import find_git_dir
from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

SIGNS = {
    CLAUDE_CODE: (".claude/skills", "CLAUDE.md"),
    CODEX: (".agents/skills", ".codex", "AGENTS.md"),
    COPILOT_CLI: (".github/skills", ".github/copilot-instructions.md"),
    VSCODE: (".github/skills", ".github/copilot-instructions.md"),
    GEMINI_CLI: (".gemini", "GEMINI.md"),
    OPENCODE: (".opencode", "opencode.json", "opencode.jsonc"),
}
FALLBACK = (CLAUDE_CODE, CODEX)


def choose_agents(top: str) -> dict[str, list[str]]:
    """Each agent the repository at ``top`` shows, with the paths that show it; FALLBACK's agents when none."""
    shown = {
        agent: [sign for sign in signs if os.path.lexists(os.path.join(top, sign))] for agent, signs in SIGNS.items()
    }
    chosen = {agent: signs for agent, signs in shown.items() if signs}
    return chosen or {agent: [] for agent in FALLBACK}


# The prompt files each agent reads at the repository's root (docs/budget.md), and those that follow @imports.
READS = {
    CLAUDE_CODE: ("CLAUDE.md", ".claude/CLAUDE.md"),
    CODEX: ("AGENTS.md",),
    COPILOT_CLI: (".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "GEMINI.md"),
    VSCODE: ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", ".github/copilot-instructions.md"),
    GEMINI_CLI: ("GEMINI.md",),
    OPENCODE: ("AGENTS.md", "CLAUDE.md"),  # CLAUDE.md only when there is no AGENTS.md
}
FOLLOWS_IMPORTS = (CLAUDE_CODE, COPILOT_CLI, GEMINI_CLI)


def block_readers(prompt_files: Sequence[str], top: str) -> dict[str, list[str]]:
    """Per agent, the prompt files holding the block that it reads: itself, or through an ``@file`` import."""
    held = {os.path.normpath(os.path.relpath(os.path.abspath(path), top)) for path in prompt_files}
    readers: dict[str, list[str]] = {}
    for agent, files in READS.items():
        reads = [name for name in files if os.path.isfile(os.path.join(top, name))]
        if agent == OPENCODE and "AGENTS.md" in reads:
            reads = ["AGENTS.md"]
        found = [name for name in reads if os.path.normpath(name) in held]
        if agent in FOLLOWS_IMPORTS:
            for name in reads:
                imported = {os.path.relpath(path, top) for path in imported_files(os.path.join(top, name))}
                found += [f"{other} (through {name})" for other in sorted(held & imported) if other not in found]
        readers[agent] = found
    return readers


def ignored_by_git(prompt_files: Sequence[str], top: str) -> list[str]:
    """Of the prompt files and those the agents read, the ones git ignores: a block there is never committed.

    So the advice never sends a person to add one to prompt_files as if a clone would hold it. Read by
    ``budget`` and by ``init``'s note on what the agents find, so the two say the same.
    """
    names = sorted({*prompt_files, *(name for files in READS.values() for name in files)})
    inside = {os.path.relpath(os.path.join(top, name)): name for name in names if not name.startswith("..")}
    if find_git_dir(top) is None:
        return []
    try:
        return sorted(inside[path] for path in ignored_paths(inside) if path in inside)
    except UsageError:  # git is not on PATH: nothing is ignored by it
        return []


def absent_files(names: Sequence[str], top: str) -> list[str]:
    """Those of ``names`` (prompt files, relative to ``top``) that do not exist: inject refuses to create one."""
    return [name for name in names if not os.path.lexists(os.path.join(top, name))]
