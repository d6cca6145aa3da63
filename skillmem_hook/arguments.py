"""The argument parser shared by the CLI and the pre-commit hooks.

Its ``error()`` raises, so a bad flag follows the same error contract as
every other failure: one JSON line on stderr and exit 2.
"""

from __future__ import annotations

import argparse

from skillmem_hook.errors import UsageError


class HelpShown(Exception):
    """``--help`` or ``--version`` printed its text; the run ends with exit 0."""


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message, f"see '{self.prog} --help'")

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        if status:
            raise UsageError(message or "invalid arguments", f"see '{self.prog} --help'")
        raise HelpShown


def add_root_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        action="append",
        metavar="DIR",
        help="a folder of skills; repeat for several (default: .skillmem.yaml, then common layouts)",
    )


def add_prompt_file_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--prompt-file",
        action="append",
        metavar="FILE",
        help="an agent prompt file holding the block; repeat for several",
    )
