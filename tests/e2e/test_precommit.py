"""End-to-end: the real git and the real pre-commit, with this checkout as the hook repository.

Marked ``precommit`` (select with ``-m precommit``), as every module of
``tests/e2e/`` is; their shared fixtures are in ``conftest.py``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from ..helpers import REPO, SEED_BLOCK, appended, seed_tree, skill_md, snapshot, write_skill
from .repos import empty_repo, hooks_config, run

pytestmark = pytest.mark.precommit


TWO_FILES = "args: [--root, skills, --prompt-file, AGENTS.md, --prompt-file, CLAUDE.md]"


@pytest.fixture
def user_repo(hook_repo, tmp_path):
    """A user's repository with the seed skills, AGENTS.md and CLAUDE.md, and skillmem in its config."""
    path = tmp_path / "user"
    repo = empty_repo(hook_repo, path)
    seed_tree(path / "skills")
    (path / "AGENTS.md").write_bytes(b"# Agents\n\nHand-written text.\n")
    (path / "CLAUDE.md").write_bytes(b"# Claude\r\n")
    (path / ".pre-commit-config.yaml").write_text(
        hooks_config(
            hook_repo,
            f"      - id: skill-index\n        {TWO_FILES}\n"
            f"      - id: skill-verify\n        {TWO_FILES}\n        stages: [manual]\n",
        )
    )
    repo.git("add", "-A")
    return repo


def test_first_run_injects_and_fails_then_passes_once_staged(user_repo):
    result = user_repo.pre_commit("run", "skill-index", "--all-files")
    assert result.returncode == 1
    assert "exit code: 3" in result.stdout
    assert "AGENTS.md: the skill index was updated" in result.stdout
    assert (user_repo.path / "AGENTS.md").read_bytes() == appended(b"# Agents\n\nHand-written text.\n", SEED_BLOCK)
    assert (user_repo.path / "CLAUDE.md").read_bytes() == appended(b"# Claude\r\n", SEED_BLOCK, b"\r\n")
    user_repo.git("add", "-A")
    assert user_repo.pre_commit("run", "skill-index", "--all-files").returncode == 0


def test_a_commit_adding_a_skill_is_stopped_until_the_block_is_staged(user_repo):
    user_repo.pre_commit("run", "skill-index", "--all-files")
    user_repo.git("add", "-A")
    assert user_repo.pre_commit("install").returncode == 0
    assert user_repo.commit("initial").returncode == 0
    write_skill(user_repo.path / "skills", "gamma-new", skill_md("gamma-new", "Deploy with Docker"))
    user_repo.git("add", "skills")
    stopped = user_repo.commit("add gamma")
    assert stopped.returncode != 0
    assert "added (1): gamma-new" in stopped.stdout + stopped.stderr
    assert b"[devops]\ngamma-new\n" in (user_repo.path / "AGENTS.md").read_bytes()
    user_repo.git("add", "-A")
    assert user_repo.commit("add gamma").returncode == 0
    assert user_repo.git("status", "--porcelain").stdout == ""


def test_a_commit_that_only_deletes_a_skill_folder_is_stopped(user_repo):
    user_repo.pre_commit("run", "skill-index", "--all-files")
    user_repo.git("add", "-A")
    user_repo.pre_commit("install")
    assert user_repo.commit("initial").returncode == 0
    user_repo.git("rm", "-r", "-q", "skills/alpha-tool")
    stopped = user_repo.commit("remove alpha")
    assert stopped.returncode != 0
    assert "removed (1): alpha-tool" in stopped.stdout + stopped.stderr
    assert b"alpha-tool" not in (user_repo.path / "AGENTS.md").read_bytes()


def test_skill_verify_fails_on_drift_without_writing_and_passes_when_current(user_repo):
    files = [user_repo.path / "AGENTS.md", user_repo.path / "CLAUDE.md"]
    before = [snapshot(path) for path in files]
    result = user_repo.pre_commit("run", "skill-verify", "--all-files", "--hook-stage", "manual")
    assert result.returncode == 1
    assert "exit code: 3" in result.stdout
    assert [snapshot(path) for path in files] == before
    user_repo.pre_commit("run", "skill-index", "--all-files")
    result = user_repo.pre_commit("run", "skill-verify", "--all-files", "--hook-stage", "manual")
    assert result.returncode == 0, result.stdout


def test_an_unstaged_edit_outside_the_block_survives_a_hook_run(user_repo):
    user_repo.pre_commit("run", "skill-index", "--all-files")
    user_repo.git("add", "-A")
    user_repo.pre_commit("install")
    assert user_repo.commit("initial").returncode == 0
    agents = user_repo.path / "AGENTS.md"
    write_skill(user_repo.path / "skills", "delta", skill_md("delta"))
    user_repo.git("add", "skills")
    agents.write_bytes(b"# Agents, edited and not staged\n" + agents.read_bytes())
    stopped = user_repo.commit("add delta")
    assert stopped.returncode != 0
    text = agents.read_bytes()
    assert text.startswith(b"# Agents, edited and not staged\n# Agents\n")


def test_one_hook_run_keeps_two_prompt_files_current(user_repo):
    user_repo.pre_commit("run", "skill-index", "--all-files")
    for name in ("AGENTS.md", "CLAUDE.md"):
        verify = subprocess.run(
            [sys.executable, "-m", "skillmem_hook", "verify", "--strict", "--root", "skills", "--prompt-file", name],
            cwd=user_repo.path,
            capture_output=True,
        )
        assert verify.returncode == 0, verify.stdout


# What a person reads in pre-commit's output (issue 9, items 6, 7 and 13).


def test_a_first_commit_on_a_large_collection_reads_as_a_screenful_of_utf8(user_repo):
    for number in range(45):
        write_skill(user_repo.path / "skills", f"tool-{number:02}", skill_md(f"tool-{number:02}"))
    write_skill(user_repo.path / "skills", "中文/反重力", skill_md("反重力", "中文描述"))
    write_skill(user_repo.path / "skills", "colon", skill_md("colon", "Use when: it breaks"))
    user_repo.git("add", "-A")
    user_repo.pre_commit("install")
    stopped = user_repo.commit("first")
    assert stopped.returncode != 0
    output = stopped.stdout + stopped.stderr
    assert "AGENTS.md: the skill index was updated; stage it and commit again" in output
    assert "  added (50): alpha-tool, beta-heading, colon, crlf-skill, tool-00," in output
    assert "    ... and 30 more" in output
    assert "  skills/colon/SKILL.md: invalid YAML (line 3, column" in output
    assert max(len(line) for line in output.splitlines()) <= 120
    user_repo.git("add", "-A")
    assert user_repo.commit("first").returncode == 0
    write_skill(user_repo.path / "skills", "中文/反重力", skill_md("反重力", "parse csv"))
    user_repo.git("add", "-A")
    moved = user_repo.commit("move")
    assert "  moved to another domain (1): 反重力 (general -> data-parsing)" in moved.stdout + moved.stderr
    assert "\\u" not in moved.stdout + moved.stderr


def test_a_hook_error_reaches_the_person_as_plain_text(user_repo):
    config = user_repo.path / ".pre-commit-config.yaml"
    config.write_text(config.read_text().replace("--prompt-file, AGENTS.md,", "--prompt-file, 说明.md,", 1))
    user_repo.git("add", "-A")
    result = user_repo.pre_commit("run", "skill-index", "--all-files")
    assert "exit code: 2" in result.stdout
    lines = result.stdout.splitlines()
    (error,) = [number for number, line in enumerate(lines) if line.startswith("skill-index: ")]
    assert "说明.md" in lines[error]
    assert lines[error + 1].startswith("  ")
    assert '{"tool"' not in result.stdout


def test_the_configured_index_file_is_kept_current_by_both_hooks(user_repo):
    (user_repo.path / ".skillmem.yaml").write_text("write: SKILLS_INDEX.md\n")
    index_file = user_repo.path / "SKILLS_INDEX.md"
    user_repo.git("add", "-A")
    user_repo.pre_commit("install")
    stopped = user_repo.commit("first")
    assert "SKILLS_INDEX.md: the skills index file was regenerated" in stopped.stdout + stopped.stderr
    assert "[skills/alpha-tool](skills/alpha-tool/SKILL.md)" in index_file.read_text()
    user_repo.git("add", "-A")
    assert user_repo.commit("first").returncode == 0
    write_skill(user_repo.path / "skills", "alpha-tool", skill_md("alpha-tool", "Parse CSV into <table>"))
    user_repo.git("add", "-A")
    stopped = user_repo.commit("describe")  # the block is unchanged: only the index file is stale
    assert stopped.returncode != 0
    assert "AGENTS.md" not in stopped.stdout + stopped.stderr
    assert "Parse CSV into \\<table\\>" in index_file.read_text()
    user_repo.git("add", "-A")
    assert user_repo.commit("describe").returncode == 0
    index_file.write_text("# edited by hand\n")
    verify = user_repo.pre_commit("run", "skill-verify", "--all-files", "--hook-stage", "manual")
    assert "exit code: 3" in verify.stdout
    assert "SKILLS_INDEX.md: the skills index file is out of date" in verify.stdout
    assert index_file.read_text() == "# edited by hand\n"


def test_skill_lint_checks_the_skills_a_commit_touches_and_all_with_all_files(user_repo, hook_repo):
    hook_root, rev, _ = hook_repo
    (user_repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-lint\n        args: [--root, skills]\n")
    )
    user_repo.git("add", "-A")
    assert user_repo.pre_commit("install").returncode == 0
    assert user_repo.commit("initial").returncode != 0  # the seed's beta-heading has no frontmatter
    write_skill(user_repo.path / "skills", "beta-heading", skill_md("beta-heading", "Beta heading"))
    user_repo.git("add", "-A")
    assert user_repo.commit("initial").returncode == 0
    write_skill(user_repo.path / "skills", "Gamma", skill_md("Gamma", "Deploy", body="Run `scripts/go.sh`.\n"))
    user_repo.git("add", "skills")
    stopped = user_repo.commit("add Gamma")
    output = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0
    assert "skills/Gamma/SKILL.md:2:7: SK113 name 'Gamma' has capitals; use 'gamma'" in output
    assert "skills/Gamma/SKILL.md:5:6: SK201 'scripts/go.sh' is not in the skill's folder" in output
    assert "skill-lint: 1 of 4 SKILL.md files checked, 2 errors, 0 warnings" in output
    everything = user_repo.pre_commit("run", "skill-lint", "--all-files")
    assert everything.returncode == 1
    assert "skill-lint: 4 SKILL.md files checked, 2 errors" in everything.stdout


def test_the_readmes_pre_commit_snippet_runs_skill_lint(user_repo, hook_repo):
    import re

    hook_root, rev, _ = hook_repo
    readme = (REPO / "README.md").read_text()
    snippet = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", readme, re.S).group(1)
    config = re.sub(r"repo: \S+", f"repo: {hook_root}", snippet, count=1)
    config = re.sub(r"rev: \S+", f"rev: {rev}", config, count=1)
    (user_repo.path / ".pre-commit-config.yaml").write_text(config)
    (user_repo.path / ".claude").mkdir()
    (user_repo.path / "skills").rename(user_repo.path / ".claude" / "skills")
    user_repo.git("add", "-A")
    result = user_repo.pre_commit("run", "skill-lint", "--all-files")
    assert result.returncode == 1
    assert ".claude/skills/beta-heading/SKILL.md:1:1: SK101 SKILL.md has no frontmatter" in result.stdout
    assert "skill-lint: 3 SKILL.md files checked, 1 error, 0 warnings" in result.stdout


def test_a_capped_block_of_2000_skills_fits_and_is_idempotent_under_the_hooks(user_repo):
    from skillmem_hook.block.markers import current_block
    from skillmem_hook.block.render import estimate_tokens

    topics = ["find a vulnerability", "write unit tests", "deploy with docker", "parse csv", "write the docs"]
    for number in range(2000):
        name = f"generated-skill-{number:05}"
        write_skill(user_repo.path / "skills", name, skill_md(name, topics[number % len(topics)]))
    (user_repo.path / ".skillmem.yaml").write_text("max_block_tokens: 2000\n")
    user_repo.git("add", "-A")
    first = user_repo.pre_commit("run", "skill-index", "--all-files")
    assert "exit code: 3" in first.stdout
    written = {name: (user_repo.path / name).read_bytes() for name in ("AGENTS.md", "CLAUDE.md")}
    for data in written.values():
        block = current_block(data)
        assert block is not None and estimate_tokens(len(block.replace(b"\r\n", b"\n"))) <= 2000
        assert b"skills: list them with skillmem search --domain" in block
    user_repo.git("add", "-A")
    assert user_repo.pre_commit("run", "skill-index", "--all-files").returncode == 0
    assert {name: (user_repo.path / name).read_bytes() for name in written} == written
    verify = user_repo.pre_commit("run", "skill-verify", "--all-files", "--hook-stage", "manual")
    assert verify.returncode == 0, verify.stdout
    cli = run(
        [
            sys.executable,
            "-m",
            "skillmem_hook",
            "verify",
            "--strict",
            "--root",
            "skills",
            "--prompt-file",
            "AGENTS.md",
            "--prompt-file",
            "CLAUDE.md",
        ],
        user_repo.path,
        user_repo.env,
        check=False,
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr


def test_skill_budget_fails_while_an_agent_would_lose_a_skill(user_repo, hook_repo):
    hook_root, rev, _ = hook_repo
    (user_repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(
            hook_repo, "      - id: skill-budget\n        args: [--root, .claude/skills, --agent, claude-code]\n"
        )
    )
    write_skill(user_repo.path / ".claude/skills", "flat", skill_md("flat", "Parse CSV"))
    write_skill(user_repo.path / ".claude/skills", "group/nested", skill_md("nested", "Deploy"))
    user_repo.git("add", "-A")
    failing = user_repo.pre_commit("run", "skill-budget", "--all-files")
    assert "exit code: 1" in failing.stdout
    assert "1 not listed: 2 folders below .claude/skills; Claude Code looks 1 down\n    nested\n" in failing.stdout
    user_repo.git("mv", ".claude/skills/group/nested", ".claude/skills/nested")
    assert user_repo.pre_commit("run", "skill-budget", "--all-files").returncode == 0
