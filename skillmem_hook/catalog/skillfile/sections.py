"""The parts of a SKILL.md's body that say what the skill is for: headings and "when to use" sections.

Pure: body text in, one short string out. Search weighs it below the name
and the description; the block never sees it. Every scan pays for it (the
hooks too, on a cold cache), so the work is done by regular expressions.
"""

from __future__ import annotations

import itertools
import re

SECTIONS_CAP = 600
# A literal "\n#" prefix lets the regex engine skip to candidates fast (a '^' in MULTILINE mode does not).
_HEADING = re.compile(r"\n#{1,6}[ \t]+([^\n]+)")
# Headings of sections that tell when to reach for the skill, in the collections' two languages.
_WHEN = re.compile(
    r"when to use|use this skill when|use when|use cases?|triggers?|keywords|"
    r"何时使用|适用场景|使用场景|使用时机|触发|关键词|什么时候用|使用此技能的场景",
    re.IGNORECASE,
)
_NOT_WHEN = re.compile(r"\bnot\b|don't|不适用|不使用|不要使用|不应|避免", re.IGNORECASE)
_SECTION_LINES = 12
_BULLET = "-*+> 0123456789."


def extract_sections(body: str, cap: int = SECTIONS_CAP) -> str:
    """The first lines of "when to use" sections, then every heading; joined by newlines, at most ``cap`` characters.

    A few passes of the regex engine and no Python loop over the body's lines:
    the scan of every command pays for this.
    """
    # Code blocks go first: a '# comment' in one is no heading.
    body = "".join(("\n" + body).split("\n```")[0::2]) if "```" in body else "\n" + body
    titles = "\n".join(title.rstrip(" \t#") for title in _HEADING.findall(body))
    kept: list[str] = []
    for title in dict.fromkeys(_line_around(titles, match.start()) for match in _WHEN.finditer(titles)):
        if not _NOT_WHEN.search(title):
            kept.extend(_section_lines(body, title))
    kept.append(titles)
    return "\n".join(kept)[:cap]


def _line_around(text: str, position: int) -> str:
    end = text.find("\n", position)
    return text[text.rfind("\n", 0, position) + 1 : end if end >= 0 else None]


def _section_lines(body: str, title: str) -> list[str]:
    """The first non-empty lines under the heading ``title``, bullets and numbering stripped."""
    start = body.find("\n", body.find(title))
    if start < 0:
        return []
    end = body.find("\n#", start)
    lines = (line.strip().lstrip(_BULLET) for line in body[start : end if end >= 0 else None].split("\n"))
    return list(itertools.islice(filter(None, lines), _SECTION_LINES))
