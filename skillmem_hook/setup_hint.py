"""The hint of a first setup without ``skillmem init``: every step at once, in commands to paste.

Said when no skills root or prompt file is given, configured or found: the
configuration to write (on one line, so it pastes as valid YAML), the
prompt file to create and what to ``git add``, with the roots where SKILL.md
files actually are.
"""

from __future__ import annotations

import json
import os

from skillmem_hook.catalog.discovery.git import run_git
from skillmem_hook.catalog.discovery.layout import choose_roots, hidden
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.errors import UsageError
from skillmem_hook.visible import command_path, git_add_path, shell_word


def first_setup_hint(roots: list[str], prompt_files: list[str], *, refused: tuple[str, str] | None = None) -> str:
    """Lines to paste, after the flag to pass: ``skillmem init``, or the configuration, the prompt file, the git add.

    ``refused``: a configuration file found and not used, with why. Then no step writes one: it would overwrite
    the user's own file (with the same mode, refused again); the hint says why it was not used and the fix.
    """
    if refused is not None:
        path, problem = refused
        return f"or mend {command_path(os.path.relpath(path))}, which was not used: {problem}"
    roots = roots or _found_roots() or ["skills"]
    prompt_files = prompt_files or ["AGENTS.md"]
    config = f"{{roots: {json.dumps(roots, ensure_ascii=False)}, prompt_files: {json.dumps(prompt_files)}}}"
    missing = [path for path in prompt_files if not os.path.lexists(path)]
    steps = [f"printf '%s\\n' {shell_word(config)} > {CONFIG_FILE}"]  # dash's echo reads a root's \\n as a line break
    steps += [f"touch {' '.join(command_path(path) for path in missing)}"] if missing else []
    steps.append(f"git add {' '.join(git_add_path(path) for path in [CONFIG_FILE, *prompt_files])}")
    return "run 'skillmem init' to set it all up in one step, or take these steps:\n" + "\n".join(steps)


def _found_roots() -> list[str]:
    """The roots of the SKILL.md files git lists below the current folder; none outside a work tree."""
    try:
        code, out = run_git(
            ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ":(glob)**/SKILL.md"], literal=False
        )
    except UsageError:
        return []
    if code != 0:
        return []
    return choose_roots(path for path in os.fsdecode(out).split("\0") if path and not hidden(path))[0]
