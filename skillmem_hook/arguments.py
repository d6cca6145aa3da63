"""The options several commands and hooks take, declared on whichever parser reads them.

That is argparse's (``argument_parser.py``), or for plain words the quicker
``quick_options.OptionTable``; neither is imported here, so a run that
needs no argparse loads none.
"""

from __future__ import annotations

import sys

from skillmem_hook import __version__
from skillmem_hook.errors import HelpShown
from skillmem_hook.quick_options import quick_parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

# argparse.SUPPRESS: an option --help leaves out.
SUPPRESS = "==SUPPRESS=="


def add_location_options(parser: argparse.ArgumentParser, *, prompt_files: bool) -> None:
    """--root, and with ``prompt_files`` --prompt-file: both repeatable, both falling back to the configuration."""
    parser.add_argument(
        "--root",
        action="append",
        metavar="DIR",
        help="a folder of skills; repeat for several (default: .skillmem.yaml, then common layouts)",
    )
    if prompt_files:
        parser.add_argument(
            "--prompt-file",
            action="append",
            metavar="FILE",
            help="an agent prompt file holding the block; repeat for several",
        )


def add_catalog_options(parser: argparse.ArgumentParser, *, view: bool) -> None:
    """--no-cache, and with ``view`` --tracked: git's view of the skills instead of the file system's."""
    if view:
        parser.add_argument(
            "--tracked",
            action="store_true",
            default=None,
            help="index only the SKILL.md files git tracks (what a commit holds), as the pre-commit hooks do",
        )
    parser.add_argument(
        "--no-cache",
        dest="cache",
        action="store_false",
        default=None,
        help="read every SKILL.md, ignoring the cache in the git directory",
    )


def add_block_options(parser: argparse.ArgumentParser) -> None:
    """--max-block-tokens: the block's cap, over which whole domains collapse (max_block_tokens in .skillmem.yaml)."""
    parser.add_argument(
        "--max-block-tokens",
        type=positive,
        metavar="N",
        help="keep the block within N estimated tokens by collapsing whole domains, largest first",
    )


def add_text_option(parser: argparse.ArgumentParser, text: str = "lines for a person") -> None:
    """--text and --json: the result for a person (the command's own ``as_text``), or one JSON line.

    Neither given, stdout decides (cli.py): a terminal gets the text, a pipe or a file the JSON line.
    """
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--text", action="store_true", help=f"{text} (the default when stdout is a terminal)")
    choice.add_argument(
        "--json", action="store_true", help="one JSON line (the default when stdout is a pipe or a file)"
    )


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    """``--agent`` and ``--context-window``: which agents' native listings ``budget`` replays, for which window."""
    parser.add_argument(
        "--agent",
        action="append",
        choices=("claude-code", "codex", "copilot-cli", "vscode", "gemini-cli", "opencode", "all"),
        help="an agent whose listing to replay; repeat for several, or all (default: budget: agents in"
        " .skillmem.yaml, else the agents the repository shows: their folders and prompt files)",
    )
    parser.add_argument(
        "--context-window",
        type=positive,
        metavar="TOKENS",
        help="the model's context window in tokens (default: budget: context_window, else 200000)",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when an agent would drop, cut or miss a skill")


def positive(value: str) -> int:
    """An option's value as a whole number, 1 or more; argparse's error otherwise."""
    try:
        number = int(value)
    except ValueError:  # argparse would say "invalid positive value", naming this function
        raise _wrong(f"must be a whole number, 1 or more, not {value!r}") from None
    if number < 1:
        raise _wrong(f"must be 1 or more, not {number}")
    return number


def _wrong(message: str) -> Exception:
    from argparse import ArgumentTypeError  # noqa: PLC0415 - a wrong value's path only: plain words load no argparse

    return ArgumentTypeError(message)


def read_hook_options(
    declare: Callable[[Any], None], argv: Sequence[str] | None, *, prog: str, description: str
) -> argparse.Namespace | None:
    """A hook's options: those ``declare`` adds and ``--version``, read from ``argv`` (the command line's when None).

    None when --help or --version printed. Plain words are read without
    argparse (``quick_options``), anything else by argparse.
    """
    argv = sys.argv[1:] if argv is None else argv
    options = quick_parse(declare, argv)
    if options is not None:
        return options
    from skillmem_hook.argument_parser import ArgumentParser  # noqa: PLC0415 - plain words load no argparse

    parser = ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} (skillmem {__version__})")
    declare(parser)
    try:
        return parser.parse_args(argv)
    except HelpShown:
        return None
