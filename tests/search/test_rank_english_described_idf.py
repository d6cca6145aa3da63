"""Over a CJK-described collection, for an English query, a Latin word held by a skill described in English weighs,
for that skill, by the lower of its idf and its idf among the English-described skills alone
(``Tuning.english_described_idf``, the fifteenth and sixteenth passes).

An everyday English word ("review", "code") is rare in a Chinese-described collection only because the collection
is not English: the few English-described skills hold it one after another. Among them it is common, and weighs
little; a Chinese-described skill that holds it (in a name, a product, a code sample) keeps the collection's weight.
Search's reading only: the route's, a query that types Chinese and an English-described collection rank as before.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.english import general_idf, zipf
from skillmem_hook.search.rank import SearchIndex, described_in_english
from skillmem_hook.search.stored import index_from_bytes, index_to_bytes
from skillmem_hook.search.tuning import Tuning

from .sample_skills import make

_CHINESE = [make(f"cn-{n}", "图片 设计 海报 制作 风格 模板 颜色 排版 数据 分析") for n in range(40)]
_COLLECTION = [
    *_CHINESE,
    # Chinese-described, holding the two Latin words the request types: the key.
    make(
        "merge-checklist",
        "合并前的代码审查清单：检查 pull request 的 diff 和 code review 意见，给出修改建议，"
        "列出风险、测试缺口与回滚方案，整理成中文报告",
    ),
    # Described in English, each holding "review" or "code" among everyday words.
    make("review-writer", "Write a review of a book or a film"),
    make("code-helper", "Help with code in any language"),
    make("essay-review", "Review an essay and grade its writing"),
    make("clean-code", "Refactor code into clean code"),
    make("code-tips", "Tips to review code"),
]
_ENGLISH = [
    make("review-writer", "Write a review of a book or a film"),
    make("code-helper", "Help with code in any language"),
    make("pr-review", "Review a pull request diff before merging"),
]
_WORDS = st.sampled_from(["review", "code", "diff", "pull", "request", "book", "海报", "代码", "essay", "tips"])
_OFF = Tuning(english_described_idf=0)


def _scores(index: SearchIndex, tuning: Tuning, query: str, **reading: bool) -> dict[str, tuple[float, float]]:
    index.tuning = tuning
    return {hit.skill.name: (hit.score, hit.coverage) for hit in index.query(query, 100, **reading)}


def _names(index: SearchIndex, tuning: Tuning, query: str) -> list[str]:
    index.tuning = tuning
    return [hit.skill.name for hit in index.query(query, 3)]


def test_an_everyday_english_word_weighs_little_for_the_english_described_and_not_for_the_chinese_described():
    index = SearchIndex.build(_COLLECTION)
    assert index.described_in_cjk()
    assert {index.skills[index.numbers.index(n)].name for n in index.english} == {
        "review-writer",
        "code-helper",
        "essay-review",
        "clean-code",
        "code-tips",
    }
    query = "review my code"
    # Without the rule "review" and "code", rare in the collection, lift the English-described skills over the key.
    assert _names(index, _OFF, query)[:2] == ["code-tips", "merge-checklist"]
    assert _names(index, Tuning(), query)[:2] == ["merge-checklist", "code-tips"]
    before, after = _scores(index, _OFF, query), _scores(index, Tuning(), query)
    assert after["merge-checklist"] == before["merge-checklist"]  # a Chinese-described holder keeps the collection's
    for name in ("review-writer", "code-helper", "essay-review", "clean-code", "code-tips"):
        assert after[name][0] < before[name][0]
        assert after[name][1] == before[name][1]  # coverage is the query's rarity: unchanged


def test_the_weight_is_the_idf_among_the_english_described_skills_with_their_count():
    """One word, one holder in a field: the score is (idf among 5, of which 2 hold it) times the BM25 part."""
    index = SearchIndex.build(_COLLECTION)
    tuning = Tuning(english_coverage_power=0, coverage_power=0, foreign_coverage_power=0, english_length=0)
    before = _scores(index, tuning.replace(english_described_idf=0), "review")
    after = _scores(index, tuning, "review")
    english, holders = 5, 3  # review-writer, essay-review, code-tips; merge-checklist is Chinese-described
    among = math.log(1 + (english - holders + 0.5) / (holders + 0.5))
    collection = math.log(1 + (len(_COLLECTION) - 4 + 0.5) / (4 + 0.5))
    assert among < collection
    for name in ("review-writer", "essay-review", "code-tips"):
        assert after[name][0] == round(before[name][0] * among / collection, 4)
    assert after["merge-checklist"] == before["merge-checklist"]


_TIMED = [
    *(make(f"cn-{n}", "图片 设计 海报 制作") for n in range(60)),
    *(make(f"en-{n}", "Grade an essay") for n in range(38)),
    make("log-hours", "Log the time of each task in kubectl"),
    make("clock", "Track the time you spend"),
]


def test_among_the_english_described_an_everyday_word_weighs_as_in_english_texts_of_their_length():
    """The seventeenth pass: the idf among the 40 English-described is capped by English at large for 40 texts of
    ``english_described_length`` words; "time", in 2 of the 40, is in most English texts of 400 words."""
    index = SearchIndex.build(_TIMED)
    assert len(index.english) == 40
    assert Tuning().english_described_length == 0  # tried, off (docs/notes/search.md, seventeenth pass)
    tuning = Tuning(
        english_coverage_power=0,
        coverage_power=0,
        foreign_coverage_power=0,
        english_length=0,
        english_described_length=400,
    )
    before = _scores(index, tuning.replace(english_described_length=0), "time")
    after = _scores(index, tuning, "time")
    among = math.log(1 + (40 - 2 + 0.5) / (2 + 0.5))
    value = zipf("tim")  # the stem both sides meet in
    assert value is not None
    capped = general_idf(value, 40, 400)
    assert capped < among
    for name in ("log-hours", "clock"):
        assert after[name][0] == pytest.approx(before[name][0] * capped / among, abs=2e-4)
    # Texts of 200 words hold it less often: a milder cap, still below the idf among them.
    shorter = _scores(index, tuning.replace(english_described_length=200), "time")
    assert after["clock"][0] < shorter["clock"][0] < before["clock"][0]
    # A word English at large does not know keeps its idf among them.
    assert _scores(index, tuning, "kubectl") == _scores(index, tuning.replace(english_described_length=0), "kubectl")


def test_a_word_common_in_the_collection_keeps_its_lower_idf():
    """The lower of the two: a word most of the collection holds is not raised by its rarity among the English."""
    skills = [*(make(f"cn-{n}", "图片 设计 海报 book") for n in range(20)), make("en", "A book of films")]
    skills += [make(f"en-{n}", "Grade an essay") for n in range(6)]
    index = SearchIndex.build(skills)
    assert index.described_in_cjk()
    # 21 of 27 hold "book", 1 of the 7 English-described: its collection idf is the lower, and stays.
    assert _scores(index, Tuning(), "book") == _scores(index, _OFF, "book")
    # "films": 1 of 27, 1 of 7: its idf among the English-described is the lower.
    assert _scores(index, Tuning(), "films")["en"] < _scores(index, _OFF, "films")["en"]


@given(st.lists(_WORDS, min_size=1, max_size=5))
def test_only_search_s_reading_of_an_english_query_over_a_chinese_collection_changes(words):
    query = " ".join(words)
    index = SearchIndex.build(_COLLECTION)
    before, after = _scores(index, _OFF, query), _scores(index, Tuning(), query)
    english = {index.skills[index.numbers.index(n)].name for n in index.english}
    # Only an English-described skill's score moves, and only down.
    assert {name: value for name, value in after.items() if name not in english} == {
        name: value for name, value in before.items() if name not in english
    }
    assert all(after[name][0] <= before[name][0] for name in english & after.keys())
    assert _scores(index, Tuning(), query, english_at_large=False) == _scores(
        index, _OFF, query, english_at_large=False
    )
    if not query.isascii():  # a query that types Chinese
        assert after == before
    plain = SearchIndex.build(_ENGLISH)
    assert not plain.described_in_cjk()
    assert _scores(plain, Tuning(), query) == _scores(plain, _OFF, query)
    # A stored index ranks as the built one: it keeps the English-described skills.
    stored = index_from_bytes(index_to_bytes(index, "key"), "key")[0]
    assert _scores(stored, Tuning(), query) == after


def test_described_in_english_at_the_edge_of_twice_the_cjk_characters():
    assert described_in_english("abcde" + "数据")  # 5 letters > 2 * 2
    assert not described_in_english("abcd" + "数据")  # 4 letters, exactly twice: CJK
    assert not described_in_english("abc" + "数据")


def test_described_in_english_counts_cjk_by_the_class_search_cuts_words_by():
    # Beside tokenize's class rank kept ranges of its own (U+3040-9FFF, U+AC00-D7AF): one definition now.
    assert not described_in_english("abcd" + "\uf900\U00020000")  # two ideographs the words are cut from: CJK
    assert described_in_english("abc" + "\u3105\u4dc0")  # bopomofo and a hexagram are not CJK words' characters
