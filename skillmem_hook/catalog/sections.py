"""The parts of a SKILL.md's body that say what the skill is for: headings and "when to use" sections.

Pure: body text in, one short string out. Search weighs it below the name
and the description; the block never sees it.
"""

from __future__ import annotations

import re

SECTIONS_CAP = 600
_HEADING = re.compile(r"#{1,6}\s+(.+?)\s*#*\s*$")
# Sections that tell when to reach for the skill, in the collections' two languages.
_WHEN = re.compile(
    r"when to use|use this skill when|use when|use cases?|triggers?|keywords|"
    r"何时使用|适用场景|使用场景|使用时机|触发|关键词|什么时候用|使用此技能的场景",
    re.IGNORECASE,
)
_NOT_WHEN = re.compile(r"\bnot\b|don't|不适用|不使用|不要使用|不应|避免", re.IGNORECASE)
_FENCE = ("```", "~~~")
_SECTION_LINES = 12


def extract_sections(body: str, cap: int = SECTIONS_CAP) -> str:
    """Headings and the first lines of "when to use" sections, joined by newlines, at most ``cap`` characters."""
    kept: list[str] = []
    size = 0
    in_fence = False
    in_when = False
    section_lines = 0
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith(_FENCE):
            in_fence = not in_fence
            continue
        if in_fence or not line:
            continue
        heading = _HEADING.match(line)
        if heading:
            text = heading.group(1)
            in_when = bool(_WHEN.search(text)) and not _NOT_WHEN.search(text)
            section_lines = 0
        elif in_when and section_lines < _SECTION_LINES:
            text = line.lstrip("-*+> 0123456789.")
            section_lines += 1
        else:
            continue
        kept.append(text)
        size += len(text) + 1
        if size >= cap:
            break
    return "\n".join(kept)[:cap]
