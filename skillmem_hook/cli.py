"""The ``skillmem`` command line: build the parser and dispatch to ``commands/``."""

from __future__ import annotations

import sys

from skillmem_hook import __version__
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
    "eval": "score search on your own questions: hit@1/3/10 and MRR, or each skill's trigger precision and recall",
    "mcp": "serve skill_search and skill_read to agents over MCP (stdio; needs the [mcp] extra)",
    "route": "Claude Code UserPromptSubmit hook: name the skill a prompt points at (hook JSON on stdin)",
    "read": "print a skill's SKILL.md as it is, by the name the block shows",
    "budget": "what Claude Code and Codex would drop, cut or not discover of the skills natively (--check: exit 1)",
    "init": "adopt skillmem here: .skillmem.yaml, the pre-commit hooks, the merge driver and the block, in one step",
    "merge-driver": "git's merge driver for prompt files: merge the text, rebuild the block (set up by init)",
}
# The commands whose JSON line --text turns into lines for a person (lint and search print their own).
TEXT_COMMANDS = ("index", "prompt", "inject", "verify", "stats", "hook", "init")
# The commands that find no skills root or prompt file through the configuration.
SETUP_COMMANDS = ("init", "merge-driver")

# The commands that build the catalog, and so take --tracked and --no-cache.
CATALOG_COMMANDS = ("index", "prompt", "inject", "verify", "stats", "search", "eval", "read", "budget")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["route"] and not {"-h", "--help"} & set(arguments):
        from skillmem_hook.commands.route import route  # noqa: PLC0415 - runs on every prompt: no parser, no JSON error

        return route(arguments[1:])
    command = next((word for word in arguments if word in COMMANDS), None)
    tool = f"skillmem {command}" if command else "skillmem"
    # --text: errors too are lines for a person, like the result.
    return run_reporting_errors(lambda: tool, lambda: _run(arguments), human="--text" in arguments)


def _run(arguments: list[str]) -> int:
    from skillmem_hook.arguments import HelpShown  # noqa: PLC0415 - argparse is not loaded on route's path

    try:
        options = build_parser().parse_args(arguments)
    except HelpShown:
        return EXIT_OK
    if options.command is None:  # a bare 'skillmem': show a person what there is to run
        write_utf8(sys.stderr, build_parser().format_help())
        return EXIT_ERROR
    from skillmem_hook.dispatch import dispatch  # noqa: PLC0415

    return dispatch(options)


def build_parser() -> argparse.ArgumentParser:
    from skillmem_hook.arguments import (  # noqa: PLC0415 - argparse is not loaded on route's path
        ArgumentParser,
        add_block_options,
        add_budget_options,
        add_catalog_options,
        add_eval_options,
        add_location_options,
        add_search_options,
        add_setup_options,
    )

    parser = ArgumentParser(prog="skillmem", description="Keep an agent prompt file's skill index true.")
    parser.add_argument("--version", action="version", version=f"skillmem {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="skillmem")
    parsers = {name: subparsers.add_parser(name, help=text, description=text) for name, text in COMMANDS.items()}
    for name, sub in parsers.items():
        if name in SETUP_COMMANDS:
            continue
        add_location_options(sub, prompt_files=name in ("inject", "verify", "hook"))
        if name in CATALOG_COMMANDS:
            add_catalog_options(sub, view=True)
        if name in ("prompt", "inject", "verify"):
            add_block_options(sub)
    parsers["index"].add_argument("--write", metavar="PATH", help="also write a human-readable SKILLS_INDEX.md there")
    parsers["verify"].add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="drift is any byte that differs from what inject would write",
    )
    parsers["verify"].add_argument("--diff", action="store_true", help="a unified diff of each stale block, as 'diff'")
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
    parsers["search"].add_argument(
        "--domain", metavar="D", help="only the skills of domain D; with no words, list them all (a collapsed domain)"
    )
    add_budget_options(parsers["budget"])
    parsers["budget"].add_argument("--text", action="store_true", help="a person's summary instead of JSON")
    parsers["read"].add_argument("name", metavar="NAME", help="the skill's name as the block shows it")
    parsers["read"].add_argument("--path", metavar="PATH", help="which one, when two skills share the name")
    add_eval_options(parsers["eval"])
    add_setup_options(parsers["init"], parsers["merge-driver"])
    for name in TEXT_COMMANDS:
        parsers[name].add_argument("--text", action="store_true", help="lines for a person instead of one JSON line")
    return parser
