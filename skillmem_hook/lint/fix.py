"""The mechanical fixes ``skillmem lint --fix`` makes: bytes in, bytes out, only the fixed lines changed.

- SK105: a top-level field no agent reads (``agent_fields.is_unknown``)
  whose value is one plain line moves under ``metadata:`` (after the last
  entry of a block-style ``metadata:``, at its first entry's indent, or a new
  one at the end of the frontmatter). A field an agent reads, a near miss of
  one, a list, a mapping, a multi-line value, a key ``metadata`` already
  holds, or a flow-style ``metadata: {...}`` is left for a person.
- SK113/SK114/SK115/SK116: a one-line ``name:`` that differs from a folder
  name that is itself a valid name becomes the folder's name.

Every other byte stays as it was (line endings, a BOM, comments, the body);
a line the fix adds ends as the line above it. The result is read again
before it is returned: unless it is the same data with the fields moved and
the name set, the fix is refused (UnprovenFix). A fixed file lints without
those findings, and fixing it again changes nothing.
"""

from __future__ import annotations

import re
import unicodedata

from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.lint.agent_fields import is_unknown
from skillmem_hook.lint.fields import YamlProblem, read_located_fields
from skillmem_hook.lint.spec import ALLOWED_FIELDS, MAX_NAME, form_breaches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

_PLAIN_LINE = re.compile(
    r"([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([^\s\[{|>&*!#'\"][^\r\n]*|'[^'\r\n]*'|\"[^\"\r\n]*\")\r?\n?"
)


class UnprovenFix(ValueError):
    """The fixed frontmatter would not read back as the same data plus the fix: the file is left as it is."""


def fix_skill_file(data: bytes, folder: str, *, set_name: bool = True) -> tuple[bytes, list[str]]:
    """The fixed bytes and the codes fixed ("name" for the name); the same bytes and [] when there is nothing
    mechanical to fix. ``set_name``: False leaves the name as it is (another skill holds the folder's).

    Raises UnprovenFix when the result, read again, is not the data read
    before with the fields moved (and the name set): such a fix is reported,
    never written.
    """
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
    lines = front.splitlines(keepends=True)  # at every break YAML's positions count (\r, U+2028 ...), not only LF
    fixed: list[str] = []
    name = _fix_name(lines, fields.entries.get("name"), folder) if set_name else None
    if name is not None:
        fixed.append("name")
    moved = _move_unknown(lines, fields)
    if moved:
        fixed.append("SK105")
    if not fixed:
        return data, []
    check_reads_as_intended(front, "".join(lines), moved, name)
    prefix = text[: len(data[:start].decode("utf-8"))]
    rest = text[len(data[:end].decode("utf-8")) :]
    return (prefix + "".join(lines) + rest).encode("utf-8"), fixed


def check_reads_as_intended(before: str, after: str, moved: Sequence[str], name: str | None) -> None:
    """Raise UnprovenFix unless ``after`` reads as ``before`` with ``moved`` under metadata and ``name`` set.

    Read as the catalog reads (every scalar text), so a value that changed
    type or text, a field swallowed by a block scalar above it, or a
    frontmatter that stopped being one mapping is caught whatever caused it.
    """
    import yaml  # noqa: PLC0415 - only a file with something to fix pays for PyYAML

    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        old, new = yaml.load(before, Loader=loader), yaml.load(after, Loader=loader)  # noqa: S506 - str, list, dict
    except (yaml.YAMLError, RecursionError):
        raise UnprovenFix("the result would not be valid YAML") from None
    if not isinstance(old, dict):
        raise UnprovenFix("the frontmatter is not one mapping")
    expected = dict(old)
    if name is not None:
        expected["name"] = name
    if moved:
        held = expected.get("metadata")
        metadata = dict(held) if isinstance(held, dict) else {}
        metadata.update((key, expected.pop(key)) for key in moved)
        expected["metadata"] = metadata
    if new != expected:
        raise UnprovenFix("the result would not read back as the same data with the fields moved")


def _fix_name(lines: list[str], field: object, folder: str) -> str | None:
    """Set a one-line name to the folder's valid name (NFKC); the name written, or None."""
    folder = unicodedata.normalize("NFKC", folder)
    if field is None or form_breaches(folder) or len(folder) > MAX_NAME:
        return None
    value = getattr(field, "value", None)
    if not isinstance(value, str) or unicodedata.normalize("NFKC", value.strip()) == folder:
        return None
    index = field.key.line - 1  # type: ignore[attr-defined]
    line = lines[index]
    match = _PLAIN_LINE.fullmatch(line)
    if match is None or match.group(1) != "name":
        return None
    lines[index] = line[: match.start(2)] + folder + _ending(line)
    return folder


def _move_unknown(lines: list[str], fields: object) -> list[str]:
    """Move each one-line field no agent reads under ``metadata:``; the keys moved, in the file's order."""
    entries = getattr(fields, "entries", {})
    metadata = entries.get("metadata")
    held = set(metadata.value) if metadata is not None and isinstance(metadata.value, dict) else set()
    if metadata is not None and not _block_mapping(lines, metadata.key.line - 1):
        return []
    moving: dict[int, str] = {}
    for key, field in entries.items():
        if not is_unknown(key, field.value, ALLOWED_FIELDS) or key in held or not isinstance(field.value, str):
            continue  # an agent reads it (or it is a near miss of such a field): under metadata it would stop working
        index = field.key.line - 1
        if field.key.col == 1 and _PLAIN_LINE.fullmatch(lines[index]) and _ends_entry(lines, index):
            moving[index] = key
    if not moving:
        return []
    moved = [lines[index] for index in sorted(moving)]
    for index in sorted(moving, reverse=True):
        del lines[index]
    if metadata is None:
        newline = _newline_of(lines, len(lines) - 1)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += newline
        lines += ["metadata:" + newline] + ["  " + _with_newline(line, newline) for line in moved]
    else:
        opening = metadata.key.line - 1
        _append_children(lines, opening - sum(index < opening for index in moving), moved)
    return [moving[index] for index in sorted(moving)]


def _append_children(lines: list[str], opening: int, moved: list[str]) -> None:
    """Add ``moved`` as the last entries of the block mapping opened on line ``opening``, at its first entry's indent.

    The block runs while lines are indented (or blank); an entry's own
    text (a block scalar, a nested list) is indented deeper, so lines at the
    first entry's indent after it are new entries, not part of that text.
    """
    last, indent, index = opening, "", opening + 1
    while index < len(lines) and (not lines[index].strip() or lines[index][:1] in " \t"):
        if lines[index].strip():
            last = index
            if not indent and not lines[index].lstrip().startswith("#"):
                indent = lines[index][: len(lines[index]) - len(lines[index].lstrip(" \t"))]
        index += 1
    newline = _newline_of(lines, last)
    if not lines[last].endswith("\n"):
        lines[last] += newline
    lines[last + 1 : last + 1] = [(indent or "  ") + _with_newline(line, newline) for line in moved]


def _block_mapping(lines: list[str], index: int) -> bool:
    """Whether ``metadata:`` on this line opens a block mapping (nothing after the colon but a comment)."""
    rest = lines[index].split(":", 1)[1].strip()
    return not rest or rest.startswith("#")


def _ends_entry(lines: list[str], index: int) -> bool:
    """Whether the entry is its line alone: the next line is another key, a comment, or the end."""
    return index + 1 >= len(lines) or not lines[index + 1][:1].isspace() or not lines[index + 1].strip()


def _newline_of(lines: list[str], index: int) -> str:
    """The line ending a line added after line ``index`` takes: that line's, else the first line's, else LF."""
    for line in (lines[index] if 0 <= index < len(lines) else "", lines[0] if lines else ""):
        if line.endswith("\n"):
            return _ending(line)
    return "\n"


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _with_newline(line: str, newline: str) -> str:
    return line if line.endswith("\n") else line + newline
