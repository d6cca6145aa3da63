"""``skillmem mcp``: the skills as two MCP tools, over stdio, on the official MCP Python SDK.

Imported only by the mcp command, so the hooks and the other commands never
load the SDK. The tools are thin: ``mcp_tools.py`` holds their schemas and
checks their arguments, ``library.py`` finds, ranks (through search/) and
reads; this module runs each call in a thread of its own, for at most
CALL_SECONDS, and turns what it returns or raises into an MCP result.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server

from skillmem_hook import __version__
from skillmem_hook.agents.mcp_stdio import serve_stdio
from skillmem_hook.agents.mcp_tools import TOOLS, call_tool
from skillmem_hook.errors import FileAccessError, SkillmemError
from skillmem_hook.streams import escaped_strings, to_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mcp.server.context import ServerRequestContext

    from skillmem_hook.agents.library import SkillLibrary

INSTRUCTIONS = (
    "Agent skills of this repository. Call skill_search with the user's task in their own words "
    "(any language) to find the skill that fits, then read its SKILL.md (skill_read, or the path)."
)
# When the repository names a skills root outside itself, its skills are not called the repository's.
INSTRUCTIONS_OUTSIDE = (
    "Agent skills this repository's configuration names, some of them outside the repository ({notices}): "
    "they are not the repository's own. Call skill_search with the user's task in their own words "
    "(any language) to find the skill that fits, then read its SKILL.md (skill_read, or the path)."
)
# Every call answers within this many seconds (a slow disk or git gives a tool
# error, never a hang): under the 10 s a client is promised. The environment
# variable SKILLMEM_MCP_CALL_SECONDS changes it.
CALL_SECONDS = 8.0
# Calls run at once; more wait their turn, within their time.
MAX_WORKERS = 16


def call_seconds() -> float:
    try:
        seconds = float(os.environ.get("SKILLMEM_MCP_CALL_SECONDS", CALL_SECONDS))
    except ValueError:
        return CALL_SECONDS
    return seconds if 0 < seconds < float("inf") else CALL_SECONDS


def build_server(library: SkillLibrary, seconds: float) -> Server[Any]:
    workers = anyio.Semaphore(MAX_WORKERS)

    async def list_tools(
        _context: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        tools = [
            types.Tool(
                name=name, description=tool["description"], input_schema=tool["input"], output_schema=tool["output"]
            )
            for name, tool in TOOLS.items()
        ]
        return types.ListToolsResult(tools=tools)

    async def answer(_context: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        started = time.monotonic()
        try:
            with anyio.fail_after(seconds):
                async with workers:
                    structured = await in_own_thread(lambda: call_tool(library, params.name, params.arguments))
        except SkillmemError as error:
            return tool_error(f"{error.message}. Hint: {error.hint}")
        except TimeoutError:
            return tool_error(timed_out(seconds, library.building(started)))
        except Exception as error:  # noqa: BLE001 - the server answers and keeps running whatever one call does
            return tool_error(
                f"unexpected error: {type(error).__name__}. Hint: this is a bug in skillmem; please report it"
            )
        return answer_of(params.name, structured)

    return Server(
        "skillmem",
        version=__version__,
        instructions=instructions(library),
        on_list_tools=list_tools,
        on_call_tool=answer,
    )


def timed_out(seconds: float, building: str | None) -> str:
    """The error of a call left after ``seconds``: what it waited on, when that was the catalog's rebuild (a
    rebuild of 1,900 skills after an edit of .skillmem.yaml, on a loaded machine, was once blamed on the disk)."""
    if building is None:
        return (
            f"the call took longer than {seconds:g} s and was left. Hint: the skills' disk or git is slow "
            "or blocked; call again"
        )
    return (
        f"the call took longer than {seconds:g} s and was left: it waited on {building}, which takes seconds "
        "with many skills; once it is done (it goes on without the call) calls answer at once. Hint: call again in "
        "a few seconds (`skillmem search WORDS` in a shell builds the same index); if this recurs with no change, "
        "the skills' disk or git is slow or blocked"
    )


def answer_of(tool: str, structured: dict[str, Any]) -> types.CallToolResult:
    """A tool's result as the model reads it: no hidden character of a repository's strings (a name, a
    description, a path, a notice) reaches it unseen, as in the CLI's JSON (docs/guarantees.md). The text is the
    CLI's JSON (``streams.to_json``: ``\\u200b``); ``structuredContent``, which the SDK encodes itself, holds the
    same escapes as text, but for skill_search's ``query``, the caller's own words echoed. ``skill_read``'s
    SKILL.md text is the file's own, unchanged (docs/agents.md), as an agent opening the file reads it; its
    notice line is escaped."""
    if tool == "skill_read":  # a note (read by its folder) and a notice (a root outside the repository) before the text
        shown = escaped_strings({key: value for key, value in structured.items() if key != "text"})
        assert isinstance(shown, dict)
        shown["text"] = structured["text"]
        said = "".join(f"[skillmem: {shown[key]}]\n" for key in ("note", "notice") if key in shown)
        text = f"{said}\n{structured['text']}" if said else structured["text"]
    else:  # the query is the caller's own words, echoed (at most 61 characters, as the schema says): kept
        shown = escaped_strings({key: value for key, value in structured.items() if key != "query"})
        assert isinstance(shown, dict)
        shown = {"query": structured["query"], **shown} if "query" in structured else shown
        text = to_json(structured)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=shown)


def instructions(library: SkillLibrary) -> str:
    """The server's instructions: the skills are the repository's, unless it names a root outside itself."""
    notices = library.notices()
    return INSTRUCTIONS_OUTSIDE.format(notices="; ".join(notices)) if notices else INSTRUCTIONS


def tool_error(text: str) -> types.CallToolResult:
    # A path with a byte that is not UTF-8 (a lone surrogate) would make the answer unencodable.
    shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return types.CallToolResult(content=[types.TextContent(type="text", text=shown)], is_error=True)


async def in_own_thread(work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``work()`` in a daemon thread: a call that outlives its time is left running, and never holds the exit."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[dict[str, Any]] = loop.create_future()

    def settle(result: dict[str, Any] | None, error: BaseException | None) -> None:
        if future.done():
            return  # the call was given up on: its answer has no one to go to
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or {})

    def target() -> None:
        try:
            result, error = work(), None
        except BaseException as raised:  # noqa: BLE001 - handed to the waiting call as it is
            result, error = None, raised
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=target, name="skillmem-mcp-call", daemon=True).start()
    return await future


def serve(library: SkillLibrary) -> None:
    """Answer MCP requests on stdin/stdout until the client closes stdin (or stops reading stdout)."""
    seconds = call_seconds()
    server = build_server(library, seconds)
    library.watch()

    async def main() -> OSError | None:
        async def run(incoming: Any, outgoing: Any) -> None:
            await server.run(incoming, outgoing, server.create_initialization_options())

        return await serve_stdio(run, grace=seconds + 1)

    failure = anyio.run(main)
    if failure is not None and not isinstance(failure, BrokenPipeError):  # a client gone is the end of a session
        raise FileAccessError(
            f"cannot write the MCP answer to stdout: {failure.strerror or failure}",
            "the server answers on stdout: start it from an MCP client that reads it",
        )
