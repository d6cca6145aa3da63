"""The ``skillmem`` command line: the commands, each a module of ``commands/``, and the dispatch to the one named.

Each ``commands/<name>.py`` holds its command whole: ``add_arguments`` (its
options, in the order ``--help`` lists them), ``run`` (from the parsed
options to its call), the work, and its ``--text`` rendering. Adding a
command is adding that module and its line below. Only the module of the
command that runs is imported, so a run pays for no other command's imports.
"""

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
    from typing import Protocol

    class Command(Protocol):
        """What each module of ``commands/`` that is a command provides (tests/test_entry_points.py holds it)."""

        def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

        def run(self, options: argparse.Namespace) -> int: ...


# Each command and the line --help shows for it; its module is commands/<name>.py, a dash an underscore.
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


def _not_a_prompt(word: str) -> bool:
    """Whether ``skillmem route`` runs as a command (argparse, one JSON line), not as the hook."""
    return word in ("-h", "--help", "--explain") or word.startswith("--explain=")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["route"] and not any(_not_a_prompt(word) for word in arguments):
        from skillmem_hook.commands.route import route  # noqa: PLC0415 - runs on every prompt: no parser, no JSON error

        return route(arguments[1:])
    # The first command name is the one argparse runs: no option before it takes a value.
    command = next((word for word in arguments if word in COMMANDS), None)
    tool = f"skillmem {command}" if command else "skillmem"
    # --text: errors too are lines for a person, like the result.
    return run_reporting_errors(lambda: tool, lambda: _run(arguments, command), human="--text" in arguments)


def _run(arguments: list[str], command: str | None) -> int:
    from skillmem_hook.arguments import HelpShown  # noqa: PLC0415 - argparse is not loaded on route's path

    try:
        options = build_parser(command).parse_args(arguments)
    except HelpShown:
        return EXIT_OK
    if options.command is None:  # a bare 'skillmem': show a person what there is to run
        write_utf8(sys.stderr, build_parser().format_help())
        return EXIT_ERROR
    return command_module(options.command).run(options)


def command_module(name: str) -> Command:
    """The module of ``commands/`` that holds the command ``name``."""
    import importlib  # noqa: PLC0415 - route's path passes through this module and never needs it

    return importlib.import_module(f"skillmem_hook.commands.{name.replace('-', '_')}")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command's name and help line, and of ``command``'s options (which imports its module)."""
    from skillmem_hook.arguments import ArgumentParser  # noqa: PLC0415 - argparse is not loaded on route's path

    parser = ArgumentParser(prog="skillmem", description="Keep an agent prompt file's skill index true.")
    parser.add_argument("--version", action="version", version=f"skillmem {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="skillmem")
    for name, text in COMMANDS.items():
        parser_of_name = subparsers.add_parser(name, help=text, description=text)
        if name == command:
            command_module(name).add_arguments(parser_of_name)
    return parser
