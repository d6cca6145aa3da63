"""The seal on a kept file: the inode and change time of the very file written, inside its checksum.

A kept file's checksum finds damage, not forgery, and what it keeps is
anyone's to reproduce: an archive's ``.git`` can ship a cache that gives a
tracked SKILL.md another description, or an index that sends a prompt to
another skill. So every kept file is sealed to the place it was written:
its writer takes the ``fstat`` of its temporary file once the body is
written and carries the checksum on over that inode and change time. A read
compares them with the ``fstat`` its trust check makes anyway: the same
inode, and a change time no earlier and at most SEALED_SECONDS later (the
rest of the write and the rename, which moves it on some file systems). A
file unpacked or copied here is a new inode changed at that moment, so it
is refused and rebuilt. No system call is added on either side.

Two forms, one rule. A file of records (the cache and the snapshot,
``records.py``) ends in a JSON trailer: the checksum of every line before
it, their count, the inode and the change time (``trailer_line``,
``trailer_sealed_here``). A file written whole (the search and route
indexes, the vectors) ends in a line of its own after its body: the inode,
the change time and the checksum of the file's first line (which holds the
length and checksum of the rest) carried on over them (``seal_line``,
``write_sealed_quietly``, ``read_sealed_file``).
"""

from __future__ import annotations

import os
import zlib

from skillmem_hook.catalog.store.trust import read_kept, replace_kept_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

# A writer's fstat comes before its seal's line, its close and its rename: a stall (a suspended process) past
# this costs one rebuild; an archive must guess the moment it is unpacked within it, and the inode besides.
SEALED_SECONDS = 5
# A file written whole ends so, after its body and a line break.
_SEAL = b"sealed %d %d %08x\n"
# A file of records ends so: the checksum of every line before it (carried on over the seal), their count, the seal.
_TRAILER = b'{"crc":%d,"records":%d,"inode":%d,"changed":%d}\n'


def trailer_line(running: int, count: int, inode: int, changed: int) -> bytes:
    """A file of records' last line: its checksum covers the seal too, so a changed byte there is seen as anywhere
    else."""
    return _TRAILER % (with_seal(running, inode, changed), count, inode, changed)


def trailer_sealed_here(trailer: bytes, running: int, count: int, status: os.stat_result) -> bool:
    """Whether ``trailer`` ends these lines and was written into this very file (``status``, its fstat)."""
    changed = trailer[trailer.rfind(b":") + 1 : -2]
    return (
        changed.isdigit()
        and trailer == trailer_line(running, count, status.st_ino, int(changed))
        and written_then(int(changed), status)
    )


def write_sealed_quietly(path: str, *chunks: bytes) -> None:
    """Replace the file with the chunks, a line break and their seal (``seal_line``), the temporary file's own
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

    replace_kept_file(path, fill)


def read_sealed_file(path: str, limit: int) -> tuple[bytes, int]:
    """The bytes of a kept file ``write_sealed_quietly`` wrote, and where its body ends (at the line break before
    its seal's line).

    OSError as ``trust.read_kept`` raises it (missing, a link, not this user's alone, too large); ValueError
    unless the last line seals the file to the very file read: its inode, a change time no earlier than the
    seal's and at most SEALED_SECONDS later (``written_then``), and the checksum of the first line carried on
    over both.
    """
    data, status = read_kept(path, limit)
    first = data.find(b"\n") + 1
    end = data.rfind(b"\n", 0, len(data) - 1)  # the body ends here, the line break before the seal's line
    line = data[end + 1 :]
    changed = line.split(b" ")[2] if line.count(b" ") == 3 else b""
    if not (
        0 < first <= end
        and changed.isdigit()
        and line == seal_line(data[:first], status.st_ino, int(changed))
        and written_then(int(changed), status)
    ):
        raise ValueError(f"{path} is not sealed, or was not written here")
    return data, end


def seal_line(first_line: bytes, inode: int, changed: int) -> bytes:
    """The last line of a kept file written whole: the ``inode`` and change time (``changed``) its writer's fstat of
    the temporary file gave, and the checksum of the file's ``first_line`` carried on over them (``with_seal``)."""
    return _SEAL % (inode, changed, with_seal(zlib.crc32(first_line), inode, changed))


def with_seal(running: int, inode: int, changed: int) -> int:
    """The checksum ``running`` carried on over a seal: every kept file's seal is inside its checksum, so one
    changed digit of it is seen as anywhere else."""
    return zlib.crc32(b"%d,%d" % (inode, changed), running)


def written_then(changed: int, status: os.stat_result) -> bool:
    """Whether the file a read's ``fstat`` gave ``status`` was last changed within SEALED_SECONDS after ``changed``,
    the change time its writer's fstat gave (the inode is compared where the seal's line is)."""
    return 0 <= status.st_ctime_ns - changed <= SEALED_SECONDS * 1_000_000_000
