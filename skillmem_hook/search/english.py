"""How common an English search word is in English at large: not rare only because a collection is not English.

The table (``data/en-freq.txt``, written by ``tools/english_frequency.py``
from SymSpell's Google Books counts) holds the 30,000 most frequent English
search words (stemmed as a query's are) with their Zipf value, log10 of
their count per billion of the dictionary's words (its 82,765 words' counts
summed: a little above the usual Zipf scale, which ``general_idf``'s length
absorbs). It is package data, read once per process on the first query word
looked up, as bytes: a word is a binary search over its sorted lines
(``sorted_lines.py``), nothing parsed. ``general_idf`` turns a Zipf value
into the idf the word would have in an English collection of the same size,
which caps the collection's own (``rank.py``).
"""

from __future__ import annotations

import functools
import math
import os

from skillmem_hook.files import read_sorted_table
from skillmem_hook.search.sorted_lines import value_of

# os.path, not pathlib: pathlib is no other part of a warm route prompt.
WORD_LIST = os.path.join(os.path.dirname(os.path.realpath(__file__)), "data", "en-freq.txt")
# The shipped table is about 360 KB; anything much larger is not it.
MAX_WORD_LIST_BYTES = 4 * 1024 * 1024


@functools.lru_cache(maxsize=1)
def _word_list() -> bytes:
    """The table's bytes (empty when missing or damaged: the ranking goes on with the collection's rarity alone)."""
    return read_sorted_table(WORD_LIST, MAX_WORD_LIST_BYTES)


def zipf(word: str) -> float | None:
    """The Zipf value of the English search word ``word``, or None when the table lacks it (or that line is damaged)."""
    if not (word.isascii() and word.isalpha()):
        return None
    try:
        found = value_of(_word_list(), word.encode("ascii"))
        return None if found is None else float(found)
    except ValueError:  # a damaged line: unsorted, without its tab, not a number
        return None


def general_idf(value: float, documents: int, length: float) -> float:
    """BM25's idf of a word of Zipf ``value`` in ``documents`` English texts of ``length`` words each.

    The share of texts expected to hold it is 1 - exp(-length * p), p its share of English words.
    """
    share = -math.expm1(-length * 10 ** (value - 9))
    held = documents * share
    return math.log(1 + (documents - held + 0.5) / (held + 0.5))
