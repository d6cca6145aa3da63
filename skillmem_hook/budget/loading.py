"""What each agent loads of a skill folder it found: the name and description it shows, or why it refuses it.

Pure. The rules and their sources are in docs/budget.md. Two skills of one
name: Copilot, VS Code (and, assumed, Claude Code) keep the one found first;
Gemini CLI and OpenCode the one loaded last; Codex keeps both.
"""

from __future__ import annotations

import re

from skillmem_hook.budget.fields import one_line
from skillmem_hook.budget.rules import CODEX, COPILOT_CLI, GEMINI_CLI, OPENCODE, TITLES, VSCODE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from skillmem_hook.budget.fields import Fields
    from skillmem_hook.budget.folders import Found

KEEPS = {CODEX: "both", GEMINI_CLI: "last", OPENCODE: "last"}  # the others keep the first of a name
_COPILOT_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._\- ]*")  # Copilot CLI's zod schema (1.0.12; 1.0.57 the same)
_GEMINI_UNSAFE = re.compile(r'[:\\/<>*?"|]')  # skillLoader.ts: made filename-safe with '-'
_TAG = re.compile(r"<[^>]+>")  # VS Code strips tags from a name and a description


class OverCap(str):
    """Why a loader refuses a skill whose name or description is over its cap: the reason's text, and its cause as
    data (``field``, ``cap``), so the skills one cap refuses are one cause in budget's text without reading it back.
    """

    field: str
    cap: int

    def __new__(cls, agent: str, field: str, size: int, cap: int) -> OverCap:
        reason = super().__new__(cls, f"{field} of {size:,} characters; {cap_rule(agent, cap)}")
        reason.field, reason.cap = field, cap
        return reason


def cap_rule(agent: str, cap: int) -> str:
    """What the agent's loader does with a field over ``cap`` characters."""
    if agent == CODEX:
        return f"Codex's loader skips one over {cap:,}"
    return f"over {cap:,} is a load error in {TITLES[agent]}"


class Shown:
    """A skill as one agent lists it: its place in the agent's order, name, description and location."""

    __slots__ = ("description", "location", "name", "rank")

    def __init__(self, rank: int, name: str, description: str, location: str) -> None:
        self.rank = rank
        self.name = name
        self.description = description
        self.location = location


def load(agent: str, fields: Fields, found: Found, parameters: Mapping[str, float]) -> tuple[str, str] | str:
    """(name, description) as the agent lists the skill, or the reason it does not list it."""
    if agent == COPILOT_CLI:
        return _copilot(fields, found, parameters)
    if agent == VSCODE:
        return _vscode(fields, found, parameters)
    if agent in (GEMINI_CLI, OPENCODE):
        return _declared_only(agent, fields)
    raise ValueError(agent)  # Claude Code and Codex are read in native.py, as before


def _copilot(fields: Fields, found: Found, parameters: Mapping[str, float]) -> tuple[str, str] | str:
    strict = fields.strict
    if "error" in strict:
        return str(strict["error"]).replace("Codex's loader", "Copilot CLI's loader")
    declared = strict.get("name")
    name = declared if isinstance(declared, str) and declared else _folder_name(found)
    if not _COPILOT_NAME.fullmatch(name) or len(name) > parameters["name_cap_chars"]:
        cap = int(parameters["name_cap_chars"])
        return (
            f"name {name!r} is not {cap} letters, digits, '.', '_', '-' or spaces at most: a load error in Copilot CLI"
        )
    description = strict.get("description") if isinstance(strict.get("description"), str) else fields.description
    description = one_line(str(description or ""))
    if len(description) > parameters["description_cap_chars"]:
        return OverCap(COPILOT_CLI, "description", len(description), int(parameters["description_cap_chars"]))
    return "-".join(name.split()), description


def _vscode(fields: Fields, found: Found, parameters: Mapping[str, float]) -> tuple[str, str] | str:
    description = _TAG.sub("", fields.description or "").strip()
    if not description:
        return "no description in the frontmatter; VS Code lists no skill without one"
    name = _TAG.sub("", _folder_name(found))[: int(parameters["name_cap_chars"])]  # the folder's name wins
    return name, description[: int(parameters["description_cap_chars"])]


def _declared_only(agent: str, fields: Fields) -> tuple[str, str] | str:
    title = TITLES[agent]
    if not fields.name:
        return f"no name in the frontmatter; {title} needs one (it does not take the folder's)"
    if agent == GEMINI_CLI and not fields.description:
        return "no description in the frontmatter; Gemini CLI skips a skill without one"
    if agent == OPENCODE and fields.description is None:
        return "no description in the frontmatter; OpenCode lists no skill without one"
    name = _GEMINI_UNSAFE.sub("-", fields.name) if agent == GEMINI_CLI else fields.name
    return name, fields.description or ""


def _folder_name(found: Found) -> str:
    return found.parts[-1] if found.parts else found.root.rsplit("/", 1)[-1]


def name_taken(agent: str, winner: str) -> str:
    """Why a skill of a name another skill holds is not listed."""
    title = TITLES[agent]
    if KEEPS.get(agent) == "last":
        return f"another skill of its name, {winner}, is loaded after it and {title} keeps that one"
    return f"another skill of its name, {winner}, is found first and {title} keeps that one"
