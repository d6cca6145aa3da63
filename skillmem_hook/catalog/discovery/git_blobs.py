"""Blobs out of git's object store, many at a time, through one ``git cat-file --batch`` process.

What the catalog reads of a tracked SKILL.md when the work tree does not hold
its committed bytes (checkout.py reads those that it does).
"""

from __future__ import annotations

import contextlib
import subprocess
import threading

from skillmem_hook.catalog.discovery import git_wait
from skillmem_hook.catalog.discovery.git import GIT, GIT_MISSING_HINT, git_environment
from skillmem_hook.errors import FileAccessError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import IO


class MissingBlob(FileAccessError):
    """Git's object store lacks an object asked for: a damaged or partial clone, or an archive's forged index."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"git's object store lacks {name}",
            "the repository is damaged, or a partial clone (skillmem fetches nothing): take the file from a good "
            "clone, or read the skills from the file system (no --tracked, no tracked: true)",
        )
        self.name = name


def read_blobs(oids: Sequence[str], limit: int) -> Iterator[tuple[str, bytes]]:
    """(oid, first ``limit`` bytes) for each blob, in the given order; memory stays bounded.

    A thread writes every id while this one reads the answers, so git never
    waits for the reader between requests, and ``--buffer`` lets it answer
    in large writes rather than one flush per object.
    """
    try:
        process = subprocess.Popen(
            [*GIT, "cat-file", "--batch", "--buffer"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=git_environment(),  # a missing blob is never fetched: no program the repository names runs
            start_new_session=git_wait.can_look(),  # a group of its own, ended whole if it waits on a FIFO
        )
    except OSError:
        raise UsageError("git is not on PATH", GIT_MISSING_HINT) from None
    assert process.stdin is not None and process.stdout is not None
    writer = threading.Thread(target=_write_ids, args=(process.stdin, oids), daemon=True)
    writer.start()
    done, waited = threading.Event(), threading.Event()
    watcher = threading.Thread(target=_watch, args=(process.pid, done, waited), daemon=True)
    if git_wait.can_look():
        watcher.start()
    try:
        for oid in oids:
            try:
                answer = _read_answer(process.stdout, limit, oid)
            except OSError:
                if waited.is_set():  # the watcher ended git, waiting on a FIFO (a pack's .idx, alternates ...)
                    raise git_wait.waited_error() from None
                raise
            yield oid, answer
    finally:
        done.set()
        if watcher.is_alive():
            watcher.join()
        process.stdout.close()  # a writer still blocked on a full pipe then fails, and ends
        writer.join()
        process.wait()


def _watch(pid: int, done: threading.Event, waited: threading.Event) -> None:
    """While ``cat-file`` runs, look at it as ``git_wait.read_watched`` looks at any git; end it when it waits on a
    FIFO (its output then ends, and the reader raises)."""
    if done.wait(git_wait.LOOK_AFTER):
        return
    while not done.is_set():
        if git_wait.waits_on_fifo(pid):
            waited.set()
            git_wait.end_group(pid)
            return
        done.wait(git_wait.LOOK_EVERY)


def _write_ids(stdin: IO[bytes], oids: Sequence[str]) -> None:
    try:
        stdin.write("".join(oid + "\n" for oid in oids).encode("ascii"))
    except OSError:
        pass  # git went away: the reader sees its output end
    finally:
        with contextlib.suppress(OSError):
            stdin.close()


def _read_answer(stdout: IO[bytes], limit: int, name: str) -> bytes:
    """One ``cat-file --batch`` answer: the header line, then the object and a line feed.

    Raises MissingBlob for git's ``<name> missing`` (or ``ambiguous``): the index or HEAD names an object the store
    lacks, which a repository can hold (git-cat-file(1), BATCH OUTPUT).
    """
    line = stdout.readline()
    header = line.split()
    if len(header) == 2 and header[1] in (b"missing", b"ambiguous"):
        raise MissingBlob(name)
    if len(header) != 3:
        raise OSError("git cat-file gave no object")
    size = int(header[2])
    data: bytes = stdout.read(min(size, limit))
    left = size - len(data) + 1  # the rest of the object, and its line feed
    while left > 0:
        skipped = len(stdout.read(min(left, 1 << 20)))
        if not skipped:
            break
        left -= skipped
    return data
