"""The parameters of each agent's native skill listing, with where each number comes from.

Pure. Each agent's sources (file and commit, or package and version) are
named in docs/budget.md: Claude Code's rule is read from its npm bundle, the
others from their code. Each number can be changed under ``budget:
{parameters: {AGENT: {KEY: VALUE}}}`` in .skillmem.yaml, for an agent build
that differs.
"""

from __future__ import annotations

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Final

CLAUDE_CODE = "claude-code"
CODEX = "codex"
COPILOT_CLI = "copilot-cli"
VSCODE = "vscode"
GEMINI_CLI = "gemini-cli"
OPENCODE = "opencode"
AGENTS = (CLAUDE_CODE, CODEX, COPILOT_CLI, VSCODE, GEMINI_CLI, OPENCODE)
TITLES = {
    CLAUDE_CODE: "Claude Code",
    CODEX: "Codex",
    COPILOT_CLI: "Copilot CLI",
    VSCODE: "VS Code",
    GEMINI_CLI: "Gemini CLI",
    OPENCODE: "OpenCode",
}
DEFAULT_CONTEXT_WINDOW = 200_000

# Claude Code 2.1.328: the listing may take 1% of the context window, 4 characters a
# token; each entry (description, " - ", when_to_use) is cut at 1,536 characters; over
# budget, descriptions collapse to names, entry by entry; skills are found one folder
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
# MAX_SKILLS_DIRS_PER_ROOT = 2,000; loader/discovery.rs: MAX_SKILLS_ENTRIES_PER_ROOT = 20,000.
CODEX_PARAMETERS: dict[str, float] = {
    "listing_fraction": 0.02,
    "bytes_per_token": 4,
    "unknown_window_chars": 8000,
    "description_cap_chars": 1024,
    "name_cap_chars": 64,
    "scan_depth": 6,
    "scan_folders": 2000,
    "scan_entries": 20000,
}
# Copilot CLI 1.0.57: whole entries within 15,000 characters (SKILL_CHAR_BUDGET), the rest
# named within 5,000 (its 46-character lead-in counted); a name over 64 or a description
# over 1,024 characters is a load error.
COPILOT_CLI_PARAMETERS: dict[str, float] = {
    "budget_chars": 15000,
    "names_chars": 5000,
    "description_cap_chars": 1024,
    "name_cap_chars": 64,
}
# VS Code agent mode (automaticInstructionsCollector.ts): SKILL_DESCRIPTION_CHAR_BUDGET =
# 15,000, TRUNCATED_NAMES_CHAR_BUDGET = 5,000; names and descriptions cut at 64 and 1,024.
VSCODE_PARAMETERS: dict[str, float] = {
    "budget_chars": 15000,
    "names_chars": 5000,
    "description_cap_chars": 1024,
    "name_cap_chars": 64,
}
# Gemini CLI and OpenCode list every skill: only the estimate of tokens is a parameter.
GEMINI_CLI_PARAMETERS: dict[str, float] = {"chars_per_token": 4}
OPENCODE_PARAMETERS: dict[str, float] = {"chars_per_token": 4}
DEFAULTS: dict[str, dict[str, float]] = {
    CLAUDE_CODE: CLAUDE_CODE_PARAMETERS,
    CODEX: CODEX_PARAMETERS,
    COPILOT_CLI: COPILOT_CLI_PARAMETERS,
    VSCODE: VSCODE_PARAMETERS,
    GEMINI_CLI: GEMINI_CLI_PARAMETERS,
    OPENCODE: OPENCODE_PARAMETERS,
}
_FRACTIONS = frozenset({"listing_fraction"})
# The largest whole number a parameter or the context window takes: a thousand times today's largest window
# (10 million tokens), where PyYAML alone stops only at 10**18 and a float such as 1.0e+17 is a whole number.
WHOLE_MAX = 1_000_000_000
# A folder path of 4,096 bytes (PATH_MAX) has at most 2,048 levels ("a/" each): no scan goes deeper.
DEPTH_MAX = 2048
_DEPTHS = frozenset({"scan_depth", "discovery_depth"})


class BudgetSettings:
    """The agents to replay, the context window, and each agent's parameters in force. Frozen: see ``with_flags``.

    ``agents`` is empty when neither the configuration nor a flag names any:
    the command then chooses them from what the repository shows (``choice.py``).
    """

    __slots__ = ("agents", "context_window", "parameters")

    def __init__(
        self,
        agents: Sequence[str] = (),
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
            _expand(agents) if isinstance(agents, list) else (),
            window if isinstance(window, int) else DEFAULT_CONTEXT_WINDOW,
            overrides if isinstance(overrides, dict) else None,
        )

    def with_flags(self, *, agents: Sequence[str] | None, context_window: int | None) -> BudgetSettings:
        """These settings under ``--agent`` (repeatable; ``all`` for every agent) and ``--context-window``."""
        if context_window is not None and not context_window <= WHOLE_MAX:
            raise UsageError(_WINDOW_RANGE.format(where="--context-window"), "write: --context-window 200000")
        return BudgetSettings(
            _expand(agents) if agents else self.agents, context_window or self.context_window, self.parameters
        )


def _expand(agents: Sequence[str]) -> tuple[str, ...]:
    """The agents named, each once, in the order given; ``all`` stands for every agent."""
    if "all" in agents:
        return AGENTS
    return tuple(dict.fromkeys(agents))


def check_budget_section(section: Mapping[object, object], path: str) -> None:
    """Refuse an unknown key, agent or parameter, or a value of the wrong kind, naming it."""
    for key, value in section.items():
        if key == "agents":
            check_agents(value, f"{path}: budget: agents")
        elif key == "context_window":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= WHOLE_MAX:
                raise UsageError(_WINDOW_RANGE.format(where=f"{path}: budget: context_window"), "write: 200000")
        elif key == "parameters":
            _check_parameters(value, path)
        else:
            raise UsageError(f"{path}: budget: unknown key {key!r}", "the keys are: agents, context_window, parameters")


_WINDOW_RANGE = "{where} must be a number of tokens, from 1 to " + f"{WHOLE_MAX:,}"


def check_agents(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not value or any(agent not in (*AGENTS, "all") for agent in value):
        raise UsageError(f"{where} must be a list of {', '.join(AGENTS)} (or all)", "write: [claude-code, codex]")
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
            _check_parameter(f"{path}: budget: parameters: {agent}: {name}", name, number)


def _check_parameter(where: str, name: str, number: object) -> None:
    """Refuse a parameter out of its range: a fraction above 0 and below 1, a depth or another whole number."""
    if name in _FRACTIONS:
        kind, low, high = "a fraction", "above 0", "below 1"
    else:
        kind, low, high = "a whole number", "from 1", f"to {_top(name):,}"
    if isinstance(number, (int, float)) and not isinstance(number, bool):
        fits = 0 < number < 1 if name in _FRACTIONS else 1 <= number <= _top(name) and number == int(number)
        if fits:
            return
    raise UsageError(f"{where} must be {kind}, {low} {high}", f"write a number in that range, or remove {name}")


def _top(name: str) -> int:
    return DEPTH_MAX if name in _DEPTHS else WHOLE_MAX
