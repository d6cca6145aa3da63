"""How much of a SKILL.md the catalog reads: the frontmatter, and a window of body after it.

Pure, so the file-system walk (which reads in chunks) and git's blobs (read
whole) cut a file at the same byte and so give the same skill.
"""

from __future__ import annotations

from skillmem_hook.catalog.skillfile.declared import HEADING_WINDOW
from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.catalog.skillfile.names import SkillProblem

MAX_FRONTMATTER = 1024 * 1024
MAX_READ = MAX_FRONTMATTER + HEADING_WINDOW


def head_length(data: bytes, *, at_end: bool) -> int | None:
    """How many leading bytes the catalog uses, once ``data`` says; None while it cannot tell yet.

    ``data`` is the start of the file; ``at_end`` says no more will come (the
    file ended, or MAX_READ bytes were read). The answer may exceed
    ``len(data)``: that many bytes are needed. A closing ``---`` counts only
    on a complete line, so a line cut short by a read (``---x``) never passes
    for one. Raises SkillProblem for a frontmatter that is never closed, or
    not within its first MAX_FRONTMATTER bytes.
    """
    return _head(data, at_end=at_end)[0]


def skill_head(data: bytes) -> bytes:
    """The leading bytes the catalog uses of a whole file (or its first MAX_READ bytes)."""
    return located_head(data)[0]


def located_head(data: bytes) -> tuple[bytes, tuple[int, int, int] | None]:
    """``skill_head`` and where its frontmatter lies, ``frontmatter_span``'s answer for it: found once, not twice."""
    length, span = _head(data, at_end=True)
    assert length is not None
    # The head keeps the frontmatter and its closing line whole, so the span found in the whole file is the head's.
    return data[:length], span


def _head(data: bytes, *, at_end: bool) -> tuple[int | None, tuple[int, int, int] | None]:
    """``head_length``'s answer, and the frontmatter's span it found on the way."""
    if not at_end and b"\n" not in data:
        return None, None  # the first line is not complete: it may still open a frontmatter
    try:
        span = frontmatter_span(data)
    except UnclosedFrontmatter as error:
        if len(data) >= MAX_FRONTMATTER:
            raise SkillProblem("the frontmatter is not closed within the first 1 MiB") from None
        if at_end:
            raise SkillProblem(str(error)) from None
        return None, None
    if span is None:
        return HEADING_WINDOW, None
    body_start = span[2]
    if not at_end and body_start == len(data) and not data.endswith(b"\n"):
        return None, None  # the closing line may go on in the next read
    if body_start > MAX_FRONTMATTER:
        raise SkillProblem("the frontmatter is not closed within the first 1 MiB")
    return body_start + HEADING_WINDOW, span
