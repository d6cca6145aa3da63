"""Which name that left the block and which that arrived are one skill renamed, as git's HEAD tells it.

A rename is a pair of a stale name and a missing one where the committed
tree (HEAD) held the stale name's SKILL.md, and either git sees that file
moved to, or kept at, the missing skill's SKILL.md (``git diff -M``), or the
stale skill's description is the missing skill's, word for word, and no
other's. Asked only when a block has both a stale and a missing name, so
the steady state never pays for it. Outside a work tree, before the first
commit, or when git cannot answer, there are no renames.

``skills_renamed`` answers ``skillmem read`` of a name no skill has: the
skills whose SKILL.md moved or changed since HEAD, or in the last commits
that touched the roots, as they were then and as they are now, so an old
name is told its new one. Asked only once the name is unknown: a read of a
known name runs no git.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.discovery.git import find_work_tree, run_git
from skillmem_hook.catalog.skillfile.head import MAX_READ, skill_head
from skillmem_hook.catalog.skills import parse_skill
from skillmem_hook.errors import GitWouldWait, SkillmemError

# How far back ``skills_renamed`` looks: the last commits that touched the roots, and the SKILL.md files it reads.
RENAME_COMMITS = 200
RENAME_MOVES = 2_000

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.catalog.skills import Skill


def renamed(
    stale: Sequence[str], missing: Sequence[str], catalog: Catalog, roots: Sequence[str]
) -> list[tuple[str, str]]:
    """(old name, new name) for each stale name that is a missing skill renamed, sorted by the old name.

    ``roots``: the skills roots, where git looks for SKILL.md files that moved or went.
    """
    if not stale or not missing:
        return []
    try:
        return _renamed(set(stale), set(missing), catalog, roots)
    except GitWouldWait:  # git waited, or would, on a FIFO (a .gitattributes, packed-refs): said, not a failure
        raise
    except (SkillmemError, OSError):  # git is missing or failed: a rename is then reported as it was
        return []


def _renamed(stale: set[str], missing: set[str], catalog: Catalog, roots: Sequence[str]) -> list[tuple[str, str]]:
    work_tree = find_work_tree()
    if work_tree is None:
        return []
    changes = _changed_skill_files(roots, cached=catalog.work_tree is not None)
    before = _committed_skills([old for old, _ in changes])
    top = os.path.realpath(work_tree.top)
    after = {_top_relative(skill, top): skill for skill in catalog.skills if skill.label in missing}
    pairs: dict[str, str] = {}
    for old_path, new_path in changes:
        old, new = before.get(old_path), after.get(new_path or "")
        if old is not None and new is not None and old.label in stale:
            pairs.setdefault(old.label, new.label)
    _pair_by_description([skill for skill in before.values() if skill.label in stale], after.values(), pairs)
    return sorted(pairs.items())


def _pair_by_description(gone: Sequence[Skill], arrived: Iterable[Skill], pairs: dict[str, str]) -> None:
    """Pair each unpaired gone skill with the one unpaired arrival whose description is the same."""
    taken = set(pairs.values())
    candidates = [skill for skill in arrived if skill.label not in taken]
    for old in gone:
        if old.label in pairs or not old.description.strip():
            continue
        same = [new for new in candidates if new.description == old.description and new.label not in taken]
        if len(same) == 1:
            pairs[old.label] = same[0].label
            taken.add(same[0].label)


def _changed_skill_files(roots: Sequence[str], *, cached: bool) -> list[tuple[str, str | None]]:
    """(SKILL.md in HEAD, its path now or None when deleted), top-relative, from ``git diff -M HEAD``.

    ``cached``: what git's index holds (the hooks' view), else the work tree (the disk's).
    """
    if cached:  # the index's blobs, read through no filter
        options, view = [], ["--cached"]
    else:
        off = _filters_off()
        if off is None:
            return []
        options, view = off, []
    # A user's diff.relative would make the paths relative to the current folder: git's top is what HEAD: reads.
    # --ignore-submodules=all: against the work tree, git would start a `git status` in each submodule below the
    # roots, which reads the submodule's own config and attributes and runs its filters; a
    # submodule is never a skill's file, so the rename reading loses nothing.
    arguments = ["-c", "diff.relative=false", "diff", "--no-color", "--no-ext-diff", "--name-status", "-z", "-M"]
    arguments.append("--ignore-submodules=all")
    code, out = run_git([*options, *arguments, *view, "HEAD", "--", *roots])
    if code != 0:
        return []
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    changes: list[tuple[str, str | None]] = []
    index = 0
    while index < len(fields) - 1:
        status = fields[index]
        if status.startswith(("R", "C")):
            old, new = fields[index + 1], fields[index + 2]
            index += 3
        else:
            old, new = fields[index + 1], fields[index + 1]
            index += 2
        if status[:1] in ("R", "M", "D", "T") and _is_skill_file(old):
            changes.append((old, None if status.startswith("D") else new))
    return changes


def _filters_off() -> list[str] | None:
    """``-c`` options that turn off every filter the repository's config names; None when one cannot be.

    Against the work tree, git reads a stat-dirty file (every file of an unpacked archive) through the
    ``clean`` or ``process`` command of its ``filter`` attribute (gitattributes(5), "filter"): an archive's own
    config and ``.gitattributes`` would have ``verify`` and ``inject`` run a program it names. An empty command
    is none (git's ``convert.c`` ``apply_filter`` runs a command only when it is non-empty), and a filter not
    ``required`` then passes the file through: the diff compares the bytes on disk. Command-line ``-c`` is read
    last, so the repository's config cannot undo it. One ``git config`` more, only when a block has both a stale
    and a missing name. A filter name with ``=`` cannot be given to ``-c`` (it splits there): no rename then.
    """
    code, out = run_git(["config", "-z", "--get-regexp", r"^filter\."])
    if code == 1:  # no key matches: no filter
        return []
    if code != 0:
        return None
    names = set()
    for entry in out.split(b"\0"):
        key = os.fsdecode(entry.split(b"\n", 1)[0])
        if key.startswith("filter.") and key.count(".") >= 2:
            names.add(key[len("filter.") : key.rindex(".")])
    if any("=" in name for name in names):
        return None
    off = []
    for name in sorted(names):
        for variable, value in (("clean", ""), ("process", ""), ("required", "false")):
            off += ["-c", f"filter.{name}.{variable}={value}"]
    return off


def _committed_skills(paths: Sequence[str], revision: str = "HEAD") -> dict[str, Skill]:
    """The skills ``revision``'s SKILL.md files at these top-relative paths held, by path; unreadable ones left
    out."""
    from skillmem_hook.catalog.discovery.git_blobs import MissingBlob, read_blobs  # noqa: PLC0415 - only a block that lost and gained a name reads HEAD

    found = {}
    names = [f"{revision}:{path}" for path in paths if "\n" not in path]
    try:
        pairs = list(read_blobs(names, MAX_READ))  # as much as the catalog reads, cut where it cuts
    except MissingBlob:  # HEAD names a blob its store lacks (a damaged or partial clone): no rename is told
        return {}
    for name, data in pairs:
        path = name[len(revision) + 1 :]
        folder = os.path.dirname(path)
        try:
            found[path] = parse_skill(skill_head(data), path=folder, folder=os.path.basename(folder), root="")
        except ValueError:  # SkillProblem and frontmatter errors: not a skill then, so no rename
            continue
    return found


def _top_relative(skill: Skill, top: str) -> str:
    """The skill's SKILL.md as git names it: relative to the work tree's top (``top``, its real path)."""
    path = os.path.join(os.path.realpath(skill.root), skill.path, SKILL_FILE)
    return os.path.relpath(path, top).replace(os.sep, "/")


def _is_skill_file(path: str) -> bool:
    return path == SKILL_FILE or path.endswith("/" + SKILL_FILE)


def skills_renamed(catalog: Catalog, roots: Sequence[str]) -> list[tuple[Skill, Skill, str | None]]:
    """(the skill as it was, the skill it is now, the commit that changed it or None for since HEAD), newest first:
    each SKILL.md of a skill of ``catalog`` that moved (``git mv``) or changed since HEAD, or in the last
    ``RENAME_COMMITS`` commits that touched the roots, a chain of moves followed to where it is now. Empty outside
    a work tree, before the first commit, or when git cannot answer."""
    try:
        return _skills_renamed(catalog, roots)
    except (SkillmemError, OSError) as error:
        if isinstance(error, GitWouldWait):  # git waited, or would, on a FIFO: said, not a failure
            raise
        return []


def _skills_renamed(catalog: Catalog, roots: Sequence[str]) -> list[tuple[Skill, Skill, str | None]]:
    work_tree = find_work_tree()
    if work_tree is None:
        return []
    top = os.path.realpath(work_tree.top)
    now = {_top_relative(skill, top): skill for skill in catalog.skills}
    moves: list[tuple[str, str, str | None]] = [
        (old, new, None) for old, new in _changed_skill_files(roots, cached=catalog.work_tree is not None) if new
    ]
    moves += _committed_moves(roots)
    onward: dict[str, str] = {}
    for old, new, _ in moves:  # newest first: a path's latest move is where it went last
        onward.setdefault(old, new)
    found = []
    for revision in dict.fromkeys(commit for _, _, commit in moves):
        paths = [old for old, _, commit in moves if commit == revision]
        before = _committed_skills(paths, "HEAD" if revision is None else f"{revision}^")
        for old in paths:
            where, steps = onward[old], 0
            while where not in now and where in onward and steps < len(onward):  # a -> b, then b -> c
                where, steps = onward[where], steps + 1
            if old in before and where in now:
                found.append((before[old], now[where], revision))
    return found


def _committed_moves(roots: Sequence[str]) -> list[tuple[str, str, str]]:
    """(SKILL.md before, after, the commit) for each SKILL.md a commit renamed or changed, top-relative, newest
    first, over the last ``RENAME_COMMITS`` commits that touched the roots (``git log -M``: trees, no filter)."""
    arguments = ["-c", "diff.relative=false", "-c", "log.showSignature=false", "log", "-M", "--name-status", "-z"]
    arguments += ["--no-color", "--no-ext-diff", "--format=commit %H", f"-n{RENAME_COMMITS}", "HEAD", "--"]
    code, out = run_git([*arguments, *roots])
    if code != 0:
        return []
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    moves: list[tuple[str, str, str]] = []
    commit, index = "", 0
    while index < len(fields):  # at a status or a commit's header; the paths after a status are read with it
        status = fields[index].lstrip("\n")
        if status.startswith("commit "):
            commit, index = status[len("commit ") :], index + 1
            continue
        named = 2 if status[:1] in ("R", "C") else 1  # a rename or a copy names two paths, any other change one
        paths = fields[index + 1 : index + 1 + named]
        index += 1 + named
        if status[:1] in ("R", "M", "T") and len(paths) == named:
            moves.append((paths[0], paths[-1], commit))
    return [move for move in moves if _is_skill_file(move[0]) and _is_skill_file(move[1])][:RENAME_MOVES]


def renames_json(pairs: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    """The JSON of renames: ``{"from": old, "to": new}`` each; the names stay in ``stale`` and ``missing`` too."""
    return [{"from": old, "to": new} for old, new in pairs]


def renamed_apart(item: dict[str, object]) -> tuple[list[str], list[str], list[str]]:
    """A file's result told for a person: its missing and stale names less the renamed ones, and ``old -> new``."""
    pairs = [pair for pair in _listed(item.get("renamed")) if isinstance(pair, dict)]
    gone, arrived = {str(pair.get("from")) for pair in pairs}, {str(pair.get("to")) for pair in pairs}
    missing = [str(name) for name in _listed(item.get("missing")) if str(name) not in arrived]
    stale = [str(name) for name in _listed(item.get("stale")) if str(name) not in gone]
    return missing, stale, [f"{pair.get('from')} -> {pair.get('to')}" for pair in pairs]


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []
