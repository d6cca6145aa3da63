"""``skillmem inject``: put the block into each prompt file, writing only what changed."""

from __future__ import annotations

from skillmem_hook.block.markers import DEFAULT_PREAMBLE
from skillmem_hook.block.sync import compare_prompt_files, write_updates
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.git_views import cli_notes
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions


def inject(
    roots: Sequence[str],
    prompt_files: Sequence[str],
    options: CatalogOptions | None = None,
    preamble: str | None = DEFAULT_PREAMBLE,
    max_tokens: int | None = None,
) -> int:
    catalog, drifts = compare_prompt_files(roots, prompt_files, options, preamble, max_tokens)
    written = write_updates(drifts)
    emit(
        {
            "changed": bool(written),
            "skills": len(catalog.skills),
            "files": [
                {"prompt_file": path, "changed": path in written, "missing": drift.missing, "stale": drift.stale}
                for path, drift in drifts
            ],
            **cli_notes(catalog, prompt_files),
        }
    )
    return EXIT_OK
