"""Find a SKILL.md's frontmatter and read its fields, as strings.

Pure: bytes and strings in, values out. Every scalar stays a string
(``name: yes`` is the name "yes"), as YAML's base schema reads it.

Three readers, tried in order:
1. a fast path for the common shapes, ``key: value`` entries whose value
   is a plain or quoted scalar on one line, a folded or literal block of
   lines with one indentation, or a map of such one-line entries with one
   indentation (``metadata:`` and its fields); differential property tests
   prove it equal to PyYAML;
2. PyYAML's base loader (imported only when a file needs it); a ``\\u``
   escape of a UTF-16 surrogate is invalid, as libyaml says, whichever
   loader PyYAML has;
3. when PyYAML rejects the text, a lenient line reader for ``name:`` and
   ``description:`` (``lenient_yaml.py``) that records a warning instead of
   dropping the skill.
"""

from __future__ import annotations

import re

from skillmem_hook.catalog.skillfile.lenient_yaml import read_leniently, repeated_keys, unescape_double_quoted
from skillmem_hook.lazy_pattern import lazy_compile

BOM = b"\xef\xbb\xbf"
_OPENING = re.compile(rb"---[ \t]*\r?\n")
# Matched only where a line starts with ---: bytes.find skips to those, which a MULTILINE '^' search does not
# (3.5 against 9.4 us a file, and every file is located twice on a cold run).
_CLOSING_LINE = re.compile(rb"---[ \t]*(?:\r?\n|\Z)")

_FAST_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*): +(.*)")
_MAP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*): *")  # a key whose value is the indented lines below it
# A plain scalar may not start with a YAML indicator; these also send
# anything quoted, flow-styled, anchored, tagged or block-styled to PyYAML.
_FAST_BAD_START = frozenset("-?:,[]{}#&*!|>'\"%@`")
_BLOCK_STYLES = frozenset({">", ">-", "|", "|-"})


class UnclosedFrontmatter(ValueError):
    """The file opens a ``---`` block that the given bytes never close."""


def frontmatter_span(data: bytes) -> tuple[int, int, int] | None:
    """Locate the frontmatter in a file's leading bytes.

    Returns (start, end, body_start) of the YAML text, or None when the file
    has no frontmatter. Raises UnclosedFrontmatter when an opening ``---``
    line has no closing line within ``data``.
    """
    offset = len(BOM) if data.startswith(BOM) else 0
    opening = _OPENING.match(data, offset)
    if opening is None:
        return None
    line = opening.end()
    while True:
        closing = _CLOSING_LINE.match(data, line) if data.startswith(b"---", line) else None
        if closing is not None:
            return opening.end(), line, closing.end()
        line = data.find(b"\n---", line) + 1  # the next line that starts with ---
        if line == 0:
            raise UnclosedFrontmatter("the frontmatter's '---' block is never closed")


def first_heading(body: str) -> str | None:
    """The text of the first level-one ``# `` heading, if any."""
    for line in body.splitlines():
        if line.startswith("# "):
            heading = line[2:].strip().rstrip("#").strip()
            if heading:
                return heading
    return None


def read_fields(text: str) -> tuple[object, list[str]]:
    """Read frontmatter text into a YAML value, with any warnings."""
    text = text.replace("\r\n", "\n")
    fast = read_simple_mapping(text)
    if fast is not None:
        return fast, []
    return _read_with_yaml(text)


def read_simple_mapping(text: str) -> dict[str, str | dict[str, str]] | None:
    """Read text made only of simple ``key: value`` entries; None for anything else.

    A value is a one-line scalar, a folded (``>``, ``>-``) or literal
    (``|``, ``|-``) block whose lines share one indentation, or a map of
    one-line scalars whose lines share one indentation.
    """
    fields: dict[str, str | dict[str, str]] = {}
    lines = text.split("\n")
    position = 0
    while position < len(lines):
        line = lines[position]
        position += 1
        if not line:
            continue
        match = _FAST_LINE.fullmatch(line)
        if match is None or not match.group(2).strip(" "):  # "key:" alone: its value is the lines below it
            below = _MAP_KEY.fullmatch(line)
            if below is None:
                return None
            nested, position = _simple_map(lines, position)
            if nested is None or below.group(1) in fields:
                return None
            fields[below.group(1)] = nested
            continue
        key, value = match.groups()
        value = value.rstrip(" ")
        if value in _BLOCK_STYLES:
            scalar, position = _simple_block(lines, position, value)
        else:
            scalar = _simple_scalar(value)
        if scalar is None or key in fields:
            return None
        fields[key] = scalar
    return fields


def _simple_map(lines: list[str], start: int) -> tuple[dict[str, str] | None, int]:
    """The map of one-line ``key: value`` entries whose lines begin at ``start``, and the position after it.

    Its lines share one indentation; a blank line, a deeper or shallower one,
    a block scalar, a comment or a repeated key inside it means PyYAML.
    """
    end = start
    while end < len(lines) and lines[end][:1] == " ":
        end += 1
    if end == start:
        return None, end  # "key:" alone is an empty value (PyYAML's '' or None): not this path's
    indent = len(lines[start]) - len(lines[start].lstrip(" "))
    prefix = " " * indent
    nested: dict[str, str] = {}
    for line in lines[start:end]:
        match = _FAST_LINE.fullmatch(line, indent) if line.startswith(prefix) else None
        if match is None:
            return None, end
        key, value = match.groups()
        value = value.rstrip(" ")
        scalar = None if value in _BLOCK_STYLES else _simple_scalar(value)
        if scalar is None or key in nested:
            return None, end
        nested[key] = scalar
    return nested, end


def _simple_block(lines: list[str], start: int, style: str) -> tuple[str | None, int]:
    """The block scalar whose lines begin at ``start``, and the position after it."""
    end = start
    while end < len(lines) and (not lines[end] or lines[end][0] == " "):
        end += 1
    content = lines[start:end]
    while content and not content[-1]:
        content.pop()  # trailing blank lines: dropped by both chompings handled here
    if not content:
        return None, end
    indent = len(content[0]) - len(content[0].lstrip(" "))
    prefix = " " * indent
    # Blank, more- or less-indented lines, and anything not printable, follow rules of their own.
    if not all(
        line.startswith(prefix) and line[indent : indent + 1] not in ("", " ") and line.isprintable()
        for line in content
    ):
        return None, end
    joined = (" " if style[0] == ">" else "\n").join(line[indent:] for line in content)
    return (joined if style.endswith("-") else joined + "\n"), end


def _simple_scalar(value: str) -> str | None:
    """A one-line plain, 'single' or "double" quoted scalar; None for anything else.

    Characters that are not printable (line breaks and controls YAML treats
    specially, the tab whose handling differs between readers) mean PyYAML.
    """
    if not value.isprintable():
        return None
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        if value[0] == "'":
            return None if "'" in inner.replace("''", "") else inner.replace("''", "'")
        return unescape_double_quoted(inner)
    if not value or value[0] in _FAST_BAD_START or value.endswith(":") or ": " in value or " #" in value:
        return None
    return value


# The frontmatter's first line in the file: the opening '---' is line 1 (a BOM before it shifts no line).
FIRST_LINE = 2
_YAML_PLACE = lazy_compile(r"invalid YAML \(.*(line \d+, column \d+)\)")


def brief_warning(warning: str) -> str:
    """A PyYAML error cut to where it happened in the file: the rest means nothing to a skill's author."""
    found = _YAML_PLACE.match(warning)
    if found is None:
        return warning
    return f"invalid YAML ({found.group(1)}); name and description read line by line"


def yaml_problem(error: Exception) -> str:
    """PyYAML's words for an error, and where in the file it stopped: the line and column lint gives too.

    PyYAML counts the frontmatter's lines from 0 and its columns from 0, after CRLF became LF.
    """
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    words = " ".join(str(getattr(error, "problem", None) or error).split()) or type(error).__name__
    return words if mark is None else f"{words}, line {FIRST_LINE + mark.line}, column {mark.column + 1}"


def _read_with_yaml(text: str) -> tuple[object, list[str]]:
    import yaml  # noqa: PLC0415 - costs more than the rest of a run; load it only when needed

    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        value = yaml.load(text, Loader=loader)  # noqa: S506 - the base loader builds only str, list and dict
    except (yaml.YAMLError, RecursionError) as error:
        problem = yaml_problem(error)
        return read_leniently(text), [f"invalid YAML ({problem}); name and description were read line by line"]
    if loader is yaml.BaseLoader and _holds_surrogate(
        value
    ):  # libyaml refuses these escapes; the pure loader must agree
        problem = "a \\u escape names half of a UTF-16 surrogate pair"
        return read_leniently(text), [f"invalid YAML ({problem}); name and description were read line by line"]
    warnings = [f"key {key!r} is given more than once; the last one is used" for key in repeated_keys(text)]
    return value, warnings


def _holds_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return not value.isascii() and any("\ud800" <= character <= "\udfff" for character in value)
    if isinstance(value, dict):
        return any(_holds_surrogate(key) or _holds_surrogate(item) for key, item in value.items())
    return isinstance(value, list) and any(_holds_surrogate(item) for item in value)
