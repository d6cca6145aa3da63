"""The ``.gitattributes`` lines that send the prompt files through skillmem's merge driver. Pure."""

from __future__ import annotations

import shlex

DRIVER = "skillmem"
DRIVER_NAME = "skillmem: merge the text, rebuild the skill index block"


def attribute_line(path: str) -> str:
    """``/AGENTS.md merge=skillmem``: anchored at the top, quoted when the path holds a space or a quote."""
    pattern = "/" + (path[2:] if path.startswith("./") else path)
    if any(character in pattern for character in ' "\\\t'):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{pattern} merge={DRIVER}"


def add_attributes(data: bytes, paths: list[str]) -> bytes:
    """``data`` (the file's bytes, empty when there is none) with a line for each path that lacks one."""
    present = {line.strip() for line in data.decode("utf-8", "surrogateescape").splitlines()}
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
