"""``skillmem lint``: check skills against the spec and for missing files; exit 1 on any error finding.

One JSON line with every finding; ``--text`` prints ``path:line:col: CODE
message`` lines and a summary instead, the form editors and CI read.
"""

from __future__ import annotations

import sys

from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK
from skillmem_hook.lint.files import lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.rules import ERROR
from skillmem_hook.report import emit
from skillmem_hook.streams import write_text
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.lint.files import LintRun


def lint(files: Sequence[str], roots: Sequence[str], *, text: bool, section: dict[str, object] | None = None) -> int:
    run = collect_findings(files, roots, section)
    if text:
        write_text(sys.stdout, describe_findings(run))
    else:
        errors = count_errors(run)
        emit(
            {
                "ok": errors == 0,
                "checked": run.checked,
                "errors": errors,
                "warnings": len(run.findings) - errors,
                "findings": [finding.as_json() for finding in run.findings],
            }
        )
    return EXIT_FINDINGS if count_errors(run) else EXIT_OK


def collect_findings(
    files: Sequence[str], roots: Sequence[str], section: dict[str, object] | None, *, tracked: bool = False
) -> LintRun:
    """Lint with the rules that .skillmem.yaml's ``lint:`` section selects."""
    return lint_paths(files, roots, lint_options(section), tracked=tracked)


def count_errors(run: LintRun) -> int:
    return sum(finding.severity == ERROR for finding in run.findings)


def describe_findings(run: LintRun) -> str:
    """One ``path:line:col: CODE message`` line per finding, then a one-line summary."""
    errors = count_errors(run)
    lines = [visible(finding.as_text()) for finding in run.findings]  # one line each, whatever a path holds
    warnings = len(run.findings) - errors
    lines.append(
        f"skill-lint: {_count(run.checked, 'SKILL.md file')} checked, "
        f"{_count(errors, 'error')}, {_count(warnings, 'warning')}"
    )
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
