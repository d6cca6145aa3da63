"""A SKILL.md's leading bytes from disk: as far as its frontmatter and title reach, however large the file."""

from __future__ import annotations

import os
import stat

from skillmem_hook.catalog.skillfile.head import MAX_READ, head_length
from skillmem_hook.catalog.skillfile.names import SkillProblem

HEAD_CHUNK = 64 * 1024


def read_skill_head(file_path: bytes | str) -> bytes | None:
    """The leading bytes of a SKILL.md (see ``head.skill_head``); None when the file is gone.

    Never holds more than about two reads of HEAD_CHUNK beyond what it keeps, however large the file.
    """
    try:
        handle = os.open(file_path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SkillProblem(f"cannot read SKILL.md: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise SkillProblem("SKILL.md is not a regular file")
        return _read_head(handle)
    except OSError as error:
        raise SkillProblem(f"cannot read SKILL.md: {error.strerror}") from None
    finally:
        os.close(handle)


def _read_head(handle: int) -> bytes:
    """Read in chunks until the head's length is known, then exactly up to it."""
    data = b""
    while True:
        chunk = _read_up_to(handle, HEAD_CHUNK)
        data = data + chunk if data else chunk
        at_end = len(chunk) < HEAD_CHUNK or len(data) >= MAX_READ
        length = head_length(data, at_end=at_end)
        if length is not None:
            if length > len(data) and not at_end:
                data += _read_up_to(handle, length - len(data))
            return data if len(data) <= length else data[:length]


def _read_up_to(handle: int, size: int) -> bytes:
    """Up to ``size`` bytes; os.read may return fewer than asked before the end."""
    chunks = []
    while size > 0 and (chunk := os.read(handle, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
