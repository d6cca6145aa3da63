"""argparse's parser as skillmem uses it: errors raised as usage errors, help at 100 columns, no gettext.

Its ``error()`` raises, so a bad flag follows the same error contract as
every other failure: one JSON line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import contextlib

from skillmem_hook.errors import HelpShown, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


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
