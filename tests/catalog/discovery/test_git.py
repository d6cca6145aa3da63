"""catalog/discovery/git.py with the real git: the work tree, the index's listing, what git ignores."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery.git import (
    as_listed,
    find_top_and_git_dirs,
    find_work_tree,
    git_answers_kept_for_the_run,
    ignored_paths,
    list_along,
    list_index,
    run_git,
    tracked_entries,
)
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store.locations import find_git_dir
from skillmem_hook.errors import UsageError
from skillmem_hook.hooks.index import skill_verify

from ...helpers import skill_md, write_skill
from ..git_repo import git, repository

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.usefixtures("git_identity"),
]


# Names git would read as patterns, were the paths not literal: magic (":"), globs, a bracket class.
PATHSPEC_LOOKALIKES = [":skills", ":(glob)skills", "[a]*", "*", "sk?lls"]


@pytest.mark.parametrize("root", PATHSPEC_LOOKALIKES)
def test_a_root_named_like_a_pathspec_is_that_folder_and_no_other(root):
    git("init", "-q")
    write_skill(Path(root), "alpha", skill_md("alpha", "Inside the root"))
    write_skill(Path("skills"), "decoy", skill_md("decoy", "What the name would match as a pattern"))
    write_skill(Path("a"), "decoy-a", skill_md("decoy-a", "What [a]* or * would match"))
    git("add", "-A")
    assert [entry.path for entry in tracked_entries([root])] == [f"{root}/alpha/SKILL.md"]
    assert [skill.name for skill in scan_roots([root], CatalogOptions(tracked=True)).skills] == ["alpha"]


def test_a_root_that_is_itself_a_skill_folder_lists_that_skill(monkeypatch):
    repository()
    monkeypatch.chdir("skills/alpha")
    assert [entry.path for entry in tracked_entries(["."])] == ["SKILL.md"]
    assert [skill.name for skill in scan_roots(["."], CatalogOptions(tracked=True)).skills] == ["alpha"]


def test_the_git_directory_is_found_through_a_git_file_as_git_finds_it(tmp_path, monkeypatch):
    """A linked work tree or a submodule has a .git file naming its git directory, where the cache goes."""
    repository()
    assert find_git_dir(str(Path.cwd() / "skills")) == str(Path.cwd() / ".git")
    git("worktree", "add", "-q", str(tmp_path / "linked"))
    monkeypatch.chdir(tmp_path / "linked")
    expected = Path(git("rev-parse", "--absolute-git-dir").strip())
    found = find_git_dir(str(tmp_path / "linked" / "skills"))
    assert found is not None and Path(found).resolve() == expected.resolve()


def test_a_folder_name_that_is_not_utf8_comes_back_as_the_same_bytes():
    git("init", "-q")
    folder = os.fsdecode(b"skills/caf\xe9")
    write_skill(Path(folder), "", skill_md("cafe"))
    git("add", "-A")
    (entry,) = tracked_entries(["skills"])
    assert os.fsencode(entry.path) == b"skills/caf\xe9/SKILL.md"
    assert os.path.isfile(entry.path)


def test_git_says_nothing_on_the_terminal_when_skillmem_asks_outside_a_repository(capfd):
    assert find_work_tree() is None
    assert capfd.readouterr() == ("", "")


def test_a_tracked_file_that_an_ignore_rule_matches_is_not_ignored():
    git("init", "-q")
    Path(".gitignore").write_text(".claude/\n*.md\n!SKILL.md\n")
    write_skill(Path(".claude/skills"), "kept", skill_md("kept"))
    Path("AGENTS.md").write_text("# Agents\n")
    Path("NOTES.md").write_text("not tracked\n")
    git("add", "-f", "AGENTS.md", ".claude/skills")  # force-added: tracked despite the rules
    asked = ["AGENTS.md", ".claude/skills", "NOTES.md", ".claude/other"]
    assert ignored_paths(asked) == {"NOTES.md", ".claude/other"}


def test_a_path_is_listed_as_git_lists_it_whatever_form_it_was_given_in(tmp_path):
    """Absolute, through .., through a linked folder: each compares equal to git's own listing (found beside H4)."""
    repository()
    Path("AGENTS.md").write_text("# A\n")
    (Path.cwd() / "via").symlink_to(Path.cwd())
    git("add", "AGENTS.md")
    os.mkdir("sub")
    os.chdir("sub")
    listed = {entry.path for entry in tracked_entries(["../AGENTS.md"], everything=True)}
    for path in ("../AGENTS.md", str(Path("../AGENTS.md").resolve()), "../via/AGENTS.md", "../sub/../AGENTS.md"):
        assert as_listed(path) in listed, path
    (Path.cwd().parent / "link.md").symlink_to("AGENTS.md")
    assert as_listed("../link.md") == "../link.md"  # the file itself stays a link: git lists it as one


def git_subcommands(monkeypatch, folder: Path) -> Path:
    """A file that lists the subcommand of every git process started from here on."""
    log, real = folder / "git.log", shutil.which("git")
    wrapper = folder / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(
        f'#!/bin/sh\nfor a in "$@"; do case "$a" in -*|*=*) ;; *) echo "$a" >> "{log}"; break;; esac; done\n'
        f'exec "{real}" "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    return log


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell wrapper logs git's subcommands")
def test_a_verify_hook_run_asks_git_where_the_work_tree_lies_once(tmp_path, monkeypatch):
    """The prompt files' confinement and the catalog both need it; each ``git rev-parse`` is a process."""
    repository()
    Path("AGENTS.md").write_text("# Agents\n")
    log = git_subcommands(monkeypatch, tmp_path)
    assert skill_verify(["--root", "skills", "--prompt-file", "AGENTS.md"]) == 3  # no block yet: drift
    assert log.read_text().split().count("rev-parse") == 1


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell wrapper logs git's subcommands")
def test_a_verify_hook_run_lists_its_roots_and_its_prompt_files_with_one_ls_files(tmp_path, monkeypatch):
    """The prompt files' states (tracked, untracked, ignored) come from the catalog's own listing."""
    repository()
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n")
    git("add", "AGENTS.md")
    log = git_subcommands(monkeypatch, tmp_path)
    arguments = ["--root", "skills", "--prompt-file", "AGENTS.md", "--prompt-file", "CLAUDE.md"]
    assert skill_verify(arguments) == 3  # no block yet, and CLAUDE.md untracked
    assert log.read_text().split().count("ls-files") == 1


def _staged_three_ways(path: str) -> None:
    """``path`` in the index at stages 1, 2 and 3, as a merge conflict leaves it."""
    written = subprocess.run(["git", "hash-object", "-w", "--stdin"], input=b"side\n", capture_output=True, check=True)
    oid = written.stdout.decode().strip()
    lines = "".join(f"100644 {oid} {stage}\t{path}\n" for stage in (1, 2, 3))
    subprocess.run(["git", "update-index", "--index-info"], input=lines.encode(), check=True)


# (roots, prompt files, run from): the files listed along with the roots give what each listing alone gives.
LISTED_ALONG = [
    (["skills"], ["AGENTS.md"], "."),  # tracked, beside the root
    (["skills"], ["UNTRACKED.md"], "."),
    (["skills"], ["ignored.md"], "."),
    (["skills"], ["skills/AGENTS.md"], "."),  # inside the root: in both listings
    (["skills"], ["docs"], "."),  # a folder named as a prompt file: git is asked anew
    (["skills"], ["conflict.md", "docs/CLAUDE.md"], "."),  # three stages of one; another one folder down
    (["skills"], ["tab\tname.md", os.fsdecode(b"\xff.md")], "."),  # a tab, bytes that are no UTF-8
    (["skills", "skills-old"], ["AGENTS.md"], "."),  # a folder whose name starts as the root's does
    (["skills"], ["skills-notes.md"], "."),  # a file whose name starts so: listed for itself, not the root
    (["skills"], ["skills-notes.md", "tab\tname.md"], "."),  # the same where a path holds a tab
    (["skills"], ["docs", "tab\tname.md"], "."),
    (["alpha"], ["../AGENTS.md"], "skills"),  # .. parts: git is asked anew
    (["skills"], ["skills/alpha"], "."),  # a folder inside the root named as a file: its files, git asked anew
    (["deep/skills"], ["deep"], "."),  # a folder holding the root (and nothing else) named so
    (["skills"], ["skills/alpha", "tab\tname.md"], "."),  # the same where a path holds a tab
    (["skills"], ["AGENT?.md"], "."),  # a name git reads as a pattern: AGENTS.md it matches fits neither part
    (["skills"], ["AGENT?.md", "tab\tname.md"], "."),  # the same where a path holds a tab
    (["skills"], [], "."),
]


@pytest.mark.parametrize(("roots", "files", "folder"), LISTED_ALONG)
def test_files_listed_along_with_a_root_are_listed_as_git_lists_each_alone(roots, files, folder, monkeypatch):
    repository()
    write_skill(Path("skills-old"), "gamma", skill_md("gamma", "Beside the root, named as it starts"))
    write_skill(Path("skillsX"), "delta", skill_md("delta", "Another name that starts as the root's"))
    write_skill(Path("deep/skills"), "omega", skill_md("omega", "A root two folders down"))
    names = ("AGENTS.md", "skills/AGENTS.md", "skills-notes.md", "docs/CLAUDE.md", "docs/more.md", "tab\tname.md")
    for name in (*names, "ignored.md"):
        Path(name).parent.mkdir(exist_ok=True)
        Path(name).write_text("# Agents\n")
    Path(os.fsdecode(b"\xff.md")).write_text("# Agents\n")
    Path(".gitignore").write_text("ignored.md\n")
    git("add", "-A")
    _staged_three_ways("conflict.md")
    monkeypatch.chdir(folder)
    alone = [run_git(["ls-files", "--stage", "-z", "--", root])[1] for root in roots]
    alone.append(run_git(["ls-files", "--stage", "-z", "--", *files])[1])
    with git_answers_kept_for_the_run():
        list_along(files)
        along = [list_index([root]) for root in roots]
        along.append(list_index(files))
    assert along == alone


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell wrapper logs git's subcommands")
def test_outside_one_run_git_is_asked_anew_so_a_new_repository_is_seen(tmp_path, monkeypatch):
    log = git_subcommands(monkeypatch, tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert find_work_tree() is None
    git("init", "-q")
    tree = find_work_tree()
    assert tree is not None and Path(tree.top).resolve() == work.resolve()
    with git_answers_kept_for_the_run():
        dirs = find_top_and_git_dirs()
        assert dirs is not None and Path(dirs[0]).resolve() == work.resolve()
        assert find_work_tree() is not None
    assert log.read_text().split().count("rev-parse") == 3  # twice outside, once for both inside


def test_git_answers_as_subprocess_gives_it_without_loading_subprocess(tmp_path):
    """run_git starts git with posix_spawn where there is one: exit code and stdout as subprocess.run gives them,
    stderr silenced, and subprocess (with threading, selectors, signal, locale) never imported for it."""
    repository()
    code = textwrap.dedent(
        """
        import json, sys
        from skillmem_hook.catalog.discovery.git import run_git
        answers = [run_git(["ls-files", "--stage", "-z"]), run_git(["rev-parse", "--verify", "no-such-ref"])]
        loaded = "subprocess" in sys.modules
        print(json.dumps([[code, out.decode()] for code, out in answers] + [loaded]))
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    listed = subprocess.run(["git", "ls-files", "--stage", "-z"], capture_output=True, text=True, check=True).stdout
    (first, missing, loaded) = json.loads(result.stdout)
    assert first == [0, listed] and listed.count("SKILL.md") == 2
    assert missing == [128, ""] and result.stderr == ""  # git's "fatal: ..." went to the null device
    assert loaded is (not hasattr(os, "posix_spawnp"))


def test_git_missing_from_the_path_is_a_usage_error_whichever_way_git_is_started(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    for run in (lambda: run_git(["status"]), lambda: run_git(["check-ignore", "--stdin"], b"x\n", literal=False)):
        with pytest.raises(UsageError, match="git is not on PATH"):
            run()
