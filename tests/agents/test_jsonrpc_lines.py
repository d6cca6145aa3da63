"""The MCP server's JSON-RPC lines without the SDK: every line capped, every unreadable request answered."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.jsonrpc_lines import MAX_MESSAGE_BYTES, misread_request, read_lines, refusal, too_large


def lines_of(data: bytes, tmp_path):
    path = tmp_path / "stdin"
    path.write_bytes(data)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return list(read_lines(descriptor, chunk=4096))
    finally:
        os.close(descriptor)


def test_a_line_past_the_cap_is_dropped_as_read_and_the_next_line_still_comes(tmp_path):
    big = b'{"jsonrpc": "2.0", "id": 42, "params": "' + b"a" * (MAX_MESSAGE_BYTES + 10) + b'"}'
    (start, oversized), (after, normal) = lines_of(big + b"\n" + b'{"id": 1}\n', tmp_path)
    assert oversized and len(start) <= 4096 and not normal
    assert after == b'{"id": 1}'
    assert json.loads(too_large(start)) == {
        "jsonrpc": "2.0",
        "id": 42,
        "error": {"code": -32600, "message": "the message is larger than 1 MiB"},
    }


@pytest.mark.parametrize(
    ("line", "request_id", "code"),
    [
        (b"not json", None, -32700),
        (b'{"jsonrpc": "2.0", "id": 5, "method": "x", "params": {"a": "\\ud800"}}', 5, -32600),
        (b'{"jsonrpc": "2.0", "id": "q", "method": 3}', "q", -32600),
        (b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"a": ', 9, -32700),
        (b"[1, 2]", None, -32600),
        (b"[" * 100_000, None, -32700),
    ],
)
def test_a_request_that_cannot_be_read_gets_an_error_for_its_id(line, request_id, code):
    answer = json.loads(refusal(line))
    assert (answer["id"], answer["error"]["code"]) == (request_id, code)


def test_a_notification_that_cannot_be_read_is_never_answered():
    assert refusal(b'{"jsonrpc": "2.0", "method": "notifications/x", "params": "\\ud800"}') is None


@given(st.binary(max_size=300))
def test_any_line_gets_a_json_answer_or_none(line):
    answer = refusal(line)
    assert answer is None or json.loads(answer)["jsonrpc"] == "2.0"


@given(st.lists(st.integers(0, MAX_MESSAGE_BYTES + 20), max_size=4), st.sampled_from([4096, 65536]))
def test_no_line_past_the_cap_is_ever_handed_on(tmp_path_factory, sizes, chunk):
    data = b"".join(b"x" * size + b"\n" for size in sizes)
    path = tmp_path_factory.mktemp("lines") / "stdin"
    path.write_bytes(data)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        got = list(read_lines(descriptor, chunk=chunk))
    finally:
        os.close(descriptor)
    expected = [size > MAX_MESSAGE_BYTES for size in sizes]
    assert [oversized for _, oversized in got] == expected
    assert all(len(line) <= (4096 if oversized else MAX_MESSAGE_BYTES) for line, oversized in got)


@pytest.mark.parametrize("request_id", [None, {"a": 1}, 1.5, 1.0, True, [1]])
def test_a_request_whose_id_mcp_refuses_gets_an_invalid_request_error_with_a_null_id(request_id):
    """H4-10: the SDK reads these as notifications and drops the id; JSON-RPC answers them with id null."""
    line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}).encode()
    answer = json.loads(misread_request(line))
    assert (answer["id"], answer["error"]["code"]) == (None, -32600)
    assert "string or an integer" in answer["error"]["message"]


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        b'{"jsonrpc": "2.0", "method": "notifications/x", "params": {"id": null}}',  # an "id", but not the message's
        b"not json",
    ],
)
def test_a_notification_indeed_is_never_answered(line):
    assert misread_request(line) is None
