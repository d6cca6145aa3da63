"""The rule that sorts a skill into one domain of the fixed table, and says why.

The table and the field weights are in ``domain_table.py``, documented in
docs/categorization.md; a test keeps the page and the code equal.

Rule: four fields are read: the skill's name, the title of its body, the lead
of its description (its first sentence, which says what the skill is before
any passing mention) and the rest of the description. A domain scores a
field's weight when one of its keywords is in that field; the highest score
wins, priority breaks a tie, and a skill that matches nothing is ``general``.
Each weight exceeds all later ones together, so the fields decide in turn.

Text is case-folded and read as words: runs of ASCII letters and digits, so
``-``, ``_``, ``.`` and punctuation separate words. An ASCII keyword matches
a whole word (a trailing ``s`` or ``es`` allowed); one ending in ``*``
matches any word it starts (the longest such stem wins); one with spaces
matches consecutive words; one starting with ``^`` counts in the name only.
A keyword in another script (Chinese has no spaces between words) matches
anywhere, read left to right, the longest at each place.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from skillmem_hook.catalog.domain_table import DOMAIN_TABLE, FIELD_WEIGHTS, GENERAL, REST_LIMIT

__all__ = ["DOMAIN_NAMES", "DOMAIN_TABLE", "FIELD_WEIGHTS", "GENERAL", "Placement", "categorise", "lead_of", "place"]

DOMAIN_NAMES: tuple[str, ...] = (*(domain for domain, _ in DOMAIN_TABLE), GENERAL)

_WORD = re.compile(r"[a-z0-9]+")
# A sentence ends at . ! ? before a space (or the end), at the ideographic full stop or a
# full-width ! or ?, or at a blank line.
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[\u3002\uff01\uff1f]|\n\s*\n")


class Placement(NamedTuple):
    """A skill's domain and what put it there: the field and the keyword that scored first."""

    domain: str
    field: str  # "name", "title" or "description"; "" for general
    keyword: str  # the keyword as the table writes it; "" for general


GENERAL_PLACEMENT = Placement(GENERAL, "", "")


class _KeywordIndex:
    """The table as look-up structures, built once on first use (not at import)."""

    def __init__(self) -> None:
        self.whole: dict[str, tuple[int, str, bool]] = {}
        self.prefix: dict[str, tuple[int, str, bool]] = {}
        self.phrases: dict[str, list[tuple[tuple[str, ...], bool, int, str, bool]]] = {}
        self.other: dict[str, tuple[int, str, bool]] = {}  # keywords in other scripts, matched inside runs
        for rank, (_, keywords) in enumerate(DOMAIN_TABLE):
            for keyword in keywords:
                self._add(keyword, rank)
        self.prefix_lengths = sorted({len(stem) for stem in self.prefix})
        # One scan finds them all: at each position the longest keyword wins, as the alternation lists it first.
        self.other_pattern = re.compile("|".join(map(re.escape, sorted(self.other, key=len, reverse=True))))
        self.word_hits: dict[str, tuple[int, str, bool] | None] = {}  # each distinct word is looked up once

    def _add(self, keyword: str, rank: int) -> None:
        name_only = keyword.startswith("^")
        is_prefix = keyword.endswith("*")
        words = keyword.lstrip("^").rstrip("*").split()
        entry = (rank, keyword, name_only)
        if not keyword.isascii():
            self.other[words[0]] = entry
        elif len(words) > 1:
            self.phrases.setdefault(words[0], []).append((tuple(words[1:]), is_prefix, rank, keyword, name_only))
        else:
            (self.prefix if is_prefix else self.whole)[words[0]] = entry

    def hits(self, text: str, in_name: bool) -> dict[int, list[str]]:
        """The distinct keywords found in the text, by domain rank."""
        found: dict[int, list[str]] = {}
        folded = text.casefold()
        words = _WORD.findall(folded)
        for position, word in enumerate(words):
            if word not in self.word_hits:
                self.word_hits[word] = self._word_hit(word)
            entry = self.word_hits[word]
            if entry is not None:
                _record(found, entry, in_name)
            for rest, is_prefix, rank, keyword, name_only in self.phrases.get(word, ()):
                if _phrase_follows(words, position + 1, rest, is_prefix):
                    _record(found, (rank, keyword, name_only), in_name)
        if not folded.isascii():
            for keyword in self.other_pattern.findall(folded):
                _record(found, self.other[keyword], in_name)
        return found

    def _word_hit(self, word: str) -> tuple[int, str, bool] | None:
        candidates = [word]
        if word.endswith("s"):
            candidates += [word[:-1], word[:-2]] if word.endswith("es") else [word[:-1]]
        for candidate in candidates:
            if candidate in self.whole:
                return self.whole[candidate]
        for length in reversed(self.prefix_lengths):  # the longest stem is the most specific
            if length <= len(word) and word[:length] in self.prefix:
                return self.prefix[word[:length]]
        return None


def _record(found: dict[int, list[str]], entry: tuple[int, str, bool], in_name: bool) -> None:
    rank, keyword, name_only = entry
    if name_only and not in_name:
        return
    keywords = found.setdefault(rank, [])
    if keyword not in keywords:
        keywords.append(keyword)


def _phrase_follows(words: list[str], start: int, rest: tuple[str, ...], is_prefix: bool) -> bool:
    following = words[start : start + len(rest)]
    if len(following) < len(rest) or following[:-1] != list(rest[:-1]):
        return False
    last, wanted = following[-1], rest[-1]
    if is_prefix:
        return last.startswith(wanted)
    return last in (wanted, wanted + "s", wanted + "es")


_index: list[_KeywordIndex] = []


def lead_of(description: str) -> str:
    """The description's first sentence: what the skill is, before passing mentions."""
    end = _SENTENCE_END.search(description)
    return description if end is None else description[: end.start()]


def place(name: str, description: str, title: str = "") -> Placement:
    """The domain of a skill, with the field and keyword that placed it."""
    if not _index:
        _index.append(_KeywordIndex())
    index = _index[0]
    scores: dict[int, int] = {}
    first_hit: dict[int, tuple[str, str]] = {}
    lead = lead_of(description)
    for field, text in (("name", name), ("title", title), ("lead", lead)):
        _score(index, field, text, scores, first_hit)
    if _undecided(scores):  # the rest weighs less than any gap between the others' scores
        _score(index, "rest", description[len(lead) : len(lead) + REST_LIMIT], scores, first_hit)
    if not scores:
        return GENERAL_PLACEMENT
    best = min(scores, key=lambda rank: (-scores[rank], rank))
    return Placement(DOMAIN_TABLE[best][0], *first_hit[best])


def _score(
    index: _KeywordIndex, field: str, text: str, scores: dict[int, int], first_hit: dict[int, tuple[str, str]]
) -> None:
    if text:
        for rank, keywords in index.hits(text, field == "name").items():
            scores[rank] = scores.get(rank, 0) + FIELD_WEIGHTS[field]
            first_hit.setdefault(rank, (field, keywords[0]))


def _undecided(scores: dict[int, int]) -> bool:
    """No domain scored, or two share the top score: only then can the rest change the winner."""
    top = sorted(scores.values(), reverse=True)[:2]
    return len(top) != 1 and (not top or top[0] == top[1])


def categorise(name: str, description: str, title: str = "") -> str:
    """The domain of a skill (see ``place`` for why)."""
    return place(name, description, title).domain
