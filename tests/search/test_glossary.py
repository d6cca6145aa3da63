from __future__ import annotations

from skillmem_hook.search.glossary import ENTRIES, expand


def test_a_chinese_term_brings_its_english_words():
    assert any("database" in words for words in expand("数据库太慢了"))


def test_an_english_word_in_any_form_brings_its_chinese_terms():
    assert any("缓存" in words for words in expand("caching API responses"))


def test_nothing_found_is_nothing_added():
    assert expand("zzz qqq") == []


def test_no_chinese_term_is_a_single_character():
    # A lone character would match inside unrelated words (库 in 数据库 and 仓库).
    assert all(len(term) >= 2 for chinese, _ in ENTRIES for term in chinese)


def test_every_entry_has_both_languages():
    assert len(ENTRIES) > 300
    assert all(chinese and english.strip() for chinese, english in ENTRIES)
