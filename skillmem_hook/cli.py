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
from skillmem_hook.errors import EXIT_ERROR, EXIT_OK, UsageError
from skillmem_hook.report import run_reporting_errors
from skillmem_hook.streams import on_terminal, write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Sequence
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
    "budget": "what each agent (Claude Code, Codex and four more) would drop, cut or not find (--check: exit 1)",
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
    # The command is the first word that is not an option: no option of skillmem's own takes a value.
    command = next((word for word in arguments if not word.startswith("-")), None)
    tool = f"skillmem {command}" if command in COMMANDS else "skillmem"
    people = for_people(arguments)
    # Errors take the result's form: a person's lines where the result would be text, else one JSON line.
    return run_reporting_errors(lambda: tool, lambda: _run(arguments, command, people=people), human=people)


def for_people(arguments: Sequence[str]) -> bool:
    """Whether the result is for a person: ``--text``, or stdout a terminal and neither ``--json`` nor a ``--format``.

    A script reads stdout through a pipe or a file, and so gets its JSON
    line whether or not it says ``--json``; a person at a terminal gets text.
    """
    if "--text" in arguments:
        return True
    if "--json" in arguments or any(word == "--format" or word.startswith("--format=") for word in arguments):
        return False
    return on_terminal(sys.stdout)


def _run(arguments: list[str], command: str | None, *, people: bool) -> int:
    from skillmem_hook.errors import HelpShown  # noqa: PLC0415 - route's path declares no option
    from skillmem_hook.quick_options import quick_parse  # noqa: PLC0415 - route's path declares no option

    if command is not None and command not in COMMANDS:
        raise UsageError(f"unknown command {command!r}", _hint(command, COMMANDS, "skillmem"))
    # Plain words after the command are read without argparse; anything else, --help included, by argparse.
    plain = command is not None and arguments[:1] == [command]
    quick = quick_parse(command_module(command).add_arguments, arguments[1:]) if plain and command else None
    if quick is not None:
        options = quick
        options.command = command
    else:
        parser, command_parser = _parsers(command)
        try:
            options, unknown = parser.parse_known_args(arguments)
        except HelpShown:
            return EXIT_OK
        if unknown:
            raise UsageError(f"unrecognized arguments: {' '.join(unknown)}", _unknown_hint(unknown, command_parser))
        if options.command is None:  # a bare 'skillmem': show a person what there is to run
            write_utf8(sys.stderr, parser.format_help())
            return EXIT_ERROR
    if hasattr(options, "json"):  # a command with --text and --json: neither given, stdout chose
        options.text = people
    return command_module(options.command).run(options)


def _unknown_hint(unknown: Sequence[str], parser: argparse.ArgumentParser) -> str:
    """The options spelled like the first unknown one, and where the command's options are listed."""
    mistyped = next((word.split("=")[0] for word in unknown if word.startswith("--")), None)
    # argparse keeps its option strings in a private table, the one place that lists every spelling.
    known = [option for option in parser._option_string_actions if option.startswith("--")]
    return _hint(mistyped, known, parser.prog) if mistyped else f"see '{parser.prog} --help'"


def _hint(word: str, choices: Iterable[str], prog: str) -> str:
    from skillmem_hook.near import did_you_mean  # noqa: PLC0415 - a usage error's path only

    return " ".join(filter(None, [did_you_mean(word, choices), f"see '{prog} --help'"]))


def command_module(name: str) -> Command:
    """The module of ``commands/`` that holds the command ``name``."""
    import importlib  # noqa: PLC0415 - route's path passes through this module and never needs it

    return importlib.import_module(f"skillmem_hook.commands.{name.replace('-', '_')}")


def _parsers(command: str | None) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The parser of the command line, and that of ``command``'s options (the first again without one)."""
    from skillmem_hook.argument_parser import ArgumentParser  # noqa: PLC0415 - plain words load no argparse

    parser = ArgumentParser(prog="skillmem", description="Keep an agent prompt file's skill index true.")
    parser.add_argument("--version", action="version", version=f"skillmem {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="skillmem")
    if command is None:  # the usage and --help list every command
        for name, text in COMMANDS.items():
            subparsers.add_parser(name, help=text, description=text)
        return parser, parser
    # A command named: its parser alone, for parsers cost a millisecond or two each (14 more of them).
    command_parser = subparsers.add_parser(command, help=COMMANDS[command], description=COMMANDS[command])
    command_module(command).add_arguments(command_parser)
    return parser, command_parser
