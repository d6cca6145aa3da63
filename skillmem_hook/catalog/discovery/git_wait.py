"""A git that waits in ``open()`` of a FIFO no one writes, seen in ``/proc`` (Linux) and ended.

git opens many files with a plain, blocking ``open``: its config and every
file an ``include.path`` or ``includeIf`` names, ``config.worktree``, the
index, ``HEAD`` and the refs (loose or ``packed-refs``), the object store
(``objects/info/alternates``, ``commit-graph``, a pack's ``.idx``, a loose
object), ``shallow``, ``info/grafts``, ``info/sparse-checkout``,
``.gitmodules``, the exclude and attribute files. A FIFO in any of them (tar
keeps FIFOs; git cannot track one) made git, and skillmem with it, wait for
good, and a look at each file before git kept missing some.
So the one place that runs git watches it instead: a git that has not ended
after ``LOOK_AFTER`` seconds is looked at, with its descendants (the ``git
status`` a diff starts in a submodule, say), every ``LOOK_EVERY`` seconds
from then on; one that waits in the kernel's ``wait_for_partner`` (what
``/proc/<pid>/wchan`` reads while ``open()`` of a FIFO waits for its other
end) is ended, its whole process group, and the run fails with exit 2. No
other git is ever ended: a slow one is only looked at (a few ``/proc`` reads
every ``LOOK_EVERY``), never timed out. A git that ends sooner costs nothing
but the ``poll`` its output is read through.

Where there is no ``/proc`` (macOS), ``excludes.py``'s look before git
stays, with the work tree's ``.gitmodules`` and the files the repository's
own config includes added to it.
"""

from __future__ import annotations

import os

from skillmem_hook.errors import GitWouldWait

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable

LOOK_AFTER = 0.2  # seconds: most git calls end sooner, and are never looked at
LOOK_EVERY = 0.2
_WAITS_ON_FIFO = b"wait_for_partner"  # fs/pipe.c: open() of a FIFO blocks here until its other end opens
_PROC = "/proc"
_SIGKILL = 9  # POSIX fixes its number; the signal module is one more import
_FOUND: list[bool] = []  # whether /proc tells a process's wait, asked once


def can_look() -> bool:
    """Whether this system tells what a process waits on (``/proc/<pid>/wchan``: Linux)."""
    if not _FOUND:
        _FOUND.append(os.path.exists(os.path.join(_PROC, str(os.getpid()), "wchan")))
    return _FOUND[0]


def waits_on_fifo(pid: int) -> bool:
    """Whether the process ``pid``, or one it started (at any depth), waits in ``open()`` of a FIFO."""
    if _wchan(pid) == _WAITS_ON_FIFO:
        return True
    return any(_wchan(each) == _WAITS_ON_FIFO for each in _descendants(pid))


def end_group(pid: int) -> None:
    """Kill the process group ``pid`` leads (git started as its own group), or ``pid`` alone where that fails."""
    try:
        os.killpg(pid, _SIGKILL)
    except OSError:
        try:  # noqa: SIM105 - contextlib is not loaded on a warm run
            os.kill(pid, _SIGKILL)
        except OSError:  # ended already
            pass


def read_watched(source: int, pid: int) -> bytes:
    """All git writes to ``source`` (its stdout's read end) until it closes it; looked at (``waits_on_fifo``) once
    it has run ``LOOK_AFTER`` seconds, and every ``LOOK_EVERY`` after, and ended (raising) when it waits so."""
    import select  # noqa: PLC0415 - only where /proc tells a wait: 0.2 ms, once, beside the git it reads
    import time  # noqa: PLC0415 - built in: no file to load

    poller = select.poll()
    poller.register(source, select.POLLIN)
    chunks: list[bytes] = []
    look_at = time.monotonic() + LOOK_AFTER
    while True:
        if poller.poll(max(1, int((look_at - time.monotonic()) * 1000) + 1)):
            chunk = os.read(source, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
        now = time.monotonic()
        if now >= look_at:
            if waits_on_fifo(pid):
                raise waited_error()
            look_at = now + LOOK_EVERY


def communicate(process: subprocess.Popen[bytes], stdin: bytes | None, *, watched: bool) -> tuple[bytes, bytes]:
    """``process.communicate(stdin)``, its stdout and stderr; never leaving git running on an exception (Ctrl-C).

    ``watched`` (``can_look``, and git started with ``start_new_session``: a process group of its own): git is
    looked at as ``read_watched`` does, and ended, raising, when it waits on a FIFO.
    """
    try:
        out, err = _communicate_watched(process, stdin) if watched else process.communicate(stdin)
    except BaseException:
        if watched:
            end_group(process.pid)
        else:
            process.kill()
        process.wait()
        raise
    return out or b"", err or b""


def _communicate_watched(process: subprocess.Popen[bytes], stdin: bytes | None) -> tuple[bytes, bytes]:
    import subprocess  # noqa: PLC0415 - loaded already: the caller started the process with it

    wait = LOOK_AFTER
    while True:
        try:
            return process.communicate(stdin, timeout=wait)
        except subprocess.TimeoutExpired:
            if waits_on_fifo(process.pid):
                raise waited_error() from None
            wait = LOOK_EVERY


def waited_error() -> GitWouldWait:
    """The error for a git ended while it waited on a FIFO."""
    return GitWouldWait(
        "git waited to open a FIFO (a named pipe no one writes), so skillmem ended it: a FIFO lies in this "
        "repository's work tree or git directory where git reads a file (its config or a file the config includes, "
        "the index, a ref, packed-refs, the object store, .gitmodules, an ignore or attribute file)",
        "find it from the work tree's top with: find . -type p (the .git folder included); remove it or replace "
        "it with a regular file; an unpacked archive can bring one (git cannot track a FIFO), and git status waits "
        "there too",
    )


def _wchan(pid: int) -> bytes:
    try:
        handle = os.open(f"{_PROC}/{pid}/wchan", os.O_RDONLY)
    except OSError:  # ended, or not ours to read
        return b""
    try:
        return os.read(handle, 128).strip()
    except OSError:
        return b""
    finally:
        os.close(handle)


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``: from each of its threads' ``children`` lists where the kernel keeps them, else
    from every process's parent in ``/proc/<pid>/stat`` (kernels built without ``CONFIG_PROC_CHILDREN``)."""
    children = _children_lists()
    found, queue = [], [pid]
    while queue:
        parent = queue.pop()
        below = children(parent)
        found += below
        queue += below
    return found


def _children_lists() -> Callable[[int], list[int]]:
    """A function from a pid to its children's pids."""
    if os.path.exists(f"{_PROC}/self/task/{os.getpid()}/children"):
        return _listed_children
    parents: dict[int, list[int]] = {}
    for name in os.listdir(_PROC):
        if name.isdigit():
            parent = _parent(name)
            if parent is not None:
                parents.setdefault(parent, []).append(int(name))
    return lambda pid: parents.get(pid, [])


def _listed_children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        threads = os.listdir(f"{_PROC}/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"{_PROC}/{pid}/task/{thread}/children", "rb") as listing:
                found += [int(word) for word in listing.read().split()]
        except (OSError, ValueError):
            continue
    return found


def _parent(pid: str) -> int | None:
    """The parent of the process ``pid``, from the fourth field of its ``stat`` (after the name in parentheses,
    which may hold spaces and parentheses itself)."""
    try:
        handle = os.open(f"{_PROC}/{pid}/stat", os.O_RDONLY)
    except OSError:
        return None
    try:
        data = os.read(handle, 1024)
    except OSError:
        return None
    finally:
        os.close(handle)
    fields = data[data.rfind(b")") + 2 :].split()
    try:
        return int(fields[1])
    except (IndexError, ValueError):
        return None
