"""Read small regular files safely: never block on a FIFO, never read a device without end.

Shared by the configuration (``.skillmem.yaml``), the prompt files and the
files skillmem writes (read back to write only on change). Only the standard
library and ``errors``, so every wing may use it.
"""

from __future__ import annotations

import os
import stat

from skillmem_hook.errors import FileAccessError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

PROMPT_FILE = "the prompt file"
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def read_regular_file(path: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (links followed); see ``read_regular_file_with_status``."""
    return read_regular_file_with_status(path, limit)[0]


def read_sorted_table(path: str, limit: int) -> bytes:
    """A table of ``"\\nkey\\tvalue"`` lines shipped in the package (search/sorted_lines.py reads it): its bytes, or
    an empty table (one line break) when it is missing, not a regular file, over ``limit`` bytes or not that shape.

    An install without its data, or with a damaged copy, goes on without the table; a FIFO in its place never blocks.
    """
    try:
        data = read_regular_file(path, limit)
    except (OSError, ValueError):
        return b"\n"
    return data if data[:1] == b"\n" and data[-1:] == b"\n" else b"\n"


def read_regular_file_with_status(path: str, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` (links followed), and its status once read.

    Raises ``FileNotFoundError`` when nothing is there, ``NotARegularFile``
    for a folder, FIFO, device or socket (opened without blocking, then
    checked on the open descriptor, so a FIFO never makes the run wait), and
    ``FileTooLarge`` beyond ``limit`` bytes, read no further than that.
    """
    # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFile(kind_of(status.st_mode))
        if limit is not None and status.st_size > limit:
            raise FileTooLarge(status.st_size)
        data = _read_all(descriptor, status.st_size, limit)
        return data, os.fstat(descriptor)
    finally:
        os.close(descriptor)


def _read_all(descriptor: int, expected: int, limit: int | None) -> bytes:
    # The file may grow while it is read; the limit still holds.
    chunks = []
    total = 0
    while chunk := os.read(descriptor, max(expected - total, 0) + 65536):
        chunks.append(chunk)
        total += len(chunk)
        if limit is not None and total > limit:
            raise FileTooLarge(total)
    return b"".join(chunks)


class NotARegularFile(OSError):
    """The path is a folder, FIFO, device or socket; ``kind`` says which."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind
        self.strerror = kind


class FileTooLarge(OSError):
    """The file holds more bytes than the caller's limit."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes")
        self.size = size
        self.strerror = f"too large ({size:,} bytes)"


def check_replaceable(path: str, what: str, *, label: str) -> os.stat_result | None:
    """The status of the file ``path`` names (links followed), or None when there is none yet.

    Refuses a folder, FIFO, device or socket, which a rename would replace by
    a regular file, and a file the user may not write.
    """
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise FileAccessError(f"cannot use {label!r} for {what}: {error.strerror}", "check the path") from None
    if not stat.S_ISREG(status.st_mode):
        raise FileAccessError(
            f"{label!r} is {kind_of(status.st_mode)}, not a place for {what}",
            "pass the path of a regular file, or of one to create",
        )
    check_write_permission(path, status, what, label=label)
    return status


def check_write_permission(path: str, status: os.stat_result, what: str, *, label: str) -> None:
    """Refuse a file that is read-only: no write bit (even for root), no access, or a read-only mount.

    ``os.replace`` would swap in a new file whatever the old one's
    permissions, and root passes every access check, so the bits are read too.
    """
    if _on_read_only_mount(path):
        raise FileAccessError(
            f"{what} {label!r} is on a read-only file system", f"remount it read-write{_instead(what)}"
        )
    if not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise FileAccessError(f"{what} {label!r} is read-only", f"make it writable (chmod u+w {label}){_instead(what)}")


def _instead(what: str) -> str:
    return ", or run verify instead" if what == PROMPT_FILE else ""


def _on_read_only_mount(path: str) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def check_output_target(
    path: str, what: str, *, signature: bytes, protected: Sequence[str], force: bool
) -> tuple[str, bytes | None]:
    """Where a generated file (the index, the wrapper) goes, links followed, and the bytes it holds now.

    Refuses an empty path, a folder, FIFO or device, a read-only file, one of
    the ``protected`` files (the prompt files), and, unless ``force``, an
    existing file that is neither empty nor one skillmem wrote (starting
    with ``signature``).
    """
    if not path:
        raise UsageError(f"the path for {what} is empty", f"pass the path of {what} to write")
    target = os.path.realpath(path)
    status = check_replaceable(target, what, label=path)
    if status is None:
        return target, None
    if any(_same_file(status, other) for other in protected):
        raise FileAccessError(
            f"{path!r} is a configured prompt file; writing {what} there would replace it",
            f"pass another path for {what}",
        )
    old = read_regular_file(target)
    if old and not old.startswith(signature) and not force:
        raise FileAccessError(
            f"{path!r} already exists and is not {what} written by skillmem",
            "pass another path, or --force to replace it",
        )
    return target, old


def _same_file(status: os.stat_result, other: str) -> bool:
    try:
        other_status = os.stat(other)
    except (OSError, ValueError):
        return False
    return (status.st_dev, status.st_ino) == (other_status.st_dev, other_status.st_ino)
