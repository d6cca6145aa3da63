"""A hook's error said once a pre-commit run, though pre-commit runs the hook once per batch of files.

pre-commit (and prek) split a long list of files into batches, a process
each: ``pre-commit run --all-files`` on 1,912 SKILL.md files ran skill-lint
twice, and an error that does not depend on the files (a lint baseline that
is not there) was said in full by both. The batches of one run are children
of one process. The first to say an error leaves a mark, named by that
process and the error, in the user's cache folder; the others say in one
line that it is above. Run by hand (no ``PRE_COMMIT=1`` in the environment,
which both set for their hooks), every run says all of it.
"""

from __future__ import annotations

import os
import sys
import time

from skillmem_hook.report import say_error
from skillmem_hook.streams import Forgiving

SAID_FOLDER = "said"  # in the user's cache folder: one empty file per error said, a day at most
MARK_SECONDS = 3600  # a mark older than this is no batch of a run still going: removed, and the error said
SAID_ABOVE = "the same error as above (pre-commit runs a hook once per batch of files; it is said once)"


def say_error_once_a_run(tool: str, error: str, hint: str) -> None:
    """``report.say_error``; in a later batch of the same pre-commit run, one line that says it is above."""
    if first_to_say(tool, error):
        say_error(tool, error, hint)
    else:
        Forgiving(sys.stderr).write(f"{tool}: {SAID_ABOVE}\n")


def first_to_say(tool: str, error: str) -> bool:
    """Whether no earlier batch of this pre-commit run said this error; True outside one, or with nowhere to mark."""
    if os.environ.get("PRE_COMMIT") != "1":
        return True
    import hashlib  # noqa: PLC0415 - only a hook's error is marked

    from skillmem_hook.catalog.store.locations import user_cache_folder  # noqa: PLC0415 - as above
    from skillmem_hook.catalog.store.trust import make_private_folder  # noqa: PLC0415 - as above

    cache = user_cache_folder()
    if cache is None:
        return True
    folder = os.path.join(cache, SAID_FOLDER)
    if not make_private_folder(folder):
        return True
    _forget_old_marks(folder)
    digest = hashlib.sha256(f"{tool}\0{error}".encode("utf-8", "surrogateescape")).hexdigest()[:24]
    try:
        # O_EXCL: of two batches at once, one makes the mark; a link in its place is not followed.
        os.close(os.open(os.path.join(folder, f"{_run()}-{digest}"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return False
    except OSError:
        return True
    return True


def _run() -> str:
    """The pre-commit run: its process, and when that started (a process id is used again once it ends)."""
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/stat", "rb") as stat:
            started = stat.read().rpartition(b")")[2].split()[19]  # field 22, the start time
    except (OSError, IndexError):
        started = _started_by_ps(parent)  # no /proc: macOS
    return f"{parent}-{started.hex()}"


def _started_by_ps(process: int) -> bytes:
    """When ``process`` started, as ps says; b"" when it cannot (the mark's age alone then tells a run gone)."""
    import subprocess  # noqa: PLC0415 - only a hook's error on a system without /proc

    try:
        return subprocess.run(
            ["ps", "-o", "lstart=", "-p", str(process)], capture_output=True, timeout=5, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return b""


def _forget_old_marks(folder: str) -> None:
    """Remove the marks of runs that ended long ago (or are dated in the future)."""
    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            if abs(now - os.lstat(path).st_mtime) > MARK_SECONDS:
                os.unlink(path)
        except OSError:
            continue
