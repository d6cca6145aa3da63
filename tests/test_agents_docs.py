"""The docs' client snippets for the agent commands parse, and start commands that exist."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from skillmem_hook.cli import COMMANDS

from .helpers import docs_text


def blocks(language):
    return re.findall(rf"```{language}\n(.*?)```", docs_text(), re.S)


def started(command, args=()):
    words = [*shlex.split(command), *args]
    assert words[0] == "skillmem"
    assert words[1] in COMMANDS
    return words[1]


def test_the_claude_code_hook_snippet_runs_route_on_every_prompt():
    settings = next(json.loads(block) for block in blocks("json") if "UserPromptSubmit" in block)
    (entry,) = settings["hooks"]["UserPromptSubmit"]
    (hook,) = entry["hooks"]
    assert hook["type"] == "command"
    assert started(hook["command"]) == "route"


def test_the_mcp_snippets_start_the_mcp_server():
    servers = next(json.loads(block) for block in blocks("json") if "mcpServers" in block)["mcpServers"]
    assert started(servers["skillmem"]["command"], servers["skillmem"]["args"]) == "mcp"
    (claude_add,) = [line for block in blocks("sh") for line in block.splitlines() if line.startswith("claude mcp")]
    assert started(" ".join(claude_add.split(" -- ")[1:])) == "mcp"


def test_the_codex_snippet_is_toml_that_starts_the_mcp_server():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    (codex,) = [tomllib.loads(block) for block in blocks("toml") if "mcp_servers" in block]
    server = codex["mcp_servers"]["skillmem"]
    assert started(server["command"], server["args"]) == "mcp"


def test_the_agents_md_sentence_names_the_search_command():
    (sentence,) = blocks("markdown")
    assert 'skillmem search "' in sentence
