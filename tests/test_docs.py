"""Docs that cannot rot: what the README, the pages under docs/ and the hook manifest say is held to the code."""

from __future__ import annotations

import argparse
import configparser
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from skillmem_hook import __version__
from skillmem_hook.adopt.attributes import driver_command
from skillmem_hook.cli import COMMANDS, command_module
from skillmem_hook.config_file import read_config_file

from .helpers import REPO, docs_files, docs_text, run_cli

README = (REPO / "README.md").read_text()


def shell_blocks(text: str) -> list[list[str]]:
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [[line for line in block.splitlines() if line and not line.startswith("#")] for block in blocks]


def hooks() -> list[dict]:
    return yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())


NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def test_the_readme_names_every_hook_id_and_counts_them_right():
    for hook in hooks():
        assert f"`{hook['id']}`" in README
        assert f"- id: {hook['id']}" in README, "the pre-commit snippet has a line for every hook"
    counted = re.findall(rf"\b({'|'.join(NUMBER_WORDS.values())}) pre-commit hooks", docs_text(), re.I)
    assert {word.lower() for word in counted} == {NUMBER_WORDS[len(hooks())]}


# skill-lint checks the files a commit touches, so it takes file names and
# runs only when a SKILL.md is among them; the index hooks must run on every
# commit, since one that only deletes a skill folder passes no file names.
HOOKS_GIVEN_FILE_NAMES = {"skill-lint": r"(^|/)SKILL\.md$"}


def test_every_hook_names_the_oldest_pre_commit_it_works_with():
    assert {hook["minimum_pre_commit_version"] for hook in hooks()} == {"3.0.0"}
    assert "`minimum_pre_commit_version`" in README


def test_every_hook_runs_on_every_commit_through_an_installed_script():
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    scripts = {
        line.split("=")[0].strip() for line in setup["options.entry_points"]["console_scripts"].splitlines() if line
    }
    for hook in hooks():
        assert hook["language"] == "python"
        assert hook["entry"] in scripts
        if hook["id"] in HOOKS_GIVEN_FILE_NAMES:
            # skill-lint runs always: pre-commit never passes the files a commit deletes, and it asks git for them.
            assert (hook["pass_filenames"], hook.get("always_run", False)) == (True, True)
            assert hook["files"] == HOOKS_GIVEN_FILE_NAMES[hook["id"]]
            continue
        assert (hook["pass_filenames"], hook["always_run"], hook["require_serial"]) == (False, True, True)


def test_the_readme_starts_with_the_quick_start_then_the_two_commands_and_ci_runs_the_test_command():
    quick_start, (main_job, test_command) = shell_blocks(README)[:2]
    assert [line.split()[0] for line in quick_start] == ["python3", "python3", "skillmem", "git"]
    assert "skillmem init" in quick_start[2]  # the whole block runs in tests/e2e/test_quickstart.py
    assert README.index("## Quick start") < README.index("## Install")
    quick = README[README.index("## Quick start") : README.index("\n## ", README.index("## Quick start") + 1)]
    assert len(quick.strip().splitlines()) <= 12, "the quick start stays about ten lines"
    assert "skillmem inject --root examples/skills --prompt-file /tmp/AGENTS.md" in main_job
    assert "pytest" in test_command
    assert test_command in (REPO / ".ci" / "run").read_text().splitlines()


def test_the_readmes_main_job_shows_a_block_being_written(capsys, tmp_path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    steps = [shlex.split(step) for step in shell_blocks(README)[1][0].split("&&")]
    assert steps[1][:2] == ["echo", "# Agents"] and steps[1][-1] == "/tmp/AGENTS.md"
    prompt = tmp_path / "AGENTS.md"
    prompt.write_text("# Agents\n")
    words = [word.replace("/tmp/", f"{tmp_path}/").replace("examples/", f"{tmp_path}/examples/") for word in steps[2]]
    assert words[0] == "skillmem"
    run = run_cli(capsys, *words[1:])
    assert run.code == 0
    assert run.out.startswith(f"{prompt}: the skill index was updated\n  added (")
    assert b"<<<SKILL_INDEX_BEGIN>>>" in prompt.read_bytes()


def test_the_shipped_example_is_current(capsys, tmp_path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    examples = tmp_path / "examples"
    run = run_cli(capsys, "inject", "--root", examples / "skills", "--prompt-file", examples / "AGENTS.md")
    assert run.data["changed"] is False, "examples/AGENTS.md is not current: run skillmem inject on it"


def test_the_readme_shows_every_command_and_the_docs_no_other():
    assert set(re.findall(r"`skillmem ([a-z][\w-]*)", README)) == set(COMMANDS)
    assert set(re.findall(r"`skillmem ([a-z][\w-]*)", docs_text())) <= set(COMMANDS)
    for line in [line for block in shell_blocks(docs_text()) for line in block]:
        for script in re.findall(r"python3 (\S+\.py)", line):
            assert (REPO / script).exists(), script


def test_the_readmes_rev_and_the_changelogs_first_heading_are_the_version():
    assert re.findall(r"^\s*rev: (\S+)", docs_text(), re.M) == [f"v{__version__}"]
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.findall(r"^## (.+)$", changelog, re.M)[0] == __version__


MARKDOWN = MarkdownIt("commonmark").enable("table")


def headings_and_links(page: Path) -> tuple[list[str], list[str]]:
    """A page's heading titles as text, and the targets of its links (code spans and blocks hold none)."""
    titles, targets = [], []
    tokens = MARKDOWN.parse(page.read_text(encoding="utf-8"))
    for previous, token in zip([None, *tokens], tokens):
        children = token.children or []
        if previous is not None and previous.type == "heading_open":
            titles.append("".join(child.content for child in children if child.type in ("text", "code_inline")))
        targets += [child.attrs["href"] for child in children if child.type == "link_open"]
    return titles, [str(target) for target in targets]


def anchors(page: Path) -> set[str]:
    """The #fragments GitHub gives a page's headings: lower case, punctuation out, spaces to hyphens, -1 on a repeat."""
    found: set[str] = set()
    for title in headings_and_links(page)[0]:
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        repeat = 0
        while (slug if not repeat else f"{slug}-{repeat}") in found:
            repeat += 1
        found.add(slug if not repeat else f"{slug}-{repeat}")
    return found


def resolves(page: Path, target: str) -> bool:
    """A link to a file of the repository that exists, and to a heading of it when it names one."""
    name, _, anchor = target.partition("#")
    linked = (page.parent / name).resolve() if name else page
    if not linked.is_relative_to(REPO) or not linked.exists():
        return False
    return not anchor or (linked.suffix == ".md" and anchor in anchors(linked))


def broken_links(page: Path) -> list[str]:
    """The relative links of a page whose file is not in the repository, or whose #anchor is no heading there."""
    # https: or mailto: is not this repository's to check
    targets = [target for target in headings_and_links(page)[1] if not re.match(r"[a-z][a-z0-9+.-]*:", target)]
    return [target for target in targets if not resolves(page, target)]


def linked_pages() -> list[Path]:
    pages = [*docs_files(), REPO / "CHANGELOG.md", REPO / "benchmarks" / "README.md", REPO / "tests" / "README.md"]
    return [page for page in pages if page.exists()]


@pytest.mark.parametrize("page", linked_pages(), ids=lambda page: str(page.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(page):
    assert broken_links(page) == []


def test_a_missing_file_or_heading_is_a_broken_link(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## The `--root` flag, and more\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "README.md"
    page.write_text(
        "# Title\n\n[a](docs/other.md#the---root-flag-and-more) [b](docs/other.md#twice-1) [c](#title)\n"
        "[gone](docs/gone.md) [no heading](docs/other.md#nowhere) [self](#nothing) [out](../elsewhere.md)\n"
        "`[in code](docs/gone.md)` [web](https://example.com/#x)\n"
    )
    assert broken_links(page) == ["docs/gone.md", "docs/other.md#nowhere", "#nothing", "../elsewhere.md"]


def stray_table_rows(page: Path) -> list[str]:
    """A paragraph's lines that start with '|': table rows cut from their header by a paragraph, shown as raw pipes."""
    tokens = MARKDOWN.parse(page.read_text(encoding="utf-8"))
    return [
        line
        for opening, token in zip(tokens, tokens[1:])
        if opening.type == "paragraph_open" and token.type == "inline"
        for line in token.content.splitlines()
        if line.lstrip().startswith("|")
    ]


@pytest.mark.parametrize("page", linked_pages(), ids=lambda page: str(page.relative_to(REPO)))
def test_every_table_renders_whole(page):
    assert stray_table_rows(page) == []


def test_a_paragraph_inside_a_table_leaves_its_last_rows_as_raw_pipes(tmp_path):
    page = tmp_path / "README.md"
    page.write_text(
        "| hook | what |\n|---|---|\n| `a` | one |\n\nA paragraph\nwith two lines.\n| `b` | two |\n\n"
        "| whole | table |\n|---|---|\n| `c` | three |\n\n```\n| in code | fine |\n```\n"
    )
    assert stray_table_rows(page) == ["| `b` | two |"]


def usage_options(line: str) -> dict[str, bool]:
    """The --options a usage line of commands.md shows, each with whether it is shown optional (inside [...])."""
    shown, depth = {}, 0
    for match in re.finditer(r"\[|\]|--[a-z][\w-]*", line):
        word = match.group()
        depth += {"[": 1, "]": -1}.get(word, 0)
        if word.startswith("--"):
            shown.setdefault(word, depth > 0)
    return shown


def test_a_usage_line_shows_an_option_optional_exactly_when_the_cli_has_it_so():
    lines = re.findall(r"^`skillmem ([a-z][\w-]*)( [^`]*)?`$", (REPO / "docs" / "commands.md").read_text(), re.M)
    assert {command for command, _ in lines} == set(COMMANDS)
    for command, line in lines:
        parser = argparse.ArgumentParser()
        command_module(command).add_arguments(parser)
        required = {option: action.required for action in parser._actions for option in action.option_strings}
        for option, optional in usage_options(line).items():
            # route's second line shows its --explain mode: the one option shown bare that argparse does not require
            if (command, option) != ("route", "--explain"):
                assert optional is not required[option], f"skillmem {command}{line}: {option}"


def test_a_usage_line_reads_brackets_as_optional():
    assert usage_options(" [--root DIR] --out PATH [--write PATH [--force]] [--text | --json]") == {
        "--root": True,
        "--out": False,
        "--write": True,
        "--force": True,
        "--text": True,
        "--json": True,
    }


def test_the_sample_configuration_reads_and_quiets_no_root_it_warns_against(tmp_path):
    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    sample = re.search(r"Every key of `\.skillmem\.yaml`:\n\n```yaml\n(.*?)```", page, re.S)
    assert sample is not None
    (tmp_path / ".skillmem.yaml").write_text(sample.group(1))
    config = read_config_file(str(tmp_path / ".skillmem.yaml"))
    roots = {root.rstrip("/") for root in config.roots}
    folders = [pattern.rstrip("/") for pattern in config.quiet if "/" in pattern]
    assert folders, "the sample shows a folder of quiet"
    for folder in folders:
        # a whole root quiets the skills you write beside a pack too, which the page warns against
        assert folder not in roots
        assert any(folder.startswith(f"{root}/") for root in roots), f"{folder} is below no root of the sample"


def test_the_examples_cover_the_shapes_the_issue_asks_for():
    skills = REPO / "examples" / "skills"
    files = [path.read_bytes() for path in skills.rglob("SKILL.md")]
    assert len(files) >= 12
    assert any(b"\r\n" in data for data in files)
    assert any(b"description: >" in data for data in files)
    assert any(not data.startswith(b"---") for data in files)


def test_the_precommit_marker_selects_exactly_the_end_to_end_tests():
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "precommit", "tests"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    selected = [line for line in result.stdout.splitlines() if "::" in line]
    assert len(selected) >= 6
    assert all(line.startswith("tests/e2e/") for line in selected)


def test_configurations_recipe_quiets_every_skill_with_a_warning(tmp_path):
    """newcomer-aa item 4: a flat pack's names to quiet, printed by the recipe configuration.md gives."""
    (recipe,) = [
        line for line in shell_blocks(docs_text()) for line in line if line.startswith("skillmem index --json")
    ]
    skills = tmp_path / ".claude" / "skills"
    for name, extra in [
        ("pack-a", "metadata:\n  domain: x\n"),
        ("Pack B: odd", "metadata:\n  domain: y\n"),
        ("ours", ""),
    ]:
        folder = skills / name.split(":")[0].replace(" ", "-")
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f'---\nname: "{name}"\ndescription: d\n{extra}---\n')
    (tmp_path / "AGENTS.md").write_text("# A\n")
    command = recipe.replace("skillmem ", f"{shlex.quote(sys.executable)} -m skillmem_hook ", 1)
    command = command.replace("python3 -c", f"{shlex.quote(sys.executable)} -c")
    printed = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert yaml.safe_load(printed) == {"quiet": ["Pack B: odd", "pack-a"]}
    (tmp_path / ".skillmem.yaml").write_text(f"roots: [.claude/skills]\nprompt_files: [AGENTS.md]\n{printed}")
    hook = [sys.executable, "-c", "import sys; from skillmem_hook.hooks.index import skill_index as s; sys.exit(s([]))"]
    report = subprocess.run(hook, cwd=tmp_path, capture_output=True, text=True, check=False).stderr
    assert "warnings" not in report, report
    (tmp_path / ".skillmem.yaml").write_text("roots: [.claude/skills]\nprompt_files: [AGENTS.md]\n")
    loud = subprocess.run(hook, cwd=tmp_path, capture_output=True, text=True, check=False).stderr
    assert "2 SKILL.md files with warnings" in loud  # without it, the two are said


def test_the_merge_driver_pre_commit_md_shows_is_the_one_init_writes():
    """newcomer-aa item 10: the page quoted the interpreter, init's config (shlex.quote) has it bare."""
    page = (REPO / "docs" / "pre-commit.md").read_text()
    shown = [line for block in re.findall(r"```text\n(.*?)```", page, re.S) for line in block.splitlines()]
    assert driver_command("/path/to/venv/bin/python3") in shown
    assert driver_command("/path/to my/venv/bin/python3").startswith("if '/path/to my/venv/bin/python3' -c")
