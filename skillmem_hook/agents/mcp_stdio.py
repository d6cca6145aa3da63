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
import functools
import os
import queue
import threading
from concurrent.futures import CancelledError, Future

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from skillmem_hook.agents.jsonrpc_lines import (
    INTERNAL_ERROR,
    error_line,
    misread_request,
    read_lines,
    refusal,
    too_large,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Coroutine

    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from typing_extensions import TypeAlias

    # A string, so that mypy reads the union as a type at 3.9 too, where anyio's streams are not followed.
    Run: TypeAlias = (
        "Callable[[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]],"
        " Awaitable[None]]"
    )


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
    wire_in, wire_out = _claim_standard_streams()
    incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](16)
    async with anyio.create_task_group() as group:
        loop = asyncio.get_running_loop()
        writer = LineWriter(wire_out, lambda: loop.call_soon_threadsafe(group.cancel_scope.cancel))
        wire = _Wire(loop, writer, incoming_send, grace)
        threading.Thread(target=wire.read_stdin, args=(wire_in,), name="skillmem-mcp-stdin", daemon=True).start()
        group.start_soon(wire.write_stdout, outgoing_receive)
        await run(incoming, outgoing)
        group.cancel_scope.cancel()
    writer.close(seconds=grace)
    return writer.failure


class _Wire:
    """Lines from stdin to the server, its messages to stdout, and which requests still wait for an answer."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        writer: LineWriter,
        incoming: MemoryObjectSendStream[SessionMessage | Exception],
        grace: float,
    ) -> None:
        self._loop = loop
        self._writer = writer
        self._incoming = incoming
        self._grace = grace
        self._open_requests: set[int | str] = set()
        self._answered = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    def read_stdin(self, descriptor: int) -> None:
        """In a daemon thread: every line to the server, or its error straight back; then the end."""
        # The server may stop at any time (stdout failed): RuntimeError, the loop
        # is gone; CancelledError, it stopped while a line waited for it.
        with contextlib.suppress(RuntimeError, OSError, CancelledError):
            for line, oversized in read_lines(descriptor):
                if oversized:
                    self._writer.put(too_large(line))
                elif line.strip():
                    self._in_loop(functools.partial(self._receive, line)).result()
            self._in_loop(self._finish)

    def _in_loop(self, start: Callable[[], Coroutine[object, object, None]]) -> Future[None]:
        """``start()`` run on the server's loop, from the stdin thread.

        The coroutine is made in the loop, not here: one made here for a loop
        that has stopped would never run, and Python would print "coroutine
        ... was never awaited" on stderr after the server's one JSON line.
        """
        outcome: Future[None] = Future()

        def begin() -> None:
            task = self._loop.create_task(start())
            self._tasks.add(task)  # the loop holds its tasks weakly
            task.add_done_callback(self._tasks.discard)
            task.add_done_callback(functools.partial(_settle, outcome))

        self._loop.call_soon_threadsafe(begin)
        return outcome

    async def _receive(self, line: bytes) -> None:
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except (ValidationError, ValueError, RecursionError):
            if (answer := refusal(line)) is not None:
                self._writer.put(answer)
            return
        if isinstance(message, types.JSONRPCRequest):
            self._open_requests.add(message.id)
        elif (
            isinstance(message, types.JSONRPCNotification)
            and b'"id"' in line
            and (answer := misread_request(line)) is not None  # a request whose id MCP refuses, not a notification
        ):
            self._writer.put(answer)
            return
        with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):  # the server has stopped
            await self._incoming.send(SessionMessage(message))

    async def _finish(self) -> None:
        """stdin closed: wait for the open requests' answers (at most ``grace`` s), then end the session."""
        with anyio.move_on_after(self._grace):
            while self._open_requests:
                self._answered.clear()
                await self._answered.wait()
        await self._incoming.aclose()

    async def write_stdout(self, outgoing: MemoryObjectReceiveStream[SessionMessage]) -> None:
        async for session_message in outgoing:
            message = session_message.message
            self._writer.put(_encoded(message))
            if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) and message.id is not None:
                self._open_requests.discard(message.id)
                self._answered.set()


def _settle(outcome: Future[None], task: asyncio.Task[None]) -> None:
    """Hand a task's end to the thread that waits for it (``outcome`` is never set running, so it can be cancelled)."""
    if task.cancelled():
        outcome.cancel()
    elif (error := task.exception()) is not None:
        outcome.set_exception(error)
    else:
        outcome.set_result(None)


def _encoded(message: types.JSONRPCMessage) -> bytes:
    """One message as a line; an answer that cannot be encoded becomes an error for its request, never a crash."""
    try:
        line: str = message.model_dump_json(by_alias=True, exclude_unset=True)
        return (line + "\n").encode("utf-8")
    except (ValueError, UnicodeError):
        request_id = getattr(message, "id", None)
        return error_line(request_id, INTERNAL_ERROR, "the answer holds text that JSON cannot carry")


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
