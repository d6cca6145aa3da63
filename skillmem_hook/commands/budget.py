"""``skillmem budget``: what Claude Code and Codex would drop, cut or never load of the skills, natively.

Those agents list skills in a budget of their context window and say
nothing when a repository's skills overflow it. This replays their rules
(``budget/``; sources in docs/budget.md) on the repository's skills, so the
owner learns what the agents cannot see, and whether the block is needed.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.arguments import add_budget_options, add_catalog_options, add_location_options, add_text_option
from skillmem_hook.budget.native import native_entries
from skillmem_hook.budget.replay import claude_code, codex
from skillmem_hook.budget.rules import CLAUDE_CODE, BudgetSettings
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.config import find_config, load_settings, require_roots
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK
from skillmem_hook.report import emit
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions

LISTED = 10  # names shown per list in the text summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    add_budget_options(parser)
    add_text_option(parser, "a person's summary")


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    chosen = BudgetSettings.from_section(settings.budget).with_flags(
        agent=options.agent, context_window=options.context_window
    )
    return budget(
        require_roots(settings), chosen, check=options.check, text=options.text, options=settings.catalog_options()
    )


def replay_budget(roots: Sequence[str], settings: BudgetSettings, options: CatalogOptions | None) -> dict[str, object]:
    """The JSON ``skillmem budget`` prints: one result per selected agent, and the number of skills."""
    skills = scan_roots(roots, options).skills
    entries = native_entries(skills, find_config(os.getcwd())[1], settings.parameters)
    rules = {CLAUDE_CODE: claude_code, "codex": codex}
    results = [rules[agent](entries, settings.context_window, settings.parameters[agent]) for agent in settings.agents]
    return {"agents": results, "skills": len(entries)}


def budget(
    roots: Sequence[str],
    settings: BudgetSettings,
    *,
    check: bool = False,
    text: bool = False,
    options: CatalogOptions | None = None,
) -> int:
    report = replay_budget(roots, settings, options)
    if text:
        write_utf8(sys.stdout, describe_budget(report))
    else:
        emit(report)
    return EXIT_FINDINGS if check and has_losses(report) else EXIT_OK


def has_losses(report: dict[str, object]) -> bool:
    """True when any agent would drop, cut, leave out or not discover a skill."""
    keys = ("descriptions_dropped", "descriptions_cut", "not_discovered", "skills_omitted")
    return any(agent.get(key) for agent in report["agents"] for key in keys)  # type: ignore[attr-defined]


def describe_budget(report: dict[str, object]) -> str:
    """A person's summary: per agent, the listing against its budget, then each list, a few names each."""
    lines = []
    for agent in report["agents"]:  # type: ignore[attr-defined]
        state = "fits" if agent["fits"] else "over budget"
        if agent["fits"] and agent["not_discovered"] and not agent["listing_chars"]:
            state = "fits, but lists no skill: it discovers none where they are"  # "fits" alone reads as all clear
        lines.append(
            f"{agent['agent']} ({agent['context_window']:,}-token window): listing of {agent['listing_chars']:,} "
            f"characters in a budget of {agent['budget_chars']:,}: {state}"
        )
        lines += _names("descriptions dropped", agent["descriptions_dropped"])
        lines += _names(
            "descriptions cut", [f"{cut['name']} (kept {cut['kept_chars']:,})" for cut in agent["descriptions_cut"]]
        )
        lines += _names("left out whole", agent.get("skills_omitted", []))
        lines += _names("not discovered", [f"{item['name']}: {item['reason']}" for item in agent["not_discovered"]])
    lines.append(f"{report['skills']} skills")
    return "\n".join(lines) + "\n"


def _names(title: str, names: Sequence[str]) -> list[str]:
    if not names:
        return []
    more = f"\n    ... and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return [f"  {title} ({len(names)}):", *(f"    {name}" for name in names[:LISTED])] + (
        [more.strip("\n")] if more else []
    )
