"""The stdio wire of ``skillmem mcp``: what its stdin thread does once the server has stopped."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import threading
import time
import warnings

import pytest

pytest.importorskip("mcp", reason="the MCP Python SDK is not installed (the [mcp] extra, Python 3.10+)")
anyio = pytest.importorskip("anyio")

from skillmem_hook.agents.mcp_stdio import LineWriter, _Wire  # noqa: E402

PING = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode() + b"\n"


@pytest.mark.parametrize("stdin", [b"", PING], ids=["end of stdin", "a line"])
def test_stdin_read_after_the_server_stopped_leaves_no_warning_on_stderr(stdin):
    # The server stops as soon as stdout fails (> /dev/full); the stdin thread
    # may reach its next line or the end of stdin only later, with the loop
    # gone. Its message must go nowhere quietly: stderr carries one JSON line.
    loop = asyncio.new_event_loop()
    incoming, receive = anyio.create_memory_object_stream(16)
    stdout_read, stdout_write = os.pipe()
    writer = LineWriter(stdout_write, on_failure=lambda: None)
    wire = _Wire(loop, writer, incoming, grace=1.0)
    loop.close()
    stdin_read, stdin_write = os.pipe()
    os.write(stdin_write, stdin)
    os.close(stdin_write)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            wire.read_stdin(stdin_read)
            gc.collect()  # a coroutine never awaited is reported when it is collected
    finally:
        writer.close(seconds=5)
        incoming.close()
        receive.close()
        for descriptor in (stdin_read, stdout_read, stdout_write):
            os.close(descriptor)
    assert [str(warning.message) for warning in caught if warning.category is RuntimeWarning] == []


@pytest.fixture
def running_loop():
    """An event loop running in a thread of its own, as the server's loop runs beside the stdin thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    # As anyio.run ends the server's loop: what is still pending (the end of stdin's _finish, say) is cancelled
    # and run to its end, not dropped; a dropped coroutine warns "never awaited" in whatever test runs next.
    asyncio.run_coroutine_threadsafe(_cancel_and_wait_for_other_tasks(), loop).result(timeout=10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)
    loop.close()


def read_in_thread(wire, stdin):
    """``wire.read_stdin`` in a thread, as the server runs it; what it raised, if anything, once it returns."""
    raised = []
    stdin_read, stdin_write = os.pipe()
    os.write(stdin_write, stdin)
    os.close(stdin_write)

    def read():
        try:
            wire.read_stdin(stdin_read)
        except BaseException as error:  # noqa: BLE001 - an exception here is a traceback on the user's stderr
            raised.append(error)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, raised, stdin_read


def test_a_line_read_after_the_server_stopped_reading_goes_nowhere_quietly(running_loop):
    incoming, receive = anyio.create_memory_object_stream(16)
    receive.close()  # the session has ended: nobody reads the incoming messages
    writer = LineWriter(os.open(os.devnull, os.O_WRONLY), on_failure=lambda: None)
    thread, raised, stdin_read = read_in_thread(_Wire(running_loop, writer, incoming, grace=1.0), PING)
    thread.join(timeout=10)
    os.close(stdin_read)
    writer.close(seconds=5)
    assert (thread.is_alive(), raised) == (False, [])


def test_a_line_still_waiting_when_the_server_stops_goes_nowhere_quietly(running_loop):
    incoming, receive = anyio.create_memory_object_stream(0)  # nobody takes it: the line waits
    writer = LineWriter(os.open(os.devnull, os.O_WRONLY), on_failure=lambda: None)
    thread, raised, stdin_read = read_in_thread(_Wire(running_loop, writer, incoming, grace=1.0), PING)
    for _ in range(1000):  # until the line waits on the loop
        if asyncio.run_coroutine_threadsafe(_other_tasks(), running_loop).result(timeout=10):
            break
        time.sleep(0.01)
    # The server's loop ends: what still runs on it is cancelled, as anyio.run does.
    asyncio.run_coroutine_threadsafe(_cancel_other_tasks(), running_loop).result(timeout=10)
    thread.join(timeout=10)
    os.close(stdin_read)
    writer.close(seconds=5)
    incoming.close()
    receive.close()
    assert (thread.is_alive(), raised) == (False, [])


async def _other_tasks():
    return [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]


async def _cancel_other_tasks():
    for task in await _other_tasks():
        task.cancel()


async def _cancel_and_wait_for_other_tasks():
    others = await _other_tasks()
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
