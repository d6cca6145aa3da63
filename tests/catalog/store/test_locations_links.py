"""hostile10: a ``.git`` link, a ``.git`` folder that is no git directory, a ``skillmem`` link in a git directory.

A repository's content (an unpacked archive) can ship each of them. None may make a run write into a folder of
the user's: each test runs the real route hook and the real CLI, and holds the victim's files unchanged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.catalog.store.locations import git_dir_at, search_index_location
from skillmem_hook.catalog.store.records import write_lines_quietly

from ...helpers import backdate, hint_of, make_git_dir, run_route, skill_md, write_skill
from .test_locations import wait_for_builds

PROMPT = "pull the line items and totals out of our suppliers' PDF invoices, for each of them"
COMMANDS = (["search", "invoices"], ["index"], ["inject"], ["verify", "--tracked"])


def git(*arguments, cwd="."):
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(["git", *identity, *arguments], cwd=cwd, check=True, capture_output=True, text=True).stdout


def project_with_skills(project: Path) -> Path:
    for number in range(10):
        write_skill(project / ".claude/skills", f"filler-{number}", skill_md(f"filler-{number}", f"Notes on {number}"))
    write_skill(
        project / ".claude/skills", "invoices", skill_md("invoices", "Extract line items and totals from PDF invoices")
    )
    (project / "AGENTS.md").write_bytes(b"# Agents\n")
    return project


def committed_project(project: Path) -> Path:
    project_with_skills(project)
    git("init", "-q", str(project))
    git("add", "-A", cwd=project)
    git("commit", "-q", "-m", "skills", cwd=project)
    return project


def victim_folder(tmp_path: Path) -> Path:
    """A private folder of the user's (``~/.ssh``), holding files named as skillmem's kept files."""
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o700)
    for name in ("cache.json", "catalog.json", "skillmem-route.json", "skillmem-search.json", "vectors.bin"):
        (victim / name).write_bytes(b"the user's own\n")
        (victim / name).chmod(0o600)
    return victim


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def run_every_command(project: Path, env: dict[str, str], *folders: Path) -> list[str]:
    """The route hook (three prompts: the first build the indexes in the background), then each CLI command;
    what each says on stderr."""
    said = []
    for _ in range(3):
        routed = run_route(PROMPT, project, env)
        assert routed.stderr == b""
        wait_for_builds(Path(env["XDG_CACHE_HOME"]), *folders)
    assert "invoices" in hint_of(routed)
    for command in COMMANDS:
        run = subprocess.run(
            [sys.executable, "-m", "skillmem_hook", *command], cwd=project, capture_output=True, env=env, text=True
        )
        # verify: drift (3) on a fresh AGENTS.md; --tracked outside a repository git takes, a usage error (2)
        assert run.returncode in (0, 2, 3), run.stderr
        assert "unexpected error" not in run.stderr
        said.append(run.stderr)
    wait_for_builds(Path(env["XDG_CACHE_HOME"]), *folders)
    return said


# Item 1: a .git link to a folder of the user's. Git refuses it ("not a git repository"); skillmem wrote into it.


@pytest.mark.parametrize("how", ["absolute", "relative"])
def test_a_git_link_to_a_folder_of_the_users_gets_nothing_written(tmp_path, env, how):
    victim = victim_folder(tmp_path)
    before = contents(victim)
    project = project_with_skills(tmp_path / "project")
    (project / ".git").symlink_to(victim if how == "absolute" else Path("..", "victim"))
    backdate(tmp_path)
    said = run_every_command(project, env, victim)
    assert contents(victim) == before
    # fixh19: git goes on above such a .git, so the project is no repository (verify --tracked says so); a
    # command that asks for the folder's own git directory (search's index) says why nothing is kept there.
    assert any(said[:3]) and all(not line or "is no git directory" in line for line in said[:3]), said


# What git itself makes of a .git link: it follows it, and takes the folder when it is a git directory.
# fixh25: git takes another work tree's .git folder too, but skillmem keeps nothing there (hostile13 F4).
LINKS = {
    "a git directory inside the work tree": ("inside/.git", True, False),
    "another work tree's git directory elsewhere": ("../real/.git", True, False),
    "a private git directory of its own elsewhere": ("../store", True, True),
    "a folder that is no git directory": ("../victim", False, False),
    "nothing": ("../missing", False, False),
}


@pytest.mark.parametrize("link", LINKS)
def test_a_git_link_is_taken_as_git_takes_it(tmp_path, link):
    target, taken, kept = LINKS[link]
    git("init", "-q", str(tmp_path / "real"))
    git("init", "-q", f"--separate-git-dir={tmp_path / 'store'}", str(tmp_path / "elsewhere"))
    victim_folder(tmp_path)
    project = tmp_path / "project"
    git("init", "-q", str(project / "inside"))
    (project / ".git").symlink_to(target)
    by_git = subprocess.run(
        ["git", "rev-parse", "--git-dir"],
        cwd=project,
        capture_output=True,
        env={**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"},
    )
    assert (by_git.returncode == 0) is taken
    assert git_dir_at(str(project)) == (str(project / ".git") if kept else None)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="files have no owners here")
def test_a_git_link_to_a_git_directory_others_may_write_keeps_nothing(tmp_path):
    """Stricter than git, as for a ``gitdir:`` line: a link elsewhere must name a folder this user's alone."""
    git("init", "-q", f"--separate-git-dir={tmp_path / 'store'}", str(tmp_path / "real"))
    (tmp_path / "store").chmod(0o777)
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / ".git").symlink_to(tmp_path / "store")
    assert git_dir_at(str(tmp_path / "project")) is None
    (tmp_path / "store").chmod(0o700)
    assert git_dir_at(str(tmp_path / "project")) == str(tmp_path / "project" / ".git")


def test_a_git_folder_that_is_no_git_directory_keeps_nothing(tmp_path, env):
    """``mkdir .git``: git goes on above it; skillmem kept its indexes there."""
    project = project_with_skills(tmp_path / "project")
    (project / ".git").mkdir()
    assert git_dir_at(str(project)) is None
    backdate(tmp_path)
    run_every_command(project, env)
    assert list((project / ".git").iterdir()) == []
    assert git_dir_at(str(make_git_dir(project / ".git").parent)) == str(project / ".git")


# Item 2: a link at <git dir>/skillmem, in the repository's own .git or in a git directory shipped in the tree.


def test_a_skillmem_link_in_the_git_directory_gets_nothing_written(tmp_path, env):
    victim = victim_folder(tmp_path)
    before = contents(victim)
    project = committed_project(tmp_path / "project")
    (project / ".git" / "skillmem").symlink_to(victim)
    backdate(tmp_path)
    said = run_every_command(project, env, project / ".git")
    assert contents(victim) == before
    # search reads its stored index (beside the folder) and needs nothing of it; the others say so once
    refused = "it is a link, and skillmem keeps its files only in a folder of its own"
    assert all(refused in line for line in said[1:]), said
    assert (project / ".git" / "skillmem-route.json").is_file()  # the top-level indexes are kept as before


def test_a_skillmem_link_in_a_git_directory_shipped_in_the_tree_gets_nothing_written(tmp_path, env):
    victim = victim_folder(tmp_path)
    before = contents(victim)
    project = project_with_skills(tmp_path / "project")
    make_git_dir(project / "fake")
    (project / "fake" / "skillmem").symlink_to(victim)
    (project / ".git").write_text("gitdir: ./fake\n")
    backdate(tmp_path)
    run_every_command(project, env, project / "fake")
    assert contents(victim) == before


def test_a_kept_file_in_place_of_a_link_replaces_the_link_not_its_target(tmp_path, env):
    """The top-level kept files: a link there is replaced by the rename (hostile10 saw it hold)."""
    victim = victim_folder(tmp_path)
    before = contents(victim)
    project = committed_project(tmp_path / "project")
    for name in ("skillmem-route.json", "skillmem-search.json"):
        (project / ".git" / name).symlink_to(victim / name)
    backdate(tmp_path)
    run_every_command(project, env, project / ".git")
    assert contents(victim) == before
    for name in ("skillmem-route.json", "skillmem-search.json"):
        assert not (project / ".git" / name).is_symlink()
        assert (project / ".git" / name).is_file()


def test_the_writer_follows_no_link_to_its_folder(tmp_path):
    """Whatever the places chose: a folder swapped for a link between the check and the write gets nothing."""
    victim = victim_folder(tmp_path)
    before = contents(victim)
    (tmp_path / "kept").symlink_to(victim)
    write_lines_quietly(str(tmp_path / "kept" / "cache.json"), [b"new\n"])
    assert contents(victim) == before
    (tmp_path / "real").mkdir()
    write_lines_quietly(str(tmp_path / "real" / "cache.json"), [b"new\n"])
    assert contents(tmp_path / "real") == {"cache.json": b"new\n"}


def test_the_users_own_cache_folder_link_is_followed_to_its_folder(tmp_path, monkeypatch):
    """The user's cache folder may be a link of the user's own (both ends checked): kept in the folder it names,
    as the writer follows no link to a folder."""
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    (tmp_path / "xdg").mkdir(mode=0o700)
    (tmp_path / "xdg" / "skillmem").symlink_to(real)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "outside").mkdir()
    location = search_index_location(str(tmp_path / "outside"), ["skills"])
    assert os.path.dirname(location) == str(real)
    write_lines_quietly(location, [b"kept\n"])
    assert (real / os.path.basename(location)).read_bytes() == b"kept\n"
