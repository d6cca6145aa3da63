"""H4-7: what a command reads because the repository names it stays in the work tree, out of .git, on tracked files.

The reproduction of the hostile report, through every command and view an
agent or a person reads skills with: a repository whose committed
configuration says ``roots: ["."]`` commits ``setup-guide/SKILL.md ->
../.git/config`` (a token in the remote's URL) and ``env-guide/SKILL.md ->
../.env`` (gitignored). Neither is a skill anywhere, and no output holds a
byte of either file. Real git, real files; the commands run in process.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.catalog.discovery.links import INTO_GIT_DIRECTORY, UNTRACKED_TARGET
from skillmem_hook.commands.route import route_hook_input
from skillmem_hook.errors import UsageError
from skillmem_hook.hooks.index import skill_index, skill_verify
from skillmem_hook.hooks.lint import skill_lint as lint_hook

from .helpers import isolate_git, run_cli, run_git, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SECRETS = ("ghp_SECRETTOKEN", "AWS_SECRET", "Deploy notes", "[core]")
HOSTILE = ("setup-guide", "env-guide")


@pytest.fixture(autouse=True)
def hostile(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q")
    run_git("config", "remote.origin.url", "https://alice:ghp_SECRETTOKEN@github.com/acme/x.git")
    write_skill(Path("tools"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("AGENTS.md").write_text("# A\n")
    Path(".skillmem.yaml").write_text('roots: ["."]\nprompt_files: [AGENTS.md]\n')
    Path(".gitignore").write_text(".env\n")
    Path(".env").write_text("# Deploy notes\nAWS_SECRET=abc123 prod secrets\n")
    for folder, target in (("setup-guide", "../.git/config"), ("env-guide", "../.env")):
        Path(folder).mkdir()
        os.symlink(target, f"{folder}/SKILL.md")
    run_git("add", "-A")
    run_git("commit", "-q", "-m", "hostile", "--no-verify")


def assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


@pytest.mark.parametrize("view", [[], ["--tracked"]])
def test_index_lists_neither_and_says_why(capsys, view):
    run = run_cli(capsys, "index", *view)
    assert run.code == 0
    assert [skill["name"] for skill in run.data["skills"]] == ["pdf"]
    assert_clean(run.out + run.err)
    if not view:  # git's view never lists an untracked target at all; the disk's says why it left each out
        reasons = {item["path"]: item["reason"] for item in run.data["skipped"]}
        assert reasons == {"env-guide": UNTRACKED_TARGET, "setup-guide": INTO_GIT_DIRECTORY}


@pytest.mark.parametrize("name", HOSTILE)
def test_read_refuses_both_in_both_views(capsys, name):
    for view in ([], ["--tracked"]):
        run = run_cli(capsys, "read", name, *view)
        assert run.code == 2
        assert f"no skill named '{name}'" in run.error["error"]
        assert_clean(run.out + run.err)


def test_search_and_eval_never_rank_them(capsys, tmp_path):
    run = run_cli(capsys, "search", "AWS_SECRET prod secrets deploy notes remote origin")
    assert run.code == 0
    assert [hit["name"] for hit in run.data["results"]] in ([], ["pdf"])
    assert_clean(json.dumps(run.data["results"]) + run.err)  # the query itself is echoed back
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "q", "query": "prod secrets deploy notes", "expect": ["env-guide"]}) + "\n")
    run = run_cli(capsys, "eval", str(questions))
    assert run.code == 0
    assert run.data["hit@10"] == 0
    assert not any(name in run.out for name in ("setup-guide", "AWS_SECRET", "ghp_"))


def test_the_mcp_tools_neither_read_nor_find_them():
    library = SkillLibrary()
    for name in HOSTILE:
        with pytest.raises(UsageError, match="no skill named"):
            library.read(name)
    found = library.search("AWS_SECRET prod secrets remote origin", 10)
    assert {hit["name"] for hit in found} <= {"pdf"}
    assert_clean(json.dumps(found))


@pytest.mark.parametrize("name", HOSTILE)
def test_route_never_hints_them(name):
    prompt = json.dumps({"prompt": f"use the {name} skill", "cwd": os.getcwd()}).encode()
    assert route_hook_input(prompt, []) == b""


def test_the_block_lint_and_budget_leave_them_out(capsys, monkeypatch):
    assert run_cli(capsys, "inject").code == 0
    block = Path("AGENTS.md").read_text()
    assert "pdf" in block
    assert not any(name in block for name in HOSTILE)
    run_git("add", "AGENTS.md")
    assert skill_verify([]) == 0
    assert skill_index([]) == 0
    run = run_cli(capsys, "lint")
    assert_clean(run.out + run.err)
    assert not any(name in run.out for name in HOSTILE)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    lint_hook(["--all"])
    assert_clean(capsys.readouterr().err)
    run = run_cli(capsys, "budget")
    assert run.code in (0, 1)
    assert_clean(run.out + run.err)
    assert not any(name in run.out for name in HOSTILE)
