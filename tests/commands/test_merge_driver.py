"""The merge driver through a real ``git merge`` of two branches that each add a skill."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.adopt.attributes import driver_command
from skillmem_hook.block.drift import Drift
from skillmem_hook.block.markers import current_block, newline_of
from skillmem_hook.catalog.skills import Skill, parse_skill
from skillmem_hook.commands.merge_driver import merge_driver
from skillmem_hook.errors import MarkerError
from skillmem_hook.hooks.index import skill_index, skill_verify

from ..helpers import run_cli, seed_tree, skill_md, write_skill

IDENTITY = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=check)


@pytest.fixture
def repo(monkeypatch, capsys):
    """skills/ and AGENTS.md with its block, committed on main, with the driver set up as init sets it up."""
    for key, value in IDENTITY.items():
        monkeypatch.setenv(key, value)
    git("init", "-q", "-b", "main")
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_text("# Agents\n\nIntro.\n\nMiddle.\n\nOutro.\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    git("add", "-A")  # the hooks list what git tracks
    assert skill_index([]) == 3
    capsys.readouterr()
    git("add", "-A")
    git("commit", "-qm", "base")
    return Path("AGENTS.md")


def use_driver(python: str = sys.executable) -> None:
    """The driver as ``skillmem init`` records it, for this interpreter."""
    Path(".gitattributes").write_text("/AGENTS.md merge=skillmem\n")
    git("add", ".gitattributes")
    git("commit", "-qm", "driver")
    git("config", "merge.skillmem.driver", driver_command(python))


def add_skill_on_branch(branch: str, name: str, edit: tuple[str, str] | None = None) -> None:
    git("checkout", "-q", "-b", branch, "main")
    write_skill(Path("skills"), name, skill_md(name, f"Deploy {name} with Docker"))
    git("add", "skills")
    assert skill_index([]) == 3  # the hook adds it to the block, as the branch's commit would
    if edit:
        text = Path("AGENTS.md").read_text()
        Path("AGENTS.md").write_text(text.replace(*edit))
    git("add", "-A")
    git("commit", "-qm", f"add {name}")


def test_two_branches_adding_a_skill_merge_with_no_hand_edit(repo, capsys):
    use_driver()
    add_skill_on_branch("one", "one-new", ("Intro.", "Intro, edited on one."))
    add_skill_on_branch("two", "two-new", ("Outro.", "Outro, edited on two."))
    git("checkout", "-q", "one")
    merged = git("merge", "-q", "--no-edit", "two", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = repo.read_text()
    assert "[devops]\none-new\ntwo-new\n" in text
    assert "Intro, edited on one." in text and "Outro, edited on two." in text
    assert "<<<<<<<" not in text
    capsys.readouterr()
    assert skill_verify([]) == 0, capsys.readouterr().err  # what the next commit's hook checks


def test_without_the_driver_the_block_conflicts_and_the_report_names_the_command(repo, capsys):
    add_skill_on_branch("one", "one-new")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "one")
    assert git("merge", "-q", "--no-edit", "two", check=False).returncode != 0
    assert "<<<<<<<" in repo.read_text()
    capsys.readouterr()
    assert skill_verify([]) == 3
    report = capsys.readouterr().err
    assert "the block holds a merge conflict" in report
    assert "run 'pre-commit run skill-index --all-files'" in report


def test_a_conflict_outside_the_block_stays_a_conflict_and_the_block_is_still_rebuilt(repo):
    use_driver()
    add_skill_on_branch("one", "one-new", ("Middle.", "Middle by one."))
    add_skill_on_branch("two", "two-new", ("Middle.", "Middle by two."))
    git("checkout", "-q", "one")
    assert git("merge", "-q", "--no-edit", "two", check=False).returncode != 0
    text = repo.read_text()
    assert "<<<<<<< AGENTS.md (ours)\nMiddle by one.\n=======\nMiddle by two.\n>>>>>>> AGENTS.md (theirs)\n" in text
    assert "[devops]\none-new\ntwo-new\n" in text


def test_the_driver_run_by_hand_writes_the_result_to_ours(repo, capsys, tmp_path):
    block = repo.read_bytes()
    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_bytes(block)
    ours.write_bytes(block.replace(b"[general]\n", b"[frontend]\nui-kit\n[general]\n"))
    theirs.write_bytes(block.replace(b"crlf-skill\n", b"") + b"\nMore text.\n")
    run = run_cli(capsys, "merge-driver", base, ours, theirs, "AGENTS.md")
    assert run.code == 0
    assert run.data == {"merged": "AGENTS.md", "conflicts": 0, "block": "rebuilt"}
    result = ours.read_bytes()
    assert b"[frontend]\nui-kit\n" in result
    assert b"crlf-skill" not in result
    assert result.endswith(b"\nMore text.\n")


def test_malformed_markers_fall_back_to_the_text_merge(repo, capsys, tmp_path):
    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_bytes(b"a\n<<<SKILL_INDEX_BEGIN>>>\nb\n")
    ours.write_bytes(b"a1\n<<<SKILL_INDEX_BEGIN>>>\nb\n")
    theirs.write_bytes(b"a\n<<<SKILL_INDEX_BEGIN>>>\nb2\n")
    run = run_cli(capsys, "merge-driver", base, ours, theirs, "AGENTS.md")
    assert run.code == 0
    assert run.data["block"] == "merged as text"
    assert ours.read_bytes() == b"a1\n<<<SKILL_INDEX_BEGIN>>>\nb2\n"


def convert(data: bytes, style: str) -> bytes:
    """The file in a line-ending style: LF, CRLF, mixed (CRLF first, then LF), with a BOM, or no final newline."""
    lf = data.replace(b"\r\n", b"\n")
    if style == "crlf":
        return lf.replace(b"\n", b"\r\n")
    if style == "mixed":
        first, rest = lf.split(b"\n", 1)
        return first + b"\r\n" + rest
    if style == "bom":
        return b"\xef\xbb\xbf" + lf
    if style == "bom-crlf":
        return b"\xef\xbb\xbf" + lf.replace(b"\n", b"\r\n")
    if style == "no-final-newline":
        return lf.rstrip(b"\n")
    return lf


STYLES = ["lf", "crlf", "mixed", "bom", "bom-crlf", "no-final-newline"]


def sides(base_style: str, ours_style: str, theirs_style: str) -> tuple[list[bytes], list[Skill]]:
    """Base, ours (one skill added) and theirs (another added), each in its own style; and the merged skills."""
    skills = [parse_skill(skill_md(name, text), path=name, folder=name, root="r") for name, text in SKILLS]
    ours_new, theirs_new = (parse_skill(skill_md(n, t), path=n, folder=n, root="r") for n, t in ADDED)
    text = b"# Agents\n\nIntro.\n\n<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n\nOutro.\n"
    versions = [
        convert(Drift(text, listed).updated, style)
        for listed, style in (
            (skills, base_style),
            ([*skills, ours_new], ours_style),
            ([*skills, theirs_new], theirs_style),
        )
    ]
    return versions, [*skills, ours_new, theirs_new]


SKILLS = [("csv-tool", "Parse CSV files"), ("deploy", "Deploy with Docker"), ("pdf", "Extract text from PDF files")]
ADDED = [("lint-python", "Lint Python code"), ("pentest", "Find a security vulnerability")]


@given(st.sampled_from(STYLES), st.sampled_from(STYLES), st.sampled_from(STYLES))
def test_the_merged_block_takes_the_merged_files_line_ending_whatever_each_side_had(base, ours, theirs):
    versions, merged_skills = sides(base, ours, theirs)
    with tempfile.TemporaryDirectory() as folder:
        paths = [os.path.join(folder, name) for name in ("base", "ours", "theirs")]
        for path, data in zip(paths, versions):
            Path(path).write_bytes(data)
        conflicts = merge_driver(*paths, "AGENTS.md")
        result = Path(paths[1]).read_bytes()
    try:
        block = current_block(result)
    except MarkerError:
        assert conflicts  # the text merge doubled a marker line: a person must look
        return
    assert block is not None
    # What the next commit's hook renders for this file: so a clean merge passes it, strictly.
    assert Drift(result, merged_skills).current
    if newline_of(result) == b"\r\n":
        assert block.count(b"\n") == block.count(b"\r\n")
    else:
        assert b"\r" not in block


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected"),
    [
        ("lf", "crlf", "lf", b"\r\n"),  # our side converted the file; theirs added a skill
        ("lf", "lf", "crlf", b"\r\n"),  # their side converted it
        ("crlf", "lf", "crlf", b"\n"),
        ("bom", "bom-crlf", "bom", b"\r\n"),
    ],
)
def test_one_side_converting_the_file_merges_clean_into_one_line_ending(base, ours, theirs, expected):
    versions, merged_skills = sides(base, ours, theirs)
    with tempfile.TemporaryDirectory() as folder:
        paths = [os.path.join(folder, name) for name in ("base", "ours", "theirs")]
        for path, data in zip(paths, versions):
            Path(path).write_bytes(data)
        assert merge_driver(*paths, "AGENTS.md") == 0
        result = Path(paths[1]).read_bytes()
    lines = result.count(b"\n")
    assert result.count(b"\r\n") == (lines if expected == b"\r\n" else 0)
    assert b"[testing]\r\nlint-python" in result if expected == b"\r\n" else b"[testing]\nlint-python" in result
    assert Drift(result, merged_skills).current


def test_a_real_merge_of_a_crlf_conversion_and_a_skill_addition_passes_the_next_hook(repo, capsys):
    use_driver()
    git("checkout", "-q", "-b", "windows", "main")
    repo.write_bytes(repo.read_bytes().replace(b"\n", b"\r\n"))
    git("commit", "-qam", "AGENTS.md in CRLF")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "windows")
    merged = git("merge", "-q", "--no-edit", "two", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    data = repo.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")  # no bare LF: the block took the file's CRLF
    assert b"[devops]\r\ntwo-new\r\n" in data
    capsys.readouterr()
    assert skill_verify([]) == 0, capsys.readouterr().err


def test_a_merge_under_max_block_tokens_keeps_the_collapsed_domain_and_passes_verify_strict(repo, capsys):
    for number in range(30):
        name = f"pytest-helper-number-{number}"
        write_skill(Path("skills"), name, skill_md(name, "Write pytest unit tests and fixtures"))
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\nmax_block_tokens: 80\n")
    git("add", "-A")
    assert skill_index([]) == 3
    git("add", "-A")
    git("commit", "-qm", "thirty testing skills, collapsed")
    assert b"[30 skills: list them with skillmem search --domain testing]" in repo.read_bytes()
    use_driver()
    add_skill_on_branch("one", "one-new")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "one")
    merged = git("merge", "-q", "--no-edit", "two", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = repo.read_bytes()
    assert b"[testing]\n[30 skills: list them with skillmem search --domain testing]\n" in text
    assert b"[devops]\none-new\ntwo-new\n" in text
    assert run_cli(capsys, "verify", "--strict").code == 0  # on the merge commit, as the docs promise
    assert skill_verify([]) == 0, capsys.readouterr().err


def gone_interpreter(tmp_path: Path) -> str:
    return str(tmp_path / "deleted-venv" / "bin" / "python3")


def bare_interpreter(tmp_path: Path) -> str:
    """A virtualenv's interpreter that cannot import skillmem: the package uninstalled from it."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True)
    return str(tmp_path / "bare" / "bin" / "python3")


@pytest.fixture
def no_pythonpath(monkeypatch):
    """No PYTHONPATH (tests/mutants.py sets one), so that a bare interpreter really cannot import skillmem."""
    monkeypatch.delenv("PYTHONPATH", raising=False)


@pytest.mark.parametrize("interpreter", [gone_interpreter, bare_interpreter])
def test_without_its_interpreter_the_driver_falls_back_to_git_s_conflict_never_to_our_side(
    repo, capsys, tmp_path, interpreter, no_pythonpath
):
    use_driver(interpreter(tmp_path))
    add_skill_on_branch("one", "one-new", ("Intro.", "Intro, edited on one."))
    add_skill_on_branch("two", "two-new", ("Outro.", "Outro, edited on two."))
    git("checkout", "-q", "one")
    assert git("merge", "-q", "--no-edit", "two", check=False).returncode != 0
    text = repo.read_text()
    assert "Outro, edited on two." in text  # their edit is there, not silently dropped with our side kept
    assert "<<<<<<< ours\n" in text  # the block conflicts, as in a clone without the driver
    capsys.readouterr()
    assert skill_index([]) == 3
    assert "the block held a merge conflict; it was rebuilt" in capsys.readouterr().err
    assert "[devops]\none-new\ntwo-new\n" in repo.read_text()


def test_the_recorded_command_quotes_an_interpreter_path_with_spaces(repo, tmp_path):
    folder = tmp_path / "my venvs"
    folder.mkdir()
    (folder / "python3").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    (folder / "python3").chmod(0o755)
    use_driver(str(folder / "python3"))
    add_skill_on_branch("one", "one-new")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "one")
    merged = git("merge", "-q", "--no-edit", "two", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "[devops]\none-new\ntwo-new\n" in repo.read_text()


SETUP = "  so that the next merge rebuilds the block itself, set up the merge driver once in this clone:"


def setup_line(report: str) -> str:
    lines = report.splitlines()
    return lines[lines.index(SETUP) + 1]


def test_a_conflict_without_the_driver_says_the_git_config_line_that_sets_it_up_and_it_works(repo, capsys):
    Path(".gitattributes").write_text("/AGENTS.md merge=skillmem\n")  # committed; git config is not
    git("add", ".gitattributes")
    git("commit", "-qm", "attributes")
    add_skill_on_branch("one", "one-new")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "one")
    assert git("merge", "-q", "--no-edit", "two", check=False).returncode != 0
    capsys.readouterr()
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "the block held a merge conflict; it was rebuilt from the skills" in report
    command = setup_line(report).strip()
    assert command == f"git config merge.skillmem.driver {shlex.quote(driver_command(sys.executable))}"
    assert "send the file through it" not in report
    git("add", "-A")
    git("commit", "-qm", "merged by hand")
    subprocess.run(command, shell=True, check=True)  # as the teammate pastes it
    add_skill_on_branch("three", "three-new")
    git("checkout", "-q", "one")
    add_skill_on_branch("four", "four-new")
    merged = git("merge", "-q", "--no-edit", "three", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr  # the next merge needs no hand edit
    capsys.readouterr()
    assert skill_index([]) == 0


def test_without_the_attribute_the_report_also_names_the_gitattributes_line(repo, capsys):
    add_skill_on_branch("one", "one-new")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "one")
    git("merge", "-q", "--no-edit", "two", check=False)
    capsys.readouterr()
    assert skill_verify([]) == 3
    report = capsys.readouterr().err
    assert "git config merge.skillmem.driver" in setup_line(report)
    assert "and send the file through it: add the line '/AGENTS.md merge=skillmem' to .gitattributes" in report


def test_with_the_driver_set_up_a_conflict_does_not_ask_for_it(repo, capsys):
    git("config", "merge.skillmem.driver", driver_command(sys.executable))
    add_skill_on_branch("one", "one-new")
    add_skill_on_branch("two", "two-new")
    git("checkout", "-q", "one")
    git("merge", "-q", "--no-edit", "two", check=False)  # no attribute: git merges the file as text
    capsys.readouterr()
    assert skill_verify([]) == 3
    report = capsys.readouterr().err
    assert "the block holds a merge conflict" in report
    assert "git config" not in report
