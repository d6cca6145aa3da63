"""``skillmem mcp``: the skills as two MCP tools, over stdio, on the official MCP Python SDK.

Imported only by the mcp command, so the hooks and the other commands never
load the SDK. The tools are thin: ``library.py`` finds, ranks (through
search/) and reads; this module turns its errors into MCP tool errors.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from skillmem_hook import __version__
from skillmem_hook.errors import SkillmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from skillmem_hook.agents.library import SkillLibrary

    Result = TypeVar("Result")

INSTRUCTIONS = (
    "Agent skills of this repository. Call skill_search with the user's task in their own words "
    "(any language) to find the skill that fits, then read its SKILL.md (skill_read, or the path)."
)

SEARCH_DESCRIPTION = (
    "Find the skills that fit a task, best first. intent: the task in the user's words, any language; "
    "top_k: how many results (1 to 50). Each result has the skill's name, description, domain, "
    "the path of its SKILL.md (relative to the repository) and a score."
)
READ_DESCRIPTION = "The full text of one skill's SKILL.md, by its name as skill_search returns it."


def build_server(library: SkillLibrary) -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer(name="skillmem", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(description=SEARCH_DESCRIPTION)
    def skill_search(intent: str, top_k: int = 5) -> dict[str, Any]:
        results = _as_tool_error(lambda: library.search(intent, top_k))
        return {"query": intent, "results": results, "count": len(results)}

    @server.tool(description=READ_DESCRIPTION)
    def skill_read(name: str) -> str:
        return _as_tool_error(lambda: library.read(name))

    return server


def _as_tool_error(action: Callable[[], Result]) -> Result:
    """Run a tool's work; a failure a user can act on becomes a tool error with its hint."""
    try:
        return action()
    except SkillmemError as error:
        raise ToolError(f"{error.message}. Hint: {error.hint}") from None


def serve(library: SkillLibrary) -> None:
    """Answer MCP requests on stdin/stdout until the client closes the connection."""
    library.watch()
    build_server(library).run("stdio")
