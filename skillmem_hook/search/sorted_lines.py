"""A lookup in a text of sorted ``"\\nkey\\tvalue"`` lines, by binary search over its bytes: nothing parsed.

Pure. The stored search index's postings and the Chinese-English word list
are both kept so: loading one is reading its bytes, and a lookup reads about
twenty lines of it, not all of it.
"""

from __future__ import annotations


def line_start(text: bytes, key: bytes, start: int = 0, end: int | None = None) -> int:
    """Where the line of ``key`` starts (its '\\n'), or -1.

    ``text[start:end]`` starts each line with '\\n' and ends with '\\n'; its keys
    are sorted by code point, which UTF-8 bytes sort the same way. The bounds
    let a stored index's lines be read where they lie in the file's bytes.
    """
    last = (len(text) if end is None else end) - 1
    start = first_line_from(text, key, start, end)
    return start if start < last and text[start + 1 : text.index(b"\t", start + 1)] == key else -1


def first_line_from(text: bytes, key: bytes, start: int = 0, end: int | None = None) -> int:
    """Where the first line whose key is not below ``key`` starts (its '\\n'); the last '\\n' when none is.

    The keys that start with ``key``, if any, are the lines from there on.
    """
    low, high = start, (len(text) if end is None else end) - 1  # lines before low are below key; from high on, not
    while low < high:
        start = text.rfind(b"\n", low, (low + high) // 2 + 1)
        if text[start + 1 : text.index(b"\t", start + 1)] < key:
            low = text.index(b"\n", start + 1)
        else:
            high = start
    return low


def value_of(text: bytes, key: bytes, start: int = 0, end: int | None = None) -> bytes | None:
    """The value on ``key``'s line of ``text[start:end]``, or None."""
    start = line_start(text, key, start, end)
    if start < 0:
        return None
    start = text.index(b"\t", start + 1) + 1
    return text[start : text.index(b"\n", start)]
