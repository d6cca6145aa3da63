"""The Chinese-English dictionary: its word list, how a query is cut into its words, and what that reaches."""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search import dictionary
from skillmem_hook.search.dictionary import WORD_LIST, dictionary_words, meaning, translations
from skillmem_hook.search.query import query_words
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.sorted_lines import first_line_from, line_start, value_of
from skillmem_hook.search.tuning import Tuning

from .shipped_tables import table_lines

_LINE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]{2,4}\t[^\t\n]+")


def test_the_word_list_is_sorted_well_formed_lines_or_a_lookup_would_miss_words():
    lines = table_lines(WORD_LIST, _LINE)
    assert len(lines) > 90_000


def test_a_word_is_found_with_its_first_meaning_and_anything_else_is_not():
    assert meaning("天气预报") == "weather forecast"
    assert meaning("负载均衡") == "load balancing"
    assert meaning("预报天气的") is None
    assert meaning("天") is None  # one character: it would fire inside unrelated words
    assert meaning("") is None


@given(st.lists(st.text(alphabet="abcdefg天气预报", min_size=1, max_size=4), unique=True, max_size=30))
def test_a_binary_search_over_sorted_lines_finds_every_key_and_no_other(keys):
    text = ("".join(f"\n{key}\t{position}" for position, key in enumerate(sorted(keys))) + "\n").encode()
    for position, key in enumerate(sorted(keys)):
        assert value_of(text, key.encode()) == str(position).encode()
    assert line_start(text, b"zzz-not-a-key") == -1
    assert value_of(b"\n", b"a") is None
    # Read in place between other bytes (a stored index's fields lie so in its file), it answers the same.
    around = b"\nzzz\tbefore" + text + b"yyy\tafter\n"
    start, end = len(b"\nzzz\tbefore"), len(b"\nzzz\tbefore") + len(text)
    for position, key in enumerate(sorted(keys)):
        assert value_of(around, key.encode(), start, end) == str(position).encode()
    assert value_of(around, b"zzz", start, end) is None
    assert value_of(around, b"yyy", start, end) is None


_KEY = st.text(alphabet="abc天气", min_size=1, max_size=3)


@given(st.lists(_KEY, unique=True, max_size=20), st.text("abc天气", max_size=3))
def test_the_first_line_from_a_key_is_the_first_not_below_it_so_the_keys_it_starts_follow(keys, probe):
    keys = sorted(keys)
    text = ("".join(f"\n{key}\t{position}" for position, key in enumerate(keys)) + "\n").encode()
    starts = [position for position, byte in enumerate(text) if byte == ord("\n")]  # each line's, then the last
    first = next((n for n, key in enumerate(keys) if key.encode() >= probe.encode()), len(keys))
    assert first_line_from(text, probe.encode()) == starts[first]
    around = b"\nzzz\tbefore" + text + b"yyy\tafter\n"  # in place between other bytes, as a stored index's field
    offset = len(b"\nzzz\tbefore")
    assert first_line_from(around, probe.encode(), offset, offset + len(text)) == offset + starts[first]


def test_a_query_is_cut_into_its_longest_words_in_chinese_runs_only():
    # 负载均衡 is one word, not 负载 + 均衡; ASCII and one-character runs are left alone.
    assert dictionary_words("帮我把负载均衡的配置改一下, load balancer 天") == ["负载均衡", "配置"]
    assert translations("配置好配置") == [("配置", meaning("配置"))]


def test_a_chinese_query_reaches_an_english_skill_that_no_glossary_entry_bridges():
    skills = [
        Skill(name="forecast", description="Fetch the weather forecast for a city", path="f", root="s", warnings=[]),
        Skill(name="notes", description="Keep meeting notes in Markdown", path="n", root="s", warnings=[]),
    ]
    index = SearchIndex.build(skills)
    assert [hit.skill.name for hit in index.query("明天的天气预报怎么查", 2)][:1] == ["forecast"]
    plain = SearchIndex.build(skills, tuning=Tuning(dictionary_weight=0.0, glossary_weight=0.0))
    assert plain.query("明天的天气预报怎么查", 2) == []


def test_dictionary_words_weigh_less_than_typed_ones_and_stand_for_the_chinese_typed():
    words = query_words(Tuning(glossary_weight=0.0), "天气预报 forecast")
    assert words["forecast"].typed and words["forecast"].weight == 1.0  # typed: the dictionary does not lower it
    assert words["weather"].weight == Tuning().dictionary_weight < 1.0
    assert words["weather"].stands_for == {"天气", "气预", "预报"}


def test_without_its_data_file_the_search_goes_on_without_the_dictionary(monkeypatch, tmp_path):
    monkeypatch.setattr(dictionary, "WORD_LIST", str(tmp_path / "gone.txt"))
    dictionary._word_list.cache_clear()
    try:
        assert meaning("天气预报") is None
        assert dictionary_words("天气预报") == []
    finally:
        dictionary._word_list.cache_clear()


@pytest.mark.parametrize("text", ["", "plain English only", "!!!", "天"])
def test_text_without_a_chinese_word_brings_nothing(text):
    assert translations(text) == []


def test_a_word_the_glossary_knows_keeps_the_glossary_s_sense():
    # 表格 is "form; table" in the dictionary and "spreadsheet, table, excel" in the glossary.
    assert meaning("表格") == "form; table"
    words = query_words(Tuning(), "表格")
    assert "form" not in words and "spreadsheet" in words
    assert "form" in query_words(Tuning(glossary_weight=0.0), "表格")


def test_the_word_list_is_written_from_cc_cedict_lines_as_documented():
    spec = importlib.util.spec_from_file_location("zh_en", Path(__file__).parents[2] / "tools" / "zh_en_dictionary.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    lines = [
        "# CC-CEDICT",
        "結果 结果 [jie1 guo3] /to bear fruit/",
        "結果 结果 [jie2 guo3] /outcome/result/conclusion/",
        "文件 文件 [wen2 jian4] /document/file/CL:份[fen4]/",
        "天 天 [tian1] /day/sky/",
        "ABC ABC [A B C] /alphabet/",
        "鬍子 胡子 [hu2 zi5] /variant of 鬍鬚/beard (of a man)/",
        "王姓 王姓 [wang2 xing4] /surname Wang/",
    ]
    assert tool.entries(lines) == {
        "结果": "bear fruit; outcome",  # the first two meanings over both entries
        "文件": "document; file",  # the measure word is left out
        "胡子": "beard",  # a variant is left out, the parentheses are cut
    }


def test_a_dictionary_word_ranks_but_is_no_evidence_that_the_typed_word_was_meant_so():
    skills = [
        Skill(name="captions", description="Add a caption track to a film", path="c", root="s", warnings=[]),
        Skill(name="notes", description="Keep meeting notes in Markdown", path="n", root="s", warnings=[]),
    ]
    index = SearchIndex.build(skills)
    hits = index.query("字幕", 2)
    assert [hit.skill.name for hit in hits] == ["captions"]  # 字幕: "caption" in the dictionary, not the glossary
    assert index.evidence("字幕", hits[0]) == 0


@pytest.mark.parametrize(
    "damage",
    [
        lambda path, good: os.mkfifo(path),  # never blocks the search
        lambda path, good: path.write_bytes(good[: len(good) // 2]),  # cut mid-line: not its shape
        lambda path, good: path.write_bytes(good.replace("天气预报".encode(), b"\xff\xfe\xfd\xfc", 1)),
        lambda path, good: path.write_bytes(good.replace(b"\t", b" ")),  # lines without their tab
        lambda path, good: path.mkdir(),
    ],
)
def test_a_damaged_word_list_leaves_the_search_working_without_it(monkeypatch, tmp_path, damage):
    path = tmp_path / "zh-en.txt"
    damage(path, Path(WORD_LIST).read_bytes())
    monkeypatch.setattr(dictionary, "WORD_LIST", path)
    dictionary._word_list.cache_clear()
    try:
        for word in ("天气预报", "负载均衡", "数据"):
            assert meaning(word) in (None, dictionary.meaning(word))  # a found word is still a word's meaning
        index = SearchIndex.build([Skill(name="f", description="weather forecast", path="f", root="s", warnings=[])])
        index.query("明天的天气预报怎么查", 3)  # no exception, whatever the list holds
    finally:
        dictionary._word_list.cache_clear()
