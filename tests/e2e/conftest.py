"""Fixtures of the end-to-end runs: this checkout as the hook repository, and a user's committed repository.

One pre-commit environment is built per test session (``hook_repo``'s
PRE_COMMIT_HOME) and shared by every test.
"""

from __future__ import annotations

import os
import shutil

import pytest

from ..helpers import REPO
from .repos import GIT_IDENTITY, make_repo, run

HOOK_REPO_FILES = ["skillmem_hook", "setup.cfg", "pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml"]


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory):
    """This checkout's working tree, committed to a local git repository, as a user's config would reference it."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("hook-repo")
    env = {**os.environ, **GIT_IDENTITY}
    for name in HOOK_REPO_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, root / name)
    run(["git", "init", "-q"], root, env)
    run(["git", "add", "-A"], root, env)
    run(["git", "commit", "-q", "-m", "hook repository"], root, env)
    rev = run(["git", "rev-parse", "HEAD"], root, env).stdout.strip()
    home = tmp_path_factory.mktemp("pre-commit-home")
    return root, rev, {**env, "PRE_COMMIT_HOME": str(home)}


@pytest.fixture
def repo(hook_repo, tmp_path):
    """A user's repository as ``repos.make_repo`` leaves it, in ``tmp_path/user``."""
    return make_repo(hook_repo, tmp_path / "user")
