"""The I/O edge of lint: read the SKILL.md files to check, and the catalog for repository rules.

The files checked are those named (a commit's files, under pre-commit) or,
when none are, every SKILL.md below the roots. The repository rule for
duplicates uses the whole catalog of the roots, and reports the pairs that
involve a checked file.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.scan import SKILL_FILE, find_skill_files, scan_roots
from skillmem_hook.catalog.skills import SkillProblem, deduplicate, parse_skill
from skillmem_hook.errors import FileAccessError
from skillmem_hook.lint.check import FileLint, lint_skill_file
from skillmem_hook.lint.rules import QUALITY, RULES, Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

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
    quality = any(RULES[code].group == QUALITY for code in options.enabled)
    findings, checked = _lint_named(files, roots, quality) if files else _lint_roots(roots, quality)
    kept = [finding for finding in findings if options.applies(finding.code, finding.path)]
    kept.sort(key=Finding.sort_key)
    return LintRun(kept, checked)


def _lint_named(files: Sequence[str], roots: Sequence[str], quality: bool) -> tuple[list[Finding], int]:
    """The named files' findings; duplicates from the roots' catalog, those that involve a named file."""
    results: dict[str, tuple[str, FileLint]] = {}
    for name in files:
        path = os.path.join(name, SKILL_FILE) if os.path.isdir(name) else name
        results[os.path.realpath(path)] = (path, _lint_file(path, _read(path), quality))
    findings = [finding for _, result in results.values() for finding in result.findings]
    if roots:
        for pair in scan_roots(roots).duplicates:
            findings += _duplicate_findings(pair, lambda skill: results.get(os.path.realpath(_file_of(skill))))
    return findings, len(results)


def _lint_roots(roots: Sequence[str], quality: bool) -> tuple[list[Finding], int]:
    """Every skill's findings, and the duplicates among them, from one read of each file (as scan_roots reads)."""
    results: dict[tuple[str, str], tuple[str, FileLint]] = {}
    skills: list[Skill] = []
    for root in roots:
        found, _ = find_skill_files(root)
        for relative, file_path in found:
            path = os.path.normpath(file_path)
            data = _read(path)
            results[(root, relative)] = (path, _lint_file(path, data, quality))
            folder = os.path.basename(os.path.realpath(root)) if relative == "." else relative.rsplit("/", 1)[-1]
            try:
                skills.append(parse_skill(data, path=relative, folder=folder, root=root))
            except SkillProblem:
                continue  # the file's own findings say why
    findings = [finding for _, result in results.values() for finding in result.findings]
    for pair in deduplicate(skills)[1]:
        findings += _duplicate_findings(pair, lambda skill: results.get((skill.root, skill.path)))
    return findings, len(results)


def _duplicate_findings(
    pair: tuple[Skill, Skill], result_of: Callable[[Skill], tuple[str, FileLint] | None]
) -> list[Finding]:
    """One SK301 on the first of the two skills that was linted, naming the other's file."""
    dropped, kept = pair
    for own, other in ((dropped, kept), (kept, dropped)):
        result = result_of(own)
        if result is not None:
            shown, lint = result
            message = (
                f"the index counts this skill and {_file_of(other)} as one skill '{kept.label}' "
                "(same owner and slug); rename or remove one"
            )
            return [Finding("SK301", shown, lint.name_at.line, lint.name_at.col, message)]
    return []


def _lint_file(path: str, data: bytes, quality: bool) -> FileLint:
    skill_dir = os.path.dirname(os.path.abspath(path))

    def exists(relative: str) -> bool:
        return os.path.exists(os.path.join(skill_dir, relative))

    return lint_skill_file(
        data,
        path=path,
        folder=os.path.basename(skill_dir),
        subfolders=_subfolders(skill_dir),
        exists=exists,
        quality=quality,
    )


def _subfolders(skill_dir: str) -> list[str]:
    try:
        names = os.listdir(skill_dir)
    except OSError:
        return []
    # Most skill folders hold SKILL.md alone: then no entry needs a stat.
    return [name for name in names if name != SKILL_FILE and os.path.isdir(os.path.join(skill_dir, name))]


def _read(path: str) -> bytes:
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "pass the path of a SKILL.md") from None
    try:
        chunks = []
        size = 0
        while size < MAX_LINT_BYTES and (chunk := os.read(handle, MAX_LINT_BYTES - size)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "pass the path of a SKILL.md") from None
    finally:
        os.close(handle)


def _file_of(skill: Skill) -> str:
    return os.path.normpath(os.path.join(skill.root, skill.path, SKILL_FILE))
