"""Chinese words to English ones from a general dictionary (CC-CEDICT), so a Chinese query reaches English text.

The word list (``data/zh-en.txt``, written by ``tools/zh_en_dictionary.py``) is
package data, read once per process on the first query that holds Chinese, as
bytes: a word is found by a binary search over its sorted lines
(``sorted_lines.py``), so nothing of its 100,000 lines is parsed. A query's
Chinese runs are cut into words by forward maximum matching (the longest
dictionary word, 4 to 2 characters, at each place); each word brings the
first English words of its first meaning. The glossary (``glossary.py``) is
frozen; this is the general source beside it (docs/search.md says what each gives).

The same meanings read the other way (``data/en-zh.txt``) give an English
query's words the Chinese words that mean them (``chinese_words``), so an
English request reaches a collection described in Chinese (``bridge.py``).
"""

from __future__ import annotations

import functools
import os

from skillmem_hook.files import read_sorted_table
from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.sorted_lines import value_of
from skillmem_hook.search.tokenize import cut_chinese_stop_phrases, normalize

# os.path, not pathlib: pathlib is no other part of a warm route prompt, and its import cost the prompt 2 ms.
WORD_LIST = os.path.join(os.path.dirname(os.path.realpath(__file__)), "data", "zh-en.txt")
REVERSE_LIST = os.path.join(os.path.dirname(WORD_LIST), "en-zh.txt")
LONGEST_WORD = 4
_CHINESE_RUNS = lazy_compile(r"[\u3400-\u9fff\uf900-\ufaff]{2,}")  # an ASCII query never compiles it


# The shipped list is 3.9 MB; anything much larger is not it.
MAX_WORD_LIST_BYTES = 16 * 1024 * 1024


@functools.lru_cache(maxsize=1)
def _word_list() -> bytes:
    """The word list's bytes (empty when missing or damaged: search goes on without the dictionary)."""
    return read_sorted_table(WORD_LIST, MAX_WORD_LIST_BYTES)


@functools.lru_cache(maxsize=1)
def _reverse_list() -> bytes:
    """The reverse list's bytes (0.6 MB shipped; empty when missing or damaged, as ``_word_list``)."""
    return read_sorted_table(REVERSE_LIST, MAX_WORD_LIST_BYTES)


def chinese_words(word: str) -> list[str]:
    """The Chinese words one of whose first two meanings is the English search word ``word`` alone ("forecast")."""
    try:
        found = value_of(_reverse_list(), word.encode("utf-8"))
        return [] if found is None else found.decode("utf-8").split()
    except (ValueError, UnicodeError):  # a damaged line, as in ``meaning``
        return []


def meaning(word: str) -> str | None:
    """The meanings of the Chinese ``word``, or None when the dictionary lacks it (or that line is damaged)."""
    try:
        found = value_of(_word_list(), word.encode("utf-8"))
        return None if found is None else found.decode("utf-8")
    except (ValueError, UnicodeError):  # a damaged line: unsorted, without its tab, not UTF-8
        return None


def dictionary_words(text: str) -> list[str]:
    """The dictionary's words in ``text``, in order: in each Chinese run, the longest word at each place."""
    found: list[str] = []
    if text.isascii():  # NFKC and case folding keep ASCII ASCII: no Chinese run
        return found
    for run in _CHINESE_RUNS.findall(cut_chinese_stop_phrases(normalize(text))):
        place = 0
        while place < len(run) - 1:
            for length in range(min(LONGEST_WORD, len(run) - place), 1, -1):
                if meaning(run[place : place + length]) is not None:
                    found.append(run[place : place + length])
                    place += length
                    break
            else:
                place += 1
    return found


def translations(intent: str) -> list[tuple[str, str]]:
    """Each dictionary word of ``intent`` once, in order, with its first meaning."""
    seen: dict[str, str] = {}
    for word in dictionary_words(intent):
        if word not in seen:
            seen[word] = meaning(word) or ""
    return list(seen.items())
