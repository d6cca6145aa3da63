"""Find the index markers in a prompt file's bytes, and splice a block between them.

Pure, and on bytes: whatever lies outside the markers, in any encoding and
with any line endings, is copied through untouched. Lines end in LF or CRLF;
in a file holding no LF at all (old Mac style), in CR.
"""

from __future__ import annotations

from skillmem_hook.catalog.skillfile.names import RESERVED_PREFIX, invisible
from skillmem_hook.errors import MarkerError, UsageError

BEGIN_MARKER = RESERVED_PREFIX + "BEGIN>>>"
END_MARKER = RESERVED_PREFIX + "END>>>"
_PREFIX = RESERVED_PREFIX.encode()
_KINDS = {BEGIN_MARKER.encode(): "BEGIN", END_MARKER.encode(): "END"}
_BOM = b"\xef\xbb\xbf"
# The first line of the text placed above a block on its first injection only.
# It says how to load a listed skill: a name the agent cannot load is no help.
DEFAULT_PREAMBLE = (
    "Skills available here (index kept by skillmem): before a task that fits one, "
    "load it with `skillmem read NAME` (or open the SKILL.md whose name: is listed below) and follow it."
)
LISTED_LINES = 10  # line numbers named in an error; a file of 80,000 marker lines stays one readable line
_MARKERS_HINT = (
    "keep exactly one line '<<<SKILL_INDEX_BEGIN>>>' above one line '<<<SKILL_INDEX_END>>>'; "
    "skillmem never repairs markers itself, so that none of your text is lost"
)


def newline_of(data: bytes) -> bytes:
    """The file's line ending: that of its first line; CR in a file with CR but no LF; else LF."""
    first = data.find(b"\n")
    if first < 0:
        return b"\r" if b"\r" in data else b"\n"
    return b"\r\n" if data[first - 1 : first] == b"\r" else b"\n"


def find_markers(data: bytes) -> tuple[int, int] | None:
    """The (start, stop) of the block, from BEGIN's first byte to END's last.

    None when the file holds no marker. Raises MarkerError, naming line
    numbers, for anything but one BEGIN line followed by one END line. One
    pass over the bytes, whatever the number of marker lines.
    """
    if _PREFIX not in data:
        return None
    found: dict[str, list[tuple[int, int]]] = {"BEGIN": [], "END": []}
    breaker = b"\n" if b"\n" in data else b"\r"
    line, counted, stop = 1, 0, 0
    position = data.find(_PREFIX)
    while position >= 0:
        # Searches are bounded by the previous line's end, so the whole scan stays linear.
        start = max(data.rfind(b"\n", stop, position), data.rfind(b"\r", stop, position)) + 1
        stop = _line_stop(data, position, breaker)
        line += data.count(breaker, counted, start)
        counted = start
        kind = _classify(data, start, stop, breaker)
        if kind == "near":
            raise MarkerError(
                f"line {line} holds a marker with other whitespace or invisible characters around it",
                f"make line {line} exactly the marker, with nothing else on it, ending in the file's line ending",
            )
        if kind:
            found[kind].append((line, start))
        position = data.find(_PREFIX, stop)
    if not found["BEGIN"] and not found["END"]:
        return None
    _check_pairing([line for line, _ in found["BEGIN"]], [line for line, _ in found["END"]])
    begin, end = found["BEGIN"][0][1], found["END"][0][1]
    begin += len(_BOM) if data.startswith(_BOM, begin) else 0
    return begin, end + len(END_MARKER)


def _line_stop(data: bytes, position: int, breaker: bytes) -> int:
    """Where the visual line holding ``position`` ends: at the next CR or LF, or the end."""
    line_feed = data.find(b"\n", position) if breaker == b"\n" else -1
    if line_feed < 0:
        line_feed = len(data)
    carriage_return = data.find(b"\r", position, line_feed)
    return line_feed if carriage_return < 0 else carriage_return


def _classify(data: bytes, start: int, stop: int, breaker: bytes) -> str:
    """'BEGIN' or 'END' for a marker line, 'near' for a near miss, '' for text that mentions one."""
    text = data[start:stop]
    if start == 0 and text.startswith(_BOM):
        text = text[len(_BOM) :]
    for marker, kind in _KINDS.items():
        if text == marker:
            return kind if _ends_line(data, start, stop, breaker) else "near"
        if marker in text:
            rest = text.replace(marker, b"", 1).decode("utf-8", errors="surrogateescape")
            return "near" if all(invisible(character) for character in rest) else ""
    return ""


def _ends_line(data: bytes, start: int, stop: int, breaker: bytes) -> bool:
    """True when the line is bounded by real line breaks of this file, not a stray CR."""
    if breaker == b"\r":
        return True
    before_ok = start == 0 or data[start - 1 : start] == b"\n"
    after = data[stop : stop + 2]
    return before_ok and (after[:1] in (b"", b"\n") or after == b"\r\n")


def _check_pairing(begins: list[int], ends: list[int]) -> None:
    if len(begins) > 1 or len(ends) > 1:
        where = [f"BEGIN at line {line}" for line in begins] + [f"END at line {line}" for line in ends]
        more = f" and {len(where) - LISTED_LINES:,} more" if len(where) > LISTED_LINES else ""
        raise MarkerError(f"more than one marker pair: {', '.join(where[:LISTED_LINES])}{more}", _MARKERS_HINT)
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


def splice_block(data: bytes, block: bytes, preamble: str | None = DEFAULT_PREAMBLE) -> bytes:
    """The file with ``block`` between its markers, or appended when it has none.

    Appended, the block gets a blank line before it, so Markdown renders it as
    a paragraph of its own and not as part of a list the file ends with, and
    ``preamble`` (one line; None or '' for none) above it. Only on this first
    injection: later ones change nothing outside the markers.
    """
    span = find_markers(data)
    if span is not None:
        start, stop = span
        return data[:start] + block + data[stop:]
    newline = newline_of(data)
    head = data
    if head and not head.endswith((b"\n", b"\r")):
        head += newline
    elif head.endswith(b"\r") and newline != b"\r":
        head += b"\n"  # a last line ending in a stray CR: end it as CRLF
    if head and not head.endswith((b"\n\n", b"\r\n\r\n", b"\r\r")):
        head += newline
    if preamble:
        head += check_preamble(preamble).encode("utf-8") + newline + newline
    return head + block + newline


def check_preamble(preamble: str) -> str:
    """The preamble, refused when it would not stay one plain line outside the markers."""
    if preamble.strip() != preamble or not preamble.isprintable() or RESERVED_PREFIX in preamble:
        raise UsageError(
            f"the line written above the skill index is not one plain line: {preamble!r}",
            f"give one line of printable text, without {RESERVED_PREFIX!r} or line breaks",
        )
    return preamble
