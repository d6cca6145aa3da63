"""hostile13's F4: a ``.git`` that leads to another repository's git directory.

An unpacked archive's ``.git`` file (``gitdir: ../victim/.git``), or a ``.git`` folder whose ``commondir`` names
``../../victim/.git``, makes git act on the victim repository. ``skillmem init`` there is refused (exit 2, the
git directory named) and writes neither the merge driver into the victim's config nor a hook into its hooks;
nothing is kept there (``.git/skillmem``, the route and search indexes). Git's own layouts, whose git directory
points back at its work tree, keep working: a linked worktree, a submodule, ``git init --separate-git-dir``.
Real repositories, real git.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery.git import find_work_tree
from skillmem_hook.catalog.dot_git import foreign_git_dir
from skillmem_hook.catalog.store.locations import catalog_cache_location, route_index_location, search_index_location

from .helpers import isolate_git, run_cli, run_git, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    run_git("init", "-q", str(victim))
    (victim / "README").write_text("hi\n")
    run_git("-C", str(victim), "add", "-A")
    run_git("-C", str(victim), "commit", "-qm", "v")
    return victim


def _skills(folder: Path) -> None:
    write_skill(folder / ".claude/skills", "x", skill_md("x", "merge pdf files"))
    (folder / "AGENTS.md").write_text("# Agents\n")


def _victim_state(victim: Path) -> tuple[bytes, list[str]]:
    git_dir = victim / ".git"
    return (git_dir / "config").read_bytes(), sorted(os.listdir(git_dir))


@pytest.fixture
def home(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.mark.parametrize("variant", ["gitdir", "commondir"])
def test_init_in_an_archive_leading_to_another_repository_is_refused(capsys, home, variant):
    victim = _victim(home)
    archive = home / "un"
    archive.mkdir()
    _skills(archive)
    if variant == "commondir":
        (archive / ".git").mkdir()
        (archive / ".git" / "HEAD").write_text("ref: refs/heads/master\n")
        (archive / ".git" / "commondir").write_text("../../victim/.git\n")
    else:
        (archive / ".git").write_text("gitdir: ../victim/.git\n")
    before = _victim_state(victim)
    os.chdir(archive)
    assert foreign_git_dir(str(archive)) is not None
    for args in (["init", "--dry-run"], ["init"]):
        run = run_cli(capsys, *args)
        assert run.code == 2, run.out
        assert "another repository's git directory" in run.error["error"]
        assert "victim" in run.error["error"] or ".git" in run.error["error"]
    assert _victim_state(victim) == before  # no merge.skillmem, no hooks/pre-commit, no skillmem folder
    assert not (victim / ".git" / "hooks" / "pre-commit").exists()
    assert not (archive / ".skillmem.yaml").exists()
    # Nothing is kept there either: the indexes and the catalog cache go elsewhere (or nowhere).
    for location in (
        route_index_location(str(archive), None),
        search_index_location(str(archive), [".claude/skills"]),
        catalog_cache_location(find_work_tree()),
    ):
        assert location is None or not os.path.realpath(location).startswith(os.path.realpath(victim))
    assert run_cli(capsys, "search", "merge pdf").code == 0
    assert _victim_state(victim) == before


def _kept_in(git_dir: Path, folder: Path) -> None:
    """The route index and the catalog cache of ``folder`` are kept in ``git_dir``, its own."""
    os.chdir(folder)
    assert foreign_git_dir(str(folder)) is None
    route = route_index_location(str(folder), None)
    cache = catalog_cache_location(find_work_tree())
    for location in (route, cache):
        assert location is not None
        assert os.path.realpath(location).startswith(os.path.realpath(git_dir) + os.sep)


def _init_sets_the_driver(capsys, folder: Path, git_dir: Path) -> None:
    os.chdir(folder)
    run = run_cli(capsys, "init", "--no-install")
    assert run.code == 0, run.err
    assert "skillmem" in (git_dir / "config").read_text()


def test_a_linked_worktree_a_submodule_and_a_separate_git_dir_keep_working(capsys, home):
    main = _victim(home)
    run_git("-C", str(main), "worktree", "add", "-q", str(home / "linked"))
    _skills(home / "linked")
    worktree_git_dir = main / ".git" / "worktrees" / "linked"
    _kept_in(worktree_git_dir, home / "linked")
    _init_sets_the_driver(capsys, home / "linked", main / ".git")  # git config --local: the common config

    sup = home / "sup"
    run_git("init", "-q", str(sup))
    run_git("-C", str(sup), "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(main), "sm")
    _skills(sup / "sm")
    _kept_in(sup / ".git" / "modules" / "sm", sup / "sm")
    _init_sets_the_driver(capsys, sup / "sm", sup / ".git" / "modules" / "sm")

    separate = home / "separate"
    run_git("init", "-q", f"--separate-git-dir={home / 'store'}", str(separate))
    _skills(separate)
    _kept_in(home / "store", separate)
    _init_sets_the_driver(capsys, separate, home / "store")


@pytest.mark.parametrize("layout", ["worktree", "submodule", "dotgit", "bare"])
def test_a_git_dir_naming_another_work_tree_is_foreign(home, layout):
    main = _victim(home)
    run_git("-C", str(main), "worktree", "add", "-q", str(home / "linked"))
    run_git("init", "-q", "--bare", str(home / "bare.git"))
    sup = home / "sup"
    run_git("init", "-q", str(sup))
    run_git("-C", str(sup), "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(main), "sm")
    named = {
        "worktree": main / ".git" / "worktrees" / "linked",
        "submodule": sup / ".git" / "modules" / "sm",
        "dotgit": main / ".git",
        "bare": home / "bare.git",
    }[layout]
    archive = home / "un"
    archive.mkdir()
    (archive / ".git").write_text(f"gitdir: {os.path.relpath(named, archive)}\n")
    foreign = foreign_git_dir(str(archive))
    assert foreign is not None
    assert os.path.realpath(foreign[0]) == os.path.realpath(named)
    assert route_index_location(str(archive), None) is None or str(named) not in str(
        route_index_location(str(archive), None)
    )


def test_a_shipped_back_link_does_not_make_another_common_dir_ours(home):
    """The archive's own ``meta`` holds a ``commondir`` naming the victim's ``.git`` and a ``gitdir`` naming the
    archive's ``.git``: a linked worktree's back-link counts only from ``<common>/worktrees/<n>``."""
    _victim(home)
    archive = home / "un"
    meta = archive / "meta"
    meta.mkdir(parents=True)
    (meta / "HEAD").write_text("ref: refs/heads/master\n")
    (meta / "commondir").write_text("../../victim/.git\n")
    (meta / "gitdir").write_text(f"{archive / '.git'}\n")
    (archive / ".git").write_text("gitdir: ./meta\n")
    foreign = foreign_git_dir(str(archive))
    assert foreign is not None
    assert "linked worktree" in foreign[1]
    assert route_index_location(str(archive), None) is None or "meta" not in str(
        route_index_location(str(archive), None)
    )
