"""A user's repository in the end-to-end runs: git, pre-commit and the hook repository's environment, in one folder.

Plain helpers, imported by the test modules; the fixtures that build the
repositories are in ``conftest.py`` beside this file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ..helpers import skill_md, write_skill

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}
HOOK_ARGS = "args: [--root, skills, --prompt-file, AGENTS.md]"


def run(args, cwd, env, check=True):
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


class UserRepo:
    def __init__(self, path: Path, env: dict[str, str]) -> None:
        self.path = path
        self.env = env

    def git(self, *args, check=True):
        return run(["git", *args], self.path, self.env, check)

    def pre_commit(self, *args):
        return run([sys.executable, "-m", "pre_commit", *args], self.path, self.env, check=False)

    def commit(self, message):
        return self.git("commit", "-m", message, check=False)


def empty_repo(hook_repo, path: Path, *, branch: str | None = None) -> UserRepo:
    """A new folder at ``path`` holding a fresh git repository, run with the hook repository's environment."""
    path.mkdir(parents=True, exist_ok=True)
    repo = UserRepo(path, hook_repo[2])
    repo.git("init", "-q", *(["-b", branch] if branch else []))
    return repo


def hooks_config(hook_repo, hooks: str) -> str:
    """A ``.pre-commit-config.yaml`` using the hook repository at its commit; ``hooks`` is the indented hooks list."""
    hook_root, rev, _ = hook_repo
    return f"repos:\n  - repo: {hook_root}\n    rev: {rev}\n    hooks:\n{hooks}"


def make_repo(hook_repo, path: Path, *, args: str = HOOK_ARGS) -> UserRepo:
    """Skills alpha and beta, AGENTS.md current, skill-index installed (skill-verify at the manual stage), committed."""
    repo = empty_repo(hook_repo, path)
    write_skill(path / "skills", "alpha", skill_md("alpha", "Parse CSV files"))
    write_skill(path / "skills", "beta", skill_md("beta", "Deploy with Docker"))
    (path / "AGENTS.md").write_bytes(b"# Agents\n")
    (path / ".pre-commit-config.yaml").write_text(
        hooks_config(
            hook_repo,
            f"      - id: skill-index\n        {args}\n"
            f"      - id: skill-verify\n        {args}\n        stages: [manual]\n",
        )
    )
    repo.git("add", "-A")
    repo.pre_commit("run", "skill-index", "--all-files")
    repo.git("add", "-A")
    assert repo.pre_commit("install").returncode == 0
    assert repo.commit("initial").returncode == 0, repo.git("status").stdout
    return repo
