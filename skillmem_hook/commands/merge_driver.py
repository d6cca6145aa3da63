"""``skillmem merge-driver %O %A %B %P``: git's merge driver for prompt files.

git calls it for the paths ``.gitattributes`` gives ``merge=skillmem``
(``skillmem init`` sets that up). The text outside the block is merged by
``git merge-file``, as git would merge it, so a conflict there stays a
conflict; the block is rebuilt from a three-way merge of the names each
version lists. The result is written to %A; the exit code is 0 for a clean
merge, 1 when conflicts are left. A file whose markers are malformed is
merged by ``git merge-file`` alone.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

from skillmem_hook.atomic import commit_all, stage, staging
from skillmem_hook.block.markers import newline_of
from skillmem_hook.block.merge import emptied, merge_blocks, rebuilt
from skillmem_hook.catalog.discovery import git_wait
from skillmem_hook.catalog.discovery.git import GIT, git_environment
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK, FileAccessError, MarkerError, UsageError
from skillmem_hook.files import read_regular_file
from skillmem_hook.report import emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for name, text in (
        ("base", "%%O: the common ancestor's version"),
        ("ours", "%%A: our version, where the result is written"),
        ("theirs", "%%B: their version"),
        ("path", "%%P: the file's path in the repository"),
    ):
        parser.add_argument(name, help=text)


def run(options: argparse.Namespace) -> int:
    return merge_driver(options.base, options.ours, options.theirs, options.path)


def merge_driver(base: str, ours: str, theirs: str, path: str) -> int:
    versions = [_read(name) for name in (base, ours, theirs)]
    try:
        texts = [emptied(data) for data in versions]
        listed, counts = merge_blocks(*versions)
    except MarkerError:
        texts, listed, counts = versions, None, {}
    merged, conflicts = _merge_text(texts, path)
    if listed is not None:
        try:
            # The line ending the hooks will render the block with: the merged file's, whichever side gave it.
            merged = rebuilt(merged, listed, newline_of(merged), counts)
        except MarkerError:
            conflicts = conflicts or 1  # the text merge left marker lines doubled: a person must look
    _write(ours, merged)
    emit({"merged": path, "conflicts": conflicts, "block": "rebuilt" if listed is not None else "merged as text"})
    return EXIT_FINDINGS if conflicts else EXIT_OK


def _read(path: str) -> bytes:
    try:
        return read_regular_file(path)
    except OSError as error:
        raise FileAccessError(
            f"cannot read {path}: {error.strerror}", "git passes the merge driver its files"
        ) from None


def _merge_text(texts: list[bytes], path: str) -> tuple[bytes, int]:
    """``git merge-file -p ours base theirs``: the merged bytes and the number of conflicts."""
    with tempfile.TemporaryDirectory(prefix="skillmem-merge-") as folder:
        names = []
        for label, data in zip(("base", "ours", "theirs"), texts):
            name = os.path.join(folder, label)
            with open(name, "wb") as file:
                file.write(data)
            names.append(name)
        labels = ["-L", f"{path} (ours)", "-L", f"{path} (base)", "-L", f"{path} (theirs)"]
        watched = git_wait.can_look()
        try:
            process = subprocess.Popen(
                [*GIT, "merge-file", "-p", *labels, names[1], names[0], names[2]],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=git_environment(),
                start_new_session=watched,  # a group of its own, ended whole if it waits on a FIFO
            )
        except OSError as error:
            raise UsageError(f"cannot run git merge-file: {error.strerror}", "install git") from None
        merged, _ = git_wait.communicate(process, None, watched=watched)
    if process.returncode < 0 or process.returncode > 127:
        raise UsageError(f"git merge-file failed on {path}", "merge the file by hand")
    return merged, process.returncode


def _write(path: str, data: bytes) -> None:
    with staging() as staged:
        stage(staged, path, data, label=path)
        commit_all(staged)
