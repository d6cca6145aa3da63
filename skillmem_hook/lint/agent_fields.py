"""The frontmatter fields coding agents read beyond the Agent Skills spec's, the values each takes, and near misses.

Pure: a key and its located value in, problems out. A field a supported
agent acts on (Claude Code, GitHub Copilot CLI, VS Code's agent mode, Codex,
Gemini CLI, OpenCode: docs/lint.md cites each one's code or documentation) is
no unknown field: its value is checked where the agent defines one, and
``--fix`` never moves it under ``metadata:``, where the agent stops seeing it.
A near miss of a field (``user-invokable``) is reported with the right
spelling and never moved either, since moving it would hide the typo.
"""

from __future__ import annotations

import functools
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.fields import Field
    from skillmem_hook.lint.rules import Problem

CLAUDE, COPILOT, VS_CODE = "Claude Code", "GitHub Copilot", "VS Code"
BOOLEAN, TEXT, TEXT_OR_LIST, MAPPING, HINT, CHOICE = "boolean", "text", "text or list", "mapping", "hint", "choice"

# field: (the kind of value, the agents that act on it). Claude Code 2.1.328's skill schema; Copilot CLI 1.0.x's;
# VS Code's computeSkillDiscoveryInfo. Codex, Gemini CLI and OpenCode read only the spec's fields.
AGENT_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "disable-model-invocation": (BOOLEAN, (CLAUDE, COPILOT, VS_CODE)),
    "user-invocable": (BOOLEAN, (CLAUDE, COPILOT, VS_CODE)),
    "argument-hint": (HINT, (CLAUDE, COPILOT, VS_CODE)),
    "when_to_use": (TEXT, (CLAUDE,)),
    "arguments": (TEXT_OR_LIST, (CLAUDE,)),
    "model": (TEXT, (CLAUDE,)),
    "effort": (CHOICE, (CLAUDE,)),
    "context": (CHOICE, (CLAUDE,)),
    "agent": (TEXT, (CLAUDE,)),
    "background": (BOOLEAN, (CLAUDE,)),
    "hooks": (MAPPING, (CLAUDE,)),
    "paths": (TEXT_OR_LIST, (CLAUDE,)),
    "shell": (CHOICE, (CLAUDE,)),
    "disallowed-tools": (TEXT_OR_LIST, (CLAUDE,)),
    "disallowedTools": (TEXT_OR_LIST, (CLAUDE,)),
}
# The values a choice takes; effort also takes a whole number. Claude Code's context alone may be empty (null).
CHOICES = {
    "context": ("inline", "fork"),
    "shell": ("bash", "powershell"),
    "effort": ("low", "medium", "high", "xhigh", "max"),
}
# Booleans as every agent reads them (YAML's own), and the words Claude Code alone also takes (since 2.1.218).
YAML_BOOLEANS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
CLAUDE_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0"})
NULLS = frozenset({"", "~", "null", "Null", "NULL"})
# Claude Code's own tools: a skill's `tools:` naming them meant `allowed-tools` (subagents and VS Code's prompt
# files say `tools`). CN's 273 `tools:` list the agents a skill works with (claude, cursor): metadata, left alone.
_TOOL = re.compile(
    r"(Bash|Read|Write|Edit|MultiEdit|Glob|Grep|LS|WebFetch|WebSearch|Task|NotebookEdit)(\(.*\))?|mcp__.+"
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_KINDS = {
    TEXT: "text",
    HINT: "text",
    TEXT_OR_LIST: "a string or a list of strings",
    MAPPING: "a mapping of hook events to hooks, as in settings.json",
}


def check_other_field(key: str, field: Field, spec_fields: tuple[str, ...]) -> list[Problem]:
    """The problems of a top-level field the spec does not define (SK105, SK107, SK133, SK134)."""
    if key in AGENT_FIELDS:
        return check_agent_value(key, field)
    meant = near_miss(key, field.value, spec_fields)
    if meant is None:
        return [("SK105", field.key, f"unknown field '{key}'; move it under 'metadata:' or remove it")]
    return [("SK107", field.key, f"unknown field '{key}'; did you mean '{meant}'? Rename it: {_why(key, meant)}")]


def is_unknown(key: str, value: object, spec_fields: tuple[str, ...]) -> bool:
    """Whether no agent reads the field and it is no near miss of one: what ``--fix`` may move under metadata."""
    return key not in spec_fields and key not in AGENT_FIELDS and near_miss(key, value, spec_fields) is None


def near_miss(key: str, value: object, spec_fields: tuple[str, ...]) -> str | None:
    """The field ``key`` was probably meant to be: same words in another case or separator, or a letter or two off."""
    if key == "tools":
        return "allowed-tools" if _names_tools(value) else None
    return _misspelt(key, spec_fields)


@functools.lru_cache(maxsize=1024)
def _misspelt(key: str, spec_fields: tuple[str, ...]) -> str | None:
    """``near_miss`` of a key but ``tools``, once per key: a collection repeats a few keys thousands of times."""
    known = [(field, _words(field)) for field in (*spec_fields, *AGENT_FIELDS)]
    if any(key == field for field, _ in known):
        return None
    words = _words(key)
    for field, field_words in known:
        if field_words == words:
            return field
    allowed = 2 if len(words) >= 10 else 1 if len(words) >= 5 else 0
    close = [(_distance(words, other), field) for field, other in known if abs(len(other) - len(words)) <= allowed]
    distance, field = min(close, default=(0, ""), key=lambda pair: pair[0])
    return field if 0 < distance <= allowed else None


def check_agent_value(key: str, field: Field) -> list[Problem]:
    """SK133 when the agent cannot use the value; SK134 when one agent can and another that reads the field cannot."""
    kind, agents = AGENT_FIELDS[key]
    value, at = field.value, field.value_at
    if field.plain and value in NULLS:
        return [] if key == "context" else [("SK133", at, f"'{key}' has no value; write one or remove the line")]
    if kind == BOOLEAN:
        return _check_boolean(key, field, agents)
    if kind == HINT and isinstance(value, list):
        return [("SK134", at, f"'{key}' is a list: {CLAUDE} reads it as text, {VS_CODE} ignores it; write one string")]
    if kind == CHOICE:
        return _check_choice(key, field)
    wrong = {
        TEXT: not isinstance(value, str),
        HINT: not isinstance(value, str),
        TEXT_OR_LIST: not _is_text_or_text_list(value),
        MAPPING: not isinstance(value, dict),
    }[kind]
    return [("SK133", at, f"'{key}' must be {_KINDS[kind]}")] if wrong else []


def _check_choice(key: str, field: Field) -> list[Problem]:
    value, choices = field.value, CHOICES[key]
    if value in choices or (key == "effort" and isinstance(value, str) and value.isascii() and value.isdigit()):
        return []
    listed = f"one of {', '.join(choices)} or a whole number" if key == "effort" else " or ".join(choices)
    return [("SK133", field.value_at, f"'{key}' must be {listed}")]


def _check_boolean(key: str, field: Field, agents: tuple[str, ...]) -> list[Problem]:
    value = field.value
    if isinstance(value, str) and field.plain and value in YAML_BOOLEANS:
        return []
    if not (isinstance(value, str) and value.strip().lower() in CLAUDE_BOOLEANS):
        return [("SK133", field.value_at, f"'{key}' must be true or false")]
    if agents == (CLAUDE,):
        return []
    meant = "true" if value.strip().lower() in ("true", "yes", "on", "1") else "false"
    others = " and ".join(agent for agent in agents if agent != CLAUDE)
    return [("SK134", field.value_at, f"{CLAUDE} reads '{key}' as {meant}, {others} do not; write {meant}")]


def _why(key: str, meant: str) -> str:
    if key == "user-invokable":
        return f"only {VS_CODE} still reads this old spelling"
    if key == "tools":
        return "a skill's tools are its 'allowed-tools' ('tools' is a subagent's)"
    if meant not in AGENT_FIELDS:
        return f"'{meant}' is the spec's field"
    readers = AGENT_FIELDS[meant][1]
    named = readers[0] if len(readers) == 1 else ", ".join(readers[:-1]) + " and " + readers[-1]
    return f"{named} read{'s' if len(readers) == 1 else ''} '{meant}'"


def _names_tools(value: object) -> bool:
    items = value if isinstance(value, list) else re.split(r"[,\s]+", value) if isinstance(value, str) else []
    return any(isinstance(item, str) and _TOOL.fullmatch(item.strip()) for item in items)


def _words(key: str) -> str:
    """A key's words, lowercase and joined by '-': allowedTools, allowed_tools and Allowed-Tools are one."""
    return _CAMEL.sub("-", key).replace("_", "-").lower()


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) that make ``a`` into ``b`` (Damerau-Levenshtein, OSA)."""
    previous, current = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
    return current[len(b)]


def _is_text_or_text_list(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(item, str) for item in value))
