"""End-to-end with the real git and pre-commit: no hook passes having checked no prompt file.

The Chinese collection's ``.gitignore`` lists AGENTS.md, so a clone holds no
prompt file at all; ``pre-commit run --all-files`` used to pass there, having
compared nothing (newuser-3's M4).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ..helpers import skill_md, write_skill
from .repos import UserRepo, empty_repo, hooks_config, run

pytestmark = pytest.mark.precommit


def ignored_prompt_file_repo(hook_repo, path: Path) -> UserRepo:
    """Skills and the hooks committed; AGENTS.md configured, written, and ignored by git, so never committed."""
    repo = empty_repo(hook_repo, path)
    write_skill(path / "skills", "alpha", skill_md("alpha", "Parse CSV files"))
    (path / "AGENTS.md").write_bytes(b"# Agents\n")
    (path / ".gitignore").write_text("AGENTS.md\nCLAUDE.md\n")
    (path / ".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    (path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-index\n      - id: skill-verify\n        stages: [manual]\n")
    )
    repo.git("add", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", "import")
    assert "AGENTS.md" not in repo.git("ls-files").stdout
    return repo


def test_a_clone_without_its_ignored_prompt_file_fails_every_hook_and_says_why(hook_repo, tmp_path):
    origin = ignored_prompt_file_repo(hook_repo, tmp_path / "origin")
    clone = UserRepo(tmp_path / "clone", origin.env)
    run(["git", "clone", "-q", str(origin.path), str(clone.path)], tmp_path, origin.env)
    for args in (["run", "--all-files"], ["run", "skill-verify", "--all-files", "--hook-stage", "manual"]):
        result = clone.pre_commit(*args)
        assert result.returncode == 1, result.stdout
        assert "exit code: 2" in result.stdout
        assert "no prompt file it checks is in the commit" in result.stdout
        assert "AGENTS.md (absent here, and git ignores it)" in result.stdout
        assert "git check-ignore -v AGENTS.md" in result.stdout
    assert not (clone.path / "AGENTS.md").exists()


def test_the_ignored_prompt_file_on_its_own_machine_fails_the_commit_too(hook_repo, tmp_path):
    repo = ignored_prompt_file_repo(hook_repo, tmp_path / "origin")
    assert repo.pre_commit("install").returncode == 0
    write_skill(repo.path / "skills", "beta", skill_md("beta", "Deploy with Docker"))
    repo.git("add", "-A")
    stopped = repo.commit("add beta")
    assert stopped.returncode != 0
    assert "AGENTS.md (git ignores it)" in stopped.stdout + stopped.stderr
    assert (repo.path / "AGENTS.md").read_bytes() == b"# Agents\n"  # exit 2 writes nothing
    (repo.path / ".gitignore").write_text("CLAUDE.md\n")  # what the message says: un-ignore it, add it
    repo.git("add", "-A")
    assert repo.commit("add beta").returncode != 0  # the block is written; stage it
    repo.git("add", "AGENTS.md")
    result = repo.commit("add beta")
    assert result.returncode == 0, result.stdout + result.stderr
    assert b"\nbeta\n" in (repo.path / "AGENTS.md").read_bytes()
