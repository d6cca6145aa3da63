"""The index's fields: each finds a word exactly as often as ``tokens`` gives it, whatever the text."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.fields import PostingsField, ScannedField
from skillmem_hook.search.tokenize import searchable, tokens

WORDS = st.sampled_from(["deploy", "deploys", "cache", "数据库", "备份", "数据", "k8s", "API", "the", "é", "库"])
TEXTS = st.lists(st.lists(WORDS, max_size=8).map(" ".join), min_size=1, max_size=5)


@given(TEXTS)
def test_postings_count_each_word_as_tokens_gives_it(texts):
    field = PostingsField.of((tokens(text) for text in texts), 1.0)
    for number, text in enumerate(texts):
        for word, count in Counter(tokens(text)).items():
            assert field.counts(word)[number] == count
    assert list(field.lengths) == [len(tokens(text)) for text in texts]


@given(TEXTS)
def test_scanned_and_postings_fields_agree(texts):
    scanned = ScannedField.of([searchable(text) for text in texts], 1.0)
    postings = PostingsField.of((tokens(text) for text in texts), 1.0)
    for word in {word for text in texts for word in tokens(text)} | {"absent", "数"}:
        assert scanned.counts(word) == postings.counts(word)
        assert scanned.holders(word) == postings.holders(word) == len(postings.counts(word))


def test_a_word_that_is_a_prefix_of_another_is_not_confused_with_it():
    field = PostingsField.of([["cache"], ["cach"], ["cache", "cache"]], 1.0)
    assert field.counts("cach") == {1: 1}
    assert field.counts("cache") == {0: 1, 2: 2}
    assert field.counts("ca") == {}


def reference_postings(documents: list[list[str]]) -> bytes:
    """The postings text as the build before it was made faster (commit 99e1b4e) wrote it."""
    postings: dict[str, list[str]] = {}
    for number, words in enumerate(documents):
        for word, count in Counter(words).items():
            postings.setdefault(word, []).append(f"{number},{count}")
    text = "".join([f"\n{word}\t{','.join(postings[word])}" for word in sorted(postings)]) + "\n"
    return text.encode("utf-8", "surrogatepass")


@given(st.lists(st.lists(st.sampled_from(["a", "b", "数据", "据库", "é", "\udcff", "zz"]), max_size=30), max_size=8))
def test_postings_are_the_bytes_of_the_reference(documents):
    field = PostingsField.of(documents, 1.0)
    assert field.text == reference_postings(documents)
    assert list(field.lengths) == [len(words) for words in documents]
