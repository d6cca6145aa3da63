"""Which prompt files a prompt file imports: Claude Code's ``@path.md`` lines, outside code blocks.

Claude Code reads an imported file into the prompt with the importer, so a
block in both is read twice: auto-detection leaves the importer out, and a
prompt file named twice so is warned about.
"""

from __future__ import annotations

import os

from skillmem_hook.lazy_pattern import lazy_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

_IMPORT = lazy_compile(rb"(?m)(?:^|\s)@(?:\./)?([^\s`]+\.md)(?=\s|$)")
_FENCE = lazy_compile(rb"(?ms)^[ ]{0,3}(```|~~~).*?^[ ]{0,3}\1")


def imported_files(path: str) -> set[str]:
    """The files ``path`` imports, as paths beside it (normalised); none for a file that cannot be read."""
    real, folder = os.path.realpath(path), os.path.realpath(os.path.dirname(path) or ".")
    if os.path.commonpath([real, folder]) != folder:
        return set()  # a link out of the file's folder: the write check refuses it later; never read it here
    try:
        with open(path, "rb") as file:
            data = file.read(1024 * 1024)
    except OSError:
        return set()
    folder = os.path.dirname(path)
    text = _FENCE.sub(b"", data)  # Claude Code does not read an import inside a code block
    return {os.path.normpath(os.path.join(folder, name.decode("utf-8", "replace"))) for name in _IMPORT.findall(text)}


def _first_imported(path: str, files: list[str]) -> str | None:
    imports = imported_files(path)
    return next((other for other in files if other != path and os.path.normpath(other) in imports), None)


def double_listing_warnings(files: Sequence[str]) -> list[str]:
    """For prompt files named explicitly: one that imports another named one makes Claude Code read the list twice."""
    warnings: list[str] = []
    if len(files) < 2:
        return warnings  # the steady state of one prompt file reads nothing more
    for path in files:
        imported = _first_imported(path, list(files))
        if imported is not None:
            warnings.append(
                f"{path} imports {imported} (@{os.path.basename(imported)}) and both hold the skill index, so the"
                f" agent reads the list twice: drop {path} from prompt_files (or its --prompt-file)"
            )
    return warnings
