"""What ``skillmem init`` finds in a repository: the skills roots and the prompt files, with what it left out.

From the files git tracks or would add (``git add -A``), so an ignored
folder never becomes a root and an ignored prompt file is never chosen.
"""

from __future__ import annotations

import os

from skillmem_hook.adopt.advice import first_skill_example
from skillmem_hook.adopt.checks import ignore_rules, ignored_prompt_files_error
from skillmem_hook.adopt.repository import listed_files
from skillmem_hook.block.imports import imported_files
from skillmem_hook.budget.choice import READS, SIGNS, choose_agents
from skillmem_hook.budget.rules import CLAUDE_CODE
from skillmem_hook.catalog.discovery.layout import AGENT_PROMPT_FILES, CREATED_PROMPT_FILES, choose_roots, hidden
from skillmem_hook.errors import UsageError


def find_roots(top: str) -> tuple[list[str], list[str]]:
    """The roots holding every SKILL.md git tracks or would add, and notes; none is a usage error saying what to do."""
    files = [path for path in listed_files(top, [":(glob)**/SKILL.md"]) if not hidden(path)]
    roots, left_out = choose_roots(files)
    if not roots:
        raise UsageError(
            "no SKILL.md found in this repository (outside what git ignores)",
            f"add your skills as {first_skill_example(top)}, then run init again",
        )
    notes = [
        f"left out {folder}/SKILL.md: a skill folder at the repository's top, whose root would be the whole"
        " repository (list it under roots: in .skillmem.yaml to keep it)"
        for folder in left_out
    ]
    if all(f"{root}/SKILL.md" in files for root in roots):  # a flat collection: a root per skill
        notes.append(
            "each skill is a folder at the repository's top, so each is a root of its own: add a new skill's"
            " folder under roots: in .skillmem.yaml (or move the skills into skills/ and set roots: [skills] there)"
        )
    return roots, notes


def find_prompt_files(top: str) -> tuple[list[str], list[str]]:
    """The agents' prompt files git commits, less one importing or linking to another; and notes.

    AGENTS.md, CLAUDE.md, GEMINI.md (Gemini CLI) and
    .github/copilot-instructions.md (GitHub Copilot), where they exist. With
    none, AGENTS.md is created, or CLAUDE.md when git ignores AGENTS.md;
    CLAUDE.md first in a repository that shows Claude Code and no agent that
    reads AGENTS.md (``_to_create``); when git ignores both, init stops
    (UsageError) naming the rules.
    """
    present = set(listed_files(top, list(AGENT_PROMPT_FILES)))
    kept = _one_per_file(top, [path for path in AGENT_PROMPT_FILES if path in present])
    importers = {
        path
        for path in kept
        if any(other in imported_files(os.path.join(top, path)) for other in _absolute(top, kept, path))
    }
    chosen = [path for path in kept if path not in importers] or kept
    if chosen:
        return chosen, []
    order, why = _to_create(top)
    rules = ignore_rules(top, list(order))
    creatable = [path for path in order if path not in rules]
    if not creatable:
        raise ignored_prompt_files_error(rules)
    notes = [f"git ignores {path} ({rule}): the block goes into {creatable[0]}" for path, rule in rules.items()]
    if why and creatable[0] == order[0]:
        notes.append(why)
    return [creatable[0]], notes


def _to_create(top: str) -> tuple[tuple[str, ...], str | None]:
    """The prompt files to create, first choice first, and why when it is CLAUDE.md.

    AGENTS.md is read by most agents, but not by Claude Code, whose project
    memory is ./CLAUDE.md or ./.claude/CLAUDE.md, each able to pull in
    another file with an ``@path`` line (Claude Code's memory documentation,
    docs.claude.com/docs/claude-code/memory; docs/budget.md). Where the
    repository shows Claude Code and no agent that reads AGENTS.md (skills
    in .claude/skills alone), the block goes straight into CLAUDE.md: the
    one file its agent reads, and no second file to keep.
    """
    shown = {agent: signs for agent, signs in choose_agents(top).items() if signs}
    if CLAUDE_CODE not in shown or any("AGENTS.md" in READS[agent] for agent in shown):
        return CREATED_PROMPT_FILES, None
    signs = ", ".join(sign for sign in SIGNS[CLAUDE_CODE] if sign in shown[CLAUDE_CODE])
    return CREATED_PROMPT_FILES[::-1], (
        f"the block goes into CLAUDE.md: the repository shows Claude Code ({signs}), which reads CLAUDE.md and not"
        " AGENTS.md, and no agent that reads AGENTS.md (for one, add AGENTS.md to prompt_files in .skillmem.yaml)"
    )


def _one_per_file(top: str, paths: list[str]) -> list[str]:
    """One path per file: a link to another prompt file (CLAUDE.md -> AGENTS.md) is the file it leads to."""
    by_file: dict[str, str] = {}
    for path in sorted(paths, key=lambda path: os.path.islink(os.path.join(top, path))):  # links last
        by_file.setdefault(os.path.realpath(os.path.join(top, path)), path)
    kept = set(by_file.values())
    return [path for path in paths if path in kept]


def _absolute(top: str, paths: list[str], but: str) -> list[str]:
    return [os.path.normpath(os.path.join(top, path)) for path in paths if path != but]
