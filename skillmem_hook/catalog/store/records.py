"""A file of records, written and read one line at a time under one checksum: the cache's and the snapshot's form.

At 100,000 skills each file is some 40 MB of JSON; serialised or parsed
whole, the text and its objects were most of a run's peak memory. Here no
more than one record is held as text at a time. Line 1 is a JSON header, each
record is one line (a record never holds a raw line feed), and the last line
is a trailer with the CRC-32 of every line before it and their count, so
one changed byte anywhere, a file cut short or records added are all seen:
the reader raises DamagedFile once it reaches the end, and the caller drops
whatever it built from the records. The file is replaced atomically.

The checksum finds damage, not forgery, and the records' keys (blob ids) are
anyone's to reproduce: an archive's ``.git`` can ship a cache that gives a
tracked SKILL.md another description. So the trailer also seals the file to
the place it was written: the inode and change time the writer's ``fstat``
of its temporary file gave as the last line was due. A read compares them
with the ``fstat`` it makes anyway: the same inode, and a change time no
earlier and at most SEALED_SECONDS later (the rest of the write and the
rename, which moves it on some file systems). A file unpacked or copied
here is a new inode changed at that moment, so it is refused and rebuilt.

The kept files written whole (the search and route indexes, the vectors) carry
the same seal, checked the same way (``write_sealed_quietly`` here,
``trust.read_sealed_file``): a last line with the inode and change time of the
temporary file, the checksum of the file's first line (which holds the
length and checksum of the rest) carried on over them. One answer to "was
this kept file written here?" for every file skillmem keeps where an archive
can put one.
"""

from __future__ import annotations

import os
import stat
import time
import zlib

from skillmem_hook.catalog.store.json_text import loads
from skillmem_hook.catalog.store.trust import (
    KEPT_FILE_MODE,
    make_private_folder,
    owned_privately,
    seal_line,
    with_seal,
    written_then,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
    from typing import BinaryIO

_TRAILER = b'{"crc":%d,"records":%d,"inode":%d,"changed":%d}\n'
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
    yield _trailer(running, count, status.st_ino, status.st_ctime_ns)


def _trailer(running: int, count: int, inode: int, changed: int) -> bytes:
    """The last line: its checksum covers the seal too, so a changed byte there is seen as anywhere else."""
    return _TRAILER % (with_seal(running, inode, changed), count, inode, changed)


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
        if not _sealed_here(held, running, count, info):
            raise DamagedFile("checksum, count or end does not match, or the file was not written here")


def _sealed_here(trailer: bytes, running: int, count: int, status: os.stat_result) -> bool:
    """Whether ``trailer`` ends these lines and was written into this very file (``status``, its fstat)."""
    changed = trailer[trailer.rfind(b":") + 1 : -2]
    return (
        changed.isdigit()
        and trailer == _trailer(running, count, status.st_ino, int(changed))
        and written_then(int(changed), status)
    )


def write_records_quietly(path: str, header: Mapping[str, object], records: Iterable[bytes]) -> None:
    """``write_lines_quietly`` of ``framed`` lines, sealed with the temporary file's own fstat."""
    _replace_quietly(path, lambda file: file.writelines(framed(header, records, lambda: os.fstat(file.fileno()))))


def write_sealed_quietly(path: str, *chunks: bytes) -> None:
    """Replace the file with the chunks, a line break and their seal (``trust.seal_line``), the temporary file's own
    fstat taken once they are written; any failure leaves the old one. The first chunk holds the file's whole first
    line."""
    first = chunks[0][: chunks[0].find(b"\n") + 1] if chunks else b""
    if not first:
        raise ValueError("a sealed file opens with a line of its own")

    def fill(file: BinaryIO) -> None:
        file.writelines(chunks)
        file.flush()
        status = os.fstat(file.fileno())
        file.write(b"\n" + seal_line(first, status.st_ino, status.st_ctime_ns))

    _replace_quietly(path, fill)


def write_lines_quietly(path: str, lines: Iterable[bytes]) -> None:
    """Replace the file with the lines, streamed to a temporary file and renamed; any failure leaves the old one."""
    _replace_quietly(path, lambda file: file.writelines(lines))


def _replace_quietly(path: str, fill: Callable[[BinaryIO], object]) -> None:
    """Replace the file with what ``fill`` writes to a temporary file, then rename it; any failure leaves the old one.

    Both made and renamed inside the folder opened once, without following a link (``O_NOFOLLOW``): a folder
    that is a link to one of the user's (``.git/skillmem -> ~/.ssh``) gets nothing. A link in the file's own
    place is replaced by the rename, never followed. (Windows, with no folder handles, goes by path.)
    """
    folder, name = os.path.split(path)
    temporary = f"{name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    try:
        if not make_private_folder(folder):
            return
        folder_handle = os.open(folder or ".", _FOLDER_FLAGS) if _BY_HANDLE else None
    except (OSError, ValueError):  # a link (ELOOP), gone, or not a folder
        return
    if folder_handle is None:
        temporary, name = os.path.join(folder, temporary), path
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEPT_FILE_MODE, dir_fd=folder_handle)
        try:
            with os.fdopen(handle, "wb") as file:
                fill(file)
            os.replace(temporary, name, src_dir_fd=folder_handle, dst_dir_fd=folder_handle)
        finally:
            try:  # noqa: SIM105 - contextlib is not loaded on a warm run
                os.unlink(temporary, dir_fd=folder_handle)
            except OSError:  # renamed over the file: the usual end
                pass
    except (OSError, ValueError):  # ValueError: a record that cannot be written (never half a file)
        return
    finally:
        if folder_handle is not None:
            os.close(folder_handle)


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_BY_HANDLE = os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
