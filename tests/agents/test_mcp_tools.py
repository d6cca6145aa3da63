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


def test_skill_read_by_a_folder_s_name_says_so_in_its_json_and_before_the_text(tmp_path):
    """newcomer-ad 10: ``skill_read name=cloudflare-r2`` said "no skill named" for the skill in that folder."""
    pytest.importorskip("mcp")
    from skillmem_hook.agents.mcp_server import answer_of

    root = tmp_path / "skills"
    write_skill(root, "cloudflare-r2", skill_md("Cloudflare R2 Object Storage", "Store files in R2"))
    result = call_tool(SkillLibrary([str(root)]), "skill_read", {"name": "cloudflare-r2"})
    note = f"no skill is named 'cloudflare-r2': read 'Cloudflare R2 Object Storage' by its folder ({result['path']})"
    assert (result["name"], result["note"]) == ("Cloudflare R2 Object Storage", note)
    assert set(result) <= set(TOOLS["skill_read"]["output"]["properties"])  # the schema the client validates
    shown = answer_of("skill_read", result)
    assert shown.content[0].text == f"[skillmem: {note}]\n\n{result['text']}"
    by_name = call_tool(SkillLibrary([str(root)]), "skill_read", {"name": "Cloudflare R2 Object Storage"})
    assert "note" not in by_name and answer_of("skill_read", by_name).content[0].text == by_name["text"]
