"""A patched index is the index a new build gives: the same bytes in every field, whatever changed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search import patch
from skillmem_hook.search.fields import PostingsField
from skillmem_hook.search.patch import reindexed, renumbered, replaced, updated
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.stored import index_to_bytes

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


def test_a_count_is_never_taken_for_a_skill_of_the_same_number(line_finder):
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


@pytest.fixture(params=["found as text", "stepped over by the pattern"])
def line_finder(request, monkeypatch):
    """Both ways to find a changed skill's lines: its number searched as text, and the pattern over every pair."""
    if request.param == "stepped over by the pattern":
        monkeypatch.setattr(patch, "CANDIDATE_LINES", 0)


@pytest.mark.parametrize("changed", [[0], [3, 17], [5, 6, 7, 59], list(range(60))])
def test_a_reindexed_collection_is_the_built_one(changed, line_finder):
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


SKILLS, BODIES = collection()
CHANGES = st.lists(st.tuples(st.sampled_from(["add", "edit", "remove"]), st.integers(0, 59)), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 59), max_size=25), st.lists(CHANGES, min_size=1, max_size=4))
def test_any_adds_edits_and_removals_give_the_bytes_of_a_new_build(first, rounds):
    """Each round of changes patched into the last round's index: the stored bytes of a build from scratch."""
    present, edits = sorted(first), dict.fromkeys(range(60), 0)
    index = SearchIndex.build(*version(present, edits), bodies=version_bodies(present, edits))
    for changes in rounds:
        before, touched = present, set()
        for change, number in changes:
            if change == "add" or (change == "edit" and number in present):
                touched.add(number)
                edits[number] += change == "edit"
            present = sorted({*present, number} - ({number} if change == "remove" else set()))
        places = [present.index(number) if number in present else None for number in before]
        arrived = (set(present) - set(before)) | (touched & set(present))
        new_bodies = dict(zip(present, version_bodies(present, edits)))
        bodies = {present.index(number): new_bodies[number] for number in arrived}
        index = updated(index, version(present, edits)[0], places, bodies, ALIASES)
        built = SearchIndex.build(*version(present, edits), bodies=version_bodies(present, edits))
        assert index_to_bytes(index, "key") == index_to_bytes(built, "key")
        assert [field.lengths for field in index.fields] == [field.lengths for field in built.fields]


def version(present: list[int], edits: dict[int, int]) -> tuple[list[Skill], dict[str, list[str]]]:
    """The skills numbered ``present``, each after its number of edits (a word of its own per edit)."""
    skills = [SKILLS[number] for number in present]
    return [
        edited(skill, f"{skill.description} quokka{edits[number]}") if edits[number] else skill
        for skill, number in zip(skills, present)
    ], ALIASES


def version_bodies(present: list[int], edits: dict[int, int]) -> list[str]:
    return body_texts(
        [BODIES[number] + f" 新词{edits[number]} words{edits[number]}" * edits[number] for number in present]
    )


def test_renumbering_moves_numbers_and_never_counts():
    documents = [["x"] * 3, ["y"], ["x", "z"], ["x"] * 2]  # the line of x: "0,3,2,1,3,2"
    field = replaced(PostingsField.of(documents, 1.0), {1: []})
    moved = renumbered(field, [0, None, 2, 3], 5)  # a skill gone at 1, one to come at 1
    assert moved.counts("x") == {0: 3, 2: 1, 3: 2}
    moved = renumbered(field, [0, None, 1, 2], 3)
    assert moved.text == PostingsField.of([documents[0], *documents[2:]], 1.0).text
    assert list(moved.lengths) == [3, 2, 2]


def test_places_out_of_order_or_a_new_skill_without_its_body_are_refused():
    skills, bodies = SKILLS[:3], body_texts(BODIES[:3])
    index = SearchIndex.build(skills, bodies=bodies)
    with pytest.raises(ValueError):
        updated(index, skills, [1, 0, 2], {})
    with pytest.raises(ValueError):
        updated(index, [SKILLS[5], *skills], [1, 2, 3], {})
    with pytest.raises(ValueError):
        updated(index, skills[:2], [0, 1, 2], {})


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
