"""Where each kept file lives: one git-directory rule for all of them, linked worktrees included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillmem_hook.catalog.store.locations import catalog_cache_location, route_index_location, search_index_location

from ...helpers import backdate, hint_of, run_route, skill_md, write_skill


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


def test_a_git_file_that_names_no_git_directory_is_no_repository(tmp_path):
    (tmp_path / ".git").write_text("not a gitdir line\n")
    assert search_index_location(str(tmp_path), ["skills"]).startswith(str(tmp_path / "user-cache"))


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
    (repo / ".git").mkdir(parents=True)
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
    (tmp_path / ".git").mkdir()
    (tmp_path / "victim").mkdir()
    monkeypatch.chdir(tmp_path / "victim")
    assert catalog_cache_location(None) == str(tmp_path / ".git" / "skillmem" / "cache.json")  # root's own .git
    assert search_index_location(str(tmp_path), ["skills"]) == str(tmp_path / ".git" / "skillmem-search.json")
    os.chown(tmp_path / ".git", 65534, 65534)
    assert catalog_cache_location(None) is None
    assert search_index_location(str(tmp_path), ["skills"]).startswith(str(tmp_path / "user-cache"))
