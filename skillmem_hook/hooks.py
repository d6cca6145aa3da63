"""The pre-commit hooks ``skill-index`` and ``skill-verify``: thin wrappers over inject and verify.

Both read drift strictly: a block that differs in any byte from what
``skill-index`` would write is drift. ``skill-index`` writes the block and
exits 3 so the commit stops until the result is staged (pre-commit does not
notice changes to untracked files, so the exit code says it). ``skill-verify``
never writes. Their report is for a person, on stderr.
"""

from __future__ import annotations

import argparse
import sys

from skillmem_hook.arguments import ArgumentParser, HelpShown, add_location_options
from skillmem_hook.block.sync import compare_prompt_files, write_updates
from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_DRIFT, EXIT_OK
from skillmem_hook.report import run_reporting_errors

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.block.drift import Drift


def skill_index(argv: Sequence[str] | None = None) -> int:
    """Re-inject the block; exit 3 when any prompt file changed."""
    return run_reporting_errors(lambda: "skill-index", lambda: _run("skill-index", argv, write=True))


def skill_verify(argv: Sequence[str] | None = None) -> int:
    """Exit 3 when any block is not current; never write."""
    return run_reporting_errors(lambda: "skill-verify", lambda: _run("skill-verify", argv, write=False))


def _run(hook_id: str, argv: Sequence[str] | None, *, write: bool) -> int:
    parser = ArgumentParser(prog=hook_id, description=(__doc__ or "").splitlines()[0])
    add_location_options(parser, prompt_files=True)
    # pre-commit passes file names if a config sets pass_filenames: true; the
    # hooks read every skill whatever changed, so the names are accepted and unused.
    parser.add_argument("filenames", nargs="*", help=argparse.SUPPRESS)
    try:
        options = parser.parse_args(argv)
    except HelpShown:
        return EXIT_OK
    settings = load_settings(options.root, options.prompt_file)
    _, drifts = compare_prompt_files(require_roots(settings), require_prompt_files(settings))
    drifted = [(path, drift) for path, drift in drifts if not drift.current]
    if write:
        write_updates(drifted)
    for path, drift in drifted:
        sys.stderr.write(describe_drift(path, drift, written=write))
    return EXIT_DRIFT if drifted else EXIT_OK


def describe_drift(path: str, drift: Drift, *, written: bool) -> str:
    """A person's account of one prompt file's drift."""
    action = "the skill index was updated; stage it and commit again" if written else "the skill index is out of date"
    lines = [f"{path}: {action}"]
    if not drift.has_block:
        lines.append("  the file had no index block yet")
    if drift.missing:
        lines.append("  missing (on disk, not in the block): " + ", ".join(drift.missing))
    if drift.stale:
        lines.append("  stale (in the block, not on disk): " + ", ".join(drift.stale))
    if drift.moved:
        lines.append("  moved to another domain: " + ", ".join(drift.moved))
    if drift.conflict:
        lines.append("  the block held a merge conflict; rebuilding the block from the skills on disk resolves it")
    elif drift.has_block and not (drift.missing or drift.stale or drift.moved):
        lines.append(
            "  nothing missing or stale, but the block's lines differ from what skill-index writes (edited by hand?)"
        )
    if not written:
        lines.append("  run 'skillmem inject' or the skill-index hook to update it")
    return "\n".join(lines) + "\n"
