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


def committed_skills(top: str, settings: Settings) -> list[Skill]:
    """The skills the hooks will list once ``git add`` has run: those on disk whose SKILL.md git does not ignore.

    The file system's view, since nothing may be staged yet; an ignored skill
    would never reach the commit, so the hooks would drop it from the block.
    """
    options = settings.catalog_options()
    options.tracked = False
    catalog = scan_roots([os.path.join(top, root) for root in settings.roots], options)
    files = {skill: os.path.join(skill.root, skill.path, SKILL_FILE) for skill in catalog.skills}
    ignored = ignored_paths(files.values())
    return [skill for skill in catalog.skills if files[skill] not in ignored]
