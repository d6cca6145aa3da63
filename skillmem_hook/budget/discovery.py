"""Where each agent looks in a repository, how deep, and why it does not find a skill folder.

The rules and their sources are in docs/budget.md (a table per agent). Each
agent's walk (``folders.py``) gives the skill folders it finds in its order;
``Discovery.reason`` says, for one it does not find, why: not in its folders,
too deep, in a hidden folder, inside another skill, or past a cap.
"""

from __future__ import annotations

import os

from skillmem_hook.budget.folders import BreadthFirst, Found, at_depth, everywhere, outermost
from skillmem_hook.budget.rules import CLAUDE_CODE, CODEX, COPILOT_CLI, GEMINI_CLI, OPENCODE, TITLES, VSCODE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from skillmem_hook.budget.folders import Folders

# Each agent's folders at the repository's root, in the order it reads them.
ROOTS = {
    CLAUDE_CODE: (".claude/skills",),
    CODEX: (".agents/skills", ".codex/skills"),  # loader.rs reads .codex/skills first; only a link to both differs
    COPILOT_CLI: (".github/skills", ".agents/skills", ".claude/skills"),
    VSCODE: (".github/skills", ".agents/skills", ".claude/skills"),
    GEMINI_CLI: (".gemini/skills", ".agents/skills"),
    OPENCODE: (".claude/skills", ".agents/skills", ".opencode/skill", ".opencode/skills"),
}
SKIPS_HIDDEN = {CODEX, COPILOT_CLI, GEMINI_CLI}  # folders below a root whose names start with '.'
DEPTH = {VSCODE: 1, GEMINI_CLI: 1}  # exactly this many folders down (Gemini CLI: or the root itself)


class Discovery:
    """What one agent finds: each skill folder's first ``Found``, by real path, in the agent's order."""

    def __init__(self, agent: str, folders: Folders, parameters: Mapping[str, float]) -> None:
        self.agent = agent
        self.folders = folders
        self.parameters = parameters
        self.walks: dict[str, BreadthFirst] = {}
        self.found: dict[str, tuple[int, Found]] = {}
        for item in self._walk():
            self.found.setdefault(item.real, (len(self.found), item))

    def _walk(self) -> list[Found]:
        found: list[Found] = []
        for root in ROOTS[self.agent]:
            found += self._walk_root(root)
        return found

    def _walk_root(self, root: str) -> list[Found]:
        folders, agent = self.folders, self.agent
        if agent == CLAUDE_CODE:
            return at_depth(folders, root, int(self.parameters["discovery_depth"]))
        if agent == CODEX:
            p = self.parameters
            walk = BreadthFirst(folders, root, int(p["scan_depth"]), int(p["scan_folders"]), int(p["scan_entries"]))
            self.walks[root] = walk
            return walk.found
        if agent == COPILOT_CLI:
            itself = at_depth(folders, root, 0, itself=True)
            return itself or outermost(everywhere(folders, root, hidden=False))
        if agent == OPENCODE:
            return everywhere(folders, root, hidden=not root.startswith(".opencode"))
        return at_depth(folders, root, DEPTH[agent], itself=agent == GEMINI_CLI, hidden=agent not in SKIPS_HIDDEN)

    def reason(self, real: str) -> str:
        """Why the agent does not find the skill folder at ``real``."""
        title = TITLES[self.agent]
        for root in ROOTS[self.agent]:
            start = self.folders.real(root)
            if start is not None and (real == start or real.startswith(start + os.sep)):
                parts = tuple(os.path.relpath(real, start).split(os.sep)) if real != start else ()
                return self._reason_below(root, parts)
        roots = ROOTS[self.agent]
        where = roots[0] if len(roots) == 1 else f"{', '.join(roots[:-1])} or {roots[-1]}"
        return f"not in {where} at the repository's root, where {title} looks"

    def _reason_below(self, root: str, parts: tuple[str, ...]) -> str:
        title, agent = TITLES[self.agent], self.agent
        if agent in SKIPS_HIDDEN and any(part.startswith(".") for part in parts):
            return f"in a folder whose name starts with '.', which {title} skips"
        depth = self._depth()
        exact = agent in (CLAUDE_CODE, VSCODE)  # exactly ``depth`` down; the others look at most that far
        if depth is not None and (len(parts) > depth or (exact and len(parts) != depth)):
            return f"{len(parts)} folders below {root}; {title} looks {depth} down"
        if agent == CODEX:
            return self._codex_cap(root)
        if agent == COPILOT_CLI:
            return self._copilot_outer(root, parts)
        return f"not found below {root}, where {title} looks (a link that leaves the repository?)"

    def _depth(self) -> int | None:
        if self.agent == CLAUDE_CODE:
            return int(self.parameters["discovery_depth"])
        if self.agent == CODEX:
            return int(self.parameters["scan_depth"])
        return DEPTH.get(self.agent)

    def _codex_cap(self, root: str) -> str:
        walk = self.walks.get(root)
        if walk is not None and walk.stopped == "entries":
            return f"past the first {int(self.parameters['scan_entries']):,} entries Codex lists below {root}"
        return f"past the first {int(self.parameters['scan_folders']):,} folders Codex scans below {root}"

    def _copilot_outer(self, root: str, parts: tuple[str, ...]) -> str:
        for _, found in self.found.values():
            if found.root == root and parts[: len(found.parts)] == found.parts:
                if not found.parts:
                    return f"{root} holds a SKILL.md itself, so Copilot CLI takes the folder as one skill"
                return f"inside the skill folder {found.path}, which Copilot CLI takes as one skill"
        return f"not found below {root}, where Copilot CLI looks (a link that leaves the repository?)"
