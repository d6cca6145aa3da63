"""The kept configuration (route index format 7) against what load_settings gives: can it go stale?"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

import pytest

from ..helpers import skill_md, write_skill
from .conftest import fresh_settings, hint_of, run_route


def skills_with_invoices(root):
    for number in range(6):
        write_skill(root, f"filler-{number}", skill_md(f"filler-{number}", f"Notes on topic {number}"))
    write_skill(root, "pdf-invoices", skill_md("pdf-invoices", "Extract line items and totals from PDF invoices"))


@pytest.mark.xfail(
    strict=True,
    reason="the route index reads .skillmem.yaml (load_settings) before it stamps it (take_snapshot), and, unlike "
    "the search index, is stored even when racy: an edit between the read and the stamp is never seen",
)
def test_a_config_edit_during_the_route_index_build_is_kept_stale_forever(tmp_path, env):
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


@pytest.mark.xfail(
    strict=True,
    reason="the snapshot stamps every .skillmem.yaml up to the first .git, but not the .git boundary itself: "
    "`git init` in a folder between the cwd and the kept config changes load_settings' answer, not the snapshot",
)
def test_git_init_between_the_cwd_and_the_kept_config_leaves_the_old_config_in_force(tmp_path, env):
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


@pytest.mark.xfail(
    strict=True,
    reason="a config replaced by one of the same size and mtime (cp -p, rsync -t, tar x) keeps its stamp; the "
    "kept exclude, aliases and domains are then used instead of the file's (the route index has no racy guard)",
)
def test_a_same_size_same_mtime_config_replacement_is_not_seen(tmp_path, env):
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
