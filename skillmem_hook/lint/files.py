"""The I/O edge of lint: read the SKILL.md files to check, and the catalog for repository rules.

The files checked are those named (a commit's files, under pre-commit) or,
when none are, every SKILL.md below the roots. The repository rule for
duplicates uses the whole catalog of the roots, and reports the pairs that
involve a checked file.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.scan import SKILL_FILE, find_skill_files, scan_roots
from skillmem_hook.errors import FileAccessError
from skillmem_hook.lint.check import FileLint, lint_skill_file
from skillmem_hook.lint.rules import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.lint.options import LintOptions

# The body is read whole to find what it points at; past this, a file is not a skill's text.
MAX_LINT_BYTES = 4 * 1024 * 1024


class LintRun:
    __slots__ = ("checked", "findings")

    def __init__(self, findings: list[Finding], checked: int) -> None:
        self.findings = findings
        self.checked = checked


def lint_paths(files: Sequence[str], roots: Sequence[str], options: LintOptions) -> LintRun:
    """Lint the named SKILL.md files (or folders holding one), or every skill of the roots when none are named."""
    targets = [_skill_file(path) for path in files] if files else _all_skill_files(roots)
    results: dict[str, tuple[str, FileLint]] = {}
    for path in targets:
        results[os.path.realpath(path)] = (path, _lint_file(path))
    findings = [finding for _, result in results.values() for finding in result.findings]
    if roots:
        findings += _duplicate_findings(roots, results)
    kept = [finding for finding in findings if options.applies(finding.code, finding.path)]
    kept.sort(key=Finding.sort_key)
    return LintRun(kept, len(targets))


def _skill_file(path: str) -> str:
    return os.path.join(path, SKILL_FILE) if os.path.isdir(path) else path


def _all_skill_files(roots: Sequence[str]) -> list[str]:
    targets: list[str] = []
    for root in roots:
        found, _ = find_skill_files(root)
        targets += [os.path.normpath(file_path) for _, file_path in found]
    return targets


def _lint_file(path: str) -> FileLint:
    skill_dir = os.path.dirname(os.path.abspath(path))

    def exists(relative: str) -> bool:
        return os.path.exists(os.path.join(skill_dir, relative))

    return lint_skill_file(_read(path), path=path, folder=os.path.basename(skill_dir), exists=exists)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read(MAX_LINT_BYTES)
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "pass the path of a SKILL.md") from None


def _duplicate_findings(roots: Sequence[str], results: dict[str, tuple[str, FileLint]]) -> list[Finding]:
    findings: list[Finding] = []
    for dropped, kept in scan_roots(roots).duplicates:
        dropped_file, kept_file = _file_of(dropped), _file_of(kept)
        for own, other in ((dropped_file, kept_file), (kept_file, dropped_file)):
            real = os.path.realpath(own)
            if real in results:
                shown, result = results[real]
                findings.append(
                    Finding(
                        "SK301",
                        shown,
                        result.name_at.line,
                        result.name_at.col,
                        f"skills '{dropped.label}' and '{kept.label}' are one skill to the index "
                        f"(same owner and slug): {own} and {other}; rename or remove one",
                    )
                )
                break
    return findings


def _file_of(skill: Skill) -> str:
    return os.path.normpath(os.path.join(skill.root, skill.path, SKILL_FILE))
