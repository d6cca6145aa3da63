"""The "did you mean" of an error that names a choice: a command, an option, a skill."""

from __future__ import annotations

import difflib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def near(word: str, choices: Iterable[str], count: int = 3) -> list[str]:
    """Up to ``count`` of ``choices`` spelled like ``word``, closest first."""
    return difflib.get_close_matches(word, sorted(set(choices)), n=count, cutoff=0.6)


def did_you_mean(word: str, choices: Iterable[str], *, count: int = 3) -> str:
    """``did you mean 'search'?`` (or ``'a', 'b'``) for a hint; empty when nothing is spelled like ``word``."""
    quoted = [f"'{choice}'" for choice in near(word, choices, count)]
    return f"did you mean {', '.join(quoted)}?" if quoted else ""
