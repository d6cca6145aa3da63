"""The dictionary read backwards: an English query's words in Chinese, over a collection described in Chinese.

The reverse table's shape and agreement with the forward one, how the tool
writes it, which Chinese words a typed word brings (``bridge.py``) and where
the ranking uses them: an English query over a CJK-described collection, in
search and not in the route.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search import dictionary
from skillmem_hook.search.bridge import add_chinese_words
from skillmem_hook.search.dictionary import REVERSE_LIST, chinese_words, meaning
from skillmem_hook.search.query import QueryWord, query_words
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.tokenize import is_bigram, tokens
from skillmem_hook.search.tuning import Tuning

from .sample_skills import make
from .shipped_tables import table_lines

_LINE = re.compile(r"[a-z0-9]+\t[\u3400-\u9fff\uf900-\ufaff]{2,4}(?: [\u3400-\u9fff\uf900-\ufaff]{2,4})*")
ON = Tuning()  # on by default (2)
OFF = Tuning(chinese_words=0)


def test_the_reverse_table_is_sorted_lines_each_a_forward_meaning_read_backwards():
    lines = table_lines(REVERSE_LIST, _LINE)
    assert len(lines) > 15_000
    for line in lines[::20]:  # every twentieth: each of its words means the key in the forward list
        key, words = line.split("\t")
        for word in words.split():
            assert all(map(is_bigram, tokens(word)))
            assert [key] in [tokens(sense) for sense in (meaning(word) or "").split("; ")]


def test_an_english_word_finds_the_chinese_words_that_mean_it_alone():
    assert "预测" in chinese_words("forecast")
    assert "讲述" in chinese_words("narrat")
    assert chinese_words("narrate") == []  # looked up as a query's search word: stemmed first
    assert chinese_words("not-a-word") == chinese_words("") == []


def _tool():
    spec = importlib.util.spec_from_file_location("zh_en", Path(__file__).parents[2] / "tools" / "zh_en_dictionary.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_reverse_table_is_written_from_the_kept_meanings_as_documented():
    tool = _tool()
    kept = tool.entries(
        [
            "預測 预测 [yu4 ce4] /to forecast/to predict/",
            "預報 预报 [yu4 bao4] /forecast/",
            "天氣預報 天气预报 [tian1 qi4 yu4 bao4] /weather forecast/",
            "要求 要求 [yao1 qiu2] /to request/to require/",
            "一個 一个 [yi1 ge4] /one/a/",
            "結果 结果 [jie2 guo3] /outcome/result (of an event)/",
        ]
    )
    assert tool.reverse(kept) == {
        "forecast": ["预报", "预测"],  # in code point order; "weather forecast" is two words, not "forecast"
        "predict": ["预测"],
        "outcom": ["结果"],  # stemmed as a query's words are
        "result": ["结果"],  # the parentheses cut before
    }  # 要求 and 一个 are left out: 要 is a stop character, 一个 a stop phrase, so neither is all bigrams


def _collection():
    """Chinese descriptions under English slugs: 讲述 (narrate) in three skills, 记叙 in one; no glossary entry."""
    fillers = ["数据库 迁移 脚本", "前端 页面 样式", "合同 审查 条款", "图片 生成 海报"]
    skills = [make(f"tool-{number}", f"{text} 工具 {number}") for number, text in enumerate(fillers * 30)]
    skills += [make(f"audio-story-{n}", f"儿童 故事 讲述 音频 {n}") for n in range(3)]
    skills.append(make("essay-writer", "记叙 文章 写作"))
    return skills


def test_an_english_request_reaches_a_chinese_skill_through_the_dictionary_read_backwards():
    index = SearchIndex.build(_collection(), tuning=OFF)
    assert index.described_in_cjk()
    assert index.query("narrate it aloud", 5) == []
    index.tuning = ON
    hits = index.query("narrate it aloud", 5)
    assert {hit.skill.name for hit in hits} == {"audio-story-0", "audio-story-1", "audio-story-2", "essay-writer"}
    assert index.evidence("narrate it aloud", hits[0]) == 0  # a guess: it ranks, but says nothing for match


def test_a_brought_word_is_sought_in_the_descriptions_alone():
    told = make("story-teller", "儿童 故事 音频", sections="讲述 技巧")  # 讲述 in its sections, not its description
    index = SearchIndex.build([*_collection(), told], bodies=[""] * 124 + ["讲述 讲述 讲述"], tuning=ON)
    names = {hit.skill.name for hit in index.query("narrate", 10)}
    assert "audio-story-0" in names and "story-teller" not in names
    assert "story-teller" in {hit.skill.name for hit in index.query("讲述", 10)}  # typed, every field counts


def test_a_typed_word_brings_the_chinese_words_the_collection_holds_most_as_many_as_asked():
    index = SearchIndex.build(_collection(), tuning=ON.replace(chinese_words=1))
    assert {hit.skill.name for hit in index.query("narrate", 5)} == {f"audio-story-{n}" for n in range(3)}  # 讲述: 3
    index.tuning = ON
    assert "essay-writer" in {hit.skill.name for hit in index.query("narrate", 5)}


def test_a_chinese_word_the_collection_lacks_takes_no_place_and_one_already_asked_is_not_brought_again():
    words = query_words(Tuning(), "narrate")
    held = {"讲述": 1}  # the collection holds only 讲述; 分诉, 声说, 记叙 (before it in the table) none
    add_chinese_words(words, 0.15, 2, lambda bigram: held.get(bigram, 0), 10)
    assert [word for word in words if not word.isascii()] == ["讲述"]  # two places, one word the collection holds
    words = query_words(Tuning(), "narrate")
    words["讲述"] = asked = QueryWord(0.3, frozenset(("tell",)))  # another typed word's glossary brought it
    add_chinese_words(words, 0.15, 1, lambda bigram: 5 if bigram == "讲述" else 1, 10)
    assert words["讲述"] is asked and [word for word in words if not word.isascii()] == ["讲述", "分诉"]


@pytest.mark.parametrize(("most", "brought"), [(4, ["讲述"]), (5, ["记叙"]), (6, ["记叙"])])
def test_a_chinese_word_more_than_most_skills_hold_is_not_brought(most, brought):
    words = query_words(Tuning(), "narrate")
    held = {"讲述": 3, "记叙": 5}
    add_chinese_words(words, 0.15, 1, lambda bigram: held.get(bigram, 0), most)
    assert [word for word in words if not word.isascii()] == brought


def test_a_typed_word_the_glossary_gave_chinese_brings_no_dictionary_word():
    words = query_words(Tuning(), "clean the data")  # the glossary: clean 清洗, data 数据
    before = dict(words)
    add_chinese_words(words, 0.15, 2, lambda bigram: 1, 10)
    assert words == before  # not 清洁 nor 干净 beside the glossary's 清洗
    assert chinese_words("clean") and chinese_words("data")


def test_a_brought_word_weighs_the_dictionary_s_share_of_its_typed_word_and_stands_for_it():
    intent = "Our shop sells bread. Please narrate the story."  # "shop", "sells", "bread" are context: half weight
    words = query_words(Tuning(), intent)
    glossary = set(words)
    add_chinese_words(words, 0.15, 2, lambda bigram: 1, 10)
    brought = {word: query_word for word, query_word in words.items() if word not in glossary}
    assert {typed for query_word in brought.values() for typed in query_word.stands_for} >= {"narrat", "bread"}
    for query_word in brought.values():
        (typed,) = query_word.stands_for
        assert query_word.guessed and not query_word.typed
        assert query_word.weight == pytest.approx(0.15 * words[typed].weight)
    assert words["bread"].weight == pytest.approx(0.5 * words["narrat"].weight)


_WORDS = st.sampled_from(["narrate", "journal", "clean", "essay", "讲述", "日志", "部署", "story"])


@given(st.lists(_WORDS, min_size=1, max_size=5))
def test_a_query_that_types_chinese_or_an_english_collection_ranks_as_without_the_bridge(words):
    query = " ".join(words)
    if not query.isascii():
        _same_ranking(SearchIndex.build(_collection()), query)
    plain = [make(f"s-{n}", text) for n, text in enumerate(["narrate stories", "keep a journal", "clean data"])]
    index = SearchIndex.build(plain)
    assert not index.described_in_cjk()
    _same_ranking(index, query)


def _same_ranking(index: SearchIndex, query: str, **reading: bool) -> None:
    index.tuning = OFF
    before = [(hit.skill.name, hit.score, hit.coverage) for hit in index.query(query, 10, **reading)]
    index.tuning = ON
    assert [(hit.skill.name, hit.score, hit.coverage) for hit in index.query(query, 10, **reading)] == before


@given(st.lists(_WORDS, min_size=1, max_size=5))
def test_the_route_s_reading_ranks_as_without_the_bridge(words):
    _same_ranking(SearchIndex.build(_collection()), " ".join(words), english_at_large=False)


@pytest.mark.parametrize(
    "damage",
    [
        lambda path, good: os.mkfifo(path),  # never blocks the search
        lambda path, good: path.write_bytes(good[: len(good) // 2]),  # cut mid-line: not its shape
        lambda path, good: path.write_bytes(good.replace(b"\t", b" ")),  # lines without their tab
        lambda path, good: path.mkdir(),
    ],
)
def test_a_missing_or_damaged_reverse_table_leaves_the_search_working_without_it(monkeypatch, tmp_path, damage):
    path = tmp_path / "en-zh.txt"
    damage(path, Path(REVERSE_LIST).read_bytes())
    monkeypatch.setattr(dictionary, "REVERSE_LIST", str(path))
    dictionary._reverse_list.cache_clear()
    try:
        assert set(chinese_words("narrat")) <= {"分诉", "声说", "记叙", "讲述", "诉述", "述说"}
        SearchIndex.build(_collection(), tuning=ON).query("narrate it aloud", 3)  # no exception, whatever it holds
    finally:
        dictionary._reverse_list.cache_clear()
