"""The agents ``budget`` replays by default (those the repository shows), and which agents read the block."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillmem_hook.budget.choice import block_readers, choose_agents


def make(*paths):
    for path in paths:
        if path.endswith(".md") or path.endswith(".json"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text("# prompt\n")
        else:
            Path(path).mkdir(parents=True)


@pytest.mark.parametrize(
    ("present", "chosen"),
    [
        ((), {"claude-code": [], "codex": []}),
        ((".claude/skills",), {"claude-code": [".claude/skills"]}),
        (("CLAUDE.md", "AGENTS.md"), {"claude-code": ["CLAUDE.md"], "codex": ["AGENTS.md"]}),
        (
            (".github/skills",),
            {"copilot-cli": [".github/skills"], "vscode": [".github/skills"]},
        ),
        (
            (".github/copilot-instructions.md",),
            {"copilot-cli": [".github/copilot-instructions.md"], "vscode": [".github/copilot-instructions.md"]},
        ),
        ((".gemini/skills", "GEMINI.md"), {"gemini-cli": [".gemini", "GEMINI.md"]}),
        ((".opencode/skills",), {"opencode": [".opencode"]}),
        (("opencode.json", ".agents/skills"), {"codex": [".agents/skills"], "opencode": ["opencode.json"]}),
    ],
)
def test_the_default_agents_are_those_the_repository_shows(present, chosen):
    make(*present)
    assert choose_agents(os.getcwd()) == chosen


def test_each_agent_reads_the_block_in_its_own_prompt_file_or_through_an_import():
    make("AGENTS.md", "GEMINI.md")
    Path("CLAUDE.md").write_text("See @AGENTS.md\n")
    readers = block_readers(["AGENTS.md"], os.getcwd())
    assert readers == {
        "claude-code": ["AGENTS.md (through CLAUDE.md)"],
        "codex": ["AGENTS.md"],
        "copilot-cli": ["AGENTS.md"],
        "vscode": ["AGENTS.md"],
        "gemini-cli": [],  # GEMINI.md imports nothing, and Gemini CLI reads no AGENTS.md of itself
        "opencode": ["AGENTS.md"],
    }


def test_opencode_reads_claude_md_only_when_there_is_no_agents_md():
    make("CLAUDE.md")
    assert block_readers(["CLAUDE.md"], os.getcwd())["opencode"] == ["CLAUDE.md"]
    make("AGENTS.md")
    assert block_readers(["CLAUDE.md"], os.getcwd())["opencode"] == []
