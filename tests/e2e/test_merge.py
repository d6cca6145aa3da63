"""End-to-end with the real git and pre-commit: a teammate's clone, without the merge driver, is told how to set it up.

git config is not committed, so a clone merges the block as text and it
conflicts. The hook rebuilds it and prints the ``git config`` line for that
clone (newuser-3's p9); pasted as printed, it makes the next merge clean.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from ..helpers import skill_md, write_skill
from .repos import UserRepo, make_repo, run

pytestmark = pytest.mark.precommit


def add_skill_on_branch(repo: UserRepo, branch: str, name: str) -> None:
    repo.git("checkout", "-q", "-b", branch, "main")
    write_skill(repo.path / "skills", name, skill_md(name, f"Deploy {name} with Docker"))
    repo.git("add", "-A")
    assert repo.commit(f"add {name}").returncode != 0  # the hook adds it to the block
    repo.git("add", "-A")
    assert repo.commit(f"add {name}").returncode == 0


def test_a_clone_without_the_driver_is_given_the_line_that_sets_it_up(hook_repo, tmp_path):
    origin = make_repo(hook_repo, tmp_path / "origin")
    (origin.path / ".gitattributes").write_text("/AGENTS.md merge=skillmem\n")
    origin.git("add", ".gitattributes")
    assert origin.commit("the merge driver's attribute").returncode == 0
    origin.git("branch", "-M", "main")
    clone = UserRepo(tmp_path / "clone", origin.env)
    run(["git", "clone", "-q", str(origin.path), str(clone.path)], tmp_path, origin.env)
    assert clone.pre_commit("install").returncode == 0
    add_skill_on_branch(clone, "one", "one-new")
    add_skill_on_branch(clone, "two", "two-new")
    clone.git("checkout", "-q", "one")
    assert clone.git("merge", "-q", "--no-edit", "two", check=False).returncode != 0
    stopped = clone.pre_commit("run", "skill-index", "--all-files")
    assert "the block held a merge conflict; it was rebuilt from the skills" in stopped.stdout
    line = re.search(r"^    (git config merge\.skillmem\.driver .*)$", stopped.stdout, re.M)
    assert line is not None, stopped.stdout
    clone.git("add", "-A")
    assert clone.commit("merge two").returncode == 0
    subprocess.run(line.group(1), shell=True, cwd=clone.path, env=clone.env, check=True)
    add_skill_on_branch(clone, "three", "three-new")
    add_skill_on_branch(clone, "four", "four-new")
    merged = clone.git("merge", "-q", "--no-edit", "three", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr  # the driver, as pasted, merged the block
    assert b"[devops]\nbeta\nfour-new\nthree-new\n" in (clone.path / "AGENTS.md").read_bytes()
    result = clone.pre_commit("run", "--all-files")
    assert result.returncode == 0, result.stdout
