"""The catalog: the skills of one or more roots with what was left out, and the options that build one.

Values only; ``scan.py`` builds them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.discovery.git import WorkTree
    from skillmem_hook.catalog.skills import Skill


class CatalogOptions:
    """How to build a catalog: which view, whether to cache, and the repository's selection rules.

    ``tracked``: True for git's view, False for the file system's, None for
    git's view inside a work tree and the file system's outside one.
    ``sections``: whether each skill needs its body's sections (search
    does; the hooks, which render the block only, do not). ``store_cache``:
    False to read the content cache without writing it back (the route
    hook's in-memory patch, inside a prompt: the build it starts writes it).
    ``user_roots``: the roots are the user's own (``--root`` typed on the
    command line), not the repository's (its ``.skillmem.yaml``, the common
    layouts, a hook's ``args:``); below a root outside the work tree that the
    repository names, no link is followed (``discovery/walk.py``), and the
    catalog carries a notice for it. ``boundary``: where the repository ends
    when there is no work tree (the folder holding its ``.skillmem.yaml``);
    None: the current folder.
    """

    __slots__ = ("boundary", "cache", "domains", "exclude", "sections", "store_cache", "tracked", "user_roots")

    def __init__(
        self,
        *,
        tracked: bool | None = False,
        cache: bool = True,
        exclude: Sequence[str] = (),
        domains: Mapping[str, str] | None = None,
        sections: bool = True,
        store_cache: bool = True,
        user_roots: bool = False,
        boundary: str | None = None,
    ) -> None:
        self.tracked = tracked
        self.user_roots = user_roots
        self.boundary = boundary
        self.store_cache = store_cache
        self.sections = sections
        self.cache = cache
        self.exclude = tuple(exclude)
        self.domains = dict(domains or {})


class Catalog:
    """The skills of one or more roots, de-duplicated, with what was left out."""

    __slots__ = ("duplicates", "excluded", "notices", "skills", "skipped", "work_tree")

    def __init__(
        self,
        skills: list[Skill],
        duplicates: list[tuple[Skill, Skill]],
        skipped: list[dict[str, str]],
        *,
        excluded: list[Skill] | None = None,
        notices: list[dict[str, str]] | None = None,
        work_tree: WorkTree | None = None,
    ) -> None:
        self.skills = skills
        self.duplicates = duplicates
        self.skipped = skipped
        self.excluded = excluded or []
        self.notices = notices or []  # about a root as a whole, e.g. one outside the repository
        self.work_tree = work_tree  # set when the skills are git's view

    @property
    def warnings(self) -> list[dict[str, str]]:
        return [
            {"root": skill.root, "path": skill.path, "warning": warning}
            for skill in self.skills
            for warning in skill.warnings
        ]
