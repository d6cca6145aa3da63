"""A lookup in a text of sorted ``"\\nkey\\tvalue"`` lines, by binary search over its bytes: nothing parsed.

Pure. The stored search index's postings and the Chinese-English word list
are both kept so: loading one is reading its bytes, and a lookup reads about
twenty lines of it, not all of it.
"""

from __future__ import annotations


def line_start(text: bytes, key: bytes) -> int:
    """Where the line of ``key`` starts (its '\\n'), or -1.

    ``text`` starts each line with '\\n' and ends with '\\n'; its keys are
    sorted by code point, which UTF-8 bytes sort the same way.
    """
    low, high = 0, len(text) - 1  # the '\n' of every line in [low, high); the last '\n' ends the text
    while low < high:
        start = text.rfind(b"\n", low, (low + high) // 2 + 1)
        word = text[start + 1 : text.index(b"\t", start + 1)]
        if word == key:
            return start
        if word < key:
            low = text.index(b"\n", start + 1)
        else:
            high = start
    return -1


def value_of(text: bytes, key: bytes) -> bytes | None:
    """The value on ``key``'s line, or None."""
    start = line_start(text, key)
    if start < 0:
        return None
    start = text.index(b"\t", start + 1) + 1
    return text[start : text.index(b"\n", start)]
