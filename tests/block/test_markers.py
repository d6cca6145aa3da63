from __future__ import annotations

import pytest

from skillmem_hook.block.markers import (
    BEGIN_MARKER,
    DEFAULT_PREAMBLE,
    END_MARKER,
    check_preamble,
    current_block,
    find_markers,
    newline_of,
    splice_block,
)
from skillmem_hook.catalog.skillfile.names import RESERVED_PREFIX
from skillmem_hook.errors import MarkerError, UsageError

BLOCK = b"<<<SKILL_INDEX_BEGIN>>>\nnew\n<<<SKILL_INDEX_END>>>"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", BLOCK + b"\n"),
        (b"text\n", b"text\n\n" + BLOCK + b"\n"),
        (b"text\n\n", b"text\n\n" + BLOCK + b"\n"),
        (b"text", b"text\n\n" + BLOCK + b"\n"),
        (b"a\r\nb", b"a\r\nb\r\n\r\n" + BLOCK + b"\r\n"),
        (b"a\r\n\r\n", b"a\r\n\r\n" + BLOCK + b"\r\n"),  # a CRLF file's blank last line is blank line enough
        (b"\r", b"\r\r" + BLOCK + b"\r"),
        (b"cr\ronly", b"cr\ronly\r\r" + BLOCK + b"\r"),
        (b"lf\ncrlf\r\ncr\rend", b"lf\ncrlf\r\ncr\rend\n\n" + BLOCK + b"\n"),
        (b"a\nb\r", b"a\nb\r\n\n" + BLOCK + b"\n"),
        (
            b"head\n<<<SKILL_INDEX_BEGIN>>>\nold\n<<<SKILL_INDEX_END>>>\ntail\n",
            b"head\n" + BLOCK + b"\ntail\n",
        ),
        (b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>", BLOCK),
        (
            b"\xef\xbb\xbf<<<SKILL_INDEX_BEGIN>>>\r\nold\r\n<<<SKILL_INDEX_END>>>\r\n\xff\xfe tail",
            b"\xef\xbb\xbf" + BLOCK + b"\r\n\xff\xfe tail",
        ),
        (b"mention <<<SKILL_INDEX_BEGIN>>> inline\n", b"mention <<<SKILL_INDEX_BEGIN>>> inline\n\n" + BLOCK + b"\n"),
        (b"a\r<<<SKILL_INDEX_BEGIN>>>\rold\r<<<SKILL_INDEX_END>>>\r\rb", b"a\r" + BLOCK + b"\r\rb"),
        (b"<<<SKILL_INDEX_BEGIN>>>\r<<<SKILL_INDEX_END>>>", BLOCK),
    ],
)
def test_splice_block(data, expected):
    assert splice_block(data, BLOCK, preamble=None) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", b"Load me.\n\n" + BLOCK + b"\n"),
        (b"- last bullet\n", b"- last bullet\n\nLoad me.\n\n" + BLOCK + b"\n"),
        (b"# T\r\n- b", b"# T\r\n- b\r\n\r\nLoad me.\r\n\r\n" + BLOCK + b"\r\n"),
    ],
)
def test_the_first_injection_writes_the_preamble_above_the_block(data, expected):
    assert splice_block(data, BLOCK, preamble="Load me.") == expected


def test_a_later_injection_changes_no_byte_outside_the_markers_whatever_the_preamble():
    first = splice_block(b"# Agents\n- item\n", BLOCK)
    assert first.startswith(b"# Agents\n- item\n\n" + DEFAULT_PREAMBLE.encode() + b"\n\n" + BLOCK)
    edited = first.replace(DEFAULT_PREAMBLE.encode(), b"my own words")
    other = BLOCK.replace(b"new", b"newer")
    assert splice_block(edited, other) == edited.replace(BLOCK, other)
    assert splice_block(edited, other, preamble="Another line.") == edited.replace(BLOCK, other)


@pytest.mark.parametrize("preamble", ["two\nlines", " padded", "has <<<SKILL_INDEX_BEGIN>>>", "tab\there"])
def test_a_preamble_that_is_not_one_plain_line_is_a_usage_error(preamble):
    with pytest.raises(UsageError):
        check_preamble(preamble)
    with pytest.raises(UsageError):
        splice_block(b"x\n", BLOCK, preamble=preamble)


def test_the_markers_are_built_from_the_prefix_the_catalog_refuses_in_names():
    assert BEGIN_MARKER.startswith(RESERVED_PREFIX)
    assert END_MARKER.startswith(RESERVED_PREFIX)
    assert (BEGIN_MARKER, END_MARKER) == ("<<<SKILL_INDEX_BEGIN>>>", "<<<SKILL_INDEX_END>>>")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x\n<<<SKILL_INDEX_BEGIN>>>\ny\n", "the BEGIN marker at line 2 has no END marker"),
        (b"<<<SKILL_INDEX_END>>>\n", "the END marker at line 1 has no BEGIN marker"),
        (
            b"<<<SKILL_INDEX_END>>>\n<<<SKILL_INDEX_BEGIN>>>\n",
            "the END marker at line 1 comes before the BEGIN marker at line 2",
        ),
        (
            b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n",
            "more than one marker pair: BEGIN at line 1, BEGIN at line 3, END at line 2, END at line 4",
        ),
        (
            b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n",
            "more than one marker pair: BEGIN at line 1, BEGIN at line 2, END at line 3",
        ),
        (
            b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\nmine\n<<<SKILL_INDEX_END>>>\n",
            "more than one marker pair: BEGIN at line 1, END at line 2, END at line 4",
        ),
        (
            b"a\n<<<SKILL_INDEX_BEGIN>>> \n<<<SKILL_INDEX_END>>>\n",
            "line 2 holds a marker with other whitespace or invisible characters around it",
        ),
        (
            b"<<<SKILL_INDEX_BEGIN>>>\n\t<<<SKILL_INDEX_END>>>\n",
            "line 2 holds a marker with other whitespace or invisible characters around it",
        ),
        (b"a\rb\r<<<SKILL_INDEX_END>>>\r", "the END marker at line 3 has no BEGIN marker"),
        (b"```\n<<<SKILL_INDEX_BEGIN>>>\n```\n", "the BEGIN marker at line 2 has no END marker"),
    ],
)
def test_marker_anomalies_are_errors_naming_the_lines(data, message):
    with pytest.raises(MarkerError) as raised:
        splice_block(data, BLOCK)
    assert raised.value.message == message
    assert "never repairs" in raised.value.hint or "exactly the marker" in raised.value.hint


NEAR_MISSES = [
    b"<<<SKILL_INDEX_BEGIN>>>\x0c",
    b"\x0b<<<SKILL_INDEX_BEGIN>>>",
    "<<<SKILL_INDEX_BEGIN>>>\u00a0".encode(),
    "\u200b<<<SKILL_INDEX_BEGIN>>>".encode(),
    "\ufeff<<<SKILL_INDEX_BEGIN>>>".encode(),  # on line 2: a BOM counts only at the file's start
    "<<<SKILL_INDEX_BEGIN>>>\u3000".encode(),
    "<<<SKILL_INDEX_BEGIN>>>\ufeff".encode(),
    "<<<SKILL_INDEX_BEGIN>>>\u3164".encode(),
    "<<<SKILL_INDEX_BEGIN>>>\u0338".encode(),
    b"<<<SKILL_INDEX_BEGIN>>>\xa0",  # Latin-1 NBSP: undecodable bytes show no text we can trust
    b"<<<SKILL_INDEX_BEGIN>>>\r\r",  # a stray CR before the line ending
    b"x\r<<<SKILL_INDEX_BEGIN>>>",  # an editor shows it on a line of its own
    b"<<<SKILL_INDEX_BEGIN>>>\rx",
]


@pytest.mark.parametrize("near_miss", NEAR_MISSES)
@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_every_near_miss_marker_line_is_malformed(near_miss, newline):
    data = newline.join([b"# Agents", near_miss, b"alpha", END_MARKER.encode(), b"tail"])
    with pytest.raises(MarkerError, match="line 2 holds a marker with other whitespace or invisible"):
        find_markers(data)


def test_markers_in_a_cr_only_file_are_found_and_a_blank_line_after_them_is_fine():
    data = b"# Agents\r\r<<<SKILL_INDEX_BEGIN>>>\r\r[general]\ra\r<<<SKILL_INDEX_END>>>\r\rtail\r"
    assert current_block(data) == b"<<<SKILL_INDEX_BEGIN>>>\r\r[general]\ra\r<<<SKILL_INDEX_END>>>"
    assert newline_of(data) == b"\r"
    with pytest.raises(MarkerError, match="more than one marker pair: BEGIN at line 3, BEGIN at line 5"):
        find_markers(data.replace(b"[general]", BEGIN_MARKER.encode()))


def test_thousands_of_marker_lines_give_one_short_message_with_the_right_line_numbers():
    data = b"".join([b"text\n", (BEGIN_MARKER + "\n").encode() * 80_000])
    with pytest.raises(MarkerError) as raised:
        find_markers(data)
    message = raised.value.message
    assert message.startswith("more than one marker pair: BEGIN at line 2, BEGIN at line 3, ")
    assert message.endswith("BEGIN at line 11 and 79,990 more")
    assert len(message) < 300


@pytest.mark.parametrize(
    ("data", "newline"),
    [
        (b"", b"\n"),
        (b"one line", b"\n"),
        (b"a\nb\r\n", b"\n"),
        (b"a\r\nb\n", b"\r\n"),
        (b"\n", b"\n"),
        (b"\r\n", b"\r\n"),
        (b"a\rb", b"\r"),
        (b"a\rb\n", b"\n"),
    ],
)
def test_newline_is_that_of_the_first_line(data, newline):
    assert newline_of(data) == newline


def test_current_block_and_find_markers():
    data = b"x\n<<<SKILL_INDEX_BEGIN>>>\r\na\r\n<<<SKILL_INDEX_END>>>\r\ny"
    start, stop = find_markers(data)
    assert data[start:stop] == current_block(data) == b"<<<SKILL_INDEX_BEGIN>>>\r\na\r\n<<<SKILL_INDEX_END>>>"
    assert current_block(b"no markers") is None


def paragraph_holding_the_begin_marker(markdown: bytes):
    """The tokens of the CommonMark paragraph whose text holds the BEGIN marker: (nesting level, text)."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(markdown.decode())
    for index, token in enumerate(tokens):
        if token.type == "inline" and BEGIN_MARKER in token.content:
            return tokens[index - 1].level, token.content
    raise AssertionError("no paragraph holds the marker")


@pytest.mark.parametrize("ending", [b"- last bullet\n", b"- last bullet", b"1. item\n   continued\n", b"> quoted\n"])
@pytest.mark.parametrize("preamble", [DEFAULT_PREAMBLE, None])
def test_an_appended_block_renders_as_a_paragraph_of_its_own(ending, preamble):
    block = BEGIN_MARKER.encode() + b"\n[general]\nalpha\n" + END_MARKER.encode()
    assert (
        paragraph_holding_the_begin_marker(b"# CLAUDE.md\n\n" + ending.rstrip(b"\n") + b"\n" + block)[0] > 0
    )  # the bug
    level, text = paragraph_holding_the_begin_marker(splice_block(b"# CLAUDE.md\n\n" + ending, block, preamble))
    assert level == 0
    assert text.startswith(BEGIN_MARKER)


def test_the_marker_benchmark_runs_and_prints_a_row_per_case():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "markers.py"
    result = subprocess.run(
        [sys.executable, str(script), "--lines", "50,100", "--runs", "1"], capture_output=True, text=True, check=True
    )
    rows = result.stdout.splitlines()[1:]
    assert len(rows) == 2 * 3 * 2
    assert all(row.split()[2] in ("50", "100") for row in rows)
