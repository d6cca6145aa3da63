from __future__ import annotations

import pytest

from skillmem_hook.block.markers import current_block, find_markers, newline_of, splice_block
from skillmem_hook.errors import MarkerError

BLOCK = b"<<<SKILL_INDEX_BEGIN>>>\nnew\n<<<SKILL_INDEX_END>>>"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", BLOCK + b"\n"),
        (b"text\n", b"text\n" + BLOCK + b"\n"),
        (b"text", b"text\n" + BLOCK + b"\n"),
        (b"a\r\nb", b"a\r\nb\r\n" + BLOCK + b"\r\n"),
        (b"\r", b"\r\n" + BLOCK + b"\r\n"),
        (b"lf\ncrlf\r\ncr\rend", b"lf\ncrlf\r\ncr\rend\n" + BLOCK + b"\n"),
        (b"a\nb\r", b"a\nb\r\n" + BLOCK + b"\n"),
        (
            b"head\n<<<SKILL_INDEX_BEGIN>>>\nold\n<<<SKILL_INDEX_END>>>\ntail\n",
            b"head\n" + BLOCK + b"\ntail\n",
        ),
        (b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>", BLOCK),
        (
            b"\xef\xbb\xbf<<<SKILL_INDEX_BEGIN>>>\r\nold\r\n<<<SKILL_INDEX_END>>>\r\n\xff\xfe tail",
            b"\xef\xbb\xbf" + BLOCK + b"\r\n\xff\xfe tail",
        ),
        (b"mention <<<SKILL_INDEX_BEGIN>>> inline\n", b"mention <<<SKILL_INDEX_BEGIN>>> inline\n" + BLOCK + b"\n"),
    ],
)
def test_splice_block(data, expected):
    assert splice_block(data, BLOCK) == expected


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
            b"a\n<<<SKILL_INDEX_BEGIN>>> \n<<<SKILL_INDEX_END>>>\n",
            "line 2 holds a marker with spaces or tabs around it",
        ),
        (b"<<<SKILL_INDEX_BEGIN>>>\n\t<<<SKILL_INDEX_END>>>\n", "line 2 holds a marker with spaces or tabs around it"),
        (b"```\n<<<SKILL_INDEX_BEGIN>>>\n```\n", "the BEGIN marker at line 2 has no END marker"),
    ],
)
def test_marker_anomalies_are_errors_naming_the_lines(data, message):
    with pytest.raises(MarkerError) as raised:
        splice_block(data, BLOCK)
    assert raised.value.message == message
    assert "never repairs" in raised.value.hint or "exactly the marker" in raised.value.hint


@pytest.mark.parametrize(
    ("data", "newline"),
    [
        (b"", b"\n"),
        (b"one line", b"\n"),
        (b"a\nb\r\n", b"\n"),
        (b"a\r\nb\n", b"\r\n"),
        (b"\n", b"\n"),
        (b"\r\n", b"\r\n"),
    ],
)
def test_newline_is_that_of_the_first_line(data, newline):
    assert newline_of(data) == newline


def test_current_block_and_find_markers():
    data = b"x\n<<<SKILL_INDEX_BEGIN>>>\r\na\r\n<<<SKILL_INDEX_END>>>\r\ny"
    start, stop = find_markers(data)
    assert data[start:stop] == current_block(data) == b"<<<SKILL_INDEX_BEGIN>>>\r\na\r\n<<<SKILL_INDEX_END>>>"
    assert current_block(b"no markers") is None
