"""Fixtures of the end-to-end runs: this checkout as the hook repository, and a user's committed repository.

One hook repository and one pre-commit environment (``hook_repo``'s
PRE_COMMIT_HOME) are built per test session and shared by every test, and by
every pytest-xdist worker: the first to need them builds them under a lock,
the others wait and reuse them (pre-commit locks its own store).
"""

from __future__ import annotations

import contextlib
import fcntl
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
    shared = session_folder(tmp_path_factory)
    root, home = shared / "hook-repo", shared / "pre-commit-home"
    env = {**os.environ, **GIT_IDENTITY}
    with locked(shared / "hook-repo.lock"):
        if not (shared / "hook-repo.built").exists():  # a worker that failed half-way leaves no mark
            shutil.rmtree(root, ignore_errors=True)
            build_hook_repo(root, env)
            (shared / "hook-repo.built").touch()
    rev = run(["git", "rev-parse", "HEAD"], root, env).stdout.strip()
    return root, rev, {**env, "PRE_COMMIT_HOME": str(home)}


def session_folder(tmp_path_factory):
    """The session's temporary folder, which the pytest-xdist workers' own folders are in; without xdist, its own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def locked(path):
    """Hold an exclusive lock on path (made if missing) for the block: one worker at a time."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_hook_repo(root, env):
    root.mkdir()
    for name in HOOK_REPO_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, root / name)
    run(["git", "init", "-q"], root, env)
    run(["git", "add", "-A"], root, env)
    run(["git", "commit", "-q", "-m", "hook repository"], root, env)


@pytest.fixture
def repo(hook_repo, tmp_path):
    """A user's repository as ``repos.make_repo`` leaves it, in ``tmp_path/user``."""
    return make_repo(hook_repo, tmp_path / "user")
