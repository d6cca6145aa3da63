"""``skillmem stats``: what the index costs in a prompt.

``est_tokens`` is ``ceil(block_bytes / 4)``: four bytes a token is the usual
rule of thumb for English text under BPE tokenizers; names in Chinese or
other non-Latin scripts cost more tokens per byte than that.
"""

from __future__ import annotations

from skillmem_hook.arguments import add_catalog_options, add_location_options, add_text_option
from skillmem_hook.block.index_file import render_index_file
from skillmem_hook.block.markers import current_block
from skillmem_hook.block.prompt_file import read_prompt_file
from skillmem_hook.block.render import count_by_domain, estimate_tokens, render_block
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.git_views import cli_notes
from skillmem_hook.report import emit
from skillmem_hook.text_lines import counted, listed_files, note_lines
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    parser.add_argument(
        "--prompt-file",
        action="append",
        dest="measured_files",
        metavar="FILE",
        help="also measure the block now in FILE; repeat for several",
    )
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    return stats(
        require_roots(settings),
        options.measured_files or [],
        settings.catalog_options(),
        text=options.text,
        max_tokens=settings.max_block_tokens,
    )


def stats(
    roots: Sequence[str],
    prompt_files: Sequence[str],
    options: CatalogOptions | None = None,
    *,
    text: bool = False,
    max_tokens: int | None = None,
) -> int:
    """The block's cost as inject would write it: under ``max_tokens`` (``max_block_tokens``) when one is set."""
    catalog = scan_roots(roots, options)
    block_bytes = len(render_block(catalog.skills, max_tokens=max_tokens))
    result: dict[str, object] = {
        "skills": len(catalog.skills),
        "domains": count_by_domain(catalog.skills),
        "block_bytes": block_bytes,
        "est_tokens": estimate_tokens(block_bytes),
        "max_block_tokens": max_tokens,
        "index_bytes": len(render_index_file(catalog.skills)),
        **cli_notes(catalog),
    }
    if prompt_files:
        result["prompt_files"] = [measure_prompt_file(path) for path in prompt_files]
    emit(result, as_text if text else None)
    return EXIT_OK


def as_text(result: dict[str, object]) -> str:
    """``--text``: the block's size and tokens, its skills per domain, and each measured prompt file's block."""
    size = f"{result['block_bytes']:,} bytes, about {result['est_tokens']:,} tokens"
    if result.get("max_block_tokens"):
        size += f" (max_block_tokens {result['max_block_tokens']:,})"
    lines = [f"{counted(int(str(result['skills'])), 'skill')}; the block is {size}"]
    lines += [f"  [{domain}] {count:,}" for domain, count in (result.get("domains") or {}).items()]  # type: ignore[attr-defined]
    for item in listed_files(result, "prompt_files"):
        size = f"a block of {item['block_bytes']:,} bytes, about {item['est_tokens']:,} tokens"
        lines.append(f"{visible(str(item['prompt_file']))}: {size}")
    return "\n".join(lines + note_lines(result)) + "\n"


def measure_prompt_file(path: str) -> dict[str, object]:
    """The bytes and estimated tokens of the block now in one prompt file (0 when it has none)."""
    block = current_block(read_prompt_file(path))
    size = 0 if block is None else len(block)
    return {"prompt_file": path, "block_bytes": size, "est_tokens": estimate_tokens(size)}
