"""The I/O edge of lint: read the SKILL.md files to check, and the catalog for repository rules.

The files checked are those named (a commit's files, under pre-commit) or,
when none are, every SKILL.md below the roots. The repository rule for
duplicates uses the whole catalog of the roots, and reports the pairs that
involve a checked file.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery.git import WorkTreeMoved, find_work_tree
from skillmem_hook.catalog.discovery.walk import find_skill_files
from skillmem_hook.catalog.listing import outside_notices
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skills import SkillProblem
from skillmem_hook.errors import FileAccessError, UsageError
from skillmem_hook.lint.check import FileLint, lint_skill_file
from skillmem_hook.lint.paths import is_inside
from skillmem_hook.lint.reading import LeavesRepository, existence, read_skill_file, subfolders, tracked_files
from skillmem_hook.lint.repository import (
    Linted,
    Listed,
    TakenNames,
    advise_taken_names,
    duplicate_findings,
    index_entry,
    is_excluded,
    other_holder,
    ranking_findings,
    taken_in,
)
from skillmem_hook.lint.rules import QUALITY, RULES, START, Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.lint.options import LintOptions


class LintRun:
    """The findings, how many SKILL.md files were checked, and of how many below the roots (None: not counted).

    ``known``: how many more findings the baseline lists (left out of ``findings``); ``gone``: the paths the
    baseline lists that no longer exist (a folder renamed brings its known findings back under the new path);
    ``baseline``: the baseline file read, as the configuration names it from the working folder ("": none);
    ``left_out``: the roots the repository names outside it, which lint did not read (``Scope.left_out``);
    ``known_with_another_message``: each new finding the baseline knows with another message, and that message;
    ``baseline_ignored``: the rule by which git ignores that baseline (``.gitignore:1:.lint/``), "": none;
    ``name_held``: (a SKILL.md's path, a name) -> another skill's SKILL.md that holds that name, from the
    configuration's folder ("": none), as SK116's advice asks it (``lint --fix`` asks it too).
    """

    __slots__ = (
        "baseline",
        "baseline_ignored",
        "checked",
        "findings",
        "gone",
        "known",
        "known_with_another_message",
        "left_out",
        "name_held",
        "total",
    )

    def __init__(self, findings: list[Finding], checked: int, total: int | None = None) -> None:
        self.findings = findings
        self.checked = checked
        self.total = total
        self.known = 0
        self.gone: list[str] = []
        self.baseline = ""
        self.baseline_ignored = ""
        self.left_out: list[str] = []
        self.known_with_another_message: list[tuple[Finding, str]] = []
        self.name_held: Callable[[str, str], str] = lambda path, name: ""


class Scope:
    """What to lint beyond the files named: the roots, the ``exclude:`` patterns, and git's view or the disk's.

    ``user_roots``: the user named the roots (``--root``), as ``Settings.catalog_options`` says; else the
    repository did (its ``.skillmem.yaml``, a hook's ``args:``, a common layout), and a root of theirs that lies
    outside the repository (``boundary``: its folder when git finds no work tree) is neither walked nor read:
    lint reads nothing outside the repository. Such roots are ``left_out``.

    ``base``: the folder the paths inside a finding's message and the ``per_path_ignores`` globs are relative to,
    whatever the current folder (the baseline keys on the message): given, else ``boundary`` (the configuration's
    folder, or the repository's top without one, where the baseline's paths are read from), else the current one.
    """

    __slots__ = (
        "_catalog",
        "_kept",
        "base",
        "boundary",
        "exclude",
        "roots",
        "tracked",
        "user_roots",
        "within_roots",
    )

    def __init__(
        self,
        roots: Sequence[str],
        exclude: Sequence[str] = (),
        *,
        tracked: bool = False,
        within_roots: bool = False,
        user_roots: bool = False,
        boundary: str | None = None,
        base: str | None = None,
    ) -> None:
        self.roots = list(roots)
        self.exclude = list(exclude)
        self.tracked = tracked
        # The hook: a named file outside the roots, or excluded, is not linted (as `skillmem lint` would not).
        self.within_roots = within_roots
        self.user_roots = user_roots
        self.boundary = boundary
        self.base = os.path.abspath(base or boundary or ".")
        self._catalog: Catalog | None = None
        self._kept: list[str] | None = None

    def kept_roots(self) -> list[str]:
        """The roots lint walks and reads: all the user's; of the repository's, those inside it."""
        if self._kept is None:
            self._kept = list(self.roots)
            if not self.user_roots and self.roots:
                left_out = {notice["root"] for notice in outside_notices(self.roots, self._options())}
                self._kept = [root for root in self.roots if root not in left_out]
        return self._kept

    def left_out(self) -> list[str]:
        """The repository's roots that lie outside it, which lint does not read."""
        kept = self.kept_roots()
        return [root for root in self.roots if root not in kept]

    def catalog(self) -> Catalog:
        """The kept roots' catalog, as the index reads it (git's view with ``tracked``); built once."""
        if self._catalog is None:
            self._catalog = scan_roots(self.kept_roots(), self._options())
        return self._catalog

    def _options(self) -> CatalogOptions:
        # No body sections (search's field): lint has no use for them, and it shares the hooks' kept catalog.
        return CatalogOptions(
            tracked=self.tracked,
            exclude=self.exclude,
            sections=False,
            user_roots=self.user_roots,
            boundary=self.boundary,
        )


def lint_paths(files: Sequence[str], roots: Sequence[str] | Scope, options: LintOptions) -> LintRun:
    """Lint the named SKILL.md files (or folders holding one), or every skill of the roots when none are named.

    The commands pass a ``Scope`` that knows who named the roots; a plain list is taken as the caller's own.
    With ``tracked`` (the hook, inside a git work tree): a file a named
    SKILL.md points at must be one git tracks, since the commit must hold
    it; and duplicates are sought among the skills git tracks.
    """
    scope = roots if isinstance(roots, Scope) else Scope(roots, user_roots=True)  # a list: the caller's own roots
    quality = any(RULES[code].group == QUALITY for code in options.enabled)
    top = _work_tree_top()
    if files:
        findings, result_of = _lint_named(files, scope, quality, top)
    else:
        findings, result_of = _lint_roots(scope, quality, top)
    taken = _TakenOnce(result_of.taken, scope)
    if scope.kept_roots() and "SK116" in options.enabled:
        advise_taken_names(findings, taken.names, scope.base)
    if "SK501" in options.enabled and scope.kept_roots():
        findings += ranking_findings(scope.catalog(), result_of)
    kept = [finding for finding in findings if options.applies(finding.code, from_base(finding.path, scope.base))]
    for finding in kept:
        finding.level = options.severity.get(finding.code)
    kept.sort(key=Finding.sort_key)
    run = LintRun(kept, result_of.checked)
    run.left_out = scope.left_out()
    if scope.kept_roots():
        run.name_held = lambda path, name: other_holder(taken.names(), path, name, scope.base)
    return run


class _TakenOnce:
    """The names the skills of the roots hold: those lint read over the roots, else the catalog's; built once."""

    __slots__ = ("_scope", "_taken")

    def __init__(self, taken: TakenNames | None, scope: Scope) -> None:
        self._taken = taken
        self._scope = scope

    def names(self) -> TakenNames:
        if self._taken is None:
            self._taken = taken_in(self._scope.catalog())
        return self._taken


def _lint_named(files: Sequence[str], scope: Scope, quality: bool, top: str | None) -> tuple[list[Finding], Linted]:
    """The named files' findings; duplicates from the roots' catalog, those that involve a named file."""
    paths = [(path, name) for name in files for path in _named_skill_files(name)]
    if scope.within_roots:
        paths = [(path, name) for path, name in paths if _below_a_root(path, scope.kept_roots())]
    in_index = tracked_files([os.path.dirname(os.path.abspath(path)) for path, _ in paths]) if scope.tracked else None
    results: dict[object, tuple[str, FileLint]] = {}
    for path, name in paths:
        absolute = os.path.abspath(path)
        boundary = top if top and is_inside(top, absolute) else _folder_of(os.path.abspath(name))
        exclude = scope.exclude if scope.within_roots else ()
        result = _lint_file(
            path, absolute, boundary, quality=quality, in_index=in_index, exclude=exclude, base=scope.base
        )
        if result is not None:
            results[os.path.normpath(absolute)] = (path, result)
    findings = [finding for _, result in results.values() for finding in result.findings]
    linted = Linted(results, lambda root, path: os.path.abspath(os.path.join(root, path, SKILL_FILE)))
    if scope.kept_roots():
        for dropped, kept in scope.catalog().duplicates:
            pair = ((dropped.root, dropped.path, dropped.label), (kept.root, kept.path, kept.label))
            findings += duplicate_findings(pair, linted, scope.base)
    return findings, linted


def _named_skill_files(name: str) -> list[str]:
    """A SKILL.md named, the one in a skill folder named, or every one below a folder of skills."""
    if not os.path.isdir(name) or os.path.lexists(os.path.join(name, SKILL_FILE)):
        return [os.path.join(name, SKILL_FILE) if os.path.isdir(name) else name]
    return [os.path.normpath(os.fsdecode(found.file_path)) for found in find_skill_files(name)[0]]


def _lint_roots(scope: Scope, quality: bool, top: str | None) -> tuple[list[Finding], Linted]:
    """Every skill's findings, the duplicates among them and the names they hold, from one read of each file (as
    scan_roots reads): SK116's advice then builds no catalog."""
    results: dict[object, tuple[str, FileLint]] = {}
    taken = TakenNames()
    first_of_key: dict[tuple[str, str], Listed] = {}
    duplicates: list[tuple[Listed, Listed]] = []
    seen: set[str] = set()  # a SKILL.md two roots reach through a link is checked once, as the index lists it once
    for root in scope.kept_roots():
        real_root = os.path.realpath(root)  # the root is the configuration's choice; what is below it is checked
        boundary = top if top and is_inside(top, real_root) else real_root
        found, _ = find_skill_files(root, user_root=scope.user_roots, boundary=scope.boundary)
        for skill_file in found:
            relative, path = skill_file.relative, os.path.normpath(os.fsdecode(skill_file.file_path))
            absolute = os.path.normpath(os.path.join(real_root, relative, SKILL_FILE))
            if absolute in seen:
                continue
            seen.add(absolute)
            data = _read_or_none(path, absolute, boundary)
            if data is None:
                continue  # the walk keeps links inside the root; one swapped for a link since is left out
            folder = os.path.basename(real_root) if relative == "." else relative.rsplit("/", 1)[-1]
            lint = _lint_data(path, absolute, data, boundary, quality=quality, in_index=None)
            try:
                key, listed = index_entry(data, root, relative, folder, lint.declared)
            except SkillProblem:
                key, listed = None, (root, relative, "")
            if key is not None and is_excluded(listed[2], scope.exclude):
                continue
            results[(root, relative)] = (path, lint)
            if key is None:
                continue  # the index skips the file; its own findings say why
            taken.add(root, relative, key[0], _name_in(listed[2], key[0]))
            first = first_of_key.setdefault(key, listed)
            if first is not listed:
                duplicates.append((listed, first))
    findings = [finding for _, result in results.values() for finding in result.findings]
    linted = Linted(results, lambda root, path: (root, path), taken)
    for pair in duplicates:
        findings += duplicate_findings(pair, linted, scope.base)
    return findings, linted


def _name_in(label: str, owner: str) -> str:
    """The skill's name in its index label (``@owner/name`` or ``name``)."""
    return label[len(owner) + 1 :] if owner else label


def _lint_file(
    path: str,
    absolute: str,
    boundary: str,
    *,
    quality: bool,
    in_index: set[str] | None,
    exclude: Sequence[str],
    base: str,
) -> FileLint | None:
    """The findings of one named SKILL.md; None when ``exclude`` leaves its skill out."""
    try:
        data = read_skill_file(path, boundary)
    except LeavesRepository:
        message = "SKILL.md is a link that leads out of the repository; lint does not read it: commit the file itself"
        return FileLint([Finding("SK204", path, 1, 1, message)], START)
    if exclude:
        skill_dir = os.path.dirname(absolute)
        try:
            _, (_, _, label) = index_entry(data, "", os.path.basename(skill_dir), os.path.basename(skill_dir))
        except SkillProblem:
            label = ""
        if label and is_excluded(label, exclude):
            return None
    return _lint_data(path, absolute, data, boundary, quality=quality, in_index=in_index, base=base)


def _lint_data(
    path: str,
    absolute: str,
    data: bytes,
    boundary: str,
    *,
    quality: bool,
    in_index: set[str] | None,
    base: str | None = None,
) -> FileLint:
    skill_dir = os.path.dirname(absolute)
    return lint_skill_file(
        data,
        path=path,
        folder=os.path.basename(skill_dir),
        subfolders=subfolders(skill_dir),
        exists=existence(skill_dir, boundary, in_index, base),
        quality=quality,
    )


def _read_or_none(path: str, absolute: str, boundary: str) -> bytes | None:
    try:
        return read_skill_file(absolute, boundary)
    except LeavesRepository:
        return None
    except FileAccessError as error:
        raise FileAccessError(error.message.replace(absolute, path), error.hint) from None


def from_base(path: str, base: str) -> str:
    """``path`` (relative to the current folder, or absolute) as written from ``base``, with '/' between folders."""
    try:
        return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")
    except ValueError:  # on Windows, another drive: no path from base leads there
        return path.replace(os.sep, "/")


def _below_a_root(path: str, roots: Sequence[str]) -> bool:
    absolute = os.path.abspath(path)
    return any(is_inside(os.path.abspath(root), absolute) for root in roots)


def _folder_of(path: str) -> str:
    return path if os.path.isdir(path) else os.path.dirname(path)


def _work_tree_top() -> str | None:
    try:
        tree = find_work_tree()
    except WorkTreeMoved:
        raise
    except UsageError:  # git is not installed: no repository to stay inside but the folders named
        return None
    return os.path.normpath(tree.top) if tree else None
