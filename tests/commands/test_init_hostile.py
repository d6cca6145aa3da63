"""``skillmem init`` on hostile repositories (hostile-4's H4-1, H4-3, H4-11, H4-12): each refusal comes before
any write, and nothing a repository holds makes init hang, write one of its own files twice, list this
machine's skills or write a ``.gitattributes`` line matching other files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ..adopt.test_precommit_config import amplified
from ..helpers import skill_md, write_skill
from .test_init import init, tree_state


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo():
    git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    return Path.cwd()


def test_an_alias_amplified_precommit_config_is_refused_at_once_before_any_write(repo):
    # H4-1: 72 KB of aliases took init past 10 s (1 MiB: hours); the node graph is read once per node.
    Path(".pre-commit-config.yaml").write_bytes(amplified(150_000))  # 900 KB, within the reader's 1 MiB
    before = tree_state(repo)
    command = [sys.executable, "-m", "skillmem_hook", "init", "--no-install", "--dry-run"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)  # a bound, not a measure
    assert result.returncode == 2, result.stderr
    assert "cannot extend" in result.stderr
    assert tree_state(repo) == before


@pytest.mark.parametrize("own", [".pre-commit-config.yaml", ".gitattributes"])
def test_a_committed_link_from_agents_md_to_an_own_file_is_refused_before_any_write(repo, capsys, own):
    # H4-3: run 1 wrote three files, then exited 2; run 2 appended the block to .pre-commit-config.yaml.
    Path(own).write_text("repos: []\n" if own.endswith(".yaml") else "*.png binary\n")
    Path("AGENTS.md").symlink_to(own)
    git("add", "-A")
    before = tree_state(repo)
    for _ in range(2):
        run = init(capsys)
        assert run.code == 2
        assert f"leads to {own}" in run.error["error"]
        assert tree_state(repo) == before


def test_a_prompt_file_reaching_an_own_file_through_a_folder_link_is_refused(repo, capsys):
    Path(".pre-commit-config.yaml").write_text("repos: []\n")
    Path("d").symlink_to(".")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [d/.pre-commit-config.yaml]\n")
    git("add", "-A")
    before = tree_state(repo)
    run = init(capsys)
    assert run.code == 2
    assert tree_state(repo) == before


@pytest.mark.parametrize("outside", ["absolute", "relative", "link"])
def test_a_root_outside_the_repository_is_refused_and_no_skill_of_this_machine_is_listed(
    tmp_path, capsys, monkeypatch, outside
):
    # H4-11: the machine's own skills were written into AGENTS.md, and 'next' was a failing git add.
    write_skill(tmp_path / "private", "secret", skill_md("my-private-secret", "x"))
    top = tmp_path / "repo"
    top.mkdir()
    monkeypatch.chdir(top)
    git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text"))
    root = {"absolute": str(tmp_path / "private"), "relative": "../private", "link": "mine"}[outside]
    if outside == "link":
        Path("mine").symlink_to(tmp_path / "private")
    Path(".skillmem.yaml").write_text(yaml.safe_dump({"roots": [root], "prompt_files": ["AGENTS.md"]}))
    git("add", "-A")
    before = tree_state(top)
    run = init(capsys, "--text")
    assert run.code == 2
    assert "lies outside the repository" in run.err
    assert run.out == ""  # no 'next: git add <outside path>'
    assert tree_state(top) == before
    assert not Path("AGENTS.md").exists()


def test_repos_as_an_empty_flow_list_keeps_one_repos_key(repo, capsys):
    # H4-12 (a): a second top-level 'repos:' was appended (check-yaml, on ruamel, refuses the file).
    Path(".pre-commit-config.yaml").write_text("repos: []\n")
    assert init(capsys).code == 0
    text = Path(".pre-commit-config.yaml").read_text()
    assert text.count("repos:") == 1
    assert [hook["id"] for hook in yaml.safe_load(text)["repos"][0]["hooks"]] == [
        "skill-index",
        "skill-verify",
        "skill-lint",
    ]


@pytest.mark.parametrize("name", ["x.md\n* merge=skillmem", "*.md", "[A]GENTS.md"])
def test_a_prompt_file_name_never_writes_an_attributes_line_matching_other_files(repo, capsys, name):
    # H4-12 (b): a line break in the name wrote '* merge=skillmem', sending every file through the driver.
    Path(".skillmem.yaml").write_text(yaml.safe_dump({"roots": ["skills"], "prompt_files": [name]}))
    git("add", "-A")
    assert init(capsys).code == 0
    paths = [name, "README.md", "some/file.c", "AGENTS.md", "x.md"]
    out = subprocess.run(
        ["git", "check-attr", "-z", "--stdin", "merge"], input="\0".join(paths) + "\0", capture_output=True, text=True
    ).stdout.split("\0")
    seen = {out[i]: out[i + 2] for i in range(0, len(out) - 2, 3)}
    assert seen == {path: "skillmem" if path == name else "unspecified" for path in paths}


def staged() -> list[str]:
    return git("diff", "--cached", "--name-only", "-z").split("\0")[:-1]


@pytest.mark.skipif(shutil.which("dash") is None, reason="dash is not installed")
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_next_pasted_into_any_shell_runs_no_command_a_folder_name_holds(capsys, shell):
    """H8-1: `next: git add ... $'\\x01\\'$(touch PWNED2)\\'' 'a'\\''b'` ran touch in dash, which ends $'...' at \\'."""
    git("init", "-q")
    for root in ("\x01'$(touch PWNED2)'", "a'b"):
        write_skill(Path(root), "s1", skill_md("s1", "A skill in a hostile folder"))
    run = init(capsys)
    assert run.code == 0, run.err
    adding = run.data["next"].split(" && ")[0]
    subprocess.run([shell, "-c", adding], capture_output=True)
    assert not Path("PWNED2").exists()
    if shell == "bash":  # bash, zsh and ksh read $'...': the real folders; dash a wrong name at worst
        assert {"\x01'$(touch PWNED2)'/s1/SKILL.md", "a'b/s1/SKILL.md"} <= set(staged())


@pytest.mark.skipif(shutil.which("dash") is None, reason="dash is not installed")
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_next_adds_a_skill_folder_named_star_and_not_every_untracked_file(capsys, shell):
    """H8-2: `git add ... '*'` is a pathspec: it added every untracked file, a user's .env.local too."""
    git("init", "-q")
    write_skill(Path("*"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path(".env.local").write_text("TOKEN=secret\n")
    run = init(capsys)
    assert run.code == 0, run.err
    adding = run.data["next"].split(" && ")[0]
    assert adding.endswith(" ':(literal)*'")
    subprocess.run([shell, "-c", adding], check=True)
    assert "*/pdf/SKILL.md" in staged() and ".env.local" not in staged()
