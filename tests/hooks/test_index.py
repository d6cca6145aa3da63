from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from skillmem_hook.block.drift import Drift
from skillmem_hook.catalog.placement.selection import DOMAINS_LISTED
from skillmem_hook.catalog.skillfile.declared import NO_FRONTMATTER
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.hooks.index import skill_index, skill_verify
from skillmem_hook.hooks.report import MAX_WARNINGS, QUIET_HINT, describe_drift
from skillmem_hook.text_lines import name_list

from ..helpers import (
    SEED_BLOCK,
    appended,
    docs_text,
    isolate_git,
    run_cli,
    run_git,
    seed_tree,
    skill_md,
    snapshot,
    two_roots_two_files,
    write_skill,
)

# The seed's beta-heading has no frontmatter: every run that reads the seed says so, and how known ones stop.
SEED_WARNING = (
    "1 SKILL.md file with warnings (all of them: 'skillmem index', under warnings):\n"
    f"  skills/beta-heading/SKILL.md: {NO_FRONTMATTER}\n" + QUIET_HINT
)


@pytest.fixture
def repo():
    """A repository laid out as the hooks find it by default: skills/ and AGENTS.md."""
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    return Path("AGENTS.md")


def test_skill_index_injects_then_exits_3_then_passes(repo, capsys):
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "AGENTS.md: the skill index was updated; stage it and commit again" in err
    assert "  the file had no index block yet\n  added (3): alpha-tool, beta-heading, crlf-skill\n" in err
    assert "missing" not in err
    assert repo.read_bytes() == appended(b"# Agents\n", SEED_BLOCK)
    assert skill_index([]) == 0
    assert capsys.readouterr().err == SEED_WARNING


def test_skill_verify_reports_drift_and_never_writes(repo, capsys, monkeypatch, tmp_path):
    cli = tmp_path / "bin" / "skillmem"  # the CLI on PATH: the message names it beside pre-commit
    cli.parent.mkdir()
    cli.write_text("#!/bin/sh\n")
    cli.chmod(0o755)
    monkeypatch.setenv("PATH", f"{cli.parent}{os.pathsep}{os.environ['PATH']}")
    before = snapshot(repo)
    assert skill_verify([]) == 3
    assert capsys.readouterr().err == (
        "AGENTS.md: the skill index is out of date\n"
        "  the file has no index block yet\n"
        "  missing from the block (3): alpha-tool, beta-heading, crlf-skill\n"
        "  to update it: run 'pre-commit run skill-index --all-files' (or 'skillmem inject')\n" + SEED_WARNING
    )
    assert snapshot(repo) == before
    skill_index([])
    assert skill_verify([]) == 0


def test_a_deleted_skill_is_reported_as_stale(repo, capsys):
    skill_index([])
    shutil.rmtree("skills/alpha-tool")
    assert skill_verify([]) == 3
    assert "  stale, no longer on disk (1): alpha-tool\n" in capsys.readouterr().err
    assert skill_index([]) == 3
    assert "  removed (1): alpha-tool\n" in capsys.readouterr().err


def test_a_moved_skill_or_hand_edit_is_explained(repo, capsys):
    skill_index([])
    write_skill(Path("skills"), "beta-heading", skill_md("beta-heading", "parse json"))
    assert skill_verify([]) == 3
    assert "moved to another domain (1): beta-heading (general -> data-parsing)" in capsys.readouterr().err
    skill_index([])
    repo.write_bytes(repo.read_bytes().replace(b"alpha-tool\nbeta-heading", b"beta-heading\nalpha-tool"))
    assert skill_verify([]) == 3
    assert "nothing missing or stale, but the block's lines differ" in capsys.readouterr().err


def test_hook_arguments_win_and_may_repeat(tmp_path, capsys):
    args, files = two_roots_two_files(tmp_path)
    assert skill_index(args) == 3
    assert all(b"[general]\na\nb\n" in path.read_bytes() for path in files)
    assert skill_verify(args) == 0


@pytest.mark.parametrize(("hook", "name"), [(skill_index, "skill-index"), (skill_verify, "skill-verify")])
def test_errors_are_plain_text_with_the_hint_on_its_own_lines_and_exit_2(hook, name, capsys):
    assert hook([]) == 2
    err = capsys.readouterr().err
    first, *hint = err.splitlines()
    assert first.startswith(f"{name}: no skills root given")
    assert hint == [
        "  pass --root DIR, run 'skillmem init' to set it all up in one step, or take these steps:",
        "  printf '%s\\n' '{roots: [\"skills\"], prompt_files: [\"AGENTS.md\"]}' > .skillmem.yaml",
        "  touch AGENTS.md",
        "  git add .skillmem.yaml AGENTS.md",
    ]
    assert not err.startswith("{")
    assert "\\n" not in err.replace("printf '%s\\n'", "printf")  # the hint's lines are lines, not escapes


def test_malformed_markers_stop_both_hooks_and_touch_nothing(repo, capsys):
    repo.write_bytes(b"<<<SKILL_INDEX_BEGIN>>>\n")
    before = snapshot(repo)
    for hook in (skill_index, skill_verify):
        assert hook([]) == 2
        assert "line 1" in capsys.readouterr().err.splitlines()[0]
    assert snapshot(repo) == before


def test_a_marker_error_in_one_file_leaves_the_others_untouched(tmp_path, capsys):
    seed_tree(tmp_path / "skills")
    good, bad = tmp_path / "AGENTS.md", tmp_path / "CLAUDE.md"
    good.write_text("x\n")
    bad.write_text("<<<SKILL_INDEX_END>>>\n")
    args = ["--root", str(tmp_path / "skills"), "--prompt-file", str(good), "--prompt-file", str(bad)]
    assert skill_index(args) == 2
    assert good.read_text() == "x\n"


def test_file_names_passed_by_pre_commit_are_accepted_and_change_nothing(repo, capsys):
    assert skill_index(["skills/alpha-tool/SKILL.md"]) == 3
    assert skill_index(["AGENTS.md", "skills/beta-heading/SKILL.md"]) == 0


@pytest.fixture
def git(monkeypatch, tmp_path):
    """A git repository in the current folder, with an identity to commit as; the function to run git."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q")
    return run_git


def test_a_prompt_file_outside_a_sparse_checkout_is_left_out_never_to_be_created(git, capsys):
    """H6-2: tracked, skip-worktree and absent, it is in the commit as it was; a commit of the cone passes."""
    write_skill(Path("services/a/skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("services/a/AGENTS.md").write_bytes(b"# A\n")
    Path("services/b").mkdir()
    Path("services/b/README.md").write_text("# B\n")
    Path(".skillmem.yaml").write_text("roots: [services/a/skills]\nprompt_files: [AGENTS.md, services/a/AGENTS.md]\n")
    Path("AGENTS.md").write_bytes(b"# Top\n")
    git("add", "-A")
    assert skill_index([]) == 3
    git("add", "-A")
    git("commit", "-q", "-m", "blocks")
    git("sparse-checkout", "set", "services/b")
    assert not Path("services/a/AGENTS.md").exists()
    assert "S services/a/AGENTS.md" in git("ls-files", "-t", "services/a/AGENTS.md")
    capsys.readouterr()
    assert skill_index([]) == skill_verify([]) == 0
    err = capsys.readouterr().err
    assert "services/a/AGENTS.md: left out (outside the sparse checkout: git keeps it out of this work tree" in err
    assert "touch" not in err and "does not exist" not in err
    assert not Path("services/a/AGENTS.md").exists()
    Path(".skillmem.yaml").write_text("roots: [services/a/skills]\nprompt_files: [services/a/AGENTS.md]\n")
    assert skill_index([]) == 0  # the only prompt file outside the cone: in the commit as it was, not refused
    for flags in (["--tracked"], ["--tracked", "--strict"], []):  # CI's verify compares nothing here: refused
        verify = run_cli(capsys, "verify", *flags)
        assert verify.code == 2, verify.out
        assert verify.error["error"].startswith("no prompt file is checked here: services/a/AGENTS.md (each outside")
        assert "sparse-checkout add" in verify.error["hint"]
    git("sparse-checkout", "disable")
    Path("services/a/AGENTS.md").unlink()  # absent but not skip-worktree: still an error
    assert skill_index([]) == 2
    assert "touch services/a/AGENTS.md" in capsys.readouterr().err


def test_a_skill_md_in_a_merge_conflict_is_stale_for_the_conflict_not_as_untracked(git, capsys):
    """H6-5: the first list names the conflict, as the left-out lines do; no git add of a half-merged file."""
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    write_skill(Path("skills"), "csv", skill_md("csv", "Parse CSV files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    git("add", "-A")
    assert skill_index([]) == 3
    git("add", "-A")
    git("commit", "-qm", "init")
    git("checkout", "-qb", "side")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract all text from PDF files"))
    git("commit", "-qam", "side")
    git("checkout", "-q", "-")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Pull text from PDF files"))
    git("commit", "-qam", "here")
    result = subprocess.run(["git", "merge", "-q", "side"], capture_output=True, check=False)
    assert result.returncode != 0 and "UU skills/pdf/SKILL.md" in git("status", "--short")
    capsys.readouterr()
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "  SKILL.md has an unresolved merge conflict (1): pdf\n    resolve it and git add it\n" in report
    assert "  skills/pdf: SKILL.md has an unresolved merge conflict" in report
    assert "not tracked" not in report and "git add skills/pdf/SKILL.md" not in report


def test_a_gitignored_prompt_file_alone_out_of_date_is_rewritten_and_passes(git, capsys):
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path(".gitignore").write_text("PERSONAL.md\n")
    git("add", "-A")
    assert skill_index(["--root", "skills", "--prompt-file", "AGENTS.md"]) == 3
    git("add", "-A")
    git("commit", "-q", "-m", "block")
    Path("PERSONAL.md").write_bytes(b"# Mine\n")
    capsys.readouterr()
    both = ["--root", "skills", "--prompt-file", "AGENTS.md", "--prompt-file", "PERSONAL.md"]
    assert skill_index(both) == 0  # nothing for the commit to stage: it goes on
    assert "PERSONAL.md: the skill index was updated (git ignores this file: nothing to stage)" in (
        capsys.readouterr().err
    )
    assert b"\nalpha\n" in Path("PERSONAL.md").read_bytes()
    assert skill_index(both) == 0


def test_an_untracked_prompt_file_fails_until_added_even_with_its_block_current(git, capsys):
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    git("add", "skills")
    assert skill_index([]) == 3
    for _ in range(2):  # the block is current the second time: the file must still be added
        assert skill_index([]) == 3
        assert "git add AGENTS.md" in capsys.readouterr().err
    git("add", "AGENTS.md")
    assert skill_index([]) == 0


def test_the_git_add_of_an_untracked_prompt_file_is_quoted_for_the_shell(git, capsys):
    # fixh8 (H7-5's one helper): "add it: git add my notes.md" named two files.
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("my notes.md").write_bytes(b"# Notes\n")
    git("add", "skills")
    assert skill_index(["--prompt-file", "my notes.md"]) == 3
    assert "  add it: git add 'my notes.md'\n" in capsys.readouterr().err


def test_the_git_add_of_an_untracked_prompt_file_named_like_a_pattern_adds_it_alone(git, capsys):
    """H8-2: "add it: git add [A]GENTS.md" is a pathspec: it adds AGENTS.md, and the named file stays untracked."""
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("[A]GENTS.md").write_bytes(b"# Notes\n")
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    git("add", "skills")
    assert skill_index(["--prompt-file", "[A]GENTS.md"]) == 3
    command = next(line for line in capsys.readouterr().err.splitlines() if "add it: " in line).split("add it: ")[1]
    assert command == "git add ':(literal)[A]GENTS.md'"
    subprocess.run(["bash", "-c", command], check=True)
    assert git("diff", "--cached", "--name-only", "--", ":(literal)[A]GENTS.md", "AGENTS.md") == "[A]GENTS.md\n"


def test_a_personal_prompt_file_absent_here_and_ignored_is_left_out(git, capsys):
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path(".gitignore").write_text("PERSONAL.md\n")
    Path(".skillmem.yaml").write_text("prompt_files: [AGENTS.md, PERSONAL.md]\n")
    git("add", "-A")
    assert skill_index([]) == 3  # a fresh clone: PERSONAL.md is on its author's machine only
    # newcomer en3: a fresh clone was told it was left out, not how to have it; inject and verify said `touch`.
    assert (
        "PERSONAL.md: left out (absent here, and git ignores it: `touch PERSONAL.md` once to have its block written"
        " here)"
    ) in capsys.readouterr().err
    git("add", "-A")
    assert skill_index([]) == skill_verify([]) == 0
    assert not Path("PERSONAL.md").exists()


def test_the_lint_hook_wants_in_the_commit_what_a_skill_md_points_at(git, capsys):
    from skillmem_hook.hooks.lint import skill_lint

    body = "Run `scripts/unpack.py`.\n"
    write_skill(Path("skills"), "docx", skill_md("docx", "Unpack DOCX files. Use when a .docx must be read.", body))
    Path("skills/docx/scripts").mkdir()
    Path("skills/docx/scripts/unpack.py").write_text("print('unpack')\n")
    git("add", "skills/docx/SKILL.md")  # the script is on disk, but not in the commit
    assert skill_lint(["--root", "skills", "skills/docx/SKILL.md"]) == 1
    assert "SK201" in capsys.readouterr().err
    git("add", "skills/docx/scripts/unpack.py")
    assert skill_lint(["--root", "skills", "skills/docx/SKILL.md"]) == 0


def test_the_lint_hook_finds_the_skill_of_a_file_named_by_its_absolute_path(git, capsys):
    """Found beside hostile-4: an absolute file name was compared unresolved: "no skill to check among the changes"."""
    from skillmem_hook.hooks.lint import skill_lint

    write_skill(Path("skills"), "Bad_Name", skill_md("Bad_Name", "x"))
    git("add", "-A")
    assert skill_lint(["--root", "skills", str(Path("skills/Bad_Name/SKILL.md").resolve())]) == 1
    assert "1 SKILL.md file checked" in capsys.readouterr().err


def test_the_lint_hook_shows_warnings_but_fails_only_on_errors(capsys):
    from skillmem_hook.hooks.lint import skill_lint

    write_skill(Path("skills"), "terse", skill_md("terse", "Parses files"))  # says neither when, nor in Chinese
    Path(".skillmem.yaml").write_text("lint: {quality: true}\n")
    assert skill_lint(["--root", "skills", "skills/terse/SKILL.md"]) == 0
    err = capsys.readouterr().err
    assert "SK401" in err and "SK403" in err
    write_skill(Path("skills"), "terse", skill_md("Terse", "Parses files"))
    assert skill_lint(["--root", "skills", "skills/terse/SKILL.md"]) == 1  # SK113, capitals: an error


def test_a_prompt_file_left_out_of_auto_detection_is_said(repo, capsys):
    Path("CLAUDE.md").write_bytes(b"# Claude\n\n@AGENTS.md\n")
    assert skill_index([]) == 3
    assert "CLAUDE.md: left out (it imports AGENTS.md (@AGENTS.md))\n" in capsys.readouterr().err
    assert Path("CLAUDE.md").read_bytes() == b"# Claude\n\n@AGENTS.md\n"


def test_a_long_list_stops_at_a_screenful_and_counts_the_rest(capsys):
    for number in range(1, 46):
        write_skill(Path("skills"), f"skill-{number:02}", skill_md(f"skill-{number:02}"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    assert skill_index([]) == 3
    lines = capsys.readouterr().err.splitlines()
    assert lines[2].startswith("  added (45): skill-01, skill-02,")
    assert lines[-1] == "    ... and 25 more"
    assert len(lines) < 12
    assert all(len(line) <= 100 for line in lines)
    assert "skill-20" in "\n".join(lines)
    assert "skill-21" not in "\n".join(lines)


def test_a_name_ending_in_a_comma_keeps_it():
    assert name_list("added", ["a,", "b,"]) == ["  added (2): a,, b,"]


def test_counts_over_a_thousand_are_grouped():
    names = [f"s{number}" for number in range(1899)]
    lines = name_list("added", names)
    assert lines[0].startswith("  added (1,899): s0, s1,")
    assert lines[-1] == "    ... and 1,879 more"


def test_invalid_yaml_warnings_are_shown_briefly_with_the_file_path(repo, capsys):
    write_skill(Path("skills"), "colon", skill_md("colon", "Use when: it breaks things"))
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "2 SKILL.md files with warnings" in err
    brief = "invalid YAML (line 3, column 22); name and description read line by line"
    assert f"  skills/colon/SKILL.md: {brief}\n" in err
    assert "<unicode string>" not in err
    # Said again on each commit that changes the block: the line after the list says how known ones stop.
    hint = err[err.index(brief) :].splitlines()[1]
    assert hint.startswith("  to stop printing known ones")
    assert yaml.safe_load(hint[hint.index("quiet:") :].split(" in ")[0]) == {"quiet": ["NAME", "PREFIX-*", "FOLDER/"]}


def test_quiet_mutes_the_skills_left_out_that_it_names_by_folder_and_the_hint_follows_both_lists(repo, capsys):
    # A newcomer's quiet: list muted a vendored pack's warnings, but its 13 user-only skills were listed on every
    # commit all the same. A skill left out has no name read: its folder is what quiet: matches.
    hidden = b"---\nname: {0}\ndescription: Only the user runs it\ndisable-model-invocation: true\n---\n"
    for folder in ("ours-hidden", "vendor-hidden"):
        write_skill(Path("skills"), folder, hidden.replace(b"{0}", folder.encode()))
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "skills/ours-hidden" in err and "skills/vendor-hidden" in err
    assert err.endswith(QUIET_HINT)
    Path(".skillmem.yaml").write_text("quiet: [vendor-*]\n")
    write_skill(Path("skills"), "new-one", skill_md("new-one", "Parse CSV files"))
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "skills/ours-hidden" in err and "vendor-hidden" not in err
    assert err.endswith(QUIET_HINT)
    Path(".skillmem.yaml").write_text("quiet: [vendor-hidden, ours-hidden, beta-heading]\n")
    write_skill(Path("skills"), "newer-one", skill_md("newer-one", "Parse TSV files"))
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "hidden" not in err and QUIET_HINT not in err  # nothing left to mute: no hint


@pytest.fixture
def index_repo(repo):
    Path(".skillmem.yaml").write_text("write: SKILLS_INDEX.md\n")
    return Path("SKILLS_INDEX.md")


def test_skill_index_keeps_the_configured_index_file_current(index_repo, capsys):
    assert skill_index([]) == 3
    assert "SKILLS_INDEX.md: the skills index file was regenerated; stage it" in capsys.readouterr().err
    assert "([skills/alpha-tool](skills/alpha-tool/SKILL.md))" in index_repo.read_text()
    assert skill_index([]) == 0
    write_skill(Path("skills"), "alpha-tool", skill_md("alpha-tool", "Parse CSV files, now <b>bold</b>"))
    assert skill_index([]) == 3  # the block is the same; only the index file changed
    err = capsys.readouterr().err
    assert "AGENTS.md" not in err
    assert "SKILLS_INDEX.md: the skills index file was regenerated" in err
    assert "\\<b\\>bold\\</b\\>" in index_repo.read_text()


def test_skill_verify_fails_on_a_stale_or_missing_index_file_without_writing(index_repo, capsys):
    skill_index([])
    assert skill_verify([]) == 0
    index_repo.write_text("# edited by hand\n")
    before = snapshot(index_repo)
    assert skill_verify([]) == 3
    assert "SKILLS_INDEX.md: the skills index file is out of date" in capsys.readouterr().err
    assert snapshot(index_repo) == before
    index_repo.unlink()
    assert skill_verify([]) == 3
    assert not index_repo.exists()


def test_skill_verify_passes_on_a_current_index_file_one_folder_down(repo, capsys):
    """Its links are relative to its own folder: verify must render them from there, as index writes them."""
    Path("docs").mkdir()
    Path(".skillmem.yaml").write_text("write: docs/SKILLS_INDEX.md\n")
    assert skill_index([]) == 3
    assert "(../skills/alpha-tool/SKILL.md)" in Path("docs/SKILLS_INDEX.md").read_text()
    capsys.readouterr()
    assert skill_verify([]) == 0, capsys.readouterr().err


def test_verify_refuses_an_index_path_that_is_a_folder(index_repo, capsys):
    skill_index([])
    index_repo.unlink()
    index_repo.mkdir()
    assert skill_verify([]) == 2
    assert "SKILLS_INDEX.md is not a regular file" in capsys.readouterr().err


def test_the_docs_first_commit_transcript_is_what_the_hook_writes():
    transcript = docs_text().split("AGENTS.md: the skill index was updated", 1)[1].split("\n$ ", 1)[0]
    shown = "AGENTS.md: the skill index was updated" + transcript + "\n"
    count = int(re.search(r"added \((\d+)\)", shown).group(1))
    names = re.sub(r"^.*?added \(\d+\): ", "", shown.split("\n    ... and")[0], flags=re.S)
    first = [name.strip() for name in names.split(",")]
    filler = [f"zz-{number:04}" for number in range(count - len(first))]
    skills = [Skill(name=name, description="", path=name, root="s", warnings=[]) for name in first + filler]
    assert describe_drift("AGENTS.md", Drift(b"# Agents\n", skills), written=True) == shown


def test_a_merge_conflict_in_the_block_is_described_as_one():
    from skillmem_hook.block.drift import Drift
    from skillmem_hook.catalog.skills import parse_skill
    from skillmem_hook.hooks.report import describe_drift

    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> topic\n<<<SKILL_INDEX_END>>>\n"
    skills = [parse_skill(skill_md(name), path=name, folder=name, root="r") for name in ("a", "b")]
    text = describe_drift("AGENTS.md", Drift(old, skills), written=True)
    assert "the block held a merge conflict; it was rebuilt from the skills" in text
    assert "stale" not in text
    assert "<<<<<<<" not in text


def test_the_hooks_never_write_the_index_file_over_a_prompt_file_nor_wait_on_a_fifo(repo, capsys):
    import os

    skill_index([])  # the block first, so only the index file is left to write
    before = Path("AGENTS.md").read_bytes()
    Path(".skillmem.yaml").write_text("write: AGENTS.md\n")
    assert skill_index([]) == 2
    assert "is a configured prompt file" in capsys.readouterr().err
    assert Path("AGENTS.md").read_bytes() == before
    os.mkfifo("INDEX.md")
    Path(".skillmem.yaml").write_text("write: INDEX.md\n")
    assert skill_verify([]) == 2  # at once: a FIFO is never opened to wait for a writer
    assert "INDEX.md is not a regular file (a FIFO" in capsys.readouterr().err


HOSTILE_FOLDER = "\x1b]0;PWNED-TITLE\x07\x1b[2K\x1b[1A\x1b[32mAll good\x1b[0m\nFAKE LINE"


def test_a_hook_report_shows_control_characters_from_the_repository_as_escapes(repo, capsys):
    write_skill(Path("skills"), HOSTILE_FOLDER, "---\nname: [a, b]\ndescription: x\x7f\u202e\n---\n")
    write_skill(Path("skills"), "ok\x1b[2K", skill_md(None, "fine"))
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "FAKE LINE" not in err.splitlines()
    assert "\\x1b]0;PWNED-TITLE\\x07" in err
    assert "ok\\x1b[2K" in err  # the folder's name, in the list of added skills


@pytest.mark.parametrize(("hook", "name"), [(skill_index, "skill-index"), (skill_verify, "skill-verify")])
def test_each_hook_has_its_version_and_its_own_plain_help(hook, name, capsys):
    from skillmem_hook import __version__
    from skillmem_hook.hooks.lint import skill_lint

    assert hook(["--version"]) == 0
    assert capsys.readouterr().out == f"{name} (skillmem {__version__})\n"
    assert skill_lint(["--version"]) == 0
    assert capsys.readouterr().out == f"skill-lint (skillmem {__version__})\n"
    assert hook(["--help"]) == 0
    text = capsys.readouterr().out
    assert "``" not in text
    assert ("without writing" in text) is (name == "skill-verify")


def test_skill_verify_diff_shows_each_stale_block(repo, capsys):
    assert skill_verify(["--diff"]) == 3
    err = capsys.readouterr().err
    assert "--- a/AGENTS.md\n+++ b/AGENTS.md\n" in err
    assert "+<<<SKILL_INDEX_BEGIN>>>\n+[data-parsing]\n+alpha-tool\n" in err
    skill_index([])
    capsys.readouterr()
    assert skill_verify(["--diff"]) == 0
    assert capsys.readouterr().err == SEED_WARNING


@pytest.mark.parametrize("from_below", [False, True])
def test_absolute_paths_in_the_hooks_args_are_compared_resolved(git, capsys, monkeypatch, from_below):
    """Found beside hostile-4: --prompt-file /abs/repo/AGENTS.md was "git does not track this prompt file" (exit 3)."""
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    git("add", "-A")
    assert skill_index(["--root", "skills", "--prompt-file", "AGENTS.md"]) == 3
    git("add", "-A")
    git("commit", "-q", "-m", "block")
    top = Path.cwd()
    if from_below:  # ../AGENTS.md from a subfolder, through a linked folder at that
        (top / "sub").mkdir()
        (top / "via").symlink_to(top)
        monkeypatch.chdir(top / "sub")
    args = ["--root", str(top / "via" / "skills"), "--prompt-file", str(top / "via" / "AGENTS.md")]
    args = args if from_below else ["--root", str(top / "skills"), "--prompt-file", str(top / "AGENTS.md")]
    capsys.readouterr()
    assert skill_verify(args) == 0, capsys.readouterr().err
    assert skill_index(args) == 0
    assert "does not track" not in capsys.readouterr().err


@pytest.mark.parametrize("hook", [skill_index, skill_verify])
def test_a_clone_whose_only_prompt_file_is_ignored_and_absent_fails_naming_why(git, capsys, hook):
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path(".gitignore").write_text("AGENTS.md\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    git("add", "-A")
    assert hook([]) == 2  # exit 0 here would be CI passing having compared nothing
    first, *hint = capsys.readouterr().err.splitlines()
    assert first.endswith(
        "no prompt file it checks is in the commit, so the commit holds no skill index:"
        " AGENTS.md (absent here, and git ignores it)"
    )
    assert hint[0] == (
        "  commit one: un-ignore it ('git check-ignore -v AGENTS.md' names the rule), then 'git add AGENTS.md';"
    )
    assert "prompt_files" in hint[1]
    assert not Path("AGENTS.md").exists()


def test_every_prompt_file_ignored_though_present_fails_and_writes_none(git, capsys):
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    for name in ("AGENTS.md", "CLAUDE.md"):
        Path(name).write_bytes(b"# Mine\n")
    Path(".gitignore").write_text("AGENTS.md\nCLAUDE.md\n")
    git("add", "-A")
    assert skill_index(["--root", "skills", "--prompt-file", "AGENTS.md", "--prompt-file", "CLAUDE.md"]) == 2
    assert "AGENTS.md (git ignores it), CLAUDE.md (git ignores it)" in capsys.readouterr().err
    assert Path("AGENTS.md").read_bytes() == Path("CLAUDE.md").read_bytes() == b"# Mine\n"


def test_one_tracked_prompt_file_beside_ignored_ones_is_enough(git, capsys):
    write_skill(Path("skills"), "alpha", skill_md("alpha", "Parse CSV files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path("CLAUDE.md").write_bytes(b"# Mine\n")
    Path(".gitignore").write_text("CLAUDE.md\nPERSONAL.md\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md, CLAUDE.md, PERSONAL.md]\n")
    git("add", "-A")
    assert skill_index([]) == 3  # AGENTS.md is staged: the commit will hold its block
    git("add", "AGENTS.md")
    assert skill_index([]) == skill_verify([]) == 0


def test_outside_a_work_tree_a_present_prompt_file_is_checked_as_before(repo, capsys):
    assert skill_index([]) == 3
    assert skill_verify([]) == 0


def test_a_quiet_folder_mutes_every_skill_and_left_out_skill_md_below_it(repo, capsys, monkeypatch):
    # A newcomer typed 20 names to quiet a pack vendored under .claude/skills/: one folder says it.
    broken = b'---\nname: {0}\ndescription: "quoted" then not\n---\n'
    hidden = b"---\nname: {0}\ndescription: Only the user runs it\ndisable-model-invocation: true\n---\n"
    for folder in ("vendor/pack/deep-broken", "vendor/shallow-broken", "vendored-broken", "ours-broken"):
        write_skill(Path("skills"), folder, broken.replace(b"{0}", folder.rsplit("/", 1)[-1].encode()))
    write_skill(Path("skills"), "vendor/pack/deep-hidden", hidden.replace(b"{0}", b"deep-hidden"))
    Path(".skillmem.yaml").write_text("quiet: [skills/vendor/]\n")
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "skills/ours-broken/SKILL.md: invalid YAML" in err
    assert "skills/vendored-broken/SKILL.md: invalid YAML" in err  # a sibling whose name begins alike is not below
    assert "vendor/" not in err  # two deep, one deep, and the SKILL.md left out
    Path(".skillmem.yaml").write_text("quiet: [skills/vendor, ours-broken, vendored-broken]\n")  # no final '/'
    write_skill(Path("skills"), "new-one", skill_md("new-one", "Parse CSV files"))
    monkeypatch.chdir("skills")  # the folder is the configuration file's, not the current one
    assert skill_index(["--root", ".", "--prompt-file", "../AGENTS.md"]) == 3
    err = capsys.readouterr().err
    assert "broken" not in err and "hidden" not in err


def _pack_with_warnings(count: int) -> None:
    """``count`` skills whose metadata files them under a domain that is none: a vendored pack's known warnings."""
    for index in range(count):
        name = f"pack-{index:02}"
        write_skill(Path("skills"), name, f"---\nname: {name}\ndescription: d{index}\nmetadata:\n  domain: x\n---\n")
    Path("AGENTS.md").write_bytes(b"# Agents\n")


def test_past_the_cap_the_warnings_of_the_skills_a_commit_stages_come_first(git, capsys):
    """newcomer-aa item 3: the new skill's invalid YAML was among the '... and 52 more' a vendored pack pushed out."""
    _pack_with_warnings(MAX_WARNINGS + 2)
    git("add", "-A")
    git("commit", "-qm", "pack")
    write_skill(Path("skills"), "zz-new", skill_md("zz-new", "Deploy a preview: runs pnpm build"))
    Path("skills/pack-11/run.sh").write_text("echo\n")  # a script the commit adds to a known skill counts too
    git("add", "-A")
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    report = err[err.index(f"{MAX_WARNINGS + 3} SKILL.md files with warnings") :].splitlines()
    assert report[0].startswith(f"{MAX_WARNINGS + 3} SKILL.md files with warnings, the 2 this commit changes first")
    assert report[1] == "  skills/pack-11/SKILL.md: metadata domain 'x' is not a domain, so the table decides"
    assert report[2].startswith("  skills/zz-new/SKILL.md: invalid YAML")
    assert report[3] == "  skills/pack-00/SKILL.md: metadata domain 'x' is not a domain, so the table decides"
    assert report[MAX_WARNINGS + 1] == "  ... and 3 more"
    assert report[MAX_WARNINGS + 2] == f"  {DOMAINS_LISTED}"  # once, under the list
    assert err.count("(the domains: ") == 1


def test_within_the_cap_the_warnings_keep_their_order_and_git_is_not_asked(git, capsys, monkeypatch):
    _pack_with_warnings(MAX_WARNINGS)
    git("add", "-A")
    monkeypatch.setattr("skillmem_hook.lint.changes.run_git", None)  # asked, the run would fail
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert f"{MAX_WARNINGS} SKILL.md files with warnings (all of them" in err
    assert "more" not in err


def test_past_the_cap_a_change_counts_for_its_nearest_skill_the_top_level_one_too(git, capsys):
    """review2's C8: a skill at the top (folder ``.``) was never put first, and a nested skill's change counted its
    parent too; a changed path now counts for its nearest skill, as the lint hook reads it (lint.changes)."""
    Path(".skillmem.yaml").write_text('roots: ["."]\nprompt_files: [AGENTS.md]\nexclude: [c]\n')
    domain_x = "metadata:\n  domain: x\n---\n"
    Path("SKILL.md").write_text(f"---\nname: top\ndescription: the repository's own\n{domain_x}")
    write_skill(Path("skills"), "a", f"---\nname: a\ndescription: outer\n{domain_x}")
    write_skill(Path("skills/a"), "b", f"---\nname: b\ndescription: inner\n{domain_x}")
    write_skill(Path("skills/a"), "c", skill_md("c", "excluded, yet a skill of its own"))
    _pack_with_warnings(MAX_WARNINGS)
    git("add", "-A")
    git("commit", "-qm", "pack")
    Path("README.md").write_text("# repo\n")  # the top-level skill's, as no nearer one holds it
    Path("skills/a/b/run.sh").write_text("echo\n")  # skills/a/b's, not skills/a's
    Path("skills/a/c/run.sh").write_text("echo\n")  # an excluded skill's is still not its parent's
    git("add", "-A")
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    report = err[err.index(f"{MAX_WARNINGS + 3} SKILL.md files with warnings") :].splitlines()
    assert report[0].startswith(f"{MAX_WARNINGS + 3} SKILL.md files with warnings, the 2 this commit changes first")
    assert [line.split(":")[0] for line in report[1:4]] == [
        f"  {os.path.join('.', 'SKILL.md')}",
        f"  {os.path.join('skills', 'a', 'b', 'SKILL.md')}",
        f"  {os.path.join('skills', 'a', 'SKILL.md')}",  # the first of the rest, in the catalog's order
    ]


def test_a_skill_among_many_staged_files_is_still_found_first():
    from skillmem_hook.hooks.report import describe_warnings, skill_folder
    from skillmem_hook.lint.changes import owning_folders

    warnings = [{"root": "skills", "path": f"p{n:02}", "warning": "metadata domain 'x' is not a domain"}
                for n in range(MAX_WARNINGS + 5)]  # fmt: skip
    changed = [f"aaa/{n}" for n in range(5000)] + ["skills/p13/SKILL.md"]
    owners = owning_folders(changed, {skill_folder(warning["root"], warning["path"]) for warning in warnings})
    lines = describe_warnings(warnings, owners).splitlines()
    assert "the 1 this commit changes first" in lines[0]
    assert lines[1].startswith("  skills/p13/SKILL.md:")


def test_quiet_mutes_a_title_holding_a_slash_and_a_skill_by_its_folder_s_name(repo, capsys):
    """newcomer-ad 13: `quiet: ["Tailwind v4 + shadcn/ui Stack"]` was a folder and `quiet: [ai-sdk-core]` no name,
    so the hook printed both skills' warnings on each commit that changed the block."""
    warned = "---\nname: {0}\ndescription: d\nmetadata:\n  domain: x\n---\n"
    write_skill(Path("skills"), "tailwind-v4-shadcn", warned.format("Tailwind v4 + shadcn/ui Stack"))
    write_skill(Path("skills"), "ai-sdk-core", warned.format("AI SDK Core"))
    write_skill(Path("skills"), "ai-sdk-ui", warned.format("AI SDK UI"))
    Path(".skillmem.yaml").write_text('quiet: ["Tailwind v4 + shadcn/ui Stack", ai-sdk-core]\n')
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "skills/ai-sdk-ui/SKILL.md: metadata domain 'x'" in err  # the one not named still warns
    assert "tailwind" not in err and "ai-sdk-core" not in err
