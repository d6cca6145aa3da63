"""``skillmem read NAME``: print a skill's SKILL.md as it is, so an agent can load what the block names.

Like ``prompt --raw``, its output is not a JSON line: the file's bytes,
unchanged, to a pipe or a file (an agent reads them). To a terminal, a person
reads it: each control character that would act on the terminal (an escape
sequence that sets the title, clears the screen or writes the clipboard, a
lone carriage return) is shown as an escape, as the reports show them.

The name is looked up as the block shows it (``@owner/name`` for an
owner's skill), or as its SKILL.md declares it; a name no skill has, as its
folder's name or its folder's path (``team-a/deploy``, for two folders of one
name). Two skills of one name
(one kept in the block, one left out as a duplicate) are both named, with
their paths, unless ``--path`` picks one. Read through the same safe reader
as MCP's ``skill_read``: no link out of the root, regular files only,
size-capped, never blocking.
"""

from __future__ import annotations

import os
import shlex
import sys

from skillmem_hook.arguments import add_catalog_options, add_location_options
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery.safe_read import read_skill_file, skill_file_path
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.errors import EXIT_OK, FileAccessError, UsageError
from skillmem_hook.report import emit_raw
from skillmem_hook.search.lookup import (
    nearest_names,
    read_by_folder,
    skills_at_path,
    skills_in_folder,
    skills_named,
    why_not_offered,
)
from skillmem_hook.streams import on_terminal, silence, write_text
from skillmem_hook.visible import for_people, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.catalog.skills import Skill


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    parser.add_argument("name", metavar="NAME", help="the skill's name as the block shows it")
    parser.add_argument("--path", metavar="PATH", help="which one, when two skills share the name")


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    return read(require_roots(settings), options.name, path=options.path, options=settings.catalog_options())


def read(roots: Sequence[str], name: str, *, path: str | None = None, options: CatalogOptions | None = None) -> int:
    options = options or CatalogOptions()
    catalog = scan_roots(roots, options)
    skill = pick_skill(catalog, name, path, roots=roots)
    data = read_skill_file(skill.root, skill.path, user_root=options.user_roots, boundary=options.boundary)
    # The file's bytes stay as they are on stdout: a notice about its root (one outside the repository) on stderr,
    # and that a folder's name found it.
    if not skills_named([skill], name) and not skills_at_path([skill], name):
        said = read_by_folder(name, skill, skill_file_path(skill.root, skill.path))
        write_text(sys.stderr, f"skillmem read: {said}\n")
    for item in catalog.notices:
        if item["root"] == skill.root:
            write_text(sys.stderr, f"skillmem read: skills root {visible(item['root'])} {item['notice']}\n")
    _write_bytes(data)
    return EXIT_OK


def _write_bytes(data: bytes) -> None:
    """The file's bytes on stdout, unchanged: a byte that is not UTF-8 goes out as it is."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a stream without bytes underneath (a test's StringIO)
        emit_raw(data.decode("utf-8", "replace"))
        return
    try:
        sys.stdout.flush()
        buffer.write(_shown_on_terminal(data) if on_terminal(buffer) else data)
        buffer.flush()
    except BrokenPipeError:  # the reader (head, a closed agent) has what it wanted
        silence(sys.stdout)
    except (OSError, ValueError) as error:
        silence(sys.stdout)
        raise FileAccessError(
            f"cannot write the skill to stdout: {getattr(error, 'strerror', None) or error}",
            "check where stdout goes (a full disk, /dev/full, a closed stream)",
        ) from None


def _shown_on_terminal(data: bytes) -> bytes:
    """The file as a terminal may show it: line breaks (LF and CR LF) and tabs kept, every other control escaped.

    A byte that is not UTF-8 shows as its escape too (``\\xe9``): a terminal could read it as part of a sequence.
    A leading BOM hides nothing (it marks the encoding) and is left out; a U+FEFF anywhere else shows.
    """
    text = data.decode("utf-8", "backslashreplace").removeprefix("\ufeff")
    return "\r\n".join(for_people(line) for line in text.split("\r\n")).encode("utf-8")


def pick_skill(catalog: Catalog, name: str, path: str | None = None, *, roots: Sequence[str] | None = None) -> Skill:
    """The one skill called ``name`` (its label or declared name), else the one in a folder of that name or at
    that folder's path; UsageError naming what to do otherwise (why, for a skill excluded or left out; with
    ``roots``, the name git says a skill had, with the name it has now).

    Of two SKILL.md files of one name the one the block lists (the index
    keeps) is read, as MCP's ``skill_read`` reads it; ``path`` picks either.
    """
    wanted = name.strip()
    pool = catalog.skills if path is None else [*catalog.skills, *(dropped for dropped, _ in catalog.duplicates)]
    named = skills_named(pool, name)  # it strips the name itself: one rule for read and skill_read
    if not named and not skills_named(catalog.excluded, name):
        # No skill has that name: the one skill in a folder of that name is it (a person types the folder's name of
        # a skill whose name is a title), one the block lists first, else a duplicate left out. Or the one at that
        # folder's path (team-a/deploy), a duplicate left out too: of two folders of one name, the path names one.
        dropped = [] if path is not None else [duplicate for duplicate, _ in catalog.duplicates]
        named = (
            skills_in_folder(pool, name)
            or skills_in_folder(dropped, name)
            or skills_at_path([*pool, *(d for d, _ in catalog.duplicates)], name)
        )
        if path is None and len(named) > 1:
            named = []  # several: "did you mean" names them first
    if path is not None:
        named = [skill for skill in named if _same_path(skill, path)]
        if not named:
            raise UsageError(f"no skill named {wanted!r} at {path}", "pass a SKILL.md path (or folder) from the error")
    if len(named) == 1:
        return named[0]
    if named:
        paths = ", ".join(sorted(skill_file_path(skill.root, skill.path) for skill in named))
        raise UsageError(f"several skills are named {wanted!r}: {paths}", "pick one with --path PATH")
    # By its name, its folder's name or its folder's path, a skill excluded or left out is named with why.
    why = why_not_offered(catalog, name)
    if why is not None:
        raise UsageError(f"no skill named {wanted!r}: {why[0]}", why[1])
    renamed = renamed_to(catalog, wanted, roots) if roots is not None else None
    hint = renamed or nearest_names(catalog.skills, wanted)
    raise UsageError(
        f"no skill named {wanted!r}", hint or "list the skills: skillmem index --text (or skillmem search WORDS)"
    )


def renamed_to(catalog: Catalog, name: str, roots: Sequence[str]) -> str | None:
    """The hint for a name a skill had before git saw it renamed (its folder moved, its ``name:`` edited): the name
    it has now, and when; None when git knows no such skill. Asked only of a name no skill has: a read of a known
    name runs no git (newcomer en3: 'algolia-search', renamed, was answered "did you mean 'exa-search'?")."""
    from skillmem_hook.renames import skills_renamed  # noqa: PLC0415 - only a name no skill has asks git

    for before, now, commit in skills_renamed(catalog, roots):
        if skills_named([before], name) or skills_in_folder([before], name):
            when = "since the last commit" if commit is None else f"in commit {commit[:12]}"
            folders = os.path.basename(before.path), os.path.basename(os.path.normpath(now.path))
            moved = f", its folder {folders[0]} -> {folders[1]}" if folders[0] != folders[1] else ""
            return f"it was renamed {now.label!r} {when}{moved}: skillmem read {shlex.quote(now.label)}"
    return None


def _same_path(skill: Skill, path: str) -> bool:
    """``path`` names the skill's SKILL.md or its folder, compared resolved: a relative path fits an absolute root."""
    file = skill_file_path(skill.root, skill.path)
    given = os.path.realpath(path)
    return given in (os.path.realpath(file), os.path.realpath(os.path.dirname(file)))
