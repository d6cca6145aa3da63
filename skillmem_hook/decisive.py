"""The files besides the roots whose change can change a catalog: what every snapshot of the disk stamps too.

Finding them takes the configuration search (``config.find_config``), which
sits above ``catalog/``; so they are found here, and handed to the stamps
(``catalog/store/stamps.py``) by whoever takes a snapshot: the route index,
the MCP server's watcher, and the stored search index's callers.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.dot_git import holds_repository
from skillmem_hook.config import DEFAULT_ROOTS, find_config
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.errors import UsageError


def decisive_files(start: str, *, tracked: bool) -> list[str]:
    """The files besides the roots whose change can change the catalog, present or not.

    Every ``.skillmem.yaml`` the configuration search looks at, from ``start``
    up to the repository's top (one above the start folder can exclude a
    skill); every common layout root (a ``.claude/skills`` created later
    becomes a root); and, in git's view, git's index file (``git add`` and
    ``git rm --cached`` change what the catalog holds, and no folder's stamp).
    """
    files = []
    folder = os.path.abspath(start)
    while True:
        files.append(os.path.join(folder, CONFIG_FILE))
        parent = os.path.dirname(folder)
        if holds_repository(folder) or parent == folder:  # where config's search stops, by its rule
            break
        folder = parent
    base = find_config(start)[1]
    files += [os.path.join(os.path.abspath(base), root) for root in DEFAULT_ROOTS]
    if tracked:
        files += _git_index_file()
    return files


def _git_index_file() -> list[str]:
    """Git's index file (GIT_INDEX_FILE honoured); none outside a work tree or without git."""
    from skillmem_hook.catalog.discovery.git import run_git  # noqa: PLC0415 - only git's view needs git

    try:
        code, out = run_git(["rev-parse", "--git-path", "index"], literal=False)
    except UsageError:
        return []
    path = out.decode("utf-8", "surrogateescape").strip()
    return [os.path.abspath(path)] if code == 0 and path else []
