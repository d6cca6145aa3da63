"""End-to-end: lint from day one (newuser-3's m10). After ``skillmem init``, a repository with many old lint
findings commits, and a new skill with invalid frontmatter or a missing referenced file is stopped at its
commit, through the real git and pre-commit."""

from __future__ import annotations

import re

import pytest
import yaml

from ..helpers import skill_md, write_skill
from .test_init import first_commit_passes, init, new_repo

pytestmark = pytest.mark.precommit

OLD_SKILLS = 120


def old_collection(root):
    """Skills as collections have them: a field no agent reads, a file the body names and the tree lacks."""
    for number in range(OLD_SKILLS):
        name = f"old-skill-{number:03}"
        text = f"---\nname: {name}\ndescription: Convert CSV files, number {number}\nrisk: low\n---\n"
        write_skill(root, name, text + "Run `scripts/convert.py` on the file.\n")


LINT_FAILED = re.compile(r"^skill lint \(Agent Skills spec, missing files\)\.+Failed$", re.MULTILINE)


def stopped(repo, message: str) -> str:
    """The commit fails, and skill-lint is among the hooks that failed it."""
    repo.git("add", "-A")
    result = repo.commit(message)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert LINT_FAILED.search(output), output
    return output


def test_old_findings_commit_and_a_new_one_is_stopped_at_its_commit(hook_repo, tmp_path):
    repo = new_repo(hook_repo, tmp_path / "collection")
    old_collection(repo.path / "skills")
    done = init(repo, hook_repo)
    baseline = next(item for item in done["files"] if item["path"] == ".skillmem-lint-baseline.json")
    assert baseline["action"] == "created"
    assert f"({2 * OLD_SKILLS:,} errors)" in baseline["why"]  # an unknown field and a missing file each
    hooks = yaml.safe_load((repo.path / ".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    assert hooks[2] == {"id": "skill-lint"}
    output = first_commit_passes(repo)
    assert "skill lint (Agent Skills spec, missing files)" in output

    # A new skill whose frontmatter is not YAML: stopped, and named.
    write_skill(repo.path / "skills", "broken", "---\nname: broken\ndescription: Use when: the user asks: logs\n---\n")
    assert "SK103" in stopped(repo, "add broken")
    (repo.path / "skills" / "broken" / "SKILL.md").write_bytes(skill_md("broken", "Tail the logs"))
    first_commit_passes(repo)

    # A new skill that runs a script the commit does not hold: stopped.
    write_skill(repo.path / "skills", "runner", skill_md("runner", "Run things", body="Run `scripts/go.py`.\n"))
    assert "SK201" in stopped(repo, "add runner")
    (repo.path / "skills" / "runner" / "scripts").mkdir()
    (repo.path / "skills" / "runner" / "scripts" / "go.py").write_text("print('go')\n")
    first_commit_passes(repo)

    # An old skill edited elsewhere keeps its known findings, and commits.
    old = repo.path / "skills" / "old-skill-007" / "SKILL.md"
    old.write_text(old.read_text() + "\nMore notes.\n")
    first_commit_passes(repo)
