"""End-to-end with the real git and pre-commit: a skill renamed with git mv is reported as a rename (newuser-3 p1)."""

from __future__ import annotations

import pytest

from .repos import make_repo

pytestmark = pytest.mark.precommit


def test_git_mv_and_a_new_name_stop_the_commit_once_saying_renamed(hook_repo, tmp_path):
    repo = make_repo(hook_repo, tmp_path / "user")
    repo.git("mv", "skills/alpha", "skills/csv-parse")
    skill = repo.path / "skills/csv-parse/SKILL.md"
    skill.write_bytes(skill.read_bytes().replace(b"name: alpha", b"name: csv-parse"))
    repo.git("add", "-A")
    stopped = repo.commit("rename alpha")
    assert stopped.returncode != 0
    report = stopped.stdout + stopped.stderr
    assert "  renamed (1): alpha -> csv-parse\n" in report
    assert "added" not in report and "removed" not in report
    repo.git("add", "AGENTS.md")
    result = repo.commit("rename alpha")
    assert result.returncode == 0, result.stdout + result.stderr
