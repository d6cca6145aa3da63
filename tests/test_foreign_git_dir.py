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
import subprocess
import sys
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
    _kept_in(home / "store", separate)  # the kept files run nothing: still kept there

    plain = home / "plain"
    run_git("init", "-q", str(plain))
    _skills(plain)
    _kept_in(plain / ".git", plain)
    _init_sets_the_driver(capsys, plain, plain / ".git")


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


# hostile14's F1: a store outside the work tree that nothing links back, the user's --separate-git-dir or another
# work tree's (`gitdir: ../victim-store`): init writes its files but no git config and no hook there, and says the
# commands to run by hand.


def _separate_victim(home: Path) -> tuple[Path, Path]:
    victim, store = home / "victim", home / "victim-store"
    run_git("init", "-q", f"--separate-git-dir={store}", str(victim))
    (victim / "README").write_text("hi\n")
    run_git("-C", str(victim), "add", "-A")
    run_git("-C", str(victim), "commit", "-qm", "v")
    return victim, store


def _store_state(store: Path) -> tuple[bytes, list[str]]:
    return (store / "config").read_bytes(), sorted(os.listdir(store / "hooks"))


def _manager_only(monkeypatch, home: Path, name: str) -> str:
    """A PATH holding git and one hook manager (pre-commit or prek, from beside this interpreter), not the other."""
    found = os.path.join(os.path.dirname(sys.executable), name)
    if not os.path.exists(found):
        pytest.skip(f"{name} is not installed beside this interpreter")
    path = home / f"path-{name}"
    path.mkdir(exist_ok=True)
    if not (path / name).exists():
        (path / name).symlink_to(found)
    git = os.path.dirname(shutil.which("git") or "/usr/bin/git")
    monkeypatch.setenv("PATH", f"{path}{os.pathsep}{git}")
    return found


@pytest.mark.parametrize("manager", ["pre-commit", "prek"])
@pytest.mark.parametrize("layout", ["archive", "own"])
def test_a_git_dir_outside_with_no_back_link_gets_no_config_and_no_hook(capsys, home, monkeypatch, manager, layout):
    _manager_only(monkeypatch, home, manager)
    victim, store = _separate_victim(home)
    if layout == "archive":  # the archive's .git names another work tree's separate store
        folder = home / "un"
        folder.mkdir()
        (folder / ".git").write_text("gitdir: ../victim-store\n")
    else:  # the user's own --separate-git-dir repository: the same refusal, and the commands that adopt it
        folder = victim
    _skills(folder)
    before = _store_state(store)
    os.chdir(folder)
    assert foreign_git_dir(str(folder)) is None  # the kept files' rule is unchanged
    run = run_cli(capsys, "init")
    assert run.code == 0, run.err
    assert run.data["git_config"] == []
    assert run.data["hooks_installed"] == f"'{manager} install' not run: the git directory lies outside this work tree"
    note = next(note for note in run.data["notes"] if note.startswith("git config and hook not set up"))
    assert os.path.realpath(note.split("git directory ")[1].split(" lies")[0]) == os.path.realpath(store)
    assert (folder / ".skillmem.yaml").is_file()  # the work tree's own files are written
    assert _store_state(store) == before  # no merge.skillmem.*, no hooks/pre-commit
    if layout == "own":  # the commands the note gives set it up, run where init ran
        commands = note.split("run here: ")[1]
        subprocess.run(["bash", "-c", commands.replace("; ", " && ")], check=True, capture_output=True)
        assert "skillmem" in (store / "config").read_text()
        assert (store / "hooks" / "pre-commit").is_file()
        assert run_cli(capsys, "init").data["git_config"] == []  # still not written by init itself
    else:
        assert "skillmem" not in (store / "config").read_text()


def test_a_git_dir_outside_named_in_the_environment_is_the_users_and_set_up(capsys, home, monkeypatch):
    victim, store = _separate_victim(home)
    _skills(victim)
    os.chdir(victim)
    monkeypatch.setenv("GIT_DIR", str(store))
    monkeypatch.setenv("GIT_WORK_TREE", str(victim))
    run = run_cli(capsys, "init", "--no-install")
    assert run.code == 0, run.err
    assert run.data["git_config"] == ["merge.skillmem.name", "merge.skillmem.driver"]
    assert "skillmem" in (store / "config").read_text()


def test_a_dot_git_link_to_a_store_outside_counts_as_a_gitdir_line(home):
    from skillmem_hook.catalog.dot_git import unlinked_outside_git_dir

    _victim, store = _separate_victim(home)
    for name, inside in (("linked", False), ("inner", True)):
        folder = home / name
        folder.mkdir()
        if inside:  # a store inside the work tree is its own, as `gitdir: ./meta` is
            run_git("init", "-q", "--bare", str(folder / "meta"))
            run_git("--git-dir", str(folder / "meta"), "config", "core.bare", "false")
            (folder / ".git").symlink_to("meta")
        else:
            (folder / ".git").symlink_to(store)
        found = unlinked_outside_git_dir(str(folder))
        assert (found is None) == inside, name
        if not inside:
            assert os.path.realpath(str(found)) == os.path.realpath(store)


# hostile14's F2: links inside the archive's own .git folder.


def _archive_with_links(home: Path, variant: str) -> Path:
    archive = home / "un"
    run_git("init", "-q", str(archive))
    _skills(archive)
    git_dir = archive / ".git"
    if variant in ("config", "both"):
        (git_dir / "config").rename(home / "outside-config")
        (git_dir / "config").symlink_to(home / "outside-config")
    if variant in ("hooks", "both"):
        shutil.rmtree(git_dir / "hooks")
        (home / "bin").mkdir(exist_ok=True)
        (git_dir / "hooks").symlink_to(home / "bin")
    if variant == "hook":
        (home / "target").write_text("#!/bin/sh\n# pre-commit\n")
        (git_dir / "hooks" / "pre-commit").symlink_to(home / "target")
    return archive


def _outside(home: Path) -> dict[str, bytes]:
    found = {}
    for path in (home / "outside-config", home / "target", *sorted((home / "bin").glob("*"))):
        if path.is_file():
            found[str(path)] = path.read_bytes()
    return found


@pytest.mark.parametrize("variant", ["config", "hooks", "both", "hook"])
def test_init_refuses_links_inside_its_git_directory_and_writes_nothing(capsys, home, monkeypatch, variant):
    _manager_only(monkeypatch, home, "pre-commit")
    archive = _archive_with_links(home, variant)
    before = _outside(home)
    os.chdir(archive)
    for args in (["init", "--dry-run"], ["init"]):
        run = run_cli(capsys, *args)
        assert run.code == 2, run.out
        assert "init's git config or hook install would write through it" in run.error["error"]
        expected = {"config": "config", "both": "config", "hooks": "hooks", "hook": "pre-commit"}.get(variant, "config")
        assert run.error["error"].split(" ")[0].endswith(os.sep + expected)
        assert " is a link (to " in run.error["error"]  # the link and where it leads, named
    assert _outside(home) == before
    assert not (archive / ".skillmem.yaml").exists()
    assert not (home / "bin" / "pre-commit").exists()


@pytest.mark.parametrize("variant", ["hooks", "hook"])
def test_a_hooks_link_is_no_matter_with_no_install(capsys, home, monkeypatch, variant):
    _manager_only(monkeypatch, home, "pre-commit")
    archive = _archive_with_links(home, variant)
    os.chdir(archive)
    run = run_cli(capsys, "init")
    assert run.code == 2
    assert "--no-install" in run.error["hint"]
    run = run_cli(capsys, "init", "--no-install")
    assert run.code == 0, run.err
    assert "skillmem" in (archive / ".git" / "config").read_text()
    assert not (home / "bin" / "pre-commit").exists()


# hostile14's F4: core.hooksPath set, in any scope: neither manager's install runs.


@pytest.mark.parametrize("manager", ["pre-commit", "prek"])
@pytest.mark.parametrize("scope", ["local", "global"])
def test_with_core_hooks_path_set_no_manager_installs(capsys, home, monkeypatch, manager, scope):
    _manager_only(monkeypatch, home, manager)
    victim = _victim(home)
    archive = home / "un"
    run_git("init", "-q", str(archive))
    _skills(archive)
    config = ["config", "--global"] if scope == "global" else ["-C", str(archive), "config", "--local"]
    run_git(*config, "core.hooksPath", str(victim / ".git" / "hooks"))
    os.chdir(archive)
    for args in (["init", "--dry-run"], ["init"]):
        run = run_cli(capsys, *args)
        assert run.code == 0, run.err
        assert run.data["hooks_installed"].startswith(f"'{manager} install' not run: core.hooksPath is set (")
        assert "git config --unset-all core.hooksPath" in run.data["hooks_installed"]
    assert not (victim / ".git" / "hooks" / "pre-commit").exists()
    assert not (archive / ".git" / "hooks" / "pre-commit").exists()
    assert "skillmem" in (archive / ".git" / "config").read_text()  # the merge driver is still the archive's own
    run_git(*config, "--unset-all", "core.hooksPath")
    run = run_cli(capsys, "init")
    assert run.data["hooks_installed"] == f"ran '{manager} install'"
    assert (archive / ".git" / "hooks" / "pre-commit").is_file()
