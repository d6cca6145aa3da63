"""JSON-RPC lines as the MCP server reads them: each line capped, and the answer to one it cannot take.

Independent of the MCP SDK (the transport in ``mcp_stdio.py`` uses it), so
it is tested without it. Every request gets an answer, even one that is not
JSON, holds a lone surrogate, or is too large to read: a client waiting on
an id must never wait forever.
"""

from __future__ import annotations

import json
import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

# The JSON-RPC 2.0 error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
# An intent is capped at 4,096 characters, a name at 256: a request is a few KiB.
# A longer line is dropped as it is read, so it never sits in memory whole
# (a 50 MB argument cost 23 s and 450 MB before this).
MAX_MESSAGE_BYTES = 1024 * 1024
_ID_IN_PREFIX = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")')
_ID_SEARCHED = 4096


def refusal(line: bytes) -> bytes | None:
    """The JSON-RPC error for a line the server cannot take as a message (None for a bad notification)."""
    try:
        document = json.loads(line)
    except (ValueError, RecursionError):
        return error_line(
            _sniffed_id(line), PARSE_ERROR, "the message is not JSON (one JSON-RPC message per line, UTF-8)"
        )
    request_id = document.get("id") if isinstance(document, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        if isinstance(document, dict) and "method" in document and "id" not in document:
            return None  # a notification is never answered, even with an error
        request_id = None
    try:
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return error_line(
            request_id,
            INVALID_REQUEST,
            "the message holds a lone surrogate (\\ud800 to \\udfff), which is not text",
        )
    except (ValueError, RecursionError):
        pass
    return error_line(
        request_id, INVALID_REQUEST, "the message is not a JSON-RPC 2.0 request, notification or response"
    )


def misread_request(line: bytes) -> bytes | None:
    """The error for a request whose id MCP does not allow; None for a line that is a notification indeed.

    MCP asks for a string or an integer id, never null (JSON-RPC 2.0 allows
    null and frowns on fractions); the SDK reads a request whose id is null, a
    fraction, ``true``, an object or a list as a notification and drops the id,
    so the server would never answer it. JSON-RPC 2.0 answers an invalid
    request with an Invalid Request error whose id is null, since the id could
    not be read: so does this.
    """
    try:
        document = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or "id" not in document:
        return None
    return error_line(
        None, INVALID_REQUEST, "the request's id must be a string or an integer (not null, a fraction or an object)"
    )


def error_line(request_id: int | str | None, code: int, message: str) -> bytes:
    document = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return (json.dumps(document, ensure_ascii=True) + "\n").encode("ascii")


def _sniffed_id(line: bytes) -> int | str | None:
    """The id of a message too large or too broken to parse, when its start names one."""
    found = _ID_IN_PREFIX.search(line[:_ID_SEARCHED])
    if found is None:
        return None
    value = found.group(1).decode("utf-8", "replace")
    return value[1:-1] if value.startswith('"') else int(value)


def read_lines(descriptor: int, chunk: int = 65536) -> Iterator[tuple[bytes, bool]]:
    """(line, too large) for each line read from ``descriptor`` until end of file.

    A line past MAX_MESSAGE_BYTES is dropped as it comes; only its first KiBs
    are kept, to find the id its error answer needs.
    """
    pending = b""
    too_large = False
    while data := os.read(descriptor, chunk):
        if too_large:  # drop the rest of that line, up to its end
            if (end := data.find(b"\n")) < 0:
                continue
            yield pending, True
            pending, too_large, data = b"", False, data[end + 1 :]
        searched = len(pending)  # what was searched already holds no line break
        pending += data
        while (end := pending.find(b"\n", searched)) >= 0:
            yield (pending[:_ID_SEARCHED], True) if end > MAX_MESSAGE_BYTES else (pending[:end], False)
            pending, searched = pending[end + 1 :], 0
        if len(pending) > MAX_MESSAGE_BYTES:
            pending, too_large = pending[:_ID_SEARCHED], True
    if too_large or len(pending) > MAX_MESSAGE_BYTES:
        yield pending[:_ID_SEARCHED], True
    elif pending.strip():
        yield pending, False


def too_large(line_start: bytes) -> bytes:
    size = f"{MAX_MESSAGE_BYTES // 1024 // 1024} MiB"
    return error_line(_sniffed_id(line_start), INVALID_REQUEST, f"the message is larger than {size}")
