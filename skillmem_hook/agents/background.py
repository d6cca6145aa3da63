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

Either build is marked by a file beside its index, ``<index>.building``,
made before the build starts, by whoever starts it, and only if no other
process made it first; the build removes it when done. A marker counts for
BUILD_SECONDS from its modification time: the same rule for both builds,
with no process id to trust (one rule: a pid in a marker
can be reused after a reboot, or name a process of another host sharing the
cache folder, and a marker from the future never ages). A build touches its
marker every HEARTBEAT_SECONDS while it runs (``kept_fresh``), so a build of
minutes (130,000 skills) counts for as long as it runs, where the bare rule
started another beside it every two minutes; a build that died stops
counting BUILD_SECONDS after its last touch. The modification time is the
file system's, so the rule holds for hosts sharing the folder too.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

from skillmem_hook.agents.route import RouteInputError
from skillmem_hook.agents.route_index import RouteIndex, build_route_index, current_route_index, stored_route_index
from skillmem_hook.catalog.store.trust import make_private_folder
from skillmem_hook.config import load_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

BUILD_SECONDS = 120  # a build marked longer ago than this (or this far ahead) is taken as dead
HEARTBEAT_SECONDS = 30  # how often a running build touches its marker: well within BUILD_SECONDS
_BUILT, _FAILED = b"I", b"E"


def current_or_built(location: str, flag_roots: Sequence[str] | None) -> RouteIndex:
    """The stored index while it matches the disk; otherwise one built by a child, if it ends in time."""
    if not hasattr(os, "fork"):
        return current_route_index(location, flag_roots)  # no fork (Windows): built here, as before
    stored = stored_route_index(location)
    if stored is not None:
        return stored
    marker = location + ".building"
    claimed = claim(marker)
    if claimed is False:
        raise RouteInputError("the route index is still being built; a later prompt uses it")
    # A folder that cannot hold the marker cannot hold the index either: built all the same, for this prompt.
    return _build_in_child(location, flag_roots, marker if claimed else None)


def claim(marker: str) -> bool | None:
    """Mark a build as started: True when this call made the marker, False while another build's marker counts.

    None when the marker's folder cannot be written. A marker that no longer counts is replaced.
    """
    try:
        age = time.time() - os.lstat(marker).st_mtime
        if abs(age) < BUILD_SECONDS:
            return False
        os.unlink(marker)  # a build that died (or a marker from the future): start again
    except OSError:
        pass
    if not make_private_folder(os.path.dirname(marker)):
        return None
    try:
        # O_EXCL: of two prompts at once, one makes the marker and builds; a link in its place is not followed.
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return False
    except OSError:
        return None
    return True


@contextlib.contextmanager
def kept_fresh(marker: str | None) -> Iterator[None]:
    """While the block runs, touch ``marker`` every HEARTBEAT_SECONDS from a daemon thread, so the build counts.

    The marker itself, never a link's target; once it is gone (released, or
    taken for dead and replaced by another build's), nothing more is touched.
    """
    if marker is None:
        yield
        return
    import threading  # noqa: PLC0415 - only a build's own process keeps its marker fresh; a prompt loads no thread

    done = threading.Event()

    def touch() -> None:
        while not done.wait(HEARTBEAT_SECONDS):
            try:  # the marker's own time, not a link's target's, where the system can tell them apart
                os.utime(marker, follow_symlinks=os.utime not in os.supports_follow_symlinks)
            except OSError:
                return

    threading.Thread(target=touch, name="skillmem-build-marker", daemon=True).start()
    try:
        yield
    finally:
        done.set()


def release(marker: str | None) -> None:
    """Remove a marker this process made (None: it made none)."""
    if marker is not None:
        with contextlib.suppress(OSError):
            os.unlink(marker)


def _build_in_child(location: str, flag_roots: Sequence[str] | None, marker: str | None) -> RouteIndex:
    """Fork a builder and wait for its index; the alarm may end the wait, never the build."""
    reading, writing = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        release(marker)
        raise
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


def _run_builder(location: str, flag_roots: Sequence[str] | None, marker: str | None, answer: int) -> None:
    """In the child: leave the prompt's pipes and process group, build, store, answer the parent; then exit."""
    from skillmem_hook.catalog.store.seal import write_sealed_quietly  # noqa: PLC0415 - a warm prompt never needs it

    status = 0
    try:
        os.setsid()  # a signal to the hook's process group no longer reaches the build
        null = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):  # Claude Code waits for stdout to close: the child must not hold it
            os.dup2(null, descriptor)
        try:
            with kept_fresh(marker):
                data = build_route_index(flag_roots).to_bytes()
                write_sealed_quietly(location, data)
            message = _BUILT + data
        except Exception as error:  # noqa: BLE001 - the parent says why, on the hook's stderr
            message = _FAILED + (getattr(error, "message", None) or f"{type(error).__name__}: {error}").encode()
        with contextlib.suppress(OSError):  # the parent may have gone on without it
            _write_all(answer, message)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child into the parent's code
        status = 1
    finally:
        release(marker)
        os._exit(status)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def refresh_search_index(roots: Sequence[str], location: str) -> None:
    """Start a detached, silent process that builds and stores the search index, unless a marked build counts.

    Nothing starts when the marker's folder cannot be written: the index could not be stored there either.
    """
    import subprocess  # noqa: PLC0415 - a warm route prompt starts no build

    marker = location + ".building"
    if not claim(marker):
        return
    command = [sys.executable, "-m", "skillmem_hook.agents.background", location, *roots]
    try:
        subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        release(marker)
        raise


def _build_and_store(arguments: Sequence[str]) -> int:
    """The search index's background build: ``location root...``, in the folder the hook ran in."""
    # Only the build's own process needs these: a prompt that imports this module for the route index does not.
    from skillmem_hook.decisive import decisive_files  # noqa: PLC0415 - only the build's own process
    from skillmem_hook.search.store import load_or_build_at  # noqa: PLC0415 - only the build's own process

    location, roots = arguments[0], list(arguments[1:])
    marker = location + ".building"
    try:
        with kept_fresh(marker):
            settings = load_settings(roots or None)
            watched = decisive_files(os.getcwd(), tracked=False)
            # whole: the route hook starts this build when it finds a forged row in a current index too
            load_or_build_at(roots, settings.catalog_options(), settings.aliases, location, watched, whole=True)
    finally:
        release(marker)
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(_build_and_store(sys.argv[1:]))
