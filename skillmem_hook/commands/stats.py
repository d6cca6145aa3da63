"""``skillmem stats``: what the index costs in a prompt.

``est_tokens`` is ``ceil(block_bytes / 4)``: four bytes a token is the usual
rule of thumb for English text under BPE tokenizers; names in Chinese or
other non-Latin scripts cost more tokens per byte than that.
"""

from __future__ import annotations

from skillmem_hook.block.index_file import render_index_file
from skillmem_hook.block.markers import current_block
from skillmem_hook.block.prompt_file import read_prompt_file
from skillmem_hook.block.render import count_by_domain, render_block
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.scan import CatalogOptions

BYTES_PER_TOKEN = 4


def stats(roots: Sequence[str], prompt_file: str | None, options: CatalogOptions | None = None) -> int:
    catalog = scan_roots(roots, options)
    block_bytes = len(render_block(catalog.skills))
    result: dict[str, object] = {
        "skills": len(catalog.skills),
        "domains": count_by_domain(catalog.skills),
        "block_bytes": block_bytes,
        "est_tokens": -(-block_bytes // BYTES_PER_TOKEN),
        "index_bytes": len(render_index_file(catalog.skills)),
    }
    if prompt_file is not None:
        block = current_block(read_prompt_file(prompt_file))
        result["prompt_block_bytes"] = 0 if block is None else len(block)
    emit(result)
    return EXIT_OK
