"""Lint reads and scans nothing outside the repository (fixh22): a root the repository names outside it
(hostile11's F1: ``roots: [../..]`` and a committed ``evil/SKILL.md -> ../../../.aws/credentials``) is
left out and said, watched by an audit hook on ``open`` and ``os.scandir`` in a real process. A root the
user names with ``--root`` is linted as before."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.lint.output import LEFT_OUT

from ..catalog.git_repo import git
from ..helpers import isolate_git, run_cli, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SECRET = "aws_secret_access_key = AKIA-SECRET-42"

# Runs skillmem's CLI (or a hook, ``-m hook``) in the repository and prints, last on stderr, every path outside
# it that was opened or listed: the paths below argv[1] (the test's folder) that are not below the repository.
AUDITED = r"""
import json, os, sys
repo = os.path.realpath(os.getcwd())
fence = os.path.realpath(sys.argv[1])
seen = set()
def watch(event, args):
    if event in ("open", "os.scandir", "os.listdir") and args and isinstance(args[0], (str, bytes)):
        real = os.path.realpath(os.fsdecode(args[0]))
        if real.startswith(fence + os.sep) and real != repo and not real.startswith(repo + os.sep):
            seen.add(f"{event} {real}")
if sys.argv[2] == "hook":
    from skillmem_hook.hooks.lint import skill_lint as run
    arguments = sys.argv[3:]
else:
    from skillmem_hook.cli import main as run
    arguments = sys.argv[2:]
sys.addaudithook(watch)
try:
    code = run(arguments)
finally:
    sys.stdout.flush()
    sys.stderr.write("\n" + json.dumps(sorted(seen)) + "\n")
sys.exit(code)
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    """``home/.aws/credentials``, a plain skill at ``home/other/skills/outside``, a repository ``home/src/repo``
    with a skill of its own and ``evil/SKILL.md`` linked to the credentials; committed, and the current folder."""
    isolate_git(monkeypatch, tmp_path)
    (tmp_path / "home" / ".aws").mkdir(parents=True)
    (tmp_path / "home" / ".aws" / "credentials").write_text(f"[default]\n{SECRET}\n")
    write_skill(tmp_path / "home" / "other" / "skills", "outside", skill_md("outside", "Outside the repository"))
    repo = tmp_path / "home" / "src" / "repo"
    repo.mkdir(parents=True)
    git("init", "-q", str(repo))
    write_skill(repo / "skills", "own", skill_md("own", "The repository's own skill"))
    (repo / "evil").mkdir()
    (repo / "evil" / "SKILL.md").symlink_to("../../../.aws/credentials")
    monkeypatch.chdir(repo)
    return repo


def commit(repo: Path) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "hostile", cwd=repo)


def audited(repo: Path, fence: Path, env, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run ``args`` in ``repo`` under the audit hook: the result, and what it touched outside the repository."""
    result = subprocess.run(
        [sys.executable, "-c", AUDITED, str(fence), *args], cwd=repo, capture_output=True, text=True, env=env
    )
    *_, touched = result.stderr.rstrip("\n").rsplit("\n", 1)
    return result, json.loads(touched)


@pytest.fixture
def child_env(env, tmp_path):
    """A child's environment that finds this checkout, with git reading no configuration of the machine's."""
    package = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(filter(None, [package, env.get("PYTHONPATH")]))
    return {**env, "PYTHONPATH": path, "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}


@pytest.mark.parametrize("layout", ["configured", "linked"])
def test_lint_opens_and_lists_nothing_outside_the_repository(layout, home, tmp_path, child_env):
    if layout == "configured":
        (home / ".skillmem.yaml").write_text("roots: [../..]\n")
    else:  # F1b: no configuration; the common layout .claude/skills is a committed link above the work tree
        (home / ".claude").mkdir()
        (home / ".claude" / "skills").symlink_to("../../..")
    commit(home)
    result, touched = audited(home, tmp_path, child_env, "lint")
    assert touched == []
    report = json.loads(result.stdout)
    assert report["findings"] == []  # no SK101 for the credentials file: it was never read
    assert [notice["notice"] for notice in report["notices"]] == [LEFT_OUT]
    assert SECRET not in result.stdout + result.stderr


def test_the_lint_hook_opens_and_lists_nothing_outside_the_repository(home, tmp_path, child_env):
    (home / ".skillmem.yaml").write_text("roots: [../.., skills]\n")
    commit(home)
    result, touched = audited(home, tmp_path, child_env, "hook", "--all")
    assert touched == []
    assert f"note: skills root ../.. {LEFT_OUT}" in result.stderr
    assert "1 SKILL.md file checked" in result.stderr  # the repository's own root is still linted
    # The commit's files as pre-commit passes them: the link is below no root lint reads (it was an error before).
    result, touched = audited(home, tmp_path, child_env, "hook", "evil/SKILL.md", "skills/own/SKILL.md")
    assert touched == []
    assert result.returncode == 0, result.stderr
    assert "1 SKILL.md file checked" in result.stderr and SECRET not in result.stderr


def test_a_repository_root_inside_the_repository_is_linted_beside_one_left_out(home, capsys):
    (home / ".skillmem.yaml").write_text("roots: [../.., skills]\n")
    commit(home)
    run = run_cli(capsys, "lint")
    assert run.data["checked"] == 1
    assert run.data["notices"] == [{"root": "../..", "notice": LEFT_OUT}]


def test_without_a_work_tree_the_configuration_folder_bounds_lint(home, tmp_path, child_env):
    (home / ".skillmem.yaml").write_text("roots: [../..]\n")
    shutil.rmtree(home / ".git")  # an unpacked archive
    result, touched = audited(home, tmp_path, child_env, "lint")
    assert touched == []
    assert json.loads(result.stdout)["notices"] == [{"root": "../..", "notice": LEFT_OUT}]


def test_a_root_the_user_names_is_linted_as_before(home, capsys):
    (home / ".skillmem.yaml").write_text("roots: [../..]\n")
    commit(home)
    run = run_cli(capsys, "lint", "--root", "../../other/skills")
    assert run.data["checked"] == 1 and run.data["notices"] == []
