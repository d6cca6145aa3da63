"""``skillmem budget``: what each agent would drop, cut or never load of the skills, natively, and what to do.

Claude Code, Codex, Copilot (CLI and VS Code), Gemini CLI and OpenCode each
find skills in their own folders and list them to the model, some within a
budget, and none says what a repository's skills lose. This replays their
rules (``budget/``; sources in docs/budget.md) on the repository's skills,
for the agents named or those the repository shows, so the owner learns
what each agent cannot see, and whether the block is needed.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.arguments import add_budget_options, add_catalog_options, add_location_options, add_text_option
from skillmem_hook.block.render import collapsed_domains, estimate_tokens, group_by_domain, render_block
from skillmem_hook.budget.advice import block_line, causes, headline, remedies
from skillmem_hook.budget.choice import absent_files, block_readers, choose_agents, ignored_by_git
from skillmem_hook.budget.listings import copilot_cli, gemini_cli, opencode, vscode
from skillmem_hook.budget.native import native_entries
from skillmem_hook.budget.replay import claude_code, codex
from skillmem_hook.budget.rules import CLAUDE_CODE, CODEX, COPILOT_CLI, GEMINI_CLI, OPENCODE, VSCODE, BudgetSettings
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.config import find_config, load_settings, require_roots
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK
from skillmem_hook.report import emit
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Mapping, Sequence

    from skillmem_hook.budget.replay import Entry
    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.config import Settings

LISTED = 10  # names shown per cause in the text summary
RULES: dict[str, Callable[[Sequence[Entry], int, Mapping[str, float]], dict[str, object]]] = {
    CLAUDE_CODE: claude_code,
    CODEX: codex,
    COPILOT_CLI: copilot_cli,
    VSCODE: vscode,
    GEMINI_CLI: gemini_cli,
    OPENCODE: opencode,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    add_budget_options(parser)
    add_text_option(parser, "a person's summary")


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    report = replay_budget(settings, options, hook=False)
    if options.text:
        write_utf8(sys.stdout, describe_budget(report, top=os.path.relpath(find_config(os.getcwd())[1])))
    else:
        emit(report)
    return EXIT_FINDINGS if options.check and has_losses(report) else EXIT_OK


def replay_budget(settings: Settings, options: argparse.Namespace, *, hook: bool) -> dict[str, object]:
    """The JSON ``skillmem budget`` prints: how the agents were chosen, one result each, the skills and the block."""
    chosen = BudgetSettings.from_section(settings.budget).with_flags(
        agents=options.agent, context_window=options.context_window
    )
    top = find_config(os.getcwd())[1]
    agents, chosen_from = _agents(chosen, top, flagged=bool(options.agent))
    view = settings.catalog_options(hook=hook)
    catalog = scan_roots(require_roots(settings), view)
    extra = [*(skill for skill, _ in catalog.duplicates), *catalog.excluded]  # not in the block; an agent lists them
    entries = native_entries(
        catalog.skills,
        top,
        chosen.parameters,
        agents=agents,
        extra=extra,
        user_roots=view.user_roots,
        boundary=view.boundary,
    )
    results = [RULES[agent](entries, chosen.context_window, chosen.parameters[agent]) for agent in agents]
    report: dict[str, object] = {"agents": results, "skills": len(catalog.skills), "chosen_from": chosen_from}
    if not hook or has_losses(report):  # a hook that loses nothing says nothing: no block rendered, no file opened
        report["block"] = _block_section(settings, catalog.skills, top)
    return report


def _block_section(settings: Settings, skills: Sequence[Skill], top: str) -> dict[str, object]:
    """The block's figures beside the agents': its prompt files, its size, and which agents read it."""
    block = render_block(skills, max_tokens=settings.max_block_tokens)
    prompt_files = [os.path.relpath(os.path.abspath(path), top) for path in settings.prompt_files]
    ignored, grouped = ignored_by_git(prompt_files, top), group_by_domain(skills)
    return {
        "prompt_files": prompt_files,
        "est_tokens": estimate_tokens(len(block)),
        "max_block_tokens": settings.max_block_tokens,
        "read_by": {agent: readers for agent, readers in block_readers(settings.prompt_files, top).items()},
        "ignored": ignored,
        "absent": absent_files(ignored, top),
        "folded": sum(len(grouped[domain]) for domain in collapsed_domains(grouped, settings.max_block_tokens)),
    }


def _agents(chosen: BudgetSettings, top: str, *, flagged: bool) -> tuple[tuple[str, ...], dict[str, object]]:
    """The agents to replay and how they were chosen: --agent, budget: agents, or what the repository shows."""
    if chosen.agents:
        return chosen.agents, {"by": "--agent" if flagged else "budget: agents"}
    signs = choose_agents(top)
    by = "the repository" if any(signs.values()) else "default"
    return tuple(signs), {"by": by, "signs": signs}


def has_losses(report: dict[str, object]) -> bool:
    """True when any agent would drop, cut, leave out or not discover a skill."""
    keys = ("descriptions_dropped", "descriptions_cut", "not_discovered", "skills_omitted")
    return any(agent.get(key) for agent in report["agents"] for key in keys)  # type: ignore[attr-defined]


def describe_budget(report: dict[str, object], *, top: str = ".") -> str:
    """A person's summary: which agents; per agent its listing, each cause once with a few names, what to do.

    ``top``: the repository's top from the current folder, where the report's paths are.
    """
    block: dict[str, object] = report["block"]  # type: ignore[assignment]
    readers: dict[str, list[str]] = block["read_by"]  # type: ignore[assignment]
    lines = [_chosen_line(report)]
    for agent in report["agents"]:  # type: ignore[attr-defined]
        lines.append(headline(agent, int(report["skills"])))  # type: ignore[call-overload]
        for cause, names in causes(agent):
            every = len(names) == report["skills"]  # naming ten of them all says nothing
            lines += [f"  {cause}", *([] if every else _names(names))]
        todo = remedies(
            agent,
            readers.get(agent["agent"], []),
            block["prompt_files"],  # type: ignore[arg-type]
            ignored=block.get("ignored") or (),  # type: ignore[arg-type]
            absent=block.get("absent") or (),  # type: ignore[arg-type]
            folded=(int(report["skills"]), int(block.get("folded") or 0)),  # type: ignore[call-overload]
            top=top,
        )
        lines += ["  what to do:", *(f"    - {line}" for line in todo)] if todo else []
    lines.append(block_line(int(report["skills"]), block))  # type: ignore[call-overload]
    return "\n".join(lines) + "\n"


def _chosen_line(report: dict[str, object]) -> str:
    chosen: dict[str, object] = report["chosen_from"]  # type: ignore[assignment]
    names = [str(agent["agent"]) for agent in report["agents"]]  # type: ignore[attr-defined]
    if chosen["by"] == "the repository":
        signs: dict[str, list[str]] = chosen["signs"]  # type: ignore[assignment]
        shown = ", ".join(f"{agent} ({', '.join(signs[agent])})" for agent in names)
        return f"agents: {shown}, from what the repository holds (--agent NAME chooses others)"
    if chosen["by"] == "default":
        return f"agents: {', '.join(names)}: the repository shows none (--agent NAME chooses others)"
    return f"agents: {', '.join(names)} (from {chosen['by']})"


def _names(names: Sequence[str]) -> list[str]:
    """The first LISTED names, one a line, and how many more there are."""
    more = [f"    ... and {len(names) - LISTED:,} more"] if len(names) > LISTED else []
    return [f"    {name}" for name in names[:LISTED]] + more
