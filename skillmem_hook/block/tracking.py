"""Whether git tracks each prompt file: what a hook must tell the person committing.

A tracked file that changed must be staged; an untracked one must be added,
or the commit holds no block at all (and a fresh clone fails); an ignored one
is personal, so it is kept current and nothing is asked of the commit.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery.git import as_listed, ignored_paths, tracked_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

TRACKED = "tracked"
UNTRACKED = "untracked"
IGNORED = "ignored"


def prompt_file_states(paths: Sequence[str]) -> dict[str, str]:
    """TRACKED, UNTRACKED or IGNORED for each path, as git's index and ignore rules say."""
    if not paths:
        return {}
    listed = [as_listed(path) for path in paths]  # git enters no link: a linked folder is named by its real path
    tracked = {os.path.normpath(entry.path) for entry in tracked_entries(listed, everything=True)}
    untracked = [path for path in paths if as_listed(path) not in tracked]
    ignored = set(ignored_paths(untracked))  # git echoes each path as it was given
    return {path: TRACKED if path not in untracked else IGNORED if path in ignored else UNTRACKED for path in paths}
