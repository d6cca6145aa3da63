"""Render the index block from skills, and read one back.

The block's bytes depend only on the set of skills: domains in the table's
priority order, names sorted by code point, one per line.
"""

from __future__ import annotations

from skillmem_hook.block.markers import BEGIN_MARKER, END_MARKER
from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES
from skillmem_hook.catalog.skillfile.names import CONFLICT_PREFIXES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from skillmem_hook.catalog.skills import Skill


def group_by_domain(skills: Iterable[Skill]) -> dict[str, list[str]]:
    """Labels per non-empty domain, domains in priority order, labels sorted."""
    grouped: dict[str, list[str]] = {domain: [] for domain in DOMAIN_NAMES}
    for skill in skills:
        grouped[skill.domain].append(skill.label)
    return {domain: sorted(labels) for domain, labels in grouped.items() if labels}


def count_by_domain(skills: Iterable[Skill]) -> dict[str, int]:
    """How many skills each non-empty domain holds, in priority order."""
    return {domain: len(labels) for domain, labels in group_by_domain(skills).items()}


def render_block(skills: Iterable[Skill], newline: bytes = b"\n") -> bytes:
    """The block, markers included, without a line ending after END."""
    lines = [BEGIN_MARKER]
    for domain, labels in group_by_domain(skills).items():
        lines.append(f"[{domain}]")
        lines.extend(labels)
    lines.append(END_MARKER)
    return newline.join(line.encode("utf-8") for line in lines)


def read_block(block: bytes) -> tuple[dict[str, str], bool]:
    """The labels a block lists, each with the domain it is listed under; and whether it holds a merge conflict.

    Lines end in LF, CRLF or (in a file without LF) CR, as the markers do.
    Git's conflict lines (``<<<<<<< ours``, ``=======``, ``>>>>>>> theirs``,
    ``||||||| base``) are no names: ``check_name`` refuses names that start so.
    """
    listed: dict[str, str] = {}
    conflict = False
    domain = ""
    for raw in block.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")[1:-1]:
        line = raw.decode("utf-8", errors="replace")
        if line.startswith(CONFLICT_PREFIXES):
            conflict = True
        elif line.startswith("[") and line.endswith("]"):
            domain = line[1:-1]
        elif line:
            listed[line] = domain
    return listed, conflict
