"""Read the prompt files and compare each block with the skills on disk.

Shared by ``inject``, ``verify`` and the pre-commit hooks, so all of them
make the same comparison. Every file is read and checked before any is
written: a marker error in one file leaves all of them untouched.
"""

from __future__ import annotations

import os

from skillmem_hook.block.drift import Drift
from skillmem_hook.block.markers import DEFAULT_PREAMBLE
from skillmem_hook.block.prompt_file import check_writable, read_prompt_file
from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
from skillmem_hook.catalog.scan import scan_roots

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def compare_prompt_files(
    roots: Sequence[str],
    prompt_files: Sequence[str],
    options: CatalogOptions | None = None,
    preamble: str | None = DEFAULT_PREAMBLE,
    max_tokens: int | None = None,
) -> tuple[Catalog, list[tuple[str, Drift]]]:
    """The catalog, and each prompt file with how its block differs from it.

    A file named twice (or once through a symlink) is compared, and written, once.
    """
    catalog = scan_roots(roots, options)
    files = _distinct_files(prompt_files)
    return catalog, [(path, Drift(read_prompt_file(path), catalog.skills, preamble, max_tokens)) for path in files]


def _distinct_files(paths: Sequence[str]) -> list[str]:
    """Each file once, named as the file that changes: a symlink by its target, relative to the current folder."""
    by_target: dict[str, str] = {}
    for path in paths:
        by_target.setdefault(
            os.path.realpath(path), os.path.relpath(os.path.realpath(path)) if os.path.islink(path) else path
        )
    return list(by_target.values())


def write_updates(drifts: Sequence[tuple[str, Drift]]) -> list[str]:
    """Write every prompt file whose block is not current; the paths written.

    Every temporary file is written, and every file checked for edits made
    meanwhile, before any is renamed: a full disk, an unwritable folder or an
    edit leaves all the files as they were. Should a rename itself fail, the
    error names the files already written.
    """
    changed = [(path, drift) for path, drift in drifts if not drift.current]
    if not changed:
        return []  # so a run that finds every block current loads no writer (contextlib, collections, types)
    from skillmem_hook.atomic import commit_all, stage, staging  # noqa: PLC0415 - only a run that writes pays for it

    for path, _ in changed:
        check_writable(path)
    with staging() as staged:
        for path, drift in changed:
            stage(staged, os.path.realpath(path), drift.updated, label=path, expected=drift.original)
        return commit_all(staged)


def union(drifts: Sequence[tuple[str, Drift]], field: str) -> list[str]:
    """The sorted union of one list field (missing, stale, moved) over all files."""
    return sorted({label for _, drift in drifts for label in getattr(drift, field)})
