"""Rank skills for a user's words: BM25F over name (+ aliases), description and body sections.

Pure: skills in, hits out. Build a ``SearchIndex`` once and query it many
times (the MCP server keeps one alive); ``search`` does both for one query.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from dataclasses import dataclass

from skillmem_hook.search.aliases import aliases_of
from skillmem_hook.search.glossary import expand
from skillmem_hook.search.tokenize import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill

SCORE_DECIMALS = 4


@dataclass(frozen=True)
class Tuning:
    """The ranker's knobs; the defaults are the ones docs/search.md measured best."""

    name_weight: float = 3.0
    description_weight: float = 1.0
    sections_weight: float = 0.4
    name_b: float = 0.3
    description_b: float = 0.75
    sections_b: float = 0.75
    k1: float = 1.2
    unigram_weight: float = 0.0
    glossary_weight: float = 0.3
    stop_words: bool = True
    stemming: bool = True

    def words(self, text: str, *, unigrams: bool = False) -> list[str]:
        return tokens(text, unigrams=unigrams, stop_words=self.stop_words, stemming=self.stemming)


class Hit:
    """One ranked skill and its score (higher is better)."""

    __slots__ = ("score", "skill")

    def __init__(self, skill: Skill, score: float) -> None:
        self.skill = skill
        self.score = score


class SearchIndex:
    """Postings of every word: which skills hold it, and its saturated-ready BM25F weight there."""

    def __init__(self, skills: list[Skill], postings: dict[str, tuple[array[int], array[float]]], tuning: Tuning):
        self.skills = skills
        self.postings = postings
        self.tuning = tuning
        self.idf = {
            word: math.log(1 + (len(skills) - len(docs) + 0.5) / (len(docs) + 0.5))
            for word, (docs, _) in postings.items()
        }

    @classmethod
    def build(
        cls,
        skills: Iterable[Skill],
        aliases: Mapping[str, Sequence[str]] | None = None,
        tuning: Tuning | None = None,
    ) -> SearchIndex:
        tuning = tuning or Tuning()
        kept = list(skills)
        fields = [_fields(skill, aliases or {}, tuning) for skill in kept]
        averages = [max(1.0, sum(len(field[i]) for field in fields) / max(1, len(fields))) for i in range(3)]
        weights = (tuning.name_weight, tuning.description_weight, tuning.sections_weight)
        norms = (tuning.name_b, tuning.description_b, tuning.sections_b)
        postings: dict[str, tuple[array[int], array[float]]] = {}
        for number, skill_fields in enumerate(fields):
            combined: dict[str, float] = {}
            for i, words in enumerate(skill_fields):
                scale = weights[i] / (1 - norms[i] + norms[i] * len(words) / averages[i])
                for word, count in Counter(words).items():
                    combined[word] = combined.get(word, 0.0) + count * scale
            for word, weight in combined.items():
                docs, values = postings.setdefault(word, (array("i"), array("d")))
                docs.append(number)
                values.append(weight)
        return cls(kept, postings, tuning)

    def query(self, intent: str, top: int = 5) -> list[Hit]:
        """The ``top`` skills that best fit ``intent``, best first; equal scores in name order."""
        k1 = self.tuning.k1
        scores: dict[int, float] = {}
        for word, weight in self.query_words(intent).items():
            if word not in self.postings:
                continue
            docs, values = self.postings[word]
            idf = self.idf[word] * weight
            for number, value in zip(docs, values):
                scores[number] = scores.get(number, 0.0) + idf * value * (k1 + 1) / (value + k1)
        ranked = sorted(
            (-round(score, SCORE_DECIMALS), self.skills[number].name, self.skills[number].label, number)
            for number, score in scores.items()
            if score > 0
        )
        return [Hit(self.skills[number], -score) for score, _, _, number in ranked[:top]]

    def query_words(self, intent: str) -> dict[str, float]:
        """Each distinct query word once, with its weight: words typed 1, glossary words and unigrams less."""
        tuning = self.tuning
        weights: dict[str, float] = {}
        if tuning.glossary_weight:
            for word in tuning.words(" ".join(expand(intent))):
                weights[word] = tuning.glossary_weight
        if tuning.unigram_weight:
            for word in tuning.words(intent, unigrams=True):
                if word.startswith("#"):
                    weights[word] = tuning.unigram_weight
        for word in tuning.words(intent):
            weights[word] = 1.0
        return weights


def _fields(skill: Skill, aliases: Mapping[str, Sequence[str]], tuning: Tuning) -> tuple[list[str], ...]:
    unigrams = bool(tuning.unigram_weight)
    name = " ".join([skill.name, *aliases_of(skill, aliases)])
    return (
        tuning.words(name, unigrams=unigrams),
        tuning.words(skill.description, unigrams=unigrams),
        tuning.words(skill.sections, unigrams=unigrams) if tuning.sections_weight else [],
    )


def search(
    skills: Sequence[Skill],
    intent: str,
    top: int = 5,
    aliases: Mapping[str, Sequence[str]] | None = None,
    tuning: Tuning | None = None,
) -> list[Hit]:
    """The ``top`` skills that best fit ``intent``, best first, ties broken by name."""
    return SearchIndex.build(skills, aliases, tuning).query(intent, top)
