"""Read one skill's SKILL.md for an agent or a person, never from outside its root.

The one reader behind ``skillmem read`` and MCP's ``skill_read``. A
repository's content is untrusted: a SKILL.md (or a skill folder) swapped for
a link to ``/etc/passwd``, a FIFO, or a file of gigabytes must not be served,
hang the reader or fill its memory. So: the file's real path must lie inside
the root's real path, and one reached through a link below the root must pass
the read rule (``confinement.py``: outside every git directory, and in a work
tree on a file git tracks), checked again at each read since the catalog
may be older than a swap; it is then opened one folder at a time from the root
without following any link (``O_NOFOLLOW``), so a swap between the check and
the open fails instead of leading out; the file is opened without blocking
and must be a regular file, read no further than the size cap.
"""

from __future__ import annotations

import errno
import os
import stat

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.confinement import IN_GIT_DIRECTORY, outside_boundary, read_area, refusals
from skillmem_hook.errors import FileAccessError
from skillmem_hook.files import kind_of

MAX_SKILL_BYTES = 1024 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def skill_file_path(root: str, folder: str) -> str:
    """The SKILL.md of a skill ``folder`` below ``root``, as the configuration names the root."""
    base = root.rstrip("/") or "/"
    return f"{base}/{SKILL_FILE}" if folder == "." else f"{base}/{folder}/{SKILL_FILE}"


def read_skill_file(
    root: str, folder: str, limit: int = MAX_SKILL_BYTES, *, user_root: bool = True, boundary: str | None = None
) -> bytes:
    """The bytes of the SKILL.md of ``folder`` below ``root``; FileAccessError when it may not be served.

    A link inside the root (a vendored folder linked beside the others) is
    followed; one whose target leaves the root, or that the read rule refuses, is refused.
    ``user_root`` False: the repository named the root, and below such a root lying outside the repository
    (``boundary`` as ``confinement.outside_boundary`` takes it) no link is followed, as the walk follows none:
    a link swapped in after the catalog was built is refused here too.
    """
    path = skill_file_path(root, folder)
    real_root = os.path.realpath(root)
    real_file = os.path.realpath(path)
    inside = os.path.relpath(real_file, real_root)
    if inside == os.pardir or inside.startswith(os.pardir + os.sep) or os.path.isabs(inside):
        raise FileAccessError(
            f"{path} leads out of the skills root {root} (to {real_file})",
            "a skill is served only from inside its root; replace the link by the file",
        )
    if inside != os.path.normpath(os.path.join(folder, SKILL_FILE)):  # reached through a link below the root
        if not user_root and outside_boundary(real_root, boundary):
            from skillmem_hook.catalog.discovery.walk import LINK_BELOW_NAMED_OUTSIDE  # noqa: PLC0415 - a link only

            raise FileAccessError(f"{path}: {LINK_BELOW_NAMED_OUTSIDE}", "replace the link by the file")
        _check_landing(path, real_file, real_root)
    descriptor = _open_below(real_root, inside.split(os.sep), path)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise FileAccessError(f"{path} is {kind_of(status.st_mode)}, not a regular file", "make it a file")
        if status.st_size > limit:
            raise _too_large(path, status.st_size, limit)
        return _read_capped(descriptor, path, limit)
    finally:
        os.close(descriptor)


def _check_landing(path: str, real_file: str, real_root: str) -> None:
    """Refuse a file reached through a link that lands in a git directory, or (in a work tree) on an untracked one."""
    problem = refusals({path: real_file}, read_area(real_root)).get(path)
    if problem == IN_GIT_DIRECTORY:
        raise FileAccessError(
            f"{path} leads into a git directory (to {real_file})",
            "a skill is never served from a git directory; replace the link by the file",
        )
    if problem is not None:
        raise FileAccessError(
            f"{path} leads to a file git does not track ({real_file})",
            "a link may only lead to a file the repository holds: git add it, or replace the link by the file",
        )


def _open_below(real_root: str, parts: list[str], path: str) -> int:
    """Open ``parts`` below ``real_root`` one name at a time, following no link on the way."""
    if os.open not in os.supports_dir_fd or not _NOFOLLOW:  # no openat (Windows): the real-path check stands alone
        return _open(os.path.join(real_root, *parts), os.O_RDONLY | _NONBLOCK | _CLOEXEC, path)
    current = _open(real_root, os.O_RDONLY | _DIRECTORY | _CLOEXEC, path)
    try:
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            flags = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | (_NONBLOCK if last else _DIRECTORY)
            following = _open(part, flags, path, folder=current)
            os.close(current)
            current = following
        return current
    except BaseException:
        os.close(current)
        raise


def _open(name: str, flags: int, path: str, *, folder: int | None = None) -> int:
    try:
        return os.open(name, flags, dir_fd=folder)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise FileAccessError(
                f"{path} changed into a link while it was read", "a skill is served only from inside its root"
            ) from None
        if error.errno == errno.ENOENT:
            raise FileAccessError(f"{path} is gone", "the skill was removed or moved; search again") from None
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "check the file's permissions") from None


def _read_capped(descriptor: int, path: str, limit: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    try:
        while chunk := os.read(descriptor, 65536):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while read
                raise _too_large(path, total, limit)
    except BlockingIOError:  # a regular file never blocks; keep what was read
        pass
    return b"".join(chunks)


def _too_large(path: str, size: int, limit: int) -> FileAccessError:
    cap = "1 MiB" if limit == MAX_SKILL_BYTES else f"{limit:,} bytes"
    return FileAccessError(
        f"{path} is larger than {cap} ({size:,} bytes)", "open the file directly; it is too large to send"
    )
