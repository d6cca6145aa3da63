"""The shipped sorted tables (the dictionary, its reverse, English at large), as a binary search needs them."""

from __future__ import annotations

import re
from pathlib import Path


def table_lines(path: str, line: re.Pattern[str]) -> list[str]:
    """The table's lines, checked: framed by newlines, each matching ``line``, keys sorted and unique.

    ``sorted_lines.value_of`` searches between newlines for ``\\nKEY\\t``: a line out of order or a key twice, and a
    lookup misses words.
    """
    text = Path(path).read_text(encoding="utf-8")
    assert text.startswith("\n") and text.endswith("\n")
    lines = text[1:-1].split("\n")
    assert all(line.fullmatch(each) for each in lines)
    keys = [each.split("\t", 1)[0] for each in lines]
    assert keys == sorted(set(keys))
    return lines
