"""Rank skills for a user's words: BM25F over name (+ aliases), description and body sections.

Pure: skills in, hits out. Build a ``SearchIndex`` once and query it many
times (the MCP server keeps one alive); ``search`` does both for one query.
"""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_right

from skillmem_hook.search.aliases import aliases_of
from skillmem_hook.search.glossary import expand
from skillmem_hook.search.tokenize import pattern_of
from skillmem_hook.search.tuning import Tuning

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence

    from skillmem_hook.catalog.skills import Skill

SCORE_DECIMALS = 4


class Hit:
    """One ranked skill and its score (higher is better)."""

    __slots__ = ("score", "skill")

    def __init__(self, skill: Skill, score: float) -> None:
        self.skill = skill
        self.score = score


class _Field:
    """One field of every skill, as one text the query scans: no vocabulary to build or keep."""

    __slots__ = ("average", "lengths", "starts", "text", "weight")

    def __init__(self, texts: list[tuple[str, int]], weight: float) -> None:
        self.starts = array("q")
        position = 0
        for text, _ in texts:
            self.starts.append(position)
            position += len(text) + 1
        self.text = "\n".join(text for text, _ in texts)
        self.lengths = array("q", (length for _, length in texts))
        self.average = max(1.0, sum(self.lengths) / max(1, len(self.lengths)))
        self.weight = weight

    def counts(self, pattern: str) -> dict[int, int]:
        """How often ``pattern`` occurs in each skill's text that holds it (overlaps count)."""
        found: dict[int, int] = {}
        find, starts = self.text.find, self.starts
        position = find(pattern)
        while position != -1:
            number = bisect_right(starts, position) - 1
            found[number] = found.get(number, 0) + 1
            position = find(pattern, position + 1)
        return found


class SearchIndex:
    """Every skill's fields as scanned texts; built once, queried many times."""

    def __init__(self, skills: list[Skill], fields: list[_Field], tuning: Tuning) -> None:
        self.skills = skills
        self.fields = fields
        self.tuning = tuning

    @classmethod
    def build(
        cls,
        skills: Iterable[Skill],
        aliases: Mapping[str, Sequence[str]] | None = None,
        tuning: Tuning | None = None,
        memo: MutableMapping[str, tuple[str, int]] | None = None,
    ) -> SearchIndex:
        """Index ``skills``. ``memo`` (text -> its index form) lets a long-lived caller,
        such as the MCP server rebuilding after a change, tokenise only the texts it has not seen."""
        tuning = tuning or Tuning()
        kept = list(skills)
        index_form = tuning.searchable if memo is None else _memoized(tuning, memo)
        names = [" ".join([skill.name, *aliases_of(skill, aliases or {})]) for skill in kept]
        fields = [
            _Field([index_form(name) for name in names], tuning.name_weight),
            _Field([index_form(skill.description) for skill in kept], tuning.description_weight),
        ]
        if tuning.sections_weight:
            fields.append(_Field([index_form(skill.sections) for skill in kept], tuning.sections_weight))
        return cls(kept, fields, tuning)

    def query(self, intent: str, top: int = 5) -> list[Hit]:
        """The ``top`` skills that best fit ``intent``, best first; equal scores in name order."""
        words = self.query_words(intent)
        scores = self._scores(words)
        if self.tuning.feedback_weight and scores:
            best = [number for _, _, _, number in self._best(scores, self.tuning.feedback_skills)]
            scores = self._scores({**self._feedback_words(best, words), **words})
        return [Hit(self.skills[number], -score) for score, _, _, number in self._best(scores, top)]

    def _best(self, scores: dict[int, float], top: int) -> list[tuple[float, str, str, int]]:
        """The ``top`` (-score, name, label, number) rows, scores rounded first so float noise never reorders."""
        skills = self.skills
        return heapq.nsmallest(
            top,
            ((-round(score, SCORE_DECIMALS), skills[n].name, skills[n].label, n) for n, score in scores.items()),
        )

    def _scores(self, words: dict[str, float]) -> dict[int, float]:
        scores: dict[int, float] = {}
        for word, weight in words.items():
            self._add_scores(pattern_of(word), weight, scores)
        return scores

    def _feedback_words(self, best: list[int], typed: dict[str, float]) -> dict[str, float]:
        """Pseudo-relevance feedback: the rarest words the best first-pass skills share, at a low weight."""
        counts: dict[str, int] = {}
        for number in best:
            skill = self.skills[number]
            for word in set(self.tuning.words(skill.name + " " + skill.description)):
                if word not in typed:
                    counts[word] = counts.get(word, 0) + 1
        description = self.fields[1]
        documents = len(self.skills)
        rated = sorted(
            (-count * math.log(1 + documents / (1 + len(description.counts(pattern_of(word))))), word)
            for word, count in counts.items()
            if count > 1
        )
        return {word: self.tuning.feedback_weight for _, word in rated[: self.tuning.feedback_words]}

    def _add_scores(self, pattern: str, weight: float, scores: dict[int, float]) -> None:
        """BM25F: each field's count, weighted and length-normalised, summed, then saturated once."""
        tuning = self.tuning
        norms = (tuning.name_b, tuning.description_b, tuning.sections_b)
        combined: dict[int, float] = {}
        for field, b in zip(self.fields, norms):
            for number, count in field.counts(pattern).items():
                scale = field.weight / (1 - b + b * field.lengths[number] / field.average)
                combined[number] = combined.get(number, 0.0) + count * scale
        if not combined:
            return
        documents = len(self.skills)
        idf = math.log(1 + (documents - len(combined) + 0.5) / (len(combined) + 0.5)) * weight
        k1 = tuning.k1
        for number, value in combined.items():
            scores[number] = scores.get(number, 0.0) + idf * value * (k1 + 1) / (value + k1)

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


def _memoized(tuning: Tuning, memo: MutableMapping[str, tuple[str, int]]) -> Callable[[str], tuple[str, int]]:
    def index_form(text: str) -> tuple[str, int]:
        found = memo.get(text)
        if found is None:
            found = memo[text] = tuning.searchable(text)
        return found

    return index_form


def search(
    skills: Sequence[Skill],
    intent: str,
    top: int = 5,
    aliases: Mapping[str, Sequence[str]] | None = None,
    tuning: Tuning | None = None,
) -> list[Hit]:
    """The ``top`` skills that best fit ``intent``, best first, ties broken by name."""
    return SearchIndex.build(skills, aliases, tuning).query(intent, top)
