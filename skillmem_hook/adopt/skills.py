"""The skills a first commit will hold: the roots on disk, less what git ignores."""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import ignored_paths
from skillmem_hook.catalog.scan import scan_roots

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.config import Settings


# Why the block leaves out a skill the catalog read: the reasons beside Catalog.skipped's, as init counts them.
DUPLICATE = "the same name as a skill the block lists"
EXCLUDED = "exclude: leaves it out"


def committed_skills(top: str, settings: Settings) -> tuple[list[Skill], list[dict[str, str]]]:
    """The skills the hooks will list once ``git add`` has run, and the SKILL.md files they will leave out.

    Those on disk whose SKILL.md git does not ignore: the file system's view, since
    nothing may be staged yet; an ignored skill would never reach the commit, so the
    hooks would drop it from the block. Left out (root, path, reason): ``Catalog.skipped``, each duplicate of a
    name the block lists (``DUPLICATE``) and each skill ``exclude:`` leaves out (``EXCLUDED``), so the skills and
    those left out count every SKILL.md the commit will hold (init on skills-cn said "13 of 1,899 SKILL.md files"
    of 1,912, its 13 duplicates counted nowhere).
    """
    options = settings.catalog_options()
    options.tracked = False
    catalog = scan_roots([os.path.join(top, root) for root in settings.roots], options)
    files = {skill: os.path.join(skill.root, skill.path, SKILL_FILE) for skill in catalog.skills}
    items = [
        *catalog.skipped,
        *({"root": dropped.root, "path": dropped.path, "reason": DUPLICATE} for dropped, _ in catalog.duplicates),
        *({"root": skill.root, "path": skill.path, "reason": EXCLUDED} for skill in catalog.excluded),
    ]
    left_out = [os.path.join(item["root"], item["path"], SKILL_FILE) for item in items]
    ignored = ignored_paths([*files.values(), *left_out])
    skills = [skill for skill in catalog.skills if files[skill] not in ignored]
    return skills, [item for item, file in zip(items, left_out) if file not in ignored]
