"""Every git skillmem runs turns ``core.fsmonitor`` off: a git directory the repository brings (an unpacked
archive's ``.git`` = ``gitdir: ./meta``) may name a program there, and git would run it on every skillmem run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
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


def submodule_with_a_filter(folder: Path, marker: Path) -> Path:
    """h19's F1: a block one rename out of date, and below the root a submodule (a gitlink, its own ``.git``) whose
    own config names a filter that its ``.gitattributes`` applies to every file, one of them stat-dirty."""
    folder.mkdir()
    git("init", "-q", cwd=folder)
    write_skill(folder / ".claude" / "skills", "alpha", skill_md("alpha", "Alpha converts PDF files to text."))
    (folder / "AGENTS.md").write_text("# proj\n")
    (folder / ".skillmem.yaml").write_text("roots: [.claude/skills]\nprompt_files: [AGENTS.md]\n")
    sub = folder / ".claude" / "skills" / "vendored"
    sub.mkdir()
    git("init", "-q", cwd=sub)
    (sub / "file.txt").write_text("hi\n")
    (sub / ".gitattributes").write_text("* filter=evil\n")
    git("add", "-A", cwd=sub)
    git("commit", "-qm", "s", cwd=sub)
    git("config", "filter.evil.clean", f"sh -c 'echo ran >> {marker}; cat'", cwd=sub)
    return sub


def _stale_by_a_rename(folder: Path, capsys) -> None:
    assert run_cli(capsys, "inject").code == 0
    git("add", "-A", cwd=folder)
    git("commit", "-qm", "init", cwd=folder)
    git("mv", ".claude/skills/alpha", ".claude/skills/alpha2", cwd=folder)
    (folder / ".claude/skills/alpha2/SKILL.md").write_bytes(skill_md("alpha2", "Alpha converts PDF files to text."))


def _dirty(sub: Path, marker: Path) -> None:
    """The submodule's file stat-dirty (as every file an archive unpacks is), the marker gone."""
    later = time.time() + 5
    os.utime(sub / "file.txt", (later, later))
    marker.unlink(missing_ok=True)


def test_a_submodule_s_own_filter_runs_in_no_command_nor_hook(tmp_path, monkeypatch, capsys):
    """--ignore-submodules=all on every git that compares with the work tree or asks status: no git status runs
    inside the submodule, so its config's filter never does (verify, inject, init, the hooks)."""
    marker = tmp_path / "ran"
    folder = tmp_path / "repo"
    sub = submodule_with_a_filter(folder, marker)
    monkeypatch.chdir(folder)
    _stale_by_a_rename(folder, capsys)
    _dirty(sub, marker)
    subprocess.run(["git", "diff", "--name-status", "HEAD", "--", ".claude/skills"], capture_output=True, check=False)
    assert marker.exists()  # the premise: plain git's diff runs it
    for command in (["verify"], ["inject"], ["init", "--dry-run"], ["init", "--no-install"]):
        _dirty(sub, marker)
        if command == ["inject"]:
            git("checkout", "-q", "AGENTS.md", cwd=folder)  # verify's drift again, so inject reads the rename
        result = subprocess.run(
            [sys.executable, "-m", "skillmem_hook", *command], capture_output=True, text=True, check=False, timeout=120
        )
        assert result.returncode in (0, 3), (command, result.stderr)
        assert not marker.exists(), (command, marker.read_text() if marker.exists() else "")
    git("add", "-A", ".claude/skills/alpha2", cwd=folder)
    for module, function in (("index", "skill_index"), ("index", "skill_verify"), ("lint", "skill_lint")):
        _dirty(sub, marker)
        code = f"import sys; from skillmem_hook.hooks.{module} import {function}; sys.exit({function}(sys.argv[1:]))"
        subprocess.run([sys.executable, "-c", code], capture_output=True, check=False, timeout=120)
        assert not marker.exists(), module
