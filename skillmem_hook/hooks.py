"""The pre-commit hooks ``skill-index`` and ``skill-verify``: thin wrappers over inject and verify.

Both read drift strictly: a block that differs in any byte from what
``skill-index`` would write is drift. ``skill-index`` writes the block (and
the configured ``write:`` file) and exits 3 so the commit stops until the
result is staged (pre-commit does not notice changes to untracked files, so
the exit code says it). ``skill-verify`` never writes. Their report is for a
person: plain lines of UTF-8 text on stderr, errors included.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from skillmem_hook.arguments import ArgumentParser, HelpShown, add_catalog_options, add_location_options
from skillmem_hook.block.index_file import render_index_file, repository_path
from skillmem_hook.block.markers import current_block
from skillmem_hook.block.render import read_block
from skillmem_hook.block.sync import compare_prompt_files, write_updates
from skillmem_hook.commands.index import write_index_file
from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_DRIFT, EXIT_OK, FileAccessError
from skillmem_hook.report import run_reporting_errors, write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.block.drift import Drift
    from skillmem_hook.catalog.scan import Catalog

# About a screenful per list: a first run on 1,899 skills must not print one 38 KB line.
MAX_NAMES = 20
MAX_WARNINGS = 10
_WIDTH = 100


def skill_index(argv: Sequence[str] | None = None) -> int:
    """Re-inject the block; exit 3 when any prompt file changed."""
    return run_reporting_errors(lambda: "skill-index", lambda: _run("skill-index", argv, write=True), human=True)


def skill_verify(argv: Sequence[str] | None = None) -> int:
    """Exit 3 when any block is not current; never write."""
    return run_reporting_errors(lambda: "skill-verify", lambda: _run("skill-verify", argv, write=False), human=True)


def _run(hook_id: str, argv: Sequence[str] | None, *, write: bool) -> int:
    parser = ArgumentParser(prog=hook_id, description=(__doc__ or "").splitlines()[0])
    add_location_options(parser, prompt_files=True)
    add_catalog_options(parser, view=False)
    # pre-commit passes file names if a config sets pass_filenames: true; the
    # hooks read every skill whatever changed, so the names are accepted and unused.
    parser.add_argument("filenames", nargs="*", help=argparse.SUPPRESS)
    try:
        options = parser.parse_args(argv)
    except HelpShown:
        return EXIT_OK
    settings = load_settings(options.root, options.prompt_file, cache=options.cache)
    catalog, drifts = compare_prompt_files(
        require_roots(settings), require_prompt_files(settings), settings.catalog_options(hook=True)
    )
    drifted = [(path, drift) for path, drift in drifts if not drift.current]
    if write:
        write_updates(drifted)
    report = [describe_drift(path, drift, written=write) for path, drift in drifted]
    index_stale = settings.write is not None and _keep_index_file(settings.write, catalog, write=write)
    if index_stale:
        report.append(describe_index_file(str(settings.write), written=write))
    report.append(describe_warnings(catalog.warnings))
    write_utf8(sys.stderr, "".join(report))
    return EXIT_DRIFT if drifted or index_stale else EXIT_OK


def _keep_index_file(path: str, catalog: Catalog, *, write: bool) -> bool:
    """True when the ``write:`` file was not current (and, with ``write``, has been rewritten)."""
    if write:
        return write_index_file(path, catalog)
    if os.path.exists(path) and not os.path.isfile(path):
        raise FileAccessError(f"{path} is not a regular file", "point 'write:' in .skillmem.yaml at a Markdown file")
    try:
        with open(path, "rb") as file:
            return file.read() != render_index_file(catalog.skills, os.path.dirname(path))
    except FileNotFoundError:
        return True
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "check the file's permissions") from None


def describe_drift(path: str, drift: Drift, *, written: bool) -> str:
    """A person's account of one prompt file's drift: at most a screenful a list."""
    action = "the skill index was updated; stage it and commit again" if written else "the skill index is out of date"
    lines = [f"{path}: {action}"]
    if not drift.has_block:
        lines.append("  the file had no index block yet" if written else "  the file has no index block yet")
    lines += name_list("added" if written else "missing from the block", drift.missing)
    lines += name_list("removed" if written else "stale, no longer on disk", drift.stale)
    lines += name_list("moved to another domain", describe_moves(drift))
    if drift.has_block and not (drift.missing or drift.stale or drift.moved):
        lines.append(
            "  nothing missing or stale, but the block's lines differ from what skill-index writes (edited by hand?)"
        )
    if not written:
        lines.append("  run 'skillmem inject' or the skill-index hook to update it")
    return "\n".join(lines) + "\n"


def describe_moves(drift: Drift) -> list[str]:
    """Each skill that changed domain, as ``name (old -> new)``."""
    before = _listed(drift.original)
    after = _listed(drift.updated)
    return [f"{label} ({before.get(label, '?')} -> {after.get(label, '?')})" for label in drift.moved]


def _listed(data: bytes) -> dict[str, str]:
    block = current_block(data)
    return {} if block is None else read_block(block)


def name_list(title: str, names: Sequence[str]) -> list[str]:
    """``  title (count): a, b, c`` wrapped to the terminal, cut after MAX_NAMES names."""
    if not names:
        return []
    shown = names[:MAX_NAMES]
    words = [f"{name}," for name in shown[:-1]] + [shown[-1]]
    lines: list[str] = []
    line = f"  {title} ({len(names):,}):"
    for word in words:
        if len(line) + 1 + len(word) > _WIDTH and line.strip():
            lines.append(line)
            line = "   "
        line += " " + word
    lines.append(line)
    if len(names) > MAX_NAMES:
        lines.append(f"    ... and {len(names) - MAX_NAMES:,} more")
    return lines


def describe_index_file(path: str, *, written: bool) -> str:
    if written:
        return f"{path}: the skills index file was regenerated; stage it and commit again\n"
    return (
        f"{path}: the skills index file is out of date\n  run the skill-index hook or 'skillmem index --write {path}'\n"
    )


def describe_warnings(warnings: Sequence[dict[str, str]]) -> str:
    """The catalog's warnings, one short line each with the SKILL.md's path; empty when there are none."""
    if not warnings:
        return ""
    lines = [f"{len(warnings):,} SKILL.md file(s) with warnings (all of them: 'skillmem index', under warnings):"]
    for warning in warnings[:MAX_WARNINGS]:
        path = os.path.join(repository_path(warning["root"], warning["path"]), "SKILL.md")
        lines.append(f"  {path}: {brief_warning(warning['warning'])}")
    if len(warnings) > MAX_WARNINGS:
        lines.append(f"  ... and {len(warnings) - MAX_WARNINGS:,} more")
    return "\n".join(lines) + "\n"


def brief_warning(warning: str) -> str:
    """A PyYAML error cut to where it happened: the rest means nothing to a skill's author."""
    found = re.match(r"invalid YAML \(.*(line \d+, column \d+)\)", warning)
    if found is None:
        return warning
    return f"invalid YAML (frontmatter {found.group(1)}); name and description read line by line"
