"""MCP over stdio, on our own terms: every line answered, every line capped, and an exit when stdin closes.

The SDK's stdio transport drops a line it cannot read (the client then
waits forever for that id), reads a line of any size, and reads stdin on
a worker of the same pool the tools use, so that tools stuck on a FIFO kept
the server from ever seeing stdin close. Here stdin and stdout are served by
two daemon threads of their own: nothing a tool does can stop the server
from reading, answering or exiting, and the process never waits for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import threading

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterator

    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

    Run = Callable[
        [MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]], Awaitable[None]
    ]

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
            _sniffed_id(line), types.PARSE_ERROR, "the message is not JSON (one JSON-RPC message per line, UTF-8)"
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
            types.INVALID_REQUEST,
            "the message holds a lone surrogate (\\ud800 to \\udfff), which is not text",
        )
    except (ValueError, RecursionError):
        pass
    return error_line(
        request_id, types.INVALID_REQUEST, "the message is not a JSON-RPC 2.0 request, notification or response"
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
            yield pending[:end], False
            pending, searched = pending[end + 1 :], 0
        if len(pending) > MAX_MESSAGE_BYTES:
            pending, too_large = pending[:_ID_SEARCHED], True
    if pending.strip():
        yield pending, too_large


def too_large(line_start: bytes) -> bytes:
    size = f"{MAX_MESSAGE_BYTES // 1024 // 1024} MiB"
    return error_line(_sniffed_id(line_start), types.INVALID_REQUEST, f"the message is larger than {size}")


class LineWriter:
    """Lines to stdout from a daemon thread: a client that stops reading blocks that thread, never the server."""

    def __init__(self, descriptor: int, on_failure: Callable[[], object]) -> None:
        self.failure: OSError | None = None
        self._descriptor = descriptor
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._on_failure = on_failure
        self._done = threading.Event()
        threading.Thread(target=self._write_all, name="skillmem-mcp-stdout", daemon=True).start()

    def put(self, line: bytes) -> None:
        self._lines.put(line)

    def close(self, seconds: float) -> None:
        """Let the lines already queued go out, for at most ``seconds``."""
        self._lines.put(None)
        self._done.wait(seconds)

    def _write_all(self) -> None:
        try:
            while (line := self._lines.get()) is not None:
                view = memoryview(line)
                while view:
                    view = view[os.write(self._descriptor, view) :]
        except OSError as error:
            self.failure = error
            self._on_failure()
        finally:
            self._done.set()


async def serve_stdio(run: Run, grace: float) -> OSError | None:
    """Run the server on stdin/stdout until stdin closes; the error stdout gave, if any.

    When stdin closes, the calls still running get ``grace`` seconds to answer
    (``printf ... | skillmem mcp`` gets its answers); then the server stops,
    whatever its workers are doing.
    """
    loop = asyncio.get_running_loop()
    wire_in, wire_out = _claim_standard_streams()
    incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](16)
    open_requests: set[int | str] = set()
    answered = asyncio.Event()
    async with anyio.create_task_group() as group:
        writer = LineWriter(wire_out, lambda: loop.call_soon_threadsafe(group.cancel_scope.cancel))

        async def receive(line: bytes) -> None:
            try:
                message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except (ValidationError, ValueError, RecursionError):
                if (answer := refusal(line)) is not None:
                    writer.put(answer)
                return
            if isinstance(message, types.JSONRPCRequest):
                open_requests.add(message.id)
            await incoming_send.send(SessionMessage(message))

        async def finish() -> None:
            with anyio.move_on_after(grace):
                while open_requests:
                    answered.clear()
                    await answered.wait()
            await incoming_send.aclose()

        def read_stdin() -> None:
            with contextlib.suppress(RuntimeError, OSError):  # RuntimeError: the loop is gone
                for line, oversized in read_lines(wire_in):
                    if oversized:
                        writer.put(too_large(line))
                    elif line.strip():
                        asyncio.run_coroutine_threadsafe(receive(line), loop).result()
                asyncio.run_coroutine_threadsafe(finish(), loop)

        async def write_stdout() -> None:
            async for session_message in outgoing_receive:
                message = session_message.message
                writer.put(_encoded(message))
                if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) and message.id is not None:
                    open_requests.discard(message.id)
                    answered.set()

        threading.Thread(target=read_stdin, name="skillmem-mcp-stdin", daemon=True).start()
        group.start_soon(write_stdout)
        await run(incoming, outgoing)
        group.cancel_scope.cancel()
    writer.close(seconds=grace)
    return writer.failure


def _encoded(message: types.JSONRPCMessage) -> bytes:
    """One message as a line; an answer that cannot be encoded becomes an error for its request, never a crash."""
    try:
        return (message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode("utf-8")
    except (ValueError, UnicodeError):
        request_id = getattr(message, "id", None)
        return error_line(request_id, types.INTERNAL_ERROR, "the answer holds text that JSON cannot carry")


def _claim_standard_streams() -> tuple[int, int]:
    """Private copies of stdin and stdout for the protocol; descriptors 0 and 1 then lead elsewhere.

    A child process (git) or a stray print then neither reads the client's
    messages nor writes into the protocol: 0 reads /dev/null, 1 goes to stderr.
    """
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out
