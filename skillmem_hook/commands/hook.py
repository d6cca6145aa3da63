"""``skillmem hook``: write a bash wrapper that installs skills, then re-indexes.

The wrapper runs its own arguments as an installer command (stopping with
the installer's exit code if it fails), then ``index``, ``inject`` and
``verify --strict`` for the configured roots and prompt files, and exits
with verify's code. Paths are made absolute and shell-quoted, so spaces and
quotes survive.
"""

from __future__ import annotations

import os
import shlex
import sys

from skillmem_hook.block.prompt_file import write_atomically
from skillmem_hook.errors import EXIT_OK, FileAccessError
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def hook(roots: Sequence[str], prompt_files: Sequence[str], out: str) -> int:
    if os.path.isdir(out):
        raise FileAccessError(f"--out {out!r} is a folder", "pass --out the path of the script to write")
    script = render_wrapper(sys.executable, roots, prompt_files)
    write_atomically(os.path.realpath(out), script.encode("utf-8"), mode=0o777)
    emit({"written": out, "roots": list(roots), "prompt_files": list(prompt_files)})
    return EXIT_OK


def render_wrapper(python: str, roots: Sequence[str], prompt_files: Sequence[str]) -> str:
    """The wrapper script's text."""
    skillmem = f"{shlex.quote(python)} -m skillmem_hook"
    root_args = " ".join(f"--root {shlex.quote(os.path.abspath(root))}" for root in roots)
    file_args = " ".join(f"--prompt-file {shlex.quote(os.path.abspath(path))}" for path in prompt_files)
    return "\n".join(
        [
            "#!/usr/bin/env bash",
            "# Written by 'skillmem hook'. Usage: this-script [INSTALLER COMMAND...]",
            "# Runs the installer command (if any), then re-indexes the skills and",
            "# injects the block; exits with 'skillmem verify --strict's code.",
            "set -u",
            'if [ "$#" -gt 0 ]; then',
            '  "$@" >&2 || exit $?',
            "fi",
            f"{skillmem} index {root_args} >/dev/null || exit $?",
            f"{skillmem} inject {root_args} {file_args} >/dev/null || exit $?",
            f"exec {skillmem} verify --strict {root_args} {file_args}",
            "",
        ]
    )
