"""The rules about the repository as a whole: two skills the index counts as one (SK301), and
skills that steal each other's requests (SK501). Both report on the files that were linted.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery.walk import SKILL_FILE
from skillmem_hook.lint.rules import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.lint.check import FileLint

# A skill as duplicates need it: its root, its folder relative to the root, its label in the index.
Listed = tuple[str, str, str]


class Linted:
    """The files linted, each found by the (root, folder) of a catalog's skill."""

    __slots__ = ("key_of", "results")

    def __init__(self, results: dict[object, tuple[str, FileLint]], key_of: Callable[[str, str], object]) -> None:
        self.results = results
        self.key_of = key_of

    @property
    def checked(self) -> int:
        return len(self.results)

    def get(self, root: str, path: str) -> tuple[str, FileLint] | None:
        """(the path shown, its lint) of the skill at ``path`` below ``root``, if it was linted."""
        return self.results.get(self.key_of(root, path))


def duplicate_findings(pair: tuple[Listed, Listed], linted: Linted) -> list[Finding]:
    """One SK301 on the first of the two skills (dropped, kept) that was linted, naming the other's file."""
    dropped, kept = pair
    for own, other in ((dropped, kept), (kept, dropped)):
        result = linted.get(own[0], own[1])
        if result is not None:
            shown, lint = result
            message = (
                f"the index counts this skill and {_file_of(other)} as one skill '{kept[2]}' "
                "(same owner and slug); rename or remove one"
            )
            return [Finding("SK301", shown, lint.name_at.line, lint.name_at.col, message)]
    return []


def ranking_findings(catalog: Catalog, linted: Linted) -> list[Finding]:
    """SK501 on each linted skill that another skill shadows in search (see ``lint/ranking.py``)."""
    from skillmem_hook.lint.ranking import stolen_requests  # noqa: PLC0415 - only the opt-in rule pays for search

    checked = {(skill.root, skill.path) for skill in catalog.skills if linted.get(skill.root, skill.path)}
    findings = []
    for (root, path), message in sorted(stolen_requests(catalog.skills, checked).items()):
        result = linted.get(root, path)
        if result is not None:
            shown, lint = result
            findings.append(Finding("SK501", shown, lint.name_at.line, lint.name_at.col, message))
    return findings


def _file_of(listed: Listed) -> str:
    root, path, _ = listed
    return os.path.normpath(os.path.join(root, path, SKILL_FILE))
