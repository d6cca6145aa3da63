from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import skillmem_hook.block.drift as drift_module
from skillmem_hook.block.drift import Drift
from skillmem_hook.block.render import read_block, read_collapsed, render_block
from skillmem_hook.catalog.skills import Skill, SkillProblem, check_name, deduplicate, parse_skill

from ..helpers import skill_md


def skill(name, description=""):
    return parse_skill(skill_md(name, description), path=name, folder=name, root="r")


def test_no_block_means_every_skill_is_missing():
    drift = Drift(b"# Prompt\n", [skill("b"), skill("a")])
    assert (drift.missing, drift.stale, drift.has_block, drift.current) == (["a", "b"], [], False, False)
    assert drift.is_drift(strict=False)


def test_missing_stale_and_moved():
    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\nkept\ngone\npdf\n<<<SKILL_INDEX_END>>>\n"
    drift = Drift(old, [skill("kept"), skill("new"), skill("pdf", "parse pdf files")])
    assert drift.missing == ["new"]
    assert drift.stale == ["gone"]
    assert drift.moved == ["pdf"]


def test_a_moved_skill_is_drift_only_when_strict():
    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\npdf\n<<<SKILL_INDEX_END>>>\n"
    drift = Drift(old, [skill("pdf", "parse pdf files")])
    assert not drift.is_drift(strict=False)
    assert drift.is_drift(strict=True)


def test_hand_reordered_lines_are_drift_only_when_strict():
    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\nb\na\n<<<SKILL_INDEX_END>>>\n"
    drift = Drift(old, [skill("a"), skill("b")])
    assert (drift.missing, drift.stale, drift.moved) == ([], [], [])
    assert drift.is_drift(strict=True)
    assert not drift.is_drift(strict=False)


def test_a_current_block_is_not_drift():
    drift = Drift(b"x\n", [skill("a")])
    assert not Drift(drift.updated, [skill("a")]).is_drift(strict=True)


def test_a_merge_conflict_inside_the_block_is_reported_as_such_not_as_stale_names():
    old = (
        b"# Agents\n<<<SKILL_INDEX_BEGIN>>>\n[general]\na\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> topic\n"
        b"<<<SKILL_INDEX_END>>>\n"
    )
    drift = Drift(old, [skill("a"), skill("b"), skill("c")])
    assert drift.conflict is True
    assert (drift.missing, drift.stale) == ([], [])
    assert drift.is_drift(strict=False)
    assert drift.as_json()["conflict"] is True
    assert b"<<<<<<<" not in drift.updated
    rebuilt = Drift(drift.updated, [skill("a"), skill("b"), skill("c")])
    assert (rebuilt.conflict, rebuilt.current) == (False, True)


def test_the_preamble_is_written_on_the_first_injection_only():
    first = Drift(b"- a bullet\n", [skill("a")], preamble="Read SKILL.md.")
    assert first.updated.startswith(b"- a bullet\n\nRead SKILL.md.\n\n<<<SKILL_INDEX_BEGIN>>>\n")
    again = Drift(first.updated, [skill("a"), skill("b")], preamble="Another line.")
    assert again.updated.startswith(b"- a bullet\n\nRead SKILL.md.\n\n<<<SKILL_INDEX_BEGIN>>>\n")
    assert (
        Drift(b"x\n", [skill("a")], preamble=None).updated
        == b"x\n\n<<<SKILL_INDEX_BEGIN>>>\n[general]\na\n<<<SKILL_INDEX_END>>>\n"
    )


def test_a_current_block_is_not_read_back(monkeypatch):
    """The usual verify: the block is current, so its lines are not read back (at 100,000 skills, 140 ms)."""
    skills = [skill("a"), skill("b"), skill("pdf", "parse pdf files")]
    written = Drift(b"# Agents\n", skills).updated
    monkeypatch.setattr(drift_module, "read_block", lambda block: pytest.fail("a current block was read back"))
    again = Drift(written, skills)
    assert again.current
    assert (again.missing, again.stale, again.folded, again.moved) == ([], [], [], [])
    assert (again.conflict, again.collapsed_changed, again.has_block) == (False, False, True)


def _named(name):
    made = Skill(name=name, description="", path=name, root="r", warnings=[])
    check_name(made.label)
    return made


@given(
    st.lists(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=10), max_size=10),
    st.sampled_from([b"\n", b"\r\n"]),
    st.sampled_from([None, 12, 40]),
)
def test_a_rendered_block_reads_back_as_exactly_its_skills(names, newline, cap):
    """What lets a current block go unread: read back, it lists each skill under its domain and no conflict."""
    skills = []
    for name in names:
        try:
            skills.append(_named(name))
        except SkillProblem:
            continue
    skills = deduplicate(skills)[0]
    block = render_block(skills, newline, cap)
    listed, conflict = read_block(block)
    collapsed = read_collapsed(block)
    assert not conflict
    assert listed == {made.label: made.domain for made in skills if made.domain not in collapsed}
    again = Drift(Drift(b"# A" + newline, skills, max_tokens=cap).updated, skills, max_tokens=cap)
    assert again.current
    assert (again.missing, again.stale, again.folded, again.moved, again.conflict) == ([], [], [], [], False)
