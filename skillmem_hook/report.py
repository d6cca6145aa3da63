"""What reaches the terminal, and the one place errors become exit codes.

stdout carries data only: one JSON line per call. Every failure is one JSON
line ``{tool, error, hint}`` on stderr, never a traceback.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
from collections.abc import Iterator

from skillmem_hook.errors import EXIT_ERROR, EXIT_INTERRUPTED, FileAccessError, SkillmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable
    from typing import TextIO
else:
    import _signal as signal  # the C module: ``signal`` itself costs an enum build at start-up


_BATCH = 1000


def emit(data: dict[str, object]) -> None:
    """Print one JSON line on stdout: the bytes ``json.dumps(data)`` gives.

    A value that is an iterator (not a list) is written as a JSON array a
    batch at a time, so that 100,000 skills never sit in memory twice, once
    as objects and once as text.
    """
    if sys.stdout is None:
        return  # started with stdout closed (``>&-``): the exit code is all there is to say
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
        _silence(sys.stdout)
    except (OSError, ValueError) as error:
        _silence(sys.stdout)
        raise FileAccessError(
            f"cannot write the result to stdout: {getattr(error, 'strerror', None) or error}",
            "check where stdout goes (a full disk, /dev/full, a closed stream)",
        ) from None


def _silence(stream: TextIO) -> None:
    """Send what is left in ``stream``, and its flush at exit, to /dev/null."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _write_array(items: Iterator[object], write: Callable[[str], object]) -> None:
    write("[")
    first = True
    while batch := list(itertools.islice(items, _BATCH)):
        write(("" if first else ", ") + json.dumps(batch)[1:-1])
        first = False
    write("]")


def emit_error(tool: str, error: str, hint: str) -> None:
    """Print one JSON error line on stderr; a closed or full stderr leaves only the exit code."""
    _Forgiving(sys.stderr).write(json.dumps({"tool": tool, "error": error, "hint": hint}) + "\n")


def run_reporting_errors(tool: Callable[[], str], action: Callable[[], int]) -> int:
    """Run ``action`` and turn whatever it raises into an exit code and an error line.

    ``tool`` names the command at the time of failure (known only once the
    arguments are parsed).
    """
    _fill_closed_standard_streams()
    previous = _raise_on_interrupt()
    stderr = sys.stderr
    sys.stderr = _Forgiving(stderr)
    try:
        return action()
    except SkillmemError as error:
        emit_error(tool(), error.message, error.hint)
        return error.exit_code
    except KeyboardInterrupt as interrupt:
        # Terminated (SIGTERM, SIGHUP, SIGQUIT during a write) names its signal.
        message = f"interrupted ({interrupt})" if str(interrupt) else "interrupted"
        emit_error(tool(), message, "run the command again; no file was left half-written")
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - the contract is a JSON line, never a traceback
        emit_error(
            tool(),
            f"unexpected error: {type(error).__name__}: {error}",
            "this is a bug in skillmem; please report it with the command you ran",
        )
        return EXIT_ERROR
    finally:
        sys.stderr = stderr
        _restore_interrupt(previous)


class _Forgiving:
    """stderr for people: a closed or full stream loses the message, never the exit code."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
                self._stream.flush()
            except (OSError, ValueError):
                _silence(self._stream)
        return len(text)

    def flush(self) -> None:
        self.write("")

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _fill_closed_standard_streams() -> None:
    """Open /dev/null on a closed descriptor 0, 1 or 2.

    Otherwise the next file opened (a prompt file's temporary copy) would get
    that number, and anything written to "stdout" would land in it.
    """
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            opened = os.open(os.devnull, os.O_RDWR)
            if opened != descriptor:  # a lower one was closed too and took it; the loop fills this one next
                os.dup2(opened, descriptor)
                os.close(opened)


def _raise_on_interrupt() -> object:
    """Let Ctrl-C raise KeyboardInterrupt while the command runs, so writes clean up.

    The package's first lines make Ctrl-C during start-up exit at once; the
    previous handler comes back once the command is done.
    """
    try:
        return signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:
        return None  # not the main thread: the caller's handling stays


def _restore_interrupt(previous: object) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous)  # type: ignore[arg-type]
