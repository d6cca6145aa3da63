"""The agents' listing rules at their edges: Claude Code's 1% and 1,536 characters, Codex's 2% and even shortening."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.budget.replay import Entry, _CodexLine, allocate, claude_code, codex
from skillmem_hook.budget.rules import CLAUDE_CODE_PARAMETERS, CODEX_PARAMETERS


def entry(name, description, when="", file=None):
    return Entry(name, name, description, when_to_use=when, file=file or f"r0/{name}/SKILL.md")


def claude_window_for(characters):
    """The window whose 1% budget is exactly ``characters`` (4 characters a token)."""
    return characters * 25


def test_an_entry_of_1536_characters_is_whole_and_one_more_is_cut_to_1536():
    whole = entry("whole", "d" * 1000, when="w" * 533)  # 1000 + " - " + 533 = 1536 (Claude Code 2.1.328's join)
    long = entry("long", "d" * 1000, when="w" * 534)
    result = claude_code([whole, long], 10**9, CLAUDE_CODE_PARAMETERS)
    assert result["descriptions_cut"] == [{"name": "long", "kept_chars": 1536}]
    assert result["fits"] and result["descriptions_dropped"] == []


def test_a_listing_exactly_at_the_budget_fits_and_one_character_over_drops_the_last_listed():
    skills = [entry("alpha", "a" * 40), entry("beta", "b" * 40), entry("gamma", "c" * 40)]
    size = sum(len(f"- {skill.name}: {skill.description}\n") for skill in skills)
    at = claude_code(skills, claude_window_for(size), CLAUDE_CODE_PARAMETERS)
    assert (at["listing_chars"], at["budget_chars"], at["fits"], at["descriptions_dropped"]) == (size, size, True, [])
    over = claude_code(skills, claude_window_for(size - 1), CLAUDE_CODE_PARAMETERS)
    assert over["fits"] is False and over["descriptions_dropped"] == ["gamma"]
    squeezed = claude_code(skills, claude_window_for(len("- alpha\n- beta\n- gamma\n")), CLAUDE_CODE_PARAMETERS)
    assert squeezed["descriptions_dropped"] == ["alpha", "beta", "gamma"]


def test_over_budget_each_entry_keeps_its_text_while_it_fits_so_a_later_short_one_survives_a_long_one():
    # Claude Code 2.1.328 takes the entries in listing order and keeps each text that still fits the room left.
    skills = [entry("alpha", "a" * 10), entry("beta", "b" * 100), entry("gamma", "c" * 10)]
    bare = sum(len(f"- {skill.name}\n") for skill in skills)
    room = len(": " + "a" * 10) + len(": " + "c" * 10)  # the two short texts, not the long one
    result = claude_code(skills, claude_window_for(bare + room), CLAUDE_CODE_PARAMETERS)
    assert result["descriptions_dropped"] == ["beta"]
    one_less = claude_code(skills, claude_window_for(bare + room - 1), CLAUDE_CODE_PARAMETERS)
    assert one_less["descriptions_dropped"] == ["beta", "gamma"]


def test_when_to_use_joins_the_description_with_a_spaced_dash():
    result = claude_code([entry("x", "Does x.", when="Use for y.")], 10**6, CLAUDE_CODE_PARAMETERS)
    assert result["listing_chars"] == len("- x: Does x. - Use for y.\n")


def test_a_skill_claude_code_does_not_discover_is_not_listed_but_named_with_its_reason():
    hidden = Entry("deep", "deep", "x" * 5000, not_loaded={"claude-code": "2 folders below .claude/skills"})
    result = claude_code([hidden, entry("kept", "short")], 200_000, CLAUDE_CODE_PARAMETERS)
    assert result["not_discovered"] == [{"name": "deep", "reason": "2 folders below .claude/skills"}]
    assert result["listing_chars"] == len("- kept: short\n")


def codex_window_for(tokens):
    return tokens * 50  # 2% of the window


def test_codex_fits_at_its_token_limit_and_shortens_descriptions_one_token_under():
    skills = [entry("alpha", "a" * 100), entry("beta", "b" * 100)]
    full = sum(-(-len(f"- {s.name}: {s.description} (file: {s.file})\n".encode()) // 4) for s in skills)
    at = codex(skills, codex_window_for(full), CODEX_PARAMETERS)
    assert at["fits"] and at["descriptions_cut"] == [] and at["budget_chars"] == full * 4
    under = codex(skills, codex_window_for(full - 1), CODEX_PARAMETERS)
    assert not under["fits"] and under["descriptions_dropped"] == [] and under["skills_omitted"] == []
    # one token is four characters: the even rounds leave the last few off the line listed last
    assert under["descriptions_cut"] and all(90 <= cut["kept_chars"] < 100 for cut in under["descriptions_cut"])


def test_codex_leaves_whole_skills_out_when_even_the_bare_lines_are_over():
    skills = [entry(f"skill-{number}", "words " * 20) for number in range(10)]
    bare = -(-len(b"- skill-0: (file: r0/skill-0/SKILL.md)\n") // 4)
    result = codex(skills, codex_window_for(bare * 3), CODEX_PARAMETERS)
    assert result["skills_omitted"] == [f"skill-{number}" for number in range(3, 10)]
    assert len(result["descriptions_dropped"]) == 10


def round_robin(lines, remaining):
    """render.rs's loop as written: one character at a time, round after round."""
    kept = [0] * len(lines)
    changed = True
    while changed:
        changed = False
        for index, line in enumerate(lines):
            if kept[index] < len(line.description):
                delta = line.added_cost(kept[index] + 1) - line.added_cost(kept[index])
                if delta <= remaining:
                    kept[index] += 1
                    remaining -= delta
                    changed = True
    return kept


@given(st.lists(st.text(alphabet="ab中 é", max_size=40), min_size=1, max_size=6), st.integers(0, 80))
def test_the_bisected_allocation_is_render_rs_one_character_at_a_time(descriptions, remaining):
    lines = [_CodexLine(entry(f"s{index}", text), 4) for index, text in enumerate(descriptions)]
    assert allocate(lines, remaining) == round_robin(lines, remaining)
