"""Atomic writes: a temporary file beside the target, synced, then renamed over it.

Several files are staged first and renamed only once every temporary file
is written, so a full disk leaves all of them as they were. Before each
rename the target is checked to still hold the bytes it was read with, so
an edit made meanwhile is never replaced. SIGINT, SIGTERM, SIGHUP and
SIGQUIT during a write remove the temporary files; only SIGKILL (or a
crash of the machine) can leave one, named ``.<name>.<random>.skillmem-tmp``.
"""

from __future__ import annotations

import contextlib
import os
import stat

from skillmem_hook.errors import FileAccessError
from skillmem_hook.files import read_regular_file_with_status

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

TEMPORARY_SUFFIX = ".skillmem-tmp"
# Long enough to recognise the target, short enough that the temporary name
# (a dot, this, a dot, 8 random characters, the suffix) fits any file-name limit.
_NAME_BYTES_KEPT = 64


class Terminated(KeyboardInterrupt):
    """SIGTERM, SIGHUP or SIGQUIT arrived during a write: handled like Ctrl-C."""


class TargetChanged(FileAccessError):
    """The target no longer holds the bytes it was read with."""


class StagedWrite:
    """A temporary file beside ``target``, fully written and synced, waiting to replace it."""

    __slots__ = ("expected", "label", "target", "temporary")

    def __init__(self, target: str, temporary: str, label: str, expected: bytes | None) -> None:
        self.target = target
        self.temporary = temporary
        self.label = label
        self.expected = expected

    def commit(self) -> bool:
        """Rename the temporary file over the target; False when the target already held the new bytes."""
        status = None
        if self.expected is not None:
            status = self._check_unchanged()
            if status is None:
                self.discard()
                return False
        with _signals_held():
            if status is not None and not _same_identity(self.target, status):
                raise _changed(self.label)
            try:
                os.replace(self.temporary, self.target)
            except OSError as error:
                raise FileAccessError(
                    f"cannot write {self.label!r}: {error.strerror}", "check the file and its folder"
                ) from None
            self.temporary = ""
        return True

    def _check_unchanged(self) -> os.stat_result | None:
        """The target's status when it still holds ``expected``; None when it holds the new bytes already."""
        try:
            current, status = read_regular_file_with_status(self.target)
        except OSError:
            raise _changed(self.label) from None
        if current == self.expected and status.st_size == len(current):
            return status
        with open(self.temporary, "rb") as staged:
            if current == staged.read():
                return None  # another run wrote the same bytes meanwhile
        raise _changed(self.label)

    def discard(self) -> None:
        with _signals_held():
            if self.temporary:
                with contextlib.suppress(OSError):
                    os.unlink(self.temporary)
                self.temporary = ""


def _changed(label: str) -> TargetChanged:
    return TargetChanged(
        f"{label!r} changed while skillmem was updating it; skillmem left it as it is now",
        "run the command again once the other edit is saved",
    )


def _same_identity(path: str, read: os.stat_result) -> bool:
    """Whether the file is still the one read: same inode, size and change times."""
    try:
        now = os.stat(path)
    except OSError:
        return False
    fields = ("st_dev", "st_ino", "st_size", "st_mtime_ns", "st_ctime_ns")
    return all(getattr(now, field) == getattr(read, field) for field in fields)


@contextlib.contextmanager
def staging() -> Iterator[list[StagedWrite]]:
    """A list to stage writes into; every temporary file not committed is removed on the way out."""
    staged: list[StagedWrite] = []
    with _cleanup_on_termination():
        try:
            yield staged
        finally:
            for write in staged:
                write.discard()


def stage(
    staged: list[StagedWrite],
    target: str,
    data: bytes,
    *,
    label: str,
    expected: bytes | None = None,
    new_mode: int = 0o666,
    required_bits: int = 0,
) -> None:
    """Write ``data`` to a temporary file beside ``target`` and add it to ``staged``.

    A new file gets ``new_mode`` less the umask; an existing one keeps its
    mode (setuid and setgid included) and, as root, its owner. Both get
    ``required_bits`` on top. ``expected`` is what the target must still
    hold at the rename.
    """
    folder, name = os.path.split(target)
    short = os.fsdecode(os.fsencode(name)[:_NAME_BYTES_KEPT])
    try:
        existing: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        existing = None
    import tempfile  # noqa: PLC0415 - only a run that writes pays for it

    with _signals_held():
        try:
            descriptor, temporary = tempfile.mkstemp(dir=folder or ".", prefix=f".{short}.", suffix=TEMPORARY_SUFFIX)
        except OSError as error:
            raise FileAccessError(
                f"cannot write in the folder of {label!r}: {error.strerror}", "check the folder's permissions"
            ) from None
        staged.append(StagedWrite(target, temporary, label, expected))
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        mode = stat.S_IMODE(existing.st_mode) if existing else new_mode & ~_umask()
        _copy_owner(temporary, existing)
        os.chmod(temporary, mode | required_bits)
    except OSError as error:
        raise FileAccessError(f"cannot write {label!r}: {error.strerror}", "check the file and its folder") from None


def _copy_owner(temporary: str, existing: os.stat_result | None) -> None:
    # Before chmod: chown clears the setuid and setgid bits.
    if existing is not None and os.geteuid() == 0 and (existing.st_uid, existing.st_gid) != (0, 0):
        os.chown(temporary, existing.st_uid, existing.st_gid)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_TERMINATING = ("SIGTERM", "SIGHUP", "SIGQUIT")


@contextlib.contextmanager
def _cleanup_on_termination() -> Iterator[None]:
    """Turn SIGTERM, SIGHUP and SIGQUIT into ``Terminated`` while temporary files exist."""
    import signal  # noqa: PLC0415 - only a run that writes pays for it
    import threading  # noqa: PLC0415

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
def _signals_held() -> Iterator[None]:
    """Hold interrupts while a temporary file is created, renamed or removed and its name recorded."""
    import signal  # noqa: PLC0415

    held = {signal.SIGINT, *(getattr(signal, name) for name in _TERMINATING if hasattr(signal, name))}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
