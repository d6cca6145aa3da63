"""Where and how each agent would load a repository's skills natively: the entries ``replay.py`` takes.

The edge that reads: each skill's SKILL.md (through the safe reader), read
again strictly as Codex's loader reads it, and the folders below a Codex
root, walked breadth-first as ``loader.rs`` walks them (hidden names
skipped, at most ``scan_depth`` folders down, at most ``scan_folders``
folders a root, entries in name order).
"""

from __future__ import annotations

import os
from collections import deque

import yaml

from skillmem_hook.budget.replay import Entry
from skillmem_hook.budget.rules import CLAUDE_CODE, CODEX
from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.safe_read import read_skill_file
from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.errors import SkillmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill

CLAUDE_ROOT = (".claude", "skills")
CODEX_ROOTS = ((".agents", "skills"), (".codex", "skills"))


def native_entries(skills: Sequence[Skill], top: str, parameters: Mapping[str, Mapping[str, float]]) -> list[Entry]:
    """One entry a skill, with why Claude Code or Codex would not load it where it sits."""
    codex = parameters[CODEX]
    scanned: dict[str, set[str]] = {}
    entries = []
    for skill in skills:
        folder = os.path.normpath(os.path.join(skill.root, skill.path))
        parts = tuple(os.path.relpath(os.path.abspath(folder), top).split(os.sep))
        fields = _strict_fields(skill)
        entry = Entry(
            skill.label,
            _one_line(str(fields.get("name") or "")) or skill.name,
            str(fields.get("description") or skill.description),
            when_to_use=str(fields.get("when_to_use") or ""),
            file="r0/" + "/".join((*parts[2:], SKILL_FILE))
            if parts[:2] in CODEX_ROOTS
            else "/".join((*parts, SKILL_FILE)),
        )
        claude = _claude_code_reason(parts, int(parameters[CLAUDE_CODE]["discovery_depth"]))
        if claude:
            entry.not_loaded[CLAUDE_CODE] = claude
        reason = _codex_place_reason(parts, top, codex, scanned) or _codex_loader_reason(fields, entry, codex)
        if reason:
            entry.not_loaded[CODEX] = reason
        entry.description = _one_line(entry.description)  # as both agents show it: one line
        entries.append(entry)
    return entries


def _claude_code_reason(parts: tuple[str, ...], depth: int) -> str:
    if parts[:2] != CLAUDE_ROOT:
        return "not in .claude/skills at the repository's root, where Claude Code looks"
    below = len(parts) - 2
    if below != depth:
        return f"{below} folders below .claude/skills; Claude Code looks {depth} down"
    return ""


def _codex_place_reason(
    parts: tuple[str, ...], top: str, codex: Mapping[str, float], scanned: dict[str, set[str]]
) -> str:
    if parts[:2] not in CODEX_ROOTS:
        return "not in .agents/skills (or .codex/skills) at the repository's root, where Codex looks"
    below = parts[2:]
    if any(part.startswith(".") for part in below):
        return "in a folder whose name starts with '.', which Codex skips"
    if len(below) > codex["scan_depth"]:
        return f"{len(below)} folders below {'/'.join(parts[:2])}; Codex looks {int(codex['scan_depth'])} down"
    root = os.path.join(top, *parts[:2])
    if root not in scanned:
        scanned[root] = codex_scan(root, int(codex["scan_depth"]), int(codex["scan_folders"]))
    if os.path.realpath(os.path.join(root, *below)) not in scanned[root]:
        return f"past the first {int(codex['scan_folders']):,} folders Codex scans below {'/'.join(parts[:2])}"
    return ""


def codex_scan(root: str, depth_cap: int, folder_cap: int) -> set[str]:
    """The real paths of the folders loader.rs reads below ``root``: breadth-first, hidden names skipped."""
    start = os.path.realpath(root)
    visited = {start}
    queue = deque([(start, 0)])
    while queue:
        folder, depth = queue.popleft()
        try:
            names = sorted(name for name in os.listdir(folder) if not name.startswith("."))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if depth + 1 > depth_cap or not os.path.isdir(path):
                continue
            if len(visited) >= folder_cap:
                return visited
            real = os.path.realpath(path)
            if real not in visited:
                visited.add(real)
                queue.append((real, depth + 1))
    return visited


def _codex_loader_reason(fields: Mapping[str, object], entry: Entry, codex: Mapping[str, float]) -> str:
    if "error" in fields:
        return str(fields["error"])
    description = _one_line(str(fields.get("description") or ""))
    if not description:
        return "no description in the frontmatter; Codex's loader requires one"
    if len(description) > codex["description_cap_chars"]:
        cap = int(codex["description_cap_chars"])
        return f"description of {len(description):,} characters; Codex's loader skips one over {cap:,}"
    if len(entry.agent_name) > codex["name_cap_chars"]:
        return (
            f"name of {len(entry.agent_name)} characters; Codex's loader skips one over {int(codex['name_cap_chars'])}"
        )
    return ""


def _strict_fields(skill: Skill) -> dict[str, object]:
    """The frontmatter as a strict YAML reader (Codex's serde_yaml) reads it; ``error`` says why it cannot."""
    try:
        data = read_skill_file(skill.root, skill.path)
        span = frontmatter_span(data)
    except (SkillmemError, UnclosedFrontmatter) as error:
        return {"error": f"its SKILL.md cannot be read as a skill: {getattr(error, 'message', error)}"}
    if span is None:
        return {"error": "no frontmatter ('---' block); Codex's loader requires one"}
    try:
        fields = yaml.safe_load(data[span[0] : span[1]].decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return {"error": "its frontmatter is not valid YAML, which Codex's loader refuses"}
    if not isinstance(fields, dict):
        return {"error": "its frontmatter is not a mapping, which Codex's loader refuses"}
    return {key: value for key, value in fields.items() if key in ("name", "description", "when_to_use")}


def _one_line(text: str) -> str:
    """loader.rs's sanitize_single_line: runs of whitespace as one space."""
    return " ".join(text.split())
