"""The fields agents read beyond the spec: accepted with the values they take, near misses named, never moved.

The facts (which agent reads which field, and what it takes) are those docs/lint.md cites.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lint.agent_fields import AGENT_FIELDS, near_miss
from skillmem_hook.lint.check import lint_skill_file
from skillmem_hook.lint.fix import fix_skill_file
from skillmem_hook.lint.spec import ALLOWED_FIELDS

from ..helpers import CLAUDE_CODE_SKILL as CLAUDE_CODE_TEXT

CLAUDE_CODE_SKILL = CLAUDE_CODE_TEXT.encode()


def findings(extra: str) -> list[tuple[str, int, int, str]]:
    data = f"---\nname: a\ndescription: d\n{extra}\n---\n".encode()
    result = lint_skill_file(data, path="p", folder="a", subfolders=[], exists=lambda _: True, quality=False)
    return [(finding.code, finding.line, finding.col, finding.message) for finding in result.findings]


def codes(extra: str) -> list[str]:
    return [code for code, _, _, _ in findings(extra)]


def test_a_valid_claude_code_skill_has_no_finding_and_nothing_to_fix():
    result = lint_skill_file(
        CLAUDE_CODE_SKILL, path="p", folder="deploy-prod", subfolders=[], exists=lambda _: True, quality=False
    )
    assert [finding.as_text() for finding in result.findings] == []
    assert fix_skill_file(CLAUDE_CODE_SKILL, "deploy-prod") == (CLAUDE_CODE_SKILL, [])


@pytest.mark.parametrize(
    "extra",
    [
        "disable-model-invocation: false",
        "user-invocable: TRUE",
        "argument-hint: '[issue-number] [priority]'",
        "when_to_use: When the user asks to ship",
        "arguments: [environment, region]",
        "arguments: environment region",
        "model: inherit",
        "effort: xhigh",
        "effort: 12",
        "context: inline",
        "context:",  # Claude Code's context alone may be null
        "agent: Explore",
        "background: no",  # Claude Code reads it, and Claude Code alone: its words for booleans are enough
        "background: 'off'",
        "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: ./check.sh}",
        "hooks: {}",
        "paths: 'src/**/*.py, tests/**'",
        "paths:\n  - src/**/*.py",
        "shell: powershell",
        "disallowed-tools: Bash(rm *)",
        "disallowedTools: [WebFetch]",
        "allowed-tools: Read, Glob, Grep",
    ],
)
def test_an_agents_field_with_a_value_it_takes_is_no_finding(extra):
    assert findings(extra) == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("disable-model-invocation: maybe", "'disable-model-invocation' must be true or false"),
        ("user-invocable: [true]", "'user-invocable' must be true or false"),
        ("background: 2", "'background' must be true or false"),
        ("user-invocable:", "'user-invocable' has no value; write one or remove the line"),
        ("context: Fork", "'context' must be inline or fork"),
        ("context: [fork]", "'context' must be inline or fork"),
        ("shell: zsh", "'shell' must be bash or powershell"),
        ("effort: extreme", "'effort' must be one of low, medium, high, xhigh, max or a whole number"),
        ("effort: -1", "'effort' must be one of low, medium, high, xhigh, max or a whole number"),
        ("model: {name: opus}", "'model' must be text"),
        ("agent: [Explore]", "'agent' must be text"),
        ("argument-hint: {a: b}", "'argument-hint' must be text"),
        ("paths: {src: yes}", "'paths' must be a string or a list of strings"),
        ("disallowed-tools: [[Bash]]", "'disallowed-tools' must be a string or a list of strings"),
        ("hooks: ./hooks.json", "'hooks' must be a mapping of hook events to hooks, as in settings.json"),
    ],
)
def test_a_value_the_agent_cannot_use_is_sk133_at_the_value(extra, message):
    [(code, line, col, said)] = findings(extra)
    key, value = extra.split(":", 1)
    assert (code, line, said) == ("SK133", 4, message)
    assert col == (len(key) + 3 if value else len(key) + 2)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "disable-model-invocation: yes",
            "Claude Code reads 'disable-model-invocation' as true, GitHub Copilot and VS Code do not; write true",
        ),
        (
            "user-invocable: 'false'",
            "Claude Code reads 'user-invocable' as false, GitHub Copilot and VS Code do not; write false",
        ),
        (
            "user-invocable: Off",
            "Claude Code reads 'user-invocable' as false, GitHub Copilot and VS Code do not; write false",
        ),
        (
            "argument-hint: [url, format]",
            "'argument-hint' is a list: Claude Code reads it as text, VS Code ignores it; write one string",
        ),
    ],
)
def test_a_value_one_agent_takes_and_another_does_not_is_a_warning(extra, message):
    assert [(code, said) for code, _, _, said in findings(extra)] == [("SK134", message)]


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("user-invokable", "user-invocable"),  # 16 real skills in skills-cn
        ("disable-model-invokation", "disable-model-invocation"),
        ("disableModelInvocation", "disable-model-invocation"),
        ("allowed_tools", "allowed-tools"),
        ("allowedTools", "allowed-tools"),
        ("argument_hint", "argument-hint"),
        ("when-to-use", "when_to_use"),
        ("whenToUse", "when_to_use"),
        ("Description", "description"),
        ("licence", "license"),
        ("contxet", "context"),
        ("user-invocable2", "user-invocable"),
    ],
)
def test_a_near_miss_names_the_field_it_misses(key, meant):
    [(code, line, col, message)] = findings(f"{key}: true")
    assert (code, line, col) == ("SK107", 4, 1)
    assert message.startswith(f"unknown field '{key}'; did you mean '{meant}'? Rename it: ")


def test_the_misspelling_real_skills_carry_says_who_still_reads_it():
    [(_, _, _, message)] = findings("user-invokable: true")
    assert message.endswith("only VS Code still reads this old spelling")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("Read, Grep", "SK107"),  # Claude Code's tools: the skill meant allowed-tools
        ("[Bash(git *), Read]", "SK107"),
        ("mcp__claude_ai_Figma__use_figma, Read", "SK107"),
        ("[claude, cursor, gemini]", "SK105"),  # the agents a skill works with (273 in skills-cn): metadata
        ("\n  - claude-code\n  - antigravity", "SK105"),
        ("ruff and mypy", "SK105"),
    ],
)
def test_tools_is_a_near_miss_of_allowed_tools_only_when_it_names_claude_codes_tools(value, code):
    assert codes(f"tools: {value}") == [code]


# The unknown keys of the two real collections (every one of them; docs/lint.md counts them): none is a near miss.
REAL_UNKNOWN = [
    "source",
    "risk",
    "date_added",
    "source_type",
    "source_repo",
    "author",
    "tags",
    "license_source",
    "category",
    "version",
    "plugin",
    "reports-to",
    "squad",
    "role",
    "phase",
    "depends-on",
    "id",
    "triggers",
    "displayName",
    "color",
    "upstream",
    "homepage",
    "trigger",
    "spec_version",
    "repository",
    "priority",
    "outputs",
    "origin",
    "docs",
    "capabilities",
    "bundle",
]


@pytest.mark.parametrize("key", REAL_UNKNOWN)
def test_a_field_no_agent_reads_stays_unknown_with_the_message_baselines_hold(key):
    assert findings(f"{key}: x") == [("SK105", 4, 1, f"unknown field '{key}'; move it under 'metadata:' or remove it")]


FIELDS_READ = st.sampled_from([*AGENT_FIELDS, "user-invokable", "allowedTools", "disable_model_invocation", "licence"])
ONE_LINE = st.sampled_from(["true", "yes", "fork", "'[env]'", "Read", "opus", "x y"])


@given(FIELDS_READ, ONE_LINE, st.sampled_from(["", "version: 1\n", "metadata:\n  a: b\n"]))
def test_fix_never_moves_a_field_an_agent_reads_nor_a_near_miss_of_one(key, value, around):
    data = f"---\nname: a\ndescription: d\n{around}{key}: {value}\n---\nbody\n".encode()
    fixed, _ = fix_skill_file(data, "a")
    assert f"\n{key}: {value}\n".encode() in fixed  # still at the top level, as written


def test_near_miss_is_none_for_every_field_itself():
    assert [field for field in (*ALLOWED_FIELDS, *AGENT_FIELDS) if near_miss(field, "x", ALLOWED_FIELDS)] == []
