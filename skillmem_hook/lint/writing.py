"""The I/O edge of ``skillmem lint --fix``: rewrite the SKILL.md files that have a mechanical fix.

Each file is read inside the repository (never through a link out of it),
fixed in memory, and written atomically, only when its bytes change, and
only if it still holds what was read.
"""

from __future__ import annotations

import os

from skillmem_hook.atomic import commit_all, stage, staging
from skillmem_hook.block.targets import refused_targets
from skillmem_hook.lint.fix import UnprovenFix, fix_skill_file
from skillmem_hook.lint.paths import MISSING, OUTSIDE, is_inside, resolve_inside
from skillmem_hook.lint.reading import read_skill_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# The codes whose findings --fix can end (spec.py's name rules and unknown fields).
FIXABLE = frozenset({"SK105", "SK113", "SK114", "SK115", "SK116"})


class Fixes:
    """What ``--fix`` did: the paths written, in order, and (path, why) for each fix it would not write."""

    __slots__ = ("refused", "written")

    def __init__(self, written: list[str], refused: list[tuple[str, str]]) -> None:
        self.written = written
        self.refused = refused


def apply_fixes(paths: Sequence[str], work_tree: str | None, names_held: Mapping[str, str] | None = None) -> Fixes:
    """Fix each SKILL.md whose fix is proven (``fix.UnprovenFix``) and may be written.

    ``names_held``: by path, why the name may not become the folder's (another skill holds it: SK116's advice
    says to rename the folder instead); such a file's other fixes are made, and the name is said not fixed.

    Inside the work tree, a file is written only where the hooks write
    (``block.targets``): outside git's directory, and through a link only
    onto a file git tracks, so ``git diff`` shows every change. Elsewhere
    (outside a work tree, or a path outside this one), only inside its own
    skill's folder: a link is followed no further.
    """
    changes: list[tuple[str, str, bytes, bytes]] = []
    refused: list[tuple[str, str]] = []
    for path in paths:
        absolute = os.path.abspath(path)
        boundary = work_tree if work_tree and is_inside(work_tree, absolute) else os.path.dirname(absolute)
        real = resolve_inside(boundary, absolute)
        if real in (OUTSIDE, MISSING):
            continue
        data = read_skill_file(real, boundary)
        folder = os.path.basename(os.path.dirname(absolute))
        try:
            fixed, codes = fix_skill_file(data, folder)
            if "name" in codes and names_held and path in names_held:
                refused.append((path, names_held[path]))
                fixed, _ = fix_skill_file(data, folder, set_name=False)
        except UnprovenFix as error:
            refused.append((path, f"{error}; fix it by hand"))
            continue
        if fixed != data:
            changes.append((path, real, data, fixed))
    barred = _barred(changes, work_tree)
    refused += [(path, barred[path]) for path, _, _, _ in changes if path in barred]
    changes = [change for change in changes if change[0] not in barred]
    with staging() as staged:
        for path, real, data, fixed in changes:
            stage(staged, real, fixed, label=path, expected=data)
        written = set(commit_all(staged))
    return Fixes([path for path, _, _, _ in changes if path in written], sorted(refused))


def _barred(changes: Sequence[tuple[str, str, bytes, bytes]], work_tree: str | None) -> dict[str, str]:
    """Why each change inside the work tree may not be written, by path: the hooks' rule for a repository's paths."""
    if work_tree is None:
        return {}
    inside = [(path, "SKILL.md") for path, _, _, _ in changes if is_inside(work_tree, os.path.abspath(path))]
    refused = refused_targets(inside, work_tree)
    return {path: f"{error.message}; lint --fix writes only where git diff shows it" for path, error in refused.items()}
