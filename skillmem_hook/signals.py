"""Signals during a write: SIGTERM, SIGHUP and SIGQUIT raise like Ctrl-C, and short steps hold them.

Imported only by a run that writes.
"""

from __future__ import annotations

import contextlib
import signal
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM, SIGHUP or SIGQUIT arrived during a write: handled like Ctrl-C, named in the error."""


_TERMINATING = ("SIGTERM", "SIGHUP", "SIGQUIT")


@contextlib.contextmanager
def cleanup_on_termination() -> Iterator[None]:
    """Turn SIGTERM, SIGHUP and SIGQUIT into ``Terminated`` while temporary files exist."""

    def terminate(number: int, frame: object) -> None:
        raise Terminated(signal.Signals(number).name)

    numbers = [getattr(signal, name) for name in _TERMINATING if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; the caller's own stay in force
        return
    previous = {number: signal.signal(number, terminate) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold interrupts while a temporary file is created, renamed or removed and its name recorded."""
    held = {signal.SIGINT, *(getattr(signal, name) for name in _TERMINATING if hasattr(signal, name))}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
