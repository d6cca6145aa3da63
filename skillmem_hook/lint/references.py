"""The files a SKILL.md's body points at, and which of them are missing.

Pure: body text in, references out; whether a path exists is asked of a
function the caller passes. What counts as a pointer to a file of the skill:

- the target of a Markdown link or image (``[x](path)``, ``![x](path)``,
  ``[x]: path``) outside code: every relative target. URLs (any
  ``scheme:``), anchors (``#x``), absolute paths (``/x``, ``~/x``) and
  templated targets (``{x}``, ``$X``, ``<x>``) are not paths of the skill;
- in a code span (unless the line introduces it as an example: "Example:",
  "e.g.", "for instance", "such as", "例如", "比如") or a fenced code block, a path that has a file extension and
  whose first folder is one a skill conventionally holds (``scripts/``,
  ``references/``, ``assets/``, ``templates/``) or exists in the skill's
  folder. Other paths in code (``src/app.py``) are about the user's project,
  not the skill, and are left alone; so are bare file names, and paths
  written ``./scripts/x.sh`` in a code block (a command run in the user's
  working folder, as runbooks show).

A link target that climbs out of the skill's folder (``../x``) is its own
finding; a code path that does is ignored, since code shows commands run
anywhere.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from urllib.parse import unquote

from skillmem_hook.lint.rules import Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from skillmem_hook.lint.spec import Problem

CONVENTIONAL_FOLDERS = frozenset({"scripts", "references", "assets", "templates"})
# Patterns that start with a literal are searched for by the regex engine's
# fast scan; an alternation or optional first character makes them ten times slower.
_FENCE_MARKS = (re.compile(r"```+"), re.compile(r"~~~+"))
_CODE_SPAN = re.compile(r"`(`*)([^`\n]+)`\1(?!`)")
# A link's target after "](", or a definition's after "]:" (its line must start "[label").
_LINK = re.compile(r"\](?:\(\s*(<[^>\n]*>|[^)\s]+)|:[ \t]*(<[^>\n]*>|[^\s\[]\S*))")
_DEFINITION_LABEL = re.compile(r" {0,3}\[[^\]\n]+")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SPAN_PATH = re.compile(r"(?:\./)?([A-Za-z0-9_][\w.-]*)((?:/[\w.@+-]+)+)")
_BLOCK_PATH = re.compile(r"([A-Za-z0-9_][\w.-]*)((?:/[\w.@+-]+)+)")
_NOT_BEFORE_PATH = frozenset("_./~$}-")
_EXTENSION = re.compile(r"[^./][^/]*\.[A-Za-z0-9]{1,8}")
_AFTER_ANY = 1 << 62
# Words that make a code span an illustration of what a skill could hold, as
# skill-writing guides show ("Examples: `references/finance.md` for ...").
# A line break, a table cell, a closing parenthesis (ASCII or full-width), and the Chinese full stop, comma, semicolon.
_CLAUSE_ENDS = ("\n", "|", ")", "\uff09", "\u3002", "\uff0c", "\uff1b")
_EXAMPLE_WORDS = re.compile(r"(?i)\bexamples?\W{0,3}:|\be\.g\.|\bfor instance\b|\bsuch as\b|例如|比如")
_TEMPLATED = frozenset("{}$<>*?|\\")


class Reference:
    """A path the body points at, where it is, and whether it came from a link."""

    __slots__ = ("at", "from_link", "path")

    def __init__(self, path: str, at: Position, *, from_link: bool) -> None:
        self.path = path
        self.at = at
        self.from_link = from_link


def find_references(body: str, first_line: int, folders: Collection[str]) -> list[Reference]:
    """Every file path the body points at; ``folders`` are the names of the skill's own subfolders.

    The body is searched with ``str.find`` and regular expressions over its
    whole text, not line by line: lint must cost little more than verify.
    """
    skill_folders = CONVENTIONAL_FOLDERS.union(folders)
    blocks = _code_blocks(body)
    fenced = [(opening, after) for opening, _, _, after in blocks]
    found = [item for item in _prose_references(body, skill_folders) if not _covered(item[0], fenced)]
    for _, content_start, content_end, _ in blocks:
        found += _block_paths(body, content_start, content_end, skill_folders)
    found.sort()
    references: list[Reference] = []
    line, previous = first_line, 0
    for offset, path, link in found:  # in order, so lines are counted once over the body
        line += body.count("\n", previous, offset)
        column = offset - body.rfind("\n", 0, offset)
        references.append(Reference(path, Position(line, column), from_link=link))
        previous = offset
    return references


def _code_blocks(body: str) -> list[tuple[int, int, int, int]]:
    """Fenced code blocks: (opening line start, content start, content end, after the closing line)."""
    blocks: list[tuple[int, int, int, int]] = []
    fence, opening_start, content_start = "", 0, 0
    marks = list(_FENCE_MARKS[0].finditer(body))
    if "~~~" in body:
        marks = sorted([*marks, *_FENCE_MARKS[1].finditer(body)], key=lambda mark: mark.start())
    for mark in marks:
        line_start = body.rfind("\n", 0, mark.start()) + 1
        if mark.start() - line_start > 3 or body[line_start : mark.start()].strip(" "):
            continue
        line_end = body.find("\n", mark.end())
        line_end = len(body) if line_end < 0 else line_end
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


def _prose_references(body: str, skill_folders: frozenset[str]) -> list[tuple[int, str, bool]]:
    """Code span paths, link and definition targets over the whole body; the caller drops those in code blocks."""
    found: list[tuple[int, str, bool]] = []
    spans: list[tuple[int, int]] = []
    for span in _CODE_SPAN.finditer(body):
        spans.append((span.start(), span.end()))
        content = span.group(2)
        match = _SPAN_PATH.fullmatch(content.strip())
        if match is not None and _is_skill_path(match, skill_folders) and not _illustrates(body, span.start()):
            found.append((span.start(2) + len(content) - len(content.lstrip()), match.group(), False))
    for link in _LINK.finditer(body):
        if _covered(link.start(), spans):
            continue
        group = 1 if link.group(1) is not None else 2
        if group == 2 and not _DEFINITION_LABEL.fullmatch(body, body.rfind("\n", 0, link.start()) + 1, link.start()):
            continue
        target = _link_path(link.group(group))
        if target is not None:
            found.append((link.start(group), target, True))
    return found


def _illustrates(body: str, position: int) -> bool:
    """Whether the clause before ``position`` introduces an example ("Example: `scripts/x.py`"), not a file.

    The clause starts after the last line break, table cell, closing
    parenthesis or Chinese clause mark, so "(e.g. `x`), then read
    `references/y.md`" still points at y.
    """
    start = max(body.rfind(mark, 0, position) for mark in _CLAUSE_ENDS) + 1
    return _EXAMPLE_WORDS.search(body, start, position) is not None


def _covered(position: int, regions: list[tuple[int, int]]) -> bool:
    """Whether ``position`` lies in one of the sorted, disjoint (start, end) regions."""
    index = bisect.bisect_right(regions, (position, _AFTER_ANY)) - 1
    return index >= 0 and position < regions[index][1]


def _block_paths(body: str, start: int, end: int, skill_folders: frozenset[str]) -> list[tuple[int, str, bool]]:
    found: list[tuple[int, str, bool]] = []
    for folder in skill_folders:
        position = body.find(folder + "/", start, end)
        while position >= 0:
            before = body[position - 1] if position else " "
            # './x' in a command runs from the user's working folder: the '/' before it rules it out too.
            if not (before.isalnum() or before in _NOT_BEFORE_PATH):
                match = _BLOCK_PATH.match(body, position, end)
                if match is not None and _is_skill_path(match, skill_folders):
                    found.append((position, match.group(), False))
            position = body.find(folder + "/", position + 1, end)
    return found


def _is_skill_path(match: re.Match[str], skill_folders: frozenset[str]) -> bool:
    first, rest = match.group(1), match.group(2)
    return first in skill_folders and _EXTENSION.fullmatch(rest.rsplit("/", 1)[-1]) is not None


def _link_path(target: str) -> str | None:
    """The relative file path a link target names, or None for URLs, anchors and absolute or templated paths."""
    target = target.strip("<>")
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or _SCHEME.match(target) or target[0] in "/~" or _TEMPLATED.intersection(target):
        return None
    return unquote(target)


def check_references(references: list[Reference], exists: Callable[[str], bool]) -> list[Problem]:
    """SK201 for each path that is not in the skill's folder, SK202 for each link that leaves it."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    for reference in references:
        path = posixpath.normpath(reference.path)
        if path == ".." or path.startswith("../"):
            if reference.from_link:
                problems.append(
                    ("SK202", reference.at, f"'{reference.path}' leaves the skill's folder; copy the file into it")
                )
            continue
        if (path, reference.at.line) in seen or path == "." or exists(path):
            continue
        seen.add((path, reference.at.line))
        problems.append(
            ("SK201", reference.at, f"'{reference.path}' is not in the skill's folder; add the file or fix the path")
        )
    return problems
