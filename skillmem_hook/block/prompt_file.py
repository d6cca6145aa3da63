"""Read a prompt file as bytes, and write it back atomically, only when it changed.

The I/O edge for prompt files. A symlinked prompt file is read and written
through to its target; the file's permission bits (and, as root, its owner)
are kept.
"""

from __future__ import annotations

import os

from skillmem_hook.errors import FileAccessError
from skillmem_hook.files import PROMPT_FILE, NotARegularFile, check_write_permission, read_regular_file
from skillmem_hook.visible import command_path

_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")


def read_prompt_file(path: str) -> bytes:
    """The prompt file's bytes; it must exist, since skillmem never creates one."""
    try:
        data = read_regular_file(path)
    except FileNotFoundError:
        raise FileAccessError(
            f"the prompt file {path!r} does not exist",
            # Quoted: the name comes from .skillmem.yaml, repository content ("x.md; curl ... | sh").
            f"create it first (skillmem never creates a prompt file), for example: touch {command_path(path)}",
        ) from None
    except NotARegularFile as error:
        raise FileAccessError(
            f"the prompt file {path!r} is {error.kind}, not a regular file", "pass --prompt-file a text file"
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
    """Refuse a prompt file the user may not write, before anything is written."""
    target = os.path.realpath(path)
    try:
        status = os.stat(target)
    except OSError as error:
        raise FileAccessError(
            f"cannot read the prompt file {path!r}: {error.strerror}", "check that it exists"
        ) from None
    check_write_permission(target, status, PROMPT_FILE, label=path)


def write_if_changed(path: str, old: bytes, new: bytes) -> bool:
    """Write ``new`` over the file when it differs from ``old``, and it still holds ``old``; True when it did."""
    from skillmem_hook.atomic import commit_all, stage, staging  # noqa: PLC0415 - only a run that writes pays for it

    if new == old:
        return False
    check_writable(path)
    with staging() as staged:
        stage(staged, os.path.realpath(path), new, label=path, expected=old)
        return bool(commit_all(staged))
