"""What reaches the terminal, and the one place errors become exit codes.

stdout carries data only: one JSON line per call. Every failure is one JSON
line ``{tool, error, hint}`` on stderr (plain lines of text for the pre-commit
hooks, whose reader is a person), never a traceback. Text is written as UTF-8
bytes whatever the locale, non-ASCII kept as is.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
from collections.abc import Iterator

from skillmem_hook.errors import EXIT_ERROR, EXIT_INTERRUPTED, SkillmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO


_BATCH = 1000


def emit(data: dict[str, object]) -> None:
    """Print one JSON line on stdout: ``to_json(data)`` as UTF-8 bytes.

    A value that is an iterator (not a list) is written as a JSON array a
    batch at a time, so that 100,000 skills never sit in memory twice, once
    as objects and once as text.
    """

    def write(text: str) -> None:
        write_utf8(sys.stdout, text)

    try:
        write("{")
        for number, (key, value) in enumerate(data.items()):
            write(", " if number else "")
            write(to_json(key) + ": ")
            if isinstance(value, Iterator):
                _write_array(value, write)
            else:
                write(to_json(value))
        write("}\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped reading (``| head``): nothing is wrong with the run,
        # and its exit code still stands. Send what is left, and the flush at exit, nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def emit_raw(text: str) -> None:
    """Print ``text`` as it is on stdout: ``skillmem prompt --raw``, the one exception to one JSON line."""
    try:
        write_utf8(sys.stdout, text)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _write_array(items: Iterator[object], write: Callable[[str], object]) -> None:
    write("[")
    first = True
    while batch := list(itertools.islice(items, _BATCH)):
        write(("" if first else ", ") + to_json(batch)[1:-1])
        first = False
    write("]")


# JSON leaves these raw with ensure_ascii=False, yet Python's splitlines() and
# older JavaScript read them as line breaks: escaped, the line stays one line.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def to_json(value: object) -> str:
    """JSON text with non-ASCII kept as UTF-8 (no ``\\u`` escapes) and no character a reader splits lines at."""
    text = json.dumps(value, ensure_ascii=False)
    if any(character in text for character in _LINE_BREAKS):
        for character, escape in _LINE_BREAKS.items():
            text = text.replace(character, escape)
    return text


def write_utf8(stream: TextIO, text: str) -> None:
    """Write ``text`` to a text stream as UTF-8 bytes, whatever the stream's (locale's) encoding."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _encode_surrogates(text)
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a stream without bytes underneath (a test's StringIO)
        stream.write(data.decode("utf-8"))
        return
    stream.flush()  # what was written as text goes first
    buffer.write(data)
    buffer.flush()


def _encode_surrogates(text: str) -> bytes:
    """Valid UTF-8 for text holding lone surrogates: file names decoded with surrogateescape.

    Under an ASCII locale a UTF-8 name arrives as one surrogate a byte: those
    bytes are joined back into their characters. A byte that is not UTF-8
    stays a surrogate and becomes the escape ``\\udcxx``: inside a JSON string
    (the only place a JSON line can hold one) the very escape ``json.loads``
    reads back as that surrogate.
    """
    # A surrogate surrogateescape never makes (\\ud800) is left for backslashreplace.
    with contextlib.suppress(UnicodeEncodeError):
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    for character, escape in _LINE_BREAKS.items():
        text = text.replace(character, escape)
    return text.encode("utf-8", "backslashreplace")


def emit_error(tool: str, error: str, hint: str) -> None:
    """Print one JSON error line on stderr."""
    write_utf8(sys.stderr, to_json({"tool": tool, "error": error, "hint": hint}) + "\n")


def say_error(tool: str, error: str, hint: str) -> None:
    """Print an error for a person on stderr: the error, then each line of the hint, indented."""
    error_lines = "\n  ".join(error.splitlines())
    hint_lines = "".join(f"  {line}\n" for line in hint.splitlines())
    write_utf8(sys.stderr, f"{tool}: {error_lines}\n{hint_lines}")


def run_reporting_errors(tool: Callable[[], str], action: Callable[[], int], *, human: bool = False) -> int:
    """Run ``action`` and turn whatever it raises into an exit code and an error line.

    ``tool`` names the command at the time of failure (known only once the
    arguments are parsed). ``human`` prints the error as plain text (the
    pre-commit hooks) instead of one JSON line (the CLI).
    """
    report = say_error if human else emit_error
    try:
        return action()
    except SkillmemError as error:
        report(tool(), error.message, error.hint)
        return error.exit_code
    except KeyboardInterrupt:
        report(tool(), "interrupted", "run the command again; no file was left half-written")
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - the contract is a JSON line, never a traceback
        report(
            tool(),
            f"unexpected error: {type(error).__name__}: {error}",
            "this is a bug in skillmem; please report it with the command you ran",
        )
        return EXIT_ERROR
