"""Where each kept file lives: one git-directory rule for all of them, linked worktrees included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillmem_hook.catalog.store import locations
from skillmem_hook.catalog.store.locations import (
    catalog_cache_location,
    git_dir_at,
    own_git_dir_answers_kept_for_the_run,
    route_index_location,
    search_index_location,
)

from ...helpers import backdate, hint_of, make_git_dir, run_route, skill_md, write_skill


def git(*arguments, cwd="."):
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(["git", *identity, *arguments], cwd=cwd, check=True, capture_output=True, text=True).stdout


def linked_worktree(tmp_path):
    """A repository with one skill, and a linked worktree of it (whose .git is a file naming its git directory)."""
    main = tmp_path / "main"
    write_skill(main / "skills", "csv-tables", skill_md("csv-tables", "Parse CSV files into tables"))
    (main / ".skillmem.yaml").write_text("roots: [skills]\n")
    git("init", "-q", str(main))
    git("add", "-A", cwd=main)
    git("commit", "-q", "-m", "skills", cwd=main)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", str(linked), cwd=main)
    assert (linked / ".git").is_file()
    return main, linked, Path(git("rev-parse", "--absolute-git-dir", cwd=linked).strip())


def test_a_linked_worktree_keeps_its_indexes_in_its_own_git_directory_as_the_catalog_cache(tmp_path):
    main, linked, git_dir = linked_worktree(tmp_path)
    assert route_index_location(str(linked), []) == str(git_dir / "skillmem-route.json")
    assert search_index_location(str(linked), ["skills"]) == str(git_dir / "skillmem-search.json")
    assert route_index_location(str(main), []) == str(main / ".git" / "skillmem-route.json")
    # Roots given on the command line keep theirs in the user's cache folder, in a worktree as anywhere.
    assert "user-cache" in search_index_location(str(linked), ["skills"], flagged=True)


def test_skillmem_search_in_a_linked_worktree_writes_nothing_to_the_users_cache(tmp_path):
    # Before issue 30 the route and search indexes asked for a .git folder, so a linked worktree's went to the
    # user's cache folder, while its catalog cache went to its own git directory.
    _, linked, git_dir = linked_worktree(tmp_path)
    past = time.time() - 60  # a settled disk: an index of files changed within 3 s is not kept
    for path in [linked, *linked.rglob("*")]:
        os.utime(path, (past, past))
    searched = subprocess.run(
        [sys.executable, "-m", "skillmem_hook", "search", "csv"], cwd=linked, capture_output=True, check=True
    )
    assert [result["name"] for result in json.loads(searched.stdout)["results"]] == ["csv-tables"]
    assert (git_dir / "skillmem-search.json").is_file()
    user_cache = tmp_path / "user-cache" / "skillmem"
    assert not user_cache.exists() or not list(user_cache.iterdir())


def test_within_one_run_a_folders_git_is_read_once_and_a_long_running_process_reads_it_anew(tmp_path):
    repo = tmp_path / "repo"
    git("init", "-q", str(repo))
    assert locations._OWN_GIT_DIR_ANSWERS is None  # outside a run (the MCP server's asks): nothing is kept
    with own_git_dir_answers_kept_for_the_run():
        assert git_dir_at(str(repo)) == str(repo / ".git")
        read = locations._OWN_GIT_DIR_ANSWERS
        assert read == {str(repo): True}
        # The second ask takes the first answer: had it read .git again, it would not see this stand-in.
        read[str(repo)] = False
        assert git_dir_at(str(repo)) is None
        with own_git_dir_answers_kept_for_the_run():  # a scope inside the run's shares its answers
            assert git_dir_at(str(repo)) is None
    assert locations._OWN_GIT_DIR_ANSWERS is None
    assert git_dir_at(str(repo)) == str(repo / ".git")


def test_a_git_file_that_names_no_git_directory_is_no_repository(tmp_path):
    (tmp_path / ".git").write_text("not a gitdir line\n")
    assert search_index_location(str(tmp_path), ["skills"]).startswith(str(tmp_path / "user-cache"))


# fixh13: what a .git file may name, read as git's read_gitfile_gently and is_git_directory (setup.c) read it. Each
# .git file's bytes, in the folder "project" beside "real" (a repository) and "victim" (a folder of the user's).
GIT_FILES = {
    "a git directory": b"gitdir: ../real/.git\n",
    "a folder that is no git directory": b"gitdir: ../victim\n",
    "a folder that is not there": b"gitdir: ../missing\n",
    "a NUL after a git directory's path": b"gitdir: ../real/.git\0y\n",
    "a NUL after another folder's path": b"gitdir: ../victim\0y\n",
    "two lines, the first a git directory's": b"gitdir: ../real/.git\nsecond\n",
    "CRLF": b"gitdir: ../real/.git\r\n",
    "blank lines after": b"gitdir: ../real/.git\n\r\n\n",
    "spaces after": b"gitdir: ../real/.git  \n",
    "two spaces before": b"gitdir:  ../real/.git\n",
}
VICTIMS = {  # what "victim" holds: files and folders, git's three marks of a git directory or some of them
    "nothing": {},
    "a HEAD only": {"HEAD": "ref: refs/heads/main\n"},
    "objects and refs, no HEAD": {"objects/": "", "refs/": ""},
    "HEAD and refs, no objects": {"HEAD": "ref: refs/heads/main\n", "refs/": ""},
    "objects and refs, a HEAD whose ref is not under refs/": {"HEAD": "ref: main\n", "objects/": "", "refs/": ""},
    "objects and refs, a HEAD of other text": {"HEAD": "main\n", "objects/": "", "refs/": ""},
    "objects and refs, a HEAD naming an object": {
        "HEAD": "0123456789abcdef0123456789abcdef01234567\n",
        "objects/": "",
        "refs/": "",
    },
    "HEAD, objects, refs": {"HEAD": "ref: refs/heads/main\n", "objects/": "", "refs/": ""},
    "HEAD and a commondir naming a git directory's (a linked worktree's)": {
        "HEAD": "ref: refs/heads/main\n",
        "commondir": "../real/.git\n",
    },
    "HEAD, objects and refs, and a commondir naming a folder without them": {
        "HEAD": "ref: refs/heads/main\n",
        "objects/": "",
        "refs/": "",
        "commondir": "refs\n",
    },
}


LINKED = "HEAD and a commondir naming a git directory's (a linked worktree's)"
ACCEPTED = {
    "HEAD, objects, refs",
    "objects and refs, a HEAD naming an object",
    "HEAD and a commondir naming a git directory's (a linked worktree's)",
}


def _git_dir_by_git(folder):
    """The git directory git itself finds from ``folder``; None when git refuses it ("not a git repository")."""
    found = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "GIT_CEILING_DIRECTORIES": str(folder.parent), "GIT_CONFIG_NOSYSTEM": "1"},
    )
    return os.path.realpath(found.stdout.rstrip("\n")) if found.returncode == 0 else None


def _fixture_of_git_files(tmp_path, dot_git, victim):
    git("init", "-q", str(tmp_path / "real"))
    # fixh25: its work tree is "project" (a submodule's back-link), so skillmem keeps files there as git uses it
    git("config", "-f", str(tmp_path / "real" / ".git" / "config"), "core.worktree", "../../project")
    (tmp_path / "victim").mkdir()
    for name, text in VICTIMS[victim].items():
        if name.endswith("/"):
            (tmp_path / "victim" / name).mkdir()
        else:
            (tmp_path / "victim" / name).write_text(text)
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").write_bytes(GIT_FILES[dot_git])
    return project


@pytest.mark.parametrize("dot_git", GIT_FILES)
def test_a_git_file_names_the_git_directory_git_finds_or_none(tmp_path, dot_git):
    """fixh13: skillmem read a .git file by its own rule: all its lines as the path (git keeps the breaks
    within), a NUL byte raised ValueError, and any folder it named was taken for a git directory."""
    project = _fixture_of_git_files(tmp_path, dot_git, "nothing")
    ours = git_dir_at(str(project))
    assert (None if ours is None else os.path.realpath(ours)) == _git_dir_by_git(project)


@pytest.mark.parametrize("victim", VICTIMS)
def test_a_folder_a_git_file_names_is_a_git_directory_by_gits_own_test(tmp_path, victim):
    project = _fixture_of_git_files(tmp_path, "a folder that is no git directory", victim)
    ours = git_dir_at(str(project))
    # fixh25: a linked worktree's git directory whose gitdir names no work tree here keeps nothing (git takes it)
    by_git = None if victim == LINKED else _git_dir_by_git(project)
    assert (None if ours is None else os.path.realpath(ours)) == by_git
    assert (ours is None) is (victim not in ACCEPTED or victim == LINKED)


@pytest.mark.parametrize("dot_git", ["gitdir: /VICTIM\n", "gitdir: ../victim\0y\n", "gitdir: ../victim/\nx\n"])
def test_a_git_file_naming_a_folder_of_the_users_makes_nothing_be_written_there(tmp_path, dot_git, env):
    """fixh13's hostile tester: "gitdir: /tmp/victim" made the route hook write skillmem-route.json,
    skillmem-search.json and skillmem/ into that folder (~/.ssh would do); a NUL made every command a bug."""
    victim = tmp_path / "victim"
    victim.mkdir()
    project = tmp_path / "project"
    for number in range(10):
        write_skill(project / ".claude/skills", f"filler-{number}", skill_md(f"filler-{number}", f"Notes on {number}"))
    write_skill(
        project / ".claude/skills", "invoices", skill_md("invoices", "Extract line items and totals from PDF invoices")
    )
    (project / ".git").write_bytes(dot_git.replace("/VICTIM", str(victim)).encode())
    backdate(tmp_path)
    project_prompt = "pull the line items and totals out of our suppliers' PDF invoices, for each of them"
    for _ in range(3):  # the first prompts build the indexes in the background
        routed = run_route(project_prompt, project, env)
        assert routed.stderr == b""
        wait_for_builds(Path(env["XDG_CACHE_HOME"]), victim)
    assert "invoices" in hint_of(routed)
    for command in (["search", "invoices"], ["index"], ["prompt"], ["lint"]):
        run = subprocess.run(
            [sys.executable, "-m", "skillmem_hook", *command], cwd=project, capture_output=True, env=env, text=True
        )
        assert run.returncode == 0, run.stderr
        assert "is no git directory (git finds no HEAD, objects and refs there" in run.stderr
        assert "unexpected error" not in run.stderr
    wait_for_builds(Path(env["XDG_CACHE_HOME"]))
    assert list(victim.iterdir()) == []
    assert not (tmp_path / "victim\0y").exists()


def wait_for_builds(*folders):
    """Until no background build is marked in any of ``folders`` (the repository's .git, the user's cache)."""
    deadline = time.monotonic() + 60
    time.sleep(0.2)
    while any(folder.is_dir() and any(folder.rglob("*.building")) for folder in folders):
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_user_hook_with_root_and_the_project_hook_keep_their_own_search_indexes(tmp_path, env):
    # Found by the hostile tester of 0.4.1 (older than it): in a repository's top the search index was one file
    # whatever --root said, so two hooks run on each prompt overwrote each other's, and one lost its hint.
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    home = tmp_path / "home" / ".claude" / "skills"
    for number in range(10):
        write_skill(repo / "skills", f"filler-{number}", skill_md(f"filler-{number}", f"Notes on topic {number}"))
        write_skill(home, f"note-{number}", skill_md(f"note-{number}", f"Personal notes {number}"))
    write_skill(repo / "skills", "invoices", skill_md("invoices", "Extract line items and totals from PDF invoices"))
    write_skill(home, "kube-debug", skill_md("kube-debug", "Debug crashing Kubernetes pods, their logs and events"))
    backdate(tmp_path)
    project = "pull the line items and totals out of our suppliers' PDF invoices, for each of them"
    user = "my kubernetes pods keep crashing, read the container logs and events and debug them"
    rounds = []
    for _ in range(4):  # Claude Code runs both hooks on each prompt
        got_project = "invoices" in hint_of(run_route(project, repo, env))
        got_user = "kube-debug" in hint_of(run_route(user, repo, env, "--root", str(home)))
        wait_for_builds(repo / ".git", Path(env["XDG_CACHE_HOME"]))
        rounds.append((got_project, got_user))
    assert rounds[2:] == [(True, True), (True, True)], rounds


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_another_users_git_folder_above_keeps_nothing_of_this_users(tmp_path, monkeypatch):
    """H7-1: root's run in /tmp/victim kept its cache in another user's /tmp/.git, which that user could swap."""
    monkeypatch.delenv("SUDO_UID", raising=False)
    make_git_dir(tmp_path / ".git")
    (tmp_path / "victim").mkdir()
    monkeypatch.chdir(tmp_path / "victim")
    assert catalog_cache_location(None) == str(tmp_path / ".git" / "skillmem" / "cache.json")  # root's own .git
    assert search_index_location(str(tmp_path), ["skills"]) == str(tmp_path / ".git" / "skillmem-search.json")
    os.chown(tmp_path / ".git", 65534, 65534)
    assert catalog_cache_location(None) is None
    assert search_index_location(str(tmp_path), ["skills"]).startswith(str(tmp_path / "user-cache"))
