"""A three-way merge of the index block: the names both sides keep or add, less those either removes. Pure.

The merge driver merges the text outside the block as git would, with each
block emptied first so that no name can conflict; the block is then rebuilt
from this merge of the three lists. Two branches that each add a skill give
a block listing both, which is what the hooks will find in the merged tree.
A domain the block collapses (``max_block_tokens``) lists no names, only a
count: it stays collapsed, and its count is merged.
"""

from __future__ import annotations

from skillmem_hook.block.markers import BEGIN_MARKER, END_MARKER, find_markers
from skillmem_hook.block.render import collapsed_line, read_block, read_collapsed
from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES


def listing(data: bytes) -> dict[str, str]:
    """The names a file's block lists, each with its domain; empty when it has no block (conflict lines skipped)."""
    span = find_markers(data)
    return {} if span is None else read_block(data[span[0] : span[1]])[0]


def collapsed(data: bytes) -> dict[str, int]:
    """Each domain a file's block collapses, with its count; empty when it has no block or collapses none."""
    span = find_markers(data)
    return {} if span is None else read_collapsed(data[span[0] : span[1]])


def merge_blocks(base: bytes, ours: bytes, theirs: bytes) -> tuple[dict[str, str], dict[str, int]]:
    """The merged block: its names with their domains, and the domains it collapses with their counts.

    A domain any version collapses stays collapsed, since the names that
    version held there are in no block, so a name-by-name merge could not
    tell an addition from the other side's removal. Its count is ours plus
    theirs less the base's (a version that lists the domain counts its names
    there): exact when the two sides did not add or remove the same skill.
    Should the next commit's hook collapse otherwise, no skill is hidden or
    brought back meanwhile; it rewrites the block. Names merge as
    ``merge_listings`` says.
    """
    sides = [listing(data) for data in (base, ours, theirs)]
    counts = [collapsed(data) for data in (base, ours, theirs)]
    kept = {*counts[0], *counts[1], *counts[2]}

    def size(side: int, domain: str) -> int:
        listed = sum(1 for listed_in in sides[side].values() if listed_in == domain)
        return counts[side].get(domain, listed)

    merged = {domain: size(1, domain) + size(2, domain) - size(0, domain) for domain in kept}
    names = {name: domain for name, domain in merge_listings(*sides).items() if domain not in kept}
    return names, {domain: count for domain, count in merged.items() if count > 0}


def merge_listings(base: dict[str, str], ours: dict[str, str], theirs: dict[str, str]) -> dict[str, str]:
    """Each name kept or added by both sides, or added by one; its domain from the side that changed it."""
    merged = {}
    for name in sorted({*base, *ours, *theirs}):
        in_base, in_ours, in_theirs = name in base, name in ours, name in theirs
        if not ((in_ours and in_theirs) or (in_ours and not in_base) or (in_theirs and not in_base)):
            continue
        if in_ours and in_theirs and ours[name] == base.get(name):
            merged[name] = theirs[name]
        else:
            merged[name] = ours[name] if in_ours else theirs[name]
    return merged


def render_listing(listed: dict[str, str], newline: bytes = b"\n", counts: dict[str, int] | None = None) -> bytes:
    """The block for these names: domains in the table's order (any other after them), names by code point.

    ``counts``: the collapsed domains, each written as ``render_block`` writes it, one line with its count.
    """
    counts = counts or {}
    order = {domain: number for number, domain in enumerate(DOMAIN_NAMES)}
    domains = sorted({*listed.values(), *counts}, key=lambda domain: (order.get(domain, len(order)), domain))
    lines = [BEGIN_MARKER]
    for domain in domains:
        lines.append(f"[{domain}]")
        if domain in counts:
            lines.append(collapsed_line(domain, counts[domain]))
        else:
            lines.extend(sorted(name for name, listed_in in listed.items() if listed_in == domain))
    lines.append(END_MARKER)
    return newline.join(line.encode("utf-8") for line in lines)


def emptied(data: bytes) -> bytes:
    """The file with its block's names taken out (the markers stay): what the text merge sees."""
    span = find_markers(data)
    if span is None:
        return data
    newline = b"\r\n" if data[span[0] : span[1]].find(b"\r\n") >= 0 else b"\n"
    return data[: span[0]] + BEGIN_MARKER.encode() + newline + END_MARKER.encode() + data[span[1] :]


def rebuilt(merged_text: bytes, listed: dict[str, str], newline: bytes, counts: dict[str, int] | None = None) -> bytes:
    """The merged text with the merged block between its markers; as it is when it holds no block."""
    span = find_markers(merged_text)
    if span is None:
        return merged_text
    return merged_text[: span[0]] + render_listing(listed, newline, counts) + merged_text[span[1] :]
