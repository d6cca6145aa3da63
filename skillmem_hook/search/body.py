"""A skill's body as search's low-weight body field: the text after the frontmatter, code cut, capped.

Pure: the leading bytes of a SKILL.md in, a short string out. The catalog
does not keep the body (the hooks would pay for it on every run); only the
search index reads it, when it is built.
"""

from __future__ import annotations

import re

from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span

BODY_CAP = 3000  # characters: the measured lift came from the body's start (docs/search.md)
# Read a little past the cap: fences and markup cut out of the window still leave about the cap.
BODY_WINDOW = 4 * BODY_CAP
_FENCE = re.compile(r"^(```|~~~).*?(?:^\1[^\n]*$|\Z)", re.MULTILINE | re.DOTALL)
_MARKUP = re.compile(r"https?://\S+|<[^>\n]{0,200}>|[#*_`|>\[\]()]+")


def body_text(head: bytes, cap: int = BODY_CAP) -> str:
    """The body of a SKILL.md from its leading bytes: fenced code and markup cut, spaces squeezed, at most ``cap``."""
    try:
        span = frontmatter_span(head)
    except UnclosedFrontmatter:
        return ""
    start = span[2] if span else 0
    text = head[start : start + BODY_WINDOW * 4].decode("utf-8", "replace")[:BODY_WINDOW]
    text = _MARKUP.sub(" ", _FENCE.sub(" ", text))
    return " ".join(text.split())[:cap]
