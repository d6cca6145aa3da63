"""The mechanical fixes ``skillmem lint --fix`` makes: bytes in, bytes out, only the fixed lines changed.

- SK105: an unknown top-level field whose value is one plain line moves under
  ``metadata:`` (appended to a block-style ``metadata:``, or a new one at the
  end of the frontmatter). A list, a mapping, a multi-line value, a key
  ``metadata`` already holds, or a flow-style ``metadata: {...}`` is left
  for a person.
- SK113/SK114/SK115/SK116: a one-line ``name:`` that differs from a folder
  name that is itself a valid name becomes the folder's name.

Every other byte stays as it was (line endings, a BOM, comments, the body).
A fixed file lints without those findings, and fixing it again changes nothing.
"""

from __future__ import annotations

import re
import unicodedata

from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.lint.agent_fields import is_unknown
from skillmem_hook.lint.fields import YamlProblem, read_located_fields
from skillmem_hook.lint.spec import ALLOWED_FIELDS, MAX_NAME, form_breaches

_PLAIN_LINE = re.compile(
    r"([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([^\s\[{|>&*!#'\"][^\r\n]*|'[^'\r\n]*'|\"[^\"\r\n]*\")\r?\n?"
)
_CHILD = re.compile(r"([ \t]+)[^\s#]")


def fix_skill_file(data: bytes, folder: str) -> tuple[bytes, list[str]]:
    """The fixed bytes and the codes fixed; the same bytes and [] when there is nothing mechanical to fix."""
    try:
        span = frontmatter_span(data)
        text = data.decode("utf-8")
    except (UnclosedFrontmatter, UnicodeDecodeError):
        return data, []
    if span is None:
        return data, []
    start, end, _ = span
    front = data[start:end].decode("utf-8")
    try:
        fields = read_located_fields(front, 1)
    except YamlProblem:
        return data, []
    if not fields.is_mapping:
        return data, []
    lines = front.splitlines(keepends=True)
    fixed: list[str] = []
    if _fix_name(lines, fields.entries.get("name"), folder):
        fixed.append("name")
    if _move_unknown(lines, fields):
        fixed.append("SK105")
    if not fixed:
        return data, []
    prefix = text[: len(data[:start].decode("utf-8"))]
    rest = text[len(data[:end].decode("utf-8")) :]
    return (prefix + "".join(lines) + rest).encode("utf-8"), fixed


def _fix_name(lines: list[str], field: object, folder: str) -> bool:
    folder = unicodedata.normalize("NFKC", folder)
    if field is None or form_breaches(folder) or len(folder) > MAX_NAME:
        return False
    value = getattr(field, "value", None)
    if not isinstance(value, str) or unicodedata.normalize("NFKC", value.strip()) == folder:
        return False
    index = field.key.line - 1  # type: ignore[attr-defined]
    line = lines[index]
    match = _PLAIN_LINE.fullmatch(line)
    if match is None or match.group(1) != "name":
        return False
    lines[index] = line[: match.start(2)] + folder + _ending(line)
    return True


def _move_unknown(lines: list[str], fields: object) -> bool:
    entries = getattr(fields, "entries", {})
    metadata = entries.get("metadata")
    held = set(metadata.value) if metadata is not None and isinstance(metadata.value, dict) else set()
    if metadata is not None and not _block_mapping(lines, metadata.key.line - 1):
        return False
    moving = []
    for key, field in entries.items():
        if not is_unknown(key, field.value, ALLOWED_FIELDS) or key in held or not isinstance(field.value, str):
            continue  # an agent reads it (or it is a near miss of such a field): under metadata it would stop working
        index = field.key.line - 1
        if field.key.col == 1 and _PLAIN_LINE.fullmatch(lines[index]) and _ends_entry(lines, index):
            moving.append(index)
    if not moving:
        return False
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    moved = [lines[index] for index in moving]
    for index in sorted(moving, reverse=True):
        del lines[index]
    if metadata is None:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += newline
        lines += ["metadata:" + newline] + ["  " + _with_newline(line, newline) for line in moved]
        return True
    at = next(index for index, line in enumerate(lines) if line.startswith("metadata:"))
    indent, after = "  ", at + 1
    while after < len(lines) and (child := _CHILD.match(lines[after])) is not None:
        indent, after = child.group(1), after + 1
    if after == len(lines) and lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    lines[after:after] = [indent + _with_newline(line, newline) for line in moved]
    return True


def _block_mapping(lines: list[str], index: int) -> bool:
    """Whether ``metadata:`` on this line opens a block mapping (nothing after the colon but a comment)."""
    rest = lines[index].split(":", 1)[1].strip()
    return not rest or rest.startswith("#")


def _ends_entry(lines: list[str], index: int) -> bool:
    """Whether the entry is its line alone: the next line is another key, a comment, or the end."""
    return index + 1 >= len(lines) or not lines[index + 1][:1].isspace() or not lines[index + 1].strip()


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _with_newline(line: str, newline: str) -> str:
    return line if line.endswith("\n") else line + newline
