"""``skillmem hook``: write a bash wrapper that installs skills, then re-indexes.

The wrapper runs its own arguments as an installer command (stopping with
the installer's exit code if it fails), then ``index``, ``inject`` and
``verify --strict`` for the configured roots and prompt files, and exits
with verify's code. It can be committed: it finds ``skillmem`` on the PATH
(or ``python3 -m skillmem_hook``) as a teammate's machine or CI has it, and
names the roots and prompt files relative to the repository's root, which
it finds from its own place. Paths are shell-quoted, so spaces and quotes
survive; one outside the repository stays absolute.
"""

from __future__ import annotations

import os
import shlex
import stat

from skillmem_hook.arguments import add_location_options, add_text_option
from skillmem_hook.atomic import commit_all, stage, staging
from skillmem_hook.catalog.dot_git import work_tree_top
from skillmem_hook.catalog.skillfile.names import utf8_path
from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_OK, FileAccessError
from skillmem_hook.files import check_output_target
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


# The wrapper's second line: skillmem replaces a file only when it holds it.
_SIGNATURE = b"#!/usr/bin/env bash\n# Written by 'skillmem hook'."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=True)
    parser.add_argument("--out", metavar="PATH", required=True, help="where to write the wrapper script")
    parser.add_argument("--force", action="store_true", help="replace an existing file that skillmem did not write")
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, options.prompt_file)
    roots = require_roots(settings)
    return hook(roots, require_prompt_files(settings), options.out, force=options.force, text=options.text)


def hook(
    roots: Sequence[str], prompt_files: Sequence[str], out: str, *, force: bool = False, text: bool = False
) -> int:
    """Write the wrapper to ``out``: a new file, an older wrapper, or (with ``force``) any regular file."""
    target, old = check_output_target(
        out, "the wrapper script", signature=_SIGNATURE, protected=prompt_files, force=force
    )
    top = _repository_root()
    to_top = utf8_path(os.path.relpath(top, os.path.dirname(os.path.abspath(target))), "path from --out to the top")
    roots_from_top = [utf8_path(_from(top, root), "skills root") for root in roots]
    files_from_top = [utf8_path(_from(top, path), "prompt file") for path in prompt_files]
    script = render_wrapper(to_top, roots_from_top, files_from_top)
    script_bytes = script.encode("utf-8")
    _make_folder(os.path.dirname(target), out)
    with staging() as staged:
        # Executable by its owner whatever the umask (umask 177 would leave it 0600).
        stage(staged, target, script_bytes, label=out, expected=old, new_mode=0o777, required_bits=stat.S_IRWXU)
        commit_all(staged)
    emit({"written": out, "roots": list(roots), "prompt_files": list(prompt_files)}, as_text if text else None)
    return EXIT_OK


def as_text(result: dict[str, object]) -> str:
    """``--text``: one ``key: value`` line per key of the JSON."""
    return "".join(f"{key}: {value}\n" for key, value in result.items())


def _make_folder(folder: str, out: str) -> None:
    """Create the wrapper's folder (``scripts/``) when it does not exist yet, as ``mkdir -p`` would."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise FileAccessError(
            f"cannot create the folder of {out!r}: {error.strerror}", "check the path and the permissions above it"
        ) from None


def render_wrapper(to_top: str, roots: Sequence[str], prompt_files: Sequence[str]) -> str:
    """The wrapper script's text; ``to_top`` leads from the script's folder to the repository's root."""
    root_args = " ".join(f"--root {shlex.quote(root)}" for root in roots)
    file_args = " ".join(f"--prompt-file {shlex.quote(path)}" for path in prompt_files)
    return "\n".join(
        [
            "#!/usr/bin/env bash",
            "# Written by 'skillmem hook'. Usage: this-script [INSTALLER COMMAND...]",
            "# Runs the installer command (if any) where it is called, then re-indexes the",
            "# skills and injects the block; exits with 'skillmem verify --strict's code.",
            "# Safe to commit: paths are relative to the repository, and skillmem is found",
            "# on the PATH (or as python3 -m skillmem_hook).",
            "set -u",
            'if [ "$#" -gt 0 ]; then',
            '  "$@" >&2 || exit $?',
            "fi",
            "if command -v skillmem >/dev/null 2>&1; then skillmem=(skillmem)",
            "elif python3 -c 'import skillmem_hook' 2>/dev/null; then skillmem=(python3 -m skillmem_hook)",
            "else echo 'skillmem is not installed here: pip install it from its repository' >&2; exit 2",
            "fi",
            f'cd "$(dirname "$0")"/{shlex.quote(to_top)} || exit 2',
            f'"${{skillmem[@]}}" index {root_args} >/dev/null || exit $?',
            f'"${{skillmem[@]}}" inject {root_args} {file_args} >/dev/null || exit $?',
            f'exec "${{skillmem[@]}}" verify --strict {root_args} {file_args}',
            "",
        ]
    )


def _repository_root() -> str:
    """The work tree's top at or above the current folder (``dot_git.work_tree_top``); the current folder
    outside a repository."""
    return work_tree_top(os.getcwd()) or os.getcwd()


def _from(top: str, path: str) -> str:
    """The path as seen from the repository's root; absolute when it lies outside."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, top)
    return absolute if relative == ".." or relative.startswith(".." + os.sep) else relative
