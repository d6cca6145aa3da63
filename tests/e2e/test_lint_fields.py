"""skill-lint on every commit, through the real pre-commit: a valid Claude Code skill commits (newuser-3's B1, M5).

0.4.1 called Claude Code's own fields five SK105 errors, so a skill written
for it could not be committed once skill-lint left the manual stage; the
only way past was to ignore SK105, which also hid the misspelling
``user-invokable`` that 16 real skills carry. Now the fields pass, a value
Claude Code cannot use and a misspelt field stop the commit, and a field no
agent reads still does, as the spec says.
"""

from __future__ import annotations

import pytest

from ..helpers import CLAUDE_CODE_SKILL, skill_md, write_skill
from .repos import UserRepo, empty_repo, hooks_config

pytestmark = pytest.mark.precommit

DEPLOY = CLAUDE_CODE_SKILL


@pytest.fixture
def repo(hook_repo, tmp_path):
    """A Claude Code repository with skill-lint on every commit (no stages: line) and one committed skill."""
    repo = empty_repo(hook_repo, tmp_path / "user")
    skills = repo.path / ".claude" / "skills"
    write_skill(skills, "csv-cleaner", skill_md("csv-cleaner", "Clean CSV files. Use when a CSV is messy."))
    (repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-lint\n        args: [--root, .claude/skills]\n")
    )
    repo.git("add", "-A")
    assert repo.pre_commit("install").returncode == 0
    first = repo.commit("initial")
    assert first.returncode == 0, first.stdout + first.stderr
    return repo


def add_skill(repo: UserRepo, text: str):
    write_skill(repo.path / ".claude" / "skills", "deploy-prod", text)
    repo.git("add", "-A")
    return repo.commit("add deploy-prod")


def test_a_valid_claude_code_skill_commits(repo):
    result = add_skill(repo, DEPLOY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "skill lint (Agent Skills spec, missing files)...." in result.stderr  # it ran, and passed
    assert result.stderr.rstrip().endswith("Passed")


@pytest.mark.parametrize(
    ("change", "shown"),
    [
        (
            ("user-invocable: true", "user-invokable: true"),
            "SK107 unknown field 'user-invokable'; did you mean 'user-invocable'?",
        ),
        (("context: fork", "context: forked"), "SK133 'context' must be inline or fork"),
        (("model: claude-opus-4", "model: claude-opus-4\nrisk: low"), "SK105 unknown field 'risk'"),
    ],
    ids=["misspelt", "bad-value", "no-agent-reads-it"],
)
def test_a_misspelt_field_a_value_claude_code_cannot_use_and_an_unknown_field_stop_the_commit(repo, change, shown):
    result = add_skill(repo, DEPLOY.replace(*change))
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert ".claude/skills/deploy-prod/SKILL.md:" in output and shown in output
