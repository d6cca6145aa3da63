"""A search index as bytes and back, so a cold ``skillmem search`` loads it instead of rebuilding it.

Pure: an index in, bytes out, and the other way. The bytes are a header line
(format, the code's fingerprint, the caller's key, the payload's length and
CRC-32), then one JSON document. Anything else (another version, another
key, damage) raises ValueError, and the caller builds anew. Where the file
lives and when it is stale is the caller's business (``search/store.py``).
"""

from __future__ import annotations

import json
import zlib
from array import array

from skillmem_hook.catalog.placement.domains import Placement
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.fields import PostingsField, ScannedField
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.tuning import Tuning

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# 2: each skill's number in the postings is stored (a patched index keeps numbers while skills come and go)
FORMAT = "skillmem-search-index-2"


def index_to_bytes(index: SearchIndex, key: str, extra: object = None) -> bytes:
    """The index, its ``key`` (what it was built from, as the caller says it) and ``extra`` JSON the caller keeps."""
    skills = [[skill.name, skill.root, skill.path, list(skill.placement), skill.description] for skill in index.skills]
    fields = [_field_json(field) for field in index.fields]
    # The long texts go after the JSON as raw UTF-8: decoding them costs a fraction of parsing them as JSON strings.
    blocks = [field.text for field in index.fields]
    document = {
        "tuning": index.tuning.values(),
        "skills": skills,
        "numbers": index.numbers,
        "fields": fields,
        "blocks": [len(block) for block in blocks],
        "extra": extra,
    }
    # ASCII escapes: a path from a folder name that is not UTF-8 holds surrogates, which UTF-8 cannot encode.
    meta = json.dumps(document, separators=(",", ":")).encode("ascii")
    payload = b"\n".join([meta, *blocks])
    return f"{FORMAT} {_safe(key)} {len(payload)}-{zlib.crc32(payload):08x}\n".encode() + payload


def index_from_bytes(data: bytes, key: str) -> tuple[SearchIndex, object]:
    """The index and the caller's ``extra``; ValueError when the bytes are not an index of this key and version."""
    # Positions, not partitions: a copy of a large index costs as much as the query.
    payload = data.find(b"\n") + 1
    size = len(data) - payload
    checksum = zlib.crc32(memoryview(data)[payload:])
    if payload == 0 or data[: payload - 1] != f"{FORMAT} {_safe(key)} {size}-{checksum:08x}".encode():
        raise ValueError("not a search index of this version and key, or damaged")
    meta = data.find(b"\n", payload) + 1
    try:
        document = json.loads(data[payload : meta - 1] if meta else b"")
        texts = _blocks(data, meta, document["blocks"])
        tuning = Tuning(**document["tuning"])
        skills = [_skill(*row) for row in document["skills"]]
        numbers = [int(number) for number in document["numbers"]]
        if len(texts) != len(document["fields"]):
            raise TypeError("a block for each field")
        fields = [_field(raw, text) for raw, text in zip(document["fields"], texts)]
        index = SearchIndex(skills, fields, tuning, numbers)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise ValueError(f"a search index of another shape: {error}") from None
    return index, document["extra"]


def _safe(key: str) -> str:
    """The key as one header word: a checksum, so no space or line break in a path can split the header."""
    return f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}{len(key)}"


def _blocks(data: bytes, start: int, sizes: list[int]) -> list[bytes]:
    if not start or start + sum(sizes) + len(sizes) - 1 != len(data):
        raise TypeError("blocks of other sizes")
    texts = []
    for size in sizes:
        texts.append(data[start : start + size])
        start += size + 1
    return texts


def _field_json(field: ScannedField | PostingsField) -> dict[str, object]:
    if isinstance(field, ScannedField):
        kind = {"kind": "scanned", "starts": field.starts.tolist()}
    else:
        kind = {"kind": "postings"}
    return {**kind, "lengths": field.lengths.tolist(), "w": field.weight}


def _field(raw: dict[str, Any], text: bytes) -> ScannedField | PostingsField:
    """One field; ``SearchIndex`` checks that every field holds a length for each number."""
    lengths = array("q", raw["lengths"])
    weight = float(raw["w"])
    if raw["kind"] == "postings":
        return PostingsField(text, lengths, weight)
    starts = array("q", raw["starts"])
    if len(starts) != len(lengths):
        raise TypeError("a field of another number of skills")
    return ScannedField(text, starts, lengths, weight)


def _skill(name: str, root: str, path: str, placement: list[str], description: str) -> Skill:
    return Skill(name=name, description=description, path=path, root=root, warnings=[], placement=Placement(*placement))
