"""``--text``: every command that prints JSON prints lines for a person instead, errors included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import run_cli, seed_tree


@pytest.fixture
def tree():
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_text("# Agents\n")
    return ["--root", "skills"]


def not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def test_inject_says_what_it_added_then_that_the_file_is_current(capsys, tree):
    first = run_cli(capsys, "inject", *tree, "--prompt-file", "AGENTS.md", "--text")
    assert first.code == 0
    assert first.out == (
        "AGENTS.md: the skill index was updated\n  added (3): alpha-tool, beta-heading, crlf-skill\n3 skills listed\n"
    )
    again = run_cli(capsys, "inject", *tree, "--prompt-file", "AGENTS.md", "--text")
    assert again.out == "AGENTS.md: current\n3 skills listed\n"


def test_verify_text_shows_the_drift_and_the_diff(capsys, tree):
    run = run_cli(capsys, "verify", *tree, "--prompt-file", "AGENTS.md", "--text", "--diff")
    assert run.code == 3
    lines = run.out.splitlines()
    assert lines[0] == "AGENTS.md: out of date"
    assert "  missing from the block (3): alpha-tool, beta-heading, crlf-skill" in lines
    assert "+++ b/AGENTS.md" in lines
    assert "+<<<SKILL_INDEX_BEGIN>>>" in lines
    assert lines[-1] == "run 'skillmem inject' to update the blocks"


# The commands whose JSON line --text turns into lines for a person (lint, search, eval and budget print their own).
TEXT_COMMANDS = ("index", "prompt", "inject", "verify", "stats", "hook", "init")


@pytest.mark.parametrize("command", TEXT_COMMANDS)
def test_every_command_prints_text_not_json(capsys, tree, command, tmp_path):
    extra = {
        "inject": ["--prompt-file", "AGENTS.md"],
        "verify": ["--prompt-file", "AGENTS.md"],
        "hook": ["--prompt-file", "AGENTS.md", "--out", str(tmp_path / "w.sh")],
        "init": ["--no-install"],
    }
    if command == "init":
        import subprocess

        subprocess.run(["git", "init", "-q"], check=True)
    args = [] if command == "init" else tree
    run = run_cli(capsys, command, *args, *extra.get(command, []), "--text")
    assert run.code in (0, 3), run.err
    assert run.out.endswith("\n")
    assert not_json(run.out.splitlines()[0])


def test_index_prompt_and_stats_in_text(capsys, tree):
    index = run_cli(capsys, "index", *tree, "--text").out
    assert index.splitlines()[0] == "3 skills"
    assert "  [data-parsing] alpha-tool  (skills/alpha-tool)" in index
    prompt = run_cli(capsys, "prompt", *tree, "--text").out
    assert prompt.startswith("<<<SKILL_INDEX_BEGIN>>>\n[data-parsing]\n")
    stats = run_cli(capsys, "stats", *tree, "--text").out
    assert stats.startswith("3 skills; the block is ")


@pytest.mark.parametrize(
    "args",
    [
        ["inject", "--root", "nowhere", "--prompt-file", "AGENTS.md", "--text"],
        ["lint", "--root", "nowhere", "--text"],
        ["search", "--root", "nowhere", "--text", "csv"],
        ["verify", "--text", "--bogus"],
    ],
)
def test_with_text_an_error_is_text_too(capsys, args):
    run = run_cli(capsys, *args)
    assert run.code == 2
    assert run.out == ""
    assert run.err.startswith(f"skillmem {args[0]}: ")
    assert not_json(run.err.splitlines()[0])
    assert run.err.splitlines()[1].startswith("  ")  # the hint, on its own indented line


def test_without_text_the_error_stays_one_json_line(capsys):
    run = run_cli(capsys, "inject", "--root", "nowhere", "--prompt-file", "AGENTS.md")
    assert run.error["tool"] == "skillmem inject"


def test_verify_diff_puts_each_files_diff_in_the_json(capsys, tree):
    run = run_cli(capsys, "verify", *tree, "--prompt-file", "AGENTS.md", "--diff")
    assert run.code == 3
    diff = run.data["files"][0]["diff"]
    assert diff.startswith("--- a/AGENTS.md\n+++ b/AGENTS.md\n")
    assert "+crlf-skill\n" in diff
    assert "diff" not in run_cli(capsys, "verify", *tree, "--prompt-file", "AGENTS.md").data["files"][0]


def test_version_is_one_line_on_stdout(capsys):
    from skillmem_hook import __version__

    run = run_cli(capsys, "--version")
    assert (run.code, run.out, run.err) == (0, f"skillmem {__version__}\n", "")


HOSTILE = "x\x1b[31mRED\nFAKE: all good"


def test_a_hostile_folder_or_prompt_file_name_is_escaped_on_its_own_line(capsys, tree):
    # Folder and prompt file names are the repository's content: in --text neither may act on the
    # terminal (ESC) nor add a line of its own (README: text from a repository is shown, never acted on).
    from .helpers import skill_md, write_skill

    write_skill(Path("skills"), HOSTILE, skill_md("redx", "a skill in a hostile folder"))
    Path(f"A{HOSTILE}.md").write_text("# Agents\n")
    prompt = ["--prompt-file", f"A{HOSTILE}.md", "--text"]
    runs = [run_cli(capsys, "index", *tree, "--text")]
    runs += [run_cli(capsys, command, *tree, *prompt) for command in ("inject", "verify", "stats")]
    for run in runs:
        assert run.code == 0, run.err
        assert "\x1b" not in run.out
        assert not any(line.startswith("FAKE") for line in run.out.splitlines()), run.out
    assert "x\\x1b[31mRED\\nFAKE: all good" in runs[0].out
    assert "Ax\\x1b[31mRED\\nFAKE: all good.md: current" in runs[2].out
