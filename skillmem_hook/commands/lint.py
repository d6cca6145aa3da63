"""``skillmem lint``: check skills against the spec and for missing files; exit 1 on any error finding.

One JSON line with every finding; ``--format text`` (or ``--text``) prints
``path:line:col: CODE message`` lines and a summary instead, the form
editors read; ``github`` prints workflow annotations and ``sarif`` a SARIF
2.1.0 log for code scanning. ``--write-baseline FILE`` records today's
findings, so that ``lint: {baseline: FILE}`` fails only on new ones.
"""

from __future__ import annotations

import os
import sys

from skillmem_hook import __version__
from skillmem_hook.arguments import add_location_options, add_text_option
from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import as_listed, find_work_tree, ignore_rules
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK, UsageError
from skillmem_hook.files import read_regular_file
from skillmem_hook.lint.changes import commit_changes, touched_skills
from skillmem_hook.lint.files import LintRun, Scope, lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.output import (
    LEFT_OUT,
    count_errors,
    describe_findings,
    describe_ignored,
    github_annotations,
    not_shared,
    sarif_log,
    statistics,
)
from skillmem_hook.lint.paths import MISSING, is_inside, resolve_inside
from skillmem_hook.report import emit
from skillmem_hook.streams import write_text, write_utf8
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import command_path, git_add_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence

    from skillmem_hook.config import Settings
    from skillmem_hook.lint.baseline import Folders
    from skillmem_hook.lint.rules import Finding
    from skillmem_hook.lint.writing import Fixes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_text_option(parser, "path:line:col: CODE message lines")
    parser.add_argument(
        "--format",
        choices=("json", "text", "github", "sarif"),
        help="json, text, github (workflow annotations) or sarif (SARIF 2.1.0); default: --text or --json's",
    )
    parser.add_argument(
        "--fix", action="store_true", help="move unknown fields under metadata: and set a name to its valid folder's"
    )
    parser.add_argument(
        "--write-baseline", metavar="FILE", help="record today's findings in FILE (then set lint: {baseline: FILE})"
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="SKILL.md files or folders of skills (default: the roots)"
    )


def run(options: argparse.Namespace) -> int:
    output = "text" if options.text else options.format or "json"
    settings = load_settings(options.root)
    return lint(options.files, settings, output=output, write_baseline=options.write_baseline, fix=options.fix)


def lint(
    files: Sequence[str],
    settings: Settings,
    *,
    output: str = "json",
    write_baseline: str | None = None,
    fix: bool = False,
) -> int:
    # Named files need no root; the roots then only serve the repository rules.
    roots = settings.roots if files else require_roots(settings)
    scope = Scope(roots, settings.exclude, user_roots="roots" in settings.typed, boundary=settings.base)
    if write_baseline is not None:
        run = collect_findings(files, scope, settings, baseline=False)
        return _write_baseline(write_baseline, run, settings.base, text=output == "text")
    fixes = None
    if fix:
        # --fix fixes what the baseline knows too: the baseline says what may pass, not what must stay.
        run = collect_findings(files, scope, settings, baseline=False)
        fixes = fix_findings(run)
        # What is left, as a run after the fix would say; with nothing written, the same findings less the known.
        run = collect_findings(files, scope, settings) if fixes.written else less_known(run, settings)
    else:
        run = collect_findings(files, scope, settings)
    if output == "json":
        errors = count_errors(run)
        emit(
            {
                "ok": errors == 0,
                "checked": run.checked,
                "errors": errors,
                "warnings": len(run.findings) - errors,
                "known": run.known,
                "baseline_gone": run.gone,
                "baseline_ignored": run.baseline_ignored or None,
                "baseline_otherwise": [
                    {"path": finding.path, "code": finding.code, "was": was}
                    for finding, was in run.known_with_another_message
                ],
                "notices": [{"root": root, "notice": LEFT_OUT} for root in run.left_out],
                **(_fix_report(fixes) if fixes else {}),
                "statistics": statistics(run),
                "findings": [finding.as_json() for finding in run.findings],
            }
        )
    else:
        render = {"text": describe_findings, "github": github_annotations}.get(output)
        if render:  # for people (and the workflow log): what a repository's text holds is shown, not acted on
            write_text(sys.stdout, (describe_fixes(fixes) if output == "text" else "") + render(run))
        else:
            write_utf8(sys.stdout, sarif_log(run, __version__))
        if output != "text":  # a machine's form on stdout: the note for people beside it
            write_text(sys.stderr, "".join(line + "\n" for line in describe_ignored(run)))
    return EXIT_FINDINGS if count_errors(run) else EXIT_OK


def collect_findings(files: Sequence[str], scope: Scope, settings: Settings, *, baseline: bool = True) -> LintRun:
    """Lint with the rules that .skillmem.yaml's ``lint:`` section selects, less what its baseline lists."""
    run = lint_paths(files, scope, lint_options(settings.lint))
    return less_known(run, settings) if baseline else run


def less_known(run: LintRun, settings: Settings) -> LintRun:
    """``run`` without the findings .skillmem.yaml's baseline lists, which it counts as ``known``."""
    location = baseline_location(settings)
    if location:
        from skillmem_hook.lint.baseline import (  # noqa: PLC0415 - as above
            known_with_another_message,
            missing_paths,
            read_baseline,
            split_known,
        )

        path, _, boundary = location
        known = read_baseline(path, boundary)
        run.baseline = path
        # Read here and ignored by git: this run passes, and every fresh clone's stops on it (cn2). Asked each run
        # that reads the baseline (one git check-ignore); the run goes on, saying so.
        run.baseline_ignored = _ignore_rule(path) or ""
        every = run.findings
        # The entries' paths are read from the configuration's folder, the findings' from here (a subfolder too).
        folders = (os.getcwd(), boundary)
        run.findings, run.known = split_known(every, known, folders)
        if run.findings:  # asked only when something fails: why a renamed folder's known findings are back
            run.gone = missing_paths(known, boundary)
            run.known_with_another_message = known_with_another_message(run.findings, every, known, folders)
    return run


def baseline_location(settings: Settings) -> tuple[str, str, str] | None:
    """Where the baseline .skillmem.yaml names is: its path from here, the configuration's folder as written, and that
    folder absolute, the boundary the baseline is read within and its entries' paths are read from; None: no baseline.
    """
    baseline = lint_options(settings.lint).baseline
    if not baseline:
        return None
    base = os.path.dirname(settings.config_path or "")
    return os.path.normpath(os.path.join(base, baseline)), base, os.path.abspath(base or ".")


def fix_findings(run: LintRun) -> Fixes:
    """Make the mechanical fixes (``lint/fix.py``) in the files whose findings have one.

    A name becomes its folder's only where SK116 would advise it: not where another skill holds that name or a
    folder of that name (two folders called ``deploy``), which would make the two one skill (SK301).
    """
    from skillmem_hook.lint.writing import FIXABLE, Fixes, apply_fixes  # noqa: PLC0415 - only --fix pays for writing

    paths = sorted({finding.path for finding in run.findings if finding.code in FIXABLE})
    if not paths:
        return Fixes([], [])  # no fix, no git asked for the work tree
    held = {}
    for path in paths:
        folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
        other = run.name_held(path, folder)
        if other:
            held[path] = (
                f"name left as it is: with 'name: {folder}' the index would count this skill and {other} as one;"
                " rename the folder instead"
            )
    return apply_fixes(paths, _work_tree(), held)


def describe_fixes(fixes: Fixes | None) -> str:
    """A line for each file fixed, then one for each fix refused, saying why."""
    if fixes is None:
        return ""
    lines = [visible(f"{path}: fixed") + "\n" for path in fixes.written]
    return "".join(lines + [visible(f"{path}: not fixed: {why}") + "\n" for path, why in fixes.refused])


def _fix_report(fixes: Fixes) -> dict[str, object]:
    return {"fixed": fixes.written, "not_fixed": [{"path": path, "reason": why} for path, why in fixes.refused]}


def _work_tree() -> str | None:
    tree = find_work_tree()
    return os.path.normpath(tree.top) if tree else None


def _write_baseline(path: str, run: LintRun, base: str, *, text: bool = False) -> int:
    """Record ``run``'s findings in ``path``; say which of them the baseline there did not list (none seen yet).

    The entries' paths are relative to ``base`` (the configuration's folder, where the hook reads them), whatever
    the current folder; the findings the report names stay relative to here, as every lint report's.

    A ``path`` that is a link is written through to its target, and stays a link (as ``inject`` writes a linked
    prompt file, and the hook's prune a linked baseline: the path is the user's own).
    """
    from skillmem_hook.atomic import commit_all, stage, staging  # noqa: PLC0415 - only --write-baseline writes
    from skillmem_hook.lint.baseline import render_baseline  # noqa: PLC0415 - only --write-baseline writes

    folders = (os.getcwd(), base)
    data = render_baseline(run.findings, folders)
    before = _previous_baseline(path)
    written = before != data
    if written:
        with staging() as staged:
            stage(staged, os.path.realpath(path), data, label=path)
            commit_all(staged)
    new, dropped = _unlisted_before(run, before, folders)
    ignored = _ignore_rule(path)
    report: dict[str, object] = {
        "ok": True,
        "baseline": path,
        "ignored": ignored,
        "written": written,
        "checked": run.checked,
        "recorded": len(run.findings),
        "first": before is None,
        "new": [finding.as_json() for finding in new],
        "dropped": dropped,
    }
    emit(report, _describe_baseline(new) if text else None)
    return EXIT_OK


def _previous_baseline(path: str) -> bytes | None:
    """The bytes of the baseline ``path`` holds now; None when there is none (or it cannot be read: the write says)."""
    from skillmem_hook.lint.baseline import MAX_BASELINE_BYTES  # noqa: PLC0415 - only --write-baseline

    try:
        return read_regular_file(path, MAX_BASELINE_BYTES)
    except OSError:
        return None


def _unlisted_before(run: LintRun, before: bytes | None, folders: Folders) -> tuple[list[Finding], int]:
    """The findings the earlier baseline did not list (all, for a first one), and how many of its entries go."""
    from skillmem_hook.lint.baseline import parse_baseline, split_known  # noqa: PLC0415 - only --write-baseline

    known = parse_baseline(before) if before is not None else None
    if known is None:
        return list(run.findings), 0
    new, kept = split_known(run.findings, known, folders)
    return new, sum(known.values()) - kept


def _describe_baseline(new: Sequence[Finding]) -> Callable[[dict[str, object]], str]:
    def render(report: dict[str, object]) -> str:
        path, recorded = visible(str(report["baseline"])), int(str(report["recorded"]))
        checked = counted(int(str(report["checked"])), "SKILL.md file")
        done = "written" if report["written"] else "unchanged"
        lines = [f"{path} {done}: {counted(recorded, 'finding')} of {checked} recorded"]
        if report["dropped"]:
            dropped = counted(int(str(report["dropped"])), "entry", "entries")
            lines.append(f"{dropped} of the earlier baseline left out: fixed, changed, or of a path gone")
        if report["first"]:
            lines.append("a first baseline: every finding is recorded (skillmem lint --text listed them)")
        elif new:
            lines.append(f"{counted(len(new), 'finding')} the baseline did not list before, now known:")
            lines += [f"  {visible(finding.as_text())}" for finding in new[:_SHOWN]]
            more = len(new) - _SHOWN
            lines += [f"  ... and {more:,} more (git diff {path} shows them all)"] if more > 0 else []
        rule = report["ignored"]
        return "\n".join(lines) + "\n" + (not_shared(visible(command_path(path)), str(rule)) if rule else "")

    return render


def _ignore_rule(path: str) -> str | None:
    """The rule by which git ignores ``path`` (``.gitignore:5:.lint/``); None when it does not, or there is no git."""
    try:
        return next(iter(ignore_rules([path]).values()), None)
    except UsageError:  # git is not installed: nothing ignores it
        return None


_SHOWN = 10  # the new findings --write-baseline --text names; git diff shows the rest


def lint_hook_run(filenames: Sequence[str], settings: Settings, *, everything: bool, fix: bool = False) -> int:
    """The ``skill-lint`` hook: lint the skills the commit touches (or those named, or all); report on stderr.

    Inside a work tree the commit decides, as git sees it: every skill that
    owns a path the commit adds, changes, deletes or stops tracking. Names
    that are not all part of the commit (``--all-files``, ``--files``) are
    linted themselves. Either way only skills below the roots and not
    excluded, as ``skillmem lint`` checks.
    """
    in_work_tree = find_work_tree() is not None
    roots = settings.roots if filenames and not in_work_tree else require_roots(settings)
    # Outside a work tree with no root known, the names passed are all there is to go by.
    # A hook's roots are the repository's (its args:), never the user's: one outside the repository is not read.
    scope = Scope(roots, settings.exclude, tracked=in_work_tree, within_roots=bool(roots), boundary=settings.base)
    pruned, stop = "", False
    if not in_work_tree or everything:
        run = collect_findings([] if everything else filenames, scope, settings)
    else:
        changes = commit_changes()
        changed = None if changes is None else changes.paths
        named = [as_listed(name) for name in filenames]  # as git lists the commit's paths: absolute ones too
        is_commit = changed is not None and set(named) <= {os.path.normpath(path) for path in changed}
        if is_commit and changes is not None and changes.deleted:
            pruned, stop = prune_deleted(settings, changes.deleted)
        kept = scope.kept_roots()  # git lists no files under a root outside the work tree: it is not linted
        touched = touched_skills(changed if is_commit and changed is not None else named, kept) if kept else None
        if touched and touched.skill_files:
            run = collect_findings(touched.skill_files, scope, settings)
        else:
            run = LintRun([], 0)
        run.total = touched.total if touched else 0
        run.left_out = scope.left_out()
    # Only a file with a finding the baseline does not list is fixed (whole): a baseline adopted today leaves the
    # next commit's files alone, where `skillmem lint --fix`, asked for by hand, fixes every file it can.
    fixes = fix_findings(run) if fix else None
    if fixes and fixes.written:  # pre-commit sees the files change and stops the commit; the report says what is left
        kept_total = run.total
        run = collect_findings(sorted({f.path for f in run.findings}), scope, settings)
        run.total = kept_total
    if run.baseline_ignored and not_shared(visible(command_path(run.baseline)), run.baseline_ignored) in pruned:
        run.baseline_ignored = ""  # the prune said it
    write_text(sys.stderr, describe_fixes(fixes) + describe_findings(run) + pruned)
    return EXIT_FINDINGS if count_errors(run) or stop else EXIT_OK


def prune_deleted(settings: Settings, deleted: Sequence[str]) -> tuple[str, bool]:
    """Drop from the baseline the entries of the SKILL.md files this commit deletes: what was done, for the hook's
    report, and whether the commit stops for the file to be staged.

    The baseline is skillmem's own file (written by ``init`` and ``--write-baseline``), and an entry of a path
    gone matches nothing: pruned as a fixer hook would, the commit stops once so the person stages the file.
    ``deleted``: the commit's own staged deletions (none in a range run; a path gone earlier, or a folder renamed,
    is the failing run's to tell). The baseline is read only when one of them is a SKILL.md (lint's findings are
    of those) inside the baseline's folder, and its entries are compared by their path's letters, so a commit
    that deletes none costs no more than one that touches no skill. It is written only where ``lint --fix``
    writes (``block.targets``: inside the work tree, outside any git directory, through a link only onto a file
    git tracks), through a link onto its target, which stays a link. One git ignores is pruned all the same, and
    the commit goes on: git refuses to stage it, and pre-commit sees no change to stop for.
    """
    location = baseline_location(settings)
    if not location:
        return "", False
    path, base, boundary = location
    candidates = _deleted_skill_files(deleted, boundary)
    if not candidates:
        return "", False
    from skillmem_hook.atomic import commit_all, stage, staging  # noqa: PLC0415 - only a commit deleting a skill
    from skillmem_hook.lint.baseline import (  # noqa: PLC0415 - as above
        read_baseline_file,
        render_entries,
        without_paths,
    )

    real, data, known = read_baseline_file(path, boundary)
    walked: list[str] = []
    listed = {key[0] for key in known} & candidates
    # Still on disk (git rm --cached), a SKILL.md keeps its entries: `skillmem lint` by hand still finds it.
    gone = set()
    for name in sorted(listed):
        if resolve_inside(boundary, os.path.join(boundary, name), walked) == MISSING:
            gone.add(name)
    if not gone:
        return "", False
    kept = without_paths(known, gone)
    removed = counted(sum(known.values()) - sum(kept.values()), "finding")
    what = f"{removed} of {counted(len(gone), 'deleted path')}"
    names = ", ".join(visible(name) for name in sorted(gone))
    refused = _baseline_refused(path, base)
    if refused:
        return f"skill-lint: {what} not removed from the baseline ({names}): {visible(refused)}\n", False
    with staging() as staged:
        stage(staged, real, render_entries(kept), label=path, expected=data)
        commit_all(staged)
    shown, written = visible(command_path(path)), os.path.relpath(real)
    through = "" if real == os.path.abspath(path) else f" -> {visible(command_path(written))}"  # a link: its target
    said = f"skill-lint: removed {what} from the baseline {shown}{through} ({names}):"
    # Asked after the write, though the prune does not depend on it: check-ignore reads the path, not its bytes,
    # and its answer only says whether the commit stops for the file to be staged. The order matters only when
    # git itself is refused (a FIFO .gitignore on the way: exit 2), and then what is left, the pruned baseline
    # unstaged, is harmless: pre-commit and prek set unstaged changes aside while hooks run, so the next commit
    # prunes the staged baseline again and asks for it to be staged.
    rule = next(iter(ignore_rules([written]).values()), None)
    if rule:  # git refuses to add it; its change is none pre-commit sees, so the commit goes on
        return f"{said} git ignores it, so there is nothing to stage\n{not_shared(shown, rule)}", False
    return f"{said} git add {visible(git_add_path(written))}, then commit again\n", True


def _deleted_skill_files(deleted: Sequence[str], boundary: str) -> set[str]:
    """The SKILL.md files among ``deleted`` (relative to here) inside ``boundary``, as a baseline names them."""
    found = set()
    for name in deleted:
        absolute = os.path.abspath(name)
        if os.path.basename(absolute) == SKILL_FILE and is_inside(boundary, absolute):
            found.add(os.path.relpath(absolute, boundary).replace(os.sep, "/"))
    return found


def _baseline_refused(path: str, base: str) -> str:
    """Why the hook may not rewrite the baseline ``path``: ``lint --fix``'s rule for a repository's paths; ""."""
    from skillmem_hook.block.targets import refused_targets  # noqa: PLC0415 - only a commit deleting a skill

    refused = refused_targets([(path, "the lint baseline")], base or ".").get(path)
    return f"{refused.message}; the hook writes only where git diff shows it" if refused else ""
