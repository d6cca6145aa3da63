"""Atomic writes: a temporary file beside the target, synced, then renamed over it.

Several files are staged first; only once every temporary file is written
and every target checked to still hold the bytes it was read with are they
renamed, with interrupts held. So a full disk, an edit made meanwhile or a
Ctrl-C leaves all of them as they were. SIGINT, SIGTERM, SIGHUP and SIGQUIT
during a write remove the temporary files; only SIGKILL (or a crash of the
machine) can leave one, named ``.<name>.<random>.skillmem-tmp``.
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

    def replace(self, status: os.stat_result | None) -> bool:
        """Rename the temporary file over the target, if the target still has ``status``; True when renamed.

        Called with interrupts held, so that the check and the rename are one
        step as far as signals go. A target replaced meanwhile by the very
        bytes staged here (a concurrent run of the same command) needs nothing.
        """
        if status is not None and not _same_identity(self.target, status):
            if self._target_holds_staged_bytes():
                with contextlib.suppress(OSError):
                    os.unlink(self.temporary)
                self.temporary = ""
                return False
            raise _changed(self.label)
        try:
            os.replace(self.temporary, self.target)
        except OSError as error:
            raise FileAccessError(
                f"cannot write {self.label!r}: {error.strerror}", "check the file and its folder"
            ) from None
        self.temporary = ""
        return True

    def _target_holds_staged_bytes(self) -> bool:
        try:
            current, _ = read_regular_file_with_status(self.target)
            with open(self.temporary, "rb") as staged:
                return current == staged.read()
        except OSError:
            return False

    def check_unchanged(self) -> tuple[bool, os.stat_result | None]:
        """Whether the rename is still needed, and the target's status to check again just before it.

        Not needed when the target already holds the new bytes (another run
        wrote them meanwhile); ``TargetChanged`` when it holds anything else
        than what it was read with.
        """
        if self.expected is None:
            return True, None
        try:
            current, status = read_regular_file_with_status(self.target)
        except OSError:
            raise _changed(self.label) from None
        if current == self.expected and status.st_size == len(current):
            return True, status
        with open(self.temporary, "rb") as staged:
            if current == staged.read():
                return False, None
        raise _changed(self.label)

    def discard(self) -> None:
        with signals_held():
            if self.temporary:
                with contextlib.suppress(OSError):
                    os.unlink(self.temporary)
                self.temporary = ""


def commit_all(staged: list[StagedWrite]) -> list[str]:
    """Rename every staged file over its target; the labels of those written.

    Every target is checked before any is renamed, and the renames run with
    interrupts held, so an edit found meanwhile or a Ctrl-C leaves all the
    targets as they were. Should a rename itself fail, the error names the
    files already written.
    """
    checked = [(write, *write.check_unchanged()) for write in staged]
    written: list[str] = []
    with signals_held():
        for write, needed, status in checked:
            if not needed:
                write.discard()
                continue
            try:
                if write.replace(status):
                    written.append(write.label)
            except FileAccessError as error:
                raise _partly_written(error, written) from None
    return written


def _partly_written(error: FileAccessError, written: list[str]) -> FileAccessError:
    if not written:
        return error
    done = ", ".join(repr(label) for label in written)
    return type(error)(f"{error.message}; already updated: {done}", error.hint)


def _changed(label: str) -> TargetChanged:
    return TargetChanged(
        f"{label!r} changed while skillmem was updating it; skillmem left it as it is now",
        "run the command again once the other edit is saved",
    )


def signals_held() -> contextlib.AbstractContextManager[None]:
    from skillmem_hook.signals import signals_held  # noqa: PLC0415 - only a run that writes pays for it

    return signals_held()


def cleanup_on_termination() -> contextlib.AbstractContextManager[None]:
    from skillmem_hook.signals import cleanup_on_termination  # noqa: PLC0415 - only a run that writes pays for it

    return cleanup_on_termination()


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
    with cleanup_on_termination():
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
    except OSError as error:
        raise FileAccessError(f"cannot read {label!r}: {error.strerror}", "check the file and its folder") from None
    import tempfile  # noqa: PLC0415 - only a run that writes pays for it

    with signals_held():
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
    if existing is None or os.geteuid() != 0:
        return
    created = os.stat(temporary)
    if (existing.st_uid, existing.st_gid) != (created.st_uid, created.st_gid):
        os.chown(temporary, existing.st_uid, existing.st_gid)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
