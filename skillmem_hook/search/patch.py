"""A built index with a few skills re-indexed: it ranks as a new build does, at the cost of those skills alone.

Pure. When a stored index is stale because a few SKILL.md files were edited,
added or removed, every other skill's postings are kept: the lines of the
words no changed skill holds, before or after, are copied as they are, and
only the others are rewritten. A full build of the Chinese collection
tokenises about 1.7 million words and sorts 140,000 lines; an edit touches a
few hundred lines. Each skill keeps its number while others come and go (a
new one takes a free number, one gone frees its own), so no posting of an
unchanged skill is rewritten: renumbering the skills after an added one cost
more than the rest of the patch. The numbers then differ from a build's, and
nothing the ranker reads depends on them (``rank.SearchIndex``).
"""

from __future__ import annotations

import re
from array import array
from collections import Counter

from skillmem_hook.search.aliases import aliases_of
from skillmem_hook.search.fields import PostingsField
from skillmem_hook.search.rank import SearchIndex, described_in_english
from skillmem_hook.search.sorted_lines import first_line_from

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Mapping, Sequence

    from skillmem_hook.catalog.skills import Skill


# Past this many lines that may hold a changed skill, one regular-expression pass over the text is cheaper.
CANDIDATE_LINES = 4096


def updated(
    index: SearchIndex,
    skills: Sequence[Skill],
    numbers: Sequence[int | None],
    bodies: Mapping[int, str],
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> SearchIndex:
    """``index`` for ``skills`` after skills came, went or changed: an index that ranks as a new build does.

    ``numbers[place]`` is the number ``index`` gives the skill at ``place`` in
    ``skills`` (None: a new skill); ``bodies`` holds the body of each skill,
    by its place, that is new or whose texts changed (every new one). A new
    skill takes the lowest free number; a skill gone frees its number.
    """
    kept = {number for number in numbers if number is not None}
    if len(kept) != len(numbers) - numbers.count(None) or not kept <= set(index.numbers):
        raise ValueError("a number of the index for each skill that stays, each once")
    if any(number is None and place not in bodies for place, number in enumerate(numbers)):
        raise ValueError("a new skill without its body")
    gone = set(index.numbers) - kept
    assigned = _numbered(numbers, sorted(gone | _free(index)), index.slots)
    changed = {assigned[place]: (skills[place], body) for place, body in bodies.items()}
    documents = _words_of(index, changed, aliases or {})
    for words in documents:  # a number gone and not taken again loses every posting
        words.update({number: [] for number in gone - changed.keys()})
    # The English-described: those kept, unchanged, as they were; the changed ones read again.
    english = (index.english - gone - changed.keys()) | {
        number for number, (skill, _) in changed.items() if described_in_english(skill.description)
    }
    return SearchIndex(list(skills), list(_refilled(_postings(index), documents)), index.tuning, assigned, english)


def _free(index: SearchIndex) -> set[int]:
    """The numbers the index's fields hold that no skill has (a removed skill's)."""
    return set(range(index.slots)) - set(index.numbers)


def _numbered(numbers: Sequence[int | None], free: list[int], slots: int) -> list[int]:
    """Each skill's number: its own, or for a new skill the lowest ``free`` one, then those from ``slots`` on."""
    spare = iter([*free, *range(slots, slots + numbers.count(None))])
    return [next(spare) if number is None else number for number in numbers]


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


def replaced(field: PostingsField, documents: Mapping[int, list[str]]) -> PostingsField:
    """``field`` with the words of each skill numbered in ``documents`` replaced by the ones given."""
    text = field.text
    fresh: dict[bytes, dict[int, int]] = {}
    for number, words in documents.items():
        for held, count in Counter(words).items():
            fresh.setdefault(held.encode("utf-8", "surrogatepass"), {})[number] = count
    # The lines a changed skill held a word on. Only a number of some length holds any: each count is at least 1
    # and at most its skill's length (``PostingsField._pairs`` refuses any other), so a new skill's number, free
    # or past the last, is never searched for (for an added skill, eight passes over 10 MB that find nothing).
    holding = [number for number in documents if number < len(field.lengths) and field.lengths[number]]
    spans = dict(_lines_holding(text, holding))
    for word in fresh.keys() - spans.keys():  # the lines it holds a word on now; an empty span for a new word
        start = first_line_from(text, word)
        spans[word] = (start, text.index(b"\n", start + 1) if text.startswith(b"\n" + word + b"\t", start) else start)
    changed = [b"%d" % number for number in documents]
    pieces, position = [], 0
    for word in sorted(spans):  # the lines' order, so the edits come in the text's order
        start, end = spans[word]
        cells = text[start + len(word) + 2 : end] if end > start else b""
        pieces += [text[position:start], _line(word, _respliced(cells, changed, fresh.get(word, {})))]
        position = end
    pieces.append(text[position:])
    lengths = array("q", field.lengths)
    lengths.frombytes(bytes(8 * max(0, max(documents, default=-1) + 1 - len(lengths))))  # new numbers past the last
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


def _respliced(cells: bytes, changed: list[bytes], fresh: Mapping[int, int]) -> list[bytes]:
    """A line's ``skill,count`` cells without the skills ``changed`` and with the ``fresh`` ones, in number order.

    Cut and spliced as bytes: a common word's line holds a pair for most of
    2,000 skills, and parsing each into numbers cost most of an edit's patch.
    """
    pieces = cells.split(b",") if cells else []
    numbers, counts = pieces[0::2], pieces[1::2]
    for number in changed:
        try:  # among the numbers alone: a count that reads like a changed skill's number is never taken
            place = numbers.index(number)
        except ValueError:
            continue
        del numbers[place], counts[place]
    for skill, count in sorted(fresh.items()):
        place = _insertion_place(numbers, skill)
        numbers.insert(place, b"%d" % skill)
        counts.insert(place, b"%d" % count)
    cells_out = [b""] * (2 * len(numbers))
    cells_out[0::2], cells_out[1::2] = numbers, counts
    return cells_out


def _insertion_place(numbers: list[bytes], number: int) -> int:
    """Where ``number`` goes among ``numbers`` (ascending, as text): a binary search that reads a dozen of them."""
    low, high = 0, len(numbers)
    while low < high:
        middle = (low + high) // 2
        if int(numbers[middle]) < number:
            low = middle + 1
        else:
            high = middle
    return low


def _line(word: bytes, cells: list[bytes]) -> bytes:
    if not cells:  # no skill holds the word any more: its line goes
        return b""
    return b"\n" + word + b"\t" + b",".join(cells)
