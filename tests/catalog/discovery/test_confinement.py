"""catalog/discovery/confinement.py: the one rule of where a file a repository names may lie, with the real git."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.discovery import confinement
from skillmem_hook.catalog.discovery.confinement import (
    IN_GIT_DIRECTORY,
    OUTSIDE,
    Area,
    escape,
    read_area,
    repository_area,
    untracked,
)

from ...helpers import isolate_git, run_git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

TOP = os.sep + os.path.join("work", "repo")
AREA = Area(TOP, [os.path.join(TOP, ".git"), os.path.join(os.sep, "elsewhere", "meta")], git=True)


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("AGENTS.md", None),
        ("skills/pdf/SKILL.md", None),
        (".github/AGENTS.md", None),  # a name that starts like .git is another folder
        ("docs/.gitignore", None),
        (".git/config", IN_GIT_DIRECTORY),
        ("vendor/pack/.git/config", IN_GIT_DIRECTORY),  # a nested repository's git directory
        ("vendor/sub/.git", IN_GIT_DIRECTORY),  # a submodule's .git file, naming its git directory
        ("vendor/pack/.GIT/config", IN_GIT_DIRECTORY),  # git refuses .git in any case, and so does the rule
        ("../repo-evil/AGENTS.md", OUTSIDE),  # shares the top's name as a prefix, still outside
        ("../AGENTS.md", OUTSIDE),
    ],
)
def test_the_letters_of_a_real_path_decide_inside_outside_and_git(path, problem):
    assert escape(os.path.normpath(os.path.join(TOP, path)), AREA) == problem


def test_a_git_directory_elsewhere_is_forbidden_wherever_it_lies():
    inside = Area(os.sep, AREA.forbidden, git=True)
    assert escape(os.path.join(os.sep, "elsewhere", "meta", "config"), inside) == IN_GIT_DIRECTORY
    assert escape(os.path.join(os.sep, "elsewhere", "metadata"), inside) is None


@given(st.lists(st.sampled_from(["a", "b", ".git", ".Git", ".github", "git", ".gitx"]), min_size=1, max_size=5))
def test_a_path_is_in_a_git_directory_exactly_when_a_part_of_it_is_named_git(parts):
    path = os.path.join(TOP, *parts)
    expected = any(part.lower() == ".git" for part in parts)
    assert (escape(path, Area(TOP, [], git=False)) == IN_GIT_DIRECTORY) == expected


def test_untracked_names_the_landings_git_does_not_hold_as_regular_files(monkeypatch):
    run_git("init", "-q")
    for name in ("a.md", "b.md", "c.md", "ignored.md", "new.md"):
        Path(name).write_bytes(b"x\n")
    Path(".gitignore").write_text("ignored.md\n")
    os.symlink("a.md", "link.md")
    run_git("add", "a.md", "b.md", "c.md", "link.md", ".gitignore")
    monkeypatch.setattr(confinement, "_BATCH", 2)  # several git calls, as for a large linked pack
    here = os.path.realpath(".")
    paths = {os.path.join(here, name) for name in ("a.md", "b.md", "c.md", "ignored.md", "new.md", "link.md")}
    assert untracked(paths) == {os.path.join(here, name) for name in ("ignored.md", "new.md", "link.md")}
    assert untracked(paths, listed=[here]) == untracked(paths)


def test_the_read_area_is_the_work_tree_for_a_root_inside_it_and_the_root_for_one_outside(tmp_path):
    run_git("init", "-q")
    Path("skills").mkdir()
    inside = read_area(os.path.realpath("skills"))
    assert (inside.top, inside.git) == (os.path.realpath("."), True)
    outside = tmp_path / "mine"
    outside.mkdir()
    area = read_area(str(outside.resolve()))
    assert (area.top, area.git) == (str(outside.resolve()), False)
    assert os.path.join(os.path.realpath("."), ".git") in area.forbidden  # the repository's own, all the same


def test_without_git_on_the_path_reads_keep_the_root_s_rule_and_writes_are_refused(monkeypatch, tmp_path):
    run_git("init", "-q")
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))
    area = read_area(os.path.realpath("."))
    assert (area.top, area.git) == (os.path.realpath("."), False)
    with pytest.raises(Exception, match="git is not on PATH"):
        repository_area(".")
