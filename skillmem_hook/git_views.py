"""Where the two views of the skills disagree, said in the words of what to do.

The CLI lists the skills on disk; the hooks list what git's index tracks. A
skill on disk that git does not track is in the first and not the second:
the CLI names it ("not tracked by git"), and the hooks, finding it in a
block that the CLI wrote, name it with the ``git add`` to run instead of
calling it removed. A name in no view and in no committed block (HEAD's
version of any prompt file) was written by an earlier run, for a skill since
renamed or removed before it was ever committed (a commit that stopped, the
skill renamed, and the commit tried again), or typed by hand: nothing kept
tells the two apart, so the report says both, and says it of the name in
every prompt file alike.
"""

from __future__ import annotations

import os

from skillmem_hook.block.imports import double_listing_warnings
from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery.confinement import Area, nested_repository
from skillmem_hook.catalog.discovery.git import as_listed, find_top_and_git_dirs, run_git, tracked_entries
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store.locations import find_git_dir
from skillmem_hook.errors import MarkerError, UsageError
from skillmem_hook.visible import git_add_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
    from skillmem_hook.catalog.discovery.git import IndexEntry
    from skillmem_hook.catalog.skills import Skill

NOT_TRACKED = "not tracked by git"
UNCOMMITTED = (
    "not a skill, in no committed block: written by an earlier run (a commit that stopped) for a skill renamed"
    " or removed since, or typed by hand"
)
IN_SUBMODULE = "in a git submodule, not tracked here"


def skill_file(skill: Skill) -> str:
    return os.path.normpath(os.path.join(skill.root, skill.path, SKILL_FILE))


def untracked_skills(catalog: Catalog) -> list[Skill]:
    """The listed skills whose SKILL.md git does not track; none outside a work tree or in git's view."""
    if catalog.work_tree is not None or not catalog.skills or find_git_dir(os.getcwd()) is None:
        return []
    roots = {skill.root: as_listed(skill.root) for skill in catalog.skills}
    try:
        tracked = {entry.path: entry for entry in tracked_entries(sorted(roots))}
    except UsageError:  # no git, or a root outside the repository: nothing to compare with
        return []
    # git lists normalised paths relative to the current folder: so is each skill's, its root normalised once.
    return [
        skill
        for skill in catalog.skills
        if _joined(roots[skill.root], skill.path) not in tracked
        and not _tracked_through_links(_joined(roots[skill.root], skill.path), tracked)
    ]


def _joined(root: str, path: str) -> str:
    folder = root if path == "." else path if root == "." else f"{root}/{path}"
    return f"{folder}/{SKILL_FILE}"


def _tracked_through_links(path: str, tracked: dict[str, IndexEntry]) -> bool:
    """Whether ``path``, no index entry itself, is a tracked SKILL.md reached through tracked links to folders.

    ``skills/la -> .drafts/a`` committed: the disk lists ``la``, git's view lists it too (it follows a tracked
    link into a hidden folder), but ``skills/la/SKILL.md`` is no entry; ``skills/.drafts/a/SKILL.md`` is.
    Each folder on the path that is a tracked link is resolved where the checkout put it, as git's view does;
    an untracked link is not, so what lies through it stays untracked.
    """
    current = ""
    for part in path.split("/"):
        current = f"{current}/{part}" if current else part
        entry = tracked.get(current)
        if entry is not None and entry.is_link:
            current = os.path.relpath(os.path.realpath(current))
    return current in tracked


def cli_notes(
    catalog: Catalog, prompt_files: Sequence[str] = (), left_out: Mapping[str, str] | None = None
) -> dict[str, object]:
    """The JSON keys the CLI adds: ``untracked`` (listed skills git does not track), and ``notes`` saying so.

    Also a note for a prompt file that imports another one listed (the agent would read the list twice), and
    ``left_out``: the prompt files set aside (outside a sparse checkout; in git's view, absent and ignored), each
    with a note, first, as the hooks print it.
    """
    notes = _left_out_notes(left_out) + double_listing_warnings(prompt_files)
    untracked = untracked_skills(catalog)
    labels = sorted(skill.label for skill in untracked)
    held = _in_submodules(untracked)
    addable = [label for label in labels if label not in held]
    if addable:
        notes.append(f"{NOT_TRACKED}: {_shown(addable)}; the hooks leave them out until you git add them")
    if held:
        notes.append(f"{IN_SUBMODULE}: {_shown(sorted(held))}; the hooks leave them out (index them in its repository)")
    return {
        **({"left_out": list(left_out)} if left_out else {}),
        **({"untracked": labels} if labels else {}),
        **({"notes": notes} if notes else {}),
    }


def _left_out_notes(left_out: Mapping[str, str] | None) -> list[str]:
    if not left_out:
        return []
    from skillmem_hook.block.tracking import left_out_note  # noqa: PLC0415 - only a prompt file left out asks for it

    return [left_out_note(path, reason) for path, reason in left_out.items()]


def _shown(labels: Sequence[str]) -> str:
    return ", ".join(labels[:20]) + (f" and {len(labels) - 20:,} more" if len(labels) > 20 else "")


def _in_submodules(skills: Sequence[Skill]) -> set[str]:
    """The labels of those skills whose SKILL.md lies in a submodule (or another repository) of the work tree.

    git refuses to ``git add`` them ("Pathspec ... is in submodule"), so no note may advise it.
    """
    found = find_top_and_git_dirs() if skills else None
    if found is None:
        return set()
    area = Area(os.path.realpath(found[0]), (), git=True)
    held: dict[str, bool] = {}  # by folder: a pack of many skills asks each folder once
    labels = set()
    for skill in skills:
        folder = os.path.dirname(os.path.realpath(skill_file(skill)))
        if folder not in held:
            held[folder] = nested_repository(folder, area) is not None
        if held[folder]:
            labels.add(skill.label)
    return labels


def stale_reasons(
    stale: Mapping[str, Sequence[str]],
    prompt_files: Sequence[str],
    roots: Sequence[str],
    options: CatalogOptions,
    skipped: Sequence[dict[str, str]] = (),
) -> dict[str, dict[str, str]]:
    """Why each stale name of each prompt file's block (``stale``: file -> names) is there, when it is not a removed
    skill: untracked, or never committed.

    ``prompt_files``: every prompt file the hook compares; a name that HEAD's version of any of them lists is a
    committed skill since removed, in each file alike. The disk's scan and HEAD's blocks are read once for all the
    files; only called when names are stale, so the steady state never pays for them.

    A skill on disk whose folder (or a folder above it) git's view left out (``skipped``, the hook's catalog's:
    an unresolved merge conflict, a submodule) is stale for that reason, not as untracked: its ``git add``
    would be wrong, or refused.
    """
    disk_view = CatalogOptions(
        tracked=False,
        cache=options.cache,
        exclude=options.exclude,
        sections=options.sections,
        user_roots=options.user_roots,
        boundary=options.boundary,
    )
    wanted = {label for names in stale.values() for label in names}
    on_disk = {skill.label: skill for skill in scan_roots(roots, disk_view).skills if skill.label in wanted}
    left_out = {(item["root"], item["path"]): item["reason"] for item in skipped}
    found = {
        label: _left_out_because(skill, left_out) or f"{NOT_TRACKED}: git add {git_add_path(skill_file(skill))}"
        for label, skill in on_disk.items()
    }
    committed = set().union(*(_committed_listing(path) for path in prompt_files))
    found.update({label: UNCOMMITTED for label in wanted if label not in committed and label not in found})
    return {path: {label: found[label] for label in names if label in found} for path, names in stale.items()}


def _left_out_because(skill: Skill, left_out: dict[tuple[str, str], str]) -> str | None:
    """Why git's view left out the skill's folder or a folder above it in its root; None when it did not."""
    folder = skill.path
    while True:
        reason = left_out.get((skill.root, folder))
        if reason is not None or folder == ".":
            return reason
        folder = folder.rpartition("/")[0] or "."


def _committed_listing(path: str) -> set[str]:
    """The names the block lists in HEAD's version of the file; none without a HEAD holding the file."""
    from skillmem_hook.block.merge import listing  # noqa: PLC0415 - only a block out of date reads HEAD's

    code, data = run_git(["show", f"HEAD:./{as_listed(path)}"], literal=False)
    if code != 0:
        return set()
    try:
        return set(listing(data))
    except MarkerError:
        return set()
