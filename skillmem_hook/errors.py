"""The errors skillmem raises, and the exit code each one maps to.

Inner code raises these; ``report.run_reporting_errors`` is the one place
that turns them into an exit code and an error line (JSON for the CLI, plain
text for the hooks), for the CLI and every hook alike.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # lint: a finding of error severity
EXIT_ERROR = 2
EXIT_DRIFT = 3
EXIT_INTERRUPTED = 130


class SkillmemError(Exception):
    """A failure a user can act on: a message and a hint."""

    exit_code = EXIT_ERROR

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(SkillmemError):
    """The command line or the configuration is wrong."""


class FileAccessError(SkillmemError):
    """A file or folder could not be read or written."""


class GitWouldWait(FileAccessError):
    """git waits, or would, on a file it opens to read (a FIFO no one writes): ended (``discovery/git_wait.py``) or
    refused before it runs. Here, with the other errors, so that code which lets every other git failure pass (the
    rename reading) can name this one."""


class ExcludeFileWouldWait(GitWouldWait):
    """A file git opens for its ignore rules or its attributes would make it wait (a FIFO) or read without end (a
    device): ``catalog/discovery/excludes.py`` refuses it before git runs. Here, with the other errors, so that code
    which lets every other git failure pass can name this one without loading that look."""


class MarkerError(SkillmemError):
    """The prompt file's markers are not exactly one BEGIN line before one END line."""


class HelpShown(Exception):
    """``--help`` or ``--version`` printed its text; the run ends with exit 0."""
