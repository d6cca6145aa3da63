"""What a SKILL.md's bytes declare, whatever its path: name, description, metadata, title, sections.

Pure, and content only, so a cache can keep the result by the file's hash.
``skills.py`` places it at a path (the folder's name is the default name).
"""

from __future__ import annotations

from skillmem_hook.catalog.skillfile.frontmatter import (
    UnclosedFrontmatter,
    first_heading,
    frontmatter_span,
    read_fields,
)
from skillmem_hook.catalog.skillfile.names import SkillProblem, refuse_surrogates, replace_surrogates
from skillmem_hook.catalog.skillfile.sections import extract_sections
from skillmem_hook.catalog.skillfile.text import SkillText as SkillText  # noqa: PLC0414 - read_skill_text's result

HEADING_WINDOW = 64 * 1024
TITLE_WINDOW = 4096  # a body's title comes first; a "# " line further down is likely a code comment


# Search's body field comes from the body's start: "when to use" sections sit early,
# and a smaller window keeps the hooks' cold-cache cost low.
SECTIONS_WINDOW = 8 * 1024
_UTF16_OR_32_BOMS = (b"\xff\xfe", b"\xfe\xff")


# Claude Code's field for a skill only the user invokes (/name): the model is never offered it, so neither is the block.
USER_ONLY = "disable-model-invocation: true: only the user invokes it, so no agent is offered it"
_TRUE = (True, "true", "True", "TRUE")  # YAML 1.2's booleans, as Claude Code's reader takes them (lint's SK134)
_LFS_POINTER = b"version https://git-lfs.github.com/spec/"
# Claude Code takes the folder's name and the body's start for a SKILL.md without frontmatter; the other agents
# skillmem models (budget/loading.py) load no such skill, so the block's listing of it is said, not silent.
NO_FRONTMATTER = "no frontmatter: only Claude Code loads it; 'skillmem lint' says how to add one"
LFS_POINTER = (
    "SKILL.md is a Git LFS pointer, not the skill: keep SKILL.md out of LFS "
    "('SKILL.md -filter -diff -merge text' in .gitattributes, then git add --renormalize .)"
)


def read_skill_text(data: bytes, *, sections: bool = True) -> SkillText:
    """Read what a SKILL.md declares from its leading bytes; the body's sections only when asked for (search).

    ``data`` holds at least the frontmatter and up to HEADING_WINDOW bytes of
    body after it (or the file's end). Raises SkillProblem with the reason.
    """
    try:
        span = frontmatter_span(data)  # never raises for the two refusals below: neither opens with ---
    except UnclosedFrontmatter as error:
        raise SkillProblem(str(error)) from None
    return read_located_text(data, span, sections=sections)


def read_located_text(data: bytes, span: tuple[int, int, int] | None, *, sections: bool = True) -> SkillText:
    """``read_skill_text`` of bytes whose frontmatter was located already: ``span`` is ``frontmatter_span(data)``."""
    if data.startswith(_UTF16_OR_32_BOMS):
        raise SkillProblem("UTF-16 or UTF-32 text; save SKILL.md as UTF-8")
    if data.startswith(_LFS_POINTER):
        # Read as a skill, the pointer would name one after its folder, and differ from the checked-out file.
        raise SkillProblem(LFS_POINTER)
    fields: object = {}
    warnings: list[str] = []
    body_start = 0
    if span is not None:
        start, end, body_start = span
        fields, warnings = read_fields(_decode(data[start:end], "frontmatter"))
    mapping = _as_mapping(fields, warnings)
    if mapping.get("disable-model-invocation", False) in _TRUE:
        raise SkillProblem(USER_ONLY)
    name = _string_field(mapping, "name", warnings)
    description = _string_field(mapping, "description", warnings)
    if warnings:  # a surrogate comes only from the lenient reader, which always warns
        refuse_surrogates(name or "")
        description = replace_surrogates(description, warnings) if description else description
    if description is None:  # only then is the body decoded: checking every body costs 12% of a scan
        body = _decode(_whole_lines(data[body_start : body_start + HEADING_WINDOW]), "body")
        description = first_heading(body)
    if span is None:
        warnings.append(NO_FRONTMATTER)
    metadata = _text_metadata(mapping.get("metadata"))
    title = _body_title(data, body_start)
    title = name if title == name else title  # one string, not two: most skills are titled by their name
    found = _sections(data, body_start) if sections else None
    return SkillText(name, description, warnings, metadata, title=title, sections=found)


def _sections(data: bytes, body_start: int) -> str:
    """Search's sections of the body. Lenient: a bad byte in the body must not cost the skill its place."""
    return extract_sections(data[body_start : body_start + SECTIONS_WINDOW].decode("utf-8", "replace"))


def _decode(data: bytes, what: str) -> str:
    if b"\x00" in data:
        raise SkillProblem(f"binary file: the {what} holds a NUL byte")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SkillProblem(
            f"the {what} is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def _body_title(data: bytes, body_start: int) -> str:
    """The text of the body's first ``# `` line near its top, read leniently: it only helps categorise."""
    if data.startswith(b"# ", body_start):
        start = body_start
    else:
        start = data.find(b"\n# ", body_start, body_start + TITLE_WINDOW) + 1
        if start == 0:
            return ""
    end = data.find(b"\n", start)
    line = data[start + 2 : end if end >= 0 else len(data)]
    return line.decode("utf-8", "replace").strip().rstrip("#").strip()


def _whole_lines(data: bytes) -> bytes:
    """Drop a last line cut short by the read window, so no character is split."""
    if len(data) < HEADING_WINDOW:
        return data
    return data[: data.rfind(b"\n") + 1]


def _as_mapping(fields: object, warnings: list[str]) -> dict[object, object]:
    if isinstance(fields, dict):
        return fields
    if fields is not None and fields != "":
        warnings.append("the frontmatter is not a mapping of keys to values; defaults are used")
    return {}


def _string_field(mapping: dict[object, object], key: str, warnings: list[str]) -> str | None:
    value = mapping.get(key)
    if value is None or isinstance(value, str):
        return value
    warnings.append(f"{key} is a {type(value).__name__}, not text; the default is used")
    return None


def _text_metadata(value: object) -> dict[str, str]:
    """The frontmatter's ``metadata`` map, text values only (the Agent Skills spec's shape)."""
    if not isinstance(value, dict):
        return {}
    return {key: item for key, item in value.items() if isinstance(key, str) and isinstance(item, str)}
