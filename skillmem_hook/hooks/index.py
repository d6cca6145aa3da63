"""The pre-commit hooks ``skill-index`` and ``skill-verify``: inject's and verify's comparison, told to a person.

Both read drift strictly: a block that differs in any byte from what
``skill-index`` would write is drift. ``skill-index`` writes the block (and
the configured ``write:`` file) and exits 3 so the commit stops until the
result is staged (pre-commit does not notice changes to untracked files, so
the exit code says it). ``skill-verify`` never writes. Their report is for a
person: plain lines of UTF-8 text on stderr, errors included.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.arguments import (
    SUPPRESS,
    add_block_options,
    add_catalog_options,
    add_location_options,
    read_hook_options,
)
from skillmem_hook.block.imports import double_listing_warnings
from skillmem_hook.block.sync import compare_prompt_files, write_updates
from skillmem_hook.block.targets import check_outside_git_directory, check_repository_targets
from skillmem_hook.block.tracking import (
    IGNORED,
    UNTRACKED,
    absent_and_ignored,
    left_out_note,
    prompt_file_states,
    require_one_in_commit,
)
from skillmem_hook.catalog.discovery.git import as_listed, git_answers_kept_for_the_run, list_along
from skillmem_hook.catalog.store.locations import find_git_dir
from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_DRIFT, EXIT_OK, FileAccessError
from skillmem_hook.files import NotARegularFile, read_regular_file
from skillmem_hook.hooks.report import (
    MAX_WARNINGS,
    QUIET_HINT,
    describe_drift,
    describe_index_file,
    describe_skipped,
    describe_untracked,
    describe_warnings,
    skill_folder,
)
from skillmem_hook.report import run_reporting_errors
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from skillmem_hook.block.drift import Drift
    from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
    from skillmem_hook.config import Settings


def skill_index(argv: Sequence[str] | None = None) -> int:
    """Re-inject the block; exit 3 when any prompt file changed."""
    return run_reporting_errors(lambda: "skill-index", lambda: _run("skill-index", argv, write=True), human=True)


def skill_verify(argv: Sequence[str] | None = None) -> int:
    """Exit 3 when any block is not current; never write."""
    return run_reporting_errors(lambda: "skill-verify", lambda: _run("skill-verify", argv, write=False), human=True)


DESCRIPTIONS = {
    "skill-index": "Re-inject the skill index block into the prompt files; exit 3 when one changed, so the commit"
    " stops until the result is staged.",
    "skill-verify": "Check, without writing, that every prompt file's skill index block is current; exit 3 when not.",
}


def _run(hook_id: str, argv: Sequence[str] | None, *, write: bool) -> int:
    options = _parse(hook_id, argv, write=write)
    if options is None:
        return EXIT_OK  # --help or --version said what was asked
    # The prompt files' confinement and the catalog both need where the work tree lies.
    with git_answers_kept_for_the_run():
        found = _compare(options)
        _check_in_commit(found)
    index_stale = _write(found, write=write)
    write_utf8(sys.stderr, _describe(found, written=write, index_stale=index_stale, diff=not write and options.diff))
    failing = [path for path, _ in found.drifted if found.states.get(path) != IGNORED]
    return EXIT_DRIFT if failing or found.untracked or index_stale else EXIT_OK


def _parse(hook_id: str, argv: Sequence[str] | None, *, write: bool) -> argparse.Namespace | None:
    """The hook's options; None when ``--help`` or ``--version`` printed its text."""

    def declare(parser: argparse.ArgumentParser) -> None:
        add_location_options(parser, prompt_files=True)
        add_catalog_options(parser, view=False)
        add_block_options(parser)
        if not write:
            parser.add_argument("--diff", action="store_true", help="show a unified diff of each stale block")
        # pre-commit passes file names if a config sets pass_filenames: true; the
        # hooks read every skill whatever changed, so the names are accepted and unused.
        parser.add_argument("filenames", nargs="*", help=SUPPRESS)

    return read_hook_options(declare, argv, prog=hook_id, description=DESCRIPTIONS[hook_id])


class _Comparison:
    """What the hook found: the settings, the catalog, each prompt file's drift and git's view of it, and notes."""

    __slots__ = ("catalog", "drifts", "left_out", "notes", "roots", "settings", "states", "view")

    def __init__(
        self,
        settings: Settings,
        roots: list[str],
        view: CatalogOptions,
        compared: tuple[Catalog, list[tuple[str, Drift]]],
        notes: list[str],
    ) -> None:
        self.settings = settings
        self.roots = roots
        self.view = view
        self.catalog, self.drifts = compared
        self.notes = notes
        self.left_out: dict[str, str] = {}  # configured, but absent here and ignored by git (or sparse): why
        paths = [path for path, _ in self.drifts]
        self.states = prompt_file_states(paths) if self.catalog.work_tree else {}

    @property
    def drifted(self) -> list[tuple[str, Drift]]:
        return [(path, drift) for path, drift in self.drifts if not drift.current]

    @property
    def untracked(self) -> list[str]:
        return [path for path, _ in self.drifts if self.states.get(path) == UNTRACKED]


def _compare(options: argparse.Namespace) -> _Comparison:
    """Read the settings and the skills as git's view has them, and compare each prompt file's block."""
    settings = load_settings(options.root, options.prompt_file, cache=options.cache)
    notes = [f"{item['prompt_file']}: left out ({item['reason']})\n" for item in settings.skipped_prompt_files]
    roots = require_roots(settings)
    configured = require_prompt_files(settings)
    # In a repository, pre-commit passes the arguments of its .pre-commit-config.yaml: repository content.
    in_repository = "GIT_DIR" in os.environ or find_git_dir(os.getcwd()) is not None
    check_outside_git_directory(settings.repository_targets(hook=in_repository), settings.base)
    left_out = _present_or_tracked(configured, notes)
    prompt_files = [path for path in configured if path not in left_out]
    settings.prompt_files = prompt_files
    check_repository_targets(settings.repository_targets(hook=in_repository), settings.base)
    notes += [f"{warning}\n" for warning in double_listing_warnings(prompt_files)]
    view = settings.catalog_options(hook=True)
    max_tokens = options.max_block_tokens or settings.max_block_tokens
    list_along(as_listed(path) for path in prompt_files)  # git's states of them, with the roots' listing
    catalog, drifts = compare_prompt_files(roots, prompt_files, view, settings.preamble_line, max_tokens)
    notes += [f"skills root {item['root']}: {item['notice']}\n" for item in catalog.notices]
    found = _Comparison(settings, roots, view, (catalog, drifts), notes)
    found.left_out = left_out
    return found


def _check_in_commit(found: _Comparison) -> None:
    """In git's view, refuse a run whose commit would hold no prompt file: a green must have checked one."""
    if found.catalog.work_tree is not None:
        require_one_in_commit(found.states, found.left_out)


def _write(found: _Comparison, *, write: bool) -> bool:
    """With ``write``, the drifted blocks and the ``write:`` file; True when that file was not current."""
    if write:
        write_updates(found.drifted)
    settings = found.settings
    return settings.write is not None and _keep_index_file(
        settings.write, found.catalog, settings.prompt_files, write=write
    )


def _describe(found: _Comparison, *, written: bool, index_stale: bool, diff: bool) -> str:
    """The report for a person: the notes, each drifted or untracked prompt file, the index file, the warnings."""
    report = _describe_drifted(found, written=written, diff=diff)
    report += [describe_untracked(path) for path in found.untracked]
    if index_stale:
        report.append(describe_index_file(str(found.settings.write), written=written))
    quiet, base = found.settings.quiet, found.settings.base
    loud = _loud_warnings(found.catalog, quiet, base)
    notices = describe_warnings(loud, _changed(loud, found)) + describe_skipped(_loud_skipped(found, quiet))
    report.append(notices + QUIET_HINT if notices else "")
    return "".join(found.notes + report)


def _describe_drifted(found: _Comparison, *, written: bool, diff: bool) -> list[str]:
    """Each drifted prompt file told: what differs, why a name is stale, with ``diff`` the block's diff."""
    if not found.drifted:
        return []
    from skillmem_hook.block.diff import block_diff  # noqa: PLC0415 - a current block is neither diffed nor explained
    from skillmem_hook.git_views import stale_reasons  # noqa: PLC0415 - a current block is neither diffed nor explained

    catalog, states = found.catalog, found.states
    stale = {path: drift.stale for path, drift in found.drifted if drift.stale} if catalog.work_tree else {}
    compared = [path for path, _ in found.drifts]
    reasons = stale_reasons(stale, compared, found.roots, found.view, catalog.skipped) if stale else {}
    return [
        describe_drift(
            path,
            drift,
            written=written,
            ignored=states.get(path) == IGNORED,
            reasons=reasons.get(path),
            merge_setup=_merge_setup(path) if drift.conflict and catalog.work_tree else (),
            renamed=_renamed(drift, catalog, found.roots) if drift.stale and drift.missing else (),
        )
        + (block_diff(path, drift) if diff else "")
        for path, drift in found.drifted
    ]


def _renamed(drift: Drift, catalog: Catalog, roots: list[str]) -> list[tuple[str, str]]:
    from skillmem_hook.renames import renamed  # noqa: PLC0415 - only a block that lost and gained a name pays

    return renamed(drift.stale, drift.missing, catalog, roots)


def _merge_setup(path: str) -> list[str]:
    from skillmem_hook.adopt.merge_setup import driver_setup_lines  # noqa: PLC0415 - only a merge conflict pays

    return driver_setup_lines(path)


def _changed(warnings: list[dict[str, str]], found: _Comparison) -> set[str]:
    """The folders of the skills this commit changes (each changed path's nearest skill, as the lint hook reads it),
    asked of git only when some warnings would be hidden: those shown first."""
    if len(warnings) <= MAX_WARNINGS or found.catalog.work_tree is None:
        return set()
    from skillmem_hook.lint.changes import changed_paths, owning_folders  # noqa: PLC0415 - only a report past the cap pays

    catalog = found.catalog
    skills = [*catalog.skills, *catalog.excluded, *(skill for pair in catalog.duplicates for skill in pair)]
    return owning_folders(changed_paths() or [], {skill_folder(skill.root, skill.path) for skill in skills})


def _loud_warnings(catalog: Catalog, quiet: list[str], base: str) -> list[dict[str, str]]:
    """The catalog's warnings, less those of the skills ``quiet:`` names (a vendored pack's known ones).

    ``base``: the configuration file's folder, which a folder of ``quiet:`` is relative to.
    """
    if not quiet:
        return catalog.warnings

    from skillmem_hook.catalog.placement.quiet import Quiet  # noqa: PLC0415 - only a 'quiet:' list pays

    said = Quiet(quiet, base, catalog.skills)
    return [
        {"root": skill.root, "path": skill.path, "warning": warning}
        for skill in catalog.skills
        if not said.skill(skill)
        for warning in skill.warnings
    ]


def _loud_skipped(found: _Comparison, quiet: list[str]) -> list[dict[str, str]]:
    """The SKILL.md files left out of the block, less those whose folder, or one above, ``quiet:`` names."""
    skipped = found.catalog.skipped
    if not quiet:
        return skipped
    from skillmem_hook.catalog.placement.quiet import Quiet  # noqa: PLC0415 - only a 'quiet:' list pays

    said = Quiet(quiet, found.settings.base, found.catalog.skills)
    return [item for item in skipped if not said.left_out(item)]


def _present_or_tracked(paths: list[str], notes: list[str]) -> dict[str, str]:
    """The prompt files to leave out, with why: absent and ignored by git (a personal file), or outside the cone."""
    left_out = absent_and_ignored(paths)
    notes += [left_out_note(path, reason) + "\n" for path, reason in left_out.items()]
    return left_out


def _keep_index_file(path: str, catalog: Catalog, prompt_files: list[str], *, write: bool) -> bool:
    """True when the ``write:`` file was not current (and, with ``write``, has been rewritten).

    Written through ``write_index_file``, as ``index --write`` does, so the hook
    refuses the same targets (a prompt file, a FIFO or device, a read-only file).
    """
    from skillmem_hook.block.index_file import render_index_file  # noqa: PLC0415 - only a 'write:' file pays
    from skillmem_hook.commands.index import write_index_file  # noqa: PLC0415 - only a 'write:' file pays

    if write:
        return write_index_file(path, catalog, prompt_files)
    try:
        return read_regular_file(path) != render_index_file(catalog.skills, os.path.dirname(path))
    except FileNotFoundError:
        return True
    except NotARegularFile as error:
        raise FileAccessError(
            f"{path} is not a regular file ({error.kind})", "point 'write:' in .skillmem.yaml at a Markdown file"
        ) from None
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "check the file's permissions") from None
