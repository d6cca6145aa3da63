"""Lint from the first commit: today's findings, which init records as the baseline ``skill-lint`` reads.

A repository with thousands of old findings then commits, and a new skill
with invalid frontmatter or a missing file is stopped at its commit. The
findings are those the hook will report for the same skills: the roots'
SKILL.md files, linted from the repository's top with the configured
rules, paths relative to the top.
"""

from __future__ import annotations

import contextlib
import os

from skillmem_hook.lint.baseline import read_baseline, split_known
from skillmem_hook.lint.files import Scope, lint_paths
from skillmem_hook.lint.options import lint_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from skillmem_hook.config import Settings
    from skillmem_hook.lint.rules import Finding

BASELINE_FILE = ".skillmem-lint-baseline.json"


def todays_findings(top: str, settings: Settings, *, known: bool) -> list[Finding]:
    """The findings of every skill below the roots; with ``known``, less those the configured baseline lists."""
    options = lint_options(settings.lint)
    with _working_in(top):  # the hook runs at the top: its paths, and so the baseline's, are relative to it
        user_roots = "roots" in settings.typed
        scope = Scope(settings.roots, settings.exclude, user_roots=user_roots, boundary=settings.base, base=top)
        findings = lint_paths([], scope, options).findings
        if known and options.baseline:
            findings, _ = split_known(findings, read_baseline(options.baseline, os.getcwd()))
    return findings


@contextlib.contextmanager
def _working_in(folder: str) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)
