"""``skillmem verify``: inject's comparison without the write; exit 3 on drift."""

from __future__ import annotations

from skillmem_hook.block.diff import block_diff
from skillmem_hook.block.markers import DEFAULT_PREAMBLE
from skillmem_hook.block.sync import compare_prompt_files, union
from skillmem_hook.errors import EXIT_DRIFT, EXIT_OK
from skillmem_hook.git_views import cli_notes
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions


def verify(
    roots: Sequence[str],
    prompt_files: Sequence[str],
    *,
    strict: bool,
    options: CatalogOptions | None = None,
    preamble: str | None = DEFAULT_PREAMBLE,
    max_tokens: int | None = None,
    diff: bool = False,
) -> int:
    catalog, drifts = compare_prompt_files(roots, prompt_files, options, preamble, max_tokens)
    diffs = {path: block_diff(path, drift) for path, drift in drifts} if diff else {}
    drifted = any(drift.is_drift(strict=strict) for _, drift in drifts)
    emit(
        {
            "ok": not drifted,
            "strict": strict,
            "missing": union(drifts, "missing"),
            "stale": union(drifts, "stale"),
            "moved": union(drifts, "moved"),
            "current": all(drift.current for _, drift in drifts),
            "conflict": any(drift.conflict for _, drift in drifts),
            "skills": len(catalog.skills),
            "files": [
                {
                    "prompt_file": path,
                    "drift": drift.is_drift(strict=strict),
                    **drift.as_json(),
                    **({"diff": diffs[path]} if diff else {}),
                }
                for path, drift in drifts
            ],
            **cli_notes(catalog, prompt_files),
        }
    )
    return EXIT_DRIFT if drifted else EXIT_OK
