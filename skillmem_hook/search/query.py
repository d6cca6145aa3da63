"""A query as search words: each with its weight and the typed words it stands for; what coverage counts.

Pure. Typed words weigh 1; the glossary's words for them, and the dictionary's
for a Chinese word, weigh less and stand for the typed words that brought
them, so a skill that holds "security" covers the 安全 a Chinese query typed.
"""

from __future__ import annotations

from skillmem_hook.search.asks import asking_part
from skillmem_hook.search.dictionary import translations
from skillmem_hook.search.glossary import expansions
from skillmem_hook.search.tokenize import is_bigram, tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.search.tuning import Tuning


# A Chinese word found in the dictionary brings this many of its meaning's English words.
DICTIONARY_WORDS = 3


class QueryWord:
    """A search word of the query: its weight, and the typed words it stands for (itself, when typed)."""

    __slots__ = ("described", "guessed", "stands_for", "typed", "weight")

    def __init__(
        self,
        weight: float,
        stands_for: frozenset[str],
        *,
        typed: bool = False,
        guessed: bool = False,
        described: bool = False,
    ) -> None:
        self.weight = weight
        self.stands_for = stands_for
        self.typed = typed
        # A dictionary word: one sense of a Chinese word picked without context ("结果": bear fruit).
        # It ranks, but a skill that holds it is no evidence that the typed word was meant so.
        self.guessed = guessed
        # Sought in the descriptions alone (``bridge.py``): an English word's Chinese, which a body holds in
        # long postings that would cost a query more than their tenth of a weight brings.
        self.described = described


def query_words(tuning: Tuning, intent: str) -> dict[str, QueryWord]:
    """Each distinct query word once: typed words weigh 1, glossary words less and stand for what found them."""
    found: dict[str, QueryWord] = {}
    found_by = expansions(intent) if tuning.glossary_weight else []
    for trigger, text in found_by:
        for word in tuning.words(text):
            known = found.get(word)
            stands_for = trigger | known.stands_for if known else trigger
            found[word] = QueryWord(tuning.glossary_weight, stands_for)
    typed = tuning.words(intent)
    for word in typed:
        found[word] = QueryWord(1.0, frozenset((word,)), typed=True)
    if tuning.dictionary_weight and not intent.isascii():
        _add_dictionary_words(tuning, intent, found, {word for trigger, _ in found_by for word in trigger})
    if tuning.phrase_share:
        # The words of a known phrase ("pull request") say one thing: they share one word's weight.
        for trigger, _ in found_by:
            if len(trigger) > 1 and all(word in found and found[word].typed for word in trigger):
                for word in trigger:
                    found[word].weight = min(found[word].weight, 1 / len(trigger))
    # A glossary word stands only for typed words: "found by" words the tokeniser dropped do not count.
    typed_words = frozenset(typed)  # once: a set a word would make a long query's cost quadratic
    for query_word in found.values():
        query_word.stands_for &= typed_words
    _weigh_the_ask(tuning, intent, found)
    return found


def _weigh_the_ask(tuning: Tuning, intent: str, found: dict[str, QueryWord]) -> None:
    """A word typed only in the sentences that give context, not in those that ask, weighs ``context_weight``.

    "Our Postgres reports time out since we passed 40M rows. We're on RDS.
    Where do I start?": the company, the numbers and the tools around the ask
    say less about the skill wanted than the ask does. A query of one
    sentence, or where every sentence asks, is left as typed.
    """
    if tuning.context_weight == 1.0:
        return
    asking = asking_part(intent)
    if asking is None:
        return
    asked = set(tuning.words(asking))
    for query_word in found.values():
        if query_word.stands_for and query_word.stands_for.isdisjoint(asked):
            query_word.weight *= tuning.context_weight


def _add_dictionary_words(tuning: Tuning, intent: str, found: dict[str, QueryWord], glossed: set[str]) -> None:
    """The dictionary's English for each Chinese word of ``intent`` that the glossary did not bring.

    Its words stand for the typed bigrams of the Chinese word that brought them. A word
    the glossary knows keeps the glossary's sense (表格: table), not the dictionary's (form).
    """
    for chinese, english in translations(intent):
        stands_for = frozenset(tokens(chinese))
        if stands_for <= glossed:
            continue
        for word in tuning.words(english)[:DICTIONARY_WORDS]:
            if word not in found:
                found[word] = QueryWord(tuning.dictionary_weight, stands_for, guessed=True)


def parts(word: str) -> tuple[str, ...]:
    """What a typed word covers: itself, or for a Chinese bigram its two characters.

    Bigrams that straddle two words (群里 in 集群里部署) match nothing; counted by
    character, they do not halve the coverage of a query whose words all match.
    """
    return (word[0], word[1]) if is_bigram(word) else (word,)


def coverage_units(rarity: dict[str, float]) -> dict[str, float]:
    """Each part of the typed words, weighed by the rarest word it is part of."""
    units: dict[str, float] = {}
    for word, value in rarity.items():
        for unit in parts(word):
            units[unit] = max(units.get(unit, 0.0), value)
    return units
