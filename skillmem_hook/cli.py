"""The ``skillmem`` command line: build the parser and dispatch to ``commands/``."""

from __future__ import annotations

import sys

from skillmem_hook import __version__
from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import EXIT_ERROR, EXIT_OK
from skillmem_hook.report import run_reporting_errors
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

COMMANDS = {
    "index": "scan, parse, de-duplicate and categorise the skills",
    "prompt": "print the index block",
    "inject": "put the block into the prompt files",
    "verify": "compare the block in the prompt files with the skills (exit 3 on drift)",
    "stats": "what the block costs: bytes, estimated tokens, skills per domain",
    "hook": "write a bash wrapper that installs skills, then re-indexes them",
    "lint": "check skills against the Agent Skills spec and for missing files (exit 1 on errors)",
    "search": "the skills that best fit a user's words, in any language, best first",
    "mcp": "serve skill_search and skill_read to agents over MCP (stdio; needs the [mcp] extra)",
    "route": "Claude Code UserPromptSubmit hook: name the skill a prompt points at (hook JSON on stdin)",
}

# The commands that build the catalog, and so take --tracked and --no-cache.
CATALOG_COMMANDS = ("index", "prompt", "inject", "verify", "stats", "search")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["route"] and not {"-h", "--help"} & set(arguments):
        from skillmem_hook.commands.route import route  # noqa: PLC0415 - runs on every prompt: no parser, no JSON error

        return route(arguments[1:])
    command = next((word for word in arguments if word in COMMANDS), None)
    tool = f"skillmem {command}" if command else "skillmem"
    return run_reporting_errors(lambda: tool, lambda: _run(arguments))


def _run(arguments: list[str]) -> int:
    from skillmem_hook.arguments import HelpShown  # noqa: PLC0415 - argparse is not loaded on route's path

    try:
        options = build_parser().parse_args(arguments)
    except HelpShown:
        return EXIT_OK
    if options.command is None:  # a bare 'skillmem': show a person what there is to run
        write_utf8(sys.stderr, build_parser().format_help())
        return EXIT_ERROR
    settings = load_settings(
        options.root,
        getattr(options, "prompt_file", None),
        strict=getattr(options, "strict", None),
        write=getattr(options, "write", None),
        tracked=getattr(options, "tracked", None),
        cache=getattr(options, "cache", None),
    )
    catalog = settings.catalog_options()
    command: str = options.command
    if command == "lint":
        from skillmem_hook.commands.lint import lint  # noqa: PLC0415

        output = "text" if options.text else options.format
        return lint(options.files, settings, output=output, write_baseline=options.write_baseline, fix=options.fix)
    roots = require_roots(settings)
    if command == "mcp":
        from skillmem_hook.commands.mcp import mcp  # noqa: PLC0415

        return mcp(options.root)
    if command == "index":
        from skillmem_hook.commands.index import index  # noqa: PLC0415 - import only the command that runs

        return index(roots, settings.write, settings.prompt_files, force=options.force, options=catalog)
    if command == "prompt":
        from skillmem_hook.commands.prompt import prompt  # noqa: PLC0415

        return prompt(roots, catalog, raw=options.raw)
    if command == "stats":
        from skillmem_hook.commands.stats import stats  # noqa: PLC0415

        return stats(roots, options.measured_files or [], catalog)
    if command == "search":
        from skillmem_hook.commands.search import search  # noqa: PLC0415

        return search(
            roots, options.intent, top=options.top, aliases=settings.aliases, text=options.text, options=catalog
        )
    prompt_files = require_prompt_files(settings)
    if command == "inject":
        from skillmem_hook.commands.inject import inject  # noqa: PLC0415

        return inject(roots, prompt_files, catalog, settings.preamble_line)
    if command == "verify":
        from skillmem_hook.commands.verify import verify  # noqa: PLC0415

        return verify(roots, prompt_files, strict=settings.strict, options=catalog, preamble=settings.preamble_line)
    from skillmem_hook.commands.hook import hook  # noqa: PLC0415

    return hook(roots, prompt_files, options.out, force=options.force)


def build_parser() -> argparse.ArgumentParser:
    from skillmem_hook.arguments import (  # noqa: PLC0415 - argparse is not loaded on route's path
        ArgumentParser,
        add_catalog_options,
        add_location_options,
        add_search_options,
    )

    parser = ArgumentParser(prog="skillmem", description="Keep an agent prompt file's skill index true.")
    parser.add_argument("--version", action="version", version=f"skillmem {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="skillmem")
    parsers = {name: subparsers.add_parser(name, help=text, description=text) for name, text in COMMANDS.items()}
    for name, sub in parsers.items():
        add_location_options(sub, prompt_files=name in ("inject", "verify", "hook"))
        if name in CATALOG_COMMANDS:
            add_catalog_options(sub, view=True)
    parsers["index"].add_argument("--write", metavar="PATH", help="also write a human-readable SKILLS_INDEX.md there")
    parsers["verify"].add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="drift is any byte that differs from what inject would write",
    )
    parsers["prompt"].add_argument(
        "--raw", action="store_true", help="print the block itself, for pasting, instead of one JSON line"
    )
    parsers["stats"].add_argument(
        "--prompt-file",
        action="append",
        dest="measured_files",
        metavar="FILE",
        help="also measure the block now in FILE; repeat for several",
    )
    parsers["lint"].add_argument("--text", action="store_true", help="print path:line:col: CODE message lines")
    parsers["lint"].add_argument(
        "--format",
        choices=("json", "text", "github", "sarif"),
        default="json",
        help="json (default), text, github (workflow annotations) or sarif (SARIF 2.1.0)",
    )
    parsers["lint"].add_argument(
        "--fix", action="store_true", help="move unknown fields under metadata: and set a name to its valid folder's"
    )
    parsers["lint"].add_argument(
        "--write-baseline", metavar="FILE", help="record today's findings in FILE (then set lint: {baseline: FILE})"
    )
    parsers["lint"].add_argument(
        "files", nargs="*", metavar="FILE", help="SKILL.md files or folders of skills (default: the roots)"
    )
    parsers["hook"].add_argument("--out", metavar="PATH", required=True, help="where to write the wrapper script")
    for name in ("index", "hook"):
        parsers[name].add_argument(
            "--force", action="store_true", help="replace an existing file that skillmem did not write"
        )
    add_search_options(parsers["search"])
    return parser
