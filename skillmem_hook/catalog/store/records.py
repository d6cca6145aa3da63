"""A file of records, written and read one line at a time under one checksum: the cache's and the snapshot's form.

At 100,000 skills each file is some 40 MB of JSON; serialised or parsed
whole, the text and its objects were most of a run's peak memory. Here no
more than one record is held as text at a time. Line 1 is a JSON header, each
record is one line (a record never holds a raw line feed), and the last line
is a trailer with the CRC-32 of every line before it and their count, so
one changed byte anywhere, a file cut short or records added are all seen:
the reader raises DamagedFile once it reaches the end, and the caller drops
whatever it built from the records. The file is replaced atomically.

The checksum finds damage, not forgery, so the trailer also holds the
seal (``seal.py``: the inode and change time of the very file written,
inside the checksum): a cache or snapshot an archive unpacks, or a copy,
is refused and rebuilt.
"""

from __future__ import annotations

import os
import stat
import zlib

from skillmem_hook.catalog.store.json_text import loads
from skillmem_hook.catalog.store.seal import trailer_line, trailer_sealed_here
from skillmem_hook.catalog.store.trust import owned_privately, replace_kept_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterable, Iterator, Mapping

_BLOCK = 1 << 20
# Records are joined into chunks of about this many bytes, each checksummed and written at once: a call, a
# concatenation and a checksum per record cost the two writes of a cold run at 10,000 skills some 11 ms of CPU.
_CHUNK = 32 * 1024


class DamagedFile(ValueError):
    """The file is not exactly as written: another header, a changed byte, cut short, or too large."""


def checksum(line: bytes | memoryview, running: int = 0) -> int:
    """The running checksum of a file's lines: the one place that decides what a changed byte is."""
    return zlib.crc32(line, running)


def framed(
    header: Mapping[str, object], records: Iterable[bytes], own_status: Callable[[], os.stat_result]
) -> Iterator[bytes]:
    """The file's lines: the header, each record, then the trailer, sealed with ``own_status()`` taken as it is due."""
    import json  # noqa: PLC0415 - a warm run writes nothing, and json loads re

    line = json.dumps(header, separators=(",", ":")).encode("ascii") + b"\n"
    running = checksum(line)
    yield line
    count = held = 0
    batch: list[bytes] = []
    for record in records:
        batch.append(record)
        held += len(record)
        if held >= _CHUNK:
            running, count = yield from _joined(batch, running, count)
            held = 0
    if batch:
        running, count = yield from _joined(batch, running, count)
    status = own_status()
    yield trailer_line(running, count, status.st_ino, status.st_ctime_ns)


def _joined(batch: list[bytes], running: int, count: int) -> Generator[bytes, None, tuple[int, int]]:
    """The batch's lines as one chunk, checksummed at once; the batch is emptied for the next."""
    chunk = b"\n".join(batch) + b"\n"
    count += len(batch)
    batch.clear()
    yield chunk
    return checksum(chunk, running), count


def read_records(path: str, header: Mapping[str, object], limit: int) -> Iterator[bytes]:
    """Each record of the file (its line feed cut), then DamagedFile unless the whole file checks out.

    See ``read_batches``, which this flattens.
    """
    for batch in read_batches(path, header, limit):
        yield from batch


def read_batches(path: str, header: Mapping[str, object], limit: int) -> Iterator[list[bytes]]:
    """The file's records, a block's worth at a time, then DamagedFile unless the whole file checks out.

    Raises DamagedFile at once for another header, OSError for no file or
    a link (opened without following it, as the writer writes: a link swapped
    in after its folder was checked names a file of someone else's choosing),
    DamagedFile for one that is not regular (a FIFO is opened without
    blocking, then refused) and when it holds more than ``limit`` bytes.
    Read in blocks, each checksummed whole: a call per line cost a warm run
    at 10,000 skills some milliseconds.
    """
    handle = os.open(path, _READ_FLAGS)
    with os.fdopen(handle, "rb") as file:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit or not owned_privately(info):
            raise DamagedFile("not a regular file of a sensible size, this user's alone")
        first = file.readline()
        try:
            if loads(first) != header:
                raise DamagedFile("another header")
        except (ValueError, RecursionError):
            raise DamagedFile("no header") from None
        running, count, total, held = checksum(first), 0, len(first), b""
        while block := file.read(_BLOCK):
            total += len(block)
            if total > limit:
                raise DamagedFile("grew past its limit")
            data = held + block
            # The last line is held back, complete or not: at the end it is the trailer, not a record.
            cut = data.rfind(b"\n", 0, len(data) - 1)
            if cut < 0:
                held = data
                continue
            running = checksum(memoryview(data)[: cut + 1], running)
            records = data[:cut].split(b"\n")
            held = data[cut + 1 :]
            count += len(records)
            yield records
        if not trailer_sealed_here(held, running, count, info):
            raise DamagedFile("checksum, count or end does not match, or the file was not written here")


def write_records_quietly(path: str, header: Mapping[str, object], records: Iterable[bytes]) -> None:
    """``write_lines_quietly`` of ``framed`` lines, sealed with the temporary file's own fstat."""
    replace_kept_file(path, lambda file: file.writelines(framed(header, records, lambda: os.fstat(file.fileno()))))


def write_lines_quietly(path: str, lines: Iterable[bytes]) -> None:
    """Replace the file with the lines, streamed to a temporary file and renamed; any failure leaves the old one."""
    replace_kept_file(path, lambda file: file.writelines(lines))


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
