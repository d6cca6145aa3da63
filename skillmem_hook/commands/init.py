"""``skillmem init``: adopt skillmem in a repository in one step.

Finds the skill roots (the folders holding the SKILL.md files git tracks or
would add) and the prompt files, writes ``.skillmem.yaml`` (an existing one,
every key of it the person's, is kept as it is, and so is its baseline),
records today's lint findings as a baseline, adds the hooks to ``.pre-commit-config.yaml``
(every existing byte kept), pinned to the checkout or release skillmem was
installed from, sends the prompt files through the merge driver
(``.gitattributes`` and the local git config), injects the block, and runs
``pre-commit install``. Every file's new bytes are decided before any is
written (``adopt/plan.py``); ``dry_run`` writes none. A second run changes nothing.
"""

from __future__ import annotations

import os
import shlex
import sys

from skillmem_hook import __version__
from skillmem_hook.adopt.attributes import DRIVER, DRIVER_NAME, driver_command
from skillmem_hook.adopt.plan import FileChange, plan_init
from skillmem_hook.adopt.repository import (
    by_hand,
    config_value,
    hook_manager,
    hooks_installed,
    hooks_path,
    install_hooks,
    listed_files,
    set_config,
    uncommitted,
    work_tree_top,
)
from skillmem_hook.adopt.source import HookSource, installed_source
from skillmem_hook.arguments import add_text_option
from skillmem_hook.atomic import commit_all, stage, staging
from skillmem_hook.catalog.discovery.git import ignore_rules
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.report import emit
from skillmem_hook.text_lines import listed_files as listed_results
from skillmem_hook.text_lines import names_of, note_lines
from skillmem_hook.visible import git_add_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

COMMIT_MESSAGE = "Keep the skill index with skillmem"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--repo", metavar="URL", help="the hooks' source (default: the checkout or release skillmem was installed from)"
    )
    parser.add_argument("--rev", metavar="REV", help="the tag or commit to pin (default: that checkout's HEAD)")
    parser.add_argument(
        "--prompt-file",
        dest="prompt_files",
        action="append",
        default=[],
        metavar="FILE",
        help="the prompt file to keep the block in (repeatable; default: the agents' files found, or AGENTS.md)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print every file it would write; change nothing")
    parser.add_argument(
        "--force",
        action="store_true",
        help="re-pin skillmem's existing hooks (their repo: and rev: only; .skillmem.yaml and the baseline are kept)",
    )
    parser.add_argument("--no-install", dest="install", action="store_false", help="do not run 'pre-commit install'")
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    return init(
        repo=options.repo,
        rev=options.rev,
        prompt_files=options.prompt_files,
        dry_run=options.dry_run,
        force=options.force,
        install=options.install,
        text=options.text,
    )


def hook_source(repo: str | None, rev: str | None) -> HookSource:
    """--repo and --rev over what skillmem was installed from; a --repo of another source pins this version's tag."""
    installed = installed_source(__version__)
    if repo is None or repo == installed.repo:
        return HookSource(installed.repo, rev or installed.rev, [] if rev else installed.notes)
    if rev is not None:
        return HookSource(repo, rev)
    tag = f"v{__version__}"
    return HookSource(
        repo, tag, [f"the hooks are pinned to {tag}; if {repo} has no such tag, init again with --force --rev COMMIT"]
    )


def init(
    *,
    repo: str | None,
    rev: str | None,
    dry_run: bool,
    force: bool,
    install: bool,
    prompt_files: Sequence[str] = (),
    text: bool = False,
) -> int:
    top, separate = work_tree_top(hooks=install)
    source = hook_source(repo, rev)
    plan = plan_init(top, source, force=force, repin_asked=bool(repo or rev), prompt_files=prompt_files)
    settings, changes = plan.settings, plan.changes
    git_config = _merge_driver_settings(top)
    manager = hook_manager() if install else None
    failed = None
    if separate is not None:  # its config and hooks are left alone: it may be another work tree's
        plan.notes.append(
            f"git config and hook not set up: this work tree's git directory {visible(separate)} lies outside it "
            "and nothing in it links back here (a --separate-git-dir store, or another work tree's); if it is "
            f"this work tree's own, run here: {by_hand(git_config, manager)}"
        )
        if manager is not None:
            failed = f"'{os.path.basename(manager)} install' not run: the git directory lies outside this work tree"
        git_config, manager = [], None
    to_install = manager is not None and not hooks_installed(top)
    if manager is not None and to_install:
        failed = _hooks_path_note(top, manager)
    if not dry_run:
        _write(top, [change for change in changes if change.action != "unchanged"])
        for key, value in git_config:
            set_config(top, key, value)
        if manager is not None and to_install and failed is None:
            failed = install_hooks(top, manager)
    emit(
        {
            "dry_run": dry_run,
            "roots": settings.roots,
            "prompt_files": settings.prompt_files,
            "local_prompt_files": plan.local_prompt_files(top),
            "files": [{"path": c.path, "action": c.action, "why": c.why} for c in changes],
            "kept": [CONFIG_FILE, *plan.kept_files] if plan.kept else [],
            "git_config": [key for key, _ in git_config],
            "hooks_installed": failed or _install_state(install, manager, to_install, dry_run=dry_run),
            "next": next_command(top, changes, settings.roots, plan.kept_files),
            "notes": plan.notes,
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
    local = ", ".join(map(visible, names_of(result.get("local_prompt_files"))))
    local = f"; on this machine only (ignored by git; the hooks write the block): {local}" if local else ""
    lines = [f"skills roots: {roots}; prompt files: {prompt_files}{local}"]
    for item in listed_results(result):
        action = str(item["action"])
        lines.append(f"  {verbs.get(action, action)} {visible(str(item['path']))}: {visible(str(item['why']))}")
    lines += [f"  kept {visible(path)} as it is (init never rewrites it)" for path in names_of(result.get("kept"))]
    lines += [f"  {'would set' if would else 'set'} git config {key}" for key in names_of(result.get("git_config"))]
    lines.append(f"  hooks: {result['hooks_installed']}")
    lines += note_lines(result)
    lines.append(("then: " if would else "next: ") + visible(str(result["next"])))  # last: the one command left
    return "\n".join(lines) + "\n"


def _merge_driver_settings(top: str) -> list[tuple[str, str]]:
    """The local git config keys to set (those not set to these values already)."""
    wanted = [(f"merge.{DRIVER}.name", DRIVER_NAME), (f"merge.{DRIVER}.driver", driver_command(sys.executable))]
    return [(key, value) for key, value in wanted if config_value(top, key) != value]


def _hooks_path_note(top: str, manager: str) -> str | None:
    """Why the install is not run when ``core.hooksPath`` is set (any scope): git runs the hooks of that folder,
    which the repository's own config may name (another repository's hooks, ``~/bin``), and the install would
    write there. pre-commit refuses it itself; prek does not: neither is run, and the person decides."""
    path = hooks_path(top)
    if path is None:
        return None
    name = os.path.basename(manager)
    return (
        f"'{name} install' not run: core.hooksPath is set ({visible(path)}), so git runs the hooks of that folder, "
        f"and the install would write there; if that is yours to change, run 'git config --unset-all "
        f"core.hooksPath' where it is set, then '{name} install'"
    )


def _install_state(install: bool, manager: str | None, to_install: bool, *, dry_run: bool) -> str:
    if not install:
        return "skipped (--no-install)"
    if manager is None:
        return "pre-commit is not on PATH: install it (pip install pre-commit), then run 'pre-commit install'"
    if not to_install:
        return "already installed"
    return f"{'would run' if dry_run else 'ran'} '{os.path.basename(manager)} install'"


def _write(top: str, changes: list[FileChange]) -> None:
    with staging() as staged:
        for change in changes:
            target = os.path.realpath(os.path.join(top, change.path))
            stage(staged, target, change.after, label=change.path, expected=change.before)
        commit_all(staged)


def next_command(top: str, changes: list[FileChange], roots: list[str], kept: Sequence[str] = ()) -> str:
    """The one command left: stage what is left to add of init's files and the skills, and commit; or nothing.

    Left to add: what this run writes (or would), and what is untracked or differs from HEAD; a second run
    before that commit (``?? .skillmem.yaml``, ``M CLAUDE.md``) names them again, and nothing committed
    already (a root of committed skills, a baseline) is named. ``kept``: the files init keeps as they are
    (.skillmem.yaml, its baseline). Only paths ``git add`` takes: a root it would add nothing from (ignored,
    or outside the repository), or a file git ignores, is left out.
    """
    own = [CONFIG_FILE, *kept] + [change.path for change in changes]
    if all(change.action == "unchanged" for change in changes) and not uncommitted(top, own):
        return "nothing: every file was already in place"
    written = {change.path for change in changes if change.action != "unchanged"}
    addable = [root for root in roots if root != "." and listed_files(top, [f":(literal){root}"])]
    paths = [path for path in dict.fromkeys(own + addable) if path in written or uncommitted(top, [path])]
    ignored = ignore_rules(paths, top)  # git add refuses the whole command for one of them (a baseline's note says)
    paths = [path for path in paths if path not in ignored]
    here = os.path.relpath(top)  # run from where init ran: sub/ adds ../.skillmem.yaml
    words = " ".join(git_add_path(path, here) for path in paths)
    return f"git add {words} && git commit -m {shlex.quote(COMMIT_MESSAGE)}"
