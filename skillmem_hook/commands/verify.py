"""``skillmem verify``: inject's comparison without the write; exit 3 on drift."""

from __future__ import annotations

from skillmem_hook.arguments import add_block_options, add_catalog_options, add_location_options, add_text_option
from skillmem_hook.block.diff import block_diff
from skillmem_hook.block.markers import DEFAULT_PREAMBLE
from skillmem_hook.block.sync import compare_prompt_files, union
from skillmem_hook.config import check_targets, leave_out_absent, load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_DRIFT, EXIT_OK, UsageError
from skillmem_hook.git_views import cli_notes
from skillmem_hook.renames import renamed, renamed_apart, renames_json
from skillmem_hook.report import emit
from skillmem_hook.text_lines import listed_files, name_list, names_of, note_lines
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions
    from skillmem_hook.config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=True)
    add_catalog_options(parser, view=True)
    add_block_options(parser)
    parser.add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="drift is any byte that differs from what inject would write",
    )
    parser.add_argument("--diff", action="store_true", help="a unified diff of each stale block, as 'diff'")
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    settings = load_settings(
        options.root, options.prompt_file, strict=options.strict, tracked=options.tracked, cache=options.cache
    )
    roots = require_roots(settings)
    left_out = _leave_out_absent_ignored(settings) if settings.tracked else leave_out_absent(settings)
    if left_out and not settings.prompt_files:
        _refuse_checking_nothing(left_out)
    check_targets(settings, prompt_files=True)
    return verify(
        roots,
        settings.prompt_files if left_out else require_prompt_files(settings),
        left_out=left_out,
        strict=settings.strict,
        options=settings.catalog_options(),
        preamble=settings.preamble_line,
        max_tokens=options.max_block_tokens or settings.max_block_tokens,
        diff=options.diff,
        text=options.text,
    )


def verify(
    roots: Sequence[str],
    prompt_files: Sequence[str],
    *,
    strict: bool,
    options: CatalogOptions | None = None,
    preamble: str | None = DEFAULT_PREAMBLE,
    max_tokens: int | None = None,
    diff: bool = False,
    text: bool = False,
    left_out: Mapping[str, str] | None = None,
) -> int:
    """Compare each prompt file's block; ``left_out``: the prompt files git's view set aside, told in ``notes``."""
    catalog, drifts = compare_prompt_files(roots, prompt_files, options, preamble, max_tokens)
    diffs = {path: block_diff(path, drift) for path, drift in drifts} if diff else {}
    renames = {path: renamed(drift.stale, drift.missing, catalog, roots) for path, drift in drifts}
    drifted = any(drift.is_drift(strict=strict) for _, drift in drifts)
    emit(
        {
            "ok": not drifted,
            "strict": strict,
            "missing": union(drifts, "missing"),
            "stale": union(drifts, "stale"),
            "folded": union(drifts, "folded"),
            "renamed": renames_json(sorted({pair for pairs in renames.values() for pair in pairs})),
            "moved": union(drifts, "moved"),
            "current": all(drift.current for _, drift in drifts),
            "conflict": any(drift.conflict for _, drift in drifts),
            "skills": len(catalog.skills),
            "files": [
                {
                    "prompt_file": path,
                    "drift": drift.is_drift(strict=strict),
                    **drift.as_json(),
                    "renamed": renames_json(renames[path]),
                    **({"diff": diffs[path]} if diff else {}),
                }
                for path, drift in drifts
            ],
            **cli_notes(catalog, prompt_files, left_out),
        },
        as_text if text else None,
    )
    return EXIT_DRIFT if drifted else EXIT_OK


def _leave_out_absent_ignored(settings: Settings) -> dict[str, str]:
    """In git's view, as the hooks do: drop the prompt files absent here that git ignores (a fresh clone's AGENTS.md).

    A run left with no prompt file the commit holds is refused, as the hooks refuse it: it would compare nothing.
    """
    from skillmem_hook.block.targets import check_outside_git_directory  # noqa: PLC0415 - only git's view (--tracked)
    from skillmem_hook.block.tracking import (  # noqa: PLC0415 - only git's view (--tracked) reads the ignore rules
        absent_and_ignored,
        prompt_file_states,
        require_one_in_commit,
    )

    check_outside_git_directory(settings.repository_targets(write=False), settings.base)
    left_out = absent_and_ignored(require_prompt_files(settings))
    if left_out:
        settings.prompt_files = [path for path in settings.prompt_files if path not in left_out]
        require_one_in_commit(prompt_file_states(settings.prompt_files), left_out)
    return left_out


def _refuse_checking_nothing(left_out: Mapping[str, str]) -> None:
    """Every prompt file was left out (outside a sparse checkout): a verify that compared none would read as current.

    The hooks let such a commit through (its prompt files are in it as they were); CI asks more of verify.
    """
    shown = ", ".join(visible(path) for path in left_out)
    raise UsageError(
        f"no prompt file is checked here: {shown} (each {next(iter(left_out.values()))})",
        "verify them where they are checked out: a full clone, or 'git sparse-checkout add' of their folders",
    )


def as_text(result: dict[str, object]) -> str:
    """``--text``: each prompt file, current or out of date, with what differs (and its diff, with ``--diff``)."""
    lines = []
    for item in listed_files(result):
        state = "out of date" if item["drift"] else "current"
        lines.append(f"{visible(str(item['prompt_file']))}: {state}")
        missing, stale, pairs = renamed_apart(item)
        lines += name_list("renamed", pairs)
        lines += name_list("missing from the block", missing)
        lines += name_list("stale, not a skill on disk", stale)
        lines += name_list("folded into its domain's line (max_block_tokens)", names_of(item.get("folded")))
        lines += name_list("moved to another domain", names_of(item.get("moved")))
        if item.get("conflict"):
            lines.append("  the block holds a merge conflict: 'skillmem inject' rebuilds it")
        if item.get("diff"):
            lines.append(str(item["diff"]).rstrip("\n"))
    lines.append("every block is current" if result["ok"] else "run 'skillmem inject' to update the blocks")
    return "\n".join(lines + note_lines(result)) + "\n"
