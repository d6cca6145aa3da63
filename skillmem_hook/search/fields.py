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
from operator import le

from skillmem_hook.search.sorted_lines import value_of
from skillmem_hook.search.tokenize import pattern_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class StoredIndexError(ValueError):
    """A part of a stored index, read when first asked for, that no build writes: the index is a bad one.

    The checksum finds damage, not a forgery: whoever can write the file can
    recompute it. A row (``stored.StoredRowError``) or a postings line is read
    lazily, at a query, so every reader of a stored index catches this there,
    ignores the index and builds anew (``search_store.load_or_build``'s callers).
    """


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
        """How often ``word`` occurs in each skill's text that holds it; StoredIndexError for a forged line."""
        found = self._line(word)
        return {} if found is None else self._pairs(found)

    def holders(self, word: str) -> int:
        """How many skills' texts hold ``word``: ``len(counts(word))``, counted without parsing a number."""
        found = self._line(word)
        return 0 if found is None else (found.count(b",") + 1) // 2

    def _line(self, word: str) -> bytes | None:
        try:
            return value_of(self.source, word.encode("utf-8", "surrogatepass"), self.start, self.end)
        except ValueError:  # no tab after a line's word: no build writes such a line
            raise StoredIndexError("a stored postings line without its tab") from None

    def _pairs(self, found: bytes) -> dict[int, int]:
        """A line's ``skill,count`` pairs, each skill a number the field holds a length for and each count
        between 1 and that length (a word occurs in a text at most as often as the text has words).

        Checked with builtins over the whole line, not pair by pair in Python: a common word's line holds a
        pair for most skills, and a warm query reads twenty lines.
        """
        cells = found.split(b",")
        try:
            pairs = dict(zip(map(int, cells[0::2]), map(int, cells[1::2])))
            if (
                len(pairs) * 2 == len(cells)  # whole pairs, each skill once
                and min(pairs) >= 0
                and min(pairs.values()) >= 1
                and all(map(le, pairs.values(), map(self.lengths.__getitem__, pairs)))
            ):
                return pairs
        except (ValueError, IndexError):  # not a number (ValueError), or a skill past the last (IndexError)
            pass
        raise StoredIndexError("a stored postings line of another shape: a count or a skill no build writes")

    def check(self) -> None:
        """Every line read as a query reads it (StoredIndexError for a forged one): what a reader that keeps
        the index for many queries, or the build that must replace a bad index, asks once."""
        source, end = self.source, self.end
        position = self.start
        while position < end - 1:
            tab = source.find(b"\t", position + 1, end)
            stop = source.find(b"\n", position + 1, end)
            if tab == -1 or stop == -1 or tab > stop:
                raise StoredIndexError("a stored postings line without its tab")
            self._pairs(source[tab + 1 : stop])
            position = stop
