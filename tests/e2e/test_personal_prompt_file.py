"""End-to-end with the real git and pre-commit: a personal (git-ignored) AGENTS.md after a merge or a checkout.

A commit refreshes an ignored prompt file, but git writes none after a merge
or a checkout, so it goes stale there (task ignored1). The README's snippet
with pre-commit's ``post-merge`` and ``post-checkout`` hooks installed as
well keeps it current (skill-index sets no ``stages``, so it runs at every
stage installed); docs/pre-commit.md says how.
"""

from __future__ import annotations

import pytest

from ..helpers import skill_md, write_skill
from .repos import UserRepo, empty_repo, hooks_config

pytestmark = pytest.mark.precommit

SNIPPET = "      - id: skill-index\n      - id: skill-verify\n        stages: [manual]\n      - id: skill-lint\n"
AFTER = ["--hook-type", "post-merge", "--hook-type", "post-checkout"]


def personal_repo(hook_repo, path, *, after: bool) -> UserRepo:
    """Skill alpha, CLAUDE.md committed with its block, AGENTS.md present but ignored; both are prompt files."""
    repo = empty_repo(hook_repo, path, branch="main")
    write_skill(path / "skills", "alpha", skill_md("alpha", "Parse CSV files"))
    (path / "CLAUDE.md").write_bytes(b"# Notes\n")
    (path / "AGENTS.md").write_bytes(b"# Mine\n")
    (path / ".gitignore").write_text("AGENTS.md\n")
    (path / ".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [CLAUDE.md, AGENTS.md]\n")
    (path / ".pre-commit-config.yaml").write_text(hooks_config(hook_repo, SNIPPET))
    repo.git("add", "-A")
    repo.pre_commit("run", "skill-index", "--all-files")
    repo.git("add", "-A")
    assert repo.pre_commit("install", "--hook-type", "pre-commit", *(AFTER if after else [])).returncode == 0
    assert repo.commit("initial").returncode == 0, repo.git("status").stdout
    return repo


def add_beta_on_a_branch(repo: UserRepo) -> None:
    repo.git("checkout", "-q", "-b", "side")
    write_skill(repo.path / "skills", "beta", skill_md("beta", "Deploy with Docker"))
    repo.git("add", "-A")
    assert repo.commit("add beta").returncode != 0  # CLAUDE.md's block is written; stage it
    repo.git("add", "-A")
    assert repo.commit("add beta").returncode == 0


@pytest.mark.parametrize("after", [False, True], ids=["pre-commit-only", "post-merge-and-checkout-too"])
def test_an_ignored_prompt_file_is_current_after_merge_and_checkout_only_with_those_hooks(hook_repo, tmp_path, after):
    repo = personal_repo(hook_repo, tmp_path / "repo", after=after)
    agents = repo.path / "AGENTS.md"
    on_main = agents.read_bytes()
    assert b"\nalpha\n" in on_main
    add_beta_on_a_branch(repo)
    assert b"\nbeta\n" in agents.read_bytes()  # the commit refreshed it
    repo.git("checkout", "-q", "main")
    assert (b"\nbeta\n" in agents.read_bytes()) is not after  # main has no beta: current only with post-checkout
    agents.write_bytes(on_main)  # as a teammate's branch would find it: the merge brings a skill it never listed
    repo.git("merge", "-q", "side")
    assert (b"\nbeta\n" in agents.read_bytes()) is after  # stale after the merge unless post-merge ran
    assert b"\nbeta\n" in (repo.path / "CLAUDE.md").read_bytes()  # the committed file came with the merge
    assert repo.git("status", "--porcelain").stdout == ""  # the hook wrote no file the commit holds
