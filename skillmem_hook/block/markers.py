"""Find the index markers in a prompt file's bytes, and splice a block between them.

Pure, and on bytes: whatever lies outside the markers, in any encoding and
with any line endings, is copied through untouched.
"""

from __future__ import annotations

import re

from skillmem_hook.errors import MarkerError

BEGIN_MARKER = "<<<SKILL_INDEX_BEGIN>>>"
END_MARKER = "<<<SKILL_INDEX_END>>>"
_BOM = b"\xef\xbb\xbf"
# A marker line, or a near miss: the marker with spaces or tabs around it.
# Near misses are refused rather than ignored, so that a stray space never
# makes a second block appear beside the first.
_MARKER_LINE = re.compile(rb"^(?:\xef\xbb\xbf)?([ \t]*)<<<SKILL_INDEX_(BEGIN|END)>>>([ \t]*)\r?$", re.MULTILINE)
_MARKERS_HINT = (
    "keep exactly one line '<<<SKILL_INDEX_BEGIN>>>' above one line '<<<SKILL_INDEX_END>>>'; "
    "skillmem never repairs markers itself, so that none of your text is lost"
)


def newline_of(data: bytes) -> bytes:
    """The file's line ending: that of its first line, LF when it has none.

    A file with no LF yet that ends in CR gets CRLF: appending the block adds
    an LF after that CR, which makes its first line end in CRLF.
    """
    first = data.find(b"\n")
    if first < 0:
        return b"\r\n" if data.endswith(b"\r") else b"\n"
    return b"\r\n" if data[first - 1 : first] == b"\r" else b"\n"


def find_markers(data: bytes) -> tuple[int, int] | None:
    """The (start, stop) of the block, from BEGIN's first byte to END's last.

    None when the file holds no marker. Raises MarkerError, naming line
    numbers, for anything but one BEGIN line followed by one END line.
    """
    if b"<<<SKILL_INDEX_" not in data:
        return None
    found: dict[bytes, list[tuple[int, re.Match[bytes]]]] = {b"BEGIN": [], b"END": []}
    for match in _MARKER_LINE.finditer(data):
        line = data.count(b"\n", 0, match.start()) + 1
        if match.group(1) or match.group(3):
            raise MarkerError(
                f"line {line} holds a marker with spaces or tabs around it",
                f"make line {line} exactly the marker, with nothing else on it",
            )
        found[match.group(2)].append((line, match))
    begins, ends = found[b"BEGIN"], found[b"END"]
    if not begins and not ends:
        return None
    _check_pairing([line for line, _ in begins], [line for line, _ in ends])
    return begins[0][1].start(2) - len(b"<<<SKILL_INDEX_"), ends[0][1].end(2) + len(b">>>")


def _check_pairing(begins: list[int], ends: list[int]) -> None:
    if len(begins) > 1 or len(ends) > 1:
        where = ", ".join([f"BEGIN at line {line}" for line in begins] + [f"END at line {line}" for line in ends])
        raise MarkerError(f"more than one marker pair: {where}", _MARKERS_HINT)
    if not ends:
        raise MarkerError(f"the BEGIN marker at line {begins[0]} has no END marker", _MARKERS_HINT)
    if not begins:
        raise MarkerError(f"the END marker at line {ends[0]} has no BEGIN marker", _MARKERS_HINT)
    if ends[0] < begins[0]:
        raise MarkerError(
            f"the END marker at line {ends[0]} comes before the BEGIN marker at line {begins[0]}",
            _MARKERS_HINT,
        )


def current_block(data: bytes) -> bytes | None:
    """The block now in the file, markers included; None when there is none."""
    span = find_markers(data)
    return None if span is None else data[span[0] : span[1]]


def splice_block(data: bytes, block: bytes) -> bytes:
    """The file with ``block`` between its markers, or appended when it has none."""
    span = find_markers(data)
    if span is not None:
        start, stop = span
        return data[:start] + block + data[stop:]
    newline = newline_of(data)
    separator = b""
    if data and not data.endswith(b"\n"):
        separator = b"\n" if data.endswith(b"\r") else newline
    return data + separator + block + newline
