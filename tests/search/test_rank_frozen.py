"""The ranking of a fixed collection is frozen: a faster build must give the very same hits.

The collection (``sample_skills.collection``) is generated from a seeded random source (English and Chinese
words, camelCase, full-width forms, stop phrases, code fences, links and
markup in the bodies), and the expected hits (name, score, coverage, best
first) were computed by the build before it was made faster (commit
99e1b4e). A change to tokenising, to the postings or to the body's cleaning
that moved any score moves one of these. After a deliberate change of the
ranking, ``python3 -m tests.search.test_rank_frozen`` prints the new table.
"""

from __future__ import annotations

import zlib

import pytest

from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.stored import index_from_bytes, index_to_bytes

from .sample_skills import ALIASES, body_texts, collection

QUERIES_AND_HITS = {
    "数据库慢查询怎么优化": [
        ("skill-25-queries", 0.9707, 1.0),
        ("skill-37-review", 0.6934, 1.0),
        ("skill-09-using", 0.6759, 1.0),
        ("skill-07-docker", 0.6734, 1.0),
        ("skill-35-test", 0.6733, 1.0),
    ],
    "deploy kubernetes cluster": [
        ("skill-02-kubernetes", 0.6334, 1.0),
        ("skill-51-bus", 0.5891, 1.0),
        ("skill-48-ｄｅｐｌｏｙ", 0.5659, 1.0),
        ("skill-34-stories", 0.5237, 1.0),
        ("skill-32-cluster", 0.4578, 1.0),
    ],
    "安全 漏洞 token": [
        ("skill-01-running", 0.7627, 1.0),
        ("skill-36-apis", 0.6638, 1.0),
        ("skill-12-react", 0.6018, 1.0),
        ("skill-11-token", 0.561, 1.0),
        ("skill-14-security", 0.5232, 0.831),
    ],
    "我想做代码审查和重构": [
        ("skill-42-docker", 0.6977, 0.546),
        ("skill-57-auth", 0.548, 0.546),
        ("skill-23-container", 0.5279, 0.546),
        ("skill-08-docker", 0.4548, 0.546),
        ("skill-53-review", 0.4474, 0.546),
    ],
    "caching queries": [
        ("skill-22-caching", 0.4903, 1.0),
        ("skill-46-caching", 0.4644, 1.0),
        ("skill-09-using", 0.4591, 1.0),
        ("skill-01-running", 0.4201, 1.0),
        ("skill-11-token", 0.4177, 1.0),
    ],
    "React useEffect": [
        ("skill-28-tokens", 1.6281, 1.0),
        ("skill-05-react", 1.194, 1.0),
        ("skill-42-docker", 0.8436, 1.0),
        ("skill-36-apis", 0.8097, 1.0),
        ("skill-12-react", 0.8012, 1.0),
    ],
    "ＡＰＩ deployment": [
        ("skill-25-queries", 0.4599, 1.0),
        ("skill-19-ｄｅｐｌｏｙ", 0.4254, 1.0),
        ("skill-09-using", 0.3888, 1.0),
        ("skill-22-caching", 0.3659, 1.0),
        ("skill-47-happiness", 0.3643, 1.0),
    ],
    "备份 恢复 数据库": [
        ("skill-57-auth", 0.7483, 1.0),
        ("skill-55-to", 0.6925, 1.0),
        ("skill-52-apis", 0.6664, 1.0),
        ("skill-08-docker", 0.6222, 1.0),
        ("skill-29-useeffect", 0.6173, 1.0),
    ],
    "running tests": [
        ("skill-32-cluster", 0.9332, 1.0),
        ("skill-01-running", 0.874, 1.0),
        ("skill-44-test", 0.8106, 1.0),
        ("skill-50-running", 0.7809, 1.0),
        ("skill-04-running", 0.7577, 1.0),
    ],
    "happiness": [
        ("skill-47-happiness", 0.5396, 1.0),
        ("skill-21-happiness", 0.5261, 1.0),
        ("skill-12-react", 0.488, 1.0),
        ("skill-00-indexes", 0.4252, 1.0),
        ("skill-17-gethttpresponse", 0.363, 1.0),
    ],
    "库": [
        ("skill-36-apis", 0.3595, 1.0),
        ("skill-15-migration", 0.3355, 1.0),
        ("skill-08-docker", 0.3328, 1.0),
        ("skill-03-security", 0.3286, 1.0),
        ("skill-02-kubernetes", 0.2898, 1.0),
    ],
    "查 索引 index": [
        ("skill-21-happiness", 0.4058, 1.0),
        ("skill-22-caching", 0.3635, 1.0),
        ("skill-42-docker", 0.35, 1.0),
        ("skill-34-stories", 0.3183, 0.848),
        ("skill-01-running", 0.2599, 1.0),
    ],
    "怎么 如何": [],
    "quokka": [],
    "login auth 登录": [
        ("skill-57-auth", 0.2309, 0.109),
        ("skill-42-docker", 0.1648, 0.109),
        ("skill-43-deploys", 0.1556, 0.109),
        ("skill-24-deploys", 0.1307, 0.076),
        ("skill-16-stories", 0.1285, 0.109),
    ],
}
# CRC-32 of each field's postings as the build before gave them: every word, skill and count.
FIELDS = (0x0835D4FB, 0xCCBA3168, 0xB6092424, 0xF9DF6AB6)


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    skills, bodies = collection()
    return SearchIndex.build(skills, ALIASES, bodies=body_texts(bodies))


@pytest.mark.parametrize("query", list(QUERIES_AND_HITS))
def test_every_query_ranks_as_before(index, query):
    hits = [(hit.skill.name, hit.score, hit.coverage) for hit in index.query(query, 5)]
    assert hits == QUERIES_AND_HITS[query]


def test_every_field_holds_the_same_postings_as_before(index):
    assert tuple(zlib.crc32(field.text) for field in index.fields) == FIELDS


def test_a_build_with_a_memo_and_a_stored_index_give_the_same_postings(index):
    skills, bodies = collection()
    memo: dict[str, list[str]] = {}
    for _ in range(2):  # the second build takes every text's words from the memo
        again = SearchIndex.build(skills, ALIASES, memo=memo, bodies=body_texts(bodies))
        assert [field.text for field in again.fields] == [field.text for field in index.fields]
    loaded, _ = index_from_bytes(index_to_bytes(index, "key"), "key")
    assert tuple(zlib.crc32(field.text) for field in loaded.fields) == FIELDS


if __name__ == "__main__":  # after a deliberate change of ranking: python3 -m tests.search.test_rank_frozen
    skills, bodies = collection()
    built = SearchIndex.build(skills, ALIASES, bodies=body_texts(bodies))
    for query in QUERIES_AND_HITS:
        print(f"{query!r}: {[(hit.skill.name, hit.score, hit.coverage) for hit in built.query(query, 5)]!r},")
    print(tuple(f"0x{zlib.crc32(field.text):08X}" for field in built.fields))
