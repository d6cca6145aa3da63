"""``skillmem prompt``: the block for a skills root, in the JSON under ``block``.

With ``raw``, the block itself and a line break, ready to paste into a prompt:
the one command whose output is not a JSON line.
"""

from __future__ import annotations

from skillmem_hook.arguments import add_block_options, add_catalog_options, add_location_options, add_text_option
from skillmem_hook.block.render import count_by_domain, render_block
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.git_views import cli_notes
from skillmem_hook.report import emit, emit_raw

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    add_block_options(parser)
    parser.add_argument(
        "--raw", action="store_true", help="print the block itself, for pasting, instead of one JSON line"
    )
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    roots = require_roots(settings)
    max_tokens = options.max_block_tokens or settings.max_block_tokens
    return prompt(roots, settings.catalog_options(), raw=options.raw, max_tokens=max_tokens, text=options.text)


def prompt(
    roots: Sequence[str],
    options: CatalogOptions | None = None,
    *,
    raw: bool = False,
    max_tokens: int | None = None,
    text: bool = False,
) -> int:
    catalog = scan_roots(roots, options)
    block = render_block(catalog.skills, max_tokens=max_tokens)
    if raw:
        emit_raw(block.decode("utf-8") + "\n")
        return EXIT_OK
    emit(
        {
            "block": block.decode("utf-8"),
            "bytes": len(block),
            "skills": len(catalog.skills),
            "domains": count_by_domain(catalog.skills),
            **cli_notes(catalog),
        },
        as_text if text else None,
    )
    return EXIT_OK


def as_text(result: dict[str, object]) -> str:
    """``--text``: the block itself, as ``--raw`` prints it."""
    return f"{result['block']}\n"
