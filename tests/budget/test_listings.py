"""The XML listings at their edges: Copilot's and VS Code's 15,000 and 5,000 characters, Gemini's and OpenCode's whole.

Copilot CLI and VS Code count as JavaScript does (UTF-16 code units); each
entry costs its text and one line break.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.budget.listings import NAMES_LEAD, copilot_cli, gemini_cli, js_length, opencode, vscode
from skillmem_hook.budget.loading import Shown
from skillmem_hook.budget.replay import Entry
from skillmem_hook.budget.rules import DEFAULTS


def listed(agent, *pairs, location="project"):
    """Entries the agent lists in the order given: (name, description) pairs."""
    entries = []
    for rank, (name, description) in enumerate(pairs):
        entry = Entry(name, name, description)
        entry.shown[agent] = Shown(rank, name, description, location)
        entries.append(entry)
    return entries


def copilot_cost(name, description):
    text = (
        f"<skill>\n  <name>{name}</name>\n  <description>{description}</description>\n"
        "  <location>project</location>\n</skill>"
    )
    return js_length(text) + 1


def with_budget(agent, **numbers):
    return {**DEFAULTS[agent], **numbers}


def test_copilot_keeps_whole_entries_while_they_fit_and_names_the_rest():
    skills = listed("copilot-cli", ("alpha", "a" * 50), ("beta", "b" * 50), ("gamma", "c" * 5))
    exact = copilot_cost("alpha", "a" * 50) + copilot_cost("beta", "b" * 50)
    at = copilot_cli(skills, 200_000, with_budget("copilot-cli", budget_chars=exact))
    assert (at["listed"], at["descriptions_dropped"], at["skills_omitted"]) == (2, ["gamma"], [])
    under = copilot_cli(skills, 200_000, with_budget("copilot-cli", budget_chars=exact - 1))
    # the first entry that does not fit ends the prefix: gamma, which would fit, is named only too
    assert (under["listed"], under["descriptions_dropped"]) == (1, ["beta", "gamma"])
    assert under["listing_chars"] == exact + copilot_cost("gamma", "c" * 5) and not under["fits"]


def test_copilot_counts_utf16_code_units_and_escaped_text():
    # an emoji is two UTF-16 units; '&' is written '&amp;': 93 characters of tags and "project", then the texts
    skills = listed("copilot-cli", ("emoji", "\U0001f600 & more"))
    result = copilot_cli(skills, 200_000, DEFAULTS["copilot-cli"])
    assert result["listing_chars"] == copilot_cost("emoji", "\U0001f600 &amp; more") == 93 + 5 + (2 + 11) + 1


@pytest.mark.parametrize(("room", "named", "omitted"), [(0, 2, 0), (-1, 1, 1)])
def test_copilot_names_within_5000_characters_its_lead_counted(room, named, omitted):
    first, second = "n" * 4000, "m" * (5000 - len(NAMES_LEAD) - 4000 - 2)  # ', ' between them
    skills = listed("copilot-cli", ("whole", "w"), (first, "x"), (second, "y"))
    budget = copilot_cost("whole", "w")
    result = copilot_cli(skills, 200_000, with_budget("copilot-cli", budget_chars=budget, names_chars=5000 + room))
    assert (len(result["descriptions_dropped"]), len(result["skills_omitted"])) == (named, omitted)


def test_vscode_does_not_count_the_lead_and_shows_each_file():
    path = "/home/user/repo/.github/skills/x/SKILL.md"
    skills = listed("vscode", ("x", "Does x"), location=path)
    entry = f"<skill>\n<name>x</name>\n<description>Does x</description>\n<file>{path}</file>\n</skill>"
    result = vscode(skills, 200_000, DEFAULTS["vscode"])
    assert result["listing_chars"] == len(entry) + 1
    first = "n" * 5000  # exactly the names budget, the lead not counted
    names = listed("vscode", ("whole", "w"), (first, "x"), ("more", "y"), location=path)
    budget = js_length(f"<skill>\n<name>whole</name>\n<description>w</description>\n<file>{path}</file>\n</skill>") + 1
    capped = vscode(names, 200_000, with_budget("vscode", budget_chars=budget))
    assert (capped["descriptions_dropped"], capped["skills_omitted"]) == ([first], ["more"])


def test_gemini_and_opencode_list_everything_and_measure_it_against_the_window():
    gemini = gemini_cli(
        listed("gemini-cli", ("b", "Does b"), ("a", "Does a"), location="/r/x"), 1000, {"chars_per_token": 4}
    )
    block = (
        "  <skill>\n    <name>{0}</name>\n    <description>Does {0}</description>\n"
        "    <location>/r/x</location>\n  </skill>"
    )
    size = len(block.format("b")) + 1 + len(block.format("a"))
    assert (gemini["listing_chars"], gemini["fits"], gemini["listed"], gemini["budget_chars"]) == (size, True, 2, None)
    assert gemini["listing_tokens"] == -(-size // 4) and gemini["window_share"] == round(
        gemini["listing_tokens"] / 1000, 4
    )
    both = listed("opencode", ("b", "Does b"), ("a", "Does a"), location="/r/x")
    result = opencode(both, 1000, {"chars_per_token": 4})
    assert result["listing_chars"] == len("<available_skills>\n") + size + len("\n</available_skills>")


def test_an_empty_listing_is_zero_characters():
    assert gemini_cli([], 1000, {"chars_per_token": 4})["listing_chars"] == 0
    assert opencode([], 1000, {"chars_per_token": 4})["listing_chars"] == 0


@given(
    st.lists(st.tuples(st.text(alphabet="ab<&é\U0001f600", min_size=1, max_size=8), st.text(max_size=30)), max_size=8),
    st.integers(0, 600),
    st.integers(0, 80),
)
def test_every_skill_is_whole_named_or_left_out_and_the_whole_ones_are_the_longest_prefix_that_fits(
    pairs, budget, names
):
    skills = listed("copilot-cli", *pairs)
    result = copilot_cli(skills, 200_000, with_budget("copilot-cli", budget_chars=budget, names_chars=names))
    whole = result["listed"]
    assert whole + len(result["descriptions_dropped"]) + len(result["skills_omitted"]) == len(pairs)
    costs = [copilot_cost(_xml(name), _xml(text)) for name, text in pairs]
    assert sum(costs[:whole]) <= budget and (whole == len(pairs) or sum(costs[: whole + 1]) > budget)
    wider = copilot_cli(skills, 200_000, with_budget("copilot-cli", budget_chars=budget + 100, names_chars=names))
    assert wider["listed"] >= whole


def _xml(text):
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )
