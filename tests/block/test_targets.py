"""Issue 17 item 1: a write the repository names lands inside the work tree, outside .git, on a tracked file.

Real git, real files. Each refusal is checked for what matters to the person
running the tool: exit 2, the message naming the path and the link, and not
one byte changed anywhere (all or none).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillmem_hook.hooks.index import skill_index, skill_verify

from ..helpers import isolate_git, run_cli, run_git, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

CONFIG = "roots: [skills]\nprompt_files: [AGENTS.md]\n"


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


git = run_git


def repository(config: str = CONFIG) -> None:
    git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path(".skillmem.yaml").write_text(config)
    git("add", "-A")
    git("commit", "-q", "-m", "init")


def link_agents_to(target: str) -> None:
    """Replace the committed AGENTS.md by a committed link, as a contributor's commit would."""
    git("rm", "-q", "AGENTS.md")
    os.symlink(target, "AGENTS.md")
    git("add", "-A")
    git("commit", "-q", "-m", "link", "--no-verify")


def everything() -> dict[str, bytes]:
    """Every file of the work tree and of .git that a write could reach (skillmem's own cache aside)."""
    files = {}
    for path in sorted(Path().rglob("*")):
        if path.is_file() and not path.is_symlink() and "skillmem" not in path.parts:
            files[str(path)] = path.read_bytes()
    return files


@pytest.mark.parametrize("target", [".git/config", ".git/hooks/pre-commit", ".git/info/exclude", ".git/description"])
@pytest.mark.parametrize("hook", [skill_index, skill_verify])
def test_a_committed_link_into_the_git_directory_is_refused_before_any_write(capsys, target, hook):
    repository()
    Path(".git/hooks/pre-commit").write_bytes(b"#!/bin/sh\nexit 0\n")
    link_agents_to(target)
    before = everything()
    assert hook([]) == 2
    error = capsys.readouterr().err
    assert "'AGENTS.md' (through the symlink 'AGENTS.md' -> " in error
    assert "inside the git directory" in error
    assert everything() == before


def test_a_committed_link_to_an_ignored_file_is_refused_not_written_silently(capsys):
    repository()
    Path(".gitignore").write_text(".env\n")
    Path(".env").write_bytes(b"SECRET=abc\n")
    git("add", ".gitignore")
    link_agents_to(".env")
    assert skill_index([]) == 2
    assert "lands on '.env', which git does not track" in capsys.readouterr().err
    assert Path(".env").read_bytes() == b"SECRET=abc\n"
    assert run_cli(capsys, "inject").code == 2
    assert Path(".env").read_bytes() == b"SECRET=abc\n"


def test_a_committed_link_leaving_the_repository_is_refused_with_a_message_that_says_so(capsys, tmp_path):
    repository()
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"# mine\n")
    link_agents_to(str(outside))
    assert skill_index([]) == 2
    error = capsys.readouterr().err
    assert "outside the work tree" in error
    assert "drop --tracked" not in error
    assert outside.read_bytes() == b"# mine\n"


def test_a_configuration_naming_files_outside_or_in_git_writes_none_of_them(capsys, tmp_path):
    repository()
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"# outside\n")
    Path(".skillmem.yaml").write_text('roots: [skills]\nprompt_files: [AGENTS.md, "../outside.md", .git/description]\n')
    before = everything()
    result = run_cli(capsys, "inject")
    assert result.code == 2
    assert "'../outside.md' resolves to" in result.error["error"]
    assert outside.read_bytes() == b"# outside\n"
    assert everything() == before  # AGENTS.md, first in the list, is untouched too: all or none
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md, .git/description]\n")
    assert run_cli(capsys, "inject").code == 2
    assert run_cli(capsys, "verify").code == 2
    assert {path: data for path, data in everything().items() if path != ".skillmem.yaml"} == {
        path: data for path, data in before.items() if path != ".skillmem.yaml"
    }


def test_a_sibling_folder_whose_name_starts_with_the_work_tree_s_is_outside_it(capsys, tmp_path):
    """``../repo-evil`` beside ``repo`` shares its name as a prefix; it is still another folder."""
    repository()
    sibling = tmp_path / (Path.cwd().name + "-evil")
    sibling.mkdir()
    (sibling / "AGENTS.md").write_bytes(b"# theirs\n")
    Path(".skillmem.yaml").write_text(f"roots: [skills]\nprompt_files: [../{sibling.name}/AGENTS.md]\n")
    result = run_cli(capsys, "inject")
    assert result.code == 2
    assert "outside the work tree" in result.error["error"]
    assert (sibling / "AGENTS.md").read_bytes() == b"# theirs\n"


def test_a_write_file_through_a_link_to_an_untracked_file_is_refused(capsys):
    repository(CONFIG + "write: SKILLS_INDEX.md\n")
    Path("notes.md").write_bytes(b"")
    os.symlink("notes.md", "SKILLS_INDEX.md")
    assert run_cli(capsys, "index").code == 2
    assert skill_index([]) == 2
    assert Path("notes.md").read_bytes() == b""


def test_the_user_s_own_command_line_paths_stay_allowed(capsys, tmp_path):
    repository()
    outside = tmp_path / "mine.md"
    outside.write_bytes(b"# mine\n")
    assert run_cli(capsys, "inject", "--prompt-file", str(outside)).code == 0
    assert b"pdf" in outside.read_bytes()
    assert run_cli(capsys, "index", "--write", str(tmp_path / "INDEX.md")).code == 0


def test_a_link_to_a_tracked_file_and_a_plain_untracked_file_keep_today_s_behaviour(capsys):
    repository()
    Path("docs").mkdir()
    Path("docs/AGENTS.md").write_bytes(b"# Shared\n")
    git("add", "docs")
    link_agents_to("docs/AGENTS.md")
    assert skill_index([]) == 3  # written through the link, and the change shows in git diff
    assert b"pdf" in Path("docs/AGENTS.md").read_bytes()
    assert Path("AGENTS.md").is_symlink()
    Path("CLAUDE.md").write_bytes(b"# Claude\n")  # regular and untracked: written, and git add asked for
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [CLAUDE.md]\n")
    assert skill_index([]) == 3
    assert "git add CLAUDE.md" in capsys.readouterr().err
    assert b"pdf" in Path("CLAUDE.md").read_bytes()


def test_a_git_directory_inside_the_work_tree_under_another_name_is_protected(capsys, monkeypatch):
    repository()
    shutil.move(".git", "meta")
    monkeypatch.setenv("GIT_DIR", str(Path("meta").resolve()))
    monkeypatch.setenv("GIT_WORK_TREE", str(Path().resolve()))
    link_agents_to("meta/config")
    before = Path("meta/config").read_bytes()
    assert skill_index([]) == 2
    assert "inside the git directory" in capsys.readouterr().err
    assert Path("meta/config").read_bytes() == before


def test_a_linked_work_tree_protects_the_common_git_directory(capsys, tmp_path):
    repository()
    git("worktree", "add", "-q", str(tmp_path / "linked"))
    os.chdir(tmp_path / "linked")
    link_agents_to("../cwd/.git/config")
    before = (tmp_path / "cwd" / ".git" / "config").read_bytes()
    assert skill_index([]) == 2
    assert (tmp_path / "cwd" / ".git" / "config").read_bytes() == before


def test_inject_and_verify_do_not_refuse_for_a_write_file_they_never_write(capsys):
    repository(CONFIG + "write: ../SKILLS_INDEX.md\n")
    assert run_cli(capsys, "inject").code == 0
    assert run_cli(capsys, "verify").code == 0
    assert run_cli(capsys, "index").code == 2  # index writes it: refused, outside the work tree


def test_outside_git_the_configuration_s_folder_is_the_boundary(capsys, tmp_path):
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    os.symlink("AGENTS.md", "CLAUDE.md")  # a link inside the folder: followed, as before
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [CLAUDE.md]\n")
    assert run_cli(capsys, "inject").code == 0
    assert b"pdf" in Path("AGENTS.md").read_bytes()
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"# outside\n")
    os.symlink(outside, "LEAVES.md")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [LEAVES.md]\n")
    result = run_cli(capsys, "inject")
    assert result.code == 2
    assert "outside the folder" in result.error["error"]
    assert outside.read_bytes() == b"# outside\n"


def test_a_detected_prompt_file_linking_out_is_never_read_for_its_imports(capsys, tmp_path, monkeypatch):
    repository("roots: [skills]\n")
    secret = tmp_path / "secret.md"
    secret.write_bytes(b"@AGENTS.md\n")
    os.symlink(secret, "CLAUDE.md")
    opened = []
    real_open = open

    def watching_open(path, *args, **kwargs):
        opened.append(os.path.realpath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching_open)
    assert run_cli(capsys, "inject").code == 2
    assert str(secret) not in opened


@pytest.mark.parametrize("target", ["vendor/pack/.git/config", "vendor/pack/.GIT/config"])
def test_a_nested_repository_s_git_directory_is_a_git_directory_too(capsys, target):
    """A vendored pack cloned inside the work tree has a .git of its own: no write lands in it."""
    repository(f"roots: [skills]\nprompt_files: [{target}]\n")
    run_git("init", "-q", "vendor/pack")
    Path(target).parent.mkdir(exist_ok=True)
    Path(target).write_bytes(Path("vendor/pack/.git/config").read_bytes())
    before = Path(target).read_bytes()
    assert skill_index([]) == 2
    assert "inside the git directory" in capsys.readouterr().err
    assert Path(target).read_bytes() == before


def test_a_prompt_file_reached_through_a_committed_folder_link_must_be_tracked(capsys):
    """Survivor 14 of mutants-4: the link is a folder above the file, not the file itself."""
    repository("roots: [skills]\nprompt_files: [docs/notes.md]\n")
    Path(".gitignore").write_text("private/\n")
    Path("private").mkdir()
    Path("private/notes.md").write_bytes(b"# my own notes\n")
    os.symlink("private", "docs")
    git("add", "-A")
    git("commit", "-q", "-m", "docs link", "--no-verify")
    result = run_cli(capsys, "inject")
    assert result.code == 2
    assert "(through the symlink 'docs' -> 'private') lands on 'private/notes.md'" in result.error["error"]
    assert skill_index([]) == 2
    assert Path("private/notes.md").read_bytes() == b"# my own notes\n"
