"""Where the CLI's view (the disk) and the hooks' (git's index) disagree, said as what to do; and who can run what."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.hooks.index import skill_index, skill_verify
from skillmem_hook.hooks.report import fix_command

from .helpers import run_cli, seed_tree, skill_md, write_skill


def git(*args: str) -> None:
    subprocess.run(["git", *args], capture_output=True, check=True)


@pytest.fixture
def repo(monkeypatch, capsys):
    """Seed skills and AGENTS.md, committed with a current block."""
    for key in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{key}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{key}_EMAIL", "test@example.com")
    git("init", "-q")
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_text("# Agents\n")
    git("add", "-A")
    skill_index([])
    git("add", "-A")
    git("commit", "-qm", "base")
    capsys.readouterr()
    return Path("AGENTS.md")


def test_the_cli_names_each_listed_skill_git_does_not_track(repo, capsys):
    write_skill(Path("skills"), "wip-draft", skill_md("wip-draft", "x"))
    run = run_cli(capsys, "inject", "--prompt-file", "AGENTS.md")
    assert run.data["untracked"] == ["wip-draft"]
    assert run.data["notes"] == ["not tracked by git: wip-draft; the hooks leave them out until you git add them"]
    for command in ("verify", "index", "prompt", "stats"):
        assert run_cli(capsys, command).data["untracked"] == ["wip-draft"], command
    assert "untracked" not in run_cli(capsys, "index", "--tracked").data  # git's view lists only what it tracks


def test_the_hook_names_a_skill_the_cli_listed_as_not_tracked_with_the_git_add(repo, capsys):
    write_skill(Path("skills"), "wip-draft", skill_md("wip-draft", "x"))
    run_cli(capsys, "inject", "--prompt-file", "AGENTS.md")
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "  not tracked by git (1): wip-draft\n    git add skills/wip-draft/SKILL.md\n" in report
    assert "removed" not in report


@pytest.mark.parametrize(
    ("link", "target", "listed"),
    [("la", ".drafts/a", "la"), ("deep", ".drafts", "deep/a")],  # a link to the skill's folder, and one level up
)
def test_a_skill_through_a_tracked_link_into_a_tracked_hidden_folder_is_tracked(
    repo, capsys, monkeypatch, link, target, listed
):
    """skills/la -> .drafts/a committed with its target: the hooks and index --tracked list la, and the CLI called
    it "not tracked by git", comparing skills/la/SKILL.md, which is no index entry, with git's listing."""
    write_skill(Path("skills"), ".drafts/a", skill_md("drafted", "x"))
    os.symlink(target, f"skills/{link}")
    git("add", "-A")
    assert [s["path"] for s in run_cli(capsys, "index", "--tracked").data["skills"] if s["name"] == "drafted"] == [
        listed
    ]
    run = run_cli(capsys, "index")
    assert [s["path"] for s in run.data["skills"] if s["name"] == "drafted"] == [listed]
    assert "untracked" not in run.data
    assert "notes" not in run.data
    monkeypatch.chdir("skills")  # git lists paths from the current folder, and the link is resolved from there
    assert "untracked" not in run_cli(capsys, "index", "--root", ".").data


def test_a_skill_through_an_untracked_link_to_a_tracked_folder_is_untracked(repo, capsys):
    """The link not added, the hooks do not list the skill through it: the CLI still says so. (Its target not
    added, the disk's view leaves the link out itself: it leads to a file git does not track.)"""
    write_skill(Path("skills"), ".drafts/a", skill_md("drafted", "x"))
    os.symlink(".drafts/a", "skills/la")
    git("add", "skills/.drafts")
    assert "drafted" not in {s["name"] for s in run_cli(capsys, "index", "--tracked").data["skills"]}
    assert run_cli(capsys, "index").data["untracked"] == ["drafted"]


UNCOMMITTED = (
    "  not a skill, in no committed block (1): {}\n"
    "    written by an earlier run (a commit that stopped) for a skill renamed or removed since, or typed by hand\n"
)


def test_a_name_typed_into_the_block_is_not_called_removed(repo, capsys):
    repo.write_text(repo.read_text().replace("alpha-tool\n", "alpha-tool-handedit\n"))
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "  added (1): alpha-tool\n" in report
    assert UNCOMMITTED.format("alpha-tool-handedit") in report
    assert "  removed (" not in report


def test_a_name_an_earlier_attempt_wrote_reads_alike_in_each_file_and_accuses_no_one(repo, capsys):
    """A newcomer's commit stopped after the hook wrote weekly-report; the skill renamed (周报) and everything
    added, the next attempt said "edited by hand?" in AGENTS.md and "removed" in CLAUDE.md, new in this commit."""
    Path("CLAUDE.md").write_text("# Claude\n")
    files = ["--prompt-file", "AGENTS.md", "--prompt-file", "CLAUDE.md"]
    write_skill(Path("skills"), "weekly-report", skill_md("weekly-report", "写周报"))
    git("add", "-A")
    assert skill_index(files) == 3  # the hook writes weekly-report into both blocks; the commit stops
    Path("skills/weekly-report/SKILL.md").write_bytes(skill_md("周报", "写周报"))
    git("rm", "-rq", "skills/crlf-skill")  # a committed skill removed: AGENTS.md's committed block names it
    git("add", "-A")
    capsys.readouterr()
    assert skill_index(files) == 3
    report = capsys.readouterr().err
    agents, claude = report.split("CLAUDE.md: ")[0], report.split("CLAUDE.md: ")[1]
    for told in (agents, claude):
        assert "  added (1): 周报\n" in told
        assert UNCOMMITTED.format("weekly-report") in told
        assert "  removed (1): crlf-skill\n" in told  # in HEAD's AGENTS.md, so removed in the new CLAUDE.md too
    assert "edited by hand?" not in report


def test_a_skill_removed_from_git_is_still_removed(repo, capsys):
    git("rm", "-rq", "skills/alpha-tool")
    assert skill_verify([]) == 3
    assert "  stale, no longer on disk (1): alpha-tool\n" in capsys.readouterr().err


def test_under_pre_commit_the_hooks_own_skillmem_does_not_count(monkeypatch):
    own = os.path.dirname(sys.executable)
    monkeypatch.setenv("PATH", own)
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    with_cli = fix_command()
    monkeypatch.setenv("PRE_COMMIT", "1")
    assert fix_command() == "run 'pre-commit run skill-index --all-files'"
    if os.path.exists(os.path.join(own, "skillmem")):
        assert with_cli == "run 'pre-commit run skill-index --all-files' (or 'skillmem inject')"


def test_a_prompt_file_importing_another_named_one_is_warned_about(capsys):
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n\n@AGENTS.md\n")
    files = ["--prompt-file", "AGENTS.md", "--prompt-file", "CLAUDE.md"]
    run = run_cli(capsys, "inject", "--root", "skills", *files)
    assert run.data["notes"] == [
        "CLAUDE.md imports AGENTS.md (@AGENTS.md) and both hold the skill index, so the agent reads the list twice:"
        " drop CLAUDE.md from prompt_files (or its --prompt-file)"
    ]
    skill_index(["--root", "skills", *files])
    assert "CLAUDE.md imports AGENTS.md (@AGENTS.md)" in capsys.readouterr().err
    Path("CLAUDE.md").write_text("# Claude\n\n```\n@AGENTS.md\n```\n")  # inside a code block: no import
    assert "notes" not in run_cli(capsys, "verify", "--root", "skills", *files).data


def test_an_absolute_root_is_compared_with_git_s_listing_resolved(repo, capsys):
    """Found beside hostile-4: with --root /abs/skills every tracked skill was "not tracked by git"."""
    run = run_cli(capsys, "index", "--root", str(Path("skills").resolve()))
    assert "untracked" not in run.data
    write_skill(Path("skills"), "wip-draft", skill_md("wip-draft", "x"))
    assert run_cli(capsys, "index", "--root", str(Path("skills").resolve())).data["untracked"] == ["wip-draft"]
