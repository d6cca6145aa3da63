"""Which kept files and folders skillmem may trust: ssh's rule, this user's alone.

A kept file (a route or search index, the vectors, the catalog cache) steers
what the hooks write and what a prompt is told to read, and its checksum
finds damage, not forgery. So it is read back only when it is a regular
file, not a link, that this user owns and no one else may write
(``read_kept_file``), and kept only in a folder of that kind: skillmem
makes its folders private (0700; the files 0600), and every folder from the
cache root down that it did not make must pass the rule. A folder that fails
it keeps nothing: every run builds afresh, and the CLI says so once on
stderr (the route hook stays silent). Where files have no owners (Windows),
every folder passes.
"""

from __future__ import annotations

import os
import stat
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO, Callable

KEPT_FILE_MODE = 0o600
_NOT_OTHERS = stat.S_IWGRP | stat.S_IWOTH
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_said: set[str] = set()  # the folders refused so far: each is said once a process
_quiet = [False]  # set by the route hook: a prompt sees no line but its hint


def read_kept_file(path: str, limit: int) -> bytes:
    """The bytes of a file skillmem kept at ``path``; OSError unless it may be trusted (``read_kept``)."""
    return read_kept(path, limit)[0]


def read_kept(path: str, limit: int) -> tuple[bytes, os.stat_result]:
    """The bytes of a file skillmem kept at ``path``, and the ``fstat`` they were read under; OSError unless it may
    be trusted.

    A regular file of at most ``limit`` bytes, not a link, that this user owns
    and no one else may write: opened without blocking, so a FIFO put there
    never makes a prompt wait, and read no further than the limit. The status
    is what a seal (``seal.read_sealed_file``) is checked against.
    """
    descriptor = os.open(path, _READ_FLAGS)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit or not owned_privately(status):
            raise OSError(f"{path} is not a file skillmem may trust")
        chunks, total = [], 0
        # One read of the size fstat gives (and a little more, to see growth), never the whole limit at once.
        while total <= limit and (chunk := os.read(descriptor, min(limit + 1 - total, status.st_size - total + 65536))):
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise OSError(f"{path} grew past its limit while it was read")
        return b"".join(chunks), status
    finally:
        os.close(descriptor)


def owned_privately(status: os.stat_result) -> bool:
    """This user owns it and no one else may write to it (ssh's rule); so everywhere without owners (Windows)."""
    if not hasattr(os, "geteuid"):
        return True
    return status.st_uid == os.geteuid() and not status.st_mode & _NOT_OTHERS


def keep_quiet() -> None:
    """Say nothing on stderr about folders refused (the route hook: a prompt must see no extra line)."""
    _quiet[0] = True


def make_private_folder(folder: str) -> bool:
    """Make ``folder``, and each missing folder above it, private (0700); whether it is there now.

    For a writer: the place was chosen (and checked) by ``locations.py``; a folder made now is this user's alone.
    """
    if os.path.isdir(folder):
        return True
    parent = os.path.dirname(folder)
    if parent != folder:
        make_private_folder(parent)
    try:  # noqa: SIM105 - contextlib is not loaded on a warm run
        os.mkdir(folder, 0o700)
    except OSError:  # made meanwhile by another run (FileExistsError), or it cannot be made
        pass
    return os.path.isdir(folder)


def replace_kept_file(path: str, fill: Callable[[BinaryIO], object]) -> None:
    """Replace the kept file with what ``fill`` writes to a temporary file (0600, in a private folder), then rename
    it; any failure leaves the old one.

    Both made and renamed inside the folder opened once, without following a link (``O_NOFOLLOW``): a folder
    that is a link to one of the user's (``.git/skillmem -> ~/.ssh``) gets nothing. A link in the file's own
    place is replaced by the rename, never followed. (Windows, with no folder handles, goes by path.)
    """
    folder, name = os.path.split(path)
    temporary = f"{name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    try:
        if not make_private_folder(folder):
            return
        folder_handle = os.open(folder or ".", _FOLDER_FLAGS) if _BY_HANDLE else None
    except (OSError, ValueError):  # a link (ELOOP), gone, or not a folder
        return
    if folder_handle is None:
        temporary, name = os.path.join(folder, temporary), path
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEPT_FILE_MODE, dir_fd=folder_handle)
        try:
            with os.fdopen(handle, "wb") as file:
                fill(file)
            os.replace(temporary, name, src_dir_fd=folder_handle, dst_dir_fd=folder_handle)
        finally:
            try:  # noqa: SIM105 - contextlib is not loaded on a warm run
                os.unlink(temporary, dir_fd=folder_handle)
            except OSError:  # renamed over the file: the usual end
                pass
    except (OSError, ValueError):  # ValueError: a record that cannot be written (never half a file)
        return
    finally:
        if folder_handle is not None:
            os.close(folder_handle)


def own_folder_problem(folder: str) -> str | None:
    """Why ``folder``, skillmem's own (named by it, made by it), may not hold kept files; None when it may.

    Missing is fine: a writer makes it private. One this user owns that others
    may write (made by an older version under a loose umask) is made private
    now, so an upgrade costs no rebuild on every run; another user's never is.
    """
    problem = folder_problem(folder)
    if problem is not None and problem.startswith("others may write"):
        try:  # noqa: SIM105 - contextlib is not loaded on a warm run
            os.chmod(folder, 0o700)
        except OSError:
            pass
        problem = untrusted_folder(folder)
    return problem


def folder_problem(folder: str) -> str | None:
    """Why ``folder`` (not skillmem's own: the cache root, a git directory elsewhere) may not be trusted; or None.

    Missing is fine (a writer makes it private); otherwise ``untrusted_folder``.
    """
    return untrusted_folder(folder) if os.path.lexists(folder) else None


def untrusted_folder(folder: str) -> str | None:
    """Why ``folder`` may not hold kept files (another user owns it or the link to it, others may write it); or None."""
    return untrusted_read(folder, folder=True)[0]


def untrusted_file(path: str) -> str | None:
    """Why the file at ``path`` may not be trusted (another user owns it or the link to it, others may write it)."""
    return untrusted_read(path, folder=False)[0]


def untrusted_read(path: str, *, folder: bool) -> tuple[str | None, tuple[os.stat_result, os.stat_result] | None]:
    """``untrusted_folder``'s (``folder``) or ``untrusted_file``'s answer, and the lstat and stat of ``path`` it read
    (None: they could not be read), for a caller that looks at the modes again."""
    try:
        read = os.lstat(path), os.stat(path)
    except OSError as error:
        return f"it cannot be read ({error.strerror})", None
    return _untrusted(*read, folder=folder), read


def _untrusted(entry: os.stat_result, status: os.stat_result, *, folder: bool) -> str | None:
    if folder and not stat.S_ISDIR(status.st_mode):
        return "it is not a folder"
    if not hasattr(os, "geteuid"):
        return None
    for owner in (entry.st_uid, status.st_uid):
        if owner != os.geteuid():
            return f"another user (uid {owner}) owns it"
    if status.st_mode & _NOT_OTHERS:
        return f"others may write to it (mode {stat.S_IMODE(status.st_mode):o})"
    return None


def owned_work_tree(folder: str) -> bool:
    """Whether this user owns the work tree ``folder`` and its ``.git``, as git's safe.directory reads them.

    Both: root owns ``/tmp``, so for root the folder alone would make another user's ``/tmp/.git`` a repository
    of its own (git checks the git directory too). Root through sudo also counts the user sudo ran for. Read by
    the configuration's lookup and by where files are kept (``locations.py``).
    """
    if not hasattr(os, "geteuid"):
        return True
    dot_git = os.path.join(folder, ".git")
    try:
        owners = {os.stat(folder).st_uid, os.lstat(dot_git).st_uid, os.stat(dot_git).st_uid}
    except OSError:
        return False
    me = os.geteuid()
    mine = {0, int(os.environ["SUDO_UID"])} if me == 0 and os.environ.get("SUDO_UID", "").isdigit() else {me}
    return owners <= mine


def say_once(key: str, line: str) -> None:
    """Write ``line`` on stderr once a process for ``key``; the route hook says nothing."""
    if _quiet[0] or key in _said:
        return
    _said.add(key)
    import sys  # noqa: PLC0415 - only a refused file or folder is said

    from skillmem_hook.streams import write_text  # noqa: PLC0415 - only a refused file or folder is said

    try:  # noqa: SIM105 - contextlib is not loaded on a warm run
        write_text(sys.stderr, line)
    except (OSError, ValueError, AttributeError):  # a closed or full stderr loses the note only
        pass


def say_untrusted(folder: str, reason: str, hint: str) -> None:
    """Say once on stderr that nothing is kept in ``folder``, and why; the route hook says nothing.

    ``folder`` is the environment's (``XDG_CACHE_HOME``) or a ``gitdir:`` line's: shown as ``visible`` shows a
    repository's text, on one line, never acting on the terminal.
    """
    from skillmem_hook.visible import visible  # noqa: PLC0415 - only a refused folder is said

    line = f"skillmem: nothing is kept in {visible(folder)}: {reason}; every run builds what it needs afresh ({hint})\n"
    say_once(folder, line)


def leaves_root(folder: object) -> bool:
    """Whether a kept row's skill folder is not a relative path below its root (absolute, or holding '..').

    A forged route or search index could otherwise name any file for a prompt to read.
    """
    if not isinstance(folder, str) or folder.startswith("/"):
        return True
    return ".." in folder and ".." in folder.split("/")


_BY_HANDLE = os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
