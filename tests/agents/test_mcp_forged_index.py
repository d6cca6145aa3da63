"""The MCP server over a forged stored search index: a bad index, built anew and replaced, never "a bug"."""

from __future__ import annotations

import pytest

from ..commands.test_search_forged_index import (
    BEST,
    DOCUMENTS,
    POSTINGS,
    ROWS,
    forged_blocks,
    forged_document,
    forged_row,
    stored_examples,
)
from ..helpers import keep_sealed, kept_unsealed
from .test_mcp_server import run_session

pytest.importorskip("mcp", reason="the MCP Python SDK is not installed (the [mcp] extra, Python 3.10+)")


@pytest.fixture
def repo(tmp_path):
    return stored_examples(tmp_path)[0]


@pytest.mark.parametrize(
    "forge",
    [lambda data: forged_row(data, ROWS["another shape"]), lambda data: forged_row(data, ROWS["an absolute folder"])]
    + [lambda data, change=change: forged_document(data, change) for change in DOCUMENTS.values()]
    + [lambda data, change=change: forged_blocks(data, change) for change in POSTINGS.values()],
)
def test_skill_search_over_a_forged_index_answers_and_the_index_is_replaced(repo, forge):
    stored = repo / ".git" / "skillmem-search.json"
    good = kept_unsealed(stored)
    keep_sealed(stored, forge(good))

    async def steps(session):
        return {"found": await session.call_tool("skill_search", {"intent": "parse csv files into tables"})}

    found = run_session(repo, steps)["found"]
    assert not found.is_error, found.content
    assert found.structured_content["results"][0]["name"] == BEST
    assert "/etc" not in str(found.structured_content)
    assert kept_unsealed(stored) == good
