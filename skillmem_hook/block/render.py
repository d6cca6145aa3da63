"""Render the index block from skills, and read one back.

The block's bytes depend only on the set of skills (and the token cap):
domains in the table's priority order, names sorted by code point, one per
line. Over a cap of ``max_tokens`` estimated tokens, whole domains collapse,
largest first, into one line naming their count and how to list them; every
domain header stays. A bracketed line is never a name (``check_name``), so a
collapsed line cannot be read back as one.
"""

from __future__ import annotations

from skillmem_hook.block.markers import BEGIN_MARKER, END_MARKER
from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES
from skillmem_hook.catalog.skillfile.names import CONFLICT_PREFIXES

BYTES_PER_TOKEN = 4

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

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


def render_block(skills: Iterable[Skill], newline: bytes = b"\n", max_tokens: int | None = None) -> bytes:
    """The block, markers included, without a line ending after END; within ``max_tokens`` when it can be."""
    grouped = group_by_domain(skills)
    collapsed = collapsed_domains(grouped, max_tokens)
    lines = [BEGIN_MARKER]
    for domain, labels in grouped.items():
        lines.append(f"[{domain}]")
        if domain in collapsed:
            lines.append(collapsed_line(domain, len(labels)))
        else:
            lines.extend(labels)
    lines.append(END_MARKER)
    return newline.join(line.encode("utf-8") for line in lines)


def collapsed_line(domain: str, count: int) -> str:
    return f"[{count} {'skill' if count == 1 else 'skills'}: list them with skillmem search --domain {domain}]"


def estimate_tokens(size: int) -> int:
    """Four bytes a token, rounded up: the estimate ``stats`` reports."""
    return -(-size // BYTES_PER_TOKEN)


def collapsed_domains(grouped: dict[str, list[str]], max_tokens: int | None) -> set[str]:
    """The domains to collapse so the block (with LF endings) fits ``max_tokens``: none when it fits as it is.

    Largest domain (in bytes) first, ties in the table's order; sizes are
    counted with LF endings, so a CRLF file gets the same block as an LF one.
    """
    if max_tokens is None:
        return set()
    sizes = {domain: sum(len(label.encode("utf-8")) + 1 for label in labels) for domain, labels in grouped.items()}
    fixed = len(BEGIN_MARKER) + len(END_MARKER) + 1 + sum(len(domain) + 3 for domain in grouped)
    total = fixed + sum(sizes.values())
    collapsed: set[str] = set()
    for domain in sorted(grouped, key=lambda name: -sizes[name]):  # sorted() is stable: ties keep table order
        if estimate_tokens(total) <= max_tokens:
            break
        saved = sizes[domain] - len(collapsed_line(domain, len(grouped[domain])).encode("utf-8")) - 1
        if saved > 0:  # a domain of one short name costs less listed than collapsed
            total -= saved
            collapsed.add(domain)
    return collapsed


def collapsed_lines(block: bytes) -> set[bytes]:
    """The collapsed-domain lines of a block, line endings aside: a count changes when a hidden skill comes or goes."""
    return {line for line in _inner_lines(block) if _is_collapsed(line.decode("utf-8", "replace"))}


def read_collapsed(block: bytes) -> dict[str, int]:
    """Each domain the block collapses, with the count its collapsed line gives."""
    return {domain: collapsed_count(line) or 0 for domain, line in _under_domains(block) if _is_collapsed(line)}


def collapsed_count(line: str) -> int | None:
    """The count a collapsed domain's line starts with (``[12 skills: ``, ``[1 skill: ``); None for any other line.

    What the pattern ``\\[([0-9]+) skills?: `` matches at the start, without re: a warm hook run reads the block
    and matches nothing else (tests/block/test_render.py holds the two equal).
    """
    if not line.startswith("["):
        return None
    digits, found, rest = line[1:].partition(" skill")
    if not (found and digits.isascii() and digits.isdigit() and rest.startswith((": ", "s: "))):
        return None
    return int(digits)


def read_block(block: bytes) -> tuple[dict[str, str], bool]:
    """The labels a block lists, each with the domain it is listed under; and whether it holds a merge conflict.

    Lines end in LF, CRLF or (in a file without LF) CR, as the markers do.
    Git's conflict lines (``<<<<<<< ours``, ``=======``, ``>>>>>>> theirs``,
    ``||||||| base``) are no names: ``check_name`` refuses names that start so.
    """
    listed: dict[str, str] = {}
    conflict = False
    for domain, line in _under_domains(block):
        if line.startswith(CONFLICT_PREFIXES):
            conflict = True
        elif line and not _is_collapsed(line):
            listed[line] = domain
    return listed, conflict


def _inner_lines(block: bytes) -> list[bytes]:
    """The lines between a block's markers, whatever they end with (LF, CRLF, or CR in a file without LF)."""
    return block.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")[1:-1]


def _under_domains(block: bytes) -> Iterator[tuple[str, str]]:
    """Each line between the markers but the domain headers, decoded, with the domain it stands under."""
    domain = ""
    for raw in _inner_lines(block):
        line = raw.decode("utf-8", errors="replace")
        if line.startswith("[") and line.endswith("]") and collapsed_count(line) is None:
            domain = line[1:-1]
        else:
            yield domain, line


def _is_collapsed(line: str) -> bool:
    return line.endswith("]") and collapsed_count(line) is not None
