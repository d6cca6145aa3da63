"""``skillmem mcp`` end to end, through real MCP clients: the SDK's stdio client and the MCP Inspector CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from ..helpers import skill_md, write_skill

mcp = pytest.importorskip("mcp", reason="the MCP Python SDK is not installed (the [mcp] extra, Python 3.10+)")
anyio = pytest.importorskip("anyio")

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

SERVER = [sys.executable, "-m", "skillmem_hook", "mcp"]


@pytest.fixture
def repo(tmp_path):
    """A repository whose skills sit in the common layout 'skills/'."""
    folder = tmp_path / "repo"
    write_skill(folder / "skills", "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    write_skill(folder / "skills", "docker-deploy", skill_md("docker-deploy", "Deploy containers with Docker"))
    write_skill(folder / "skills", "代码审查", skill_md("代码审查", "审查代码 的 质量"))
    return folder


def run_session(repo, steps):
    """Start the server in ``repo`` and run ``steps(session)`` inside one MCP session."""
    results = {}

    async def main():
        parameters = StdioServerParameters(command=SERVER[0], args=SERVER[1:], cwd=str(repo))
        with open(repo.parent / "server-stderr.txt", "w") as errors:
            async with stdio_client(parameters, errlog=errors) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                results.update(await steps(session))

    anyio.run(main)
    return results


def text_of(result):
    return "".join(part.text for part in result.content)


def test_the_sdk_client_lists_both_tools_with_their_arguments(repo):
    async def steps(session):
        return {"tools": (await session.list_tools()).tools}

    tools = {tool.name: tool for tool in run_session(repo, steps)["tools"]}
    assert set(tools) == {"skill_search", "skill_read"}
    assert set(tools["skill_search"].input_schema["properties"]) == {"intent", "top_k"}
    assert tools["skill_search"].input_schema["required"] == ["intent"]
    assert tools["skill_read"].input_schema["required"] == ["name"]


def test_search_returns_name_description_domain_and_the_repository_path(repo):
    async def steps(session):
        return {"found": await session.call_tool("skill_search", {"intent": "parse a csv file", "top_k": 2})}

    found = run_session(repo, steps)["found"]
    assert not found.is_error
    first = found.structured_content["results"][0]
    assert first == {
        "name": "csv-to-table",
        "description": "Parse CSV files into tables",
        "domain": "data-parsing",
        "path": "skills/csv-to-table/SKILL.md",
        "score": first["score"],
    }
    assert (repo / first["path"]).is_file()
    assert len(found.structured_content["results"]) <= 2


def test_read_returns_the_skill_text_and_errors_carry_a_hint_without_stopping_the_server(repo):
    async def steps(session):
        return {
            "read": await session.call_tool("skill_read", {"name": "代码审查"}),
            "unknown": await session.call_tool("skill_read", {"name": "no-such-skill"}),
            "empty": await session.call_tool("skill_search", {"intent": "   "}),
            "too_many": await session.call_tool("skill_search", {"intent": "csv", "top_k": 0}),
            "still_up": await session.call_tool("skill_search", {"intent": "docker deploy"}),
        }

    results = run_session(repo, steps)
    assert not results["read"].is_error
    assert text_of(results["read"]) == (repo / "skills" / "代码审查" / "SKILL.md").read_text()
    for name in ("unknown", "empty", "too_many"):
        assert results[name].is_error, name
        assert "Hint: " in text_of(results[name]), name
    assert "no-such-skill" in text_of(results["unknown"])
    assert results["still_up"].structured_content["results"][0]["name"] == "docker-deploy"


def test_a_skill_added_or_edited_while_the_server_runs_is_seen_on_the_next_call(repo):
    async def steps(session):
        before = await session.call_tool("skill_search", {"intent": "kubernetes helm charts"})
        write_skill(repo / "skills", "k8s-helm", skill_md("k8s-helm", "Write Kubernetes helm charts"))
        await anyio.sleep(1.0)  # the watcher checks the disk every quarter second
        added = await session.call_tool("skill_search", {"intent": "kubernetes helm charts"})
        write_skill(repo / "skills", "k8s-helm", skill_md("k8s-helm", "Kubernetes helm charts, edited"))
        await anyio.sleep(1.0)
        edited = await session.call_tool("skill_read", {"name": "k8s-helm"})
        return {"before": before, "added": added, "edited": edited}

    results = run_session(repo, steps)
    assert "k8s-helm" not in [hit["name"] for hit in results["before"].structured_content["results"]]
    assert results["added"].structured_content["results"][0]["name"] == "k8s-helm"
    assert "edited" in text_of(results["edited"])


def test_without_any_skills_root_the_server_stops_at_start_with_one_json_error_line(tmp_path):
    result = subprocess.run(SERVER, cwd=tmp_path, capture_output=True, text=True, input="", timeout=60)
    assert result.returncode == 2
    assert result.stdout == ""
    error = json.loads(result.stderr)
    assert error["tool"] == "skillmem mcp"
    assert "--root" in error["hint"]


def inspector(repo, *arguments):
    command = ["npx", "-y", "@modelcontextprotocol/inspector", "--cli", *SERVER, *arguments]
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.skipif(shutil.which("npx") is None, reason="npx (Node.js) is missing: the MCP Inspector CLI cannot run")
def test_the_mcp_inspector_cli_lists_and_calls_the_tools(repo):
    listed = inspector(repo, "--method", "tools/list")
    assert {tool["name"] for tool in listed["tools"]} == {"skill_search", "skill_read"}
    found = inspector(repo, "--method", "tools/call", "--tool-name", "skill_search", "--tool-arg", "intent=docker")
    assert found["isError"] is False
    assert found["structuredContent"]["results"][0]["path"] == "skills/docker-deploy/SKILL.md"
    missing = inspector(repo, "--method", "tools/call", "--tool-name", "skill_read", "--tool-arg", "name=nope")
    assert missing["isError"] is True
    assert "Hint: " in missing["content"][0]["text"]
