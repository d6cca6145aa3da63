"""The work tree's copy of a tracked SKILL.md, used in place of git's blob only when its bytes are the blob's.

A cold run (a fresh clone in CI, the first commit after a checkout) would
otherwise ask ``git cat-file`` for every blob, and git answers 10,000 loose
objects slower than the files can be read. Git's own test that a file is
unchanged (its index's stat data, with the racy-clean rule) says only that
git would *see* no change: a clean or end-of-line filter, ``core.autocrlf``,
``working-tree-encoding`` or an LFS checkout leaves other bytes in the work
tree than in the blob. So the file is hashed as git hashes a blob and used
only when that is the id git's index holds; any difference, or any doubt,
and the blob is read from git as before. A stat match would add nothing the
hash does not prove, and listing stat data (``ls-files --debug``) doubles
what git prints.

Reading keeps the blob read's safety: every folder below the root and the
file itself are opened without following a link (one replaced by a link,
tracked or not, leaves the file to git), the file without blocking, and only
a regular file of at most MAX_READ bytes is read (a larger one is cut, so
git's answer is the one the catalog has always used).
"""

from __future__ import annotations

import hashlib
import os
import stat

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.skillfile.head import MAX_READ

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
# Without these (Windows) a link could be followed unseen: every file is then left to git.
SUPPORTED = os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")


def read_checked_out(base: str, wanted: Iterable[tuple[str, str]]) -> Iterator[tuple[str, bytes]]:
    """(oid, bytes) for each (folder, oid) whose ``<base>/<folder>/SKILL.md`` holds exactly that blob.

    ``base`` is the root as git lists it from the current folder; ``folder``
    is relative to it ("." for the root itself). Folders in sorted order keep
    only one open descriptor per level of depth.
    """
    if not SUPPORTED:
        return
    try:
        base_fd = os.open(base or ".", _FOLDER_FLAGS)  # the root as a real path: not a link itself
    except OSError:
        return
    folders = _OpenFolders(base_fd)
    try:
        for folder, oid in wanted:
            parent = folders.enter([] if folder == "." else folder.split("/"))
            data = None if parent is None else _read_regular(parent)
            if data is not None and blob_id(data, len(oid)) == oid:
                yield oid, data
    finally:
        folders.close()


def blob_id(data: bytes, length: int = 40) -> str:
    """The id git gives a blob of these bytes: SHA-1, or SHA-256 in a repository of 64-digit ids."""
    digest = hashlib.sha256() if length == 64 else hashlib.sha1()  # noqa: S324 - git's id, not a secret
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def _read_regular(parent: int) -> bytes | None:
    try:
        handle = os.open(SKILL_FILE, _FILE_FLAGS, dir_fd=parent)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_READ:
            return None
        # One byte past the limit tells a file that grew while it was read; it is then left to git. The first
        # read asks for the size fstat gave and one byte more, so a short answer is the end of the file: no
        # second read to see it, and no buffer of MAX_READ bytes made and shrunk for a file of a few KB.
        wanted = min(info.st_size, MAX_READ) + 1
        first = os.read(handle, wanted)
        if len(first) < wanted:  # the usual file: read whole at once, kept as it came
            return first
        chunks = [first]
        total = len(first)
        wanted = MAX_READ + 1 - total
        while total <= MAX_READ and (chunk := os.read(handle, wanted)):
            chunks.append(chunk)
            total += len(chunk)
            if len(chunk) < wanted:
                break
            wanted = MAX_READ + 1 - total
        return None if total > MAX_READ else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(handle)


class _OpenFolders:
    """The open folders from the base down to the current one, each opened below its parent, never through a link."""

    def __init__(self, base_fd: int) -> None:
        self.names: list[str] = []
        self.fds = [base_fd]

    def enter(self, parts: list[str]) -> int | None:
        """The descriptor of the folder ``parts`` below the base; None when one of them cannot be opened."""
        names, common = self.names, 0
        for have, want in zip(names, parts):  # one pass, as sorted folders share their parents
            if have != want:
                break
            common += 1
        for _ in range(len(names) - common):
            names.pop()
            os.close(self.fds.pop())
        for name in parts[common:]:
            if name in ("", ".", ".."):
                return None
            try:
                handle = os.open(name, _FOLDER_FLAGS, dir_fd=self.fds[-1])
            except OSError:
                return None
            self.names.append(name)
            self.fds.append(handle)
        return self.fds[-1]

    def close(self) -> None:
        for handle in self.fds:
            os.close(handle)
        self.fds, self.names = [], []
