"""``skillmem mcp``: serve the skills to agents over MCP (stdio) until the client disconnects.

stdout carries the MCP protocol here, so this command prints no JSON line of
its own; a failure before the server starts is the usual JSON line on stderr.
"""

from __future__ import annotations

import sys

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.arguments import add_location_options
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.errors import EXIT_OK, FileAccessError
from skillmem_hook.extras import missing_extra

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)


def run(options: argparse.Namespace) -> int:
    require_roots(load_settings(options.root))
    return mcp(options.root)


def mcp(flag_roots: Sequence[str] | None) -> int:
    try:
        from skillmem_hook.agents.mcp_server import call_seconds, serve  # noqa: PLC0415 - the [mcp] extra's SDK
    except ImportError as error:
        raise missing_extra("mcp", "the MCP server", error) from None

    if sys.stdout is None:  # started with stdout closed (>&-): no answer could ever reach a client
        raise FileAccessError("stdout is closed", "the MCP server answers on stdout: start it from an MCP client")
    # A quarter of a call's time for the skill vectors: the lexical ranking answers within the rest.
    serve(SkillLibrary(flag_roots, semantic_wait=call_seconds() / 4))
    return EXIT_OK
