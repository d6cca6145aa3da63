"""What reaches the terminal, and the one place errors become exit codes.

stdout carries data only: one JSON line per call. Every failure is one JSON
line ``{tool, error, hint}`` on stderr, never a traceback.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Iterator

from skillmem_hook.errors import EXIT_ERROR, EXIT_INTERRUPTED, SkillmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


_BATCH = 1000


def emit(data: dict[str, object]) -> None:
    """Print one JSON line on stdout: the bytes ``json.dumps(data)`` gives.

    A value that is an iterator (not a list) is written as a JSON array a
    batch at a time, so that 100,000 skills never sit in memory twice, once
    as objects and once as text.
    """
    write = sys.stdout.write
    try:
        write("{")
        for number, (key, value) in enumerate(data.items()):
            write(", " if number else "")
            write(json.dumps(key) + ": ")
            if isinstance(value, Iterator):
                _write_array(value, write)
            else:
                write(json.dumps(value))
        write("}\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped reading (``| head``): nothing is wrong with the run,
        # and its exit code still stands. Send what is left, and the flush at exit, nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _write_array(items: Iterator[object], write: Callable[[str], object]) -> None:
    write("[")
    first = True
    while batch := list(itertools.islice(items, _BATCH)):
        write(("" if first else ", ") + json.dumps(batch)[1:-1])
        first = False
    write("]")


def emit_error(tool: str, error: str, hint: str) -> None:
    """Print one JSON error line on stderr."""
    sys.stderr.write(json.dumps({"tool": tool, "error": error, "hint": hint}) + "\n")


def run_reporting_errors(tool: Callable[[], str], action: Callable[[], int]) -> int:
    """Run ``action`` and turn whatever it raises into an exit code and an error line.

    ``tool`` names the command at the time of failure (known only once the
    arguments are parsed).
    """
    try:
        return action()
    except SkillmemError as error:
        emit_error(tool(), error.message, error.hint)
        return error.exit_code
    except KeyboardInterrupt:
        emit_error(tool(), "interrupted", "run the command again; no file was left half-written")
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - the contract is a JSON line, never a traceback
        emit_error(
            tool(),
            f"unexpected error: {type(error).__name__}: {error}",
            "this is a bug in skillmem; please report it with the command you ran",
        )
        return EXIT_ERROR
