"""A three-way merge of the index block: the names both sides keep or add, less those either removes. Pure.

The merge driver merges the text outside the block as git would, with each
block emptied first so that no name can conflict; the block is then rebuilt
from this merge of the three lists. Two branches that each add a skill give
a block listing both, which is what the hooks will find in the merged tree.
"""

from __future__ import annotations

from skillmem_hook.block.markers import BEGIN_MARKER, END_MARKER, find_markers
from skillmem_hook.block.render import read_block
from skillmem_hook.catalog.placement.domains import DOMAIN_NAMES


def listing(data: bytes) -> dict[str, str]:
    """The names a file's block lists, each with its domain; empty when it has no block (conflict lines skipped)."""
    span = find_markers(data)
    return {} if span is None else read_block(data[span[0] : span[1]])[0]


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


def render_listing(listed: dict[str, str], newline: bytes = b"\n") -> bytes:
    """The block for these names: domains in the table's order (any other after them), names by code point."""
    order = {domain: number for number, domain in enumerate(DOMAIN_NAMES)}
    domains = sorted(set(listed.values()), key=lambda domain: (order.get(domain, len(order)), domain))
    lines = [BEGIN_MARKER]
    for domain in domains:
        lines.append(f"[{domain}]")
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


def rebuilt(merged_text: bytes, listed: dict[str, str], newline: bytes) -> bytes:
    """The merged text with the merged block between its markers; as it is when it holds no block."""
    span = find_markers(merged_text)
    if span is None:
        return merged_text
    return merged_text[: span[0]] + render_listing(listed, newline) + merged_text[span[1] :]
