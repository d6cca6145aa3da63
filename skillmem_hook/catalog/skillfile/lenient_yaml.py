"""Read what a frontmatter means line by line, when it is not valid YAML; and the escapes both readers share.

Pure. PyYAML refuses a frontmatter as a whole (an unquoted ``: `` in a
description is the usual cause); this reader still finds ``name:`` and
``description:``, and reads their values as YAML would: quotes undone,
escapes decoded, a trailing ``# comment`` dropped.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_ESCAPES = {"\\": "\\", '"': '"', "/": "/", "n": "\n", "t": "\t", "r": "\r"}
_HEX = frozenset("0123456789abcdefABCDEF")
_SURROGATE_HIGH_BYTES = frozenset(f"D{digit}" for digit in "89ABCDEF")
_LENIENT_KEY = re.compile(r"(name|description)[ \t]*:(?:[ \t]+(.*))?$")
_COMMENT = re.compile(r"[ \t]#")
_BLOCK_INDICATOR = re.compile(r"([|>])[+-]?[0-9]?[ \t]*(?:#.*)?")


def unescape_double_quoted(inner: str, *, surrogates: bool = False) -> str | None:
    """The common escapes of a double-quoted scalar; None for any other.

    A ``\\u`` escape of a UTF-16 surrogate is None too, unless ``surrogates``
    (the lenient reader keeps it, so that the skill is refused with the reason).
    """
    if "\\" not in inner:
        return None if '"' in inner else inner
    parts: list[str] = []
    start = 0
    while (slash := inner.find("\\", start)) >= 0:
        parts.append(inner[start:slash])
        code = inner[slash + 1 : slash + 2]
        if code in _ESCAPES:
            parts.append(_ESCAPES[code])
            start = slash + 2
        elif code == "u" and len(digits := inner[slash + 2 : slash + 6]) == 4 and _HEX.issuperset(digits):
            if not surrogates and digits[:2].upper() in _SURROGATE_HIGH_BYTES:
                return (
                    None  # libyaml refuses a surrogate; PyYAML's pure loader does not: see frontmatter._read_with_yaml
                )
            parts.append(chr(int(digits, 16)))
            start = slash + 6
        else:
            return None
    parts.append(inner[start:])
    literal = "".join(parts[index] for index in range(0, len(parts), 2))
    return None if '"' in literal else "".join(parts)


def repeated_keys(text: str) -> list[str]:
    seen: set[str] = set()
    repeated: list[str] = []
    for line in text.split("\n"):
        match = _LENIENT_KEY.match(line)
        if match is None:
            continue
        key = match.group(1)
        if key in seen and key not in repeated:
            repeated.append(key)
        seen.add(key)
    return repeated


def read_leniently(text: str) -> dict[str, str]:
    """Read ``name:`` and ``description:`` from text that is not valid YAML."""
    lines = text.split("\n")
    fields: dict[str, str] = {}
    for number, line in enumerate(lines):
        match = _LENIENT_KEY.match(line)
        if match is None:
            continue
        key, value = match.group(1), (match.group(2) or "").strip()
        block = _BLOCK_INDICATOR.fullmatch(value)
        if block is not None:
            fields[key] = _block_text(_indented_lines(lines, number + 1), folded=block.group(1) == ">")
        else:
            fields[key] = _lenient_scalar(value)
    return fields


def _indented_lines(lines: list[str], start: int) -> Iterator[str]:
    for line in lines[start:]:
        if line and not line[0].isspace():
            return
        yield line.strip()


def _block_text(lines: Iterator[str], *, folded: bool) -> str:
    kept = list(lines)
    while kept and not kept[-1]:
        kept.pop()
    if folded:
        return " ".join(line for line in kept if line)
    return "\n".join(kept)


def _lenient_scalar(value: str) -> str:
    """A one-line value as YAML would mean it: quotes undone, a trailing ``# comment`` dropped."""
    quote = value[:1]
    if quote in ("'", '"'):
        closing = _closing_quote(value)
        if closing > 0 and value[closing + 1 :].strip()[:1] in ("", "#"):
            inner = value[1:closing]
            if quote == "'":
                return inner.replace("''", "'")
            return unescape_double_quoted(inner, surrogates=True) or inner
        return value
    comment = _COMMENT.search(" " + value)  # a '#' after a space, or at the start, opens a comment
    return value[: comment.start()].rstrip() if comment else value


def _closing_quote(value: str) -> int:
    """The index of the quote that closes the one ``value`` starts with; -1 when none does."""
    quote, position = value[0], 1
    while position < len(value):
        character = value[position]
        if quote == '"' and character == "\\":
            position += 2
            continue
        if character == quote:
            if quote == "'" and value[position + 1 : position + 2] == "'":
                position += 2  # a doubled quote stands for one
                continue
            return position
        position += 1
    return -1
