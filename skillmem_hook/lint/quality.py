"""Quality rules, off by default: the reference design's gate for descriptions search can find.

Pure: the description and the body in, problems out.
"""

from __future__ import annotations

import re

from skillmem_hook.lint.rules import START

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.rules import Position, Problem

MAX_BODY_LINES = 500
MAX_DESCRIPTION_SCANNED = 4096
# "Use when ...", "... whenever ...", "Triggers on ...", "当…时", "…时使用", "触发", "适用于".
_TRIGGER = re.compile(r"\b(?:when|whenever|trigger\w*)\b|当[^。\n]*?时|时(?:使用|调用|启用)|触发|适用于", re.IGNORECASE)
_CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def check_quality(description: str | None, description_at: Position | None, body_lines: int) -> list[Problem]:
    problems: list[Problem] = []
    if description is not None and description.strip():
        description = description[:MAX_DESCRIPTION_SCANNED]  # a trigger is said early; the rest is SK122's
        at = description_at or START
        if _TRIGGER.search(description) is None:
            problems.append(("SK401", at, "the description does not say when to use the skill; add 'Use when ...'"))
        if _CHINESE.search(description) is None:
            problems.append(
                ("SK403", at, "the description has no Chinese keyword; add the Chinese words users ask with")
            )
    if body_lines > MAX_BODY_LINES:
        problems.append(
            ("SK402", START, f"the body is {body_lines} lines; move detail into references/ to stay under 500")
        )
    return problems
