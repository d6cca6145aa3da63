"""A search index as bytes and back, so a cold ``skillmem search`` loads it instead of rebuilding it.

Pure: an index in, bytes out, and the other way. The bytes are a header line
(format, the code's fingerprint, the caller's key, the payload's length and
CRC-32), then one JSON document, then blocks: the skills, one JSON row a
line, the caller's extra bytes, and each field's text. Anything else (another version, another key,
damage) raises ValueError, and the caller builds anew. Where the file lives
and when it is stale is the caller's business (``search/store.py``).

A skill's row is read when the skill is first asked for (``StoredSkills``):
a route prompt ranks 2,000 skills and names at most three, and parsing
every row (the descriptions, with their ASCII escapes) and making every
``Skill`` cost it more than the query did.
"""

from __future__ import annotations

import json
import math
import zlib
from array import array

from skillmem_hook.catalog.placement.domains import Placement
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.catalog.store.trust import leaves_root
from skillmem_hook.search.fields import PostingsField, ScannedField, StoredIndexError
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.tuning import Tuning

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Sequence
    from typing import Any

# 3: each skill's number in the postings stored (a patched index keeps numbers while skills come and go); the
# skills in a block of rows, read when asked for; the extra a block of its own. 4: the numbers of the skills
# described in English (``rank.described_in_english``), so a query need not read their descriptions. 5: words
# cut with the default-ignorable characters dropped (``tokenize._normalized``): a 4's postings hold split words.
# 6: the snapshot the store keeps beside it (its extra) stamps the roots with (mtime, size) alone, as every path
FORMAT = "skillmem-search-index-6"


def index_to_bytes(index: SearchIndex, key: str, extra: bytes = b"", rows: Sequence[bytes] | None = None) -> bytes:
    """The index, its ``key`` (what it was built from, as the caller says it) and ``extra`` bytes the caller keeps.

    ``extra`` is a block of its own, given back as it was: a caller may compare it without parsing it. ``rows``:
    each skill's ``row_bytes``, in the index's order, when the caller has made them already (a patch compares them).
    """
    if rows is not None and len(rows) != len(index.skills):
        raise ValueError("a row for each skill of the index")
    rows_block = b"\n".join(map(row_bytes, index.skills) if rows is None else rows)
    fields = [_field_json(field) for field in index.fields]
    # The long texts go after the JSON as raw UTF-8: decoding them costs a fraction of parsing them as JSON strings.
    blocks = [rows_block, extra] + [field.text for field in index.fields]
    document = {
        "tuning": index.tuning.values(),
        "skills": len(index.skills),
        "numbers": index.numbers,
        "english": sorted(index.english),
        "fields": fields,
        "blocks": [len(block) for block in blocks],
    }
    meta = json.dumps(document, separators=(",", ":")).encode("ascii")
    payload = b"\n".join([meta, *blocks])
    return f"{FORMAT} {_safe(key)} {len(payload)}-{zlib.crc32(payload):08x}\n".encode() + payload


def index_from_bytes(
    data: bytes, key: str, roots: Collection[str] | None = None, end: int | None = None
) -> tuple[SearchIndex, bytes]:
    """The index and the caller's ``extra``; ValueError when the bytes are not an index of this key and version.

    ``roots``: the roots the index was built from; a row of another root, or whose folder leaves its root, is
    refused when it is read (``StoredRowError``), as the route index refuses one. None: any root. ``end``: where
    the index ends in ``data`` (a kept file's seal follows it, ``seal.read_sealed_file``); None: at its end.
    """
    # Positions, not partitions: a copy of a large index costs as much as the query.
    end = len(data) if end is None else end
    payload = data.find(b"\n") + 1
    size = end - payload
    checksum = zlib.crc32(memoryview(data)[payload:end])
    if payload == 0 or data[: payload - 1] != f"{FORMAT} {_safe(key)} {size}-{checksum:08x}".encode():
        raise ValueError("not a search index of this version and key, or damaged")
    meta = data.find(b"\n", payload) + 1
    try:
        document = json.loads(data[payload : meta - 1] if meta else b"")
        (start, stop), (extra_start, extra_end), *spans = _blocks(end, meta, document["blocks"])
        tuning = _tuning(document["tuning"])
        skills = StoredSkills(data[start:stop].split(b"\n") if stop > start else [], roots)
        numbers = _whole_numbers(document["numbers"])
        english = _whole_numbers(document["english"])
        if len(skills) != document["skills"] or len(spans) != len(document["fields"]):
            raise TypeError("a row for each skill, a block for each field")
        fields = [_field(raw, data, span) for raw, span in zip(document["fields"], spans)]
        index = SearchIndex(skills, fields, tuning, numbers, english)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError, OverflowError, RecursionError) as error:
        # The checksum finds damage, not a forgery: whatever the document holds (a number past 64 bits, an
        # infinity, brackets nested past json's depth) makes a bad index, never an error of another kind.
        raise ValueError(f"a search index of another shape: {type(error).__name__}: {error}") from None
    return index, data[extra_start:extra_end]


def _tuning(raw: dict[str, Any]) -> Tuning:
    """The stored knobs, each of its default's type and finite: a forged ``k1`` of NaN would print NaN scores.

    And BM25's two within their range: ``k1`` not negative, each field's ``b`` from 0 to 1. A negative ``k1``
    turns a word's score over (-1 scores every hit 0; nearer 0, a weighed count equal to ``-k1`` divides by
    zero); a ``b`` past 1 makes a long text's length norm negative: scores of another sign, or none.
    """
    defaults = Tuning().values()
    for name, value in raw.items():
        default = defaults.get(name)
        if type(default) is bool:
            kinds: tuple[type, ...] = (bool,)
        elif type(default) is int:
            kinds = (int,)
        else:
            kinds = (int, float)
        if type(value) not in kinds or not math.isfinite(value):
            raise TypeError(f"a tuning knob {name!r} of another type, or not finite")
        if (name == "k1" and value < 0) or (name.endswith("_b") and not 0 <= value <= 1):
            raise ValueError(f"a tuning knob {name!r} out of its range")
    return Tuning(**raw)


def _whole_numbers(raw: list[object]) -> list[int]:
    """Skill numbers as JSON integers: ``int`` would take a float, and raise OverflowError at an infinity."""
    if not isinstance(raw, list) or not all(type(number) is int for number in raw):
        raise TypeError("skill numbers of another type")
    return raw  # type: ignore[return-value]  # checked above


def _safe(key: str) -> str:
    """The key as one header word: a checksum, so no space or line break in a path can split the header."""
    return f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}{len(key)}"


def _blocks(end: int, start: int, sizes: list[int]) -> list[tuple[int, int]]:
    """Where each block lies in the data, which ends at ``end``: read in place, not cut out (a copy of 10 MB at
    2,000 skills)."""
    if not start or start + sum(sizes) + len(sizes) - 1 != end:
        raise TypeError("blocks of other sizes")
    spans = []
    for size in sizes:
        spans.append((start, start + size))
        start += size + 1
    return spans


def _field_json(field: ScannedField | PostingsField) -> dict[str, object]:
    if isinstance(field, ScannedField):
        kind = {"kind": "scanned", "starts": field.starts.tolist()}
    else:
        kind = {"kind": "postings"}
    return {**kind, "lengths": field.lengths.tolist(), "w": field.weight}


def _field(raw: dict[str, Any], data: bytes, span: tuple[int, int]) -> ScannedField | PostingsField:
    """One field; ``SearchIndex`` checks that every field holds a length for each number."""
    lengths = array("q", raw["lengths"])  # OverflowError past 64 bits
    weight = float(raw["w"])
    if (lengths and min(lengths) < 0) or not math.isfinite(weight):
        raise ValueError("a field of a negative length or a weight not finite")
    start, end = span
    if raw["kind"] == "postings":
        # Lines from a line break to a line break, as a build writes them: a lookup's binary search steps from
        # one to the next, and one before the field's start would read another block's bytes.
        if end <= start or data[start] != NEWLINE or data[end - 1] != NEWLINE:
            raise ValueError("a postings field that does not start and end with a line break")
        return PostingsField(data, lengths, weight, start, end)
    starts = array("q", raw["starts"])
    if len(starts) != len(lengths):
        raise TypeError("a field of another number of skills")
    text = data[start:end]
    # Each skill's text from its start to the next's: the first at 0, each after the last one's line break,
    # in order and within the text; else a word found is given to no skill (-1, the last) or to another.
    if starts and (
        starts[0] != 0
        or any(after <= before or text[after - 1] != NEWLINE for before, after in zip(starts, starts[1:]))
        or starts[-1] > len(text)
    ):
        raise ValueError("a scanned field's starts out of order or past its text")
    return ScannedField(text, starts, lengths, weight)


NEWLINE = ord("\n")


class StoredRowError(StoredIndexError):
    """A stored skill row that is not one ``_row`` writes: its index is a bad index, to ignore and build anew.

    Raised when the row is first read, which may be at a query's hits, after the index was loaded: every
    reader of a stored index catches StoredIndexError there too (``search_store.load_or_build``'s callers), which
    a forged postings line raises at a query (``fields.PostingsField``).
    """


class StoredSkills:
    """The stored index's skills, each made from its row when first asked for, then kept (one object per skill).

    The checksum and the code's fingerprint in the header hold off damage, not
    a forgery (whoever can write the file can recompute the checksum): a row
    of another shape, of a root not among ``roots`` or whose folder leaves
    its root raises StoredRowError when it is made, which every reader of a
    stored index treats as a bad index (no hint, a build anew).
    """

    __slots__ = ("_made", "_roots", "_rows")

    def __init__(self, rows: list[bytes], roots: Collection[str] | None = None) -> None:
        self._rows = rows
        self._roots = None if roots is None else frozenset(roots)
        self._made: list[Skill | None] = [None] * len(rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, number: int) -> Skill:
        """The skill of row ``number``; ValueError when the row is not what ``_row`` writes (a forged index)."""
        skill = self._made[number]
        if skill is None:
            try:
                row = json.loads(self._rows[number])
            except RecursionError:
                raise StoredRowError("a stored skill row nested too deep") from None
            except ValueError as error:
                raise StoredRowError(f"a stored skill row that is not JSON: {error}") from None
            skill = _skill(row)
            if (self._roots is not None and skill.root not in self._roots) or leaves_root(skill.path):
                raise StoredRowError("a stored skill row names a folder outside its roots")
            self._made[number] = skill
        return skill

    def __iter__(self) -> Iterator[Skill]:
        return map(self.__getitem__, range(len(self._rows)))

    def row(self, number: int) -> bytes:
        """Row ``number`` as stored, not parsed: ``row_bytes`` of its skill, unless the index was forged."""
        return self._rows[number]


def row_bytes(skill: Skill) -> bytes:
    """The skill's row as the index stores it: equal bytes, an equal skill as a stored index makes it."""
    # ASCII escapes: a path from a folder name that is not UTF-8 holds surrogates, which UTF-8 cannot encode.
    # One row a line (JSON escapes every line break), so a row is found without parsing the others.
    return json.dumps(_row(skill), separators=(",", ":")).encode("ascii")


def _row(skill: Skill) -> list[object]:
    return [skill.name, skill.root, skill.path, list(skill.placement), skill.description]


def _skill(row: object) -> Skill:
    """The skill of a row as ``_row`` writes it; ValueError for any other (a row rewritten with its checksum)."""
    if not isinstance(row, list) or len(row) != len(_ROW_FIELDS) or not _all_text(row[:3]) or not _all_text(row[4:]):
        raise StoredRowError(f"a stored skill row of another shape (not {', '.join(_ROW_FIELDS)})")
    name, root, path, placement, description = row
    if not isinstance(placement, list) or len(placement) != 3 or not _all_text(placement):  # domain, field, keyword
        raise StoredRowError("a stored skill row whose placement is of another shape")
    return Skill(name=name, description=description, path=path, root=root, warnings=[], placement=Placement(*placement))


_ROW_FIELDS = ("name", "root", "path", "placement", "description")


def _all_text(values: list[object]) -> bool:
    return all(type(value) is str for value in values)
