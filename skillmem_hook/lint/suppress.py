"""Inline suppressions: a comment in SKILL.md that silences named rules on a line, or in the whole file.

``<!-- skill-lint: disable=SK201 -->`` silences those codes on its own line
and the next; ``<!-- skill-lint: disable-file=SK201,SK105 -->`` in the whole
file. In the frontmatter the same words follow ``#``. Codes may be prefixes
(``SK2``); with no ``=codes``, every rule. Pure: text in, a filter out.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.rules import Problem

MARK = "skill-lint:"
_COMMENT = re.compile(r"(?:<!--|#)[ \t]*skill-lint:[ \t]*(disable-file|disable)(?:[ \t]*=[ \t]*([A-Za-z0-9, \t]*))?")


class Suppressions:
    """The codes silenced in the whole file, and on each line (1-based)."""

    __slots__ = ("by_line", "file")

    def __init__(self) -> None:
        self.file: tuple[str, ...] = ()
        self.by_line: dict[int, tuple[str, ...]] = {}

    def silences(self, code: str, line: int) -> bool:
        return _named(code, self.file) or _named(code, self.by_line.get(line, ()))


def find_suppressions(text: str) -> Suppressions | None:
    """The suppressions a SKILL.md's text holds; None when it holds none (most files: one search)."""
    if MARK not in text:
        return None
    found = Suppressions()
    line, previous = 1, 0
    for comment in _COMMENT.finditer(text):
        line += text.count("\n", previous, comment.start())
        previous = comment.start()
        codes = tuple(code.upper() for code in re.split(r"[,\s]+", comment.group(2) or "") if code) or ("",)
        if comment.group(1) == "disable-file":
            found.file += codes
        else:
            for number in (line, line + 1):
                found.by_line[number] = found.by_line.get(number, ()) + codes
    return found


def drop_suppressed(problems: list[Problem], suppressions: Suppressions | None) -> list[Problem]:
    if suppressions is None:
        return problems
    return [problem for problem in problems if not suppressions.silences(problem[0], problem[1].line)]


def _named(code: str, codes: tuple[str, ...]) -> bool:
    return any(code.startswith(prefix) for prefix in codes)  # "" (no codes given) names every rule
