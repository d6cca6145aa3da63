"""Skill vectors on disk, keyed by content, so an unchanged skill is never encoded twice.

A key is a hash of the model's name and the text encoded, so a vector can
never be stale: an edited skill or a new model is simply a key not found.
The file lives beside the catalog cache in the git directory (``git
rev-parse --git-path skillmem``), or in the user's cache folder outside a
repository. It is one JSON header line (format, model, dimension, count,
CRC-32 of the rest), then the keys, then the float32 vectors. A file that is
missing, truncated, corrupt, of another model, not a regular file, a link,
not this user's alone (``trust.py``), not sealed to the place it was
written (``seal.read_sealed_file``: one an archive ships in its ``.git``),
or holding a vector that is not finite is ignored and rebuilt, never an
error, and never read past MAX_VECTOR_BYTES. Writes are whole-file and atomic.
"""

from __future__ import annotations

import hashlib
import json
import zlib

import numpy as np

from skillmem_hook.catalog.store.locations import vectors_location
from skillmem_hook.catalog.store.seal import read_sealed_file, write_sealed_quietly

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from numpy.typing import NDArray
    from typing_extensions import TypeAlias

    from skillmem_hook.catalog.catalog import Catalog

    Vectors: TypeAlias = NDArray[np.float32]

FORMAT = "skillmem-vectors-1"
KEY_BYTES = 16
MAX_HEADER_BYTES = 4096
MAX_VECTOR_BYTES = 1024 * 1024 * 1024  # 100,000 skills of 512 dimensions take about 200 MB
MAX_DIMENSION = 1 << 16  # encoders give hundreds


def vector_cache_path(catalog: Catalog, *, cache: bool = True) -> str | None:
    """Where the vectors of this catalog's repository live (``catalog/store/locations.py``); None with --no-cache."""
    return vectors_location(catalog.work_tree) if cache else None


def text_key(model: str, text: str) -> bytes:
    return hashlib.blake2b(f"{model}\n{text}".encode("utf-8", "surrogatepass"), digest_size=KEY_BYTES).digest()


def cached_vectors(
    texts: Sequence[str], model: str, encode: Callable[[list[str]], Vectors], path: str | None
) -> Vectors:
    """One row per text: read from ``path`` where its key is stored, encoded (and then stored) otherwise."""
    keys = [text_key(model, text) for text in texts]
    stored = load_vectors(path, model) if path else {}
    missing = sorted({key: text for key, text in zip(keys, texts) if key not in stored}.items())
    if missing:
        fresh = encode([text for _, text in missing])
        stored.update(zip((key for key, _ in missing), fresh))
        if path:
            save_vectors(path, model, stored, keep=set(keys))
    if not keys:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([stored[key] for key in keys]).astype(np.float32, copy=False)


def load_vectors(path: str, model: str) -> dict[bytes, Vectors]:
    """The vectors stored at ``path`` for ``model``; empty for anything that is not a whole, valid file."""
    try:  # and written here (its seal): vectors an archive ships in its .git would move a ranking
        data, end = read_sealed_file(path, MAX_VECTOR_BYTES)
    except (OSError, ValueError):
        return {}
    cut = data.find(b"\n")
    header_line, payload = data[:cut], data[cut + 1 : end]
    try:
        header = json.loads(header_line[:MAX_HEADER_BYTES])
    except (ValueError, RecursionError):  # deep nesting raises RecursionError
        return {}
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("model") != model:
        return {}
    count, dimension = header.get("count"), header.get("dimension")
    if type(count) is not int or type(dimension) is not int or count < 0 or not 1 <= dimension <= MAX_DIMENSION:
        return {}  # numpy refuses a larger dimension even for no vector
    if len(payload) != count * (KEY_BYTES + 4 * dimension) or zlib.crc32(payload) != header.get("crc"):
        return {}
    matrix = np.frombuffer(payload, dtype="<f4", offset=count * KEY_BYTES).reshape(count, dimension)
    if not np.isfinite(matrix).all():
        return {}
    keys = [payload[n * KEY_BYTES : (n + 1) * KEY_BYTES] for n in range(count)]
    return dict(zip(keys, matrix))


def save_vectors(path: str, model: str, vectors: dict[bytes, Vectors], keep: set[bytes]) -> None:
    """Write the vectors in use, and older ones while they are at most three times as many (a branch switch)."""
    kept = {key: vector for key, vector in vectors.items() if key in keep}
    if len(vectors) <= 4 * len(kept) + 1000:
        kept = vectors
    ordered = sorted(kept)
    dimension = len(next(iter(kept.values()))) if kept else 1
    matrix = np.asarray([kept[key] for key in ordered], dtype="<f4").reshape(len(ordered), dimension)
    payload = b"".join(ordered) + matrix.tobytes()
    header = {"format": FORMAT, "model": model, "dimension": dimension, "count": len(ordered)}
    line = json.dumps({**header, "crc": zlib.crc32(payload)}, separators=(",", ":")).encode()
    write_sealed_quietly(path, line + b"\n", payload)
