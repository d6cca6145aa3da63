"""When a symlink below a root is followed: the one policy of both views, the file system's and git's.

A link (to a folder or to a SKILL.md) is followed when its target lies
inside the same root, since then every checkout has it. A link that leaves
the root, dangles or loops is skipped and reported, so the block never
depends on what one machine has elsewhere. What a link leads to must also
pass the read rule (``confinement.py``): never into a git directory, and in
a work tree only onto a file git tracks.
"""

from __future__ import annotations

import errno
import os

from skillmem_hook.catalog.discovery.confinement import IN_GIT_DIRECTORY, OUTSIDE, UNTRACKED

OUTSIDE_ROOT = "symlink leads outside the root; only links inside the root are followed"
INTO_GIT_DIRECTORY = "symlink leads into a git directory, whose files are never read as skills"
UNTRACKED_TARGET = "symlink leads to a file git does not track (git add it, or replace the link by the file)"
# Why a file reached through a link is skipped, for each refusal of the read rule.
REFUSED = {OUTSIDE: OUTSIDE_ROOT, IN_GIT_DIRECTORY: INTO_GIT_DIRECTORY, UNTRACKED: UNTRACKED_TARGET}
_SEP = os.sep.encode()


def walked_link_reason(real_parent: bytes, real_target: bytes) -> str:
    """Why a link to a folder walked already is not followed again."""
    if real_parent == real_target or real_parent.startswith(real_target + _SEP):
        return "symlink loops back to a folder above it"
    return "symlink leads to a folder walked already"


def link_problem(path: bytes, real_root: bytes) -> str | None:
    """Why a link is not followed: a reason, '' when it is gone, None when it may be followed."""
    try:
        os.stat(path)
    except FileNotFoundError:
        try:
            os.lstat(path)
        except FileNotFoundError:
            return ""
        return "dangling symlink"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "symlink loop: the link leads back to itself"
        return f"cannot follow the symlink: {error.strerror}"
    try:
        target = os.path.realpath(path)
    except FileNotFoundError:
        return ""  # removed between realpath's lstat and its readlink (Python's realpath lets that through)
    if target != real_root and not target.startswith(real_root + _SEP):
        return OUTSIDE_ROOT
    return None
