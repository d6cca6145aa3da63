"""A cold route index built in a child process, so a build the prompt cannot wait for still ends stored.

On a very large collection (130,000 skills) the build outlives the hook's
5 s budget; built in the hook's own process, it died with the alarm, was
never stored, and every prompt paid 5 s for nothing. Here a child builds
and stores it; the hook waits for the child within its budget, and when the
budget runs out it goes on without a hint while the child, detached from
the prompt's pipes, finishes for the next prompt. While one child builds,
later prompts start no other: they go on without a hint at once.
"""

from __future__ import annotations

import contextlib
import os

from skillmem_hook.agents.route import RouteInputError
from skillmem_hook.agents.route_index import RouteIndex, build_route_index, current_route_index
from skillmem_hook.files import read_regular_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MAX_INDEX_BYTES = 256 * 1024 * 1024
_BUILT, _FAILED = b"I", b"E"


def current_or_built(location: str, flag_roots: Sequence[str] | None) -> RouteIndex:
    """The stored index while it matches the disk; otherwise one built by a child, if it ends in time."""
    if not hasattr(os, "fork"):
        return current_route_index(location, flag_roots)  # no fork (Windows): built here, as before
    stored = _stored(location)
    if stored is not None:
        return stored
    marker = location + ".building"
    if _builder_alive(marker):
        raise RouteInputError("the route index is still being built; a later prompt uses it")
    return _build_in_child(location, flag_roots, marker)


def _stored(location: str) -> RouteIndex | None:
    try:
        # A regular file only, and capped: a FIFO or a link to /dev/zero must not hang the prompt.
        stored = RouteIndex.from_bytes(read_regular_file(location, MAX_INDEX_BYTES))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing, unreadable, damaged or of another shape: rebuild it
    return stored if stored.is_current() else None


def _builder_alive(marker: str) -> bool:
    try:
        pid = int(read_regular_file(marker, 64))
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False  # none, or one that died: build again
    return True


def _build_in_child(location: str, flag_roots: Sequence[str] | None, marker: str) -> RouteIndex:
    """Fork a builder and wait for its index; the alarm may end the wait, never the build."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its work is seen through the index it stores
        os.close(reading)
        _run_builder(location, flag_roots, marker, writing)
    os.close(writing)
    with os.fdopen(reading, "rb") as answer:
        data = answer.read()  # until the child ends, or the alarm interrupts
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    if data[:1] == _BUILT:
        return RouteIndex.from_bytes(data[1:])
    raise RouteInputError(data[1:].decode("utf-8", "replace") or "the route index could not be built")


def _run_builder(location: str, flag_roots: Sequence[str] | None, marker: str, answer: int) -> None:
    """In the child: leave the prompt's pipes and process group, build, store, answer the parent; then exit."""
    from skillmem_hook.catalog.store.cache import write_file_quietly  # noqa: PLC0415 - a warm prompt never needs it

    status = 0
    try:
        os.setsid()  # a signal to the hook's process group no longer reaches the build
        null = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):  # Claude Code waits for stdout to close: the child must not hold it
            os.dup2(null, descriptor)
        write_file_quietly(marker, str(os.getpid()).encode())
        try:
            data = build_route_index(flag_roots).to_bytes()
            write_file_quietly(location, data)
            message = _BUILT + data
        except Exception as error:  # noqa: BLE001 - the parent says why, on the hook's stderr
            message = _FAILED + (getattr(error, "message", None) or f"{type(error).__name__}: {error}").encode()
        with contextlib.suppress(OSError):  # the parent may have gone on without it
            _write_all(answer, message)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child into the parent's code
        status = 1
    finally:
        with contextlib.suppress(OSError):
            os.unlink(marker)
        os._exit(status)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
