"""Issue 17 through a real ``git commit`` with the real pre-commit: what a commit can make the hooks do.

A repository's content is untrusted; the person committing, their git
directory and their machine are what the hooks protect.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ..helpers import skill_md, write_skill
from .repos import make_repo

pytestmark = pytest.mark.precommit


def _commit_link(repo, target: str) -> None:
    repo.git("rm", "-q", "AGENTS.md")
    os.symlink(target, repo.path / "AGENTS.md")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "link AGENTS.md", "--no-verify")


def test_a_committed_link_to_git_config_stops_the_commit_and_writes_nothing(repo):
    config = repo.path / ".git" / "config"
    _commit_link(repo, ".git/config")
    before = config.read_bytes()
    write_skill(repo.path / "skills", "gamma", skill_md("gamma", "A new skill"))
    repo.git("add", "-A")
    stopped = repo.commit("add gamma")
    output = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0
    assert "'AGENTS.md' (through the symlink 'AGENTS.md' -> '.git/config')" in output
    assert "inside the git directory" in output
    assert config.read_bytes() == before
    assert repo.git("status", "--porcelain").returncode == 0  # git still reads its configuration


def test_a_committed_link_to_an_ignored_file_stops_the_commit_instead_of_passing(repo):
    (repo.path / ".gitignore").write_text(".env\n")
    (repo.path / ".env").write_bytes(b"SECRET=abc\n")
    repo.git("add", ".gitignore")
    _commit_link(repo, ".env")
    write_skill(repo.path / "skills", "gamma", skill_md("gamma", "A new skill"))
    repo.git("add", "-A")
    stopped = repo.commit("add gamma")
    assert stopped.returncode != 0
    assert "lands on '.env', which git does not track" in stopped.stdout + stopped.stderr
    assert (repo.path / ".env").read_bytes() == b"SECRET=abc\n"


def test_a_skills_root_that_exists_nowhere_stops_the_commit_as_the_cli_does(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "user")
    config = repo.path / ".pre-commit-config.yaml"
    config.write_text(config.read_text().replace("--root, skills,", "--root, skils,"))
    repo.git("add", "-A")
    before = (repo.path / "AGENTS.md").read_bytes()
    stopped = repo.commit("typo")
    output = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0
    assert "the skills root 'skils' does not exist" in output
    assert (repo.path / "AGENTS.md").read_bytes() == before
    assert Path(repo.path / "skills").is_dir()
