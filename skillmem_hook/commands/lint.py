"""``skillmem lint``: check skills against the spec and for missing files; exit 1 on any error finding.

One JSON line with every finding; ``--text`` prints ``path:line:col: CODE
message`` lines and a summary instead, the form editors and CI read.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook.config import require_roots
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK
from skillmem_hook.lint.files import LintRun, Scope, lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.rules import ERROR
from skillmem_hook.report import emit
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.config import Settings


def lint(
    files: Sequence[str],
    roots: Sequence[str],
    *,
    text: bool,
    section: dict[str, object] | None = None,
    exclude: Sequence[str] = (),
) -> int:
    run = collect_findings(files, Scope(roots, exclude), section)
    if text:
        write_utf8(sys.stdout, describe_findings(run))
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


def collect_findings(files: Sequence[str], roots: Sequence[str] | Scope, section: dict[str, object] | None) -> LintRun:
    """Lint with the rules that .skillmem.yaml's ``lint:`` section selects."""
    return lint_paths(files, roots, lint_options(section))


def lint_hook_run(filenames: Sequence[str], settings: Settings, *, everything: bool) -> int:
    """The ``skill-lint`` hook: lint the skills the commit touches (or those named, or all); report on stderr.

    Inside a work tree the commit decides, as git sees it: every skill that
    owns a path the commit adds, changes, deletes or stops tracking. Names
    that are not all part of the commit (``--all-files``, ``--files``) are
    linted themselves. Either way only skills below the roots and not
    excluded, as ``skillmem lint`` checks.
    """
    from skillmem_hook.catalog.discovery.git import find_work_tree  # noqa: PLC0415
    from skillmem_hook.lint.changes import changed_paths, touched_skills  # noqa: PLC0415

    in_work_tree = find_work_tree() is not None
    roots = settings.roots if filenames and not in_work_tree else require_roots(settings)
    scope = Scope(roots, settings.exclude, tracked=in_work_tree, within_roots=bool(filenames) or in_work_tree)
    if not in_work_tree or everything:
        run = collect_findings([] if everything else filenames, scope, settings.lint)
    else:
        changed = changed_paths()
        named = [os.path.normpath(name) for name in filenames]
        is_commit = changed is not None and set(named) <= {os.path.normpath(path) for path in changed}
        touched = touched_skills(changed if is_commit and changed is not None else named, roots)
        run = collect_findings(touched.skill_files, scope, settings.lint) if touched.skill_files else LintRun([], 0)
        run.total = touched.total
    write_utf8(sys.stderr, describe_findings(run))
    return EXIT_FINDINGS if count_errors(run) else EXIT_OK


def count_errors(run: LintRun) -> int:
    return sum(finding.severity == ERROR for finding in run.findings)


def describe_findings(run: LintRun) -> str:
    """One ``path:line:col: CODE message`` line per finding, then a one-line summary."""
    errors = count_errors(run)
    lines = [finding.as_text() for finding in run.findings]
    warnings = len(run.findings) - errors
    if run.total is not None and run.checked == 0:
        lines.append(f"skill-lint: no skill to check among the changes ({_count(run.total, 'SKILL.md file')} in all)")
    else:
        # "of N": pre-commit splits a long list of files into several runs, each with its own summary.
        checked = _count(run.checked, "SKILL.md file")
        if run.total is not None and run.checked < run.total:
            checked = f"{run.checked} of {_count(run.total, 'SKILL.md file')}"
        lines.append(f"skill-lint: {checked} checked, {_count(errors, 'error')}, {_count(warnings, 'warning')}")
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
