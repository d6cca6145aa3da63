"""Roots decided by files the snapshot does not stamp (.gitignore), and the search index of --root hooks."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from ..helpers import skill_md, write_skill
from .conftest import fresh_settings, hint_of, run_route


def backdate(folder):
    old = time.time() - 60
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (old, old), follow_symlinks=False)


@pytest.mark.xfail(
    strict=True,
    reason="a layout root git ignores is left out by load_settings; .gitignore is not in the snapshot, so "
    "un-ignoring it leaves the route index (roots, and the kept configuration with it) as it was",
)
def test_unignoring_a_layout_root_is_not_seen(tmp_path, env):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    write_skill(repo / "skills", "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    write_skill(repo / ".claude" / "skills", "pdf-invoices", skill_md("pdf-invoices", "Read PDF invoices"))
    (repo / ".gitignore").write_text(".claude/\n")
    prompt = "use csv-to-table, then pdf-invoices"
    assert "pdf-invoices" not in hint_of(run_route(prompt, repo, env))
    (repo / ".gitignore").write_text("")
    assert ".claude/skills" in fresh_settings(repo)["roots"]
    assert "pdf-invoices" in hint_of(run_route(prompt, repo, env))


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
