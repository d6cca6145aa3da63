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
from collections import Counter

from skillmem_hook.lint.baseline import read_baseline, split_known
from skillmem_hook.lint.files import Scope, lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.rules import ERROR
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import command_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from skillmem_hook.config import Settings
    from skillmem_hook.lint.rules import Finding

BASELINE_FILE = ".skillmem-lint-baseline.json"
NAMED_AT_MOST = 5  # findings init names one by one; more are counted, and listed in the baseline
_CODES_SAID = 5  # the errors' most common codes said, when there are more than NAMED_AT_MOST findings


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


def counted_findings(findings: Sequence[Finding]) -> str:
    """``1 error``, ``3 warnings``, ``101: 95 errors, 6 warnings``: the errors apart from the warnings."""
    errors = sum(1 for finding in findings if finding.severity == ERROR)
    parts = [counted(number, noun) for number, noun in ((errors, "error"), (len(findings) - errors, "warning"))]
    said = [part for part, number in zip(parts, (errors, len(findings) - errors)) if number]
    return said[0] if len(said) == 1 else f"{len(findings):,}: {', '.join(said)}"


def baseline_notes(findings: Sequence[Finding], baseline: str, top: str = ".") -> list[str]:
    """What init's baseline keeps quiet: the errors, which skill-lint would stop at a commit, said apart (their
    codes when many), and every finding named when there are at most ``NAMED_AT_MOST``, errors first. ``baseline``
    is relative to ``top``; the command names it from the current folder."""
    errors = [finding for finding in findings if finding.severity == ERROR]
    few = len(findings) <= NAMED_AT_MOST
    if errors:
        notes = [_errors_note(errors, baseline, top, codes=not few)]
    else:
        notes = [f"the baseline {baseline} records {counted(len(findings), 'warning')}, which skill-lint allows"] * few
    if few:
        ordered = sorted(findings, key=lambda finding: (finding.severity != ERROR, finding.sort_key()))
        notes += [f"{it.severity}: {it.path}:{it.line}:{it.col}: {it.code} {it.message}" for it in ordered]
    return notes


def _errors_note(errors: Sequence[Finding], baseline: str, top: str, *, codes: bool) -> str:
    """The errors the baseline holds, with their most common codes when ``codes``, and how to drop them."""
    said = ""
    if codes:
        common = Counter(finding.code for finding in errors).most_common()
        listed = [f"{code} {count:,}" for code, count in common[:_CODES_SAID]] + ["..."] * (len(common) > _CODES_SAID)
        said = f" ({', '.join(listed)}; each is listed in {baseline})"
    it, files = ("it", "its SKILL.md") if len(errors) == 1 else ("them", "their SKILL.md files")
    write = f"skillmem lint --write-baseline {command_path(baseline, os.path.relpath(top))}"
    return (
        f"the baseline {baseline} holds {counted(len(errors), 'error')}{said}, which skill-lint would otherwise stop"
        f" at a commit of {files}: in skills you own, fix {it}, then {write} to drop {it} from the baseline"
    )
