"""End-to-end: the skill-budget hook under the real pre-commit, for the agents beyond Claude Code and Codex.

The hook takes the command's options (``--agent`` repeated in ``args``), and
without them replays the agents the repository shows. A skill set kept in
``.agents/skills`` with ``.claude/skills`` linked to it is one skill set for
every agent.
"""

from __future__ import annotations

import os

import pytest

from ..helpers import skill_md, write_skill
from .repos import empty_repo, hooks_config

pytestmark = pytest.mark.precommit


@pytest.fixture
def repo(hook_repo, tmp_path):
    """Skills in .agents/skills, .claude/skills a link to it, and a skill two folders deep."""
    repo = empty_repo(hook_repo, tmp_path / "user")
    write_skill(repo.path / ".agents/skills", "pdf", skill_md("pdf", "Read PDF files"))
    write_skill(repo.path / ".agents/skills", "group/deploy", skill_md("deploy", "Deploy the app"))
    (repo.path / ".claude").mkdir()
    os.symlink("../.agents/skills", repo.path / ".claude/skills")
    repo.hook = hooks_config(hook_repo, "      - id: skill-budget\n")  # type: ignore[attr-defined]
    return repo


def test_the_hook_takes_repeated_agents_in_its_args_and_says_what_to_do(repo):
    (repo.path / ".pre-commit-config.yaml").write_text(
        repo.hook + "        args: [--root, .agents/skills, --agent, copilot-cli, --agent, gemini-cli]\n"
    )
    repo.git("add", "-A")
    failing = repo.pre_commit("run", "skill-budget", "--all-files")
    assert "exit code: 1" in failing.stdout
    assert "agents: copilot-cli, gemini-cli (from --agent)" in failing.stdout
    assert "copilot-cli (200,000-token window): listing of" in failing.stdout  # Copilot finds both, at any depth
    assert "  1 not listed: 2 folders below .agents/skills; Gemini CLI looks 1 down\n    deploy\n" in failing.stdout
    assert "    - move it to .agents/skills/<name>/SKILL.md (one down;" in failing.stdout
    repo.git("mv", ".agents/skills/group/deploy", ".agents/skills/deploy")
    assert repo.pre_commit("run", "skill-budget", "--all-files").returncode == 0


def test_without_agents_the_hook_replays_those_the_repository_shows(repo):
    (repo.path / ".pre-commit-config.yaml").write_text(repo.hook + "        args: [--root, .agents/skills]\n")
    repo.git("add", "-A")
    result = repo.pre_commit("run", "skill-budget", "--all-files")
    # .claude/skills (a link to .agents/skills) shows Claude Code, .agents/skills Codex: deploy is two down for
    # Claude Code, within Codex's six; the same skills through the link, not skills Claude Code lacks
    assert (
        "agents: claude-code (.claude/skills), codex (.agents/skills), from what the repository holds" in result.stdout
    )
    assert "  1 not listed: 2 folders below .claude/skills; Claude Code looks 1 down\n    deploy\n" in result.stdout
    assert "codex (200,000-token window): listing of" in result.stdout and "Codex looks" not in result.stdout
