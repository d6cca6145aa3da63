"""The kept configuration (route index format 7) against what load_settings gives: it must never go stale.

Found by the hostile tester of 0.4.1; fixed by stamping the configuration that applies and its bytes.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

from ..helpers import skill_md, write_skill
from .conftest import fresh_settings, hint_of, run_route


def skills_with_invoices(root):
    for number in range(6):
        write_skill(root, f"filler-{number}", skill_md(f"filler-{number}", f"Notes on topic {number}"))
    write_skill(root, "pdf-invoices", skill_md("pdf-invoices", "Extract line items and totals from PDF invoices"))


def test_a_config_edit_during_the_route_index_build_is_seen_by_the_next_prompt(tmp_path, env):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    skills_with_invoices(repo / "skills")
    (repo / "AGENTS.md").write_text("# agents\n")  # prompt_files not configured: load_settings asks git check-ignore
    config = repo / ".skillmem.yaml"
    config.write_text("roots: [skills]\n")
    # A stand-in for an editor saving the file while the hook builds: `git` (run by load_settings after it read
    # the file, before the snapshot is taken) saves the new configuration once, then runs the real git.
    shim = tmp_path / "bin"
    shim.mkdir()
    flag = tmp_path / "edit-once"
    flag.touch()
    real_git = shutil.which("git")
    (shim / "git").write_text(
        f"#!/bin/sh\nif [ -e '{flag}' ]; then rm -f '{flag}';"
        f" printf 'roots: [skills]\\nexclude: [pdf-invoices]\\n' > '{config}'; fi\nexec '{real_git}' \"$@\"\n"
    )
    (shim / "git").chmod(stat.S_IRWXU)
    first = run_route("use pdf-invoices on march.pdf", repo, {**env, "PATH": f"{shim}{os.pathsep}{env['PATH']}"})
    assert not flag.exists(), "the edit happened during the build"
    assert "exclude: [pdf-invoices]" in config.read_text()
    assert fresh_settings(repo)["exclude"] == ["pdf-invoices"]
    assert "pdf-invoices" in hint_of(first)  # read before the edit: fair for this prompt
    # Every later prompt, with no other change on disk: the excluded skill is still hinted.
    later = run_route("use pdf-invoices on march.pdf", repo, env)
    assert "pdf-invoices" not in hint_of(later)


def test_git_init_between_the_cwd_and_the_config_ends_that_config_at_once(tmp_path, env):
    top = tmp_path / "projects"
    skills_with_invoices(top / "shared")
    (top / ".skillmem.yaml").write_text(f"roots: ['{top / 'shared'}']\n")
    project = top / "billing"
    cwd = project / "src"
    cwd.mkdir(parents=True)
    write_skill(project / "skills", "deploy-app", skill_md("deploy-app", "Deploy the billing app"))
    prompt = "use pdf-invoices, then deploy-app"
    assert "pdf-invoices" in hint_of(run_route(prompt, cwd, env))  # the parent folder's config: shared skills
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    fresh = fresh_settings(cwd)
    assert fresh["config"] is None and fresh["roots"] == ["../skills"]  # what a fresh read gives now
    line = hint_of(run_route(prompt, cwd, env))
    assert "deploy-app" in line and "pdf-invoices" not in line


def test_a_same_size_same_mtime_config_replacement_is_seen(tmp_path, env):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skills_with_invoices(repo / "skills")
    config = repo / ".skillmem.yaml"
    config.write_text("roots: [skills]\nexclude: [filler-5]\n")
    assert "pdf-invoices" in hint_of(run_route("use pdf-invoices on march.pdf", repo, env))
    before = os.stat(config)
    replacement = tmp_path / "other.yaml"
    replacement.write_text("roots: [skills]\nexclude: [pdf-inv*]\n")
    assert replacement.stat().st_size == before.st_size
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, config)  # a new inode and ctime: only (mtime, size) are compared
    assert fresh_settings(repo)["exclude"] == ["pdf-inv*"]
    assert "pdf-invoices" not in hint_of(run_route("use pdf-invoices on march.pdf", repo, env))
