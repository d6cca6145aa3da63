"""A root the repository names outside its work tree follows no link (hostile11's F1): git cannot say there
whether a link lands on a file the repository holds, and the repository chose the root. A root the user
names with --root keeps following links that stay inside it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery.walk import LINK_BELOW_NAMED_OUTSIDE

from ...helpers import hint_of, run_cli, run_route, skill_md, write_skill
from ..git_repo import git

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.usefixtures("git_identity"),
]
SECRET = "aws_secret_access_key = AKIA-SECRET-42"


def home(tmp_path: Path) -> Path:
    """``home/.aws/credentials`` and an empty repository at ``home/src/repo``."""
    (tmp_path / "home" / ".aws").mkdir(parents=True)
    (tmp_path / "home" / ".aws" / "credentials").write_text(f"[default]\n{SECRET}\n")
    repo = tmp_path / "home" / "src" / "repo"
    repo.mkdir(parents=True)
    git("init", "-q", str(repo))
    (repo / "AGENTS.md").write_text("# Agents\n")
    (repo / "evil").mkdir()
    (repo / "evil" / "SKILL.md").symlink_to("../../../.aws/credentials")
    return repo


def commit(repo: Path) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "hostile", cwd=repo)


@pytest.fixture
def configured(tmp_path, monkeypatch):
    """F1: ``roots: [../..]`` in the committed .skillmem.yaml."""
    repo = home(tmp_path)
    (repo / ".skillmem.yaml").write_text("roots: [../..]\nprompt_files: [AGENTS.md]\n")
    commit(repo)
    monkeypatch.chdir(repo)
    return repo


@pytest.fixture
def linked_layout(tmp_path, monkeypatch):
    """F1b: no configuration; the common layout ``.claude/skills`` is a committed link above the work tree."""
    repo = home(tmp_path)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "skills").symlink_to("../../..")
    commit(repo)
    monkeypatch.chdir(repo)
    return repo


@pytest.mark.parametrize("layout", ["configured", "linked_layout"])
def test_a_link_below_a_root_the_repository_names_outside_is_no_skill(layout, request, capsys, env):
    repo = request.getfixturevalue(layout)
    read = run_cli(capsys, "read", "evil")
    assert read.code != 0
    assert SECRET not in read.out + read.err
    assert LINK_BELOW_NAMED_OUTSIDE in read.error["error"]
    found = run_cli(capsys, "search", "evil", "aws")
    assert SECRET not in found.out and "evil" not in [hit["name"] for hit in found.data["results"]]
    skipped = run_cli(capsys, "index", "--check")
    assert SECRET not in skipped.out + skipped.err
    assert "AKIA" not in hint_of(run_route("please use the evil skill", repo, env))


def test_a_folder_link_below_such_a_root_is_skipped_with_the_reason(configured, tmp_path, capsys):
    write_skill(tmp_path / "elsewhere", "private", skill_md("private", "Deploy keys"))
    (configured / "pack").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "home" / "linked").symlink_to(tmp_path / "elsewhere")
    found = run_cli(capsys, "search", "deploy", "keys")
    assert "private" not in [hit["name"] for hit in found.data["results"]]
    read = run_cli(capsys, "read", "private")
    assert read.code != 0


def test_a_root_the_user_names_follows_links_inside_it_as_before(configured, capsys):
    read = run_cli(capsys, "read", "evil", "--root", "../..")
    assert read.code == 0
    assert SECRET in read.out
