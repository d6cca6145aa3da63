"""The rules about the repository as a whole: two skills the index counts as one (SK301), and
skills that steal each other's requests (SK501). Both report on the files that were linted.
Also how the index sees a skill (its de-duplication key, its label, ``exclude:``), which they need.
"""

from __future__ import annotations

import os
import unicodedata

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.placement.selection import best_match
from skillmem_hook.catalog.skillfile.declared import read_skill_text
from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.catalog.skillfile.names import check_name, check_path_is_utf8, slug_of
from skillmem_hook.catalog.skills import SkillProblem, owner_of
from skillmem_hook.lint.rules import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.lint.check import FileLint

# A skill as duplicates need it: its root, its folder relative to the root, its label in the index.
Listed = tuple[str, str, str]


class Linted:
    """The files linted, each found by the (root, folder) of a catalog's skill.

    ``taken``: the names every skill of the roots holds, when lint read them all (else the catalog says).
    """

    __slots__ = ("key_of", "results", "taken")

    def __init__(
        self,
        results: dict[object, tuple[str, FileLint]],
        key_of: Callable[[str, str], object],
        taken: TakenNames | None = None,
    ) -> None:
        self.results = results
        self.key_of = key_of
        self.taken = taken

    @property
    def checked(self) -> int:
        return len(self.results)

    def get(self, root: str, path: str) -> tuple[str, FileLint] | None:
        """(the path shown, its lint) of the skill at ``path`` below ``root``, if it was linted."""
        return self.results.get(self.key_of(root, path))


def index_entry(
    data: bytes, root: str, relative: str, folder: str, declared: tuple[str | None] | None = None
) -> tuple[tuple[str, str], Listed]:
    """The (owner, slug) the index de-duplicates this skill by, and its (root, path, label).

    What ``catalog.skills.make_skill`` does, without sorting the skill into a
    domain, which duplicates do not need and which costs more than the rest;
    raises SkillProblem where the scan skips the skill (``catalog.scan``), so
    that lint counts the skills the index lists, no more.
    ``declared``: the name lint's own reading found, when the catalog's reader
    would find the same (``FileLint.declared``): the frontmatter is then not read twice.
    """
    check_path_is_utf8(folder if relative == "." else relative)
    if declared is None:
        try:
            span = frontmatter_span(data)
        except UnclosedFrontmatter as error:
            raise SkillProblem(str(error)) from None
        # The frontmatter alone: the name is all duplicates need, and the body's sections cost a third of a run.
        declared = (read_skill_text(data[: span[2]] if span else b"").name,)
    name = _nfc(declared[0]) or _nfc(folder)
    if name.startswith("@") and "/" in name:
        raise SkillProblem("the name reads as an owner's label (@owner/name)")
    owner = owner_of(relative)
    label = f"{owner}/{name}" if owner else name
    check_name(label)
    return (owner, slug_of(name)), (root, relative, label)


def _nfc(text: str | None) -> str:
    return unicodedata.normalize("NFC", text.strip()) if text else ""


def is_excluded(label: str, patterns: Sequence[str]) -> bool:
    """Whether ``exclude:`` leaves out the skill of this label (``owner/name`` or ``name``), as the index does."""
    if not patterns or not label:
        return False
    name = label.rsplit("/", 1)[-1]
    return best_match(dict.fromkeys(patterns, True), _Named(name, label)) is not None  # type: ignore[arg-type]


class _Named:
    """What ``best_match`` reads of a skill."""

    __slots__ = ("label", "name")

    def __init__(self, name: str, label: str) -> None:
        self.name = name
        self.label = label


def duplicate_findings(pair: tuple[Listed, Listed], linted: Linted, base: str = ".") -> list[Finding]:
    """One SK301 on the first of the two skills (dropped, kept) that was linted, naming the other's file.

    The file is named from ``base`` (the configuration's folder), not from here: a baseline keys on the message,
    so a run from a subfolder must write the same one (``../.agents/...`` read as 13 new findings).
    """
    dropped, kept = pair
    for own, other in ((dropped, kept), (kept, dropped)):
        result = linted.get(own[0], own[1])
        if result is not None:
            shown, lint = result
            message = (
                f"the index counts this skill and {_file_of(other, base)} as one skill '{kept[2]}' "
                "(same owner and slug); rename or remove one"
            )
            return [Finding("SK301", shown, lint.name_at.line, lint.name_at.col, message)]
    return []


class TakenNames:
    """Which SKILL.md files hold each (owner, slug), by their skill's name or by their folder's, and each file's owner.

    What SK116's advice asks before it advises ``name: <folder>``. Every skill
    the index lists is added, and each duplicate it leaves out: renamed, that
    one would be listed again. ``lint`` over the roots adds them as it reads
    each file (``lint.files``); for named files, ``taken_in`` reads the catalog.
    """

    __slots__ = ("holders", "owners")

    def __init__(self) -> None:
        self.holders: dict[tuple[str, str], set[str]] = {}
        self.owners: dict[str, str] = {}  # from the path below the root (a root under an '@' folder has no owner)

    def add(self, root: str, path: str, owner: str, name: str) -> None:
        folder = os.path.normpath(os.path.join(root, path))
        file = os.path.abspath(os.path.join(folder, SKILL_FILE))
        self.owners[file] = owner
        for slug in {slug_of(name), slug_of(os.path.basename(folder))}:
            self.holders.setdefault((owner, slug), set()).add(file)

    def others(self, path: str, name: str) -> set[str]:
        """The other SKILL.md files that hold ``name`` for the owner of the skill at ``path``."""
        file = os.path.abspath(path)
        owner = self.owners.get(file, owner_of(path.replace(os.sep, "/")))
        return self.holders.get((owner, slug_of(name)), set()) - {file}


def taken_in(catalog: Catalog) -> TakenNames:
    """The names the catalog's skills hold, its duplicates' too."""
    taken = TakenNames()
    for skill in [*catalog.skills, *(dropped for dropped, _ in catalog.duplicates)]:
        taken.add(skill.root, skill.path, skill.owner, skill.name)
    return taken


_WRITE_NAME = "; write 'name: "
_OR_RENAME = "' or rename the folder to '"


def advise_taken_names(findings: Sequence[Finding], taken: Callable[[], TakenNames], base: str) -> None:
    """SK116's advice to write the folder's name, where another skill has that name or would get it (two folders
    called ``deploy``): the other ways, renaming the folder or ignoring SK116 there, since following it would make
    an SK301. Messages are rewritten in place; the others stay as they are, so a baseline still knows them.
    ``taken``: asked only when some SK116 advises a name.
    """
    pending = [finding for finding in findings if finding.code == "SK116" and _WRITE_NAME in finding.message]
    if not pending:
        return
    holding = taken()
    for finding in pending:
        head, _, advice = finding.message.partition(_WRITE_NAME)
        folder, _, name = advice.partition(_OR_RENAME)
        other = other_holder(holding, finding.path, folder, base)
        if other:
            finding.message = (
                f"{head}; rename the folder to '{name.rstrip(chr(39))}' (with 'name: {folder}' the index would count"
                f" this skill and {other} as one), or ignore SK116 for this file under lint: per_path_ignores"
            )


def other_holder(taken: TakenNames, path: str, name: str, base: str) -> str:
    """Another SKILL.md that holds ``name`` for the skill at ``path`` (the first by path), named from ``base``; ""."""
    others = taken.others(path, name)
    return _relative_to(min(others), base) if others else ""


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


def _file_of(listed: Listed, base: str) -> str:
    root, path, _ = listed
    joined = os.path.normpath(os.path.join(root, path, SKILL_FILE))
    if os.path.isabs(root):  # named so already (a --root given whole): the same from any folder
        return joined
    return _relative_to(joined, base)


def _relative_to(path: str, base: str) -> str:
    try:
        return os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    except ValueError:  # on Windows, another drive: no path from base leads there
        return path
