"""Replay the XML skill listings of Copilot CLI, VS Code, Gemini CLI and OpenCode on the entries ``native.py`` made.

Pure. Copilot CLI and VS Code keep the whole entries that fit 15,000
characters (counted as JavaScript counts: UTF-16 code units), stop at the
first that does not, name the rest on one line within 5,000 characters and
end it "... and N more". Gemini CLI and OpenCode list every skill: their
listing is measured against the context window instead. Sources: docs/budget.md.
"""

from __future__ import annotations

from skillmem_hook.budget.replay import agent_result
from skillmem_hook.budget.rules import COPILOT_CLI, GEMINI_CLI, OPENCODE, VSCODE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from skillmem_hook.budget.loading import Shown
    from skillmem_hook.budget.replay import Entry

NAMES_LEAD = "Additional skills available (invoke by name): "


def copilot_cli(entries: Sequence[Entry], window: int, parameters: Mapping[str, float]) -> dict[str, object]:
    """Copilot CLI 1.0.57: whole entries within the budget, then the names within 5,000 (the lead counted)."""
    return _prefix_then_names(COPILOT_CLI, entries, window, parameters, render=_copilot_entry, lead=len(NAMES_LEAD))


def vscode(entries: Sequence[Entry], window: int, parameters: Mapping[str, float]) -> dict[str, object]:
    """VS Code agent mode, with its skill tool on: as Copilot CLI, each entry with its file, the lead not counted."""
    return _prefix_then_names(VSCODE, entries, window, parameters, render=_vscode_entry, lead=0)


def _copilot_entry(shown: Shown) -> str:
    return (
        f"<skill>\n  <name>{escape_markup(shown.name)}</name>\n"
        f"  <description>{escape_markup(shown.description)}</description>\n"
        f"  <location>{shown.location}</location>\n</skill>"
    )


def _vscode_entry(shown: Shown) -> str:
    lines = ["<skill>", f"<name>{shown.name}</name>", f"<description>{shown.description}</description>"]
    return "\n".join([*lines, f"<file>{shown.location}</file>", "</skill>"])


def _prefix_then_names(
    agent: str,
    entries: Sequence[Entry],
    window: int,
    parameters: Mapping[str, float],
    *,
    render: Callable[[Shown], str],
    lead: int,
) -> dict[str, object]:
    budget, names_budget = int(parameters["budget_chars"]), int(parameters["names_chars"])
    listed = _listed(agent, entries)
    costs = [js_length(render(shown)) + 1 for _, shown in listed]
    used, whole = 0, 0
    for cost in costs:
        if used + cost > budget:
            break
        used, whole = used + cost, whole + 1
    named: list[str] = []
    omitted: list[str] = []
    length = lead
    for entry, shown in listed[whole:]:
        name = escape_markup(shown.name) if agent == COPILOT_CLI else shown.name
        addition = (2 if named else 0) + js_length(name)
        if omitted or length + addition > names_budget:
            omitted.append(entry.name)
            continue
        length += addition
        named.append(entry.name)
    result = agent_result(agent, window, budget, sum(costs), named, [], entries)
    result["listed"] = whole
    result["skills_omitted"] = omitted
    result["names_chars"] = names_budget
    return result


def gemini_cli(entries: Sequence[Entry], window: int, parameters: Mapping[str, float]) -> dict[str, object]:
    """Gemini CLI: every skill in the system prompt, ``<available_skills>``, one five-line block each."""
    blocks = [
        f"  <skill>\n    <name>{shown.name}</name>\n    <description>{shown.description}</description>\n"
        f"    <location>{shown.location}</location>\n  </skill>"
        for _, shown in _listed(GEMINI_CLI, entries)
    ]
    return _uncapped(GEMINI_CLI, entries, window, parameters, listing="\n".join(blocks), count=len(blocks))


def opencode(entries: Sequence[Entry], window: int, parameters: Mapping[str, float]) -> dict[str, object]:
    """OpenCode: every skill with a description in the system prompt, sorted by name, one five-line block each."""
    listed = sorted(_listed(OPENCODE, entries), key=lambda pair: (pair[1].name.casefold(), pair[1].name))
    lines = ["<available_skills>"]
    for _, shown in listed:
        lines += ["  <skill>", f"    <name>{shown.name}</name>", f"    <description>{shown.description}</description>"]
        lines += [f"    <location>{shown.location}</location>", "  </skill>"]
    listing = "\n".join([*lines, "</available_skills>"])
    return _uncapped(OPENCODE, entries, window, parameters, listing=listing, count=len(listed))


def _uncapped(
    agent: str, entries: Sequence[Entry], window: int, parameters: Mapping[str, float], *, listing: str, count: int
) -> dict[str, object]:
    size = js_length(listing) if count else 0
    result = agent_result(agent, window, None, size, [], [], entries)
    tokens = -(-size // int(parameters["chars_per_token"]))
    result.update(fits=True, listed=count, listing_tokens=tokens, window_share=round(tokens / window, 4))
    return result


def _listed(agent: str, entries: Sequence[Entry]) -> list[tuple[Entry, Shown]]:
    """The entries the agent lists, in its order."""
    listed = [
        (entry, entry.shown[agent]) for entry in entries if agent not in entry.not_loaded and agent in entry.shown
    ]
    listed.sort(key=lambda pair: pair[1].rank)
    return listed


def js_length(text: str) -> int:
    """A string's length as JavaScript counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def escape_markup(text: str, apostrophe: str = "&apos;") -> str:
    """& < > " ' escaped as an agent's listing does: Copilot CLI writes ' as &apos;, OpenCode as &#39;."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", apostrophe)
    )
