"""The rule that sorts a skill into one domain of the fixed table, and says why.

The table and the field weights are in ``domain_table.py``, documented in
docs/categorization.md; a test keeps the page and the code equal.

Rule: four fields are read: the skill's name, the title of its body, the lead
of its description (its first sentence, which says what the skill is before
any passing mention) and the rest (the first later sentence with a keyword).
A domain scores a field's weight when one of its keywords is in that field;
the highest score wins, priority breaks a tie, and a skill that matches
nothing is ``general``. Each weight exceeds all later ones together, so the
fields decide in turn, and a field is read only while it could still matter.

Text is case-folded and read as words: runs of ASCII letters and digits, so
``-``, ``_``, ``.`` and punctuation separate words. An ASCII keyword matches
a whole word (a trailing ``s`` or ``es`` allowed); one ending in ``*``
matches any word it starts (the longest such stem wins); one with spaces
matches consecutive words; one starting with ``^`` counts in the name only.
A keyword in another script (Chinese has no spaces between words) matches
anywhere, read left to right, the longest at each place.
"""

from __future__ import annotations

from skillmem_hook.catalog.placement.domain_table import DOMAIN_TABLE, FIELD_WEIGHTS, GENERAL, REST_LIMIT
from skillmem_hook.lazy_pattern import lazy_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["DOMAIN_NAMES", "DOMAIN_TABLE", "FIELD_WEIGHTS", "GENERAL", "Placement", "categorise", "lead_of", "place"]

DOMAIN_NAMES: tuple[str, ...] = (*(domain for domain, _ in DOMAIN_TABLE), GENERAL)

_WORD = lazy_compile(r"[a-z0-9]+")
# A sentence ends at . ! ? before a space (or the end), at the ideographic full stop or a
# full-width ! or ?, or at a blank line. The pattern opens with one class of the characters that
# can end one, so the engine skips to them in C; written as three alternatives it tried each at
# every character (8% of placing's instructions). A lookbehind then asks which one it was.
_SENTENCE_END = lazy_compile(r"[.!?\u3002\uff01\uff1f\n](?:(?<=[.!?])(?:\s|$)|(?<=[\u3002\uff01\uff1f])|(?<=\n)\s*\n)")


if TYPE_CHECKING:
    from typing import NamedTuple

    class Placement(NamedTuple):
        """A skill's domain and what put it there: a keyword of that domain in the heaviest field it scored in."""

        domain: str
        field: str  # "name", "title", "lead" or "rest"; "" for general
        keyword: str  # the keyword as the table writes it; "" for general

else:
    # The same tuple without importing typing, which costs every hook run about 3 ms, or collections for
    # namedtuple, which loads as much again on a warm hook run (that loads nothing else of it).
    class Placement(tuple):
        __slots__ = ()

        def __new__(cls, domain, field, keyword):
            return tuple.__new__(cls, (domain, field, keyword))

        def __getnewargs__(self):
            return tuple(self)

        def __repr__(self):
            return f"Placement(domain={self[0]!r}, field={self[1]!r}, keyword={self[2]!r})"

        domain = property(lambda self: self[0])
        field = property(lambda self: self[1])
        keyword = property(lambda self: self[2])


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
        self.longest_first = sorted({len(stem) for stem in self.prefix}, reverse=True)
        # One scan finds them all: at each position the longest keyword wins, as the alternation lists it first.
        import re  # noqa: PLC0415 - built on first use, by a cold run only

        self.other_pattern = re.compile("|".join(map(re.escape, sorted(self.other, key=len, reverse=True))))
        self.phrase_starts = frozenset(self.phrases)
        # Each distinct word is looked up once; () marks a word that matches no keyword.
        self.word_hits: dict[str, tuple[int, str, bool] | tuple[()]] = {}

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

    def hits(self, text: str, in_name: bool) -> dict[int, str]:
        """The domains with a keyword in the text, by rank, each with one such keyword."""
        found: dict[int, str] = {}
        if not text:
            return found
        folded = text.casefold()
        words = _WORD.findall(folded)
        distinct = dict.fromkeys(words)  # in order of first use; a word counts once however often it recurs
        cache = self.word_hits
        for word in distinct:
            entry = cache.get(word)
            if entry is None:
                entry = cache[word] = self._word_hit(word) or ()
            if entry and (in_name or not entry[2]):
                found.setdefault(entry[0], entry[1])
        if not self.phrase_starts.isdisjoint(distinct):
            for position, word in enumerate(words):
                for rest, is_prefix, rank, keyword, name_only in self.phrases.get(word, ()):
                    if (in_name or not name_only) and _phrase_follows(words, position + 1, rest, is_prefix):
                        found.setdefault(rank, keyword)
        if not folded.isascii():
            for match in self.other_pattern.findall(folded):
                rank, keyword, name_only = self.other[match]
                if in_name or not name_only:
                    found.setdefault(rank, keyword)
        return found

    def _word_hit(self, word: str) -> tuple[int, str, bool] | None:
        candidates = [word]
        if word.endswith("s"):
            candidates += [word[:-1], word[:-2]] if word.endswith("es") else [word[:-1]]
        for candidate in candidates:
            if candidate in self.whole:
                return self.whole[candidate]
        size = len(word)
        for length in self.longest_first:  # the longest stem is the most specific
            if length <= size and word[:length] in self.prefix:
                return self.prefix[word[:length]]
        return None


def domains_hint(domain: str, lead: str) -> str:
    """For a name that is no domain: the domain it is spelled like (a did-you-mean), then ``lead`` and the domains."""
    from skillmem_hook.near import did_you_mean  # noqa: PLC0415 - only a mistyped domain pays for difflib

    return f"{did_you_mean(domain, DOMAIN_NAMES, count=1)} {lead} {', '.join(DOMAIN_NAMES)}".lstrip()


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
    found = index.hits(name, True)
    if len(found) == 1:  # most skills: decided, since the name outweighs all other fields together
        ((rank, keyword),) = found.items()
        placement = _BY_NAME.get(keyword)  # a keyword belongs to one domain: it names the placement alone
        if placement is None:
            placement = _BY_NAME[keyword] = _shared(Placement(DOMAIN_TABLE[rank][0], "name", keyword))
        return placement
    scores = dict.fromkeys(found, FIELD_WEIGHTS["name"])
    first_hit = {rank: ("name", keyword) for rank, keyword in found.items()}
    still_to_score = sum(FIELD_WEIGHTS.values()) - FIELD_WEIGHTS["name"]
    for field, hits in _hits_after_the_name(index, _title_hits(index, title, name, found), description):
        weight = FIELD_WEIGHTS[field]
        still_to_score -= weight
        for rank, keyword in hits.items():
            scores[rank] = scores.get(rank, 0) + weight
            first_hit.setdefault(rank, (field, keyword))
        if _decided(scores, still_to_score):  # the fields left could not change the winner: leave them unread
            break
    if not scores:
        return GENERAL_PLACEMENT
    best = min(scores, key=lambda rank: (-scores[rank], rank))
    return _shared(Placement(DOMAIN_TABLE[best][0], *first_hit[best]))


_PLACEMENTS: dict[Placement, Placement] = {}
_BY_NAME: dict[str, Placement] = {}  # the placement by a name's one keyword, made once, not once per skill


def _shared(placement: Placement) -> Placement:
    """One object per distinct placement (a few hundred), not one per skill: at 100,000 skills that is megabytes."""
    return _PLACEMENTS.setdefault(placement, placement)


def _title_hits(index: _KeywordIndex, title: str, name: str, in_name: dict[int, str]) -> dict[int, str]:
    """The title's keywords; most titles repeat the name, whose keywords serve unless one counts in names only.

    Outside a name such a keyword is passed over; when none is the first of its domain in the name, each
    domain's first keyword there is the same either way, so the name's answer is the title's.
    """
    if title == name and not any(keyword.startswith("^") for keyword in in_name.values()):
        return in_name
    return index.hits(title, False)


def _hits_after_the_name(
    index: _KeywordIndex, title_hits: dict[int, str], description: str
) -> Iterator[tuple[str, dict[int, str]]]:
    """The keywords of the other fields in the order they weigh, each description field read only when asked for."""
    yield "title", title_hits
    lead = lead_of(description)
    yield "lead", index.hits(lead, False)
    yield "rest", _first_sentence_hits(index, description[len(lead) : len(lead) + REST_LIMIT])


def _first_sentence_hits(index: _KeywordIndex, rest: str) -> dict[int, str]:
    """The keywords of the first sentence of the rest that holds any: a later mention never outvotes it."""
    start = 0
    for end in _SENTENCE_END.finditer(rest):
        hits = index.hits(rest[start : end.start()], False)
        if hits:
            return hits
        start = end.end()
    return index.hits(rest[start:], False)


def _decided(scores: dict[int, int], still_to_score: int) -> bool:
    """True when no domain can catch the leader with the weights of the fields still unread."""
    top = sorted(scores.values(), reverse=True)[:2]
    return bool(top) and top[0] - (top[1] if len(top) > 1 else 0) > still_to_score


def categorise(name: str, description: str, title: str = "") -> str:
    """The domain of a skill (see ``place`` for why)."""
    return place(name, description, title).domain
