"""An English query's words in Chinese, for a collection described in Chinese: the dictionary read backwards.

Pure but for the dictionary's table. The Chinese-described collection's names
are English slugs and its descriptions Chinese, so an English request reaches
a skill only through the few English words its description keeps, and the
glossary's everyday software words. A typed English word whose Chinese the
glossary did not bring brings the dictionary's Chinese words for it
(``dictionary.chinese_words``: "forecast" 预测, "journal" 日志), the
``per_word`` the collection holds most often, short of the commonest (its
sense in this collection: "clean" is 清洁 and 清洗 there, not 一扫而空), at ``weight`` times the typed
word's weight, standing for the typed word, sought in the descriptions alone
(the Chinese collection's names are English, and a body's long postings cost a
query more than they bring). Like the dictionary's other words they are
guessed: they rank, and are no evidence for ``match``.
"""

from __future__ import annotations

from skillmem_hook.search.dictionary import chinese_words
from skillmem_hook.search.query import QueryWord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def bigrams_of(chinese: str) -> list[str]:
    """A Chinese word's overlapping bigrams (itself when it has two characters).

    What ``tokens`` gives for a word of the reverse table, which keeps no other
    (``tools/zh_en_dictionary.py``), without the CJK patterns ``tokens`` compiles: an
    English query compiles none of them otherwise.
    """
    return [chinese[at : at + 2] for at in range(len(chinese) - 1)]


def add_chinese_words(
    words: dict[str, QueryWord], weight: float, per_word: int, frequency: Callable[[str], int], most: float
) -> None:
    """Add to an English query's ``words`` the Chinese words of each typed one: ``frequency`` counts a bigram's skills.

    A typed word the glossary gave Chinese words is left as it is. A Chinese word
    is skipped when a bigram of it is already a query word, and when the
    collection lacks one of its bigrams or more than ``most`` skills hold one (a
    word that common says little, and its long postings cost a query more than
    it brings); of the rest, the ``per_word`` whose rarest bigram the most skills
    hold, in the table's order on a tie.
    """
    added: dict[str, QueryWord] = {}
    # A word the glossary gave Chinese for keeps the glossary's sense, as a Chinese word the glossary knows
    # brings no dictionary word (query.py): "build" is 构建 there, not also 建造 and 修建.
    glossed = {typed for other, found in words.items() if not other.isascii() for typed in found.stands_for}
    counted: dict[str, int] = {}  # each bigram's skills, looked up once (a binary search is most of the cost)
    for word, query_word in words.items():
        if not query_word.typed or word in glossed:
            continue
        found = []
        for chinese in chinese_words(word):
            bigrams = bigrams_of(chinese)
            if not bigrams or any(bigram in words for bigram in bigrams):
                continue
            held = _rarest(bigrams, frequency, counted)
            if 0 < held <= most:
                found.append((held, bigrams))
        found.sort(key=lambda pair: -pair[0])  # stable: the table's order among equals
        share = weight * query_word.weight
        for _, bigrams in found[:per_word]:
            for bigram in bigrams:
                if bigram not in words and bigram not in added:
                    added[bigram] = QueryWord(share, frozenset((word,)), guessed=True, described=True)
    words.update(added)


def _rarest(bigrams: list[str], frequency: Callable[[str], int], counted: dict[str, int]) -> int:
    """How many skills hold the rarest of ``bigrams``; 0 at the first that none holds, without the rest."""
    least = -1
    for bigram in bigrams:
        held = counted.get(bigram)
        if held is None:
            held = counted[bigram] = frequency(bigram)
        if not held:
            return 0
        least = held if least < 0 else min(least, held)
    return least
