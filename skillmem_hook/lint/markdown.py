"""The Markdown a SKILL.md body is made of, as lint needs it: fenced blocks, code spans, lines.

Pure, and linear in the body: each scan goes forward once, so a hostile body
(thousands of spans or fences on one line) costs what its length costs.
"""

from __future__ import annotations

import re

# Patterns that start with a literal are searched for by the regex engine's
# fast scan; an alternation or optional first character makes them ten times slower.
_FENCE_MARKS = (re.compile(r"```+"), re.compile(r"~~~+"))
_BACKTICKS = re.compile(r"`+")
_CODE_SPAN = re.compile(r"`(`*)([^`\n]+)`\1(?!`)")
# A CI workflow's keys (GitHub Actions, GitLab CI, Azure Pipelines): a YAML block holding one
# describes a file the user adds to their own repository, so its paths are theirs.
_WORKFLOW_KEY = re.compile(r"^[ \t-]*(?:jobs|steps|runs-on|script|stages|pool|trigger)[ \t]*:", re.MULTILINE)
_YAML_INFO = re.compile(r"[ \t]*(?:`{3,}|~{3,})[ \t]*\{?\.?(?:ya?ml|github-actions|gitlab-ci)\b", re.IGNORECASE)
# A bracketed placeholder that is no link, footnote or checkbox: "[Description]", "[Component Name]".
_PLACEHOLDER = re.compile(r"(?<![\]!^])\[[A-Z][^\]\n\[]{0,40}\](?![(\[:])")


def code_blocks(body: str) -> list[tuple[int, int, int, int]]:
    """Fenced code blocks: (opening line start, content start, content end, after the closing line).

    The marks come in order, so each line's start and end are found once:
    many marks on one long line cost no more than one.
    """
    blocks: list[tuple[int, int, int, int]] = []
    fence, opening_start, content_start = "", 0, 0
    marks = list(_FENCE_MARKS[0].finditer(body))
    if "~~~" in body:
        marks = sorted([*marks, *_FENCE_MARKS[1].finditer(body)], key=lambda mark: mark.start())
    line_start, line_end, scanned = 0, -1, 0
    for mark in marks:
        if mark.start() > line_end:  # a new line: find its start and end once
            line_start = body.rfind("\n", scanned, mark.start()) + 1 or line_start
            line_end = body.find("\n", mark.end())
            line_end = len(body) if line_end < 0 else line_end
            scanned = mark.start()
        if mark.start() - line_start > 3 or body[line_start : mark.start()].strip(" "):
            continue
        run, rest = mark.group(), body[mark.end() : line_end]
        if not fence:
            if run[0] != "`" or "`" not in rest:  # a backtick fence's info string holds no backtick
                fence, opening_start, content_start = run, line_start, line_end + 1
        elif run[0] == fence[0] and len(run) >= len(fence) and not rest.strip():
            blocks.append((opening_start, content_start, line_start, line_end + 1))
            fence = ""
    if fence:
        blocks.append((opening_start, content_start, len(body), len(body)))
    return blocks


def code_spans(body: str) -> list[tuple[int, int, int]]:
    """Inline code spans as (start, end, content start): a backtick run, text on one line, a run no longer.

    What ``` `(`*)([^`\n]+)`\1(?!`) ``` finds, in one pass over the backtick
    runs: the regular expression gives back one backtick at a time at every
    start, which is quadratic on a long run of backticks.
    """
    if "````" not in body:
        # With no run longer than three backticks the expression tries at most three lengths at each
        # start, so it is linear, and it runs in C: most bodies take this way.
        return [(found.start(), found.end(), found.start(2)) for found in _CODE_SPAN.finditer(body)]
    spans: list[tuple[int, int, int]] = []
    opener: re.Match[str] | None = None
    for run in _BACKTICKS.finditer(body):
        if opener is not None:
            content_start, closing = opener.end(), len(run.group())
            if "\n" not in body[content_start : run.start()] and closing <= len(opener.group()):
                spans.append((content_start - closing, run.end(), content_start))
                opener = None
                continue
        opener = run
    return spans


class Lines:
    """The line around a position, for positions that only go forward: each line is found once."""

    __slots__ = ("body", "end", "placeholder", "start")

    def __init__(self, body: str) -> None:
        self.body = body
        self.start, self.end = 0, -1
        self.placeholder: bool | None = None

    def around(self, position: int) -> tuple[int, int]:
        if position > self.end:
            self.start = (
                self.body.rfind("\n", 0, position) + 1
                if self.end < 0
                else (self.body.rfind("\n", self.end, position) + 1 or self.start)
            )
            found = self.body.find("\n", position)
            self.end = len(self.body) if found < 0 else found
            self.placeholder = None
        return self.start, self.end

    def has_placeholder(self) -> bool:
        """Whether the current line holds a template placeholder such as ``[Description]``."""
        if self.placeholder is None:
            self.placeholder = _PLACEHOLDER.search(self.body, self.start, self.end) is not None
        return self.placeholder


def is_workflow(body: str, opening: int, content_start: int, content_end: int) -> bool:
    """Whether the fenced block is a YAML CI workflow: its paths are in the user's repository, not the skill."""
    return _YAML_INFO.match(body, opening, content_start) is not None and (
        _WORKFLOW_KEY.search(body, content_start, content_end) is not None
    )
