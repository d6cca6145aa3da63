"""The files a SKILL.md's body points at, and which of them are missing.

Pure: body text in, references out; whether a path exists is asked of a
function the caller passes. What counts as a pointer to a file of the skill:

- the target of a Markdown link or image (``[x](path)``, ``![x](path)``,
  ``[x]: path``) outside code: every relative target. URLs (any
  ``scheme:``), anchors (``#x``), absolute paths (``/x``, ``~/x``) and
  templated targets (``{x}``, ``$X``, ``<x>``) are not paths of the skill;
- in a code span or a fenced code block, a path that has a file extension and
  whose first folder is one a skill conventionally holds (``scripts/``,
  ``references/``, ``assets/``, ``templates/``) or exists in the skill's
  folder. Other paths in code (``src/app.py``) are about the user's project,
  not the skill, and are left alone; so are bare file names.

A link target that climbs out of the skill's folder (``../x``) is its own
finding; a code path that does is ignored, since code shows commands run
anywhere.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from skillmem_hook.lint.rules import Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from skillmem_hook.lint.spec import Problem

CONVENTIONAL_FOLDERS = frozenset({"scripts", "references", "assets", "templates"})
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*(<[^>\n]*>|[^)\s]+)")
_DEFINITION = re.compile(r" {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_CODE_PATH = re.compile(r"(?<![\w./~$}-])(?:\./)?([A-Za-z0-9_][\w.-]*)((?:/[\w.@+-]+)+)")
_EXTENSION = re.compile(r"[^./][^/]*\.[A-Za-z0-9]{1,8}")
_TEMPLATED = frozenset("{}$<>*?|\\")


class Reference:
    """A path the body points at, where it is, and whether it came from a link."""

    __slots__ = ("at", "from_link", "path")

    def __init__(self, path: str, at: Position, *, from_link: bool) -> None:
        self.path = path
        self.at = at
        self.from_link = from_link


def find_references(body: str, first_line: int, folder_exists: Callable[[str], bool]) -> list[Reference]:
    """Every file path the body points at; ``folder_exists(name)`` says whether the skill has that folder."""
    found: list[Reference] = []
    fence = ""
    for number, line in enumerate(body.split("\n"), first_line):
        opening = _FENCE.match(line)
        if fence:
            if opening is not None and opening.group(1).startswith(fence) and not line[opening.end() :].strip():
                fence = ""
            else:
                found += _code_paths(line, 0, number, folder_exists)
            continue
        if opening is not None:
            fence = opening.group(1)
            continue
        found += _line_references(line, number, folder_exists)
    return found


def _line_references(line: str, number: int, folder_exists: Callable[[str], bool]) -> Iterator[Reference]:
    prose = line
    for span in _CODE_SPAN.finditer(line):
        content = span.group(2)
        start = span.start(2) + len(content) - len(content.lstrip())
        yield from _code_paths(content.strip(), start, number, folder_exists, whole=True)
        prose = prose[: span.start()] + " " * (span.end() - span.start()) + prose[span.end() :]
    for match in (*_LINK.finditer(prose), *_DEFINITION.finditer(prose)):
        target = _link_path(match.group(1))
        if target is not None:
            yield Reference(target, Position(number, match.start(1) + 1), from_link=True)


def _link_path(target: str) -> str | None:
    """The relative file path a link target names, or None for URLs, anchors and absolute or templated paths."""
    target = target.strip("<>")
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or _SCHEME.match(target) or target[0] in "/~" or _TEMPLATED.intersection(target):
        return None
    return unquote(target)


def _code_paths(
    text: str, offset: int, number: int, folder_exists: Callable[[str], bool], *, whole: bool = False
) -> Iterator[Reference]:
    # A code span counts only when it holds the path alone; a code block line may hold several.
    matches = [_CODE_PATH.fullmatch(text)] if whole else _CODE_PATH.finditer(text)
    for match in matches:
        if match is None:
            continue
        first, rest = match.group(1), match.group(2)
        if not _EXTENSION.fullmatch(rest.rsplit("/", 1)[-1]):
            continue
        if first in CONVENTIONAL_FOLDERS or folder_exists(first):
            yield Reference(first + rest, Position(number, offset + match.start(1) + 1), from_link=False)


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
