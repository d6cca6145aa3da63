"""A repository git refuses as another user's: the error says so, and how to allow it (H7-4c)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery.ownership import refused_repository

from ...helpers import isolate_git, run_cli, run_git, skill_md, write_skill

AS_ROOT = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a repository to another user needs root"
)


@pytest.fixture
def theirs(monkeypatch, tmp_path):
    """A repository another user (nobody, 65534) owns, with its skills and a prompt file; the current folder."""
    isolate_git(monkeypatch, tmp_path / "home")
    (tmp_path / "home").mkdir()  # where git config --global writes
    monkeypatch.delenv("SUDO_UID", raising=False)
    top = tmp_path / "their repo"
    top.mkdir()
    monkeypatch.chdir(top)
    run_git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("AGENTS.md").write_text("# Agents\n")
    for path in [top, *top.rglob("*")]:
        os.lchown(path, 65534, 65534)
    return top


@AS_ROOT
def test_verify_tracked_and_init_say_git_refused_the_repository_and_how_to_allow_it(theirs, capsys):
    """As root in another user's repository, verify --tracked said "not inside a git work tree ... drop --tracked"
    and init "run 'git init' first": git refused it, and says so (dubious ownership)."""
    allow = f"git config --global --add safe.directory '{theirs}'"
    for command in (["verify", "--tracked"], ["init", "--dry-run", "--no-install"]):
        run = run_cli(capsys, *command)
        assert run.code == 2
        assert run.error["error"] == (
            f"git refuses the repository at {theirs}: another user owns it (git calls it dubious ownership)"
        )
        assert run.error["hint"] == f"if you trust it, let git read it: {allow} (or run as the user who owns it)"
    os.chdir("skills")  # from a subfolder: the repository's top, as git names it
    run = run_cli(capsys, "verify", "--tracked", "--root", ".", "--prompt-file", "../AGENTS.md")
    note, error = run.err.splitlines()  # the .git above is not taken as the repository (fixh6), and git's refusal
    assert note.startswith(f"skillmem: {theirs} is not taken as the repository")
    assert json.loads(error)["hint"].endswith(f"{allow} (or run as the user who owns it)")
    os.chdir("..")
    subprocess.run(["bash", "-c", allow], check=True)  # the hint, as typed: now git reads it
    assert refused_repository() is None
    assert run_cli(capsys, "verify", "--tracked").code == 0  # git reads it: nothing committed, nothing to list


def test_outside_any_repository_the_error_stays_the_plain_one(monkeypatch, tmp_path, capsys):
    isolate_git(monkeypatch, tmp_path / "home")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    assert refused_repository() is None
    run = run_cli(capsys, "verify", "--tracked", "--root", "skills", "--prompt-file", "x.md")
    assert run.code == 2 and run.error["hint"] == "drop --tracked"
    run = run_cli(capsys, "init", "--dry-run", "--no-install")
    assert run.code == 2 and run.error["hint"] == "run 'git init' first, or cd into the repository"


@AS_ROOT
def test_a_folder_name_holding_a_quote_and_a_line_break_is_read_whole(monkeypatch, tmp_path):
    """hostile8: git's "... at '<path>'" line was cut at the first "'" and line break, naming another folder."""
    isolate_git(monkeypatch, tmp_path / "home")
    (tmp_path / "home").mkdir()
    monkeypatch.delenv("SUDO_UID", raising=False)
    (tmp_path / "bo").mkdir()  # the folder the cut name would be, which exists
    top = tmp_path / "bo'\nth"
    top.mkdir()
    monkeypatch.chdir(top)
    run_git("init", "-q")
    for path in [top, *top.rglob("*")]:
        os.lchown(path, 65534, 65534)
    assert refused_repository() == str(top)
