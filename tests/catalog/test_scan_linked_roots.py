"""One skill set, every agent: a skill two roots reach through a link is one skill, in both views and in lint.

Teams link one agent's folder to another's (``.claude/skills`` to
``.agents/skills``, or to a group inside it, or skill by skill); the block
must list each such skill once, and nothing may call it a duplicate of itself.
Each test runs in its own empty folder (conftest), which is the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.block.render import render_block
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.scan import scan_roots

from ..helpers import run_cli, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
ROOTS = [".claude/skills", ".agents/skills"]


def git(*args):
    subprocess.run(["git", *args], check=True, capture_output=True)


def agents_skills():
    write_skill(Path(".agents/skills"), "group/foo", skill_md("foo", "Foo skill"))
    write_skill(Path(".agents/skills"), "bar", skill_md("bar", "Bar skill"))
    Path(".claude").mkdir()


def link_to_a_group():
    agents_skills()
    os.symlink("../.agents/skills/group", ".claude/skills")


def link_the_whole_folder():
    agents_skills()
    os.symlink("../.agents/skills", ".claude/skills")


def link_skill_by_skill():
    agents_skills()
    Path(".claude/skills").mkdir()
    os.symlink("../../.agents/skills/group/foo", ".claude/skills/foo")


LAYOUTS = [link_to_a_group, link_the_whole_folder, link_skill_by_skill]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("tracked", [False, True])
def test_a_skill_two_roots_reach_is_one_skill_and_no_duplicate(layout, tracked):
    layout()
    git("init", "-q")
    git("add", "-A")
    catalog = scan_roots(ROOTS, CatalogOptions(tracked=tracked, cache=False))
    assert sorted(skill.name for skill in catalog.skills) == ["bar", "foo"]
    assert catalog.duplicates == []
    assert render_block(catalog.skills).count(b"foo") == 1
    # a link into another root the catalog lists is no skip worth reporting: the skill is listed from there
    assert [item for item in catalog.skipped if "outside the root" in item["reason"]] == []


@pytest.mark.parametrize("layout", LAYOUTS)
def test_lint_checks_a_skill_two_roots_reach_once_and_finds_no_duplicate(capsys, layout):
    layout()
    Path(".skillmem.yaml").write_text("roots: [.claude/skills, .agents/skills]\n")
    run = run_cli(capsys, "lint")
    assert "SK301" not in run.out
    assert run.code == 0, run.out


def test_two_files_that_share_a_name_are_still_duplicates():
    write_skill(Path(".agents/skills"), "foo", skill_md("foo", "one"))
    write_skill(Path(".claude/skills"), "foo", skill_md("foo", "two"))
    catalog = scan_roots(ROOTS, CatalogOptions(tracked=False, cache=False))
    assert [skill.description for skill in catalog.skills] == ["two"]
    assert len(catalog.duplicates) == 1
