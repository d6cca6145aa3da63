"""A stored search index loads as the index it was, and nothing else loads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.stored import index_from_bytes, index_to_bytes

from .sample_skills import SKILLS

BODIES = ["cache the prompt prefix", "", "helm charts and pods", "", "每天凌晨备份", "refresh tokens rotate"]
QUERIES = ("kubernetes pods", "数据库 备份", "token refresh", "prompt cache", "quokka")


def hits(index: SearchIndex, query: str) -> list[tuple[str, str, float, float]]:
    return [(hit.skill.label, hit.skill.domain, hit.score, hit.coverage) for hit in index.query(query, 6)]


def test_a_stored_index_answers_exactly_as_the_built_one():
    built = SearchIndex.build(SKILLS, {"k8s-*": ["舵手"]}, bodies=BODIES)
    loaded, extra = index_from_bytes(index_to_bytes(built, "key", {"kept": [1]}), "key")
    assert extra == {"kept": [1]}
    for query in (*QUERIES, "舵手"):
        assert hits(loaded, query) == hits(built, query)
    skill = loaded.query("kubernetes", 1)[0].skill
    expected = ("k8s-deploy", "r", "k8s-deploy", SKILLS[2].description)
    assert (skill.name, skill.root, skill.path, skill.description) == expected


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


@pytest.mark.parametrize("data", [b"", b"\n", b"skillmem-search-index-1\n{}", b"\xff" * 100])
def test_bytes_that_are_no_index_are_refused(data):
    with pytest.raises(ValueError):
        index_from_bytes(data, "key")
