"""A patched index ranks as a new build does, whatever changed: the same postings for each skill, the same answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search import patch
from skillmem_hook.search.fields import PostingsField
from skillmem_hook.search.patch import replaced, updated
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.stored import index_from_bytes, index_to_bytes

from .sample_skills import ALIASES, answers, body_texts, by_skill, collection, english_skills

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
    assert patched.weight == built.weight


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


def test_a_number_of_no_length_is_never_looked_for_in_the_lines(monkeypatch):
    """A free number (no words) and one past the last hold no line: only an edited skill's number is searched."""
    looked = []
    original = patch._lines_holding

    def lines_holding(text, numbers):
        looked.append(sorted(numbers))
        return original(text, numbers)

    monkeypatch.setattr(patch, "_lines_holding", lines_holding)
    patched = replaced(PostingsField.of([["x"], [], ["x", "y"]], 1.0), {1: ["x"], 2: ["y"], 3: ["x"]})
    assert looked == [[2]]
    assert patched.text == PostingsField.of([["x"], ["x"], ["y"], ["x"]], 1.0).text


@pytest.fixture(params=["found as text", "stepped over by the pattern"])
def line_finder(request, monkeypatch):
    """Both ways to find a changed skill's lines: its number searched as text, and the pattern over every pair."""
    if request.param == "stepped over by the pattern":
        monkeypatch.setattr(patch, "CANDIDATE_LINES", 0)


@pytest.mark.parametrize("changed", [[0], [3, 17], [5, 6, 7, 59], list(range(60))])
def test_an_edited_collection_is_the_built_one_byte_for_byte(changed, line_finder):
    """Edits alone keep every number where a build puts it: the very bytes of a build."""
    skills, bodies = collection()
    index = SearchIndex.build(skills, ALIASES, bodies=body_texts(bodies))
    for number in changed:  # new words, some that no skill held, and some words gone
        skills[number] = edited(skills[number], f"quokka {skills[(number + 1) % 60].description}")
        bodies[number] = bodies[number][: len(bodies[number]) // 2] + " 新词 quokkas"
    new_bodies = body_texts(bodies)
    patched = updated(index, skills, index.numbers, {number: new_bodies[number] for number in changed}, ALIASES)
    built = SearchIndex.build(skills, ALIASES, bodies=new_bodies)
    assert index_to_bytes(patched, "key") == index_to_bytes(built, "key")
    assert [field.lengths for field in patched.fields] == [field.lengths for field in built.fields]
    assert patched.skills == skills
    assert answers(patched) == answers(built)


SKILLS, BODIES = collection()
CHANGES = st.lists(
    st.tuples(st.sampled_from(["add", "edit", "remove", "move"]), st.integers(0, 59)), min_size=1, max_size=5
)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 59), max_size=25), st.lists(CHANGES, min_size=1, max_size=4))
def test_any_adds_edits_removals_and_moves_rank_as_a_new_build(first, rounds):
    """Each round of changes patched into the last round's index (stored and loaded): a build's postings and answers.

    A move takes a skill to another root, where it sorts first: one skill gone, one new.
    """
    present, edits, moved = sorted(first), dict.fromkeys(range(60), 0), set()
    index = SearchIndex.build(version(present, edits, moved)[0], ALIASES, bodies=version_bodies(present, edits))
    for changes in rounds:
        before = version(present, edits, moved)[0]
        for change, number in changes:
            edits[number] += change == "edit" and number in present
            moved ^= {number} if change == "move" and number in present else set()
            present = sorted({*present, number} - ({number} if change == "remove" else set()))
        skills = version(present, edits, moved)[0]
        new_bodies = version_bodies(present, edits, moved)
        known = {(skill.root, skill.path): (number, skill) for number, skill in zip(index.numbers, before)}
        numbers = [known.get((skill.root, skill.path), (None, None))[0] for skill in skills]
        stale = [known.get((skill.root, skill.path), (None, None))[1] for skill in skills]
        bodies = {place: new_bodies[place] for place, skill in enumerate(skills) if texts(stale[place]) != texts(skill)}
        index = updated(index, skills, numbers, bodies, ALIASES)
        index = index_from_bytes(index_to_bytes(index, "key"), "key")[0]
        built = SearchIndex.build(skills, ALIASES, bodies=new_bodies)
        assert [(skill.root, skill.path) for skill in index.skills] == [
            (skill.root, skill.path) for skill in built.skills
        ]
        assert by_skill(index) == by_skill(built)
        # The English-described skills as a build reads them: each changed or new one read again, none gone kept.
        assert english_skills(index) == english_skills(built)
        assert answers(index) == answers(built)


def version(present: list[int], edits: dict[int, int], moved: set[int]) -> tuple[list[Skill], dict[str, list[str]]]:
    """The skills numbered ``present``, each after its number of edits (a word of its own per edit), in scan order.

    A moved skill lies in root "m", scanned before root "r".
    """
    skills = []
    for number in present:
        skill = SKILLS[number]
        if edits[number]:
            skill = edited(skill, f"{skill.description} quokka{edits[number]}")
        if number in moved:
            skill = Skill(
                name=skill.name,
                description=skill.description,
                path=skill.path,
                root="m",
                warnings=[],
                metadata=skill.metadata,
                sections=skill.sections,
            )
        skills.append(skill)
    return sorted(skills, key=lambda skill: skill.root), ALIASES


def version_bodies(present: list[int], edits: dict[int, int], moved: set[int] = frozenset()) -> list[str]:
    """Each skill's body, in the order ``version`` gives the skills."""
    ordered = sorted(present, key=lambda number: number not in moved)
    return body_texts(
        [BODIES[number] + f" 新词{edits[number]} words{edits[number]}" * edits[number] for number in ordered]
    )


def texts(skill: Skill | None) -> tuple[str, str, str] | None:
    return None if skill is None else (skill.name, skill.description, skill.sections)


def test_a_new_skill_takes_the_lowest_free_number_and_one_gone_frees_its_own():
    documents = body_texts(BODIES[:4])
    index = SearchIndex.build(SKILLS[:4], bodies=documents)
    index = updated(index, [SKILLS[0], SKILLS[2], SKILLS[3]], [0, 2, 3], {})  # the skill numbered 1 went
    assert (index.numbers, index.slots) == ([0, 2, 3], 4)
    assert all(field.lengths[1] == 0 for field in index.fields)
    assert by_skill(index) == by_skill(
        SearchIndex.build([SKILLS[0], *SKILLS[2:4]], bodies=[documents[0], *documents[2:]])
    )
    fifth, sixth = body_texts(BODIES[4:6])
    index = updated(
        index, [SKILLS[5], SKILLS[0], SKILLS[2], SKILLS[3], SKILLS[4]], [None, 0, 2, 3, None], {0: sixth, 4: fifth}
    )
    assert (index.numbers, index.slots) == ([1, 0, 2, 3, 4], 5)  # 1 taken again, then one past the last


def test_equal_scores_of_one_name_rank_in_the_scans_order_not_by_number():
    """Two skills of one name and text, in two roots: a build ranks them in the roots' order, and so must a patch."""
    twins = [Skill(name="twin", description="deploy kubernetes", path="twin", root=root, warnings=[]) for root in "acb"]
    index = SearchIndex.build([twins[0], twins[2]], bodies=["", ""])
    patched = updated(index, [twins[0], twins[1], twins[2]], [0, None, 1], {1: ""})  # the new one takes number 2
    assert patched.numbers == [0, 2, 1]
    built = SearchIndex.build(twins, bodies=["", "", ""])
    assert [hit.skill.root for hit in patched.query("kubernetes")] == ["a", "c", "b"]
    assert answers(patched) == answers(built)


def test_numbers_not_of_the_index_or_a_new_skill_without_its_body_are_refused():
    skills, bodies = SKILLS[:3], body_texts(BODIES[:3])
    index = SearchIndex.build(skills, bodies=bodies)
    with pytest.raises(ValueError):
        updated(index, skills, [0, 0, 2], {})  # one number twice
    with pytest.raises(ValueError):
        updated(index, skills, [0, 1, 3], {})  # a number the index does not give
    with pytest.raises(ValueError):
        updated(index, [SKILLS[5], *skills], [None, 0, 1, 2], {})  # a new skill without its body
    with pytest.raises(ValueError):
        updated(SearchIndex.build(skills), skills, [0, 1, 2], {})  # no body field


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


def test_the_english_described_skills_follow_each_edit_addition_and_removal():
    """A description edited into the other script, a skill gone and one new: the patched index reads them as a build."""
    chinese, english = "数据库 慢查询 优化 索引", "Find slow queries and tune indexes"
    first = [
        Skill(name=f"s{n}", description=english if n % 2 else chinese, path=f"s{n}", root="r", warnings=[])
        for n in range(8)
    ]
    index = SearchIndex.build(first, bodies=["", "", "", "", "", "", "", ""])
    assert english_skills(index) == {("r", "s1"), ("r", "s3"), ("r", "s5"), ("r", "s7")}
    # s0 now English, s1 now Chinese, s3 (English) gone, s8 new and Chinese, s9 new and English; the rest unchanged.
    skills = [edited(first[0], english), edited(first[1], chinese), first[2], first[4], first[5], first[6], first[7]]
    skills += [
        Skill(name=f"s{n}", description=text, path=f"s{n}", root="r", warnings=[])
        for n, text in ((8, chinese), (9, english))
    ]
    numbers = [0, 1, 2, 4, 5, 6, 7, None, None]
    index = updated(index, skills, numbers, {0: "", 1: "", 7: "", 8: ""})
    assert index.numbers[-2:] == [3, 8]  # s8 took s3's number: s3's English flag must not be left to it
    built = SearchIndex.build(skills, bodies=[""] * len(skills))
    assert english_skills(index) == english_skills(built) == {("r", "s0"), ("r", "s5"), ("r", "s7"), ("r", "s9")}
    assert english_skills(index_from_bytes(index_to_bytes(index, "key"), "key")[0]) == english_skills(built)
