"""What a ``.git`` makes of its folder, read without running git: the one rule every wing asks.

Read as git reads them (git's ``setup.c``: ``read_gitfile_gently``, ``is_git_directory``,
``validate_headref``, ``get_common_dir_noenv``):

- ``holds_repository``: a ``.git`` folder that is a git directory (``is_git_directory``), or a regular file
  that begins ``gitdir: `` and names a path, makes its folder a work tree's top. A ``.git`` folder that is no
  git directory (a bare ``mkdir .git``), a FIFO, a broken link or a file of other text named ``.git`` makes
  none, and a search goes on above it, as git's discovery loop does
  (``setup_git_directory_gently_1``: a ``.git`` that is a directory counts only when ``is_git_directory``;
  a ``.git`` file it cannot read as a repository stops the search with an error, so it stays a top here).
- ``gitdir_line``: the path such a file names: the whole file but its trailing line breaks, up to a NUL
  byte, as git's C string ends there. Not its first line: git reads ``gitdir: a\\nb`` as the path
  ``a\\nb`` (and finds no repository there).
- ``is_git_directory``: whether a folder named so is a git directory at all: a ``HEAD`` that names a ref
  or an object, and an ``objects`` and a ``refs`` folder in its common directory (itself, or the one its
  ``commondir`` file names, for a linked worktree's). Git refuses a ``.git`` file naming anything else
  ("not a git repository"); skillmem keeps nothing there.

Here, below ``discovery/`` and ``store/``, so both the confinement of writes and the kept files' home
use it: the base of the catalog, knowing nothing of skills.
"""

from __future__ import annotations

import os
import stat

GITDIR_PREFIX = b"gitdir: "
_GIT_FILE_READ = 4096  # the bytes of a .git file read: a path longer than this opens nothing anyway
_HEAD_READ = 255  # git's validate_headref reads no more of HEAD
_HEX = frozenset(b"0123456789abcdefABCDEF")
_OBJECT_ID = 40  # the shorter of git's two hashes (SHA-1's 40 hex digits; SHA-256's 64 begin the same way)
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def holds_repository(folder: str) -> bool:
    """Whether ``folder`` holds a ``.git`` that makes it a work tree's top: a git directory (or a link to one),
    or a file whose ``gitdir:`` line names a path. A ``.git`` folder that is no git directory, a broken link,
    a FIFO or a file of other text named ``.git`` is none, and the search goes on above it, as git's own does
    for the first three: ``mkdir .git`` in a subfolder of a repository leaves that repository's top, its
    configuration and its git directory, the subfolder's."""
    dot_git = os.path.join(folder, ".git")
    if os.path.isdir(dot_git):
        return is_git_directory(dot_git)
    return gitdir_line(dot_git) is not None


def work_tree_top(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that ``holds_repository``; None outside one.

    Git's own discovery walk, without git: where the files are kept, whether a ``.skillmem.yaml`` is the
    repository's, and the widest a work tree's top may be (``discovery/git.py``: an archive's ``core.worktree``
    may not move it above this folder).
    """
    while True:
        if holds_repository(folder):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def gitdir_line(dot_git: str) -> str | None:
    """The path a ``.git`` file's ``gitdir:`` line names, as written; None when ``dot_git`` is no such file.

    As git's ``read_gitfile_gently``: the file's trailing CRs and LFs are dropped, the rest after
    ``gitdir: `` is the path, and a NUL byte ends it (git holds it as a C string). Spaces are kept.
    """
    text = _read_file(dot_git, _GIT_FILE_READ)
    if text is None:
        return None
    text = text.rstrip(b"\r\n")
    if not text.startswith(GITDIR_PREFIX):
        return None
    named = text[len(GITDIR_PREFIX) :].split(b"\0", 1)[0]
    return named.decode("utf-8", "surrogateescape") or None


def is_git_directory(git_dir: str) -> bool:
    """Whether ``git_dir`` is a git directory by git's own test (``is_git_directory`` in git's ``setup.c``).

    Its ``HEAD`` is a link into ``refs/`` or a file naming a ref (``ref: refs/...``) or an object; and its
    common directory (``git_dir``, or the folder its ``commondir`` file names: a linked worktree's) holds an
    ``objects`` and a ``refs`` folder. (Git also takes ``GIT_OBJECT_DIRECTORY`` for ``objects``; a ``.git``
    file in a repository's content is read without it.)
    """
    if not _valid_head(os.path.join(git_dir, "HEAD")):
        return False
    common = _common_dir(git_dir)
    return common is not None and all(os.path.isdir(os.path.join(common, name)) for name in ("objects", "refs"))


def _valid_head(head: str) -> bool:
    """Git's ``validate_headref``: a link whose target begins ``refs/``, or a file beginning with ``ref:`` and
    (after blanks) ``refs/``, or with an object's hex name. Opened without blocking: a FIFO makes no wait."""
    try:
        if os.path.islink(head):
            return os.readlink(head).startswith("refs/")
    except (OSError, ValueError):
        return False
    text = _read_file(head, _HEAD_READ)
    if text is None:
        return False
    if text.startswith(b"ref:"):
        return text[len(b"ref:") :].lstrip().startswith(b"refs/")
    return len(text) >= _OBJECT_ID and all(byte in _HEX for byte in text[:_OBJECT_ID])


def common_dir(git_dir: str) -> str | None:
    """The common git directory of ``git_dir`` (``_common_dir``): where ``info/exclude`` and ``config`` lie."""
    return _common_dir(git_dir)


def _common_dir(git_dir: str) -> str | None:
    """The folder holding ``objects`` and ``refs``: the one ``git_dir/commondir`` names (relative to
    ``git_dir``), else ``git_dir`` itself; None when that file cannot be read."""
    commondir = os.path.join(git_dir, "commondir")
    if not os.path.lexists(commondir):
        return git_dir
    text = _read_file(commondir, _GIT_FILE_READ)
    if text is None:
        return None
    named = text.rstrip(b"\r\n").split(b"\0", 1)[0]
    return os.path.join(git_dir, named.decode("utf-8", "surrogateescape")) if named else None


def read_regular_file(path: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of the regular file at ``path``; None for a FIFO, a device, a folder or none:
    a file of the git directory (a hook, say) read without ever waiting on what an archive put there."""
    return _read_file(path, limit)


def _read_file(path: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of the regular file at ``path``; None for anything else. Opened without blocking,
    so a FIFO put there makes no run wait."""
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        return os.read(descriptor, limit) if stat.S_ISREG(os.fstat(descriptor).st_mode) else None
    except OSError:
        return None
    finally:
        os.close(descriptor)


_CONFIG_READ = 1 << 20  # a git directory's config read for core.worktree and core.bare: no more than this


def foreign_git_dir(folder: str) -> tuple[str, str] | None:
    """The git directory ``folder``'s ``.git`` leads to, and why, when it is another work tree's; None when it is
    this one's (or ``folder`` holds no ``.git`` file or folder at all).

    A git directory is this work tree's when it is the ``.git`` folder itself with no ``commondir``, or when it
    points back here, as git's own layouts do (git's ``worktree.c`` and ``setup.c``):

    - a linked worktree's (``git worktree add``): ``<common>/worktrees/<n>``, whose ``gitdir`` file names this
      ``.git`` file;
    - a submodule's (``.git/modules/<x>``): its ``core.worktree`` names this folder;
    - ``git init --separate-git-dir``'s: git 2.39 writes no back-link there, so a git directory with no
      ``commondir``, no ``core.worktree``, not bare and not itself named ``.git`` (which makes it its own
      folder's) is taken as this work tree's.

    Anything else (``gitdir: ../victim/.git``; a ``.git`` folder whose ``commondir`` names another repository's)
    is another repository's: ``skillmem init`` writes no config nor hook there, and nothing is kept there.
    """
    dot_git = os.path.join(folder, ".git")
    if os.path.isdir(dot_git) and os.path.lexists(os.path.join(dot_git, "commondir")):
        return dot_git, "its commondir file names another repository's git directory"
    git_dir = _led_to(folder)
    if git_dir is None:
        return None
    common = _common_dir(git_dir)
    if common is None:
        return git_dir, "its commondir file cannot be read"
    if common != git_dir:
        back = _read_file(os.path.join(git_dir, "gitdir"), _GIT_FILE_READ)
        back_path = back.rstrip(b"\r\n").decode("utf-8", "surrogateescape") if back else ""
        in_worktrees = _same(os.path.dirname(git_dir), os.path.join(common, "worktrees"))
        if in_worktrees and back_path and _same(os.path.join(git_dir, back_path), dot_git):
            return None
        return git_dir, "it is a linked worktree's git directory whose gitdir file names another work tree"
    worktree, bare = _core_settings(os.path.join(git_dir, "config"))
    if worktree is not None:
        if _same(os.path.join(git_dir, worktree), folder):
            return None
        return git_dir, f"its core.worktree names another work tree ({worktree})"
    real = os.path.realpath(git_dir)
    if os.path.basename(real) == ".git" and not _same(os.path.dirname(real), folder):
        return git_dir, "it is the .git folder of another work tree"
    if bare:
        return git_dir, "it is a bare repository"
    return None


def unlinked_outside_git_dir(folder: str) -> str | None:
    """The git directory ``folder``'s ``.git`` file (or link) leads to, when it lies outside ``folder`` and nothing
    in it points back here; None otherwise. Asked after ``foreign_git_dir`` found it this work tree's.

    That is ``git init --separate-git-dir``'s layout, which git 2.39 leaves without a back-link: a store
    ``foreign_git_dir`` takes as this work tree's, as the kept files may (they run nothing). Yet nothing in it
    tells it from another work tree's own separate store (``gitdir: ../victim-store``), so
    ``skillmem init`` writes no git config or hook there. A linked worktree's (its ``gitdir`` file) and a
    submodule's (its ``core.worktree``) point back, and a ``.git`` folder, or a store inside ``folder``, is its own.
    """
    git_dir = _led_to(folder)
    if git_dir is None or within(os.path.realpath(git_dir), os.path.realpath(folder)):
        return None
    if _common_dir(git_dir) != git_dir or _core_settings(os.path.join(git_dir, "config"))[0] is not None:
        return None  # a linked worktree's or a submodule's, whose back-link foreign_git_dir has checked
    return git_dir


def _led_to(folder: str) -> str | None:
    """The git directory ``folder``'s ``.git`` leads to when it is a ``gitdir:`` file or a link (a link named .git
    is held to a ``gitdir:`` line's rules); None for a ``.git`` folder of its own, or no ``.git``."""
    dot_git = os.path.join(folder, ".git")
    if os.path.isdir(dot_git):
        return os.path.realpath(dot_git) if os.path.islink(dot_git) else None
    named = gitdir_line(dot_git)
    return None if named is None else os.path.normpath(os.path.join(folder, named))


def git_dir_and_common_dir(folder: str) -> tuple[str, str] | None:
    """The git directory ``folder``'s ``.git`` leads to and its common directory (where ``config`` and ``hooks``
    are); None when there is no ``.git`` or its ``commondir`` cannot be read."""
    dot_git = os.path.join(folder, ".git")
    git_dir = dot_git if os.path.isdir(dot_git) else _led_to(folder)  # a .git folder (or a link to one) as named
    if git_dir is None:
        return None
    common = _common_dir(git_dir)
    return None if common is None else (git_dir, os.path.normpath(common))


def widens_top(git_dir: str, folder: str) -> bool:
    """Whether ``git_dir``'s ``core.worktree`` names a folder above ``folder``: ``discovery/git.py`` refuses that
    with its own reason, so the kept files' note need not say it again."""
    worktree = _core_settings(os.path.join(git_dir, "config"))[0]
    if worktree is None:
        return False
    above = os.path.realpath(os.path.join(git_dir, worktree)).rstrip(os.sep) + os.sep
    return os.path.realpath(folder).startswith(above)


def within(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies below it, both real paths, by their letters: the one test of
    confinement's reads and writes and of a work tree's top (``discovery/git.py``), which cannot import it there."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _same(one: str, other: str) -> bool:
    return os.path.realpath(one) == os.path.realpath(other)


def _core_settings(config: str) -> tuple[str | None, bool]:
    """``core.worktree`` and whether ``core.bare`` is true, read from a git config file as plain
    ``key = value`` lines of its ``[core]`` section (the last one wins; ``include`` is not followed)."""
    text = _read_file(config, _CONFIG_READ)
    worktree: str | None = None
    bare = False
    section = ""
    for raw in (text or b"").decode("utf-8", "surrogateescape").splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line[1 : line.find("]")].strip().lower() if "]" in line else ""
            continue
        if section != "core" or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        if key.lower() == "worktree":
            worktree = value
        elif key.lower() == "bare":
            bare = value.lower() in {"true", "yes", "on", "1"}
    return worktree, bare
