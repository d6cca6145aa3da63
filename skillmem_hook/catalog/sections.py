"""The parts of a SKILL.md's body that say what the skill is for: headings and "when to use" sections.

Pure: body text in, one short string out. Search weighs it below the name
and the description; the block never sees it. Every scan pays for it (the
hooks too, on a cold cache), so the work is done by regular expressions.
"""

from __future__ import annotations

import re

SECTIONS_CAP = 600
# A literal "\n#" prefix lets the regex engine skip to candidates fast (a '^' in MULTILINE mode does not).
_HEADING = re.compile(r"\n#{1,6}[ \t]+([^\n]+)")
# Sections that tell when to reach for the skill, in the collections' two languages.
_WHEN = re.compile(
    r"when to use|use this skill when|use when|use cases?|triggers?|keywords|"
    r"何时使用|适用场景|使用场景|使用时机|触发|关键词|什么时候用|使用此技能的场景",
    re.IGNORECASE,
)
_NOT_WHEN = re.compile(r"\bnot\b|don't|不适用|不使用|不要使用|不应|避免", re.IGNORECASE)
_SECTION_LINES = 12
_BULLET = "-*+> 0123456789."


def extract_sections(body: str, cap: int = SECTIONS_CAP) -> str:
    """Headings and the first lines of "when to use" sections, joined by newlines, at most ``cap`` characters."""
    body = "\n" + "".join(("\n" + body).split("\n```")[0::2])  # a '# comment' in a code block is no heading
    headings = list(_HEADING.finditer(body))
    kept: list[str] = []
    size = 0
    for number, heading in enumerate(headings):
        title = heading.group(1).rstrip(" \t#")
        kept.append(title)
        size += len(title) + 1
        if _WHEN.search(title) and not _NOT_WHEN.search(title):
            end = headings[number + 1].start() if number + 1 < len(headings) else len(body)
            lines = [line.strip().lstrip(_BULLET) for line in body[heading.end() : end].splitlines()]
            text = [line for line in lines if line][:_SECTION_LINES]
            kept.extend(text)
            size += sum(len(line) + 1 for line in text)
        if size >= cap:
            break
    return "\n".join(kept)[:cap]
