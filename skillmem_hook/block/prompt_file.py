"""Read a prompt file as bytes, and write it back atomically, only when it changed.

The I/O edge for prompt files. A symlinked prompt file is read and written
through to its target; the file's permission bits (and, as root, its owner)
are kept.
"""

from __future__ import annotations

import contextlib
import os
import stat

from skillmem_hook.errors import FileAccessError

_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")


def read_prompt_file(path: str) -> bytes:
    """The prompt file's bytes; it must exist, since skillmem never creates one."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            kind = "a folder" if os.path.isdir(path) else "not a regular file"
            raise FileAccessError(f"the prompt file {path!r} is {kind}", "pass --prompt-file a text file")
        with open(path, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        raise FileAccessError(
            f"the prompt file {path!r} does not exist",
            f"create it first (skillmem never creates a prompt file), for example: touch {path}",
        ) from None
    except OSError as error:
        raise FileAccessError(
            f"cannot read the prompt file {path!r}: {error.strerror}", "check its permissions"
        ) from None
    _check_is_text(path, data)
    return data


def _check_is_text(path: str, data: bytes) -> None:
    # The block is UTF-8; spliced into UTF-16 text, or into what looks like a
    # binary file, it would damage the file rather than add to it.
    if data.startswith(_WIDE_BOMS):
        raise FileAccessError(
            f"the prompt file {path!r} is UTF-16 or UTF-32 text", "save it as UTF-8; skillmem writes a UTF-8 block"
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        raise FileAccessError(
            f"the prompt file {path!r} holds a NUL byte at offset {nul}, so it looks binary",
            "remove the NUL byte or point --prompt-file at a text file",
        )


def check_writable(path: str) -> None:
    """Refuse a prompt file the user may not write, before anything is written.

    ``os.replace`` would swap in a new file whatever the old one's
    permissions, and root passes every access check, so the bits are read too.
    """
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except OSError as error:
        raise FileAccessError(
            f"cannot read the prompt file {path!r}: {error.strerror}", "check that it exists"
        ) from None
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise FileAccessError(
            f"the prompt file {path!r} is read-only", f"make it writable (chmod u+w {path}) or run verify instead"
        )


def write_if_changed(path: str, old: bytes, new: bytes) -> bool:
    """Write ``new`` over the file when it differs from ``old``; True when it did."""
    if new == old:
        return False
    check_writable(path)
    write_atomically(os.path.realpath(path), new)
    return True


def write_atomically(target: str, data: bytes, mode: int | None = None) -> None:
    """Write through a temporary file in the target's folder, then rename it over the target."""
    import tempfile  # noqa: PLC0415 - only a run that writes pays for it

    folder, name = os.path.split(target)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    try:
        handle, temporary = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=".skillmem-tmp")
    except OSError as error:
        raise FileAccessError(
            f"cannot write in the folder of {target!r}: {error.strerror}", "check the folder's permissions"
        ) from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        _copy_ownership(temporary, existing, mode)
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise FileAccessError(
                f"cannot write {target!r}: {error.strerror}", "check the file and its folder"
            ) from None
        raise


def _copy_ownership(temporary: str, existing: os.stat_result | None, mode: int | None) -> None:
    if existing is None or mode is not None:
        os.chmod(temporary, (mode if mode is not None else 0o666) & ~_umask())
    else:
        os.chmod(temporary, stat.S_IMODE(existing.st_mode))
    if existing is not None and os.geteuid() == 0 and (existing.st_uid, existing.st_gid) != (0, 0):
        os.chown(temporary, existing.st_uid, existing.st_gid)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
