"""The argument parser shared by the CLI and the pre-commit hooks.

Its ``error()`` raises, so a bad flag follows the same error contract as
every other failure: one JSON line on stderr and exit 2.
"""

from __future__ import annotations

import argparse

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
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


class ArgumentParser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

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


def add_search_options(parser: argparse.ArgumentParser) -> None:
    """``skillmem search [--top K] [--text] INTENT...``."""
    parser.add_argument("--top", type=_positive, default=5, metavar="K", help="at most K skills (default 5)")
    parser.add_argument("--text", action="store_true", help="a short human-readable list instead of JSON")
    parser.add_argument("intent", nargs="*", metavar="INTENT", help="the user's words, in any language")


def _positive(value: str) -> int:
    number = int(value)  # argparse turns the ValueError into a usage error
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def add_setup_options(init: argparse.ArgumentParser, merge_driver: argparse.ArgumentParser) -> None:
    """``skillmem init [--repo URL] [--rev REV] [--dry-run] [--force] [--no-install]``, and the merge driver's four."""
    init.add_argument("--repo", metavar="URL", help="the hooks' source in .pre-commit-config.yaml (default: ours)")
    init.add_argument("--rev", metavar="REV", help="the tag or commit of --repo to pin (default: this version's tag)")
    init.add_argument("--dry-run", action="store_true", help="print every file it would write; change nothing")
    init.add_argument("--force", action="store_true", help="rewrite an existing .skillmem.yaml")
    init.add_argument("--no-install", dest="install", action="store_false", help="do not run 'pre-commit install'")
    for name, text in (
        ("base", "%%O: the common ancestor's version"),
        ("ours", "%%A: our version, where the result is written"),
        ("theirs", "%%B: their version"),
        ("path", "%%P: the file's path in the repository"),
    ):
        merge_driver.add_argument(name, help=text)
