"""``skillmem inject``: put the block into each prompt file, writing only what changed."""

from __future__ import annotations

from skillmem_hook.arguments import add_block_options, add_catalog_options, add_location_options, add_text_option
from skillmem_hook.block.markers import DEFAULT_PREAMBLE
from skillmem_hook.block.sync import compare_prompt_files, write_updates
from skillmem_hook.config import check_targets, leave_out_absent, load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.git_views import cli_notes
from skillmem_hook.renames import renamed, renamed_apart, renames_json
from skillmem_hook.report import emit
from skillmem_hook.text_lines import counted, listed_files, name_list, names_of, note_lines
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=True)
    add_catalog_options(parser, view=True)
    add_block_options(parser)
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, options.prompt_file, tracked=options.tracked, cache=options.cache)
    roots = require_roots(settings)
    left_out = leave_out_absent(settings)
    if settings.prompt_files or not left_out:  # each outside a sparse cone: none to write
        check_targets(settings, prompt_files=True)
    return inject(
        roots,
        settings.prompt_files if left_out else require_prompt_files(settings),
        settings.catalog_options(),
        settings.preamble_line,
        options.max_block_tokens or settings.max_block_tokens,
        text=options.text,
        left_out=left_out,
    )


def inject(
    roots: Sequence[str],
    prompt_files: Sequence[str],
    options: CatalogOptions | None = None,
    preamble: str | None = DEFAULT_PREAMBLE,
    max_tokens: int | None = None,
    *,
    text: bool = False,
    left_out: Mapping[str, str] | None = None,
) -> int:
    """Write each prompt file's block; ``left_out``: the prompt files set aside unread, told in ``notes``."""
    catalog, drifts = compare_prompt_files(roots, prompt_files, options, preamble, max_tokens)
    written = write_updates(drifts)
    emit(
        {
            "changed": bool(written),
            "skills": len(catalog.skills),
            "files": [
                {
                    "prompt_file": path,
                    "changed": path in written,
                    "missing": drift.missing,
                    "stale": drift.stale,
                    "folded": drift.folded,
                    "renamed": renames_json(renamed(drift.stale, drift.missing, catalog, roots)),
                }
                for path, drift in drifts
            ],
            **cli_notes(catalog, prompt_files, left_out),
        },
        as_text if text else None,
    )
    return EXIT_OK


def as_text(result: dict[str, object]) -> str:
    """``--text``: each prompt file, updated or current, with the names added and removed."""
    lines = []
    for item in listed_files(result):
        state = "the skill index was updated" if item["changed"] else "current"
        lines.append(f"{visible(str(item['prompt_file']))}: {state}")
        missing, stale, pairs = renamed_apart(item)
        lines += name_list("renamed", pairs)
        lines += name_list("added", missing)
        lines += name_list("removed", stale)
        lines += name_list("folded into its domain's line (max_block_tokens)", names_of(item.get("folded")))
    lines.append(f"{counted(int(str(result['skills'])), 'skill')} listed")
    return "\n".join(lines + note_lines(result)) + "\n"
