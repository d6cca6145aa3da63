"""A root the repository names outside its work tree is said on every path that feeds the agent (hostile11's
F2): search's JSON and --text, read's stderr, the route hook's stderr (from its kept index, warm or not),
MCP's answers and instructions. A root the user names with --root, or one inside the repository, is not."""

from __future__ import annotations

import shutil

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.agents.mcp_tools import call_tool
from skillmem_hook.catalog.listing import NAMED_OUTSIDE

from ...helpers import hint_of, run_cli, run_route, skill_md, write_skill
from ..git_repo import git

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.usefixtures("git_identity"),
]
NOTICE = f"skills root ../personal {NAMED_OUTSIDE}"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """``roots: [../personal]`` committed; ``personal/private-skill`` beside the repository."""
    write_skill(tmp_path / "personal", "private-skill", skill_md("private-skill", "Internal deploy keys"))
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", str(repo))
    (repo / ".skillmem.yaml").write_text("roots: [../personal]\nprompt_files: [AGENTS.md]\n")
    (repo / "AGENTS.md").write_text("# Agents\n")
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "outside", cwd=repo)
    monkeypatch.chdir(repo)
    return repo


def test_search_and_read_say_the_root_lies_outside(repo, capsys):
    found = run_cli(capsys, "search", "deploy", "keys")
    assert found.data["notices"] == [{"root": "../personal", "notice": NAMED_OUTSIDE}]
    assert [hit["name"] for hit in found.data["results"]] == ["private-skill"]
    again = run_cli(capsys, "search", "deploy", "keys")  # from the stored index: said as well
    assert again.data["notices"] == found.data["notices"]
    text = run_cli(capsys, "search", "--text", "deploy", "keys")
    assert text.out.startswith(f"note: {NOTICE}\n")
    listed = run_cli(capsys, "search", "--domain", found.data["results"][0]["domain"])
    assert listed.data["notices"] == found.data["notices"]
    read = run_cli(capsys, "read", "private-skill")
    assert read.code == 0
    assert read.out.startswith("---\nname: private-skill")  # the file's bytes, unchanged
    assert read.err == f"skillmem read: {NOTICE}\n"


def test_a_root_the_user_names_is_said_nowhere(repo, capsys):
    found = run_cli(capsys, "search", "deploy", "keys", "--root", "../personal")
    assert "notices" not in found.data
    assert found.data["results"]
    read = run_cli(capsys, "read", "private-skill", "--root", "../personal")
    assert (read.code, read.err) == (0, "")


def test_a_root_inside_the_repository_is_said_nowhere(repo, capsys):
    write_skill(repo / "skills", "inside", skill_md("inside", "Deploy keys rotation"))
    (repo / ".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    (repo / "sub").mkdir()
    found = run_cli(capsys, "search", "deploy", "keys")
    assert "notices" not in found.data
    (repo / "sub" / ".skillmem.yaml").write_text("roots: [../skills]\nprompt_files: [../AGENTS.md]\n")
    found = run_cli(capsys, "search", "deploy", "keys", "--text")
    assert "note:" not in found.out  # ../skills from sub/ lies outside the folder, inside the work tree


def test_the_route_hook_says_it_on_stderr_cold_and_warm(repo, env):
    for _ in range(2):  # the second prompt reads the kept route index
        routed = run_route("please use the private-skill skill", repo, env)
        assert "private-skill" in hint_of(routed)
        assert f"skillmem route: {NOTICE}\n".encode() in routed.stderr
        assert b"outside" not in routed.stdout  # the hint itself is unchanged


def test_mcp_says_it_in_answers(repo):
    library = SkillLibrary()
    read = call_tool(library, "skill_read", {"name": "private-skill"})
    assert read["notice"] == NOTICE
    found = call_tool(library, "skill_search", {"intent": "deploy keys"})
    assert found["notices"] == [NOTICE]
    own = SkillLibrary(["../personal"])
    assert "notice" not in call_tool(own, "skill_read", {"name": "private-skill"})


def test_mcp_says_it_in_its_instructions(repo):
    pytest.importorskip("anyio", reason="the MCP server's runtime (the [mcp] extra, Python 3.10+) is not installed")
    from skillmem_hook.agents.mcp_server import INSTRUCTIONS, instructions  # the [mcp] extra: imported only here

    library = SkillLibrary()
    assert "of this repository" not in instructions(library)
    assert NOTICE in instructions(library)
    assert instructions(SkillLibrary(["../personal"])) == INSTRUCTIONS
