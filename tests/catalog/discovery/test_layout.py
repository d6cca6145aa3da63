"""Which roots init proposes, from the SKILL.md paths git lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.discovery.layout import hidden, skill_roots


@pytest.mark.parametrize(
    ("paths", "roots"),
    [
        (["skills/pdf/SKILL.md", "skills/docx/SKILL.md"], ["skills"]),
        (["skills/game-development/2d-games/SKILL.md", "skills/pdf/SKILL.md"], ["skills"]),
        ([".claude/skills/a/SKILL.md", "skills/b/SKILL.md"], [".claude/skills", "skills"]),
        # The Chinese collection: the only skills root is nested, its name holds spaces.
        (["反重力 - 超强技能 - 中文/skills/数据库/ORM/pg/SKILL.md"], ["反重力 - 超强技能 - 中文/skills"]),
        (["tools/pdf/SKILL.md", "tools/x/y/SKILL.md"], ["tools"]),
        (["pdf/SKILL.md"], ["."]),
        (["pdf/SKILL.md", "skills/a/SKILL.md"], ["."]),  # a root at the top holds every other
        (["SKILL.md"], []),  # the repository is one skill: no folder of skills
        (["docs/SKILL.md.txt", "skills/README.md"], []),
    ],
)
def test_the_roots_are_the_nearest_skills_folders(paths, roots):
    assert skill_roots(paths) == roots


@given(st.lists(st.lists(st.sampled_from(["skills", "a", "b", "c"]), min_size=1, max_size=5), max_size=8))
def test_every_skill_lies_under_exactly_one_root(folders):
    paths = ["/".join([*parts, "SKILL.md"]) for parts in folders]
    roots = skill_roots(paths)
    for path in paths:
        under = [root for root in roots if root == "." or path.startswith(root + "/")]
        assert len(under) == 1, (path, roots)
    assert not any(root != other and other.startswith(root + "/") for root in roots for other in roots)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (".claude/skills/a/SKILL.md", False),
        (".codex/skills/a/SKILL.md", False),
        ("skills/.hidden/a/SKILL.md", True),
        (".github/skills/a/SKILL.md", True),
        ("skills/a/SKILL.md", False),
    ],
)
def test_hidden_folders_are_skipped_but_the_agents_own(path, expected):
    assert hidden(path) is expected
