"""Each skill as each agent would load it natively: the entries ``replay.py`` and ``listings.py`` take.

A skill is its real folder: an agent finds it when its walk of its own
folders (``discovery.py``) reaches that folder, by any path or link, so a
skill that several agents reach through different folders is one skill in
every view. Then each agent's loader rules apply (``loading.py`` for
Copilot, VS Code, Gemini CLI and OpenCode; Codex's strict reading here),
and of two skills of one name each agent keeps the one its rule keeps.
"""

from __future__ import annotations

import os

from skillmem_hook.budget.discovery import Discovery
from skillmem_hook.budget.fields import one_line, read_fields
from skillmem_hook.budget.folders import Folders
from skillmem_hook.budget.listings import escape_markup
from skillmem_hook.budget.loading import KEEPS, OverCap, Shown, load, name_taken
from skillmem_hook.budget.replay import Entry
from skillmem_hook.budget.rules import AGENTS, CLAUDE_CODE, CODEX, OPENCODE
from skillmem_hook.catalog import SKILL_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.budget.fields import Fields
    from skillmem_hook.budget.folders import Found
    from skillmem_hook.catalog.skills import Skill


def native_entries(
    skills: Sequence[Skill],
    top: str,
    parameters: Mapping[str, Mapping[str, float]],
    *,
    agents: Sequence[str] = AGENTS,
    extra: Sequence[Skill] = (),
    user_roots: bool = True,
    boundary: str | None = None,
) -> list[Entry]:
    """One entry a skill, for ``agents``; ``extra``: skills the block leaves out that an agent may still list.

    ``user_roots`` and ``boundary``: who named the roots, as the catalog was built (``read_fields``).

    Each entry says, per agent, why the agent would not list the skill, or
    how it shows it (``Entry.shown``).
    """
    folders = Folders(top, {skill.root for skill in (*skills, *extra)})
    read = [
        (_entry(skill, extra=skill_extra), read_fields(skill, user_root=user_roots, boundary=boundary))
        for skill_extra, group in ((False, skills), (True, extra))
        for skill in group
    ]
    for entry, fields in read:
        _strict_entry(entry, fields)
    for agent in agents:
        discovery = Discovery(agent, folders, parameters[agent])
        _keep_by_name(agent, _found_and_loaded(agent, discovery, read, parameters[agent], folders.top))
    entries = [entry for entry, _ in read]
    for entry in entries:
        entry.description = one_line(entry.description)  # as Claude Code and Codex show it: one line
    return entries


def _entry(skill: Skill, *, extra: bool) -> Entry:
    entry = Entry(skill.label, skill.name, skill.description)
    entry.real = os.path.realpath(os.path.join(skill.root, skill.path))
    entry.extra = extra
    return entry


def _strict_entry(entry: Entry, fields: Fields) -> None:
    """The name, description and when_to_use Claude Code and Codex show, from the strict reading where it reads."""
    strict = fields.strict
    entry.agent_name = one_line(str(strict.get("name") or "")) or entry.agent_name
    entry.description = str(strict.get("description") or entry.description)
    entry.when_to_use = str(strict.get("when_to_use") or "")


def _found_and_loaded(
    agent: str,
    discovery: Discovery,
    read: list[tuple[Entry, Fields]],
    parameters: Mapping[str, float],
    top: str,
) -> list[tuple[Entry, Shown, Found]]:
    """The entries the agent finds and loads, in its order, with how it shows each; a reason on the others."""
    listed: list[tuple[Entry, Shown, Found]] = []
    for entry, fields in read:
        hit = discovery.found.get(entry.real)
        if hit is None:
            entry.not_loaded[agent] = discovery.reason(entry.real)
            continue
        rank, found = hit
        loaded = (
            _codex_load(entry, fields, found, parameters) if agent == CODEX else _load(agent, fields, found, parameters)
        )
        if isinstance(loaded, str):
            entry.not_loaded[agent] = loaded
            continue
        listed.append((entry, Shown(rank, *loaded, _location(agent, top, found)), found))
    listed.sort(key=lambda pair: pair[1].rank)
    return listed


def _load(agent: str, fields: Fields, found: Found, parameters: Mapping[str, float]) -> tuple[str, str] | str:
    if agent == CLAUDE_CODE:
        return "", ""  # Claude Code's name and text are the strict reading's (Entry), as before
    return load(agent, fields, found, parameters)


def _codex_load(entry: Entry, fields: Fields, found: Found, codex: Mapping[str, float]) -> tuple[str, str] | str:
    """loader.rs: a strict frontmatter, a description, both within their caps; the file shown below its root."""
    strict = fields.strict
    if "error" in strict:
        return str(strict["error"])
    description = one_line(str(strict.get("description") or ""))
    if not description:
        return "no description in the frontmatter; Codex's loader requires one"
    if len(description) > codex["description_cap_chars"]:
        return OverCap(CODEX, "description", len(description), int(codex["description_cap_chars"]))
    if len(entry.agent_name) > codex["name_cap_chars"]:
        return OverCap(CODEX, "name", len(entry.agent_name), int(codex["name_cap_chars"]))
    entry.file = "/".join(("r0", *found.parts, SKILL_FILE))  # render.rs shows the path below an alias of its root
    return entry.agent_name, description


def _location(agent: str, top: str, found: Found) -> str:
    """Where the agent says the skill is: a scope word (Copilot CLI) or the SKILL.md's absolute path."""
    path = os.path.join(top, *found.path.split("/"), SKILL_FILE)
    return {"copilot-cli": "project", OPENCODE: escape_markup(path, "&#39;")}.get(agent, path)


def _keep_by_name(agent: str, listed: list[tuple[Entry, Shown, Found]]) -> None:
    """Of two skills of one name, the one the agent keeps is shown; the other gets the reason."""
    keeps = KEEPS.get(agent, "first")
    by_name: dict[str, list[tuple[Entry, Shown, Found]]] = {}
    for item in listed:
        by_name.setdefault(item[1].name or item[0].agent_name, []).append(item)
    for group in by_name.values():
        if keeps == "both" or len(group) == 1:
            for entry, shown, _ in group:
                entry.shown[agent] = shown
            continue
        winner, shown, found = group[-1] if keeps == "last" else group[0]
        shown.rank = group[0][1].rank  # a name keeps the place it was first given (a JavaScript Map's order)
        winner.shown[agent] = shown
        for entry, _, _ in group:
            if entry is not winner:
                entry.not_loaded[agent] = name_taken(agent, found.path)
