"""The route hook's two indexes built outside the prompt, so a build the prompt cannot wait for still ends stored.

The route index: on a very large collection (130,000 skills) the build
outlives the hook's 5 s budget; built in the hook's own process, it died
with the alarm, was never stored, and every prompt paid 5 s for nothing.
Here a forked child builds and stores it; the hook waits for the child
within its budget, and when the budget runs out it goes on without a hint
while the child, detached from the prompt's pipes, finishes for the next
prompt. While one child builds, later prompts start no other: they go on
without a hint at once.

The search index (the score rule's): a build of a few thousand skills takes
seconds, more than a prompt may wait, so a missing or stale one is built by
a detached, silent process of its own (``python -m`` this module) and the
prompt goes on without a score hint; a later one finds the index.

Either build marks itself with a file beside its index, ``<index>.building``,
which keeps a burst of prompts from starting many.
"""

from __future__ import annotations

import contextlib
import os
import time

from skillmem_hook.agents.route import RouteInputError
from skillmem_hook.agents.route_index import RouteIndex, build_route_index, current_route_index, stored_route_index
from skillmem_hook.files import read_regular_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

BUILD_SECONDS = 120  # a background build of the search index older than this is taken as dead
_BUILT, _FAILED = b"I", b"E"


def current_or_built(location: str, flag_roots: Sequence[str] | None) -> RouteIndex:
    """The stored index while it matches the disk; otherwise one built by a child, if it ends in time."""
    if not hasattr(os, "fork"):
        return current_route_index(location, flag_roots)  # no fork (Windows): built here, as before
    stored = stored_route_index(location)
    if stored is not None:
        return stored
    marker = location + ".building"
    if _builder_alive(marker):
        raise RouteInputError("the route index is still being built; a later prompt uses it")
    return _build_in_child(location, flag_roots, marker)


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


def refresh_search_index(roots: Sequence[str], location: str) -> None:
    """Start a process that builds and stores the index, unless one started within BUILD_SECONDS.

    For the route hook: a build of a few thousand skills takes seconds, more
    than a prompt may wait, so the prompt goes on without a score hint and a
    later one finds the index. The process is detached and silent; a marker
    file beside the index keeps a burst of prompts from starting many.
    """
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    marker = location + ".building"
    try:
        if time.time() - os.stat(marker).st_mtime < BUILD_SECONDS:
            return
        os.unlink(marker)
    except OSError:
        pass
    try:
        os.makedirs(os.path.dirname(location), exist_ok=True)
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except OSError:
        return  # another prompt's process won the race, or the folder cannot be written
    command = [sys.executable, "-m", "skillmem_hook.agents.background", location, *roots]
    subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def _build_and_store(arguments: Sequence[str]) -> int:
    """The search index's background build: ``location root...``, in the folder the hook ran in."""
    # Only the build's own process needs these: a prompt that imports this module for the route index does not.
    from skillmem_hook.config import load_settings  # noqa: PLC0415
    from skillmem_hook.decisive import decisive_files  # noqa: PLC0415
    from skillmem_hook.search.store import load_or_build_at  # noqa: PLC0415

    location, roots = arguments[0], list(arguments[1:])
    try:
        settings = load_settings(roots or None)
        watched = decisive_files(os.getcwd(), tracked=False)
        load_or_build_at(roots, settings.catalog_options(), settings.aliases, location, watched)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(location + ".building")
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(_build_and_store(sys.argv[1:]))
