"""The ranker's knobs, and the word functions they select.

A plain class rather than a dataclass: importing dataclasses costs every
``skillmem search`` run more than the class saves.
"""

from __future__ import annotations

from skillmem_hook.search.tokenize import searchable, tokens

_DEFAULTS: dict[str, float | bool | int] = {
    "name_weight": 3.0,
    "description_weight": 1.0,
    "sections_weight": 0.4,
    "name_b": 0.3,
    "description_b": 0.75,
    "sections_b": 0.75,
    "body_weight": 0.1,
    "body_b": 0.75,
    "rarity": 1.0,
    "coverage_power": 0.5,
    "phrase_share": True,
    "k1": 1.2,
    "glossary_weight": 0.3,
    "dictionary_weight": 0.15,
    "context_weight": 0.5,
    "stop_words": True,
    "stemming": True,
    # English texts of this many words weigh an English query over a CJK-described collection (rank.py,
    # _english_over_cjk; 0 turns it off): chosen at 200 on the tuning sets, turned on after set L (docs/search.md).
    "english_length": 200.0,
    # An English query over a CJK-described collection brings this many of the dictionary's Chinese words for each
    # typed word (rank.py, bridge.py; 0 is off): 2, chosen on the tuning sets' odd ids and held on the even ones;
    # +4 % of a cold search's instructions, which stays near 4x the bare interpreter (docs/notes/search.md).
    "chinese_words": 2,
    # An English query over a CJK-described collection weighs coverage by this power instead of coverage_power
    # (rank.py; 0 keeps coverage_power): there a skill described in English holds a long request's everyday words
    # one by one, where the right Chinese-described skill holds more of its typed words. 1.5, chosen on the tuning
    # sets' odd ids and held on the even ones (docs/notes/search.md, thirteenth pass).
    "english_coverage_power": 1.5,
    # Over a CJK-described collection, for an English query, a hit whose description is mostly in another script
    # is weighed by its coverage to this power once more (rank.py; 0 is off): a short English description holds a
    # few of a long request's everyday words one by one. 0.25, chosen on the tuning sets' odd ids (0.25 and 0.75
    # alike there, 0.25 losing none) and held on the even ones (docs/notes/search.md, fourteenth pass).
    "foreign_coverage_power": 0.25,
    # There, too, a Latin word held by a skill described in English weighs, for that skill, by the lower of its
    # idf and its idf among the English-described skills alone (rank.py; 1 is on, 0 off): everyday in their texts,
    # it is rare in the collection only because the collection is not English. A Chinese-described holder keeps the
    # collection's. Found on the tuning sets' odd ids, held on the even ones (docs/notes/search.md, 15th and 16th).
    "english_described_idf": 1,
    # And that idf among the English-described capped by English at large as their own count of English texts of
    # this many words would give it (rank.py; 0 is off; needs english_described_idf): their texts are longer than
    # english_length's 200 words, so an everyday word is commoner among them. Off: at 400 (chosen on the odd ids
    # over 200 to 3,000) it gains one English request lexically on each half and loses one fused on the odd
    # (docs/notes/search.md, seventeenth pass).
    "english_described_length": 0.0,
}


class Tuning:
    """The defaults are the ones docs/search.md measured best; ``replace`` gives a variant."""

    __slots__ = tuple(_DEFAULTS)

    name_weight: float
    description_weight: float
    sections_weight: float
    name_b: float
    description_b: float
    sections_b: float
    body_weight: float
    body_b: float
    rarity: float
    coverage_power: float
    phrase_share: bool
    k1: float
    glossary_weight: float
    dictionary_weight: float
    context_weight: float
    stop_words: bool
    stemming: bool
    english_length: float
    chinese_words: int
    english_coverage_power: float
    foreign_coverage_power: float
    english_described_idf: int
    english_described_length: float

    def __init__(self, **changes: float | bool | int) -> None:
        unknown = set(changes) - set(_DEFAULTS)
        if unknown:
            raise TypeError(f"unknown tuning knobs: {sorted(unknown)}")
        for key, default in _DEFAULTS.items():
            object.__setattr__(self, key, changes.get(key, default))

    def replace(self, **changes: float | bool | int) -> Tuning:
        return Tuning(**{**self.values(), **changes})

    def values(self) -> dict[str, float | bool | int]:
        return {key: getattr(self, key) for key in _DEFAULTS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tuning) and self.values() == other.values()

    def __hash__(self) -> int:
        return hash(tuple(self.values().items()))

    def __repr__(self) -> str:
        return f"Tuning({self.values()})"

    def words(self, text: str, *, unigrams: bool = False) -> list[str]:
        return tokens(text, unigrams=unigrams, stop_words=self.stop_words, stemming=self.stemming)

    def searchable(self, text: str) -> tuple[str, int]:
        return searchable(text, stop_words=self.stop_words, stemming=self.stemming)
