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
  working folder, as runbooks show). Also left alone: paths after a ``cd``
  in a code block (the commands then run in a clone or the user's
  project); a code span that is a link's text (the link's target is
  checked instead); a YAML block that is a CI workflow (a file the user
  adds to their own repository); a link on a template's placeholder line.

A link target that climbs out of the skill's folder (``../x``) is its own
finding; a code path that does is ignored, since code shows commands run
anywhere.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from urllib.parse import unquote

from skillmem_hook.lint.markdown import Lines, code_blocks, code_spans, is_workflow
from skillmem_hook.lint.rules import Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from skillmem_hook.lint.rules import Problem

CONVENTIONAL_FOLDERS = frozenset({"scripts", "references", "assets", "templates"})
# Patterns that start with a literal are searched for by the regex engine's
# fast scan; an alternation or optional first character makes them ten times slower.
# A link's target after "](", or a definition's after "]:" (its line must start "[label").
_LINK = re.compile(r"\](?:\(\s*(<[^>\n]*>|[^)\s]+)|:[ \t]*(<[^>\n]*>|[^\s\[]\S*))")
_DEFINITION_LABEL = re.compile(r" {0,3}\[[^\]\n]+")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SPAN_PATH = re.compile(r"(?:\./)?([A-Za-z0-9_][\w.-]*)((?:/[\w.@+-]+)+)")
_BLOCK_PATH = re.compile(r"([A-Za-z0-9_][\w.-]*)((?:/[\w.@+-]+)+)")
_NOT_BEFORE_PATH = frozenset("_./~$}-")
_CHANGE_FOLDER = re.compile(r"(?:^|&&|;|\|\|)[ \t]*(?:cd|pushd)[ \t]+\S", re.MULTILINE)
_EXTENSION = re.compile(r"[^./][^/]*\.[A-Za-z0-9]{1,8}")
_AFTER_ANY = 1 << 62
# Words that make a code span an illustration of what a skill could hold, as
# skill-writing guides show ("Examples: `references/finance.md` for ...").
# A line break, a table cell, a closing parenthesis (ASCII or full-width), and the Chinese full stop, comma, semicolon.
_CLAUSE_ENDS = ("\n", "|", ")", "\uff09", "\u3002", "\uff0c", "\uff1b")
_EXAMPLE_WORDS = re.compile(r"(?i)\bexamples?\W{0,3}:|\be\.g\.|\bfor instance\b|\bsuch as\b|例如|比如")
_TEMPLATED = frozenset("{}$<>*?|\\")
# Decoded, these make a target no path of the skill (a Windows path, a NUL, a line break).
_UNSAFE = frozenset("\\\x00\n\r")


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
    blocks = code_blocks(body)
    fenced = [(opening, after) for opening, _, _, after in blocks]
    found = [item for item in _prose_references(body, skill_folders) if not _covered(item[0], fenced)]
    for opening, content_start, content_end, _ in blocks:
        if not is_workflow(body, opening, content_start, content_end):
            found += _block_paths(body, content_start, content_end, skill_folders)
    found.sort()
    references: list[Reference] = []
    line, previous, line_start = first_line, 0, 0
    for offset, path, link in found:  # in order, so lines are counted once over the body
        line += body.count("\n", previous, offset)
        line_start = body.rfind("\n", previous, offset) + 1 or line_start
        column = offset - line_start + 1
        references.append(Reference(path, Position(line, column), from_link=link))
        previous = offset
    return references


def _prose_references(body: str, skill_folders: frozenset[str]) -> list[tuple[int, str, bool]]:
    """Code span paths, link and definition targets over the whole body; the caller drops those in code blocks."""
    found: list[tuple[int, str, bool]] = []
    spans: list[tuple[int, int]] = []
    clauses: _Clauses | None = None
    for start, end, content_start in code_spans(body):
        spans.append((start, end))
        if body[start - 1 : start] == "[" and body.startswith("](", end):
            continue  # the text of a link: what it points at is the link's target, checked below
        content = body[content_start : end - (content_start - start)]
        # The path alone, or a command's first word followed by its arguments ("scripts/clean.py input.csv").
        words = content.split(None, 1)
        match = _SPAN_PATH.fullmatch(words[0]) if words else None
        if match is None or not _is_skill_path(match, skill_folders):
            continue
        clauses = clauses or _Clauses(body)
        if not clauses.illustrates(start):
            found.append((content_start + len(content) - len(content.lstrip()), match.group(), False))
    lines = Lines(body)
    for link in _LINK.finditer(body):
        if _covered(link.start(), spans):
            continue
        group = 1 if link.group(1) is not None else 2
        line_start, _ = lines.around(link.start())
        if group == 2 and not _DEFINITION_LABEL.fullmatch(body, line_start, link.start()):
            continue
        if lines.has_placeholder():  # "[c4-file-1.md](./c4-file-1.md) - [Description]": a template's line
            continue
        target = _link_path(link.group(group))
        if target is not None:
            found.append((link.start(group), target, True))
    return found


class _Clauses:
    """Whether the clause before a position introduces an example ("Example: `scripts/x.py`"), not a file.

    The clause starts after the last line break, table cell, closing
    parenthesis or Chinese clause mark, so "(e.g. `x`), then read
    `references/y.md`" still points at y. Positions come in order, so each
    stretch of the body is searched for a clause end once, and the example
    words are found once over the body: searching each clause again for each
    code span in it is quadratic on a long line.
    """

    __slots__ = ("body", "example", "scanned", "searched", "start")

    def __init__(self, body: str) -> None:
        self.body = body
        self.scanned, self.start = 0, 0
        # The next example words at or after the clause start, searched for again only once the
        # clause start passes them; None with ``searched`` past the start: none in the rest of the body.
        self.example: re.Match[str] | None = None
        self.searched = -1

    def illustrates(self, position: int) -> bool:
        end = max(self.body.rfind(mark, self.scanned, position) for mark in _CLAUSE_ENDS)
        if end >= 0:
            self.start = end + 1
        self.scanned = position
        example = self.example
        if example is None and 0 <= self.searched <= self.start:
            return False
        if example is None or example.start() < self.start:
            example = self.example = _EXAMPLE_WORDS.search(self.body, self.start)
            self.searched = self.start
        return example is not None and example.end() <= position


def _covered(position: int, regions: list[tuple[int, int]]) -> bool:
    """Whether ``position`` lies in one of the sorted, disjoint (start, end) regions."""
    index = bisect.bisect_right(regions, (position, _AFTER_ANY)) - 1
    return index >= 0 and position < regions[index][1]


def _block_paths(body: str, start: int, end: int, skill_folders: frozenset[str]) -> list[tuple[int, str, bool]]:
    found: list[tuple[int, str, bool]] = []
    # After a 'cd' the commands run elsewhere (a clone, the user's project): their paths are not the skill's.
    moved = _CHANGE_FOLDER.search(body, start, end)
    end = moved.start() if moved else end
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
    """The relative file path a link target names, or None for URLs, anchors and absolute or templated paths.

    Decoded before it is judged: ``%2Fetc%2Fpasswd`` is an absolute path, not one of the skill's.
    """
    target = target.strip("<>")
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or _SCHEME.match(target) or _TEMPLATED.intersection(target):
        return None
    target = unquote(target)
    if not target or target[0] in "/~" or _SCHEME.match(target) or _UNSAFE.intersection(target):
        return None
    return target


def check_references(
    references: list[Reference],
    exists: Callable[[str], bool | str],
    silenced: Callable[[str, int], bool] | None = None,
) -> list[Problem]:
    """SK201 for each path that is not in the skill's folder, SK202 for each link that leaves it.

    One finding per path, at its first mention, listing the others
    (``Position.also``): a file named five times is one file to add.
    ``exists(path)`` is True for a file of the skill, False for none, or the
    message that says why the file that is there does not count.
    ``silenced(code, line)``: a mention on a line a comment silences is left
    out before the mentions are counted.
    """
    found: dict[tuple[str, str], tuple[Reference, str, list[tuple[int, int]]]] = {}
    judged: dict[str, bool | str] = {}  # exists() once per path
    for reference in references:
        path = posixpath.normpath(reference.path)
        problem = _problem(reference, path, judged, exists)
        if problem is None or (silenced is not None and silenced(problem[0], reference.at.line)):
            continue
        code, message = problem
        if (path, code) in found:
            found[(path, code)][2].append((reference.at.line, reference.at.col))
        else:
            found[(path, code)] = (reference, message, [])
    return [
        (code, Position(first.at.line, first.at.col, tuple(also)), message)
        for (_, code), (first, message, also) in found.items()
    ]


def _problem(
    reference: Reference, path: str, judged: dict[str, bool | str], exists: Callable[[str], bool | str]
) -> tuple[str, str] | None:
    """(code, message) for one mention of ``path`` (normalised), or None when it names a file of the skill."""
    if path == ".." or path.startswith("../"):
        if not reference.from_link:
            return None
        return "SK202", f"'{reference.path}' leaves the skill's folder; copy the file into it"
    if path == ".":
        return None
    if path not in judged:
        judged[path] = exists(path)
    found = judged[path]
    if found is True:
        return None
    reason = found if isinstance(found, str) else "is not in the skill's folder; add the file or fix the path"
    return "SK201", f"'{reference.path}' {reason}"
