"""A patched index is the index a new build gives: the same bytes in every field, whatever changed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.fields import PostingsField
from skillmem_hook.search.patch import reindexed, replaced
from skillmem_hook.search.rank import SearchIndex

from .sample_skills import ALIASES, body_texts, collection

WORDS = st.lists(st.sampled_from(["a", "b", "ab", "数据", "据库", "é", "\udcff", "z", "0", "1,2"]), max_size=12)


@given(st.lists(WORDS, min_size=1, max_size=130), st.data())
def test_replacing_documents_gives_the_bytes_of_a_new_build(documents, data):
    """Up to 130 skills: numbers of one, two and three digits, some the prefix of others (1, 12, 120)."""
    numbers = data.draw(st.sets(st.integers(0, len(documents) - 1), max_size=12))
    fresh = {number: data.draw(WORDS) for number in numbers}
    patched = replaced(PostingsField.of(documents, 0.5), fresh)
    built = PostingsField.of([fresh.get(number, words) for number, words in enumerate(documents)], 0.5)
    assert patched.text == built.text
    assert patched.lengths == built.lengths
    assert (patched.average, patched.weight) == (built.average, built.weight)


def test_a_count_is_never_taken_for_a_skill_of_the_same_number():
    documents = [["x"] * 3, ["y"], ["z"], ["x"] * 2, ["x"]]  # the line of x: "0,3,3,2,4,1"
    patched = replaced(PostingsField.of(documents, 1.0), {2: ["x"]})
    assert patched.counts("x") == {0: 3, 2: 1, 3: 2, 4: 1}
    assert patched.counts("z") == {}
    patched = replaced(PostingsField.of(documents, 1.0), {3: []})
    assert patched.counts("x") == {0: 3, 4: 1}


def test_a_field_with_no_words_takes_new_ones_and_can_lose_them_again():
    empty = PostingsField.of([[], []], 1.0)
    filled = replaced(empty, {1: ["b", "a", "b"]})
    assert filled.text == PostingsField.of([[], ["a", "b", "b"]], 1.0).text
    assert replaced(filled, {1: []}).text == empty.text == b"\n"


@pytest.mark.parametrize("changed", [[0], [3, 17], [5, 6, 7, 59], list(range(60))])
def test_a_reindexed_collection_is_the_built_one(changed):
    skills, bodies = collection()
    index = SearchIndex.build(skills, ALIASES, bodies=body_texts(bodies))
    for number in changed:  # new words, some that no skill held, and some words gone
        skills[number] = edited(skills[number], f"quokka {skills[(number + 1) % 60].description}")
        bodies[number] = bodies[number][: len(bodies[number]) // 2] + " 新词 quokkas"
    new_bodies = body_texts(bodies)
    patched = reindexed(index, skills, {number: new_bodies[number] for number in changed}, ALIASES)
    built = SearchIndex.build(skills, ALIASES, bodies=new_bodies)
    assert [field.text for field in patched.fields] == [field.text for field in built.fields]
    assert [field.lengths for field in patched.fields] == [field.lengths for field in built.fields]
    assert patched.skills == skills
    for query in ("quokka 新词", "数据库慢查询怎么优化", "deploy kubernetes"):
        assert [(hit.skill.name, hit.score) for hit in patched.query(query)] == [
            (hit.skill.name, hit.score) for hit in built.query(query)
        ]


def test_another_number_of_skills_is_refused():
    skills, bodies = collection()
    index = SearchIndex.build(skills, bodies=body_texts(bodies))
    with pytest.raises(ValueError):
        reindexed(index, skills[1:], {})
    with pytest.raises(ValueError):
        reindexed(SearchIndex.build(skills), skills, {})  # no body field


def edited(skill: Skill, description: str) -> Skill:
    """The skill with another description and more in its sections."""
    return Skill(
        name=skill.name,
        description=description,
        path=skill.path,
        root=skill.root,
        warnings=[],
        metadata=skill.metadata,
        sections=skill.sections + " 新词",
    )
