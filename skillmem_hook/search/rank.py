"""Rank skills for a user's words: BM25F over name (+ aliases), description, body sections and body.

Pure: skills in, hits out. Build a ``SearchIndex`` once and query it many
times (the MCP server keeps one alive, ``stored.py`` keeps one on disk);
``search`` does both for one query. Rare words weigh more than plain
BM25 gives them (idf raised to ``rarity``), and each hit carries its
coverage: the share of the query's words, weighed by rarity, that the skill
holds (a glossary word stands in for the typed word that brought it).
With ``Tuning.english_length`` set (200 by default; 0 is off), an English query over a
collection described in Chinese weighs its words by English at large too
(``english.py``, ``_english_over_cjk``), and brings the Chinese words the dictionary gives
its English words (``bridge.py``, ``Tuning.chinese_words``), and weighs coverage more
(``Tuning.english_coverage_power``), the coverage of a skill described in English once more
(``Tuning.foreign_coverage_power``), and an English-described skill weighs a Latin word by its rarity among the
English-described skills too (``Tuning.english_described_idf``).
"""

from __future__ import annotations

import heapq
import itertools
import math
import sys

from skillmem_hook.search.aliases import aliases_of
from skillmem_hook.search.fields import PostingsField, ScannedField
from skillmem_hook.search.query import QueryWord, coverage_units, parts, query_words
from skillmem_hook.search.sorted_lines import first_line_from
from skillmem_hook.search.tokenize import cjk_characters, has_cjk
from skillmem_hook.search.tuning import Tuning

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, MutableMapping, Sequence
    from typing import Protocol, Union

    from skillmem_hook.catalog.skills import Skill

    Field = Union[ScannedField, PostingsField]

    class SkillRows(Protocol):
        """An index's skills as a query reads them: a list, or a stored index's rows (``stored.StoredSkills``)."""

        def __len__(self) -> int: ...
        def __getitem__(self, place: int, /) -> Skill: ...
        def __iter__(self) -> Iterator[Skill]: ...


SCORE_DECIMALS = 4
# A Chinese word the dictionary gives an English one is brought only if at most this share of descriptions
# holds it (bridge.py): chosen with the bridge on the tuning sets, where 1/8 to 1/32 ranked alike.
COMMON_SHARE = 1 / 32


class Hit:
    """One ranked skill, its score (higher is better) and its coverage of the query (0 to 1)."""

    __slots__ = ("coverage", "number", "score", "skill")

    def __init__(self, skill: Skill, score: float, coverage: float = 0.0, number: int = -1) -> None:
        self.skill = skill
        self.score = score
        self.coverage = coverage
        self.number = number  # the skill's number in its index's postings (``SearchIndex.numbers``)


class SearchIndex:
    """Every skill's fields; built once, queried many times.

    ``skills`` are in the scan's order; ``numbers[i]`` is the number the
    postings give ``skills[i]``. A build numbers them 0, 1, 2...; a patched
    index (``patch.py``) keeps each skill's number while others come and go,
    so a number may be free (a removed skill's: no posting and a length of 0).
    Nothing read from a number depends on which it is: the ranking is the
    build's. A stored index's skills are made when asked for
    (``stored.StoredSkills``), so a query makes only those it ranks.
    ``english`` is the numbers of the skills described in English
    (``described_in_english``), as a build finds them and a stored index keeps
    them: read from the descriptions when not given.
    """

    def __init__(
        self,
        skills: SkillRows,
        fields: list[Field],
        tuning: Tuning,
        numbers: Sequence[int] | None = None,
        english: Collection[int] | None = None,
    ) -> None:
        self._skills = skills
        # The ``skills`` argument itself, kept when ``skills`` turns it into a list: a stored index's rows
        # (``stored.StoredSkills``), for a patch to compare as bytes.
        self.skills_as_given = skills
        self.fields = fields
        self.tuning = tuning
        self.numbers = list(range(len(skills))) if numbers is None else list(numbers)
        # The numbers the fields hold a length for: the skills', and the free ones of a patched index.
        self.slots = len(fields[0].lengths) if fields else len(skills)
        if len(self.numbers) != len(skills) or len(set(self.numbers)) != len(skills):
            raise ValueError("a number of its own for each skill")
        if not all(0 <= number < self.slots for number in self.numbers):
            raise ValueError("each skill's number within the fields")
        if any(len(field.lengths) != self.slots for field in fields):
            raise ValueError("a length for each number in each field")
        if len(self.numbers) < self.slots:  # a patched index's free numbers: no text, so no posting can name one
            free = set(range(self.slots)).difference(self.numbers)
            if any(field.lengths[number] for field in fields for number in free):
                raise ValueError("a free number's length of 0 in each field")
        # A skill's place in ``skills`` by its number: where to find it, and the tie-break after name and label,
        # as a build's.
        self._place = dict(zip(self.numbers, range(len(skills))))
        # Over the skills there are, not the numbers: a free number's length of 0 must not lower the mean.
        self._averages = [max(1.0, sum(field.lengths) / max(1, len(skills))) for field in fields]
        self._cjk: bool | None = None
        if english is None:
            english = [n for n, skill in zip(self.numbers, skills) if described_in_english(skill.description)]
        self.english = frozenset(english)
        if not self.english <= self._place.keys():
            raise ValueError("only a skill's number among the English-described")

    @property
    def skills(self) -> list[Skill]:
        """Every skill, in the index's order (a stored index's made now, where a query makes only those it ranks)."""
        if not isinstance(self._skills, list):
            self._skills = list(self._skills)
        return self._skills

    @classmethod
    def build(
        cls,
        skills: Iterable[Skill],
        aliases: Mapping[str, Sequence[str]] | None = None,
        tuning: Tuning | None = None,
        memo: MutableMapping[str, list[str]] | None = None,
        bodies: Sequence[str] | None = None,
    ) -> SearchIndex:
        """Index ``skills`` (and their ``bodies``, from ``body.body_text``, in the same order, when given).

        ``memo`` (text -> its search words) lets a long-lived caller tokenise only the
        texts it has not seen (the MCP server now patches the stored index instead)."""
        tuning = tuning or Tuning()
        kept = list(skills)
        index_form = tuning.words if memo is None else _memoized(tuning, memo)
        names = [" ".join([skill.name, *aliases_of(skill, aliases or {})]) for skill in kept]
        fields: list[Field] = [
            # Every field as postings: a query word costs a binary search, not a scan of every text.
            PostingsField.of(map(index_form, names), tuning.name_weight),
            PostingsField.of((index_form(skill.description) for skill in kept), tuning.description_weight),
            # A catalog scanned for search has every skill's sections (CatalogOptions.sections); None is the hooks'.
            PostingsField.of((index_form(skill.sections or "") for skill in kept), tuning.sections_weight),
        ]
        if bodies is not None and tuning.body_weight:
            fields.append(PostingsField.of(map(index_form, bodies), tuning.body_weight))
        return cls(kept, fields, tuning)  # the English-described read from the descriptions, as __init__ does

    def query(self, intent: str, top: int = 5, *, english_at_large: bool = True) -> list[Hit]:
        """The ``top`` skills that best fit ``intent``, best first; equal scores in name order.

        ``english_at_large=False`` keeps the collection's own rarity for every word (the route's reading:
        ``ScoreRule.english_at_large``)."""
        words = self.query_words(intent)
        tuning = self.tuning
        # Search's reading of an English query over a CJK-described collection (the route's keeps the
        # collection's own, ``_english_over_cjk``): asked once, it decides the three English rules.
        english = english_at_large and self._english_over_cjk(words)
        if english and tuning.chinese_words:
            self._add_chinese_words(words)  # none typed: the question's answer stays as it was
        own_script = self.english if english and tuning.english_described_idf else frozenset()
        scores, covered, total = self._scores(
            words, english=english and bool(tuning.english_length), foreign=own_script
        )
        shares = {n: _share(held, total) for n, held in covered.items()}
        # There coverage weighs more (docs/notes/search.md): a skill described in English
        # can hold any of a long request's everyday words one by one, where the right Chinese-described skill
        # holds more of its typed words.
        power = tuning.english_coverage_power if english and tuning.english_coverage_power else tuning.coverage_power
        if power:
            scores = {n: score * (shares[n] ** power) for n, score in scores.items()}
        skills, place = self._skills, self._place
        rounded = {n: round(score, SCORE_DECIMALS) for n, score in scores.items()}
        if english and tuning.foreign_coverage_power:
            # And there a skill described in another script is weighed by its coverage once more (the fourteenth
            # pass): its short English text holds a long request's everyday words one by one.
            rounded = self._weigh_foreign(rounded, shares, top)
        best = heapq.nsmallest(
            top,
            (
                (-rounded[n], skills[place[n]].name, skills[place[n]].label, place[n], n)
                for n in _contenders(rounded, top)
            ),
        )
        return [Hit(skills[place[n]], -score, round(shares[n], 3), n) for score, _, _, _, n in best]

    def _weigh_foreign(self, rounded: dict[int, float], shares: dict[int, float], top: int) -> dict[int, float]:
        """The scores that can reach the ``top``, each of a skill not described in CJK times its coverage to
        ``foreign_coverage_power``.

        The weight only lowers a score, so the walk, best first, stops at a score below the ``top``-th best
        weighed one: no later skill can enter, and only the skills read are made (a stored index's rows).
        """
        power = self.tuning.foreign_coverage_power
        kept: dict[int, float] = {}
        floor: list[float] = []
        for n in sorted(rounded, key=rounded.__getitem__, reverse=True):
            if floor and len(floor) >= top and rounded[n] < floor[0]:
                break
            score = rounded[n]
            if n in self.english:
                score = round(score * shares[n] ** power, SCORE_DECIMALS)
            kept[n] = score
            if len(floor) < top:
                heapq.heappush(floor, score)
            elif score > floor[0]:
                heapq.heapreplace(floor, score)
        return kept

    def evidence(self, intent: str, hit: Hit, *, guesses: bool = False) -> int:
        """How many words typed in ``intent`` the hit's skill holds in its own words: name, description, sections.

        A typed word counts when the skill holds it or a glossary word that stands
        for it (安全 typed, "security" held); a dictionary word only with ``guesses``
        (its sense is a guess: enough to say something may fit, not that it does).
        The body is left out: a long body holds many everyday words.
        """
        return self._held(self.query_words(intent), hit, guesses=guesses)

    def typed_words(self, intent: str) -> int:
        """How many distinct search words ``intent`` types (stop words and glossary words aside)."""
        return _typed(self.query_words(intent))

    def reading(self, intent: str, hit: Hit) -> tuple[int, int, int, int]:
        """What ``match`` and the route rule read of a best hit, from one pass over the query's words:
        its ``evidence`` without and with the dictionary's guesses, the query's ``typed_words``, and how many of
        those are CJK (bigrams, and lone characters between other words: the score rule counts them by words, since
        a Chinese run is cut into overlapping bigrams, about two for each word it holds)."""
        words = self.query_words(intent)
        held = self._held(words, hit, guesses=False), self._held(words, hit, guesses=True)
        return *held, _typed(words), sum(1 for word, query_word in words.items() if query_word.typed and has_cjk(word))

    def _held(self, words: dict[str, QueryWord], hit: Hit, *, guesses: bool) -> int:
        fields = self.fields[:3]
        held: set[str] = set()
        for word, query_word in words.items():
            if (query_word.guessed and not guesses) or query_word.stands_for <= held:
                continue
            if any(hit.number in field.counts(word) for field in fields):
                held |= query_word.stands_for
        return len(held)

    def _scores(
        self, words: dict[str, QueryWord], *, english: bool = False, foreign: frozenset[int] = frozenset()
    ) -> tuple[dict[int, float], dict[int, dict[str, float]], float]:
        """Each matching skill's score; the typed words it covers, with their rarity; the rarity of all typed words.

        ``english``: the words weighed by English at large too (``english.py``), each by the lower of its two idfs.
        ``foreign``: the English-described skills (``english_described_idf``): for each of them a Latin word it holds
        weighs by the lower of that and its idf among them alone: everyday in their texts, it
        is rare in the collection only because the collection is not English. That idf among them is capped by
        English at large for as many texts of ``english_described_length`` words. A
        Chinese-described holder keeps the other.
        """
        scores: dict[int, float] = {}
        covered: dict[int, dict[str, float]] = {}
        rarity: dict[str, float] = {}
        documents = len(self._skills)
        for word, query_word in words.items():
            combined = self._combined(word, described=query_word.described)
            own = idf = math.log(1 + (documents - len(combined) + 0.5) / (len(combined) + 0.5))
            if english:
                idf = _capped(word, idf, documents, self.tuning.english_length)
            if query_word.typed:
                rarity[word] = idf * query_word.weight
            if not combined:
                continue
            weight = idf**self.tuning.rarity * query_word.weight
            foreign_holders = foreign & combined.keys() if word.isascii() else frozenset()
            weights: dict[int, float] = {}
            if foreign_holders:
                holders = len(foreign_holders)
                among = math.log(1 + (len(foreign) - holders + 0.5) / (holders + 0.5))
                if self.tuning.english_described_length:
                    # Among them, too, an everyday word weighs as in as many English texts of their length.
                    among = _capped(word, among, len(foreign), self.tuning.english_described_length)
                weights = dict.fromkeys(foreign_holders, min(idf, among) ** self.tuning.rarity * query_word.weight)
            k1 = self.tuning.k1
            for number, value in combined.items():
                scale = weights.get(number, weight)
                scores[number] = scores.get(number, 0.0) + scale * value * (k1 + 1) / (value + k1)
                held = covered.setdefault(number, {})
                for typed in query_word.stands_for:
                    held[typed] = 1.0
            if idf < own:
                # A skill that holds the word in its name keeps that part at the collection's rarity:
                # the Chinese collection's names are English slugs, where "family" says much.
                lift = (own**self.tuning.rarity - idf**self.tuning.rarity) * query_word.weight * (k1 + 1)
                for number, in_name in self._named(word).items():
                    scores[number] += lift * in_name / (combined[number] + k1)
        units = coverage_units(rarity)
        total = sum(units.values())
        weighed = {n: {unit: units[unit] for word in held for unit in parts(word)} for n, held in covered.items()}
        return scores, weighed, total

    def _english_over_cjk(self, words: dict[str, QueryWord]) -> bool:
        """Whether the query types no CJK word and the collection is described mostly in a CJK script.

        There the few skills described in English hold the everyday English words of a long request, rare in
        the collection only because it is not English: search weighs them by English at large
        (``english_length``), brings the dictionary's Chinese for them (``chinese_words``) and weighs coverage
        more (``english_coverage_power``; docs/search.md). A Chinese request's typed English words (API, PPT)
        and an English collection keep the collection's own rarity: the tuning sets lost requests there.
        """
        return all(word.isascii() for word, w in words.items() if w.typed) and self.described_in_cjk()

    def _add_chinese_words(self, words: dict[str, QueryWord]) -> None:
        """The dictionary's Chinese for the typed English words (``bridge.py``), chosen by the descriptions."""
        # Imported here, as english.py: only an English query over a CJK-described collection reads the table.
        from skillmem_hook.search.bridge import add_chinese_words  # noqa: PLC0415 - only where the rule applies

        tuning = self.tuning
        most = COMMON_SHARE * len(self._skills)
        add_chinese_words(words, tuning.dictionary_weight, tuning.chinese_words, self.fields[1].holders, most)

    def described_in_cjk(self) -> bool:
        """Whether most of the descriptions' words are CJK: more than half the description postings' bytes.

        CJK words sort after ASCII ones, so one binary search finds where their lines begin.
        """
        if self._cjk is None:
            field = self.fields[1]
            if isinstance(field, PostingsField):
                start = first_line_from(field.source, "\u3000".encode(), field.start, field.end)
                self._cjk = (field.end - start) * 2 > field.end - field.start
            else:
                self._cjk = False
        return self._cjk

    def _named(self, word: str) -> dict[int, float]:
        """The name field's part of ``_combined``."""
        field, b, average = self.fields[0], self.tuning.name_b, self._averages[0]
        return {n: c * field.weight / (1 - b + b * field.lengths[n] / average) for n, c in field.counts(word).items()}

    def _combined(self, word: str, *, described: bool = False) -> dict[int, float]:
        """BM25F: each field's count of ``word``, weighted and length-normalised, summed per skill.

        ``described``: the description's part alone (``QueryWord.described``)."""
        tuning = self.tuning
        norms = (tuning.name_b, tuning.description_b, tuning.sections_b, tuning.body_b)
        combined: dict[int, float] = {}
        fields = zip(self.fields, norms, self._averages)
        for field, b, average in itertools.islice(fields, 1, 2) if described else fields:
            if not field.weight:
                continue
            for number, count in field.counts(word).items():
                scale = field.weight / (1 - b + b * field.lengths[number] / average)
                combined[number] = combined.get(number, 0.0) + count * scale
        return combined

    def query_words(self, intent: str) -> dict[str, QueryWord]:
        """Each distinct query word once, with its weight and the typed words it stands for (``query.py``)."""
        return query_words(self.tuning, intent)


def described_in_english(text: str) -> bool:
    """Whether a description holds fewer than half as many CJK characters as ASCII letters."""
    cjk = cjk_characters(text)  # tokenize's class: the characters a description's Chinese words are cut from
    letters = sum(1 for c in text if c.isascii() and c.isalpha())
    return cjk * 2 < letters  # a CJK character says about as much as two letters


def _capped(word: str, idf: float, documents: int, length: float) -> float:
    """``idf``, or the lower idf ``word`` would have in as many English texts of ``length`` words."""
    # Imported here: only an English query over a CJK-described collection needs it, and a route prompt loads
    # no module it does not use.
    from skillmem_hook.search.english import general_idf, zipf  # noqa: PLC0415 - only where the rule applies

    value = zipf(word)
    return idf if value is None else min(idf, general_idf(value, documents, length))


def _contenders(rounded: dict[int, float], top: int) -> Iterable[int]:
    """The skills that can be among the ``top`` best: those scoring at least the ``top``-th best score.

    Ties are broken by name, so only they need their skill's name: a stored
    index makes a skill when first asked for, and a query matches hundreds.
    """
    if top <= 0 or len(rounded) <= top:
        return rounded
    least = heapq.nlargest(top, rounded.values())[-1]
    return [n for n, score in rounded.items() if score >= least]


def _typed(words: dict[str, QueryWord]) -> int:
    return sum(1 for query_word in words.values() if query_word.typed)


def _share(covered: dict[str, float], total: float) -> float:
    return min(1.0, sum(covered.values()) / total) if total > 0 else 0.0


def _memoized(tuning: Tuning, memo: MutableMapping[str, list[str]]) -> Callable[[str], list[str]]:
    def index_form(text: str) -> list[str]:
        found = memo.get(text)
        if found is None:
            # One string per distinct word: a body's thousand words would otherwise each be kept apart.
            found = memo[text] = [sys.intern(word) for word in tuning.words(text)]
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


def rank(index: SearchIndex, intent: str, top: int = 10) -> list[tuple[str, float]]:
    """The lexical ranking as (label, score) pairs, best first: what a fusion with another ranker takes."""
    return [(hit.skill.label, hit.score) for hit in index.query(intent, top)]
