"""What the pre-commit hooks tell a person: drift, untracked prompt files, warnings; at most a screenful a list."""

from __future__ import annotations

import os
import sys

from skillmem_hook.block.markers import current_block
from skillmem_hook.block.render import read_block
from skillmem_hook.text_lines import MAX_NAMES, counted, name_list
from skillmem_hook.visible import git_add_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from skillmem_hook.block.drift import Drift

# About a screenful per list, as for names (text_lines.MAX_NAMES).
MAX_WARNINGS = 10
# Under the warnings and the skills left out, which a hook prints again on each commit that changes the block:
# how known ones stop.
QUIET_HINT = "  to stop printing known ones (a vendored pack's): quiet: [NAME, PREFIX-*, FOLDER/] in .skillmem.yaml\n"


def describe_untracked(path: str) -> str:
    return (
        f"{path}: git does not track this prompt file, so the commit would hold no skill index\n"
        f"  add it: git add {git_add_path(path)}\n"
    )


def describe_drift(
    path: str,
    drift: Drift,
    *,
    written: bool,
    ignored: bool = False,
    reasons: dict[str, str] | None = None,
    merge_setup: Sequence[str] = (),
    renamed: Sequence[tuple[str, str]] = (),
) -> str:
    """A person's account of one prompt file's drift: at most a screenful a list.

    ``reasons`` says why a stale name is not simply a removed skill (not tracked by git, typed by hand).
    ``merge_setup``: the lines that say how to set up the merge driver, shown under a merge conflict.
    ``renamed``: (old, new) pairs of a stale and a missing name that are one skill, said as a rename.
    """
    reasons = reasons or {}
    gone, arrived = {old for old, _ in renamed}, {new for _, new in renamed}
    missing = [name for name in drift.missing if name not in arrived]
    stale = [name for name in drift.stale if name not in gone]
    action = "the skill index was updated; stage it and commit again" if written else "the skill index is out of date"
    if ignored:
        action = "the skill index was updated (git ignores this file: nothing to stage)" if written else action
    lines = [f"{path}: {action}"]
    if not drift.has_block:
        lines.append("  the file had no index block yet" if written else "  the file has no index block yet")
    lines += name_list("renamed", [f"{old} -> {new}" for old, new in renamed])
    lines += name_list("added" if written else "missing from the block", missing)
    removed = [name for name in stale if name not in reasons]
    lines += name_list("removed" if written else "stale, no longer on disk", removed)
    lines += _explained(stale, reasons)
    lines += name_list("folded into its domain's line (max_block_tokens)", drift.folded)
    lines += name_list("moved to another domain", describe_moves(drift))
    if drift.conflict:
        lines.append(
            "  the block held a merge conflict; it was rebuilt from the skills"
            if written
            else "  the block holds a merge conflict, which the update rebuilds from the skills"
        )
        lines += merge_setup
    elif drift.collapsed_changed and not (drift.missing or drift.stale or drift.moved or drift.folded):
        counts = (
            ", ".join(f"{domain} {old:,} -> {new:,}" for domain, old, new in drift.recounted) or "its count changed"
        )
        lines.append(f"  a skill came or went in a domain the block collapses (max_block_tokens): {counts}")
    elif drift.has_block and not (drift.missing or drift.stale or drift.moved or drift.folded):
        lines.append(
            "  nothing missing or stale, but the block's lines differ from what skill-index writes (edited by hand?)"
        )
    if not written:
        lines.append(f"  to update it: {fix_command()}")
    return "\n".join(lines) + "\n"


def _explained(stale: Sequence[str], reasons: dict[str, str]) -> list[str]:
    """The stale names that are no removed skill, by what they are: not tracked by git (and the git add), or typed."""
    lines = []
    for kind in dict.fromkeys(reason.split(":")[0] for reason in reasons.values()):
        names = [name for name in stale if reasons.get(name, "").split(":")[0] == kind]
        lines += name_list(kind, names)
        # Each advice once: a git add names its file, a submodule's or a conflict's words are the same for all.
        advice = [reasons[name].split(": ", 1)[1] for name in names[:MAX_NAMES] if ": " in reasons[name]]
        lines += [f"    {line}" for line in dict.fromkeys(advice)]
    return lines


def fix_command() -> str:
    """The command that rebuilds the block, as the person has it: pre-commit always; skillmem when installed.

    Under pre-commit (which sets PRE_COMMIT), the hook's own environment is on
    PATH and holds a skillmem the person cannot run: that folder does not count.
    """
    import shutil  # noqa: PLC0415 - only a hook that fails says how to fix it

    own = os.path.abspath(os.path.dirname(sys.executable))
    folders = os.environ.get("PATH", "").split(os.pathsep)
    if os.environ.get("PRE_COMMIT"):
        folders = [folder for folder in folders if folder and os.path.abspath(folder) != own]
    cli = " (or 'skillmem inject')" if shutil.which("skillmem", path=os.pathsep.join(folders)) else ""
    return f"run 'pre-commit run skill-index --all-files'{cli}"


def describe_moves(drift: Drift) -> list[str]:
    """Each skill that changed domain, as ``name (old -> new)``."""
    before = _listed(drift.original)
    after = _listed(drift.updated)
    return [f"{label} ({before.get(label, '?')} -> {after.get(label, '?')})" for label in drift.moved]


def _listed(data: bytes) -> dict[str, str]:
    block = current_block(data)
    return {} if block is None else read_block(block)[0]


def describe_index_file(path: str, *, written: bool) -> str:
    if written:
        return f"{path}: the skills index file was regenerated; stage it and commit again\n"
    return (
        f"{path}: the skills index file is out of date\n  run the skill-index hook or 'skillmem index --write {path}'\n"
    )


def describe_warnings(warnings: Sequence[dict[str, str]], changed: Collection[str] = ()) -> str:
    """The catalog's warnings, one short line each with the SKILL.md's path; empty when there are none.

    ``changed``: the folders (``skill_folder``) of the skills this commit changes. Their warnings come first, so a
    new skill's warning is never among the hidden behind a vendored pack's known ones.
    """
    if not warnings:
        return ""
    from skillmem_hook.block.index_file import repository_path  # noqa: PLC0415 - a run without warnings spares it
    from skillmem_hook.catalog.placement.selection import DOMAINS_LISTED  # noqa: PLC0415 - as repository_path
    from skillmem_hook.catalog.skillfile.frontmatter import brief_warning  # noqa: PLC0415 - as repository_path

    folders = [repository_path(warning["root"], warning["path"]) for warning in warnings]
    touched = [index for index, folder in enumerate(folders) if _as_git_names(folder) in changed]
    order = touched + sorted(set(range(len(warnings))) - set(touched))
    first = f", the {len(touched):,} this commit changes first" if touched else ""
    lines = [
        f"{counted(len(warnings), 'SKILL.md file')} with warnings{first}"
        " (all of them: 'skillmem index', under warnings):"
    ]
    listed = False
    for index in order[:MAX_WARNINGS]:
        said = brief_warning(warnings[index]["warning"])
        listed = listed or said.endswith(DOMAINS_LISTED)
        said = said.removesuffix(f" {DOMAINS_LISTED}")
        lines.append(f"  {visible(os.path.join(folders[index], 'SKILL.md'))}: {visible(said)}")
    if len(warnings) > MAX_WARNINGS:
        lines.append(f"  ... and {len(warnings) - MAX_WARNINGS:,} more")
    if listed:  # said once, not on each line of a pack whose metadata files its skills under its own domains
        lines.append(f"  {DOMAINS_LISTED}")
    return "\n".join(lines) + "\n"


def skill_folder(root: str, path: str) -> str:
    """A skill's folder as ``describe_warnings`` matches it against ``changed``."""
    from skillmem_hook.block.index_file import repository_path  # noqa: PLC0415 - only a report past the cap pays

    return _as_git_names(repository_path(root, path))


def _as_git_names(folder: str) -> str:
    """A folder relative to here as git names paths: ``/``-separated, ``""`` for here itself (never ``.``, which no
    path git gives starts with), so a top-level skill can be among those a commit changes
    (``lint.changes.owning_folders``)."""
    folder = folder.replace(os.sep, "/")
    return "" if folder == "." else folder


def describe_skipped(skipped: Sequence[dict[str, str]]) -> str:
    """The SKILL.md files the block leaves out, one short line each; empty when there are none."""
    if not skipped:
        return ""
    from skillmem_hook.block.index_file import repository_path  # noqa: PLC0415 - a run that skips none spares it

    where = "(all of them: 'skillmem index', under skipped)"
    lines = [f"{counted(len(skipped), 'SKILL.md file')} left out of the block {where}:"]
    for item in skipped[:MAX_WARNINGS]:
        lines.append(f"  {visible(repository_path(item['root'], item['path']))}: {visible(item['reason'])}")
    if len(skipped) > MAX_WARNINGS:
        lines.append(f"  ... and {len(skipped) - MAX_WARNINGS:,} more")
    return "\n".join(lines) + "\n"
