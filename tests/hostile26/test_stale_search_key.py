"""The kept configuration and the file must agree, or the search index is built for one and asked for with the other."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from ..helpers import skill_md, write_skill
from .conftest import hint_of, run_route

PROMPT = "pull the line items and totals out of our suppliers' PDF invoices, for each of them"


def wait_for_build(repo):
    marker = repo / ".git" / "skillmem-search.json.building"
    deadline = time.monotonic() + 60
    while marker.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def backdate(folder):
    old = time.time() - 60
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (old, old), follow_symlinks=False)


def hinted_repository(tmp_path, env):
    """A repository whose warm route hint names `invoices`, with both indexes stored; and its configuration."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for number in range(10):
        write_skill(repo / "skills", f"filler-{number}", skill_md(f"filler-{number}", f"Notes on topic {number}"))
    write_skill(repo / "skills", "invoices", skill_md("invoices", "Extract line items and totals from PDF invoices"))
    config = repo / ".skillmem.yaml"
    config.write_text("roots: [skills]\nexclude: [filler-0]\n")
    backdate(repo)
    run_route(PROMPT, repo, env)
    wait_for_build(repo)
    assert "invoices" in hint_of(run_route(PROMPT, repo, env))
    return repo, config


def test_a_config_with_the_same_stamp_and_skillmem_search_keep_the_score_hint(tmp_path, env):
    repo, config = hinted_repository(tmp_path, env)
    # The same size and mtime (cp -p, rsync -t): the route index stays "current" with the old exclude.
    before = os.stat(config)
    config.write_text("roots: [skills]\nexclude: [filler-1]\n")
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    # `skillmem search` reads the file afresh and stores the search index under the new configuration's key.
    searched = subprocess.run(
        [sys.executable, "-m", "skillmem_hook", "search", "invoices"], cwd=repo, env=env, capture_output=True
    )
    assert searched.returncode == 0, searched.stderr
    hints, started = [], 0
    for _ in range(3):
        result = run_route(PROMPT, repo, env)
        started += (repo / ".git" / "skillmem-search.json.building").exists()
        wait_for_build(repo)
        hints.append("invoices" in hint_of(result))
    assert hints == [True, True, True], f"{started} background processes started for {hints.count(False)} lost hints"


def test_an_exclusion_that_keeps_the_configs_stamp_ends_the_score_hint(tmp_path, env):
    repo, config = hinted_repository(tmp_path, env)
    before = os.stat(config)
    config.write_text("roots: [skills]\nexclude: [invoices]\n")
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    run_route(PROMPT, repo, env)
    wait_for_build(repo)
    assert "invoices" not in hint_of(run_route(PROMPT, repo, env))
