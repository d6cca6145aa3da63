"""Where a write named by the repository may land: the rule of ``catalog/discovery/confinement.py``, for writes.

A prompt file or ``write:`` file named by the repository (in
``.skillmem.yaml``, in the hooks' ``args:`` of ``.pre-commit-config.yaml``, or
found by auto-detection) must resolve inside the work tree and outside every
git directory; one reached through a symlink must also land on a file git
tracks, so that whatever is written shows in ``git diff``: a committed
``AGENTS.md -> .git/config`` or ``-> .env`` is refused.

Every path is checked before any file is read or written: the hooks and
init write all or none (``check_repository_targets``), and refuse a path in a submodule; ``lint --fix``
leaves out each SKILL.md refused, saying why (``refused_targets``).
Paths the user types on the command line are the user's own and are not
checked. Outside a git work tree, the folder of ``.skillmem.yaml`` plays the
work tree's part, and a link that stays inside it is followed (nothing is
tracked there to check).
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery.confinement import (
    OUTSIDE,
    Area,
    escape,
    nested_repository,
    repository_area,
    untracked,
)
from skillmem_hook.catalog.discovery.git import environment_note
from skillmem_hook.errors import FileAccessError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

_HINT = (
    "a path a repository names may only lead to a file inside its work tree, outside .git; fix the path "
    "in the configuration, replace the link by a regular file, or pass the path yourself (--prompt-file, --write)"
)


def check_repository_targets(targets: Sequence[tuple[str, str]], base: str) -> None:
    """Refuse, before anything is written, any (path, what) the repository names that may not be written.

    ``base`` is the folder of ``.skillmem.yaml`` (or where the run started),
    the boundary when there is no git work tree.
    """
    if not targets:
        return
    area = repository_area(base)  # once: outside a hook's run, each asks git where the work tree is
    for error in _refused(targets, area).values():
        raise error
    _check_outside_submodules(targets, area)


def _check_outside_submodules(targets: Sequence[tuple[str, str]], area: Area) -> None:
    """Refuse a (path, what) inside a submodule (or any folder with a ``.git`` of its own) of the work tree.

    The file is another repository's: this one's commits never hold it, ``git add`` refuses it ("Pathspec ... is
    in submodule"), and a hook that wrote it would fail every commit while inject and the hook rewrote each
    other's block. Checked after ``_refused``, on what is left: inside the work tree, outside .git.
    """
    for error in _in_submodules(targets, area).values():
        raise error


def _in_submodules(targets: Sequence[tuple[str, str]], area: Area) -> dict[str, FileAccessError]:
    """Why each (path, what) lying in a submodule of the work tree may not be written, by path."""
    refused: dict[str, FileAccessError] = {}
    for path, what in targets:
        real = os.path.realpath(path)
        holder = nested_repository(os.path.dirname(real), area)
        if holder is not None:
            inside = os.path.relpath(holder, area.top)
            refused[path] = FileAccessError(
                f"{what} {path!r} lies in {inside!r}, a git submodule (a folder with its own .git): "
                "this repository's commits cannot hold it, and git refuses to add it",
                "name a file of this repository instead; keep the submodule's own skill index in its own "
                "repository (run skillmem there), or pass the path yourself (--prompt-file, --write)",
            )
    return refused


def check_outside_git_directory(targets: Sequence[tuple[str, str]], base: str) -> None:
    """Refuse any (path, what) the repository names inside a git directory, whether it exists or git ignores it.

    The first check of every command that reads the ignore rules (the hooks, ``verify --tracked``, init): a
    path in the git directory is what the rule protects, so it is refused as inject refuses it, before an
    ignored one could be left out (``.git/AGENTS.md`` with ``.git/AGENTS.md`` in .gitignore).
    """
    if not targets:
        return
    area = repository_area(base)
    for path, what in targets:
        real = os.path.realpath(path)
        if escape(real, area) not in (None, OUTSIDE):
            link = _first_link(path)
            raise _in_git_directory(path, what, real, "" if link is None else _through(link))


def _in_git_directory(path: str, what: str, real: str, through: str) -> FileAccessError:
    return FileAccessError(f"{what} {path!r}{through} resolves to {real!r}, inside the git directory", _HINT)


def _through(link: str) -> str:
    return f" (through the symlink {link!r} -> {_read_link(link)!r})"


def refused_targets(targets: Sequence[tuple[str, str]], base: str) -> dict[str, FileAccessError]:
    """Why each (path, what) may not be written, by path: those leaving the area first, then links to untracked
    files, then those in a submodule (``lint --fix`` leaves each out, as the hooks refuse them all).

    A path absent from the answer may be written. ``base`` as for ``check_repository_targets``.
    """
    if not targets:
        return {}
    area = repository_area(base)
    refused = _refused(targets, area)
    return refused | _in_submodules([target for target in targets if target[0] not in refused], area)


def _refused(targets: Sequence[tuple[str, str]], area: Area) -> dict[str, FileAccessError]:
    refused: dict[str, FileAccessError] = {}
    linked: list[tuple[str, str, str]] = []
    for path, what in targets:
        real = os.path.realpath(path)
        link = _first_link(path)
        through = "" if link is None else _through(link)
        problem = escape(real, area)
        if problem == OUTSIDE:
            where = f"the work tree {area.top!r}{environment_note()}" if area.git else f"the folder {area.top!r}"
            refused[path] = FileAccessError(f"{what} {path!r}{through} resolves to {real!r}, outside {where}", _HINT)
        elif problem is not None:
            refused[path] = _in_git_directory(path, what, real, through)
        elif link is not None:
            linked.append((path, what, through))
    if linked and area.git:  # outside git nothing is tracked: the boundary above is all there is to hold
        refused.update(_untracked_targets(linked, area))
    return refused


def _untracked_targets(linked: Sequence[tuple[str, str, str]], area: Area) -> dict[str, FileAccessError]:
    """A write through a link must land on a file git tracks, where ``git diff`` shows it."""
    not_tracked = untracked({os.path.realpath(path) for path, _, _ in linked})
    refused: dict[str, FileAccessError] = {}
    for path, what, through in linked:
        if os.path.realpath(path) in not_tracked:
            landing = os.path.relpath(os.path.realpath(path), area.top)
            refused[path] = FileAccessError(
                f"{what} {path!r}{through} lands on {landing!r}, which git does not track",
                "a link a repository holds may only lead to a tracked file, where git diff shows every write; "
                "git add the target, or replace the link by a regular file",
            )
    return refused


def _first_link(path: str) -> str | None:
    """The symlink on the way to ``path`` (the file itself, or a folder above it), or None when there is none."""
    if os.path.realpath(path) == os.path.abspath(path):
        return None
    candidate = os.path.normpath(path)
    while candidate and candidate not in (os.curdir, os.sep):
        if os.path.islink(candidate):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            break
        candidate = parent
    return path  # a link above the current folder's path, or ".." after a link: the path itself names it


def _read_link(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return os.path.realpath(path)
