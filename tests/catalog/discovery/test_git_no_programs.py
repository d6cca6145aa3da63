"""Every git skillmem runs turns ``core.fsmonitor`` off: a git directory the repository brings (an unpacked
archive's ``.git`` = ``gitdir: ./meta``) may name a program there, and git would run it on every skillmem run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery.git import GIT, run_git
from skillmem_hook.catalog.discovery.git_blobs import read_blobs
from skillmem_hook.catalog.discovery.ownership import refused_repository

from ...helpers import hint_of, run_cli, run_route, skill_md, write_skill
from ..git_repo import git

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.usefixtures("git_identity"),
]


def archive(folder: Path, marker: Path) -> Path:
    """An unpacked archive: its ``.git`` a ``gitdir: ./meta`` file, and meta's config an fsmonitor command."""
    folder.mkdir()
    git("init", "-q", f"--separate-git-dir={folder / 'meta'}", str(folder))
    write_skill(folder / ".claude" / "skills", "pdf", skill_md("pdf", "Work with PDF files"))
    (folder / "AGENTS.md").write_text("# A\n")
    git("add", "-A", cwd=folder)
    git("commit", "-q", "-m", "x", cwd=folder)
    (folder / ".git").write_text("gitdir: ./meta\n")
    git("config", "core.fsmonitor", f"echo RAN >> {marker}; false", cwd=folder)
    return folder


def test_the_archive_s_fsmonitor_runs_under_plain_git(tmp_path):
    """The premise: git itself runs the command there (so the tests below see skillmem turn it off)."""
    marker = tmp_path / "ran"
    folder = archive(tmp_path / "unpacked", marker)
    subprocess.run(["git", "ls-files"], cwd=folder, capture_output=True, check=False)
    assert marker.exists()
    marker.unlink()
    subprocess.run([*GIT, "ls-files"], cwd=folder, capture_output=True, check=False)
    assert not marker.exists()


def test_read_search_and_the_git_calls_run_no_fsmonitor(tmp_path, monkeypatch, capsys):
    marker = tmp_path / "ran"
    folder = archive(tmp_path / "unpacked", marker)
    monkeypatch.chdir(folder)
    assert run_cli(capsys, "read", "pdf").code == 0
    assert run_cli(capsys, "search", "pdf").code == 0
    assert run_cli(capsys, "read", "pdf", "--tracked").code == 0
    assert run_git(["ls-files", "--stage", "-z"])[0] == 0
    oid = git("rev-parse", "HEAD:.claude/skills/pdf/SKILL.md").strip()
    assert [blob for _, blob in read_blobs([oid], 100)] == [skill_md("pdf", "Work with PDF files")[:100]]
    assert refused_repository() is None
    assert not marker.exists()


def test_the_route_hook_runs_no_fsmonitor(tmp_path, env):
    marker = tmp_path / "ran"
    folder = archive(tmp_path / "unpacked", marker)
    result = run_route("use the pdf skill", folder, env)
    assert "pdf" in hint_of(result)
    assert not marker.exists()
