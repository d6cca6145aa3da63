"""What init tells a person about the setup it chose: the block's size, what the agents find natively, warnings.

Notes only: none changes a file. A block the agent reads every session is
worth a warning when it outgrows what Codex gives its whole skill listing
(2% of a 200,000-token window), with the cap that shrinks it. Skills that
neither Claude Code nor Codex finds where they sit reach those agents only
through the block: ``skillmem budget`` says what each agent sees. Skills
with warnings (invalid YAML, ...) are said again by the hooks on every commit
that changes the block, so init names the key that mutes known ones.
"""

from __future__ import annotations

import os
from collections import Counter

from skillmem_hook.adopt.skills import DUPLICATE, EXCLUDED
from skillmem_hook.block.render import estimate_tokens, render_block
from skillmem_hook.budget.advice import reach
from skillmem_hook.budget.choice import READS, absent_files, block_readers, choose_agents, ignored_by_git
from skillmem_hook.budget.rules import CLAUDE_CODE, CODEX, TITLES
from skillmem_hook.catalog.placement.quiet import Quiet
from skillmem_hook.catalog.skillfile.declared import USER_ONLY
from skillmem_hook.lint.writing import FIXABLE
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import command_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.lint.rules import Finding

# The fixes that set a skill's name to its folder's: the name people and agents type changes.
NAME_FIXES = frozenset({"SK113", "SK114", "SK115", "SK116"})
LARGE_BLOCK_TOKENS = 4_000  # Codex's listing budget: 2% of a 200,000-token window
SUGGESTED_CAP = 2_000
# Where each agent finds a skill natively (docs/budget.md): Claude Code one folder below .claude/skills,
# Codex anywhere below .agents/skills or .codex/skills.
_CLAUDE_CODE = (".claude", "skills")
_CODEX = ((".agents", "skills"), (".codex", "skills"))
# The file Codex reads: one here shows Codex may be in use (docs/budget.md).
CODEX_FILE = "AGENTS.md"
# Why a SKILL.md is left out, said of one and of many; a reason not here is said as the catalog gives it.
_LEFT_OUT_BECAUSE = {
    USER_ONLY: (
        "only its user invokes it (disable-model-invocation: true)",
        "only their user invokes them (disable-model-invocation: true)",
    ),
    DUPLICATE: (DUPLICATE, DUPLICATE),
    EXCLUDED: (EXCLUDED, "exclude: leaves them out"),
}
_LEFT_OUT_REASONS = 3  # the most common reasons named; the rest counted
# The folders the example of a first skill names, when one exists (empty: git lists none of it).
AGENT_SKILL_FOLDERS = (".claude/skills", ".agents/skills", ".github/skills", ".gemini/skills")


def block_size_note(skills: Sequence[Skill], max_block_tokens: int | None) -> str | None:
    """A warning when the uncapped block is large; None when it is small or already capped."""
    if max_block_tokens is not None:
        return None
    tokens = estimate_tokens(len(render_block(skills)))
    if tokens <= LARGE_BLOCK_TOKENS:
        return None
    return (
        f"the block is about {tokens:,} tokens, which the agent reads every session: max_block_tokens:"
        f" {SUGGESTED_CAP} in .skillmem.yaml lists the largest domains as one line each"  # as YAML takes it: no comma
        " (skillmem search --domain NAME lists them)"
    )


def lint_fix_note(findings: Sequence[Finding], baseline: str, top: str = ".") -> str | None:
    """What ``lint --fix`` would do to the skills, said where init suggests it; None when nothing is fixable.

    The baseline init wrote already lets every commit pass: fixing is a choice,
    and on a vendored pack a costly one (its files diverge from upstream, its
    names change), so the note says what it edits and renames before how.
    ``baseline`` is relative to ``top``; the command names it from the current folder.
    """
    fixable = [finding for finding in findings if finding.code in FIXABLE]
    if not fixable:
        return None
    files = len({finding.path for finding in fixable})
    renamed = len({finding.path for finding in fixable if finding.code in NAME_FIXES})
    its = "its" if renamed == 1 else "their"
    renames = (
        f", and rename {counted(renamed, 'skill')} to {its} folder's name, which changes the names people and"
        " agents type"
        if renamed
        else ""
    )
    have, them = ("has", "it") if len(fixable) == 1 else ("have", "them")
    return (
        f"{len(fixable):,} of the {counted(len(findings), 'lint finding')} {have} a mechanical fix, and the baseline"
        f" {baseline} already keeps {them} from failing a commit: skillmem lint --fix would edit"
        f" {counted(files, 'SKILL.md file')}"
        f" in place (fields no agent reads moved under metadata:){renames}. Keep the baseline for a pack you vendor"
        " (fixed, it diverges from upstream's); for skills you own, run skillmem lint --fix, then skillmem lint"
        f" --write-baseline {command_path(baseline, os.path.relpath(top))} to record what is left"
    )


def discovery_note(top: str, skills: Sequence[Skill], prompt_files: Sequence[str]) -> str | None:
    """One line when some skills sit where neither Claude Code nor Codex finds them natively.

    Per agent, true for each: the block reaches it when it reads a prompt file that holds the block; else
    the line gives budget's advice for it (Claude Code reads CLAUDE.md, not AGENTS.md, and git may ignore it).
    Else, when Claude Code finds them all but Codex does not, one line when an AGENTS.md shows Codex is used.
    """
    places = [_parts(top, skill) for skill in skills]
    unseen = sum(1 for parts in places if not _found_natively(parts))
    held = [os.path.relpath(os.path.join(top, path), top) for path in prompt_files]
    if not unseen:
        codex = _codex_note(top, sum(1 for parts in places if parts[:2] not in _CODEX), len(skills), held)
        return codex or _unread_block_note(top, held)
    readers = block_readers(held, top)
    ignored = ignored_by_git(held, top)
    absent = absent_files(ignored, top)
    them = "it" if unseen == 1 else "them"
    reach_by = []
    for agent in (CLAUDE_CODE, CODEX):
        files = _block_files(agent, held, readers, absent)
        if files:
            local = " (on this machine only: git ignores it)" if all(path in ignored for path in files) else ""
            reach_by.append(f"{TITLES[agent]} learns of {them} from the block in {' and '.join(files)}{local}")
        else:
            here = os.path.relpath(top)  # a command in the note names a path from where init runs
            reach_by.append(f"for {TITLES[agent]}, {reach(agent, [], held, ignored, absent=absent, top=here)}")
    sit = "sits" if unseen == 1 else "sit"
    return (
        f"{unseen:,} of {counted(len(skills), 'skill')} {sit} where neither Claude Code (.claude/skills/NAME/) nor"
        f" Codex (.agents/skills/) finds {them} natively: {'; '.join(reach_by)}. skillmem budget shows what each"
        " agent sees"
    )


def _codex_note(top: str, unseen: int, total: int, held: Sequence[str]) -> str | None:
    """budget's advice for Codex, when Codex finds some skills nowhere and an AGENTS.md shows it may be in use.

    A team with skills in .claude/skills alone and a personal AGENTS.md is told nothing of Codex otherwise.
    None when Codex finds them all, no AGENTS.md is here or configured, or a committed prompt file it reads
    holds the block.
    """
    if not unseen or not (os.path.lexists(os.path.join(top, CODEX_FILE)) or CODEX_FILE in map(os.path.normpath, held)):
        return None
    ignored = ignored_by_git(held, top)
    absent = absent_files(ignored, top)
    files = _block_files(CODEX, held, block_readers(held, top), absent)
    if files and not all(path in ignored for path in files):
        return None
    advice = reach(CODEX, files, held, ignored, absent=absent, top=os.path.relpath(top))
    return (
        f"{unseen:,} of {total:,} skills sit where Codex does not look (.agents/skills/, .codex/skills/), and"
        f" {CODEX_FILE}, the file Codex reads, is here: for Codex, {advice}. skillmem budget shows what each agent sees"
    )


def _unread_block_note(top: str, held: Sequence[str]) -> str | None:
    """One line when Claude Code or Codex, which the repository shows, reads no prompt file that holds the block.

    Such an agent finds the skills natively but knows them only by its own listing, which may drop or cut them
    (Codex can cut every description of a large collection, and only ``skillmem budget`` says so). When git
    ignores the file it reads (AGENTS.md), ``budget``'s advice for it follows, word for word: a block written
    there would never be committed. Paths only, and one git call when an agent reads none of them.
    """
    shown = choose_agents(top)  # a repository that shows no agent gets the fallback's, with no sign: not said
    readers = block_readers(held, top)
    # A prompt file init is about to create counts as read: _block_files with nothing absent.
    blind = [agent for agent in (CLAUDE_CODE, CODEX) if shown.get(agent) and not _block_files(agent, held, readers, ())]
    if not blind:
        return None
    who = " and ".join(f"{TITLES[agent]} ({' or '.join(READS[agent])})" for agent in blind)
    verb, own = ("reads", "its") if len(blind) == 1 else ("read", "their")
    ignored = ignored_by_git(held, top)
    absent, here = absent_files(ignored, top), os.path.relpath(top)
    told = [
        f"{TITLES[agent]}, {reach(agent, [], held, ignored, absent=absent, top=here)}. "
        for agent in blind
        if READS[agent][0] in ignored
    ]
    fixes = "for " + "For ".join(told) if told else ""
    return (
        f"{who} {verb} no prompt file that holds the block, only {own} own listing of the skills: {fixes}skillmem"
        " budget --text says what each agent drops or never discovers, and how it learns of them"
    )


def _block_files(agent: str, held: Sequence[str], readers: Mapping[str, list[str]], absent: Sequence[str]) -> list[str]:
    """The prompt files holding the block that ``agent`` reads (or will, once they exist)."""
    return readers.get(agent) or [
        path for path in held if os.path.normpath(path) in READS[agent] and path not in absent
    ]


def left_out_note(listed: int, left_out: Sequence[Mapping[str, str]]) -> str | None:
    """How many SKILL.md files the block leaves out, and why, grouped by reason; None when none is.

    Else the first word of it is a hook's report on the first commit that changes the block.
    """
    if not left_out:
        return None
    reasons = Counter(item["reason"] for item in left_out)
    said = [
        (f"{count:,}: " if len(reasons) > 1 else "") + _LEFT_OUT_BECAUSE.get(reason, (reason, reason))[count > 1]
        for reason, count in reasons.most_common(_LEFT_OUT_REASONS)
    ]
    if len(reasons) > _LEFT_OUT_REASONS:
        said.append(f"{sum(count for _, count in reasons.most_common()[_LEFT_OUT_REASONS:]):,} for other reasons")
    total = listed + len(left_out)
    return (
        f"{len(left_out):,} of {counted(total, 'SKILL.md file')} left out of the block: {'; '.join(said)}"
        " (skillmem index --text lists each)"
    )


def warnings_note(skills: Sequence[Skill], quiet: Sequence[str], top: str) -> str | None:
    """One line when skills ``quiet:`` leaves loud have warnings: the hooks print them on each block-changing commit.

    ``top``: the folder of .skillmem.yaml, which a folder of ``quiet:`` is relative to.
    """
    said = Quiet(quiet, top, skills)
    warned = sum(1 for skill in skills if skill.warnings and not said.skill(skill))
    if not warned:
        return None
    return (
        f"{counted(warned, 'SKILL.md file')} {'has' if warned == 1 else 'have'} warnings (skillmem index lists them),"
        " which the hooks print on each"
        " commit that changes the block: quiet: [NAME, PREFIX-*, FOLDER/] in .skillmem.yaml stops printing a"
        " vendored pack's known ones"
    )


def _parts(top: str, skill: Skill) -> tuple[str, ...]:
    folder = os.path.relpath(os.path.abspath(os.path.join(skill.root, skill.path)), os.path.abspath(top))
    return tuple(folder.split(os.sep))


def _found_natively(parts: tuple[str, ...]) -> bool:
    return (parts[:2] == _CLAUDE_CODE and len(parts) == 3) or parts[:2] in _CODEX


def first_skill_example(top: str) -> str:
    """Where to add a first skill: inside an agent's skills folder that exists (even empty), else skills/."""
    folder = next((name for name in AGENT_SKILL_FOLDERS if os.path.isdir(os.path.join(top, name))), "skills")
    return f"{folder}/<name>/SKILL.md (for example {folder}/pdf/SKILL.md)"
