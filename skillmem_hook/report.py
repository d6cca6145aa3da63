"""What reaches the terminal, and the one place errors become exit codes.

stdout carries data only: one JSON line per call. Every failure is one JSON
line ``{tool, error, hint}`` on stderr (plain lines of text for the pre-commit
hooks, whose reader is a person), never a traceback. Text is written as UTF-8
bytes whatever the locale, non-ASCII kept as is.
"""

from __future__ import annotations

import itertools
import sys

from skillmem_hook.errors import EXIT_ERROR, EXIT_INTERRUPTED, FileAccessError, SkillmemError
from skillmem_hook.streams import Forgiving, fill_closed_standard_streams, silence, to_json, write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable, Iterator
else:
    import _signal as signal  # the C module: ``signal`` itself costs an enum build at start-up


_BATCH = 1000


def emit(data: dict[str, object], render: Callable[[dict[str, object]], str] | None = None) -> None:
    """Print one JSON line on stdout: ``to_json(data)`` as UTF-8 bytes; or, given ``render``, its lines (``--text``).

    A value that is an iterator (not a list) is written as a JSON array a
    batch at a time, so that 100,000 skills never sit in memory twice, once
    as objects and once as text.
    """
    if sys.stdout is None:
        return  # started with stdout closed (``>&-``): the exit code is all there is to say
    from collections.abc import Iterator  # noqa: PLC0415 - loads collections: a hook run prints no JSON line

    def write(text: str) -> None:
        write_utf8(sys.stdout, text)

    try:
        if render is not None:
            write(render({key: list(v) if isinstance(v, Iterator) else v for key, v in data.items()}))
            sys.stdout.flush()
            return
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
        silence(sys.stdout)
    except (OSError, ValueError) as error:
        silence(sys.stdout)
        raise _stdout_error(error) from None


def _stdout_error(error: Exception) -> FileAccessError:
    return FileAccessError(
        f"cannot write the result to stdout: {getattr(error, 'strerror', None) or error}",
        "check where stdout goes (a full disk, /dev/full, a closed stream)",
    )


def emit_raw(text: str) -> None:
    """Print ``text`` as it is on stdout: ``skillmem prompt --raw``, the one exception to one JSON line."""
    try:
        write_utf8(sys.stdout, text)
    except BrokenPipeError:
        silence(sys.stdout)
    except (OSError, ValueError) as error:
        silence(sys.stdout)
        raise _stdout_error(error) from None


def _write_array(items: Iterator[object], write: Callable[[str], object]) -> None:
    write("[")
    first = True
    while batch := list(itertools.islice(items, _BATCH)):
        write(("" if first else ", ") + to_json(batch)[1:-1])
        first = False
    write("]")


def emit_error(tool: str, error: str, hint: str) -> None:
    """Print one JSON error line on stderr; a closed or full stderr leaves only the exit code."""
    Forgiving(sys.stderr).write(to_json({"tool": tool, "error": error, "hint": hint}) + "\n")


def say_error(tool: str, error: str, hint: str) -> None:
    """Print an error for a person on stderr: the error, then each line of the hint, indented."""
    error_lines = "\n  ".join(error.splitlines())
    hint_lines = "".join(f"  {line}\n" for line in hint.splitlines())
    Forgiving(sys.stderr).write(f"{tool}: {error_lines}\n{hint_lines}")


def run_reporting_errors(tool: Callable[[], str], action: Callable[[], int], *, human: bool = False) -> int:
    """Run ``action`` and turn whatever it raises into an exit code and an error line.

    ``tool`` names the command at the time of failure (known only once the
    arguments are parsed). ``human`` prints the error as plain text (the
    pre-commit hooks) instead of one JSON line (the CLI).
    """
    report = say_error if human else emit_error
    fill_closed_standard_streams()
    previous = _raise_on_interrupt()
    stderr = sys.stderr
    sys.stderr = Forgiving(stderr)
    try:
        return action()
    except SkillmemError as error:
        report(tool(), error.message, error.hint)
        return error.exit_code
    except KeyboardInterrupt as interrupt:
        # Terminated (SIGTERM, SIGHUP, SIGQUIT during a write) names its signal.
        message = f"interrupted ({interrupt})" if str(interrupt) else "interrupted"
        report(tool(), message, "run the command again; no file was left half-written")
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - the contract is a JSON line, never a traceback
        report(
            tool(),
            f"unexpected error: {type(error).__name__}: {error}",
            "this is a bug in skillmem; please report it with the command you ran",
        )
        return EXIT_ERROR
    finally:
        sys.stderr = stderr
        _restore_interrupt(previous)


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
