"""The I/O edge of lint: read the SKILL.md files to check, and the catalog for repository rules.

The files checked are those named (a commit's files, under pre-commit) or,
when none are, every SKILL.md below the roots. The repository rule for
duplicates uses the whole catalog of the roots, and reports the pairs that
involve a checked file.
"""

from __future__ import annotations

import os
import stat
import unicodedata

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery.walk import SKILL_FILE, find_skill_files
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skillfile.declared import read_skill_text
from skillmem_hook.catalog.skillfile.names import check_name, slug_of
from skillmem_hook.catalog.skills import SkillProblem, owner_of
from skillmem_hook.errors import FileAccessError
from skillmem_hook.files import kind_of
from skillmem_hook.lint.check import FileLint, lint_skill_file
from skillmem_hook.lint.rules import QUALITY, RULES, Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from skillmem_hook.lint.options import LintOptions

# A skill as duplicates need it: its root, its folder relative to the root, its label in the index.
Listed = tuple[str, str, str]

# The body is read whole to find what it points at; past this, a file is not a skill's text.
MAX_LINT_BYTES = 4 * 1024 * 1024


class LintRun:
    __slots__ = ("checked", "findings")

    def __init__(self, findings: list[Finding], checked: int) -> None:
        self.findings = findings
        self.checked = checked


def lint_paths(files: Sequence[str], roots: Sequence[str], options: LintOptions, *, tracked: bool = False) -> LintRun:
    """Lint the named SKILL.md files (or folders holding one), or every skill of the roots when none are named.

    ``tracked`` (the hook, inside a git work tree): a file a named SKILL.md
    points at must be one git tracks, since the commit must hold it; and
    duplicates are sought among the skills git tracks.
    """
    quality = any(RULES[code].group == QUALITY for code in options.enabled)
    if files:
        findings, checked = _lint_named(files, roots, quality, tracked=tracked)
    else:
        findings, checked = _lint_roots(roots, quality)
    kept = [finding for finding in findings if options.applies(finding.code, finding.path)]
    kept.sort(key=Finding.sort_key)
    return LintRun(kept, checked)


def _lint_named(
    files: Sequence[str], roots: Sequence[str], quality: bool, *, tracked: bool
) -> tuple[list[Finding], int]:
    """The named files' findings; duplicates from the roots' catalog, those that involve a named file."""
    paths = [path for name in files for path in _named_skill_files(name)]
    in_index = _tracked_files([os.path.dirname(os.path.abspath(path)) for path in paths]) if tracked else None
    results: dict[str, tuple[str, FileLint]] = {}
    for path in paths:
        results[os.path.realpath(path)] = (path, _lint_file(path, _read(path), quality, in_index))
    findings = [finding for _, result in results.values() for finding in result.findings]
    if roots:
        for dropped, kept in scan_roots(roots, CatalogOptions(tracked=tracked)).duplicates:
            pair = ((dropped.root, dropped.path, dropped.label), (kept.root, kept.path, kept.label))
            findings += _duplicate_findings(pair, lambda listed: results.get(os.path.realpath(_file_of(listed))))
    return findings, len(results)


def _named_skill_files(name: str) -> list[str]:
    """A SKILL.md named, the one in a skill folder named, or every one below a folder of skills."""
    if not os.path.isdir(name) or os.path.exists(os.path.join(name, SKILL_FILE)):
        return [os.path.join(name, SKILL_FILE) if os.path.isdir(name) else name]
    return [os.path.normpath(os.fsdecode(found.file_path)) for found in find_skill_files(name)[0]]


def _lint_roots(roots: Sequence[str], quality: bool) -> tuple[list[Finding], int]:
    """Every skill's findings, and the duplicates among them, from one read of each file (as scan_roots reads)."""
    results: dict[tuple[str, str], tuple[str, FileLint]] = {}
    first_of_key: dict[tuple[str, str], Listed] = {}
    duplicates: list[tuple[Listed, Listed]] = []
    for root in roots:
        found, _ = find_skill_files(root)
        for skill_file in found:
            relative, path = skill_file.relative, os.path.normpath(os.fsdecode(skill_file.file_path))
            data = _read(path)
            results[(root, relative)] = (path, _lint_file(path, data, quality))
            folder = os.path.basename(os.path.realpath(root)) if relative == "." else relative.rsplit("/", 1)[-1]
            try:
                key, listed = _index_entry(data, root, relative, folder)
            except SkillProblem:
                continue  # the index skips the file; its own findings say why
            first = first_of_key.setdefault(key, listed)
            if first is not listed:
                duplicates.append((listed, first))
    findings = [finding for _, result in results.values() for finding in result.findings]
    for pair in duplicates:
        findings += _duplicate_findings(pair, lambda listed: results.get((listed[0], listed[1])))
    return findings, len(results)


def _index_entry(data: bytes, root: str, relative: str, folder: str) -> tuple[tuple[str, str], Listed]:
    """The (owner, slug) the index de-duplicates this skill by, and its (root, path, label).

    What ``catalog.skills.make_skill`` does, without sorting the skill into a
    domain, which duplicates do not need and which costs more than the rest.
    """
    text = read_skill_text(data)
    name = _nfc(text.name) or _nfc(folder)
    owner = owner_of(relative)
    label = f"{owner}/{name}" if owner else name
    check_name(label)
    return (owner, slug_of(name)), (root, relative, label)


def _nfc(text: str | None) -> str:
    return unicodedata.normalize("NFC", text.strip()) if text else ""


def _duplicate_findings(
    pair: tuple[Listed, Listed], result_of: Callable[[Listed], tuple[str, FileLint] | None]
) -> list[Finding]:
    """One SK301 on the first of the two skills (dropped, kept) that was linted, naming the other's file."""
    dropped, kept = pair
    for own, other in ((dropped, kept), (kept, dropped)):
        result = result_of(own)
        if result is not None:
            shown, lint = result
            message = (
                f"the index counts this skill and {_file_of(other)} as one skill '{kept[2]}' "
                "(same owner and slug); rename or remove one"
            )
            return [Finding("SK301", shown, lint.name_at.line, lint.name_at.col, message)]
    return []


def _tracked_files(folders: Sequence[str]) -> set[str]:
    """Every path git's index holds below the folders, and the folders on the way: absolute, normalised."""
    from skillmem_hook.catalog.discovery.git import tracked_entries  # noqa: PLC0415

    paths: set[str] = set()
    for entry in tracked_entries([os.path.relpath(folder) for folder in folders] or ["."], everything=True):
        path = os.path.abspath(entry.path)
        while path not in paths and path != os.path.dirname(path):
            paths.add(path)
            path = os.path.dirname(path)
    return paths


def _lint_file(path: str, data: bytes, quality: bool, in_index: set[str] | None = None) -> FileLint:
    skill_dir = os.path.dirname(os.path.abspath(path))

    def exists(relative: str) -> bool:
        target = os.path.normpath(os.path.join(skill_dir, relative))
        return os.path.exists(target) if in_index is None else target in in_index

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
        # O_NONBLOCK: a FIFO with no writer would otherwise wait forever.
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", "pass the path of a SKILL.md") from None
    try:
        kind = os.fstat(handle).st_mode
        if not stat.S_ISREG(kind):
            raise FileAccessError(
                f"cannot read {path}: {kind_of(kind)}, not a regular file", "pass the path of a SKILL.md"
            )
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


def _file_of(listed: Listed) -> str:
    root, path, _ = listed
    return os.path.normpath(os.path.join(root, path, SKILL_FILE))
