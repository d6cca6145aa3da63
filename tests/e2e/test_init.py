"""End-to-end: ``skillmem init``, then ``git add -A`` and a first ``git commit`` through the real pre-commit.

On a fresh repository, on each of the two shared real collections (when
they are beside this checkout), on a repository that already has a
``.pre-commit-config.yaml`` with other hooks and comments, and through a
real merge of two branches that each add a skill.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from ..helpers import REPO, seed_tree, skill_md, write_skill
from .repos import UserRepo, run

pytestmark = pytest.mark.precommit

COLLECTIONS = Path(os.environ.get("SKILLMEM_COLLECTIONS", REPO.parent / "shared" / "data" / "collections"))
EXISTING_CONFIG = """\
# Our hooks: keep this comment.
repos:
  # a hook of our own, first
  - repo: local
    hooks:
      - id: no-tabs
        name: no tabs in Markdown   # a trailing comment
        entry: "\\t"
        language: pygrep
        files: \\.md$
# the end
"""


def new_repo(hook_repo, path: Path) -> UserRepo:
    _, _, env = hook_repo
    path.mkdir(parents=True, exist_ok=True)
    # pre-commit and the interpreter that runs init on PATH, as in the virtualenv a user installed skillmem into.
    env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"}
    repo = UserRepo(path, env)
    repo.git("init", "-q", "-b", "main")
    return repo


def init(repo: UserRepo, hook_repo, *args: str) -> dict:
    hook_root, rev, _ = hook_repo
    command = [sys.executable, "-m", "skillmem_hook", "init", "--repo", str(hook_root), "--rev", rev, *args]
    result = run(command, repo.path, repo.env)
    return json.loads(result.stdout)


def first_commit_passes(repo: UserRepo) -> str:
    repo.git("add", "-A")
    result = repo.commit("adopt skillmem")
    assert result.returncode == 0, result.stdout + result.stderr
    assert repo.git("status", "--porcelain").stdout == ""
    return result.stdout + result.stderr


def test_init_on_a_fresh_repository_then_the_first_commit_passes(hook_repo, tmp_path):
    repo = new_repo(hook_repo, tmp_path / "fresh")
    seed_tree(repo.path / "skills")
    done = init(repo, hook_repo)
    assert done["hooks_installed"] == "ran 'pre-commit install'"
    output = first_commit_passes(repo)
    assert "skill index (re-inject into prompt files)" in output and "Passed" in output
    again = init(repo, hook_repo)
    assert {item["action"] for item in again["files"]} == {"unchanged"}
    assert again["hooks_installed"] == "already installed"
    assert repo.git("status", "--porcelain").stdout == ""
    # The next skill goes through the hook as usual: stopped once, then committed.
    write_skill(repo.path / "skills", "gamma", skill_md("gamma", "Deploy with Docker"))
    repo.git("add", "-A")
    assert repo.commit("add gamma").returncode != 0
    first_commit_passes(repo)


def test_init_keeps_an_existing_pre_commit_config_with_its_hooks_and_comments(hook_repo, tmp_path):
    repo = new_repo(hook_repo, tmp_path / "existing")
    seed_tree(repo.path / "skills")
    (repo.path / "AGENTS.md").write_text("# Agents\n\nHand-written.\n")
    (repo.path / ".pre-commit-config.yaml").write_text(EXISTING_CONFIG)
    init(repo, hook_repo)
    config = (repo.path / ".pre-commit-config.yaml").read_text()
    assert config.startswith(EXISTING_CONFIG.replace("# the end\n", ""))
    assert config.endswith("# the end\n")
    assert yaml.safe_load(config)["repos"][0]["repo"] == "local"
    output = first_commit_passes(repo)
    assert "no tabs in Markdown" in output
    assert (repo.path / "AGENTS.md").read_text().startswith("# Agents\n\nHand-written.\n\n")


def test_init_in_a_claude_code_repository_keeps_the_block_where_claude_code_reads_it(hook_repo, tmp_path):
    # newcomer en3: skills in .claude/skills alone, and init created an AGENTS.md Claude Code never reads.
    repo = new_repo(hook_repo, tmp_path / "claude")
    seed_tree(repo.path / ".claude" / "skills")
    done = init(repo, hook_repo)
    assert done["prompt_files"] == ["CLAUDE.md"]
    first_commit_passes(repo)
    assert repo.git("ls-files", "CLAUDE.md", "AGENTS.md").stdout == "CLAUDE.md\n"
    # The next skill reaches CLAUDE.md through the hook, as with any prompt file.
    write_skill(repo.path / ".claude" / "skills", "gamma", skill_md("gamma", "Deploy with Docker"))
    repo.git("add", "-A")
    assert repo.commit("add gamma").returncode != 0
    first_commit_passes(repo)
    assert "gamma" in repo.git("show", "HEAD:CLAUDE.md").stdout


def extract(name: str, into: Path) -> Path:
    archive = COLLECTIONS / f"{name}.tar.gz"
    if not archive.exists():
        pytest.skip(f"the shared collection {archive} is not beside this checkout (set SKILLMEM_COLLECTIONS)")
    with tarfile.open(archive) as tar:
        tar.extractall(into.parent, filter="data") if sys.version_info >= (3, 12) else tar.extractall(into.parent)
    return into


def test_init_on_the_english_collection(hook_repo, tmp_path):
    repo = new_repo(hook_repo, extract("skills-en", tmp_path / "skills-en"))
    done = init(repo, hook_repo)
    assert done["roots"] == ["skills"]
    first_commit_passes(repo)
    assert (repo.path / "AGENTS.md").read_text().count("\n") > 500


def test_init_on_the_chinese_collection_finds_the_nested_root_and_not_the_ignored_one(hook_repo, tmp_path):
    repo = new_repo(hook_repo, extract("skills-cn", tmp_path / "skills-cn"))
    # As in the collection's own repository: /skills/ is ignored (a personal install).
    (repo.path / ".gitignore").write_text("/skills/\n")
    write_skill(repo.path / "skills", "personal-only", skill_md("personal-only", "mine"))
    done = init(repo, hook_repo)
    assert done["roots"] == ["反重力 - 超强技能 - 中文/skills"]
    # lintonce 5: the block's skills and those it leaves out add up to the SKILL.md files on disk (1,886 and 26 of
    # 1,912: 13 only their user invokes, 13 duplicates); it said "13 of 1,899", the duplicates counted nowhere.
    on_disk = sum(1 for _ in (repo.path / done["roots"][0]).rglob("SKILL.md"))
    [block] = [item["why"] for item in done["files"] if item["path"] == "AGENTS.md"]
    [note] = [note for note in done["notes"] if "left out of the block" in note]
    left_out, total = (int(number.replace(",", "")) for number in note.split(" SKILL.md files")[0].split(" of "))
    assert total == on_disk == left_out + int(block.rsplit(": ", 1)[1].split()[0].replace(",", ""))
    assert "the same name as a skill the block lists" in note
    first_commit_passes(repo)
    agents = (repo.path / "AGENTS.md").read_text()
    assert "personal-only" not in agents
    assert agents.count("\n") > 1500


def test_a_merge_of_two_branches_each_adding_a_skill_needs_no_hand_edit(hook_repo, tmp_path):
    repo = new_repo(hook_repo, tmp_path / "merge")
    seed_tree(repo.path / "skills")
    init(repo, hook_repo)
    first_commit_passes(repo)
    for branch in ("one", "two"):
        repo.git("checkout", "-q", "-b", branch, "main")
        write_skill(repo.path / "skills", f"{branch}-new", skill_md(f"{branch}-new", "Deploy with Docker"))
        repo.git("add", "-A")
        assert repo.commit(f"add {branch}").returncode != 0  # the hook adds it to the block
        first_commit_passes(repo)
    repo.git("checkout", "-q", "one")
    merged = repo.git("merge", "--no-edit", "two", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "[devops]\none-new\ntwo-new\n" in (repo.path / "AGENTS.md").read_text()
    assert repo.pre_commit("run", "--all-files").returncode == 0
    assert repo.git("status", "--porcelain").stdout == ""


def test_a_dry_run_on_a_real_repository_writes_nothing(hook_repo, tmp_path):
    repo = new_repo(hook_repo, tmp_path / "dry")
    seed_tree(repo.path / "skills")
    done = init(repo, hook_repo, "--dry-run")
    assert done["hooks_installed"] == "would run 'pre-commit install'"
    assert sorted(path.name for path in repo.path.iterdir()) == [".git", "skills"]
    assert not (repo.path / ".git" / "hooks" / "pre-commit").exists()
    assert shutil.which("git")
    assert (
        "skillmem"
        not in subprocess.run(
            ["git", "config", "--local", "-l"], cwd=repo.path, capture_output=True, text=True, check=True
        ).stdout
    )


def test_the_readmes_way_to_pin_a_commit_while_no_tag_is_published(hook_repo, tmp_path):
    hook_root, rev, _ = hook_repo
    repo = new_repo(hook_repo, tmp_path / "pin")
    seed_tree(repo.path / "skills")
    init(repo, hook_repo, "--rev", "v0.0.0-unpublished", "--no-install")
    run([sys.executable, "-m", "pre_commit", "autoupdate", "--freeze", "--repo", str(hook_root)], repo.path, repo.env)
    entry = yaml.safe_load((repo.path / ".pre-commit-config.yaml").read_text())["repos"][0]
    assert entry["rev"] == rev
    assert repo.pre_commit("install").returncode == 0
    first_commit_passes(repo)
