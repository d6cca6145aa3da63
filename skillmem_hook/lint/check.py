"""Lint one SKILL.md's bytes: encoding, frontmatter, spec fields, referenced files, quality.

Pure: bytes in, findings out; the caller says which paths exist in the
skill's folder. Never raises for what a file holds.
"""

from __future__ import annotations

from skillmem_hook.catalog.skillfile.frontmatter import BOM, UnclosedFrontmatter, frontmatter_span
from skillmem_hook.lint.fields import YamlProblem, read_located_fields
from skillmem_hook.lint.quality import check_quality
from skillmem_hook.lint.references import check_references, find_references
from skillmem_hook.lint.rules import START, Finding, Position
from skillmem_hook.lint.spec import check_fields
from skillmem_hook.lint.suppress import drop_suppressed, find_suppressions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from skillmem_hook.lint.fields import Fields
    from skillmem_hook.lint.rules import Problem

_UTF16_OR_32_BOMS = (b"\xff\xfe", b"\xfe\xff")
# Past this many characters a body is not a skill's text: its references are not searched,
# so a vendored file cannot make every commit slow. SK203 says so.
MAX_SCANNED_BODY = 1024 * 1024
_NOT_SCANNED = "the body is {} characters; files it points at are checked in its first {} KiB only"


class FileLint:
    """The findings of one SKILL.md, and where its name is (for findings about the whole skill).

    ``declared``: the name as the catalog reads it, as ``(name or None,)``,
    when the frontmatter is valid YAML whose ``name`` is text or absent (the
    catalog's reader then reads the same); None when only the catalog can say.
    """

    __slots__ = ("declared", "findings", "name_at")

    def __init__(self, findings: list[Finding], name_at: Position, declared: tuple[str | None] | None = None) -> None:
        self.findings = findings
        self.name_at = name_at
        self.declared = declared


def lint_skill_file(
    data: bytes,
    *,
    path: str,
    folder: str,
    subfolders: Collection[str],
    exists: Callable[[str], bool | str],
    quality: bool = True,
) -> FileLint:
    """Every finding of a SKILL.md at ``path`` in a folder named ``folder``.

    ``subfolders`` are the names of the folders in the skill's folder;
    ``exists(relative_path)`` says whether a path exists inside it (or, as
    text, why the one there does not count). Without
    ``quality`` the quality rules are not run.
    """
    # Found first: a path's mentions on lines a comment silences are left out before they are counted.
    suppressions = find_suppressions(data.decode("utf-8", "replace")) if b"skill-lint:" in data else None
    silenced = suppressions.silences if suppressions else None
    problems, fields = _problems(data, folder, subfolders, exists, quality=quality, silenced=silenced)
    problems = drop_suppressed(problems, suppressions)
    name = fields.entries.get("name") if fields else None
    declared: tuple[str | None] | None = None
    if fields is not None and fields.is_mapping and (name is None or (name.is_text and isinstance(name.value, str))):
        declared = (name.value if name else None,)  # type: ignore[assignment]
    findings = [Finding(code, path, at.line, at.col, message, also=at.also) for code, at, message in problems]
    return FileLint(findings, name.value_at if name else START, declared)


def _problems(
    data: bytes,
    folder: str,
    subfolders: Collection[str],
    exists: Callable[[str], bool | str],
    *,
    quality: bool,
    silenced: Callable[[str, int], bool] | None,
) -> tuple[list[Problem], Fields | None]:
    text, encoding = _decoded(data)
    if encoding is not None:
        return [encoding], None
    try:
        span = frontmatter_span(data)
    except UnclosedFrontmatter:
        return [("SK102", START, "the frontmatter's '---' block is never closed; add a '---' line after it")], None
    if span is None:
        body_start = len(BOM) if data.startswith(BOM) else 0
        problems = [("SK101", START, "SKILL.md has no frontmatter; start it with '---', name, description, '---'")]
        fields = None
    else:
        start, end, body_start = span
        problems, fields = _frontmatter_problems(
            data[start:end].decode("utf-8"), data.count(b"\n", 0, start) + 1, folder
        )
    body = text[len(data[:body_start].decode("utf-8")) :]
    if "\r" in body:
        body = body.replace("\r\n", "\n")
    scanned = body
    if len(body) > MAX_SCANNED_BODY:  # cut at a line's end, so no path is cut in two
        scanned = body[: body.rfind("\n", 0, MAX_SCANNED_BODY) + 1 or MAX_SCANNED_BODY]
    if len(scanned) < len(body):
        problems.append(("SK203", START, _NOT_SCANNED.format(len(body), MAX_SCANNED_BODY // 1024)))
    references = find_references(scanned, data.count(b"\n", 0, body_start) + 1, subfolders)
    problems += check_references(references, exists, silenced)
    description = fields.entries.get("description") if fields else None
    if quality:
        text_value = description.value if description and isinstance(description.value, str) else None
        body_lines = body.count("\n") + (0 if body.endswith("\n") or not body else 1)
        problems += check_quality(text_value, description.value_at if description else None, body_lines)
    return problems, fields


def _frontmatter_problems(text: str, first_line: int, folder: str) -> tuple[list[Problem], Fields | None]:
    """The spec's problems of the frontmatter text, and its located fields when it is valid YAML."""
    try:
        fields = read_located_fields(text, first_line)
    except YamlProblem as error:
        line = text.replace("\r\n", "\n").split("\n")[error.at.line - first_line : error.at.line - first_line + 1]
        message = f"the frontmatter is not valid YAML ({error.problem}); {yaml_hint(error.problem, ''.join(line))}"
        return [("SK103", error.at, message)], None
    return check_fields(fields, folder), fields


def yaml_hint(problem: str, line: str) -> str:
    """What to do about a YAML error, from PyYAML's words and the line it stopped on."""
    value = line.split(":", 1)[1].strip() if ":" in line else line.strip()
    if "tab" in problem:
        return "indent with spaces, not tabs"
    if value[:1] in ("'", '"') and "expected" in problem:
        mark = value[0]
        escape = "write it twice ('')" if mark == "'" else 'escape it (\\")'
        return f"the {mark}-quoted value holds a {mark} of its own; {escape}, or quote with the other mark"
    if "mapping values" in problem:
        return "a value holding ': ' must be quoted: wrap the whole value in \"...\" or '...'"
    if "cannot start any token" in problem or "alias" in problem:
        return "a value starting with @, `, * or & must be quoted: wrap the whole value in \"...\" or '...'"
    return "check the YAML at this line and column; wrapping the value in quotes often fixes it"


def _decoded(data: bytes) -> tuple[str, Problem | None]:
    """The file's text, or the reason it is not UTF-8 text."""
    if data.startswith(_UTF16_OR_32_BOMS):
        return "", ("SK302", START, "SKILL.md is UTF-16 or UTF-32; save it as UTF-8")
    if b"\x00" in data:
        offset = data.index(b"\x00")
        return "", ("SK302", _position_of(data, offset), "SKILL.md holds a NUL byte (binary?); save it as UTF-8 text")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return "", (
            "SK302",
            _position_of(data, error.start),
            f"byte 0x{data[error.start]:02x} is not UTF-8 (Latin-1?); save SKILL.md as UTF-8",
        )


def _position_of(data: bytes, offset: int) -> Position:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return Position(data.count(b"\n", 0, offset) + 1, len(data[line_start:offset].decode("utf-8", "replace")) + 1)
