"""Whether git tracks each prompt file: what a hook must tell the person committing.

A tracked file that changed must be staged; an untracked one must be added,
or the commit holds no block at all (and a fresh clone fails); an ignored one
is personal, so it is kept current and nothing is asked of the commit, as
long as some other prompt file is in it.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery.git import as_listed, ignored_paths, run_git, tracked_entries
from skillmem_hook.catalog.store.locations import find_git_dir
from skillmem_hook.errors import UsageError
from skillmem_hook.visible import command_path, git_add_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

TRACKED = "tracked"
UNTRACKED = "untracked"
IGNORED = "ignored"
ABSENT_IGNORED = "absent here, and git ignores it"
SPARSE = (
    "outside the sparse checkout: git keeps it out of this work tree, so its block is neither written nor checked here"
)


def left_out_note(path: str, reason: str) -> str:
    """The note for a prompt file ``absent_and_ignored`` set aside: the hooks print it, ``verify --tracked`` too.

    An ignored one absent here is a personal file a fresh clone lacks: the note says how to have it, as inject's
    and plain verify's do (a newcomer's clone was told only that it was left out)."""
    return f"{path}: left out ({absent_ignored_here(path) if reason == ABSENT_IGNORED else reason})"


def absent_ignored_here(path: str) -> str:
    """ABSENT_IGNORED as inject and plain verify give it: they would write or compare its block here, once it exists."""
    return f"{ABSENT_IGNORED}: `touch {command_path(path)}` once to have its block written here"


def prompt_file_states(paths: Sequence[str]) -> dict[str, str]:
    """TRACKED, UNTRACKED or IGNORED for each path, as git's index and ignore rules say."""
    if not paths:
        return {}
    listed = [as_listed(path) for path in paths]  # git enters no link: a linked folder is named by its real path
    tracked = {os.path.normpath(entry.path) for entry in tracked_entries(listed, everything=True)}
    untracked = [path for path in paths if as_listed(path) not in tracked]
    ignored = set(ignored_paths(untracked))  # git echoes each path as it was given
    return {path: TRACKED if path not in untracked else IGNORED if path in ignored else UNTRACKED for path in paths}


def absent_and_ignored(paths: Sequence[str]) -> dict[str, str]:
    """The prompt files absent here that are left out, with why: git ignores them, or a sparse checkout omits them.

    An ignored one is a personal file, not on this machine (nor in a fresh
    clone); a tracked one marked skip-worktree is outside the sparse checkout's
    cone, in the commit as it was. The hooks and ``verify --tracked`` leave
    them out alike; any other absent prompt file is an error.
    """
    missing = [path for path in paths if not os.path.lexists(path)]
    if not missing or find_git_dir(os.getcwd()) is None:
        return {}
    ignored = ignored_paths(missing)
    left_out = {path: ABSENT_IGNORED for path in missing if path in ignored}
    rest = [path for path in missing if path not in ignored]
    sparse = skip_worktree_paths([as_listed(path) for path in rest]) if rest else set()
    left_out.update({path: SPARSE for path in rest if as_listed(path) in sparse})
    return {path: left_out[path] for path in missing if path in left_out}


def skip_worktree_paths(listed: Sequence[str]) -> set[str]:
    """Those of the paths (as git lists them) that git's index marks skip-worktree: one ``ls-files -t`` for all."""
    code, out = run_git(["ls-files", "-t", "-z", "--", *listed])
    if code != 0:
        return set()
    records = out.decode("utf-8", "surrogateescape").split("\0")
    return {os.path.normpath(record[2:]) for record in records if record.startswith("S ")}


def require_one_in_commit(states: dict[str, str], left_out: Mapping[str, str]) -> None:
    """Refuse when no prompt file is tracked or untracked: every one ignored, or absent here and ignored.

    The commit then holds no block at all: in a fresh clone, a hook that
    passed would have compared nothing. An untracked file has its own report
    (exit 3, with the ``git add``). A UsageError (exit 2), as ``skillmem
    verify`` gives for a prompt file that is not there: staging cannot fix
    it; the configuration or .gitignore must change.
    """
    in_commit = any(reason == SPARSE for reason in left_out.values())  # tracked, as it was
    if not (states or left_out) or in_commit or any(state != IGNORED for state in states.values()):
        return
    reasons = [f"{visible(path)} ({reason})" for path, reason in left_out.items()]
    reasons += [f"{visible(path)} (git ignores it)" for path in states]
    first = [*left_out, *states][0]
    raise UsageError(
        "no prompt file it checks is in the commit, so the commit holds no skill index: " + ", ".join(reasons),
        f"commit one: un-ignore it ('git check-ignore -v {command_path(first)}' names the rule),"
        f" then 'git add {git_add_path(first)}';\n"
        "or name a file the repository commits under prompt_files in .skillmem.yaml (or the hook's --prompt-file)",
    )
