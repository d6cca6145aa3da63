"""The edge ``skillmem init`` works through: the files git lists, git's local config, and pre-commit."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

from skillmem_hook.catalog.discovery.git import find_work_tree, run_git, user_named_work_tree
from skillmem_hook.catalog.discovery.ownership import repository_error
from skillmem_hook.catalog.dot_git import foreign_git_dir, read_regular_file
from skillmem_hook.catalog.dot_git import work_tree_top as dot_git_top
from skillmem_hook.errors import FileAccessError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def work_tree_top() -> str:
    """The top folder of the work tree around the current one."""
    tree = find_work_tree()  # held to the folder holding .git, as every other command's top
    if tree is None:
        raise repository_error(
            "skillmem init works in a git repository, and this folder is not in one",
            "run 'git init' first, or cd into the repository",
        )
    _refuse_foreign_git_dir(tree.top)
    return tree.top


def _refuse_foreign_git_dir(top: str) -> None:
    """Refuse (exit 2) when the git directory the ``.git`` above ``top`` leads to is another work tree's
    (``dot_git.foreign_git_dir``): init's ``git config --local`` and ``pre-commit install`` would write into
    that repository (``gitdir: ../victim/.git`` in an unpacked archive). A ``GIT_DIR`` or ``GIT_WORK_TREE`` in
    the environment is the user's own, and honoured."""
    if user_named_work_tree():
        return
    holder = dot_git_top(top)
    foreign = None if holder is None else foreign_git_dir(holder)
    if foreign is not None:
        from skillmem_hook.visible import visible  # noqa: PLC0415 - only a refusal says it

        raise UsageError(
            f"the .git in {visible(holder or top)} leads to {visible(foreign[0])}, another repository's git "
            f"directory ({visible(foreign[1])}); init would write its git config and hook there",
            "run init in that repository's own work tree, or remove this .git and run 'git init' here",
        )


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
    ``status.showUntrackedFiles`` says; if git cannot say, False.
    """
    code, out = run_git(
        ["--no-optional-locks", "-C", top, "status", "--porcelain", "-z", "--untracked-files=all", "--", *paths]
    )
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
