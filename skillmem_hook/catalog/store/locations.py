"""Where every file skillmem keeps lives: the catalog cache and snapshot, the vectors, the route and search indexes.

Two homes, each decided in one function (and, here too, the one rule that
finds a git directory without running git: ``find_git_dir`` and ``git_dir_at``, over
``catalog/dot_git.py``'s reading of a ``.git``):

- the git directory (``_git_home``): ``skillmem/cache.json`` and
  ``skillmem/catalog.json`` (where ``git rev-parse --git-path skillmem``
  says, so each linked worktree has its own), ``skillmem/vectors.bin``, and
  the indexes of a repository's top folder, ``skillmem-route.json`` and
  ``skillmem-search.json``;
- the user's cache folder (``user_cache_folder``), outside a repository:
  ``vectors.bin`` (keyed by content, so shared), and one
  ``<kind>-<hash of the folder and the roots>.json`` per folder and roots.

Nothing is ever kept among the files a user commits. The catalog cache is
not kept outside a repository.

Each home must be trusted (``trust.py``): the user's cache folder is made
private, and it and the cache root above it must be this user's alone; a git
directory named by a ``.git`` file (``gitdir:``) that lies outside the work
tree must be so too. Otherwise nothing is kept there and every run builds
afresh: a ``.git`` file in an unpacked archive, or another user's folder in a
shared cache root, would otherwise choose what skillmem reads back.
"""

from __future__ import annotations

import os
import stat

from skillmem_hook.catalog.dot_git import (
    foreign_git_dir,
    gitdir_line,
    is_git_directory,
    widens_top,
    within,
    work_tree_top,
)
from skillmem_hook.catalog.store.trust import (
    folder_problem,
    own_folder_problem,
    owned_work_tree,
    say_once,
    say_untrusted,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.discovery.git import WorkTree

CACHE_FOLDER = "skillmem"  # inside the git directory
CATALOG_CACHE_FILE = "cache.json"
CATALOG_SNAPSHOT_FILE = "catalog.json"
VECTORS_FILE = "vectors.bin"


def catalog_cache_location(work_tree: WorkTree | None) -> str | None:
    """The content cache of the repository around the current folder; None outside one."""
    folder = _git_home(work_tree)
    return None if folder is None else os.path.join(folder, CATALOG_CACHE_FILE)


def catalog_snapshot_location(cache_path: str) -> str:
    """The snapshot of git's view of a catalog, beside the content cache it goes with."""
    return os.path.join(os.path.dirname(cache_path), CATALOG_SNAPSHOT_FILE)


def vectors_location(work_tree: WorkTree | None) -> str | None:
    """The skill vectors: beside the catalog cache in a repository, else in the user's cache folder (or None)."""
    folder = _git_home(work_tree)
    if folder is None:
        folder = user_cache_folder()
    return None if folder is None else os.path.join(folder, VECTORS_FILE)


def encoder_model_location(model: str) -> str | None:
    """Where the parts of an encoder's model a question needs are kept (``search/encoder_model.py``): one file
    per model in the user's cache folder, shared by every repository; None when the user has no cache folder."""
    folder = user_cache_folder()
    name = "".join(character if character.isalnum() or character in ".-_" else "_" for character in model)
    return None if folder is None else os.path.join(folder, f"encoder-{name}.bin")


def route_index_location(folder: str, flag_roots: Sequence[str] | None) -> str | None:
    """Where the route index of ``folder`` (an absolute path) is kept; the roots given as flags are part of the key."""
    return _index_location("route", folder, flag_roots or (), flagged=bool(flag_roots))


def search_index_location(folder: str, roots: Sequence[str], *, flagged: bool = False) -> str | None:
    """Where the search index of ``folder`` (an absolute path) is kept: one per repository, else one per roots.

    Roots given on the command line (``flagged``: a user-level hook's ``--root ~/.claude/skills``) get one
    of their own in the user's cache folder, as the route index does: sharing the repository's file, two
    hooks run on the same prompt would overwrite each other's index on every prompt.
    """
    return _index_location("search", folder, roots, flagged=flagged)


def say_when_not_kept(location: str, what: str) -> None:
    """Say once on stderr when a kept index (``what``) cannot be written at ``location``: a folder is there (an
    archive can ship one), so every run would build it afresh, silently. Nothing for a file, a
    link or nothing there; the route hook says nothing, as ``say_once`` keeps it."""
    try:
        folder = stat.S_ISDIR(os.lstat(location).st_mode)
    except OSError:
        return
    if folder:
        from skillmem_hook.visible import shell_word, visible  # noqa: PLC0415 - only a folder in the way is said

        say_once(
            location,
            f"skillmem: the {what} cannot be kept at {visible(location)}: a folder is there (an unpacked archive can "
            f"bring one), so every run builds it afresh; remove it: rm -r {shell_word(location)}\n",
        )


def _index_location(kind: str, folder: str, roots: Sequence[str], *, flagged: bool) -> str | None:
    """``skillmem-<kind>.json`` in the git directory when ``folder`` is a repository's top and no roots were
    flagged; else ``<kind>-<hash>.json`` in the user's cache folder, keyed by the folder and ``roots``.

    An index depends on the folder it is asked from (the configuration is looked for from there), so only a
    repository's top keeps it in the git directory: its own, for a linked worktree or a submodule, as the
    catalog cache. None when the user has no cache folder: the index is then built and not kept.
    """
    git_dir = None if flagged or not owned_work_tree(folder) else git_dir_at(folder)
    if git_dir is not None:
        return os.path.join(git_dir, f"skillmem-{kind}.json")
    cache = user_cache_folder()
    if cache is None:
        return None
    import hashlib  # noqa: PLC0415 - only outside a repository

    key = folder + "\0" + "\0".join(roots)
    digest = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return os.path.join(cache, f"{kind}-{digest}.json")


def _git_home(work_tree: WorkTree | None) -> str | None:
    """``<git dir>/skillmem`` of the repository around the current folder; None outside one, or when it is not trusted.

    Git's own answer in git's view (``work_tree``, from ``--git-path``), else
    the ``.git`` folder or file found above the current folder, read as git reads it.
    """
    if work_tree is not None:
        from skillmem_hook.catalog.discovery.git import user_named_work_tree  # noqa: PLC0415 - route loads no git

        holder = None if user_named_work_tree() else work_tree_top(work_tree.top)
        trusted = (holder is None or _own_git_dir(holder)) and _trusted_git_dir(
            os.path.dirname(work_tree.git_path), work_tree.top
        )
        return _own_kept_folder(work_tree.git_path) if trusted else None
    top = owned_work_tree_top(os.getcwd())
    if top is None:  # another user's .git (in /tmp) keeps nothing of this user's
        return None
    git_dir = git_dir_at(top)
    return None if git_dir is None else _own_kept_folder(os.path.join(git_dir, CACHE_FOLDER))


def _own_kept_folder(folder: str) -> str | None:
    """``folder`` (``<git dir>/skillmem``) when it may hold kept files: missing (a writer makes it private), or a
    real folder, not a link, this user's alone (``trust.own_folder_problem``); else None, with a note.

    A ``skillmem`` link shipped in a git directory (``gitdir: ./fake`` in an archive) would otherwise have every
    run replace the files of the folder it names (``/tmp/victim/cache.json``).
    """
    try:
        linked = stat.S_ISLNK(os.lstat(folder).st_mode)
    except OSError:
        linked = False  # missing (or unreadable: own_folder_problem says which)
    reason = KEPT_FOLDER_IS_A_LINK if linked else own_folder_problem(folder)
    if reason is not None:
        say_untrusted(folder, reason, "remove it: skillmem makes its own folder there")
        return None
    return folder


KEPT_FOLDER_IS_A_LINK = "it is a link, and skillmem keeps its files only in a folder of its own"


def find_git_dir(folder: str) -> str | None:
    """The git directory of the work tree around ``folder``, found without running git; None outside one.

    The nearest ``.git`` at or above ``folder``, read by ``git_dir_at``, as git itself looks for it.
    """
    top = work_tree_top(folder)
    return None if top is None else git_dir_at(top)


def owned_work_tree_top(folder: str) -> str | None:
    """``work_tree_top`` of ``folder`` when this user owns it and its ``.git`` (``trust.owned_work_tree``); else None.

    The one answer to "is this inside a repository of mine": where files are kept, and whether a
    ``.skillmem.yaml`` is the repository's content (``config.py``).
    """
    top = work_tree_top(folder)
    return top if top is not None and owned_work_tree(top) else None


def git_dir_at(folder: str) -> str | None:
    """The git directory of the work tree whose top is ``folder``; None when ``folder`` holds no usable ``.git``.

    A ``.git`` folder, or a ``.git`` file naming the directory (linked work
    trees, submodules), as git itself reads them. What a ``.git`` file names must
    be a git directory by git's own test (``dot_git.is_git_directory``), else
    nothing is kept there, with a note: a ``.git`` file in an unpacked archive
    would otherwise choose a folder of the user's (``~/.ssh``) to write into.
    """
    if not _own_git_dir(folder):
        return None
    dot_git = os.path.join(folder, ".git")
    if os.path.isdir(dot_git):  # a folder, or a link to one: git takes either when it is a git directory
        if not is_git_directory(dot_git):  # git goes on above it ("not a git repository"): mkdir .git, a link
            say_untrusted(dot_git, NOT_A_GIT_DIRECTORY, "a .git folder or link: remove it, or make it a repository")
            return None
        # A link is held to a gitdir: line's rule: inside the work tree, or this user's alone.
        return dot_git if not os.path.islink(dot_git) or _trusted_git_dir(dot_git, folder) else None
    named = gitdir_line(dot_git)
    if named is None:
        return None
    git_dir = os.path.join(folder, named)
    if not is_git_directory(git_dir):  # git refuses it too ("not a git repository"): /tmp/victim, ~/.ssh
        say_untrusted(git_dir, NOT_A_GIT_DIRECTORY, "a .git file names it: remove that file, or make it name one")
        return None
    return git_dir if _trusted_git_dir(git_dir, folder) else None


# ``_own_git_dir``'s answers by folder: kept only inside ``own_git_dir_answers_kept_for_the_run`` (one run), so a
# long-running process (the MCP server) reads a .git anew each time, as ``discovery/git.py``'s
# ``git_answers_kept_for_the_run`` scopes git's answers.
_OWN_GIT_DIR_ANSWERS: dict[str, bool] | None = None


class own_git_dir_answers_kept_for_the_run:  # a class, as git's: a warm route hook loads no contextlib
    """Within the block, each folder's ``.git`` (and the git directory's ``config`` and ``gitdir``) is read once
    for ``_own_git_dir``: a prompt of the route hook asks it for the route index and again for the search index."""

    def __enter__(self) -> None:
        global _OWN_GIT_DIR_ANSWERS  # noqa: PLW0603 - the scope is the run's, not the module's
        self.outer = _OWN_GIT_DIR_ANSWERS
        _OWN_GIT_DIR_ANSWERS = {} if _OWN_GIT_DIR_ANSWERS is None else _OWN_GIT_DIR_ANSWERS

    def __exit__(self, *exc_info: object) -> None:
        global _OWN_GIT_DIR_ANSWERS  # noqa: PLW0603 - the scope is the run's, not the module's
        _OWN_GIT_DIR_ANSWERS = self.outer


def _own_git_dir(folder: str) -> bool:
    """Whether the git directory ``folder``'s ``.git`` leads to is this work tree's (``dot_git.foreign_git_dir``);
    another repository's keeps nothing of this one, with a note: ``gitdir: ../victim/.git`` in an unpacked archive
    would otherwise have every run keep its indexes in that repository."""
    read = _OWN_GIT_DIR_ANSWERS
    key = os.path.abspath(folder)
    if read is not None and key in read:
        return read[key]
    foreign = foreign_git_dir(folder)
    if foreign is not None and not widens_top(foreign[0], folder):  # that one is refused with its own reason
        say_untrusted(foreign[0], foreign[1], "a .git names it: remove that .git, or run 'git init' in its folder")
    if read is not None:
        read[key] = foreign is None
    return foreign is None


NOT_A_GIT_DIRECTORY = "it is no git directory (git finds no HEAD, objects and refs there, and refuses it too)"


def _trusted_git_dir(git_dir: str, top: str) -> bool:
    """A git directory inside the work tree is trusted as git trusts it; one elsewhere must be private to this user."""
    real_top = os.path.realpath(top)
    real = os.path.realpath(git_dir)
    if within(real, real_top):
        return True
    reason = folder_problem(git_dir)
    if reason is not None:
        say_untrusted(git_dir, reason, "a .git file names it: make it yours and private, or remove that file")
    return reason is None


def user_cache_folder() -> str | None:
    """The user's cache folder for skillmem's files outside a repository; None when there is none to trust.

    ``XDG_CACHE_HOME`` when it is absolute (the XDG specification says to ignore a
    relative one), else ``~/.cache``; never a path relative to the current folder,
    which would put the files into whatever project the command runs in. The
    cache root and the folder must be this user's alone; a missing one is made
    private when a file is first kept (``trust.make_private_folder``).
    """
    cache = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(cache):
        cache = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(cache):
        return None
    folder = os.path.join(cache, CACHE_FOLDER)
    reason = folder_problem(cache) or own_folder_problem(folder)
    if reason is not None:
        say_untrusted(folder, reason, "make it yours and private (chmod 700), or set XDG_CACHE_HOME to such a folder")
        return None
    # The user's own link (both ends checked above): the folder it names, as writers follow no link to a folder.
    return os.path.realpath(folder) if os.path.islink(folder) else folder
