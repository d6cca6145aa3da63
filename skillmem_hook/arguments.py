"""The argument parser shared by the CLI and the pre-commit hooks, and the options several of them take.

Its ``error()`` raises, so a bad flag follows the same error contract as
every other failure: one JSON line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import contextlib

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


class HelpShown(Exception):
    """``--help`` or ``--version`` printed its text; the run ends with exit 0."""


class _HelpFormatter(argparse.HelpFormatter):
    """Help wrapped at a fixed 100 columns.

    argparse builds a formatter for every argument it adds, and the default
    one imports shutil to ask the terminal's width: a cost paid on every run.
    """

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=100)


@contextlib.contextmanager
def _untranslated() -> Iterator[None]:
    """argparse's strings as written, without asking gettext for each.

    argparse passes each of its words (``usage:``, ``options``, each error)
    through gettext, and gettext's first call loads ``locale`` and then looks
    for a catalog on every call: about 3 ms of a 60 ms ``skillmem verify``.
    Python ships no catalog for them, and skillmem's own words are English.
    """
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = _as_written  # type: ignore[attr-defined]
    argparse.ngettext = _as_written_plural  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def _as_written(message: str) -> str:
    return message


def _as_written_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, with its errors raised as usage errors, and its words not passed through gettext."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        with _untranslated():
            super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        with _untranslated():  # --version's and --help's own help
            return super().add_argument(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        with _untranslated():
            return super().add_subparsers(**kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Any = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        with _untranslated():  # the errors
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with _untranslated():
            return super().format_usage()

    def format_help(self) -> str:
        with _untranslated():
            return super().format_help()

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message, f"see '{self.prog} --help'")

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        if status:
            raise UsageError(message or "invalid arguments", f"see '{self.prog} --help'")
        raise HelpShown


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
        choices=("claude-code", "codex", "all"),
        help="the agent whose listing to replay (default: budget: agents in .skillmem.yaml, else all)",
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
        raise argparse.ArgumentTypeError(f"must be a whole number, 1 or more, not {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number
