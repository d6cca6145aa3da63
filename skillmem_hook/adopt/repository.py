"""The edge ``skillmem init`` works through: the files git lists, git's local config, and pre-commit."""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess

from skillmem_hook.catalog.discovery.git import find_work_tree, run_git, user_named_work_tree
from skillmem_hook.catalog.discovery.ownership import repository_error
from skillmem_hook.catalog.dot_git import (
    foreign_git_dir,
    git_dir_and_common_dir,
    read_regular_file,
    unlinked_outside_git_dir,
)
from skillmem_hook.catalog.dot_git import work_tree_top as dot_git_top
from skillmem_hook.errors import FileAccessError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def work_tree_top(*, hooks: bool = True) -> tuple[str, str | None]:
    """The top folder of the work tree around the current one, and its git directory when init must not write
    there (``refuse_foreign_git_dir``: a store outside with no back-link); a UsageError (exit 2), before anything
    is written, when init's git config or (with ``hooks``) its hook install would write outside the work tree
    and its own git directory."""
    tree = find_work_tree()  # held to the folder holding .git, as every other command's top
    if tree is None:
        raise repository_error(
            "skillmem init works in a git repository, and this folder is not in one",
            "run 'git init' first, or cd into the repository",
        )
    return tree.top, refuse_foreign_git_dir(tree.top, hooks=hooks)


def refuse_foreign_git_dir(top: str, *, hooks: bool) -> str | None:
    """Refuse (exit 2) when init's ``git config --local`` or ``pre-commit install`` would write outside this work
    tree and its own git directory. A ``GIT_DIR`` or ``GIT_WORK_TREE`` in the environment is the user's own, and
    honoured (None).

    Returned: the git directory when it lies outside the work tree and nothing in it links back here
    (``dot_git.unlinked_outside_git_dir``): a ``--separate-git-dir`` store, the user's own or another work tree's
    (``gitdir: ../victim-store``), which nothing tells apart. init writes its files but no git
    config and no hook there, and says what to run by hand (``by_hand``). None otherwise.

    - the git directory is another work tree's (``dot_git.foreign_git_dir``: ``gitdir: ../victim/.git``);
    - its ``config``, or with ``hooks`` its ``hooks`` folder or the hook in it, is a link (or not a regular file,
      not a folder): git's lock file and pre-commit write through a link, into another repository, the user's
      ``~/.gitconfig`` or ``~/bin``. A git directory init writes nothing into (the store
      returned) is not asked.
    """
    if user_named_work_tree():
        return None
    holder = dot_git_top(top)
    if holder is None:
        return None
    from skillmem_hook.visible import visible  # noqa: PLC0415 - only a refusal says it

    foreign = foreign_git_dir(holder)
    if foreign is not None:
        raise UsageError(
            f"the .git in {visible(holder)} leads to {visible(foreign[0])}, another repository's git "
            f"directory ({visible(foreign[1])}); init would write its git config and hook there",
            "run init in that repository's own work tree, or remove this .git and run 'git init' here",
        )
    separate = unlinked_outside_git_dir(holder)
    dirs = None if separate is not None else git_dir_and_common_dir(holder)
    odd = None if dirs is None else _linked_part(dirs[1], hooks=hooks)
    if odd is not None:
        hint = "make it the git directory's own (a regular file, a folder), then run init again"
        if os.path.basename(odd[0]) != "config":
            hint += ", or run 'skillmem init --no-install' and install the hook yourself"
        raise UsageError(
            f"{visible(odd[0])} {visible(odd[1])}: init's git config or hook install would write through it, "
            "outside this repository's git directory",
            hint,
        )
    return separate


def _linked_part(common: str, *, hooks: bool) -> tuple[str, str] | None:
    """The first of the git directory's ``config``, ``hooks`` and ``hooks/pre-commit`` (the last two when
    ``hooks``) that is a link, or not what it should be (``config`` a regular file, ``hooks`` a folder); None
    when each is, or is absent (git or pre-commit then makes it, inside the git directory)."""
    parts = [("config", stat.S_ISREG, "a regular file")]
    if hooks:
        # A hook that is a FIFO or a device is no link: install_hooks declines it with its own reason.
        parts += [("hooks", stat.S_ISDIR, "a folder"), (os.path.join("hooks", "pre-commit"), _any_kind, "")]
    for name, kind, wanted in parts:
        path = os.path.join(common, name)
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue
        if stat.S_ISLNK(mode):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return path, f"is a link (to {target})"
        if not kind(mode):
            return path, f"is not {wanted}"
    return None


def _any_kind(_mode: int) -> bool:
    return True


def by_hand(settings: Sequence[tuple[str, str]], manager: str | None) -> str:
    """The commands init would have run, for a person who knows the git directory is theirs."""
    commands = [f"git config {key} {shlex.quote(value)}" for key, value in settings]
    commands.append(f"{os.path.basename(manager) if manager else 'pre-commit'} install")
    return "; ".join(commands)


def listed_files(top: str, pathspecs: Sequence[str]) -> list[str]:
    """Files git tracks, or would add with ``git add -A`` (not ignored), relative to ``top``, with ``/``."""
    code, out = run_git(
        ["-C", top, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *pathspecs], literal=False
    )
    if code != 0:
        raise UsageError("git cannot list the repository's files", "check that 'git status' works here")
    return sorted({os.fsdecode(path) for path in out.split(b"\0") if path})


def uncommitted(top: str, paths: Sequence[str]) -> bool:
    """True when any of ``paths`` (relative to ``top``) is untracked, or differs from HEAD, staged or not.

    One ``git status``, without its optional index refresh (nothing written), untracked files shown whatever
    ``status.showUntrackedFiles`` says, submodules not looked into (``--ignore-submodules=all``: git would run a
    ``git status`` inside each, with the submodule's own config and filters); if git cannot say, False.
    """
    status = ["status", "--porcelain", "-z", "--untracked-files=all", "--ignore-submodules=all"]
    code, out = run_git(["--no-optional-locks", "-C", top, *status, "--", *paths])
    return code == 0 and bool(out)


def config_value(top: str, key: str) -> str | None:
    code, out = run_git(["-C", top, "config", "--local", "--get", key])
    return os.fsdecode(out.rstrip(b"\n")) if code == 0 else None


def set_config(top: str, key: str, value: str) -> None:
    code, _ = run_git(["-C", top, "config", "--local", key, value])
    if code != 0:
        raise FileAccessError(f"git config could not set {key}", "check that .git/config is writable")


def _hook_path(top: str) -> str | None:
    code, out = run_git(["-C", top, "rev-parse", "--git-path", "hooks/pre-commit"])
    return os.path.join(top, os.fsdecode(out.rstrip(b"\n"))) if code == 0 else None


def hooks_installed(top: str) -> bool:
    """True when git's pre-commit hook is pre-commit's (or prek's) script already."""
    path = _hook_path(top)
    if path is None:
        return False
    # Without blocking, a regular file only: an archive's hooks folder (or its core.hooksPath) may hold a FIFO.
    script = read_regular_file(path, 64 * 1024)
    return script is not None and (b"pre-commit" in script or b"prek" in script)


def _odd_hook(top: str) -> str | None:
    """Git's pre-commit hook path when something other than a regular file (a FIFO, a device) is there."""
    path = _hook_path(top)
    try:
        odd = path is not None and not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # none there, or a broken link: pre-commit writes its own
        return None
    return path if odd else None


def hooks_path(top: str) -> str | None:
    """``core.hooksPath`` as git reads it for this repository, any scope (the archive's own config, an include,
    the user's): then git runs its hooks from that folder, and a hook manager's install would write there (prek
    does; pre-commit refuses). None when it is not set."""
    code, out = run_git(["-C", top, "config", "--get-all", "core.hooksPath"])
    if code != 0:
        return None
    return os.fsdecode(out.rstrip(b"\n").rsplit(b"\n", 1)[-1])


def hook_manager() -> str | None:
    """The pre-commit on PATH (or prek, its re-implementation); None when neither is."""
    return shutil.which("pre-commit") or shutil.which("prek")


def install_hooks(top: str, manager: str) -> str | None:
    """``pre-commit install``, so git runs the hooks on every commit; why it failed, or None.

    A failure is said, not raised: the files are written by then, and the
    person can run the install once its cause (``core.hooksPath``, say) is dealt with.
    """
    name = os.path.basename(manager)
    odd = _odd_hook(top)
    if odd is not None:  # pre-commit would open it to keep it as pre-commit.legacy, and wait on a FIFO
        return f"'{name} install' not run: {odd} is not a regular file; remove it, then run '{name} install'"
    try:
        result = subprocess.run(
            [manager, "install"], cwd=top, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
        )
    except OSError as error:
        return f"'{name} install' could not run ({error.strerror}): run it yourself"
    if result.returncode != 0:
        detail = " ".join((result.stderr or result.stdout).split())[:300]
        return f"'{name} install' failed ({detail}): run it yourself once that is fixed"
    return None
