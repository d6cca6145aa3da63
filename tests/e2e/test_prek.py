"""End-to-end under prek, the Rust re-implementation of pre-commit: the same hooks, the same commits.

Skipped when prek is not installed (it is in the [test] extra). Like the
pre-commit runs, these go through real ``git commit`` calls with the hook
script ``prek install`` writes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import seed_tree, skill_md, write_skill
from .repos import UserRepo, hooks_config, run

pytestmark = pytest.mark.precommit

PREK = shutil.which("prek") or (Path(sys.executable).parent / "prek").as_posix()
if not os.path.exists(PREK):
    pytest.skip("prek is not installed (pip install prek; it is in the [test] extra)", allow_module_level=True)


@pytest.fixture
def prek_repo(hook_repo, tmp_path_factory, tmp_path):
    """A user's repository whose PATH has prek and git but no pre-commit, as a prek-only user's has."""
    _, _, env = hook_repo
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "prek").symlink_to(PREK)
    home = tmp_path_factory.getbasetemp() / "prek-home"  # one hook environment for every test
    env = {**env, "PATH": f"{tools}{os.pathsep}{Path(shutil.which('git')).parent}", "PREK_HOME": str(home)}
    repo = UserRepo(tmp_path / "user", env)
    repo.path.mkdir()
    repo.git("init", "-q", "-b", "main")
    seed_tree(repo.path / "skills")
    return repo


def prek(repo: UserRepo, *args: str) -> subprocess.CompletedProcess[str]:
    return run(["prek", *args], repo.path, repo.env, check=False)


def write_config(repo: UserRepo, hook_repo) -> None:
    (repo.path / "AGENTS.md").write_bytes(b"# Agents\n")
    (repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(
            hook_repo,
            "      - id: skill-index\n        args: [--root, skills, --prompt-file, AGENTS.md]\n"
            "      - id: skill-verify\n        args: [--root, skills, --prompt-file, AGENTS.md]\n"
            "        stages: [manual]\n",
        )
    )


def test_a_commit_is_stopped_until_the_block_is_staged_then_passes(prek_repo, hook_repo):
    write_config(prek_repo, hook_repo)
    assert prek(prek_repo, "install").returncode == 0
    prek_repo.git("add", "-A")
    stopped = prek_repo.commit("initial")
    assert stopped.returncode != 0
    assert "AGENTS.md: the skill index was updated; stage it and commit again" in stopped.stdout + stopped.stderr
    assert "exit code: 3" in stopped.stdout + stopped.stderr
    prek_repo.git("add", "-A")
    assert prek_repo.commit("initial").returncode == 0
    write_skill(prek_repo.path / "skills", "gamma-new", skill_md("gamma-new", "Deploy with Docker"))
    prek_repo.git("add", "skills")
    again = prek_repo.commit("add gamma")
    assert "added (1): gamma-new" in again.stdout + again.stderr
    prek_repo.git("add", "-A")
    assert prek_repo.commit("add gamma").returncode == 0
    assert prek_repo.git("status", "--porcelain").stdout == ""


def test_skill_verify_at_the_manual_stage_fails_on_drift_and_writes_nothing(prek_repo, hook_repo):
    write_config(prek_repo, hook_repo)
    prek_repo.git("add", "-A")
    drift = prek(prek_repo, "run", "skill-verify", "--all-files", "--hook-stage", "manual")
    assert drift.returncode != 0
    assert "the skill index is out of date" in drift.stdout
    assert "pre-commit run skill-index --all-files" in drift.stdout
    assert (prek_repo.path / "AGENTS.md").read_bytes() == b"# Agents\n"
    prek(prek_repo, "run", "skill-index", "--all-files")
    assert prek(prek_repo, "run", "skill-verify", "--all-files", "--hook-stage", "manual").returncode == 0


def test_init_installs_prek_when_it_is_the_manager_on_path(prek_repo, hook_repo):
    hook_root, rev, _ = hook_repo
    command = [sys.executable, "-m", "skillmem_hook", "init", "--repo", str(hook_root), "--rev", rev]
    done = json.loads(run(command, prek_repo.path, prek_repo.env).stdout)
    assert done["hooks_installed"] == "ran 'prek install'"
    prek_repo.git("add", "-A")
    committed = prek_repo.commit("adopt skillmem")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert "skill index (re-inject into prompt files)" in committed.stdout + committed.stderr
    again = json.loads(run(command, prek_repo.path, prek_repo.env).stdout)
    assert again["hooks_installed"] == "already installed"
