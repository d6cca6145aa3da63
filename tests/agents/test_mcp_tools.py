"""The MCP tools' one rule for arguments, without the SDK: whatever a client sends is a result or a UsageError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.agents.mcp_tools import ECHO_CHARS, TOOLS, call_tool, check_arguments, echo
from skillmem_hook.errors import UsageError

from ..helpers import skill_md, write_skill

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp") / "skills"
    write_skill(root, "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    write_skill(root, "web-scraper", skill_md("Web-Scraper", "Scrape pages"))
    return SkillLibrary([str(root)])


@given(
    tool=st.sampled_from([*TOOLS, "nope"]),
    arguments=st.dictionaries(st.sampled_from(["intent", "top_k", "name", "x"]), JSON),
)
def test_any_arguments_give_a_result_or_a_usage_error_never_anything_else(library, tool, arguments):
    try:
        result = call_tool(library, tool, arguments)
    except UsageError as error:
        assert error.hint and len(error.message) < 200
    else:
        assert set(result) == set(TOOLS[tool]["output"]["required"])


@pytest.mark.parametrize(
    ("arguments", "accepted"),
    [
        ({"intent": "csv", "top_k": 3}, True),
        ({"intent": "csv", "top_k": 3.0}, True),
        ({"intent": "csv", "top_k": "3"}, False),
        ({"intent": "csv", "top_k": True}, False),
        ({"intent": "csv", "top_k": 51}, False),
        ({"intent": "csv", "top_k": 2.5}, False),
        ({"intent": "x" * 4096}, True),
        ({"intent": "x" * 4097}, False),
        ({"intent": " "}, False),
        ({}, False),
    ],
)
def test_the_input_schema_is_the_whole_rule(arguments, accepted):
    schema = TOOLS["skill_search"]["input"]
    if accepted:
        check_arguments(schema, arguments)
    else:
        with pytest.raises(UsageError):
            check_arguments(schema, arguments)


@given(st.text())
def test_an_echo_is_a_short_escaped_prefix(text):
    shown = echo(text)
    assert len(shown) <= 2 + 6 * ECHO_CHARS + 1
    assert "\x1b" not in shown and "\n" not in shown


def test_the_intent_is_echoed_back_as_a_short_prefix_only(library):
    long_intent = "csv " * 1000
    assert call_tool(library, "skill_search", {"intent": long_intent})["query"] == long_intent[:ECHO_CHARS] + "…"
    assert call_tool(library, "skill_search", {"intent": "csv"})["query"] == "csv"
