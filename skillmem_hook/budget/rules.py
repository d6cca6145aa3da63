"""The parameters of each agent's native skill listing, with where each number comes from.

Pure. Claude Code is closed: its rule is the documented model (docs/budget.md).
Codex's numbers are read from openai/codex, ``codex-rs/core-skills/src/render.rs``
and ``loader.rs`` (the commits are named in docs/budget.md). Each number can be
changed under ``budget: {parameters: {AGENT: {KEY: VALUE}}}`` in .skillmem.yaml,
for an agent build that differs.
"""

from __future__ import annotations

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Final

CLAUDE_CODE = "claude-code"
CODEX = "codex"
AGENTS = (CLAUDE_CODE, CODEX)
DEFAULT_CONTEXT_WINDOW = 200_000

# Claude Code (documented model): the listing may take 1% of the context window;
# each entry (description plus when_to_use) is cut at 1,536 characters; over
# budget, whole descriptions go and the names stay; skills are found one folder
# below .claude/skills.
CLAUDE_CODE_PARAMETERS: dict[str, float] = {
    "listing_fraction": 0.01,
    "entry_cap_chars": 1536,
    "chars_per_token": 4,
    "discovery_depth": 1,
}
# Codex (render.rs): SKILL_METADATA_CONTEXT_WINDOW_PERCENT = 2, APPROX_BYTES_PER_TOKEN = 4,
# DEFAULT_SKILL_METADATA_CHAR_BUDGET = 8,000 (when the window is unknown);
# loader.rs: MAX_DESCRIPTION_LEN = 1,024, MAX_NAME_LEN = 64, MAX_SCAN_DEPTH = 6,
# MAX_SKILLS_DIRS_PER_ROOT = 2,000.
CODEX_PARAMETERS: dict[str, float] = {
    "listing_fraction": 0.02,
    "bytes_per_token": 4,
    "unknown_window_chars": 8000,
    "description_cap_chars": 1024,
    "name_cap_chars": 64,
    "scan_depth": 6,
    "scan_folders": 2000,
}
DEFAULTS: dict[str, dict[str, float]] = {CLAUDE_CODE: CLAUDE_CODE_PARAMETERS, CODEX: CODEX_PARAMETERS}
_FRACTIONS = frozenset({"listing_fraction"})


class BudgetSettings:
    """The agents to replay, the context window, and each agent's parameters in force. Frozen: see ``with_flags``."""

    __slots__ = ("agents", "context_window", "parameters")

    def __init__(
        self,
        agents: Sequence[str] = AGENTS,
        context_window: int = DEFAULT_CONTEXT_WINDOW,
        overrides: Mapping[str, Mapping[str, float]] | None = None,
    ) -> None:
        self.agents: Final = tuple(agents)
        self.context_window: Final = context_window
        self.parameters: Final = {agent: {**DEFAULTS[agent], **(overrides or {}).get(agent, {})} for agent in AGENTS}

    @classmethod
    def from_section(cls, section: Mapping[str, object]) -> BudgetSettings:
        """The settings of a ``budget:`` mapping that ``check_budget_section`` passed; its keys over the defaults."""
        agents, window, overrides = (section.get(key) for key in ("agents", "context_window", "parameters"))
        return cls(
            agents if isinstance(agents, list) else AGENTS,
            window if isinstance(window, int) else DEFAULT_CONTEXT_WINDOW,
            overrides if isinstance(overrides, dict) else None,
        )

    def with_flags(self, *, agent: str | None, context_window: int | None) -> BudgetSettings:
        """These settings under ``--agent`` (one agent, or ``all``) and ``--context-window``, where given."""
        agents = self.agents if not agent else AGENTS if agent == "all" else (agent,)
        return BudgetSettings(agents, context_window or self.context_window, self.parameters)


def check_budget_section(section: Mapping[object, object], path: str) -> None:
    """Refuse an unknown key, agent or parameter, or a value of the wrong kind, naming it."""
    for key, value in section.items():
        if key == "agents":
            check_agents(value, f"{path}: budget: agents")
        elif key == "context_window":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UsageError(f"{path}: budget: context_window must be a number of tokens", "write: 200000")
        elif key == "parameters":
            _check_parameters(value, path)
        else:
            raise UsageError(f"{path}: budget: unknown key {key!r}", "the keys are: agents, context_window, parameters")


def check_agents(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not value or any(agent not in AGENTS for agent in value):
        raise UsageError(f"{where} must be a list of {', '.join(AGENTS)}", f"write: [{', '.join(AGENTS)}]")
    return value


def _check_parameters(value: object, path: str) -> None:
    if not isinstance(value, dict):
        raise UsageError(f"{path}: budget: parameters must map agents to numbers", "write: {codex: {scan_depth: 6}}")
    for agent, numbers in value.items():
        if agent not in DEFAULTS or not isinstance(numbers, dict):
            raise UsageError(
                f"{path}: budget: parameters: {agent!r} is not an agent", f"the agents: {', '.join(AGENTS)}"
            )
        for name, number in numbers.items():
            if name not in DEFAULTS[agent]:
                known = ", ".join(DEFAULTS[agent])
                raise UsageError(f"{path}: budget: parameters: {agent}: unknown {name!r}", f"the keys are: {known}")
            good = isinstance(number, (int, float)) and not isinstance(number, bool) and number > 0
            if not good or (name in _FRACTIONS and number >= 1) or (name not in _FRACTIONS and number != int(number)):
                raise UsageError(
                    f"{path}: budget: parameters: {agent}: {name} must be a positive number",
                    "a fraction below 1 for listing_fraction, a whole number for the others",
                )
