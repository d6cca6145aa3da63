from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.tokenize import (
    _ASCII_WORDS,
    _CJK_RUNS,
    _WORDS,
    CHINESE_STOP_PHRASES,
    _english_words,
    cjk_characters,
    cut_chinese_stop_phrases,
    has_cjk,
    pattern_of,
    searchable,
    stem,
    tokens,
)
from skillmem_hook.visible import DEFAULT_IGNORABLE


def test_chinese_runs_become_overlapping_bigrams():
    assert tokens("数据库迁移") == ["数据", "据库", "库迁", "迁移"]


def test_a_one_character_run_is_its_own_token():
    assert tokens("X 库 Y") == ["x", "y", "库"]


def test_chinese_asking_words_are_cut_out_and_never_join_their_neighbours():
    words = tokens("怎么优化数据库的查询")
    assert "怎么" not in words
    assert "库的" not in words and "的查" not in words
    assert words == ["优化", "化数", "数据", "据库", "查询"]


def test_unigrams_sit_beside_bigrams_with_a_mark():
    assert tokens("缓存", unigrams=True) == ["缓存", "#缓", "#存"]


@pytest.mark.parametrize(
    ("forms", "root"),
    [
        (["cache", "caches", "cached", "caching"], "cach"),
        (["test", "tests", "testing", "tested"], "test"),
        (["query", "queries"], "query"),
        (["install", "installs", "installing"], "instal"),
        (["validate", "validation", "validating"], "validat"),
    ],
)
def test_stemming_brings_the_forms_of_a_word_together(forms, root):
    assert {stem(form) for form in forms} == {root}


def test_short_words_and_numbers_are_not_stemmed():
    assert [stem(word) for word in ("css", "aws", "2024", "ies")] == ["css", "aws", "2024", "ies"]


def test_english_stop_words_go_and_camel_case_gives_its_parts():
    assert tokens("How do I use GraphQL with the BaseController") == [
        "graphql",
        "graph",
        "ql",
        "basecontroller",
        "bas",
        "controller",
    ]


def test_full_width_letters_and_case_are_folded():
    assert tokens("ＤＯＣＫＥＲ Docker docker") == ["docker", "docker", "docker"]


def test_without_stop_words_every_word_stays():
    assert tokens("how to 怎么", stop_words=False) == ["how", "to", "怎么"]


_TEXT = st.lists(
    st.sampled_from([*"abcXYZ-s,.\n ", *"数据库的怎么缓存（）。吗", "ＡＢ", "Café", "ies", "ing", "e\u0301"]),
    max_size=30,
).map("".join)


@given(_TEXT, _TEXT)
def test_the_index_text_finds_exactly_the_words_tokens_gives(document, query):
    text, count = searchable(document)
    words = tokens(document)
    assert count == len(words)
    for word in words:
        assert pattern_of(word) in text
    for word in tokens(query):
        if word not in words:
            assert pattern_of(word) not in text


# The words as tokens gave them before the build was made faster (commit 99e1b4e), kept here whole.
_REFERENCE_STOP = re.compile(
    "|".join(sorted((phrase for phrase in CHINESE_STOP_PHRASES if len(phrase) > 1), key=len, reverse=True))
    + "|["
    + "".join(phrase for phrase in CHINESE_STOP_PHRASES if len(phrase) == 1)
    + "\u3000-\u3002\uff01-\uff0f\uff1a-\uff1f]"
)


def reference_tokens(text, *, unigrams=False, stop_words=True, stemming=True):
    if not text.isascii():
        if stop_words:
            text = _REFERENCE_STOP.sub(" ", text)
        text = unicodedata.normalize("NFKC", text)
    words = [word for run in _WORDS.findall(text) for word in _english_words(run, stop_words, stemming)]
    for run in _CJK_RUNS.findall(text):
        if len(run) == 1:
            words.append(run)
            continue
        words.extend(map(str.__add__, run, run[1:]))
        if unigrams:
            words.extend("#" + character for character in run)
    return words


_PIECES = st.sampled_from(
    [
        *CHINESE_STOP_PHRASES,
        *"数据库缓存部署。，！？　（）",
        "ＡＢ",
        "getHTTPResponse",
        "deploys",
        " ",
        "\n",
        "かな",
        "한국",
    ]
)
_LONG_RUN = st.integers(60, 70).map(lambda size: "数据库缓存部署集群"[:9] * (size // 9) + "库" * (size % 9))
_MIXED = st.lists(st.one_of(_PIECES, _LONG_RUN), max_size=40).map("".join)


@given(_MIXED, st.booleans(), st.booleans(), st.booleans())
def test_tokens_give_the_very_words_of_the_reference(text, unigrams, stop_words, stemming):
    options = {"unigrams": unigrams, "stop_words": stop_words, "stemming": stemming}
    assert tokens(text, **options) == reference_tokens(text, **options)


@given(_MIXED)
def test_the_stop_phrases_are_cut_as_the_reference_cuts_them(text):
    assert cut_chinese_stop_phrases(text) == _REFERENCE_STOP.sub(" ", text)


@given(st.text(st.characters(max_codepoint=127)))
def test_an_ascii_text_is_read_by_the_ascii_pattern_as_by_the_whole_one(text):
    # An ASCII text never compiles CJK's classes (a route prompt's 3 ms): what they find in it, it finds.
    assert _ASCII_WORDS.findall(text) == _WORDS.findall(text)
    assert _CJK_RUNS.findall(text) == []
    assert tokens(text) == reference_tokens(text)
    assert searchable(text) == searchable(text + "。")  # the same words whether the text is ASCII or not


@given(_MIXED)
def test_cjk_characters_counts_each_character_has_cjk_finds(text):
    # One class for what is CJK: the words' cut, has_cjk and the count rank.described_in_english weighs.
    assert cjk_characters(text) == sum(has_cjk(character) for character in text)


def test_cjk_characters_counts_characters_not_runs():
    assert cjk_characters("abc 数据库 x 한국 かな") == 7
    assert cjk_characters("\U00020000\uf900") == 2  # extension B and a compatibility ideograph
    assert cjk_characters("\u3105\u4dc0 abc") == 0  # bopomofo and a hexagram: no word of search's is cut from them


def _ranges(spec: str) -> list[str]:
    """Every character of a regex class's ranges (``visible.DEFAULT_IGNORABLE``'s form: ``a-b`` and singles)."""
    characters, at = [], 0
    while at < len(spec):
        if at + 2 < len(spec) and spec[at + 1] == "-":
            characters.extend(map(chr, range(ord(spec[at]), ord(spec[at + 2]) + 1)))
            at += 3
        else:
            characters.append(spec[at])
            at += 1
    return characters


_IGNORABLES = _ranges(DEFAULT_IGNORABLE)


def test_the_ignorables_are_unicodes_default_ignorable_code_points():
    assert len(_IGNORABLES) == 4174 and {"\ufe0f", "\U000e0100", "\u200b", "\xad", "\U000e0041"} <= set(_IGNORABLES)


@given(_MIXED, st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(_IGNORABLES)), min_size=1, max_size=8))
def test_default_ignorables_hidden_anywhere_in_a_description_leave_its_words_as_they_were(text, hidden):
    """fixh19: a variation selector between two ideographs split their bigram ("数据\ufe0f库" lost 据库), a zero-width
    space or a soft hyphen cut an English word: a description was not found by its own words."""
    marked = text
    for position, character in hidden:
        at = position % (len(marked) + 1)
        marked = marked[:at] + character + marked[at:]
    for options in ({}, {"unigrams": True}, {"stop_words": False, "stemming": False}):
        assert tokens(marked, **options) == tokens(text, **options)
    assert searchable(marked) == searchable(text)


@pytest.mark.parametrize("hidden", ["\ufe0f", "\ufe00", "\U000e0100", "\U000e01ef", "\u200b", "\u200d", "\xad"])
def test_a_description_hiding_a_selector_between_its_ideographs_is_found_by_its_words(hidden):
    assert tokens(hidden.join("数据库迁移")) == ["数据", "据库", "库迁", "迁移"]
    assert tokens(f"data{hidden}base migra{hidden}tions") == tokens("database migrations") == ["databas", "migrat"]
