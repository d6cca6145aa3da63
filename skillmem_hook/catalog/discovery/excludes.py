"""The files git opens for its ignore rules, looked at (lstat, never opened) before a git that reads them runs.

git opens each exclude file with a plain, blocking ``open``: the
``.gitignore`` of every folder on the way to a path it asks about (and of
every folder it walks for untracked files), ``info/exclude`` in the git
directory and ``core.excludesFile``. A FIFO there (tar keeps FIFOs; git
cannot track one, so only an archive or a local hand puts one there) had
``git check-ignore`` and ``git ls-files --exclude-standard`` wait forever,
so ``budget`` and ``init`` with them (git's own ``git status`` waits too);
and ``core.excludesFile = /dev/stdin`` in an archive's config had
``check-ignore --stdin`` read skillmem's list of paths as its rules and
answer that nothing is ignored. So every git skillmem runs that reads the
exclude files (``check-ignore``, ``status``, ``ls-files
--exclude-standard``: ``git_reads_excludes``) is preceded by a look at the
files it would open, and a FIFO, a device or a socket among them (a link
followed) is refused, exit 2, naming it. The null device, which reads as
empty, is allowed.

Where git would walk (``status``, ``ls-files --others``), every folder below
the pathspecs' fixed part is looked at, ignored ones too (git skips those
and never reads their files): the look errs on the side of a refusal, and
only ``init`` walks, once.
"""

from __future__ import annotations

import os
import stat

from skillmem_hook.catalog.dot_git import git_dir_and_common_dir, read_regular_file, work_tree_top
from skillmem_hook.errors import FileAccessError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    # How the caller runs git (``discovery/git.py``'s ``run_git``, for rev-parse and config): its code and stdout.
    RunGit = Callable[[list[str]], tuple[int, bytes]]

IGNORE_FILE = ".gitignore"
_GLOB_CHARACTERS = frozenset("*?[\\")
_OPTIONS_WITH_VALUE = ("-C", "-c")
_CONFIG_READ = 1 << 20  # a repository's config read for core.excludesFile: past this, git is asked
_PROCESS_OWN = ("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/")


class ExcludeFileWouldWait(FileAccessError):
    """A file git reads for its ignore rules would make it wait (a FIFO) or read without end (a device)."""


def git_reads_excludes(arguments: Sequence[str]) -> tuple[str, list[str], bool] | None:
    """For a git command line that reads the exclude files: the folder it runs in (``-C``'s, else ''), the
    pathspecs it names (none: the whole folder) and whether it walks the folders below them; None for another.

    ``check-ignore`` reads the files on the way to each path (given on stdin); ``status`` and ``ls-files
    --exclude-standard`` walk the folders of the pathspecs after ``--``.
    """
    folder, position = "", 0
    while position < len(arguments) and arguments[position].startswith("-"):
        if arguments[position] in _OPTIONS_WITH_VALUE and position + 1 < len(arguments):
            if arguments[position] == "-C":
                folder = os.path.join(folder, arguments[position + 1])
            position += 1
        position += 1
    if position == len(arguments):
        return None
    command, rest = arguments[position], list(arguments[position + 1 :])
    pathspecs = rest[rest.index("--") + 1 :] if "--" in rest else []
    if command == "check-ignore":
        return folder, [], False
    if command == "status" or (command == "ls-files" and "--exclude-standard" in rest):
        return folder, pathspecs, True
    return None


def check_exclude_files(arguments: Sequence[str], stdin: bytes | None, literal: bool, run: RunGit) -> None:
    """Raise ExcludeFileWouldWait when a file the git of ``arguments`` would open for its ignore rules is a FIFO,
    a device or a socket; nothing for a command that reads none. ``stdin``: check-ignore's paths; ``literal``: the
    pathspecs are not patterns; ``run``: git, asked where the exclude files lie only when that is not plain."""
    read = git_reads_excludes(arguments)
    if read is None:
        return
    folder, pathspecs, walks = read
    here = os.path.abspath(folder or os.curdir)
    top = work_tree_top(here)
    if top is None:
        return  # no repository: git reads no exclude file of one (and says so)
    for path in _exclude_files_named(folder, top, run):
        _refuse_waiting(os.path.join(top, path), follow=True)  # a relative core.excludesFile: git's, from the top
    if not walks:
        paths = [os.fsdecode(path) for path in (stdin or b"").split(b"\0" if "-z" in arguments else b"\n") if path]
        for path in paths:
            for ignore_file in _ignore_files_on_the_way(top, os.path.join(here, path)):
                _refuse_waiting(ignore_file, follow=False)
        return
    for start in {_fixed_part(here, top, pathspec, literal=literal) for pathspec in pathspecs or [""]}:
        for ignore_file in _ignore_files_on_the_way(top, os.path.join(start, "x")):
            _refuse_waiting(ignore_file, follow=False)
        for ignore_file in _ignore_files_below(start):
            _refuse_waiting(ignore_file, follow=False)


def _exclude_files_named(folder: str, top: str, run: RunGit) -> list[str]:
    """The git directory's ``info/exclude`` and ``core.excludesFile`` (git's default when unset: dir.c's
    ``setup_standard_excludes``), as git names them from ``folder``; a relative one as configured (git reads it
    from the work tree's top).

    Found without git, as a hook's warm run must (each git is a process): the git directory from ``top``'s
    ``.git``, and ``core.excludesFile`` asked of ``git config`` only when the repository's own configuration
    mentions it or includes another file (an archive's can); else git's default path. A git directory or work
    tree named in the environment (``GIT_DIR``, ``GIT_COMMON_DIR``) is asked of git.
    """
    at = ["-C", folder] if folder else []
    dirs = None if _named_in_environment() else git_dir_and_common_dir(top)
    if dirs is None:
        code, out = run([*at, "rev-parse", "--git-path", "info/exclude"])
        info = os.path.abspath(os.path.join(folder, os.fsdecode(out.rstrip(b"\n")))) if code == 0 else None
        asks_config = True
    else:
        info = os.path.join(dirs[1], "info", "exclude")
        asks_config = any(_may_name_excludes(os.path.join(place, name)) for place, name in _config_files(*dirs))
    files = [] if info is None else [info]
    configured = None
    if asks_config:
        code, out = run([*at, "config", "--path", "--get", "core.excludesFile"])
        configured = os.fsdecode(out.rstrip(b"\n")) if code == 0 and out.rstrip(b"\n") else None
    if configured is None:
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        configured = os.path.join(config_home, "git", "ignore")
    return [*files, configured]


def _config_files(git_dir: str, common: str) -> list[tuple[str, str]]:
    """The repository's own configuration files (git-config(1)'s local and worktree ones), as (folder, name)."""
    return [(common, "config"), (git_dir, "config.worktree")]


def _named_in_environment() -> bool:
    return any(os.environ.get(name) for name in ("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_CONFIG"))


def _may_name_excludes(config: str) -> bool:
    """Whether the repository's config file may set ``core.excludesFile``: it mentions it, or includes another
    file (``include.path``, ``includeIf``), or it cannot be read plainly (git then answers)."""
    if not os.path.lexists(config):
        return False
    text = read_regular_file(config, _CONFIG_READ + 1)
    if text is None or len(text) > _CONFIG_READ:
        return True
    lowered = text.lower()
    return b"excludesfile" in lowered or b"include" in lowered


def _ignore_files_on_the_way(top: str, path: str) -> list[str]:
    """The ``.gitignore`` of each folder from ``top`` down to ``path``'s own folder; none for a path outside."""
    folder = os.path.dirname(os.path.normpath(path))
    relative = os.path.relpath(folder, top)
    if relative == os.curdir:
        return [os.path.join(top, IGNORE_FILE)]
    if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
        return []  # outside the work tree: git refuses the path before it reads a rule
    files, here = [os.path.join(top, IGNORE_FILE)], top
    for part in relative.split(os.sep):
        here = os.path.join(here, part)
        files.append(os.path.join(here, IGNORE_FILE))
    return files


def _fixed_part(here: str, top: str, pathspec: str, *, literal: bool) -> str:
    """The folder a pathspec's walk starts from: its leading folders before any wildcard (``:(glob)**/x``: the
    folder git runs in), or the named path itself; ``:/`` and ``:(top)`` are read from the work tree's top."""
    base, spec, glob = here, pathspec, not literal
    if spec.startswith(":(") and ")" in spec:
        magic, spec = spec[2:].split(")", 1)
        words = magic.split(",")
        base = top if "top" in words else here
        glob = "literal" not in words and (glob or "glob" in words)
    elif spec.startswith(":/"):
        base, spec = top, spec[2:]
    parts = spec.split("/") if spec else []
    if glob:
        fixed = []
        for part in parts:
            if _GLOB_CHARACTERS & set(part):
                break
            fixed.append(part)
        parts = fixed
    start = os.path.normpath(os.path.join(base, *parts))
    return start if os.path.isdir(start) else os.path.dirname(start)


def _ignore_files_below(start: str) -> Iterator[str]:
    """The ``.gitignore`` of each folder below ``start`` that git may walk: not ``.git``, not a link, and not a
    repository of its own (git lists such a folder and does not enter it)."""
    folders = [start]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue  # git cannot list it either
        if folder != start and any(entry.name == ".git" for entry in entries):
            continue
        for entry in entries:
            if entry.name == IGNORE_FILE:
                yield entry.path
            elif entry.name != ".git" and entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)


def _refuse_waiting(path: str, *, follow: bool) -> None:
    """Raise when ``path`` is a FIFO, a device (the null device aside) or a socket; ``follow``: git follows a link
    there (a per-folder ``.gitignore`` link is followed by git before 2.32, and so looked through here too)."""
    if follow and any(place.startswith(_PROCESS_OWN) for place in (os.path.abspath(path), os.path.realpath(path))):
        # /dev/stdin is git's own stdin where git opens it (check-ignore's: the paths skillmem feeds it), whatever
        # it is here: a look from this process says nothing of it.
        _refuse(path, "a stream of the git that reads it (its stdin, or another of its descriptors)")
    try:
        status = os.stat(path) if follow or os.path.islink(path) else os.lstat(path)
    except OSError:
        return  # missing, or a broken link: git reads no rule from it
    mode = status.st_mode
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    if stat.S_ISCHR(mode) and _is_null_device(status):
        return
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    _refuse(path, f"a link to {kind}" if os.path.islink(path) else kind)


def _refuse(path: str, kind: str) -> None:
    from skillmem_hook.visible import visible  # noqa: PLC0415 - only a refusal needs it

    raise ExcludeFileWouldWait(
        f"git reads {visible(path)} for its ignore rules, and it is {kind}, not a file: git would wait on it, "
        "read without end or read skillmem's input as rules",
        "remove it (or the setting naming it: git config --unset core.excludesFile), or replace it with a regular"
        " file; an unpacked archive can bring a FIFO (git cannot track one), and git status waits there too",
    )


def _is_null_device(status: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return (status.st_rdev, status.st_ino, status.st_dev) == (null.st_rdev, null.st_ino, null.st_dev)
