"""``skillmem index``: scan, parse, de-duplicate and categorise; optionally write SKILLS_INDEX.md."""

from __future__ import annotations

import os

from skillmem_hook.arguments import add_catalog_options, add_location_options, add_text_option
from skillmem_hook.block.index_file import render_index_file
from skillmem_hook.block.render import count_by_domain
from skillmem_hook.catalog.catalog import Catalog
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skillfile.frontmatter import brief_warning
from skillmem_hook.config import check_targets, load_settings, require_roots
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.files import check_output_target
from skillmem_hook.git_views import cli_notes
from skillmem_hook.report import emit
from skillmem_hook.text_lines import MAX_NAMES, counted, note_lines
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions

# Every index file skillmem writes starts with its header, so it knows the
# files it may replace without --force.
_SIGNATURE = render_index_file(()).rstrip(b"\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    parser.add_argument("--write", metavar="PATH", help="also write a human-readable SKILLS_INDEX.md there")
    parser.add_argument("--force", action="store_true", help="replace an existing file that skillmem did not write")
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, write=options.write, tracked=options.tracked, cache=options.cache)
    roots = require_roots(settings)
    check_targets(settings, prompt_files=False)
    return index(
        roots,
        settings.write,
        settings.prompt_files,
        force=options.force,
        options=settings.catalog_options(),
        text=options.text,
        quiet=settings.quiet,
        base=settings.base,
    )


def index(
    roots: Sequence[str],
    write: str | None,
    prompt_files: Sequence[str] = (),
    *,
    force: bool = False,
    options: CatalogOptions | None = None,
    text: bool = False,
    quiet: Sequence[str] = (),
    base: str = ".",
) -> int:
    """``base``: the configuration file's folder, which a folder of ``quiet:`` is relative to."""
    catalog = scan_roots(roots, options)
    result = catalog_json(catalog)
    result.update(cli_notes(catalog))
    said = selection_notes(catalog, options, quiet, base)
    if said:
        result["notes"] = [*result.get("notes", []), *said]  # type: ignore[misc]
    if write is not None:
        result["written"] = write_index_file(write, catalog, prompt_files, force=force)
    emit(result, as_text if text else None)
    return EXIT_OK


def as_text(result: dict[str, object]) -> str:
    """``--text``: each skill by its domain and folder, then each file the block leaves out or warns of, and why."""
    lines = [counted(int(str(result["count"])), "skill")]
    for skill in result.get("skills") or []:  # type: ignore[attr-defined]
        lines.append(f"  [{skill['domain']}] {skill['name']}  ({_folder(skill)})")
    for key, (noun, title) in _LISTS.items():
        items: list[dict[str, object]] = result.get(key) or []  # type: ignore[assignment]
        if items:
            lines.append(f"{counted(len(items), noun)}{title}:")
            lines += [f"  {_folder(item)}: {_why(key, item)}" for item in items[:MAX_NAMES]]
        if len(items) > MAX_NAMES:
            lines.append(f"  ... and {len(items) - MAX_NAMES:,} more (the JSON output lists every one)")
    if "written" in result:
        lines.append(f"the index file was {'written' if result['written'] else 'current already'}")
    return "\n".join(lines + note_lines(result)) + "\n"


_LISTS = {  # each list's noun, and what follows it
    "duplicates": ("duplicate", ", left out (another skill of the name is listed)"),
    "skipped": ("SKILL.md file", " left out"),
    "excluded": ("skill", " excluded by the configuration"),
    "warnings": ("warning", ""),
}


def _folder(item: dict[str, object]) -> str:
    # Folder names come from the repository: escaped, so none acts on the terminal or adds a line.
    return visible(f"{item['root']}/{item['path']}")


def _why(key: str, item: dict[str, object]) -> str:
    if key == "duplicates":
        kept: dict[str, str] = item["kept"]  # type: ignore[assignment]
        return visible(f"{item['name']}, as {kept['root']}/{kept['path']} is")
    if key == "warnings":
        return visible(brief_warning(str(item["warning"])))
    return visible(str(item["reason" if key == "skipped" else "name"]))


def selection_notes(
    catalog: Catalog, options: CatalogOptions | None, quiet: Sequence[str], base: str = "."
) -> list[str]:
    """A note for each pattern of ``exclude:``, ``domains:`` or ``quiet:`` that names no skill of the roots.

    A folder of ``quiet:`` (relative to ``base``) names no skill when no skill, nor SKILL.md left out, is below it.
    """
    if options is None or not (options.exclude or options.domains or quiet):
        return []
    from skillmem_hook.catalog.placement.quiet import Quiet  # noqa: PLC0415 - a file with the keys
    from skillmem_hook.catalog.placement.selection import (  # noqa: PLC0415 - a file with the keys
        folder_name,
        left_out_folder,
        unmatched_patterns,
    )

    skills = [*catalog.skills, *catalog.excluded, *(dropped for dropped, _ in catalog.duplicates)]
    # quiet: names a SKILL.md left out by its folder's name, and a skill whose name no pattern is by its folder's too.
    folders = [left_out_folder(item) for item in catalog.skipped] + [folder_name(skill) for skill in skills]
    said = Quiet(quiet, base, skills)
    places = [(skill.root, skill.path) for skill in skills] + [(item["root"], item["path"]) for item in catalog.skipped]
    return [
        *unmatched_patterns("exclude", options.exclude, skills),
        *unmatched_patterns("domains", options.domains, skills),
        *unmatched_patterns("quiet", said.table, skills, folders),
        *(
            f"quiet: '{pattern}' names no skill: no SKILL.md in or below that folder (from .skillmem.yaml's)"
            for pattern in said.unmatched_folders(places)
        ),
        *(
            f"quiet: '{pattern}' is read as the skill of that name, not as the folder below which skills lie too;"
            f" '{pattern}/' names the folder"
            for pattern in said.names_over_folders(places, base)
        ),
    ]


def catalog_json(catalog: Catalog) -> dict[str, object]:
    return {
        "count": len(catalog.skills),
        "domains": count_by_domain(catalog.skills),
        "skills": (skill.as_json() for skill in sorted(catalog.skills, key=lambda skill: skill.label)),
        "duplicates": [
            {
                "name": dropped.name,
                "root": dropped.root,
                "path": dropped.path,
                "kept": {"root": kept.root, "path": kept.path},
            }
            for dropped, kept in catalog.duplicates
        ],
        "skipped": catalog.skipped,
        "excluded": [{"name": skill.label, "root": skill.root, "path": skill.path} for skill in catalog.excluded],
        "warnings": catalog.warnings,
        "notices": catalog.notices,
    }


def write_index_file(path: str, catalog: Catalog, prompt_files: Sequence[str] = (), *, force: bool = False) -> bool:
    """Write SKILLS_INDEX.md when its bytes change; True when it was written.

    A link is written through to its target, as prompt files are. Never over
    a prompt file, a FIFO or device, a read-only file, or (without
    ``force``) a file skillmem did not write.
    """
    target, old = check_output_target(
        path, "the skills index", signature=_SIGNATURE, protected=prompt_files, force=force
    )
    content = render_index_file(catalog.skills, os.path.dirname(path))
    if old == content:
        return False
    from skillmem_hook.atomic import commit_all, stage, staging  # noqa: PLC0415 - only a run that writes pays for it

    with staging() as staged:
        stage(staged, target, content, label=path, expected=old)
        return bool(commit_all(staged))
