"""The index's fields: short texts scanned whole (name, description, sections), and the body's postings.

Pure. Both answer ``counts(word)``: how often a search word occurs in each
skill's text that holds it. Both are UTF-8 bytes and integer arrays, so a
stored index (``stored.py``) loads them without decoding or rebuilding
anything; UTF-8 finds a word's bytes exactly where its characters are.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import Counter

from skillmem_hook.search.sorted_lines import value_of
from skillmem_hook.search.tokenize import pattern_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class ScannedField:
    """One field of every skill, as one text the query scans: no vocabulary to build or keep."""

    __slots__ = ("lengths", "starts", "text", "weight")

    def __init__(self, text: bytes, starts: array[int], lengths: array[int], weight: float) -> None:
        self.text = text
        self.starts = starts
        self.lengths = lengths
        self.weight = weight

    @classmethod
    def of(cls, texts: list[tuple[str, int]], weight: float) -> ScannedField:
        """From each skill's ``searchable`` form (text, word count)."""
        starts = array("q")
        position = 0
        encoded = [text.encode("utf-8", "surrogatepass") for text, _ in texts]
        for text in encoded:
            starts.append(position)
            position += len(text) + 1
        return cls(b"\n".join(encoded), starts, array("q", (length for _, length in texts)), weight)

    def counts(self, word: str) -> dict[int, int]:
        """How often ``word`` occurs in each skill's text that holds it (overlaps count)."""
        found: dict[int, int] = {}
        pattern = pattern_of(word).encode("utf-8", "surrogatepass")
        find, starts = self.text.find, self.starts
        position = find(pattern)
        while position != -1:
            number = bisect_right(starts, position) - 1
            found[number] = found.get(number, 0) + 1
            position = find(pattern, position + 1)
        return found

    def holders(self, word: str) -> int:
        """How many skills' texts hold ``word``."""
        return len(self.counts(word))


class PostingsField:
    """A long field (the body) as an inverted index, so a query word costs one lookup, not a scan.

    Kept as one text of ``"\\nword\\tskill,count,skill,count"`` lines: a stored
    index loads it as it is, and a lookup is a binary search over its lines
    (``sorted_lines.py``). A stored index's lines are read where they lie in
    the file's bytes, ``source[start:end]``: cutting out the four fields'
    texts copied 10 MB at 2,000 skills, and a route prompt reads twenty lines.
    """

    __slots__ = ("end", "lengths", "source", "start", "weight")

    def __init__(self, text: bytes, lengths: array[int], weight: float, start: int = 0, end: int | None = None) -> None:
        self.source = text
        self.start = start
        self.end = len(text) if end is None else end
        self.lengths = lengths
        self.weight = weight

    @property
    def text(self) -> bytes:
        """The field's lines: cut out of a stored index's bytes only for a patch or a write."""
        if self.start == 0 and self.end == len(self.source):
            return self.source
        return self.source[self.start : self.end]

    @classmethod
    def of(cls, documents: Iterable[list[str]], weight: float) -> PostingsField:
        """From each skill's search words (``tokens``), in skill order."""
        postings: dict[str, list[str]] = {}
        lengths = array("q")
        for number, words in enumerate(documents):
            lengths.append(len(words))
            # Counter counts in C. A skill's few distinct counts give its few "skill,count"
            # strings, shared by its words: a Chinese body holds about 450 distinct words,
            # and a string for each cost the Chinese collection 0.35 s of its 2.5 s build.
            counted = Counter(words)
            cells = {count: f"{number},{count}" for count in set(counted.values())}
            for word, count in counted.items():
                rows = postings.get(word)
                if rows is None:
                    postings[word] = [cells[count]]
                else:
                    rows.append(cells[count])
        text = "".join([f"\n{word}\t{','.join(postings[word])}" for word in sorted(postings)]) + "\n"
        return cls(text.encode("utf-8", "surrogatepass"), lengths, weight)

    def counts(self, word: str) -> dict[int, int]:
        found = value_of(self.source, word.encode("utf-8", "surrogatepass"), self.start, self.end)
        if found is None:
            return {}
        numbers = found.split(b",")
        return dict(zip(map(int, numbers[0::2]), map(int, numbers[1::2])))

    def holders(self, word: str) -> int:
        """How many skills' texts hold ``word``: ``len(counts(word))``, counted without parsing a number."""
        found = value_of(self.source, word.encode("utf-8", "surrogatepass"), self.start, self.end)
        return 0 if found is None else (found.count(b",") + 1) // 2
