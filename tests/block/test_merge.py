"""The three-way merge of the block's names that the merge driver rebuilds the block from."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.block.drift import Drift
from skillmem_hook.block.markers import current_block
from skillmem_hook.block.merge import collapsed, emptied, listing, merge_blocks, merge_listings, rebuilt, render_listing
from skillmem_hook.block.render import render_block
from skillmem_hook.catalog.skills import parse_skill

from ..helpers import skill_md


def test_two_additions_are_both_kept_and_a_removal_on_either_side_wins():
    base = {"kept": "general", "dropped-by-us": "general", "dropped-by-them": "devops"}
    ours = {"kept": "general", "dropped-by-them": "devops", "ours-new": "frontend"}
    theirs = {"kept": "general", "dropped-by-us": "general", "theirs-new": "security"}
    assert merge_listings(base, ours, theirs) == {"kept": "general", "ours-new": "frontend", "theirs-new": "security"}


def test_a_domain_changed_on_one_side_takes_that_side():
    base = {"a": "general"}
    assert merge_listings(base, {"a": "general"}, {"a": "devops"}) == {"a": "devops"}
    assert merge_listings(base, {"a": "frontend"}, {"a": "general"}) == {"a": "frontend"}


def test_the_rendered_listing_is_the_block_render_block_writes():
    skills = [
        parse_skill(skill_md(name, text), path=name, folder=name, root="r")
        for name, text in [
            ("csv-tool", "Parse CSV files"),
            ("deploy", "Deploy with Docker"),
            ("b-plain", "x"),
            ("a-plain", "y"),
        ]
    ]
    block = render_block(skills, b"\r\n")
    assert render_listing(listing(block), b"\r\n") == block


names = st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from(["general", "devops", "security"]), max_size=8)


@given(names, names, names)
def test_the_merge_is_symmetric_in_its_names_and_keeps_what_both_sides_agree_on(base, ours, theirs):
    merged = merge_listings(base, ours, theirs)
    assert set(merged) == set(merge_listings(base, theirs, ours))
    assert set(ours) & set(theirs) <= set(merged)
    assert not (set(base) - set(ours)) & set(merged)


def test_the_text_merge_sees_empty_blocks_and_the_result_gets_the_merged_one():
    data = b"# Agents\r\n\r\n<<<SKILL_INDEX_BEGIN>>>\r\n[general]\r\na\r\n<<<SKILL_INDEX_END>>>\r\ntail\r\n"
    empty = emptied(data)
    assert empty == b"# Agents\r\n\r\n<<<SKILL_INDEX_BEGIN>>>\r\n<<<SKILL_INDEX_END>>>\r\ntail\r\n"
    assert rebuilt(empty, {"a": "general", "b": "devops"}, b"\r\n") == (
        b"# Agents\r\n\r\n<<<SKILL_INDEX_BEGIN>>>\r\n[devops]\r\nb\r\n[general]\r\na\r\n"
        b"<<<SKILL_INDEX_END>>>\r\ntail\r\n"
    )
    assert emptied(b"no block\n") == b"no block\n"
    assert rebuilt(b"no block\n", {"a": "general"}, b"\n") == b"no block\n"


@pytest.mark.parametrize("conflicted", [b"<<<<<<< ours\n", b"=======\n", b">>>>>>> theirs\n"])
def test_conflict_lines_in_a_block_are_no_names(conflicted):
    data = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\na\n" + conflicted + b"<<<SKILL_INDEX_END>>>\n"
    assert listing(data) == {"a": "general"}


def capped_skills(prefix: str, count: int, description: str) -> list:
    return [
        parse_skill(skill_md(f"{prefix}-{number:03}", description), path=f"{prefix}{number}", folder="x", root="r")
        for number in range(count)
    ]


TESTS = capped_skills("pytest-helper-number", 30, "Write pytest unit tests and fixtures")
PDF, CSV, DOCKER = (
    parse_skill(skill_md(name, text), path=name, folder=name, root="r")
    for name, text in [
        ("pdf", "Extract text from PDF files"),
        ("csv-to-table", "Parse a CSV file into a table"),
        ("docker-deploy", "Deploy docker containers to kubernetes"),
    ]
)
CAP = 60  # the testing domain collapses; the rest is listed


def merged_block(base: list, ours: list, theirs: list, cap: int = CAP) -> bytes:
    versions = [Drift(b"# Agents\n", skills, max_tokens=cap).updated for skills in (base, ours, theirs)]
    listed, counts = merge_blocks(*versions)
    return rebuilt(emptied(versions[0]), listed, b"\n", counts)


def test_a_collapsed_domain_survives_a_merge_of_two_additions_elsewhere():
    merged = merged_block([*TESTS, PDF], [*TESTS, PDF, CSV], [*TESTS, PDF, DOCKER])
    assert b"[testing]\n[30 skills: list them with skillmem search --domain testing]\n" in merged
    assert Drift(merged, [*TESTS, PDF, CSV, DOCKER], max_tokens=CAP).current


MORE = capped_skills("pytest-more", 1, "Write pytest unit tests")
OTHER = capped_skills("pytest-other", 2, "Write pytest unit tests")


@pytest.mark.parametrize(
    ("ours", "theirs", "result"),
    [
        ([*TESTS[:29], PDF], [*TESTS, PDF, DOCKER], [*TESTS[:29], PDF, DOCKER]),  # ours removed a collapsed skill
        ([*TESTS, *MORE, PDF], [*TESTS, PDF, CSV], [*TESTS, *MORE, PDF, CSV]),
        ([*TESTS, *MORE, PDF], [*TESTS, *OTHER, PDF], [*TESTS, *MORE, *OTHER, PDF]),  # both added to it
    ],
)
def test_a_collapsed_domain_s_count_merges_each_side_s_additions_and_removals(ours, theirs, result):
    merged = merged_block([*TESTS, PDF], ours, theirs)
    count = len(result) - 1 - (DOCKER in result) - (CSV in result)
    assert f"[{count} skills: list them with skillmem search --domain testing]".encode() in merged
    assert Drift(merged, result, max_tokens=CAP).current


def test_a_collapsed_domain_one_side_emptied_leaves_no_line_of_zero_skills():
    """One level past 'the count merges': at a count of 0 the domain is gone, header and count line both."""
    merged = merged_block([*TESTS, PDF], [PDF], [*TESTS, PDF, CSV])
    assert b"[testing]" not in merged and b"[0 skills" not in merged
    assert Drift(merged, [PDF, CSV], max_tokens=CAP).current


def test_a_domain_one_side_collapsed_stays_collapsed_with_the_other_side_s_names_counted():
    base = [*TESTS[:3], PDF]  # listed in full under the cap
    ours = [*TESTS, PDF]  # 27 more: ours collapses testing
    theirs = [*TESTS[:3], *MORE, PDF]
    merged = merged_block(base, ours, theirs)
    assert b"[31 skills: list them with skillmem search --domain testing]" in merged
    assert b"pytest-more" not in merged
    assert Drift(merged, [*TESTS, *MORE, PDF], max_tokens=CAP).current


def test_a_domain_only_the_base_collapsed_stays_counted_so_no_removed_skill_comes_back():
    pdfs = capped_skills("pdf-extract-kind", 4, "Extract text from PDF files")
    base_block = Drift(b"", pdfs, max_tokens=20).updated
    assert b"[4 skills:" in base_block  # the base collapses the four; each side, with three, lists them
    merged = merged_block(pdfs, [pdfs[0], pdfs[1], pdfs[3]], [pdfs[0], pdfs[1], pdfs[2]], cap=20)
    assert b"[2 skills: list them with skillmem search --domain data-parsing]" in merged
    assert not listing(merged)  # named one by one, pdf-extract-kind-002 and -003 would both come back


POOL = [
    *capped_skills("pytest-helper-number", 20, "Write pytest unit tests"),
    *capped_skills("docker-deploy-target", 10, "Deploy docker containers to kubernetes"),
    *capped_skills("pdf-extract-kind", 10, "Extract text from PDF files"),
]
# Each skill's fate in one merge of two branches: never there, kept, removed by one side, added by one side.
FATES = ["absent", "kept", "ours-removes", "theirs-removes", "ours-adds", "theirs-adds"]


@given(st.lists(st.sampled_from(FATES), min_size=len(POOL), max_size=len(POOL)), st.integers(20, 200))
def test_no_merge_hides_a_skill_and_one_that_collapses_the_same_domains_is_the_hook_s_block(fates, cap):
    def having(*kept):
        return [skill for skill, fate in zip(POOL, fates) if fate in kept]

    base = having("kept", "ours-removes", "theirs-removes")
    ours = having("kept", "theirs-removes", "ours-adds")
    theirs = having("kept", "ours-removes", "theirs-adds")
    result = having("kept", "ours-adds", "theirs-adds")
    block = merged_block(base, ours, theirs, cap=cap)
    listed, counts = listing(block), collapsed(block)
    assert len(listed) + sum(counts.values()) == len(result)
    assert all(skill.label in listed or skill.domain in counts for skill in result)
    expected = render_block(result, max_tokens=cap)
    if set(collapsed(expected)) == set(counts):  # the hook collapses what the sides did: the same bytes
        assert current_block(block) == expected
