"""A built index with a few skills re-indexed: the very bytes a new build gives, at the cost of those skills alone.

Pure. When a stored index is stale because a few SKILL.md files were edited,
every other skill's postings are kept: the lines of the words no changed
skill holds, before or after, are copied as they are, and only the others
are rewritten. A full build of the Chinese collection tokenises about 1.7
million words and sorts 140,000 lines; an edit touches a few hundred lines.
When skills come or go, the skills after them change places: their postings
are kept too, only their numbers are rewritten (``renumbered``), a pass over
the text without tokenising or sorting anything.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from itertools import chain

from skillmem_hook.search.aliases import aliases_of
from skillmem_hook.search.fields import PostingsField
from skillmem_hook.search.rank import SearchIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill


# Past this many lines that may hold a changed skill, one regular-expression pass over the text is cheaper.
CANDIDATE_LINES = 4096


def reindexed(
    index: SearchIndex,
    skills: Sequence[Skill],
    bodies: Mapping[int, str],
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> SearchIndex:
    """``index`` for ``skills`` (the same skills in the same places), where only those numbered in ``bodies`` changed.

    ``bodies`` holds each changed skill's body (``body.body_text``); the field
    texts are those ``SearchIndex.build`` indexes, which a test holds equal.
    """
    if len(skills) != len(index.skills):
        raise ValueError("a patch needs the same skills")
    changed = {number: (skills[number], body) for number, body in bodies.items()}
    fields = _refilled(_postings(index), _words_of(index, changed, aliases or {}))
    return SearchIndex(list(skills), list(fields), index.tuning)


def updated(
    index: SearchIndex,
    skills: Sequence[Skill],
    places: Sequence[int | None],
    bodies: Mapping[int, str],
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> SearchIndex:
    """``index`` for ``skills`` after skills came, went or changed: the bytes a new build gives.

    ``places[old]`` is where each indexed skill stands in ``skills`` (None: it
    went), in increasing order; ``bodies`` holds the body of each skill,
    numbered in ``skills``, that is new or whose texts changed (every new one).
    """
    kept = [place for place in places if place is not None]
    if len(places) != len(index.skills) or any(later <= earlier for earlier, later in zip(kept, kept[1:])):
        raise ValueError("the indexed skills that stay must keep their order")
    arrived = set(range(len(skills))) - set(kept)
    if (kept and kept[-1] >= len(skills)) or not arrived <= bodies.keys():
        raise ValueError("places out of range, or a new skill without its body")
    # In the indexed numbering first: the edited skills' words replaced, the words of those gone dropped.
    stayed = [(old, place) for old, place in enumerate(places) if place is not None]
    edited = {old: (skills[place], bodies[place]) for old, place in stayed if place in bodies}
    gone = [old for old, place in enumerate(places) if place is None]
    documents = _words_of(index, edited, aliases or {})
    for words in documents:
        words.update({old: [] for old in gone})
    fields = _refilled(_postings(index), documents)
    if list(places) != list(range(len(skills))):
        fields = [renumbered(field, places, len(skills)) for field in fields]
    fresh = {number: (skills[number], bodies[number]) for number in sorted(arrived)}
    return SearchIndex(list(skills), list(_refilled(fields, _words_of(index, fresh, aliases or {}))), index.tuning)


def _postings(index: SearchIndex) -> list[PostingsField]:
    fields = [field for field in index.fields if isinstance(field, PostingsField)]
    if len(fields) != len(index.fields) or len(fields) != 4:
        raise ValueError("a patch needs postings, a body field among them")
    return fields


def _words_of(
    index: SearchIndex, changed: Mapping[int, tuple[Skill, str]], aliases: Mapping[str, Sequence[str]]
) -> list[dict[int, list[str]]]:
    """Per field, the search words of each skill numbered in ``changed`` (the skill and its body)."""
    words = index.tuning.words
    numbers = sorted(changed)
    skills = [changed[number][0] for number in numbers]
    texts = [
        [" ".join([skill.name, *aliases_of(skill, aliases)]) for skill in skills],
        [skill.description for skill in skills],
        [skill.sections or "" for skill in skills],  # a search scan always has them: see rank.py
        [changed[number][1] for number in numbers],
    ]
    return [dict(zip(numbers, map(words, field_texts))) for field_texts in texts]


def _refilled(fields: Sequence[PostingsField], documents: Sequence[Mapping[int, list[str]]]) -> list[PostingsField]:
    return [replaced(field, words) if words else field for field, words in zip(fields, documents)]


def renumbered(field: PostingsField, places: Sequence[int | None], count: int) -> PostingsField:
    """``field`` of ``count`` skills, each skill's postings under its new number ``places[old]``.

    The skills gone (None) must hold no word any more (``replaced`` with no words).
    """
    lengths = array("q", bytes(8 * count))
    for old, place in enumerate(places):
        if place is not None:
            lengths[place] = field.lengths[old]
    moves = {str(old).encode(): str(place).encode() for old, place in enumerate(places) if place not in (None, old)}
    return PostingsField(_moved(field.text, moves) if moves else field.text, lengths, field.weight)


def _moved(text: bytes, moves: Mapping[bytes, bytes]) -> bytes:
    """``text`` with each skill number in ``moves`` replaced by its new one; words and counts untouched."""
    lines = text.split(b"\n")
    for number, line in enumerate(lines):
        word, tab, cells = line.rpartition(b"\t")  # a word holds no tab: the tokeniser splits on white space
        if tab:
            pieces = cells.split(b",")
            pieces[0::2] = [moves.get(cell, cell) for cell in pieces[0::2]]
            lines[number] = word + tab + b",".join(pieces)
    return b"\n".join(lines)


def replaced(field: PostingsField, documents: Mapping[int, list[str]]) -> PostingsField:
    """``field`` with the words of each skill numbered in ``documents`` replaced by the ones given."""
    text = field.text
    fresh: dict[bytes, dict[int, int]] = {}
    for number, words in documents.items():
        for held, count in Counter(words).items():
            fresh.setdefault(held.encode("utf-8", "surrogatepass"), {})[number] = count
    spans = dict(_lines_holding(text, documents))  # the lines a changed skill held a word on
    for word in fresh.keys() - spans.keys():  # the lines it holds a word on now; an empty span for a new word
        start = _first_line_from(text, word)
        spans[word] = (start, text.index(b"\n", start + 1) if text.startswith(b"\n" + word + b"\t", start) else start)
    pieces, position = [], 0
    for word in sorted(spans):  # the lines' order, so the edits come in the text's order
        start, end = spans[word]
        pairs = _pairs(text[start + len(word) + 2 : end]) if end > start else {}
        for number in pairs.keys() & documents.keys():
            del pairs[number]
        pairs.update(fresh.get(word, {}))
        pieces += [text[position:start], _line(word, pairs)]
        position = end
    pieces.append(text[position:])
    lengths = array("q", field.lengths)
    for number, words in documents.items():
        lengths[number] = len(words)
    return PostingsField(b"".join(pieces), lengths, field.weight)


def _lines_holding(text: bytes, numbers: Collection[int]) -> Iterator[tuple[bytes, tuple[int, int]]]:
    """The word and the span of each line that holds one of the skills ``numbers``.

    A line is ``word<TAB>skill,count,skill,count``: whole pairs are stepped
    over, so a count that equals a changed skill's number does not bring its
    line in (which would cost time, not correctness: a line is rewritten
    from what it holds).
    """
    if not numbers:
        return
    starts = _candidate_lines(text, numbers)
    if starts is not None:
        held = {str(number).encode() for number in numbers}
        for start in sorted(starts):
            end = text.index(b"\n", start + 1)
            word, _, cells = text[start + 1 : end].rpartition(b"\t")
            if not held.isdisjoint(cells.split(b",")[0::2]):
                yield word, (start, end)
        return
    alternatives = _trie({str(number) for number in numbers}).encode()
    pattern = re.compile(rb"\n([^\t\n]*)\t(?:[0-9]+,[0-9]+,)*?" + alternatives + rb",")
    for match in pattern.finditer(text):
        yield match.group(1), (match.start(), text.index(b"\n", match.end()))


def _candidate_lines(text: bytes, numbers: Collection[int]) -> set[int] | None:
    """Where each line that may hold one of ``numbers`` starts (its '\\n'); None when too many may.

    A skill's number is found as text ("\\t950," or ",950,"), each a few hundred
    times; a count can look the same, so the caller checks each line. For a
    number that many counts share (1, 2, 12) the pattern that steps over whole
    pairs is cheaper than checking thousands of lines.
    """
    starts: set[int] = set()
    for number in numbers:
        for needle in (b"\t%d," % number, b",%d," % number):
            position = text.find(needle)
            while position != -1:
                starts.add(text.rfind(b"\n", 0, position))
                if len(starts) > CANDIDATE_LINES:
                    return None
                position = text.find(needle, position + 1)
    return starts


def _trie(numbers: set[str]) -> str:
    """``numbers`` as one regular expression that reads a number a digit at a time, not each number in turn."""
    heads: dict[str, set[str]] = {}
    for number in numbers - {""}:
        heads.setdefault(number[0], set()).add(number[1:])
    if not heads:
        return ""
    branches = "|".join(head + _trie(tails) for head, tails in sorted(heads.items()))
    return f"(?:{branches})" + ("?" if "" in numbers else "")


def _first_line_from(text: bytes, key: bytes) -> int:
    """Where the first line whose word is ``key`` or after it starts (its '\\n'); the final '\\n' when none is."""
    low, high = 0, len(text) - 1  # lines before low sort before key; the line at high and after do not
    while low < high:
        start = text.rfind(b"\n", low, (low + high) // 2 + 1)
        if text[start + 1 : text.index(b"\t", start + 1)] < key:
            low = text.index(b"\n", start + 1)
        else:
            high = start
    return low


def _pairs(cells: bytes) -> dict[int, int]:
    numbers = cells.split(b",")
    return dict(zip(map(int, numbers[0::2]), map(int, numbers[1::2])))


def _line(word: bytes, pairs: dict[int, int]) -> bytes:
    if not pairs:  # no skill holds the word any more: its line goes
        return b""
    cells = ",".join(map(str, chain.from_iterable(sorted(pairs.items()))))
    return b"\n" + word + b"\t" + cells.encode()
