"""End-to-end with the real git and pre-commit: the hooks index what the commit holds.

Each scenario ends the way CI would see it: a fresh clone of what was
committed, and ``pre-commit run --all-files`` on it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..helpers import skill_md, write_skill
from .repos import UserRepo, empty_repo, hooks_config, make_repo, run

pytestmark = pytest.mark.precommit


def ci_passes(repo: UserRepo, tmp_path: Path) -> bool:
    """A fresh clone of what is committed, checked as CI does."""
    clone = tmp_path / "ci-clone"
    shutil.rmtree(clone, ignore_errors=True)
    run(["git", "clone", "-q", str(repo.path), str(clone)], tmp_path, repo.env)
    result = UserRepo(clone, repo.env).pre_commit("run", "--all-files")
    return result.returncode == 0


def test_an_untracked_skill_folder_does_not_stop_an_unrelated_commit(repo, tmp_path):
    write_skill(repo.path / "skills", "wip-skill", skill_md("wip-skill"))
    (repo.path / "notes.txt").write_text("unrelated\n")
    repo.git("add", "notes.txt")
    result = repo.commit("unrelated")
    assert result.returncode == 0, result.stdout + result.stderr
    assert b"wip-skill" not in (repo.path / "AGENTS.md").read_bytes()
    assert ci_passes(repo, tmp_path)


def test_git_rm_cached_stops_the_commit_until_the_block_follows(repo, tmp_path):
    repo.git("rm", "-r", "-q", "--cached", "skills/alpha")
    stopped = repo.commit("untrack alpha")
    assert stopped.returncode != 0
    assert "alpha" in stopped.stdout + stopped.stderr
    assert b"\nalpha\n" not in (repo.path / "AGENTS.md").read_bytes()
    repo.git("add", "AGENTS.md")
    assert repo.commit("untrack alpha").returncode == 0
    assert ci_passes(repo, tmp_path)


def test_a_skill_added_and_staged_in_one_commit_and_a_rename(repo, tmp_path):
    write_skill(repo.path / "skills", "gamma", skill_md("gamma", "Review code"))
    repo.git("add", "skills")
    assert repo.commit("add gamma").returncode != 0
    repo.git("add", "AGENTS.md")
    assert repo.commit("add gamma").returncode == 0
    repo.git("mv", "skills/gamma", "skills/gamma-renamed")
    text = (repo.path / "skills/gamma-renamed/SKILL.md").read_bytes().replace(b"name: gamma", b"name: gamma-renamed")
    (repo.path / "skills/gamma-renamed/SKILL.md").write_bytes(text)
    repo.git("add", "-A")
    assert repo.commit("rename gamma").returncode != 0
    repo.git("add", "AGENTS.md")
    assert repo.commit("rename gamma").returncode == 0
    assert b"gamma-renamed" in (repo.path / "AGENTS.md").read_bytes()
    assert ci_passes(repo, tmp_path)


def test_a_delete_only_commit_is_stopped_and_then_ci_passes(repo, tmp_path):
    repo.git("rm", "-r", "-q", "skills/beta")
    assert repo.commit("remove beta").returncode != 0
    repo.git("add", "AGENTS.md")
    assert repo.commit("remove beta").returncode == 0
    assert ci_passes(repo, tmp_path)


def test_an_ignored_claude_folder_is_not_auto_detected(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "auto", args="args: []")
    (repo.path / ".gitignore").write_text(".claude/\n")
    write_skill(repo.path / ".claude" / "skills", "my-private", skill_md("my-private"))
    repo.git("add", ".gitignore")
    result = repo.commit("ignore .claude")
    assert result.returncode == 0, result.stdout + result.stderr
    assert b"my-private" not in (repo.path / "AGENTS.md").read_bytes()
    assert ci_passes(repo, tmp_path)


def test_the_hooks_work_in_a_linked_worktree(repo, tmp_path):
    other = tmp_path / "worktree"
    repo.git("worktree", "add", "-q", "-b", "side", str(other))
    side = UserRepo(other, repo.env)
    write_skill(other / "skills", "delta", skill_md("delta", "Write docs"))
    side.git("add", "skills")
    assert side.commit("add delta").returncode != 0
    assert b"delta" in (other / "AGENTS.md").read_bytes()
    assert b"delta" not in (repo.path / "AGENTS.md").read_bytes()
    side.git("add", "AGENTS.md")
    assert side.commit("add delta").returncode == 0


# Prompt files as repositories have them


def test_a_symlinked_prompt_file_is_reported_once_by_its_target(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "links", args="args: [--root, skills, --prompt-file, AGENTS.md]")
    (repo.path / "CLAUDE.md").write_bytes(b"# Claude\n")
    (repo.path / "AGENTS.md").unlink()
    (repo.path / "AGENTS.md").symlink_to("CLAUDE.md")
    repo.git("add", "-A")
    stopped = repo.commit("agents is a link")
    output = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0
    assert "CLAUDE.md: the skill index was updated; stage it and commit again" in output
    assert "AGENTS.md:" not in output
    repo.git("add", "CLAUDE.md")  # what the message says is enough
    assert repo.commit("agents is a link").returncode == 0
    assert ci_passes(repo, tmp_path)


def test_claude_md_importing_agents_md_is_left_out_and_said(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "imports", args="args: [--root, skills]")
    (repo.path / "CLAUDE.md").write_bytes(b"# Claude\n\n@AGENTS.md\n")
    write_skill(repo.path / "skills", "gamma", skill_md("gamma"))
    repo.git("add", "-A")
    stopped = repo.commit("add claude")
    assert "CLAUDE.md: left out (it imports AGENTS.md (@AGENTS.md))" in stopped.stdout + stopped.stderr
    assert (repo.path / "CLAUDE.md").read_bytes() == b"# Claude\n\n@AGENTS.md\n"
    assert b"gamma" in (repo.path / "AGENTS.md").read_bytes()


def test_an_untracked_prompt_file_keeps_failing_until_it_is_added(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "untracked")
    repo.git("rm", "-q", "--cached", "AGENTS.md")
    (repo.path / "notes.txt").write_text("x\n")
    repo.git("add", "notes.txt")
    for _ in range(2):
        stopped = repo.commit("notes")
        assert stopped.returncode != 0
        assert "git add AGENTS.md" in stopped.stdout + stopped.stderr
    repo.git("add", "AGENTS.md")
    assert repo.commit("notes").returncode == 0
    assert ci_passes(repo, tmp_path)


def test_an_ignored_prompt_file_is_kept_current_without_failing(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "ignored")
    config = repo.path / ".pre-commit-config.yaml"
    config.write_text(config.read_text().replace("AGENTS.md]", "AGENTS.md, --prompt-file, PERSONAL.md]"))
    (repo.path / ".gitignore").write_text("PERSONAL.md\n")
    (repo.path / "PERSONAL.md").write_bytes(b"# Mine\n")
    write_skill(repo.path / "skills", "gamma", skill_md("gamma"))
    repo.git("add", "-A")
    assert repo.commit("add gamma").returncode != 0  # AGENTS.md changed and must be staged
    assert b"gamma" in (repo.path / "PERSONAL.md").read_bytes()
    repo.git("add", "AGENTS.md")
    result = repo.commit("add gamma")
    assert result.returncode == 0, result.stdout + result.stderr
    assert ci_passes(repo, tmp_path)  # the clone has no PERSONAL.md: it is left out, not an error


def test_skill_lint_stops_a_commit_whose_script_is_on_disk_but_not_in_the_commit(hook_repo, tmp_path):
    path = tmp_path / "lint"
    repo = empty_repo(hook_repo, path)
    body = "Run it:\n\n```sh\npython scripts/unpack.py in.docx\n```\n"
    write_skill(path / "skills", "docx", skill_md("docx", "Unpack DOCX files. Use when a .docx must be read.", body))
    (path / "skills" / "docx" / "scripts").mkdir()
    (path / "skills" / "docx" / "scripts" / "unpack.py").write_text("print('unpack')\n")
    (path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-lint\n        args: [--root, skills]\n")
    )
    repo.git("add", ".pre-commit-config.yaml", "skills/docx/SKILL.md")  # the script is left untracked
    assert repo.pre_commit("install").returncode == 0
    stopped = repo.commit("add docx")
    assert stopped.returncode != 0
    assert "SK201" in stopped.stdout + stopped.stderr
    repo.git("add", "skills/docx/scripts/unpack.py")
    result = repo.commit("add docx")
    assert result.returncode == 0, result.stdout + result.stderr
