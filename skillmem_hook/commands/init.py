"""``skillmem init``: adopt skillmem in a repository in one step.

Finds the skill roots (the folders holding the SKILL.md files git tracks or
would add) and the prompt files, writes ``.skillmem.yaml``, adds the hooks to
``.pre-commit-config.yaml`` (every existing byte kept), sends the prompt
files through the merge driver (``.gitattributes`` and the local git
config), injects the block, and runs ``pre-commit install``. Every file's new
bytes are decided before any is written; ``dry_run`` writes none. A second
run changes nothing.
"""

from __future__ import annotations

import os
import shlex
import sys

from skillmem_hook.adopt.attributes import DRIVER, DRIVER_NAME, driver_command
from skillmem_hook.adopt.plan import (
    ATTRIBUTES,
    PRECOMMIT_CONFIG,
    FileChange,
    attributes_change,
    configuration,
    precommit_change,
)
from skillmem_hook.adopt.repository import (
    config_value,
    hook_manager,
    hooks_installed,
    install_hooks,
    set_config,
    work_tree_top,
)
from skillmem_hook.arguments import add_text_option
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.errors import EXIT_OK, FileAccessError, UsageError
from skillmem_hook.report import emit
from skillmem_hook.text_lines import listed_files, names_of, note_lines
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from skillmem_hook.config import Settings

# The hooks' default source: this package's repository, at the tag of the version that runs init.
SOURCE_URL = "https://github.com/skillmem/skillmem-hook"
COMMIT_MESSAGE = "Keep the skill index with skillmem"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", metavar="URL", help="the hooks' source in .pre-commit-config.yaml (default: ours)")
    parser.add_argument("--rev", metavar="REV", help="the tag or commit of --repo to pin (default: this version's tag)")
    parser.add_argument("--dry-run", action="store_true", help="print every file it would write; change nothing")
    parser.add_argument("--force", action="store_true", help="rewrite an existing .skillmem.yaml")
    parser.add_argument("--no-install", dest="install", action="store_false", help="do not run 'pre-commit install'")
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    return init(
        repo=options.repo,
        rev=options.rev,
        dry_run=options.dry_run,
        force=options.force,
        install=options.install,
        text=options.text,
    )


def default_rev() -> str:
    from skillmem_hook import __version__  # noqa: PLC0415

    return f"v{__version__}"


def init(*, repo: str | None, rev: str | None, dry_run: bool, force: bool, install: bool, text: bool = False) -> int:
    top = work_tree_top()
    settings, config_change = configuration(top, force=force)
    changes = [config_change] if config_change else []
    changes.append(precommit_change(top, repo or SOURCE_URL, rev or default_rev()))
    changes.append(attributes_change(top, settings.prompt_files))
    changes += prompt_file_changes(top, settings)
    git_config = _merge_driver_settings(top)
    manager = hook_manager() if install else None
    to_install = manager is not None and not hooks_installed(top)
    failed = None
    if not dry_run:
        _write(top, [change for change in changes if change.action != "unchanged"])
        for key, value in git_config:
            set_config(top, key, value)
        if manager is not None and to_install:
            failed = install_hooks(top, manager)
    emit(
        {
            "dry_run": dry_run,
            "roots": settings.roots,
            "prompt_files": settings.prompt_files,
            "files": [{"path": c.path, "action": c.action, "why": c.why} for c in changes],
            "kept": [] if config_change else [CONFIG_FILE],
            "git_config": [key for key, _ in git_config],
            "hooks_installed": failed or _install_state(install, manager, to_install, dry_run=dry_run),
            "next": next_command(changes, settings.roots),
            "notes": [] if rev else [rev_note(repo or SOURCE_URL)],
        },
        as_text if text else None,
    )
    return EXIT_OK


def as_text(result: dict[str, object]) -> str:
    """``--text``: the roots and prompt files, what each file gets (or would get), and the one command left."""
    # Roots and paths are folder names from the repository: escaped, so none can act on the terminal or add a line.
    would = result.get("dry_run")
    verbs = {"created": "would create", "updated": "would update"} if would else {}
    roots, prompt_files = (", ".join(map(visible, names_of(result[key]))) for key in ("roots", "prompt_files"))
    lines = [f"skills roots: {roots}; prompt files: {prompt_files}"]
    for item in listed_files(result):
        action = str(item["action"])
        lines.append(f"  {verbs.get(action, action)} {visible(str(item['path']))}: {visible(str(item['why']))}")
    lines += [f"  kept {visible(path)} (--force rewrites it)" for path in names_of(result.get("kept"))]
    lines += [f"  {'would set' if would else 'set'} git config {key}" for key in names_of(result.get("git_config"))]
    lines.append(f"  hooks: {result['hooks_installed']}")
    lines += note_lines(result)
    lines.append(("then: " if would else "next: ") + visible(str(result["next"])))  # last: the one command left
    return "\n".join(lines) + "\n"


def prompt_file_changes(top: str, settings: Settings) -> list[FileChange]:
    """Each prompt file with its block injected; a missing one is created holding only the block."""
    from skillmem_hook.adopt.skills import committed_skills  # noqa: PLC0415
    from skillmem_hook.block.drift import Drift  # noqa: PLC0415
    from skillmem_hook.block.prompt_file import read_prompt_file  # noqa: PLC0415
    from skillmem_hook.block.targets import check_repository_targets  # noqa: PLC0415

    for path in settings.prompt_files:
        _check_inside(top, path)
        _check_not_own_file(path)
    # The hooks' rule for a path the repository names: not into .git, and through a link only onto a tracked file.
    targets = [(os.path.join(top, path), "the prompt file") for path in settings.prompt_files]
    check_repository_targets(targets, top)
    skills = committed_skills(top, settings)
    changes = []
    for path in settings.prompt_files:
        full = os.path.join(top, path)
        before = read_prompt_file(full) if os.path.lexists(full) else None
        drift = Drift(before or b"", skills, settings.preamble_line)
        changes.append(FileChange(path, before, drift.updated, f"the skill index block: {len(skills):,} skills"))
    return changes


def _check_inside(top: str, path: str) -> None:
    """A prompt file (or the link it is) must lead to a file inside the work tree: a repository is untrusted."""
    real_top = os.path.realpath(top)
    target = os.path.realpath(os.path.join(top, path))
    if os.path.commonpath([real_top, target]) != real_top:
        raise FileAccessError(
            f"the prompt file {path!r} leads outside the repository",
            f"skillmem init writes only inside the repository: make {path} a file of its own, or name another one",
        )


def _check_not_own_file(path: str) -> None:
    """init changes these files itself: a second change to one of them could not be written with the first."""
    if os.path.normpath(path) in (CONFIG_FILE, PRECOMMIT_CONFIG, ATTRIBUTES):
        raise UsageError(
            f"{path} cannot also be a prompt file: skillmem init writes it itself",
            "name AGENTS.md or CLAUDE.md under prompt_files in .skillmem.yaml, then run skillmem init again",
        )


def _merge_driver_settings(top: str) -> list[tuple[str, str]]:
    """The local git config keys to set (those not set to these values already)."""
    wanted = [(f"merge.{DRIVER}.name", DRIVER_NAME), (f"merge.{DRIVER}.driver", driver_command(sys.executable))]
    return [(key, value) for key, value in wanted if config_value(top, key) != value]


def _install_state(install: bool, manager: str | None, to_install: bool, *, dry_run: bool) -> str:
    if not install:
        return "skipped (--no-install)"
    if manager is None:
        return "pre-commit is not on PATH: install it (pip install pre-commit), then run 'pre-commit install'"
    if not to_install:
        return "already installed"
    return f"{'would run' if dry_run else 'ran'} '{os.path.basename(manager)} install'"


def _write(top: str, changes: list[FileChange]) -> None:
    from skillmem_hook.atomic import commit_all, stage, staging  # noqa: PLC0415

    with staging() as staged:
        for change in changes:
            target = os.path.realpath(os.path.join(top, change.path))
            stage(staged, target, change.after, label=change.path, expected=change.before)
        commit_all(staged)


def rev_note(repo: str) -> str:
    """What to do when the hook repository has no tag for this version (none is published yet)."""
    return (
        f"the hooks are pinned to {default_rev()}, this version's tag; if {repo} has no such tag,"
        " run 'pre-commit autoupdate --freeze' (or init again with --force --rev <a commit id>) before you commit"
    )


def next_command(changes: list[FileChange], roots: list[str]) -> str:
    """The one command left: stage what init wrote and the skills, and commit; or nothing, when all was in place."""
    if all(change.action == "unchanged" for change in changes):
        return "nothing: every file was already in place"
    paths = [CONFIG_FILE] + [change.path for change in changes] + [root for root in roots if root != "."]
    words = " ".join(shlex.quote(path) for path in dict.fromkeys(paths))
    return f"git add {words} && git commit -m {shlex.quote(COMMIT_MESSAGE)}"
