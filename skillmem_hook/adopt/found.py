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
    when git ignores both, init stops (UsageError) naming the rules.
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
    rules = ignore_rules(top, list(CREATED_PROMPT_FILES))
    creatable = [path for path in CREATED_PROMPT_FILES if path not in rules]
    if not creatable:
        raise ignored_prompt_files_error(rules)
    notes = [f"git ignores {path} ({rule}): the block goes into {creatable[0]}" for path, rule in rules.items()]
    return [creatable[0]], notes


def _one_per_file(top: str, paths: list[str]) -> list[str]:
    """One path per file: a link to another prompt file (CLAUDE.md -> AGENTS.md) is the file it leads to."""
    by_file: dict[str, str] = {}
    for path in sorted(paths, key=lambda path: os.path.islink(os.path.join(top, path))):  # links last
        by_file.setdefault(os.path.realpath(os.path.join(top, path)), path)
    kept = set(by_file.values())
    return [path for path in paths if path in kept]


def _absolute(top: str, paths: list[str], but: str) -> list[str]:
    return [os.path.normpath(os.path.join(top, path)) for path in paths if path != but]
