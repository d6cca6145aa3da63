"""What ``skillmem init`` would write: each file's bytes now and after, decided before anything is written.

Every refusal (``checks``) happens here, before ``commands/init.py``
writes the first byte: all of the changes or none.
"""

from __future__ import annotations

import json
import os

from skillmem_hook.adopt import checks
from skillmem_hook.adopt.advice import block_size_note, discovery_note, left_out_note, lint_fix_note, warnings_note
from skillmem_hook.adopt.attributes import add_attributes
from skillmem_hook.adopt.found import find_prompt_files, find_roots
from skillmem_hook.adopt.lint_baseline import BASELINE_FILE, baseline_notes, counted_findings, todays_findings
from skillmem_hook.adopt.precommit_config import add_hooks, has_skillmem_hooks, repin
from skillmem_hook.adopt.skills import committed_skills
from skillmem_hook.block.drift import Drift
from skillmem_hook.block.prompt_file import read_prompt_file
from skillmem_hook.block.targets import check_repository_targets
from skillmem_hook.config import Settings
from skillmem_hook.config_file import CONFIG_FILE, ConfigFile, read_config_file
from skillmem_hook.errors import FileAccessError, UsageError
from skillmem_hook.files import NotARegularFile, read_regular_file
from skillmem_hook.lint.baseline import render_baseline
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import command_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.adopt.source import HookSource
    from skillmem_hook.catalog.skills import Skill

PRECOMMIT_CONFIG = ".pre-commit-config.yaml"
ATTRIBUTES = ".gitattributes"
OWN_FILES = (CONFIG_FILE, PRECOMMIT_CONFIG, ATTRIBUTES, BASELINE_FILE)


class FileChange:
    """One file init writes: its path relative to the top, the bytes it holds (None: absent) and will hold."""

    __slots__ = ("after", "before", "path", "why")

    def __init__(self, path: str, before: bytes | None, after: bytes, why: str) -> None:
        self.path = path
        self.before = before
        self.after = after
        self.why = why

    @property
    def action(self) -> str:
        return "unchanged" if self.before == self.after else "created" if self.before is None else "updated"


class InitPlan:
    """The settings init works with, every file change, whether .skillmem.yaml was kept, and notes for the person.

    ``kept_files``: the kept .skillmem.yaml's baseline, which init keeps as it is; the commit it asks for holds it.
    ``ignored_prompt_files``: the prompt files it names that git ignores, left out of ``settings`` as the hooks
    leave them out of a commit; those that exist here are ``local_prompt_files``, whose block the hooks write.
    """

    __slots__ = ("changes", "ignored_prompt_files", "kept", "kept_files", "notes", "settings")

    def __init__(self, settings: Settings, *, kept: bool) -> None:
        self.settings = settings
        self.kept = kept
        self.kept_files: list[str] = []
        self.ignored_prompt_files: list[str] = []
        self.changes: list[FileChange] = []
        self.notes: list[str] = []

    def local_prompt_files(self, top: str) -> list[str]:
        return [path for path in self.ignored_prompt_files if os.path.lexists(os.path.join(top, path))]


def plan_init(top: str, source: HookSource, *, force: bool, repin_asked: bool, prompt_files: Sequence[str]) -> InitPlan:
    """Every change init makes in the repository at ``top``; raises before any write on what it refuses."""
    plan = _configuration(top, prompt_files=prompt_files)
    settings = plan.settings
    checks.check_roots_inside(top, settings.roots)
    _check_prompt_files(top, settings.prompt_files)
    skills, left_out = committed_skills(top, settings)
    precommit_before = read_own_file(top, PRECOMMIT_CONFIG)
    adding_hooks = precommit_before is None or not has_skillmem_hooks(precommit_before)
    lint_on_commit = _plan_lint(top, plan, adding_hooks=adding_hooks)
    if not plan.kept:
        plan.changes.insert(0, _config_change(top, settings))
    precommit = _precommit_change(
        precommit_before, source, add=adding_hooks, force=force, explicit=repin_asked, lint_on_commit=lint_on_commit
    )
    plan.changes.append(precommit)
    if precommit.action != "unchanged":
        plan.notes += source.notes
    plan.changes.append(_attributes_change(top, settings.prompt_files))
    plan.changes += _prompt_file_changes(top, settings, skills)
    checks.check_distinct_targets(top, [change.path for change in plan.changes])
    plan.notes += [note for note in _advice(top, plan, skills, left_out) if note]
    return plan


def _configuration(top: str, *, prompt_files: Sequence[str]) -> InitPlan:
    """The settings: an existing .skillmem.yaml's, kept as it is (every key is the person's), else what init finds."""
    if read_own_file(top, CONFIG_FILE) is not None:
        if prompt_files:
            raise UsageError(
                f"{CONFIG_FILE} exists, and skillmem init never rewrites it: --prompt-file would replace its"
                " prompt_files",
                f"name the prompt files under prompt_files: in {CONFIG_FILE}, then run skillmem init again",
            )
        file = read_config_file(os.path.join(top, CONFIG_FILE))
        plan = InitPlan(Settings(file, config_path=CONFIG_FILE), kept=True)
        plan.settings.roots, notes = (list(file.roots), []) if file.roots else find_roots(top)
        configured = list(file.prompt_files)
        plan.settings.prompt_files = _configured_prompt_files(top, configured, notes)
        plan.ignored_prompt_files = [path for path in configured if path not in plan.settings.prompt_files]
        plan.settings.prompt_files = plan.settings.prompt_files or _prompt_files(top, (), notes)
        plan.notes += notes
        plan.kept_files = _kept_baseline(top, file.lint)
        return plan
    plan = InitPlan(Settings(ConfigFile(), config_path=CONFIG_FILE), kept=False)
    plan.settings.roots, plan.notes = find_roots(top)
    plan.settings.prompt_files = _prompt_files(top, prompt_files, plan.notes)
    return plan


def _configured_prompt_files(top: str, configured: list[str], notes: list[str]) -> list[str]:
    """The configured prompt files less those git ignores, as the hooks take them; all ignored is refused."""
    # Where each leads first, ignored or not, as the hooks check it: the git directory, and a link out of the
    # work tree or onto a file git does not track, fail a commit even on an ignored prompt file.
    check_repository_targets([(os.path.join(top, path), "the prompt file") for path in configured], top)
    rules = checks.ignore_rules(top, configured)
    kept = [path for path in configured if path not in rules]
    if configured and not kept:
        raise checks.ignored_prompt_files_error(rules, configured=True)
    notes += [
        f"{path}: left out (git ignores it: {rule}): init writes no block there; {_local_block(top, path)}, and"
        " fail a commit on it only if its markers break or it becomes a link out of the work tree, into .git or"
        " onto a file git does not track (init checked it leads nowhere such now)"
        for path, rule in rules.items()
    ]
    return kept


def _local_block(top: str, path: str) -> str:
    """Who writes an ignored prompt file's block: the hooks, on this machine, when the file exists here.

    A fresh clone lacks it (the file is ignored): each teammate creates it once, as skillmem never does.
    """
    touch = f"`touch {command_path(path, os.path.relpath(top))}`"
    if os.path.lexists(os.path.join(top, path)):
        return (
            "it exists here, so the hooks write its block on each commit (`skillmem inject` writes it now), on"
            f" this machine only, never into a commit (a teammate runs {touch} once after cloning)"
        )
    return f"the hooks and `skillmem inject` keep it current once it exists ({touch} once to have it here)"


def _kept_baseline(top: str, lint: Mapping[str, object] | None) -> list[str]:
    """The lint baseline a kept .skillmem.yaml names, when it is a file inside the repository; else none."""
    named = (lint or {}).get("baseline")
    if not isinstance(named, str) or os.path.isabs(named):
        return []
    path = os.path.normpath(named).replace(os.sep, "/")
    return [path] if not path.startswith("../") and os.path.isfile(os.path.join(top, path)) else []


def _prompt_files(top: str, given: Sequence[str], notes: list[str]) -> list[str]:
    if given:
        return [os.path.relpath(os.path.abspath(path), top).replace(os.sep, "/") for path in given]
    found, found_notes = find_prompt_files(top)
    notes += found_notes
    return found


def _plan_lint(top: str, plan: InitPlan, *, adding_hooks: bool) -> bool:
    """Whether skill-lint runs on commits; records today's findings as a baseline when init writes the config."""
    settings = plan.settings
    plan.notes += _ignored_baseline_notes(top, settings.lint if plan.kept else {"baseline": BASELINE_FILE})
    if not plan.kept:
        findings = todays_findings(top, settings, known=False)
        if findings:
            settings.lint = {"baseline": BASELINE_FILE}
            before = read_own_file(top, BASELINE_FILE)
            why = f"lint findings the skills have today ({counted_findings(findings)}): skill-lint stops only new ones"
            plan.changes.append(FileChange(BASELINE_FILE, before, render_baseline(findings), why))
            plan.notes += baseline_notes(findings, BASELINE_FILE, top)
            note = lint_fix_note(findings, BASELINE_FILE, top)
            if note:
                plan.notes.append(note)
        return True
    if not adding_hooks:
        return False  # skillmem's entry is there: its stages are the person's
    new = todays_findings(top, settings, known=True)
    if new:
        plan.notes.append(
            f"skill-lint waits at the manual stage: the skills have {counted(len(new), 'lint finding')} that no"
            f" baseline of the kept {CONFIG_FILE} lists (skillmem lint --write-baseline"
            f" {command_path(BASELINE_FILE, os.path.relpath(top))}, then lint:"
            f" {{baseline: {BASELINE_FILE}}} in {CONFIG_FILE}, and drop skill-lint's stages: [manual])"
        )
    return not new


def _ignored_baseline_notes(top: str, lint: object) -> list[str]:
    """A note when git ignores the lint baseline (the kept .skillmem.yaml's, or the one init would write): the commit
    init asks for leaves it out, and every clone's skill-lint then stops on a baseline that does not exist."""
    named = lint.get("baseline") if isinstance(lint, dict) else None
    if not isinstance(named, str) or os.path.isabs(named):
        return []
    rule = next(iter(checks.ignore_rules(top, [named]).values()), None)
    if rule is None:
        return []
    return [
        f"the lint baseline {named}: git ignores it ({rule}), so teammates and CI will not have it, and their"
        " skill-lint stops on it (it does not exist there); un-ignore it and commit it"
    ]


def _config_change(top: str, settings: Settings) -> FileChange:
    lines = [
        "# Where skillmem finds the skills and the prompt files that list them (written by 'skillmem init').",
        f"roots: {json.dumps(settings.roots, ensure_ascii=False)}",
        f"prompt_files: {json.dumps(settings.prompt_files, ensure_ascii=False)}",
    ]
    if settings.lint:
        lines += [
            "# The lint findings the skills had when skillmem was adopted: skill-lint fails only on new ones.",
            f"lint: {{baseline: {BASELINE_FILE}}}",
        ]
    text = "\n".join([*lines, ""])
    return FileChange(
        CONFIG_FILE, read_own_file(top, CONFIG_FILE), text.encode("utf-8"), "where the skills and prompt files are"
    )


def _precommit_change(
    before: bytes | None, source: HookSource, *, add: bool, force: bool, explicit: bool, lint_on_commit: bool
) -> FileChange:
    """skillmem's entry added; with ``force``, an existing one re-pinned in place (kept when it cannot be and
    no --repo or --rev asked for it)."""
    where = f"{source.repo} at {source.rev}"
    if add:
        after = add_hooks(before or b"", source.repo, source.rev, lint_on_commit=lint_on_commit)
        return FileChange(PRECOMMIT_CONFIG, before, after, f"skill-index, skill-verify and skill-lint from {where}")
    assert before is not None  # add is False only when the file names our hooks
    if force:
        try:
            return FileChange(
                PRECOMMIT_CONFIG, before, repin(before, source.repo, source.rev), f"skillmem's hooks pinned to {where}"
            )
        except UsageError:
            if explicit:
                raise
    return FileChange(PRECOMMIT_CONFIG, before, before, "skillmem's hooks are there already (--force re-pins them)")


def _attributes_change(top: str, prompt_files: list[str]) -> FileChange:
    before = read_own_file(top, ATTRIBUTES)
    after = add_attributes(before or b"", prompt_files)
    return FileChange(ATTRIBUTES, before, after, "prompt files merge through 'skillmem merge-driver'")


def _check_prompt_files(top: str, prompt_files: list[str]) -> None:
    """Inside the work tree, none of init's own files (even through a link), the hooks' rule, not ignored."""
    for path in prompt_files:
        checks.check_prompt_file_inside(top, path)
        checks.check_not_own_file(top, path, OWN_FILES)
    # The hooks' rule for a path the repository names: not into .git, and through a link only onto a tracked file.
    check_repository_targets([(os.path.join(top, path), "the prompt file") for path in prompt_files], top)
    checks.check_not_ignored(top, prompt_files)


def _prompt_file_changes(top: str, settings: Settings, skills: list[Skill]) -> list[FileChange]:
    """Each prompt file with its block injected (within max_block_tokens); a missing one is created."""
    changes = []
    for path in settings.prompt_files:
        full = os.path.join(top, path)
        before = read_prompt_file(full) if os.path.lexists(full) else None
        drift = Drift(before or b"", skills, settings.preamble_line, settings.max_block_tokens)
        changes.append(
            FileChange(path, before, drift.updated, f"the skill index block: {counted(len(skills), 'skill')}")
        )
    return changes


def _advice(top: str, plan: InitPlan, skills: list[Skill], left_out: list[dict[str, str]]) -> list[str | None]:
    settings = plan.settings
    return [
        block_size_note(skills, settings.max_block_tokens),
        discovery_note(top, skills, [*settings.prompt_files, *plan.ignored_prompt_files]),
        warnings_note(skills, settings.quiet, top),
        left_out_note(len(skills), left_out),
    ]


def read_own_file(top: str, path: str) -> bytes | None:
    """A file init may rewrite: its bytes, None when absent; a link or a non-regular file is refused."""
    full = os.path.join(top, path)
    if os.path.islink(full):
        raise FileAccessError(
            f"{path} is a symbolic link", f"skillmem init writes only regular files: edit {path} by hand"
        )
    try:
        return read_regular_file(full, 1024 * 1024)
    except FileNotFoundError:
        return None
    except (NotARegularFile, OSError) as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", f"make {path} a regular text file") from None
