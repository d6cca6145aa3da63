"""Which roots init proposes, from the SKILL.md paths git lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.discovery.layout import choose_roots, hidden, skill_roots


@pytest.mark.parametrize(
    ("paths", "roots"),
    [
        (["skills/pdf/SKILL.md", "skills/docx/SKILL.md"], ["skills"]),
        (["skills/game-development/2d-games/SKILL.md", "skills/pdf/SKILL.md"], ["skills"]),
        ([".claude/skills/a/SKILL.md", "skills/b/SKILL.md"], [".claude/skills", "skills"]),
        # The Chinese collection: the only skills root is nested, its name holds spaces.
        (["反重力 - 超强技能 - 中文/skills/数据库/ORM/pg/SKILL.md"], ["反重力 - 超强技能 - 中文/skills"]),
        (["tools/pdf/SKILL.md", "tools/x/y/SKILL.md"], ["tools"]),
        (["SKILL.md"], []),  # the repository is one skill: no folder of skills
        (["docs/SKILL.md.txt", "skills/README.md"], []),
        ([".github/skills/a/SKILL.md", ".gemini/skills/b/SKILL.md"], [".gemini/skills", ".github/skills"]),
        # A skill whose own folder is named skills is a skill, not a folder of them: its parent holds it.
        (["docs/skills/SKILL.md"], ["docs"]),
    ],
)
def test_the_roots_are_the_nearest_skills_folders(paths, roots):
    assert skill_roots(paths) == roots
    assert choose_roots(paths) == (roots, [])


@pytest.mark.parametrize(
    ("paths", "roots", "left_out"),
    [
        # anthropics/skills: a template at the top made the whole repository the root (newuser-3's m12).
        (["template/SKILL.md", "skills/pdf/SKILL.md", "skills/docx/SKILL.md"], ["skills"], ["template"]),
        (["pdf/SKILL.md", "tools/x/SKILL.md"], ["tools"], ["pdf"]),
        # A flat collection: each folder at the top is a root of its own, never the top itself.
        (["pdf/SKILL.md", "csv/SKILL.md"], ["csv", "pdf"], []),
    ],
)
def test_the_top_is_never_a_root(paths, roots, left_out):
    assert choose_roots(paths) == (roots, left_out)
    assert "." not in skill_roots(paths)


@given(st.lists(st.lists(st.sampled_from(["skills", "a", "b", "c"]), min_size=1, max_size=5), max_size=8))
def test_every_skill_lies_under_exactly_one_root_or_is_left_out_by_name(folders):
    paths = ["/".join([*parts, "SKILL.md"]) for parts in folders]
    roots, left_out = choose_roots(paths)
    assert "." not in roots
    for path in paths:
        under = [root for root in roots if path.startswith(root + "/")]
        assert len(under) == 1 or path.split("/")[0] in left_out, (path, roots, left_out)
    assert not any(root != other and other.startswith(root + "/") for root in roots for other in roots)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (".claude/skills/a/SKILL.md", False),
        (".codex/skills/a/SKILL.md", False),
        ("skills/.hidden/a/SKILL.md", True),
        (".github/skills/a/SKILL.md", False),  # GitHub Copilot's
        (".gemini/skills/a/SKILL.md", False),  # Gemini CLI's
        (".opencode/skill/a/SKILL.md", False),  # OpenCode's
        (".vscode/skills/a/SKILL.md", True),
        ("docs/.github/skills/a/SKILL.md", True),
        ("skills/a/SKILL.md", False),
    ],
)
def test_hidden_folders_are_skipped_but_the_agents_own(path, expected):
    assert hidden(path) is expected
