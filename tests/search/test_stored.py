"""A stored search index loads as the index it was, and nothing else loads."""

from __future__ import annotations

import json
import zlib
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.stored import FORMAT, index_from_bytes, index_to_bytes, row_bytes

from .sample_skills import SKILLS, make

BODIES = ["cache the prompt prefix", "", "helm charts and pods", "", "每天凌晨备份", "refresh tokens rotate"]
QUERIES = ("kubernetes pods", "数据库 备份", "token refresh", "prompt cache", "quokka")


def hits(index: SearchIndex, query: str) -> list[tuple[str, str, float, float]]:
    return [(hit.skill.label, hit.skill.domain, hit.score, hit.coverage) for hit in index.query(query, 6)]


def test_a_stored_index_answers_exactly_as_the_built_one():
    built = SearchIndex.build(SKILLS, {"k8s-*": ["舵手"]}, bodies=BODIES)
    loaded, extra = index_from_bytes(index_to_bytes(built, "key", b'{"kept":[1]}'), "key")
    assert extra == b'{"kept":[1]}'
    for query in (*QUERIES, "舵手"):
        assert hits(loaded, query) == hits(built, query)
    skill = loaded.query("kubernetes", 1)[0].skill
    expected = ("k8s-deploy", "r", "k8s-deploy", SKILLS[2].description)
    assert (skill.name, skill.root, skill.path, skill.description) == expected


def test_a_stored_index_reads_its_fields_where_they_lie_in_its_bytes():
    data = index_to_bytes(SearchIndex.build(SKILLS, bodies=BODIES), "key")
    loaded, _ = index_from_bytes(data, "key")
    assert all(field.source is data for field in loaded.fields)  # no copy of 10 MB at 2,000 skills
    built = SearchIndex.build(SKILLS, bodies=BODIES)
    assert [field.text for field in loaded.fields] == [field.text for field in built.fields]


def test_another_key_is_refused():
    data = index_to_bytes(SearchIndex.build(SKILLS), "roots a")
    with pytest.raises(ValueError):
        index_from_bytes(data, "roots b")


@given(st.data())
def test_any_damage_is_refused_never_served(data):
    stored = index_to_bytes(SearchIndex.build(SKILLS, bodies=BODIES), "key")
    position = data.draw(st.integers(0, len(stored) - 1))
    flipped = bytes([stored[position] ^ data.draw(st.integers(1, 255))])
    for damaged in (stored[:position] + flipped + stored[position + 1 :], stored[:position]):
        with pytest.raises(ValueError):
            index_from_bytes(damaged, "key")


@pytest.mark.parametrize("data", [b"", b"\n", f"{FORMAT}\n{{}}".encode(), b"\xff" * 100])
def test_bytes_that_are_no_index_are_refused(data):
    with pytest.raises(ValueError):
        index_from_bytes(data, "key")


def test_an_index_of_the_first_format_is_refused_not_read_with_the_numbers_of_a_build():
    """Format 1 kept no numbers; read as a build's 0, 1, 2... it would rank a patched index's skills under others'."""
    stored = index_to_bytes(SearchIndex.build(SKILLS, bodies=BODIES), "key")
    assert index_from_bytes(rewritten(stored, lambda document: None), "key")  # the rewriting itself keeps an index
    with pytest.raises(ValueError):
        index_from_bytes(rewritten(stored, lambda document: document.pop("numbers"), "skillmem-search-index-1"), "key")


@pytest.mark.parametrize(
    "numbers",
    [[0, 1, 2, 3, 4, 6], [0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5, 5], [-1, 1, 2, 3, 4, 5]],
)
def test_numbers_past_the_fields_twice_the_same_too_few_or_too_many_are_refused(numbers):
    stored = index_to_bytes(SearchIndex.build(SKILLS, bodies=BODIES), "key")
    with pytest.raises(ValueError):
        index_from_bytes(rewritten(stored, lambda document: document.update(numbers=numbers)), "key")


@pytest.mark.parametrize(
    ("knob", "value", "taken"),
    [
        ("k1", 0, True),  # the edge: BM25 with k1 0 counts a word held or not; defined, if no build writes it
        ("k1", -1e-9, False),
        ("k1", -1, False),
        *((knob, value, True) for knob in ("name_b", "description_b", "sections_b", "body_b") for value in (0, 1)),
        *((knob, value, False) for knob in ("name_b", "body_b") for value in (-1e-9, 1 + 1e-9)),
    ],
)
def test_bm25s_k1_below_0_or_a_b_outside_0_to_1_is_refused_at_its_edges(knob, value, taken):
    """A forged ``k1`` or ``b`` out of BM25's range is a bad index; at the range's ends the index loads."""
    stored = index_to_bytes(SearchIndex.build(SKILLS, bodies=BODIES), "key")
    forged = rewritten(stored, lambda document: document["tuning"].__setitem__(knob, value))
    if taken:
        loaded, _ = index_from_bytes(forged, "key")
        assert getattr(loaded.tuning, knob) == value and loaded.query("kubernetes pods", 3)
    else:
        with pytest.raises(ValueError, match="out of its range"):
            index_from_bytes(forged, "key")


def rewritten(stored: bytes, change: Callable[[dict[str, Any]], object], version: str = FORMAT) -> bytes:
    """``stored`` with its JSON document changed and the header written for it, its checksum right."""
    header, _, payload = stored.partition(b"\n")
    meta, _, blocks = payload.partition(b"\n")
    document = json.loads(meta)
    change(document)
    payload = json.dumps(document, separators=(",", ":")).encode() + b"\n" + blocks
    _, key, _ = header.split(b" ")
    return b"%s %s %d-%08x\n" % (version.encode(), key, len(payload), zlib.crc32(payload)) + payload


# Skills that tie: the same words in descriptions of different lengths, under names that sort differently.
TIED = [make(f"{prefix}-tool", description) for prefix in "dcba" for description in ("slow query", "slow query index")]


@given(st.integers(0, len(TIED) + 1), st.sampled_from(["slow", "query index", "slow query", "nothing"]))
def test_the_best_few_are_the_first_few_of_the_whole_ranking_ties_broken_by_name(top, query):
    # A query makes only the skills that can reach its top (at least its top-th score) to break ties by name;
    # with every skill asked for, it ranks them all. The first few must be the same either way.
    loaded, _ = index_from_bytes(index_to_bytes(SearchIndex.build(TIED), "key"), "key")
    everything = [(hit.skill.label, hit.score) for hit in loaded.query(query, len(TIED))]
    assert [(hit.skill.label, hit.score) for hit in loaded.query(query, top)] == everything[:top]


def test_a_query_makes_only_the_skills_that_can_reach_its_top():
    loaded, _ = index_from_bytes(index_to_bytes(SearchIndex.build(TIED), "key"), "key")
    made = []
    rows = loaded._skills
    real = type(rows).__getitem__
    type(rows).__getitem__ = lambda self, number: made.append(number) or real(self, number)
    try:
        hits = loaded.query("slow query index", 1)
    finally:
        type(rows).__getitem__ = real
    # The four skills whose description holds all three words tie; the other four score less and are never made.
    assert hits[0].skill.name == "a-tool"
    assert sorted(set(made)) == [number for number, skill in enumerate(TIED) if "index" in skill.description]


@pytest.mark.parametrize(
    "change", [lambda d: d.pop("english"), lambda d: d.update(english=[6]), lambda d: d.update(english=["x"])]
)
def test_english_described_skills_missing_or_not_of_a_skill_are_refused(change):
    stored = index_to_bytes(SearchIndex.build(SKILLS, bodies=BODIES), "key")
    assert index_from_bytes(stored, "key")[0].english == SearchIndex.build(SKILLS, bodies=BODIES).english
    with pytest.raises(ValueError):
        index_from_bytes(rewritten(stored, change), "key")


def test_rows_made_by_the_caller_are_stored_as_made_and_must_be_one_a_skill():
    index = SearchIndex.build(SKILLS, bodies=BODIES)
    rows = [row_bytes(skill) for skill in SKILLS]
    assert index_to_bytes(index, "key", b"x", rows) == index_to_bytes(index, "key", b"x")
    for wrong in (rows[1:], [*rows, rows[0]]):
        with pytest.raises(ValueError):
            index_to_bytes(index, "key", b"x", wrong)
