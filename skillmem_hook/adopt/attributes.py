"""The ``.gitattributes`` lines that send the prompt files through skillmem's merge driver. Pure."""

from __future__ import annotations

import re
import shlex

DRIVER = "skillmem"
DRIVER_NAME = "skillmem: merge the text, rebuild the skill index block"

# Characters wildmatch reads as a pattern: escaped, so a file named '*.md' matches itself and no other file.
_WILDCARD = re.compile(r"([\\*?\[\]])")
# git reads a pattern that begins with '"' as a C string: these are its escapes.
_C_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def attribute_line(path: str) -> str:
    """``/AGENTS.md merge=skillmem``: anchored at the top, matching that one file whatever its name holds.

    Wildcards are escaped with a backslash; a name holding a space, a quote
    or a control character (a line break would start a line of its own, say
    ``* merge=skillmem``) is written as a C-quoted string, as git reads it.
    """
    pattern = "/" + _WILDCARD.sub(r"\\\1", path[2:] if path.startswith("./") else path)
    if any(character.isspace() or character == '"' or _is_control(character) for character in pattern):
        pattern = '"' + "".join(_c_escaped(character) for character in pattern) + '"'
    return f"{pattern} merge={DRIVER}"


def _is_control(character: str) -> bool:
    return ord(character) < 0x20 or ord(character) == 0x7F


def _c_escaped(character: str) -> str:
    if character in _C_ESCAPES:
        return _C_ESCAPES[character]
    return f"\\{ord(character):03o}" if _is_control(character) else character


def add_attributes(data: bytes, paths: list[str]) -> bytes:
    """``data`` (the file's bytes, empty when there is none) with a line for each path that lacks one."""
    # git ends a line at LF only; str.splitlines() would also split at a U+2028 a quoted name may hold.
    present = {line.strip() for line in data.decode("utf-8", "surrogateescape").split("\n")}
    missing = [attribute_line(path) for path in paths if attribute_line(path) not in present]
    if not missing:
        return data
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    head = data if not data or data.endswith((b"\n", b"\r")) else data + newline
    return head + newline.join(line.encode("utf-8", "surrogateescape") for line in missing) + newline


# git's own three-way text merge of the file, written to %A: what a clone without the driver gets.
TEXT_MERGE = "git merge-file -L ours -L base -L theirs %A %O %B"


def driver_command(python: str) -> str:
    """The ``merge.skillmem.driver`` value for this interpreter: git fills in the %-placeholders.

    The driver runs while the interpreter can import skillmem. Once it cannot
    (its virtualenv deleted, the package uninstalled), git's own text merge
    runs instead: the block conflicts, as in a clone without the driver, and
    the hooks rebuild it. A driver that failed to start would leave %A as our
    side's file, which git reports as a conflict with no conflict lines in it,
    so their side's edits could be lost unseen.
    """
    program = shlex.quote(python)
    return (
        f'if {program} -c "import skillmem_hook" 2>/dev/null;'
        f" then {program} -m skillmem_hook merge-driver %O %A %B %P; else {TEXT_MERGE}; fi"
    )
