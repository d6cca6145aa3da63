"""Why git found no repository around the current folder when there is one: it refuses another user's.

Since 2.35.2 git refuses a work tree whose top folder another user owns
("detected dubious ownership", ``safe.directory``), and every command
then reads as run outside any repository. An error that would say "not
inside a git work tree" or "run 'git init' first" says instead that git
refused the repository and how to allow it, when git's own message says so.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery import git_wait
from skillmem_hook.catalog.discovery.git import GIT, git_environment
from skillmem_hook.errors import UsageError
from skillmem_hook.visible import shell_word, visible

_ADD = "git config --global --add safe.directory "
_REFUSED = "detected dubious ownership in repository at '"


def repository_error(error: str, hint: str) -> UsageError:
    """The error to raise where git found no work tree: ``error`` and ``hint``, unless git refused one it found."""
    top = refused_repository()
    if top is None:
        return UsageError(error, hint)
    return UsageError(
        f"git refuses the repository at {visible(top)}: another user owns it (git calls it dubious ownership)",
        f"if you trust it, let git read it: {_ADD}{shell_word(top)} (or run as the user who owns it)",
    )


def refused_repository() -> str | None:
    """The top folder of the repository git refuses as another user's, from git's own message; None otherwise."""
    import subprocess  # noqa: PLC0415 - only an error asks: no run that finds its repository pays for it

    environment = git_environment(LC_ALL="C", LANGUAGE="")  # git's message in English, to be read
    watched = git_wait.can_look()
    try:
        process = subprocess.Popen(
            [*GIT, "rev-parse", "--show-toplevel"],
            stdin=subprocess.DEVNULL,  # never the MCP client's stream (an include.path = /dev/stdin)
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
            start_new_session=watched,  # a group of its own, ended whole if it waits on a FIFO
        )
    except OSError:
        return None
    _, error = git_wait.communicate(process, None, watched=watched)
    message = error.decode("utf-8", "surrogateescape")
    if process.returncode == 0 or _REFUSED not in message:
        return None
    rest = message.split(_REFUSED, 1)[1]  # the path as it is, in quotes ('a b', no escapes), then a line break
    here = os.path.realpath(os.getcwd())
    end = rest.find("'\n")
    while end != -1:  # a folder's name may hold "'" and a line break itself: the top is the one holding this folder
        named = rest[:end]
        top = os.path.realpath(named) if os.path.isabs(named) else ""
        if top and (here == top or here.startswith(top.rstrip(os.sep) + os.sep)):
            return named
        end = rest.find("'\n", end + 1)
    return os.getcwd()  # a form of the message git changed: this folder, which git refused
