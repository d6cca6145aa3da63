"""What git knows: the work tree around the current folder, and the files its index tracks (blobs: git_blobs.py).

The I/O edge to git. Every call runs the real ``git`` with paths relative to
the current folder and ``--literal-pathspecs``, so a root named ``[a]*`` is
the folder of that name, never a pattern. Output is read as bytes (``-z``)
and decoded as UTF-8 with surrogate escapes, whatever the locale.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery import git_wait
from skillmem_hook.catalog.dot_git import within, work_tree_top
from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal
    from collections.abc import Iterable, Sequence
else:
    import _signal  # the C module, loaded already: no start-up cost (the package's __init__ uses it so too)

GIT_MISSING_HINT = "install git, or run outside a git work tree to scan the file system"
# How every git skillmem runs starts. ``core.fsmonitor`` names a program git runs before it reads the work tree
# (ls-files, status, rev-parse in some setups), and an unpacked archive's own git directory may set it: skillmem
# never needs it, so it is off. No other key runs a program in the commands skillmem runs (docs/guarantees.md).
GIT = ("git", "-c", "core.fsmonitor=false")
# And the environment every such git runs in, a program of git's own among them. A partial clone's missing object
# makes git fetch it from the promisor remote the repository's config names (``extensions.partialClone``,
# ``remote.<name>.promisor``): ``cat-file --batch`` would then run ``core.sshCommand``, a ``file://`` remote's
# ``uploadpack`` or an ``ext::`` command, all the archive's to choose. skillmem never wants a fetch. git(1):
# ``GIT_NO_LAZY_FETCH`` (git 2.44 and later) stops the lazy fetch itself; ``GIT_ALLOW_PROTOCOL`` allows only the
# protocols it lists, "overriding any existing configuration" (``protocol.<name>.allow`` included: transport.c's
# ``is_transport_allowed`` reads it before any config), and it lists none, so an older git's fetch fails before
# it connects. Both are the environment's, which a repository's config cannot undo, and reach git's children.
GIT_ENVIRONMENT = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""}


def git_environment(**extra: str) -> dict[str, str]:
    """The environment for a git skillmem runs: this process's, with ``GIT_ENVIRONMENT`` (and ``extra``) set."""
    return {**os.environ, **GIT_ENVIRONMENT, **extra}


class WorkTreeMoved(UsageError):
    """Git's configuration puts the work tree's top above the folder holding the ``.git`` it found."""


class WorkTree:
    """The git work tree that holds the current folder.

    ``git_path``: the folder ``git rev-parse --git-path skillmem`` names, where
    skillmem keeps its files for this work tree (``catalog/store/locations.py``).
    """

    __slots__ = ("git_path", "top")

    def __init__(self, top: str, git_path: str) -> None:
        self.top = top
        self.git_path = git_path


class IndexEntry:
    """One path of git's index: ``mode`` is git's octal text, ``stage`` 0 unless a merge is unresolved."""

    __slots__ = ("mode", "oid", "path", "stage")

    def __init__(self, mode: str, oid: str, stage: str, path: str) -> None:
        self.mode = mode
        self.oid = oid
        self.stage = stage
        self.path = path

    @property
    def is_link(self) -> bool:
        return self.mode == "120000"

    @property
    def is_submodule(self) -> bool:
        return self.mode == "160000"


def run_git(arguments: Sequence[str], stdin: bytes | None = None, *, literal: bool = True) -> tuple[int, bytes]:
    """Run git from the current folder; its exit code and stdout. Raises UsageError when git is missing.

    ``literal``: paths are never patterns (check-ignore refuses the option, and takes no patterns anyway).
    """
    command = [*GIT, *(["--literal-pathspecs"] if literal else []), *arguments]
    if _FILE_READERS & set(arguments):  # maybe check-ignore, status, ls-files --exclude-standard, diff, check-attr
        from skillmem_hook.catalog.discovery.excludes import check_git_files  # noqa: PLC0415 - see _FILE_READERS

        check_git_files(arguments, stdin, literal, _plain_git)
    if not git_wait.can_look():  # no /proc to see a git wait on a FIFO: the files every git may open, looked at
        from skillmem_hook.catalog.discovery.excludes import check_config_files  # noqa: PLC0415 - not on Linux

        check_config_files(arguments)
    previous = _end_git_with_skillmem()
    try:
        return _spawned(command) if stdin is None and _SPAWN else _through_subprocess(command, stdin)
    except FileNotFoundError:
        raise UsageError("git is not on PATH", GIT_MISSING_HINT) from None
    except OSError as error:
        raise UsageError(f"cannot run git: {error.strerror}", GIT_MISSING_HINT) from None
    finally:
        for number in previous:
            _signal.signal(number, _signal.SIG_DFL)


# The words of a git command line that may read the exclude or attribute files (``excludes.git_reads_excludes``
# and ``git_reads_attributes`` decide): only such a run loads the look at them, and a warm hook's ``ls-files
# --stage`` and ``rev-parse`` do not.
_FILE_READERS = frozenset(("check-ignore", "status", "--exclude-standard", "diff", "check-attr"))
_ENDING = tuple(getattr(_signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(_signal, name))


def _end_git_with_skillmem() -> list[int]:
    """While git runs, SIGTERM and SIGHUP (left at their default) raise like Ctrl-C: the wait for git then ends it
    (``_spawned`` kills it, as ``subprocess.run`` does), where the default would end skillmem and leave git
    behind, still waiting on whatever it waited for. The signals whose handler it set, to put back to the default.

    Only in the main thread (only it may set handlers); a handler a caller set stays in force.
    """
    previous = []
    for number in _ENDING:
        try:
            if _signal.getsignal(number) == _signal.SIG_DFL:
                _signal.signal(number, _terminated)
                previous.append(number)
        except ValueError:  # not the main thread
            break
    return previous


def _terminated(number: int, frame: object) -> None:
    from skillmem_hook.signals import Terminated  # noqa: PLC0415 - only a signal that arrives needs it

    raise Terminated({15: "SIGTERM", 1: "SIGHUP"}.get(number, f"signal {number}"))


def _plain_git(arguments: list[str]) -> tuple[int, bytes]:
    """``run_git`` for what the look asks: ``rev-parse``, ``config``, and a diff that reads no attribute file."""
    return run_git(arguments, literal=False)


# posix_spawn where there is one (not Windows): importing subprocess, with the threading, selectors, signal and
# locale it loads, was a sixth of what a warm hook run adds to the interpreter's start (20 of 122 million
# instructions at 100 skills), and a run that feeds git nothing on stdin needs none of it.
_SPAWN = hasattr(os, "posix_spawnp") and hasattr(os, "POSIX_SPAWN_DUP2")


def _spawned(command: list[str]) -> tuple[int, bytes]:
    """git's exit code and stdout: stdin and stderr the null device, as subprocess.run was asked.

    Never this process's stdin: in ``skillmem mcp`` that is the client's stream, and an archive's
    ``include.path = /dev/stdin`` would have git read (and wait on) it as configuration. git leads a process
    group of its own, so that one waiting on a FIFO is ended with what it started (``git_wait.py``).
    """
    read_end, write_end = os.pipe()  # both close on exec; the child's copy on fd 1 does not
    try:
        null = os.open(os.devnull, os.O_RDWR)
        try:
            actions = [
                (os.POSIX_SPAWN_DUP2, null, 0),
                (os.POSIX_SPAWN_DUP2, write_end, 1),
                (os.POSIX_SPAWN_DUP2, null, 2),
            ]
            pid = os.posix_spawnp(command[0], command, git_environment(), file_actions=actions, setpgroup=0)
        finally:
            os.close(null)
            os.close(write_end)
        try:
            out = git_wait.read_watched(read_end, pid) if git_wait.can_look() else _read_all(read_end)
        except BaseException:  # Ctrl-C while git answers, or a wait on a FIFO: git is not left running
            git_wait.end_group(pid)
            os.waitpid(pid, 0)
            raise
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status), out
    finally:
        os.close(read_end)


def _read_all(source: int) -> bytes:
    chunks = []
    while chunk := os.read(source, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _through_subprocess(command: list[str], stdin: bytes | None) -> tuple[int, bytes]:
    import subprocess  # noqa: PLC0415 - only a run that feeds git on stdin (or Windows) needs it

    watched = git_wait.can_look()
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,  # not the MCP client's stream
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=git_environment(),
        start_new_session=watched,  # a group of its own, ended whole when it waits on a FIFO
    )
    out, _ = git_wait.communicate(process, stdin, watched=watched)
    return process.returncode, out


def find_work_tree() -> WorkTree | None:
    """The work tree around the current folder; None outside one (or in a bare repository)."""
    lines = _locate()
    if lines is None:
        return None
    return WorkTree(top=lines[1], git_path=lines[4])


def find_top_and_git_dirs() -> tuple[str, list[str]] | None:
    """The work tree's top and its git directories (a linked work tree's own, and the common one); None outside.

    Asked of git itself, so ``GIT_DIR`` and ``GIT_WORK_TREE`` are honoured.
    """
    lines = _locate()
    if lines is None:
        return None
    return lines[1], [lines[2], os.path.abspath(lines[3])]  # the common dir is printed relative to this folder


# Where the work tree and its git directories lie, by the current folder and git's environment: kept only
# inside ``git_answers_kept_for_the_run`` (one hook run), so a long-running process (the MCP server) always asks
# git anew.
_LOCATED: dict[tuple[str | None, ...], list[str] | None] | None = None
_LOCATION_ENV = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
)


class git_answers_kept_for_the_run:  # named for what it scopes: ``with git_answers_kept_for_the_run():``
    """Within the block, git is asked where the work tree lies once per folder: a hook's run needs it for its
    prompt files' confinement and again for the catalog, and each ``git rev-parse`` is a process.

    A class, not contextlib's decorator: a warm hook run loads no contextlib.
    """

    def __enter__(self) -> None:
        global _LOCATED  # the scope is the run's, not the module's
        self.outer, _LOCATED = _LOCATED, {} if _LOCATED is None else _LOCATED
        self.outer_along = _ALONG

    def __exit__(self, *exc_info: object) -> None:
        global _LOCATED, _ALONG
        _LOCATED, _ALONG = self.outer, self.outer_along


def _locate() -> list[str] | None:
    """``rev-parse``'s lines (inside, top, git dir, common dir, skillmem's folder); None outside a work tree."""
    key = _scope_key() if _LOCATED is not None else ()
    if _LOCATED is not None and key in _LOCATED:
        return _LOCATED[key]
    arguments = ["--is-inside-work-tree", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"]
    code, out = run_git(["rev-parse", *arguments, "--git-path", "skillmem"])
    lines = _decode(out).split("\n")
    _check_outside_named_work_tree(code, lines[0])
    found = lines if code == 0 and len(lines) >= 5 and lines[0] == "true" else None
    if _LOCATED is not None:
        _LOCATED[key] = found
    if found is not None:
        _check_top(found[1])
    return found


def _check_top(top: str) -> None:
    """Refuse a work tree's top that the repository's own git configuration moved above its ``.git``.

    Git finds the git directory by the nearest ``.git`` at or above the current folder, then takes the work
    tree's top from ``core.worktree`` when that directory's config sets it. An unpacked archive ships its ``.git``
    and so that config: ``core.worktree = ../../..`` would make ``~`` the tree every read and write a repository
    names is confined to. The top may be that folder or one below it (narrower), never above; a top git's
    environment names (``GIT_DIR``, ``GIT_WORK_TREE``) is the user's own and is honoured. A stat per folder up
    from here, no git call, and only where git was asked anyway.
    """
    if user_named_work_tree():
        return
    here = os.path.realpath(os.curdir)
    holding = work_tree_top(here)
    real_top = os.path.realpath(top)
    if holding is not None and within(real_top, holding):
        return
    from skillmem_hook.visible import visible  # noqa: PLC0415 - only a refusal needs them

    where = f"above the folder holding its .git, {visible(holding)}" if holding else "where no .git lies on the way"
    raise WorkTreeMoved(
        f"git's configuration puts this repository's work tree at {visible(real_top)}, {where} "
        "(core.worktree in its git config); skillmem keeps its reads and writes inside the folder holding .git",
        "a repository from an archive or from someone else chose this: remove the setting there "
        "(git config --unset core.worktree) or delete its .git; for a setup of your own, "
        "name the work tree in the environment (GIT_DIR and GIT_WORK_TREE)",
    )


def user_named_work_tree() -> bool:
    """Whether git's environment names the git directory or the work tree (``GIT_DIR``, ``GIT_WORK_TREE``): the
    user's own choice, honoured where the same choice made by a repository's ``.git`` or config is refused."""
    return bool(os.environ.get("GIT_DIR") or os.environ.get("GIT_WORK_TREE"))


def _check_outside_named_work_tree(code: int, inside: str) -> None:
    """Refuse a run outside the work tree git's environment names: the file system's view would be silent."""
    if code == 0 and inside == "false" and os.environ.get("GIT_WORK_TREE"):
        raise UsageError(
            f"GIT_WORK_TREE names the work tree {os.environ['GIT_WORK_TREE']!r}, "
            f"and the current folder {os.getcwd()!r} lies outside it",
            "run from inside the work tree (cd there first), or unset GIT_DIR and GIT_WORK_TREE",
        )


def environment_note() -> str:
    """What git's environment changes about the work tree, for an error about a path outside it; or ''."""
    if os.environ.get("GIT_DIR") and not os.environ.get("GIT_WORK_TREE"):
        return " (GIT_DIR is set without GIT_WORK_TREE, so git takes the current folder for the work tree's top)"
    return ""


def as_listed(path: str) -> str:
    """``path`` as git lists it from the current folder: relative and normalised, its folders' links resolved.

    So an absolute path (a hook's ``--prompt-file /abs/repo/AGENTS.md``), or one
    through ``..`` or a linked folder, compares equal to git's own listing of
    it. The last part is not resolved: a tracked link is listed as the link.
    """
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.relpath(os.path.join(os.path.realpath(folder), name))


def pathspec_of(root: str) -> str:
    """The root as git lists it from the current folder: its real path, relative (git does not enter links)."""
    return os.path.relpath(os.path.realpath(root))


def tracked_entries(pathspecs: Sequence[str], *, everything: bool = False) -> list[IndexEntry]:
    """The index entries under the given paths, each path relative to the current folder.

    Unless ``everything``, only what the catalog can use: files named
    SKILL.md, symlinks and submodules (a skill's scripts and references are
    many more entries, and are skipped before they are decoded).
    """
    return parse_index(list_index(pathspecs), everything=everything)


def list_index(pathspecs: Sequence[str]) -> bytes:
    """Git's raw listing (``ls-files --stage -z``) of the index entries under the given paths."""
    listed = _listed_along(pathspecs)
    if listed is not None:
        return listed
    code, out = run_git(["ls-files", "--stage", "-z", "--", *pathspecs])
    if code != 0:
        raise UsageError(
            "git cannot list the files under " + ", ".join(repr(path) for path in pathspecs) + environment_note(),
            "pass paths inside this repository's work tree",
        )
    return out


class _Along:
    """Files a hook run lists after its first listing (its prompt files, after the catalog's roots), named
    before it, so that one ``ls-files`` answers both: each ``git`` is a process, some 1.2 ms of CPU, 7% of
    what a warm hook at 100 skills adds to the interpreter's start. ``records``: their entries, once listed.
    """

    __slots__ = ("key", "paths", "records")

    def __init__(self, paths: tuple[str, ...]) -> None:
        self.key = _scope_key()
        self.paths = paths
        self.records: list[bytes] | None = None


_ALONG: _Along | None = None  # kept only inside ``git_answers_kept_for_the_run``, as _LOCATED is


def list_along(paths: Iterable[str]) -> None:
    """Inside ``git_answers_kept_for_the_run``: the next listing also lists these files (each as ``as_listed``
    names it)."""
    global _ALONG  # noqa: PLW0603 - the scope is the run's, not the module's
    named = tuple(paths)
    if named and _LOCATED is not None and os.sep == "/":
        _ALONG = _Along(named)


def _scope_key() -> tuple[str | None, ...]:
    return (os.getcwd(), *map(os.environ.get, _LOCATION_ENV))


def _listed_along(pathspecs: Sequence[str]) -> bytes | None:
    """The listing of ``pathspecs`` from the one ``ls-files`` shared with the files ``list_along`` named; None
    when git must be asked as usual (none named, another folder, a path this split cannot match as git does)."""
    global _ALONG  # noqa: PLW0603 - the scope is the run's, not the module's
    along = _ALONG
    if along is None or along.key != _scope_key():
        return None
    if along.records is not None:
        if not pathspecs or not set(pathspecs) <= set(along.paths):  # none: git lists everything
            return None
        wanted = {os.fsencode(path) for path in pathspecs}
        return b"".join(record + b"\0" for record in along.records if _record_path(record) in wanted)
    _ALONG = None  # asked along with this listing, or not at all
    if set(pathspecs) & set(along.paths) or not all(map(_plain, (*pathspecs, *along.paths))):
        return None
    code, out = run_git(["ls-files", "--stage", "-z", "--", *pathspecs, *along.paths])
    split = _split_listing(out, pathspecs, along.paths) if code == 0 else None
    if split is None:
        return None
    mine, along.records = split
    _ALONG = along
    return mine


def _plain(path: str) -> bool:
    """A relative path with no empty, ``.`` or ``..`` part: git prints the entries under it spelt as it is."""
    return not path.startswith("/") and all(part not in ("", ".", "..") for part in path.split("/"))


def _split_listing(out: bytes, pathspecs: Sequence[str], files: Sequence[str]) -> tuple[bytes, list[bytes]] | None:
    """The raw listing of ``pathspecs`` and the records of ``files``, out of one listing of both; None when a
    record fits neither by its bytes (git matched as this does not: another case, a folder named as a file)."""
    # A file's name followed by "/": a folder named as a file, whose records the root's may claim too (inside
    # it, or holding it); git alone lists that folder's files for the name.
    if any(b"\t" + os.fsencode(path) + b"/" in out for path in files):
        return None
    if len(pathspecs) == 1 and out.count(b"\t") == out.count(b"\0") and out[-1:] in (b"", b"\0"):
        return _split_by_counting(out, os.fsencode(pathspecs[0]), [os.fsencode(path) for path in files])
    folders = {os.fsencode(path) for path in pathspecs}
    below = tuple(folder + b"/" for folder in folders)
    named = {os.fsencode(path) for path in files}
    mine: list[bytes] = []
    theirs: list[bytes] = []
    for record in out.split(b"\0")[:-1]:
        path = record.partition(b"\t")[2]
        if path.startswith(below) or path in folders:
            mine.append(record)
        elif path not in named:
            return None
        if path in named:
            theirs.append(record)
    return b"".join(record + b"\0" for record in mine), theirs


def _split_by_counting(out: bytes, folder: bytes, files: list[bytes]) -> tuple[bytes, list[bytes]] | None:
    """``_split_listing`` where no path holds a tab, so each record's one tab starts its path: the files'
    records found by search, the rest counted under the folder, in C (a loop over 10,000 skills' records in
    Python cost more than the git process it spares)."""
    spans = []
    for name in set(files):
        needle = b"\t" + name + b"\0"
        found = out.find(needle)
        while found != -1:
            spans.append((out.rfind(b"\0", 0, found) + 1, found + len(needle), name))
            found = out.find(needle, found + len(needle))
    spans.sort()
    theirs = [out[start : stop - 1] for start, stop, _ in spans]
    pieces, kept = [], 0
    for start, stop, name in spans:
        if not (name == folder or name.startswith(folder + b"/")):  # a file inside the root is in both
            pieces.append(out[kept:start])
            kept = stop
    mine = b"".join([*pieces, out[kept:]])
    if mine.count(b"\0") != mine.count(b"\t" + folder + b"/") + mine.count(b"\t" + folder + b"\0"):
        return None
    return mine, theirs


def _record_path(record: bytes) -> bytes:
    """The path of one ``ls-files --stage`` record (``mode oid stage<TAB>path``)."""
    return record.partition(b"\t")[2]


def parse_index(out: bytes, *, everything: bool = False) -> list[IndexEntry]:
    """The entries of a raw listing (``list_index``); see ``tracked_entries`` for ``everything``."""
    entries = []
    # One decode of the whole output: UTF-8 errors never span the ASCII tabs and NULs, so each path
    # decodes as it would alone, and a per-record decode costs more than the rest of the loop.
    for record in _decode(out).split("\0"):
        if record and (everything or record.endswith(SKILL_FILE) or record.startswith(("120000", "160000"))):
            info, _, path = record.partition("\t")
            mode, oid, stage = info.split(" ")
            entries.append(IndexEntry(mode, oid, stage, path))
    return entries


def ignored_paths(paths: Iterable[str]) -> set[str]:
    """Those of the paths that git ignores (and does not track)."""
    listed = list(paths)
    if not listed:
        return set()
    stdin = b"\0".join(os.fsencode(path) for path in listed) + b"\0"
    code, out = run_git(["check-ignore", "-z", "--stdin"], stdin, literal=False)
    if code not in (0, 1):  # 1: none of them is ignored
        return set()
    return {_decode(path) for path in out.split(b"\0") if path}


def ignore_rules(paths: Sequence[str], folder: str = ".") -> dict[str, str]:
    """For each of the paths (relative to ``folder``) git ignores and does not track, the rule that ignores it, as
    ``git check-ignore -v`` names it: ``.gitignore:5:.lint/``. A negated rule that matches (``!keep.json``)
    ignores nothing, and is left out.
    """
    if not paths:
        return {}
    stdin = b"".join(os.fsencode(path) + b"\0" for path in paths)
    code, out = run_git(["-C", folder, "check-ignore", "-v", "-z", "--stdin"], stdin, literal=False)
    if code != 0:  # 1: none is ignored
        return {}
    fields = [_decode(field) for field in out.split(b"\0")]
    # -v -z: source, line number, pattern, path; four fields a path.
    rows = [fields[i : i + 4] for i in range(0, len(fields) - 3, 4)]
    return {path: f"{source}:{line}:{pattern}" for source, line, pattern, path in rows if not pattern.startswith("!")}


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")
