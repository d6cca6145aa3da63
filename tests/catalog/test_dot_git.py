"""What a ``.git`` makes of its folder: skillmem decides as git's own discovery does, checked against the real git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery.confinement import Area, nested_repository
from skillmem_hook.catalog.dot_git import holds_repository, work_tree_top
from skillmem_hook.catalog.store.locations import find_git_dir
from skillmem_hook.config import find_config

from ..helpers import isolate_git, run_git, skill_md, write_skill


def git_answer(folder: Path, *question: str) -> str | None:
    """What git says from ``folder`` (``rev-parse``); None when git finds no repository there."""
    done = subprocess.run(["git", "-C", str(folder), "rev-parse", *question], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


@pytest.fixture
def repository(tmp_path, monkeypatch):
    """A real ``git init`` repository whose configuration names its roots, with a subfolder ``team``."""
    isolate_git(monkeypatch, tmp_path / "home")
    top = tmp_path / "repo"
    run_git("init", "-q", str(top))
    (top / ".skillmem.yaml").write_text("roots: [team-skills]\nprompt_files: [AGENTS.md]\n")
    write_skill(top / "team-skills", "invoices", skill_md("invoices", "Extract totals from PDF invoices"))
    (top / "team").mkdir()
    return top


@pytest.mark.parametrize("made_by", ["mkdir .git", "git init"])
def test_a_git_folder_in_a_subfolder_is_a_top_only_when_git_takes_it(repository, made_by):
    """fixh19: ``mkdir .git`` in a subfolder made it the top, for the configuration's search and the confinement,
    where git goes on above a ``.git`` that is no git directory (``setup.c``'s discovery loop)."""
    team = repository / "team"
    if made_by == "git init":
        run_git("init", "-q", str(team))
    else:
        (team / ".git").mkdir()
    real_git_top = git_answer(team, "--show-toplevel")
    assert real_git_top == str(team if made_by == "git init" else repository)
    assert holds_repository(str(team)) is (made_by == "git init")
    assert work_tree_top(str(team)) == real_git_top
    assert find_git_dir(str(team)) == git_answer(team, "--absolute-git-dir")
    # The configuration that differs: the top's names the roots; stopping at the subfolder found none.
    config, base = find_config(str(team))
    if made_by == "git init":
        assert (config, base) == (None, str(team))
    else:
        assert (config and os.path.abspath(config), base) == (str(repository / ".skillmem.yaml"), str(repository))
    # The confinement: a file below the subfolder is another repository's only when git says so.
    write_skill(team, "notes", skill_md("notes", "Team notes"))
    top = os.path.realpath(repository)
    area = Area(top, [os.path.join(top, ".git")], git=True)  # the work tree as git names it
    inside = os.path.realpath(team / "notes")
    assert nested_repository(inside, area) == (os.path.realpath(team) if made_by == "git init" else None)
    if made_by == "mkdir .git":  # git adds what lies below a bare .git folder: this repository's content
        run_git("-C", str(repository), "add", "team/notes/SKILL.md")
        assert git_answer(repository, "--verify", ":team/notes/SKILL.md")
