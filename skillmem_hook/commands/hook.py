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
import stat
import sys

from skillmem_hook.atomic import commit_all, stage, staging
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.files import check_output_target
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


# The wrapper's second line: skillmem replaces a file only when it holds it.
_SIGNATURE = b"#!/usr/bin/env bash\n# Written by 'skillmem hook'."


def hook(roots: Sequence[str], prompt_files: Sequence[str], out: str, *, force: bool = False) -> int:
    """Write the wrapper to ``out``: a new file, an older wrapper, or (with ``force``) any regular file."""
    target, old = check_output_target(
        out, "the wrapper script", signature=_SIGNATURE, protected=prompt_files, force=force
    )
    script = render_wrapper(sys.executable, roots, prompt_files).encode("utf-8")
    with staging() as staged:
        # Executable by its owner whatever the umask (umask 177 would leave it 0600).
        stage(staged, target, script, label=out, expected=old, new_mode=0o777, required_bits=stat.S_IRWXU)
        commit_all(staged)
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
