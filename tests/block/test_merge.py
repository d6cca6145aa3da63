"""The three-way merge of the block's names that the merge driver rebuilds the block from."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.block.merge import emptied, listing, merge_listings, rebuilt, render_listing
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
