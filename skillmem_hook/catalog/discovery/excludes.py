"""The files git opens for its ignore rules and attributes, looked at (lstat, not opened) before a git reads them.

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

git opens its *attribute* files the same way: the
``.gitattributes`` of every folder on the way to a path whose attributes it
looks up, ``info/attributes`` and ``core.attributesFile``. ``git
check-attr`` looks them up for its paths; ``git diff`` against the work tree
and ``git status`` for every stat-dirty file (an unpacked archive's are all
so: ``convert_to_git``); and any diff that finds renames for each added and
deleted file it scores (``diff_filespec_is_binary``), ``--cached`` and the
hooks' diffs too. So these are looked at as well (``git_reads_attributes``): below and
on the way to a work-tree diff's pathspecs, on the way to ``check-attr``'s
paths, and, for a diff between the index and a commit, on the way to the
paths it changes, asked of git first with ``--no-renames --name-only``
(which reads no attribute).

Where git would walk (``status``, ``ls-files --others``, a diff against the
work tree), every folder below the pathspecs' fixed part is looked at, in
one walk for both kinds of file, ignored ones too (git skips those and never
reads their files): the look errs on the side of a refusal. A folder is left
out only where git itself stops: one whose ``.git`` is a repository by git's
test (dir.c's ``treat_directory``, ``is_nonbare_repository_dir``: a git
directory, or a ``gitdir:`` file naming one); git walks into a folder whose
``.git`` is an empty folder or a file of other text (an archive can hold
either), and so does the look.
"""

from __future__ import annotations

import os
import stat

from skillmem_hook.catalog.dot_git import (
    git_dir_and_common_dir,
    gitdir_line,
    is_git_directory,
    read_regular_file,
    work_tree_top,
)
from skillmem_hook.errors import ExcludeFileWouldWait

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    # How the caller runs git (``discovery/git.py``'s ``run_git``, for rev-parse and config): its code and stdout.
    RunGit = Callable[[list[str]], tuple[int, bytes]]

IGNORE_FILE = ".gitignore"
ATTRIBUTES_FILE = ".gitattributes"
CONFIG_FILE = "config"  # the kinds besides: a file git reads as configuration, and the work tree's submodules
SUBMODULES_FILE = ".gitmodules"
_EXCLUDES = (IGNORE_FILE,)
_ATTRIBUTES = (ATTRIBUTES_FILE,)
_BOTH = (IGNORE_FILE, ATTRIBUTES_FILE)
_GLOB_CHARACTERS = frozenset("*?[\\")
_OPTIONS_WITH_VALUE = ("-C", "-c")
_CONFIG_READ = 1 << 20  # a repository's config read for core.excludesFile: past this, git is asked
_PROCESS_OWN = ("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/")


def _split_command(arguments: Sequence[str]) -> tuple[str, list[str], str, list[str]] | None:
    """A git command line's parts: the folder it runs in (its ``-C`` folders joined, else ''), the global options
    before the command, the command and the words after it; None for a line that names no command.

    An option that takes a value (``-C``, ``-c``) takes the next word, whatever it looks like; one left without
    its value ends the options with no command after them.
    """
    folder, position = "", 0
    while position < len(arguments) and arguments[position].startswith("-"):
        if arguments[position] in _OPTIONS_WITH_VALUE:
            if position + 1 == len(arguments):
                return None
            if arguments[position] == "-C":
                folder = os.path.join(folder, arguments[position + 1])
            position += 1
        position += 1
    if position == len(arguments):
        return None
    return folder, list(arguments[:position]), arguments[position], list(arguments[position + 1 :])


def git_reads_excludes(arguments: Sequence[str]) -> tuple[str, list[str], bool] | None:
    """For a git command line that reads the exclude files: the folder it runs in (``-C``'s, else ''), the
    pathspecs it names (none: the whole folder) and whether it walks the folders below them; None for another.

    ``check-ignore`` reads the files on the way to each path (given on stdin); ``status`` and ``ls-files
    --exclude-standard`` walk the folders of the pathspecs after ``--``.
    """
    split = _split_command(arguments)
    if split is None:
        return None
    folder, _, command, rest = split
    pathspecs = rest[rest.index("--") + 1 :] if "--" in rest else []
    if command == "check-ignore":
        return folder, [], False
    if command == "status" or (command == "ls-files" and "--exclude-standard" in rest):
        return folder, pathspecs, True
    return None


def git_reads_attributes(arguments: Sequence[str]) -> tuple[str, list[str], str] | None:
    """For a git command line that reads the attribute files: the folder it runs in, its pathspecs and which
    files it looks attributes up for: ``"walk"`` (every file below the pathspecs: a diff against the work tree),
    ``"paths"`` (the pathspecs themselves: ``check-attr``) or ``"changed"`` (the paths a diff between the index
    and a commit changes, or between two commits); None for another (``status`` walks for its ignore files,
    and ``check_git_files`` adds the attribute files to that walk).

    A diff that neither finds renames (``--no-renames``) nor prints more than names reads none.
    """
    split = _split_command(arguments)
    if split is None:
        return None
    folder, _, command, rest = split
    before, pathspecs = (rest[: rest.index("--")], rest[rest.index("--") + 1 :]) if "--" in rest else (rest, [])
    if command == "check-attr":
        return folder, pathspecs, "paths"
    if command != "diff":
        return None
    revisions = [word for word in before if not word.startswith("-")]
    if not ({"--cached", "--staged"} & set(before) or len(revisions) > 1 or any(".." in r for r in revisions)):
        return folder, pathspecs, "walk"
    if "--no-renames" in before and {"--name-only", "--name-status"} & set(before):
        return None
    return folder, pathspecs, "changed"


def check_git_files(arguments: Sequence[str], stdin: bytes | None, literal: bool, run: RunGit) -> None:
    """Raise ExcludeFileWouldWait when a file the git of ``arguments`` would open for its ignore rules or its
    attributes is a FIFO, a device or a socket; nothing for a command that reads none. ``stdin``: check-ignore's
    paths; ``literal``: the pathspecs are not patterns; ``run``: git, asked where the files lie only when that
    is not plain, and a diff's changed paths."""
    excludes = git_reads_excludes(arguments)
    attributes = git_reads_attributes(arguments)
    read = excludes or attributes
    if read is None:
        return
    folder = read[0]
    here = os.path.abspath(folder or os.curdir)
    top = work_tree_top(here)
    if top is None:
        return  # no repository: git reads no exclude file of one (and says so)
    status = _command(arguments) == "status"  # it walks for ignore files, and reads the dirty files' attributes
    named = _files_named(folder, top, run, excludes=excludes is not None, attributes=attributes is not None or status)
    for path, kind in named:
        _refuse_waiting(os.path.join(top, path), kind, follow=True)  # a relative configured file: git's, from the top
    walks: dict[str, set[str]] = {}  # the folders a walk starts from, and the files looked for in one walk of each
    if excludes is not None:
        _, pathspecs, walk = excludes
        if walk:
            for start in _starts(here, top, pathspecs, literal=literal, whole=status):
                walks.setdefault(start, set()).update(_BOTH if status else _EXCLUDES)
        else:
            paths = [os.fsdecode(path) for path in (stdin or b"").split(b"\0" if "-z" in arguments else b"\n") if path]
            _refuse_on_the_way(top, [os.path.join(here, path) for path in paths], _EXCLUDES)
    if attributes is not None:
        for start in _attributes_looked_at(arguments, attributes, (here, top), literal, run):
            walks.setdefault(start, set()).update(_ATTRIBUTES)
    for start, names in walks.items():
        wanted = tuple(sorted(names))
        _refuse_on_the_way(top, [os.path.join(start, "x")], wanted)
        for found in _files_below(start, wanted):
            _refuse_waiting(found, os.path.basename(found), follow=False)


def check_config_files(arguments: Sequence[str]) -> None:
    """Where ``/proc`` tells no wait (macOS: ``git_wait.can_look``), before any git: raise ExcludeFileWouldWait when
    the work tree's ``.gitmodules`` or a file the repository's own config includes (``include.path``, any
    ``includeIf``'s path, whatever its condition, on the side of a refusal; and what those include, as git does to
    its depth of 10) is a FIFO, a device or a socket. Every git reads its config; many read ``.gitmodules``."""
    split = _split_command(arguments)
    here = os.path.abspath((split[0] if split else "") or os.curdir)
    top = work_tree_top(here)
    if top is None:
        return
    _refuse_waiting(os.path.join(top, ".gitmodules"), SUBMODULES_FILE, follow=False)
    dirs = None if _named_in_environment() else git_dir_and_common_dir(top)
    for place, name in _config_files(*dirs) if dirs else []:
        _refuse_included(os.path.join(place, name), 10)


def _refuse_included(config: str, depth: int) -> None:
    """Refuse a file ``config`` includes that waits; those that are regular files are read for theirs in turn."""
    text = read_regular_file(config, _CONFIG_READ + 1) if depth > 0 else None
    for included in _included_paths(text or b"", os.path.dirname(config)):
        _refuse_waiting(included, CONFIG_FILE, follow=True)
        _refuse_included(included, depth - 1)


def _included_paths(text: bytes, folder: str) -> list[str]:
    """The ``path`` values of a config's ``[include]`` and ``[includeIf "..."]`` sections (git-config(1)), a
    relative one from the config's own folder and ``~/`` from the home folder; read plainly, without git."""
    found, including = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(b"["):
            end = line.find(b"]")
            section = line[1:end].split(b'"')[0].strip().lower() if end > 0 else b""
            including = section in (b"include", b"includeif")
            line = line[end + 1 :].strip() if end > 0 else b""
        key, equals, value = line.partition(b"=")
        if including and equals and key.strip().lower() == b"path":
            named = os.fsdecode(value.split(b"#")[0].split(b";")[0].strip().strip(b'"'))
            if named:
                named = os.path.expanduser(named) if named.startswith("~") else named
                found.append(os.path.join(folder, named))
    return found


def _attributes_looked_at(
    arguments: Sequence[str], attributes: tuple[str, list[str], str], where: tuple[str, str], literal: bool, run: RunGit
) -> set[str]:
    """Refuse a ``.gitattributes`` that waits on the way to the paths git looks attributes up for; the folders to
    walk for them (a diff against the work tree's), which the caller walks once with any ignore files."""
    (_, pathspecs, how), (here, top) = attributes, where
    if how == "walk":
        return _starts(here, top, pathspecs, literal=literal, whole=True)
    if how == "paths":
        _refuse_on_the_way(top, [os.path.join(here, path) for path in pathspecs], _ATTRIBUTES)
    else:
        changed = _changed_paths(arguments, literal, run)
        _refuse_on_the_way(top, [os.path.join(top, path) for path in changed], _ATTRIBUTES)
    return set()


def _refuse_on_the_way(top: str, paths: list[str], names: tuple[str, ...]) -> None:
    """Refuse a file of ``names`` that waits, in a folder on the way from ``top`` to one of ``paths``."""
    seen: set[str] = set()
    for path in paths:
        for found in _files_on_the_way(top, path, names):
            if found not in seen:
                seen.add(found)
                _refuse_waiting(found, os.path.basename(found), follow=False)


def _command(arguments: Sequence[str]) -> str:
    """The git command a command line runs (its first word after the global options)."""
    split = _split_command(arguments)
    return split[2] if split else ""


def _starts(here: str, top: str, pathspecs: list[str], *, literal: bool, whole: bool) -> set[str]:
    """The folders a walk starts from: each pathspec's fixed part; with none, the folder git runs in, or the
    work tree's top for a command that covers it all from a subfolder too (``status``, ``diff``)."""
    if not pathspecs:
        return {top if whole else here}
    return {_fixed_part(here, top, pathspec, literal=literal) for pathspec in pathspecs}


def _changed_paths(arguments: Sequence[str], literal: bool, run: RunGit) -> list[str]:
    """The paths (from the top) a diff between the index and a commit, or two commits, changes: the diff asked
    again with ``--no-renames --name-only``, which reads no attribute file. Its renames' candidates, each added
    and deleted path, are among them; none when git cannot say (the diff itself then fails as well)."""
    split = _split_command(arguments)
    if split is None:
        return []
    _, options, _, rest = split
    end = rest.index("--") if "--" in rest else len(rest)
    kept = [word for word in rest[:end] if word in ("--cached", "--staged") or not word.startswith("-")]
    listing = [*options, *(["--literal-pathspecs"] if literal else []), "-c", "diff.relative=false"]
    listing += ["diff", "--no-ext-diff", "--no-renames", "--name-only", "-z", *kept, *rest[end:]]
    code, out = run(listing)
    return [os.fsdecode(path) for path in out.split(b"\0") if path] if code == 0 else []


def _files_named(folder: str, top: str, run: RunGit, *, excludes: bool, attributes: bool) -> list[tuple[str, str]]:
    """The git directory's ``info/exclude`` and ``core.excludesFile`` (git's default when unset: dir.c's
    ``setup_standard_excludes``), and its ``info/attributes`` and ``core.attributesFile`` (attr.c's default:
    ``$XDG_CONFIG_HOME/git/attributes``), those of the kinds asked, each with the kind (``IGNORE_FILE`` or
    ``ATTRIBUTES_FILE``), as git names them from ``folder``; a relative one as configured (git reads it from
    the work tree's top).

    Found without git, as a hook's warm run must (each git is a process): the git directory from ``top``'s
    ``.git``, and a ``core.`` setting asked of ``git config`` only when the repository's own configuration
    mentions it or includes another file (an archive's can); else git's default path. A git directory or work
    tree named in the environment (``GIT_DIR``, ``GIT_COMMON_DIR``) is asked of git.
    """
    at = ["-C", folder] if folder else []
    wanted = [
        (kind, info, key, default)
        for kind, info, key, default, asked in (
            (IGNORE_FILE, "info/exclude", "core.excludesFile", "ignore", excludes),
            (ATTRIBUTES_FILE, "info/attributes", "core.attributesFile", "attributes", attributes),
        )
        if asked
    ]
    dirs = None if _named_in_environment() else git_dir_and_common_dir(top)
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    files = []
    for kind, info, key, default in wanted:
        if dirs is None:
            code, out = run([*at, "rev-parse", "--git-path", info])
            if code == 0:
                files.append((os.path.abspath(os.path.join(folder, os.fsdecode(out.rstrip(b"\n")))), kind))
            asks_config = True
        else:
            files.append((os.path.join(dirs[1], *info.split("/")), kind))
            asks_config = any(_may_name(os.path.join(place, name), key) for place, name in _config_files(*dirs))
        configured = None
        if asks_config:
            code, out = run([*at, "config", "--path", "--get", key])
            configured = os.fsdecode(out.rstrip(b"\n")) if code == 0 and out.rstrip(b"\n") else None
        files.append((configured or os.path.join(config_home, "git", default), kind))
    return files


def _config_files(git_dir: str, common: str) -> list[tuple[str, str]]:
    """The repository's own configuration files (git-config(1)'s local and worktree ones), as (folder, name)."""
    return [(common, "config"), (git_dir, "config.worktree")]


def _named_in_environment() -> bool:
    return any(os.environ.get(name) for name in ("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_CONFIG"))


def _may_name(config: str, key: str) -> bool:
    """Whether the repository's config file may set ``key`` (``core.excludesFile``): it mentions its name, or
    includes another file (``include.path``, ``includeIf``), or it cannot be read plainly (git then answers)."""
    if not os.path.lexists(config):
        return False
    text = read_regular_file(config, _CONFIG_READ + 1)
    if text is None or len(text) > _CONFIG_READ:
        return True
    lowered = text.lower()
    return key.rsplit(".", 1)[-1].lower().encode() in lowered or b"include" in lowered


def _files_on_the_way(top: str, path: str, names: Sequence[str]) -> list[str]:
    """The files of ``names`` (``.gitignore``, ``.gitattributes``) in each folder from ``top`` down to ``path``'s
    own folder; none for a path outside."""
    folder = os.path.dirname(os.path.normpath(path))
    relative = os.path.relpath(folder, top)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
        return []  # outside the work tree: git refuses the path before it reads a rule
    folders, here = [top], top
    for part in [] if relative == os.curdir else relative.split(os.sep):
        here = os.path.join(here, part)
        folders.append(here)
    return [os.path.join(each, name) for each in folders for name in names]


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


def _files_below(start: str, names: Sequence[str]) -> Iterator[str]:
    """The files of ``names`` in each folder below ``start`` that git may walk: not ``.git``, not a link, and not
    a repository of its own (``_git_stops_at``: git lists such a folder and does not enter it)."""
    folders = [start]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue  # git cannot list it either
        if folder != start and any(entry.name == ".git" for entry in entries) and _git_stops_at(folder):
            continue
        for entry in entries:
            if entry.name in names:
                yield entry.path
            elif entry.name != ".git" and entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)


def _git_stops_at(folder: str) -> bool:
    """Whether git's walk for untracked files stops at ``folder``, a repository of its own (dir.c's
    ``treat_directory``, setup.c's ``is_nonbare_repository_dir``): its ``.git`` is a git directory, or a file
    whose ``gitdir:`` line names one. An empty ``.git`` folder, a file of other text or one naming no repository
    is none: git enters the folder and reads its files. (Git also stops where it cannot open or read a ``.git``
    file; the look enters it all the same, on the side of a refusal.)"""
    dot_git = os.path.join(folder, ".git")
    if os.path.isdir(dot_git):
        return is_git_directory(dot_git)
    named = gitdir_line(dot_git)
    return named is not None and is_git_directory(os.path.join(folder, named))


def _refuse_waiting(path: str, kind: str, *, follow: bool) -> None:
    """Raise when ``path`` is a FIFO, a device (the null device aside) or a socket; ``follow``: git follows a link
    there (a per-folder ``.gitignore`` link is followed by git before 2.32, and so looked through here too)."""
    if follow and any(place.startswith(_PROCESS_OWN) for place in (os.path.abspath(path), os.path.realpath(path))):
        # /dev/stdin is git's own stdin where git opens it (check-ignore's: the paths skillmem feeds it), whatever
        # it is here: a look from this process says nothing of it.
        _refuse(path, kind, "a stream of the git that reads it (its stdin, or another of its descriptors)")
    try:
        status = os.stat(path) if follow or os.path.islink(path) else os.lstat(path)
    except OSError:
        return  # missing, or a broken link: git reads no rule from it
    mode = status.st_mode
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    if stat.S_ISCHR(mode) and _is_null_device(status):
        return
    what = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    _refuse(path, kind, f"a link to {what}" if os.path.islink(path) else what)


def _refuse(path: str, kind: str, what: str) -> None:
    """Raise for ``path``, a file git reads as ``kind`` (``IGNORE_FILE``: ignore rules; else attributes)."""
    from skillmem_hook.visible import visible  # noqa: PLC0415 - only a refusal needs it

    rules, key = _READ_AS.get(kind, _READ_AS[ATTRIBUTES_FILE])
    raise ExcludeFileWouldWait(
        f"git reads {visible(path)} for its {rules}, and it is {what}, not a file: git would wait on it, "
        "read without end or read skillmem's input as rules",
        f"remove it{key}, or replace it with a regular"
        " file; an unpacked archive can bring a FIFO (git cannot track one), and git status waits there too",
    )


# What git reads each kind of file for, and the setting that names it (said in the hint), if any.
_READ_AS = {
    IGNORE_FILE: ("ignore rules", " (or the setting naming it: git config --unset core.excludesFile)"),
    ATTRIBUTES_FILE: ("attributes", " (or the setting naming it: git config --unset core.attributesFile)"),
    CONFIG_FILE: ("configuration", " (or the include.path or includeIf setting naming it, in .git/config)"),
    SUBMODULES_FILE: ("submodules", ""),
}


def _is_null_device(status: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return (status.st_rdev, status.st_ino, status.st_dev) == (null.st_rdev, null.st_ino, null.st_dev)
