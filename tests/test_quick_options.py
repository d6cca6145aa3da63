"""Plain words read without argparse read as argparse reads them; any other words are left to argparse."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.argument_parser import ArgumentParser
from skillmem_hook.cli import COMMANDS, command_module
from skillmem_hook.errors import UsageError
from skillmem_hook.hooks import budget as budget_hook
from skillmem_hook.hooks import index as index_hook
from skillmem_hook.hooks import lint as lint_hook
from skillmem_hook.quick_options import OptionTable, quick_parse

# Every command: a new one whose add_arguments the quick reader cannot take fails here, not in a user's run.
HOT = tuple(COMMANDS)


def by_argparse(declare, words):
    parser = ArgumentParser(prog="probe")
    declare(parser)
    try:
        return vars(parser.parse_args(words))
    except UsageError:
        return None


# Words a user or a script might type: every option of the commands, spelled in full, cut short or wrong,
# values good and bad, and the words argparse treats apart.
WORDS = st.sampled_from(
    [
        "--root", "--prompt-file", "--tracked", "--no-cache", "--max-block-tokens", "--strict", "--diff", "--text",
        "--json", "--raw", "--top", "--semantic", "--domain", "--path", "--format", "--fix", "--agent", "--check",
        "--context-window", "--min-hit3", "--out", "--force", "--all", "--ro", "--t", "--root=a", "--top=3",
        "--top=0", "--text=1", "--agent=codex", "--agent=nobody", "--format=sarif", "--", "-", "-h", "--help",
        "--version", "-x", "-1", "3", "0", "abc", "csv files", "skills", "", "a=b", "--nope", "AGENTS.md",
    ]
)  # fmt: skip


@pytest.mark.parametrize("command", HOT)
@given(words=st.lists(WORDS, max_size=7))
def test_plain_words_read_as_argparse_reads_them(command, words):
    declare = command_module(command).add_arguments
    quick = quick_parse(declare, words)
    if quick is not None:  # argparse would read the same words the same way, error or not
        assert vars(quick) == by_argparse(declare, words)


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("verify", ["--root", "skills", "--prompt-file", "AGENTS.md"]),
        ("verify", ["--root=skills", "--strict", "--diff", "--json", "--max-block-tokens", "500"]),
        ("search", ["--root", "skills", "--top", "3", "parse", "csv", "files"]),
        ("search", ["parse", "csv", "--top", "3"]),
        ("read", ["--root", "a", "--root", "b", "Review Pull Request"]),
        ("stats", ["--prompt-file", "CLAUDE.md", "--tracked", "--no-cache"]),
        ("budget", ["--agent", "codex", "--context-window", "200000", "--check"]),
    ],
)
def test_the_words_scripts_and_hooks_pass_are_read_without_argparse(command, words):
    declare = command_module(command).add_arguments
    quick = quick_parse(declare, words)
    assert quick is not None
    assert vars(quick) == by_argparse(declare, words)


@pytest.mark.parametrize(
    "words",
    [
        ["--help"],
        ["--version"],
        ["--ro", "skills"],  # argparse reads an abbreviation; the quick reader leaves it to it
        ["--root"],
        ["--max-block-tokens", "0"],
        ["--text", "--json"],
        ["--", "x"],
        ["--root", "-x"],
        ["extra"],
    ],
)
def test_anything_but_plain_words_is_left_to_argparse(words):
    assert quick_parse(command_module("verify").add_arguments, words) is None


def test_an_option_the_reader_does_not_know_how_to_read_leaves_the_command_to_argparse():
    table = OptionTable()
    table.add_argument("--many", nargs="+")
    assert table.readable is False


@pytest.mark.parametrize("hook", [index_hook, lint_hook, budget_hook])
def test_the_hooks_help_and_version_still_come_from_argparse(hook, capsys):
    module = hook.__name__.rsplit(".", 1)[1]
    entry = {"index": index_hook.skill_verify, "lint": lint_hook.skill_lint, "budget": budget_hook.skill_budget}
    assert entry[module](["--version"]) == 0
    assert "(skillmem " in capsys.readouterr().out
    assert entry[module](["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: skill-")


def test_plain_words_load_no_argparse(tmp_path):
    (tmp_path / "AGENTS.md").write_text("# Agents\n")
    (tmp_path / "skills").mkdir()
    probe = (
        "import sys; from skillmem_hook.cli import main; "
        "main(['verify', '--root', 'skills', '--prompt-file', 'AGENTS.md']); "
        "print('argparse' in sys.modules, file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.stderr.splitlines()[-1] == "False", result.stderr
