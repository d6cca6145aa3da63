"""A built index with a few skills re-indexed: the very bytes a new build gives, at the cost of those skills alone.

Pure. When a stored index is stale because a few SKILL.md files were edited,
every other skill's postings are kept: the lines of the words no changed
skill holds, before or after, are copied as they are, and only the others
are rewritten. A full build of the Chinese collection tokenises about 1.7
million words and sorts 140,000 lines; an edit touches a few hundred lines.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from itertools import chain

from skillmem_hook.search.aliases import aliases_of
from skillmem_hook.search.fields import PostingsField, ScannedField
from skillmem_hook.search.rank import SearchIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill


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
    if len(skills) != len(index.skills) or len(index.fields) != 4:
        raise ValueError("a patch needs the same skills and a body field")
    words = index.tuning.words
    changed = [skills[number] for number in sorted(bodies)]
    texts = [
        [" ".join([skill.name, *aliases_of(skill, aliases or {})]) for skill in changed],
        [skill.description for skill in changed],
        [skill.sections for skill in changed],
        [bodies[number] for number in sorted(bodies)],
    ]
    fields: list[ScannedField | PostingsField] = []
    for field, field_texts in zip(index.fields, texts):
        if not isinstance(field, PostingsField):
            raise ValueError("a patch needs postings")
        fields.append(replaced(field, dict(zip(sorted(bodies), map(words, field_texts)))))
    return SearchIndex(list(skills), fields, index.tuning)


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
    alternatives = _trie({str(number) for number in numbers}).encode()
    pattern = re.compile(rb"\n([^\t\n]*)\t(?:[0-9]+,[0-9]+,)*?" + alternatives + rb",")
    for match in pattern.finditer(text):
        yield match.group(1), (match.start(), text.index(b"\n", match.end()))


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
