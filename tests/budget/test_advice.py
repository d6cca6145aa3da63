"""What budget's text says to do: one remedy per cause, per agent, and the block's cost with its cap."""

from __future__ import annotations

import pytest

from skillmem_hook.budget.advice import block_line, causes, headline, remedies


def result(agent="claude-code", reasons=(), **keys):
    base = {
        "agent": agent,
        "context_window": 200000,
        "budget_chars": 8000,
        "listing_chars": 100,
        "fits": True,
        "listed": 1,
        "descriptions_dropped": [],
        "descriptions_cut": [],
        "skills_omitted": [],
        "not_discovered": [{"name": f"s{index}", "reason": reason} for index, reason in enumerate(reasons)],
    }
    return {**base, **keys}


@pytest.mark.parametrize(
    ("agent", "reason", "remedy"),
    [
        (
            "claude-code",
            "not in .claude/skills at the repository's root",
            "move it to .claude/skills/<name>/SKILL.md",
        ),
        ("codex", "7 folders below .agents/skills; Codex looks 6 down", "(at most 6 folders down; Codex, Copilot"),
        ("copilot-cli", "not in .github/skills", "move it to .agents/skills/<name>/SKILL.md (any depth;"),
        ("gemini-cli", "in a folder whose name starts with '.', which Gemini CLI skips", "rename the folders"),
        ("codex", "past the first 2,000 folders Codex scans below .agents/skills", "fewer folders below the root"),
        ("copilot-cli", "inside the skill folder x, which Copilot CLI takes as one skill", "a folder of its own"),
        ("codex", "its frontmatter is not valid YAML, which Codex's loader refuses", "`skillmem lint`"),
        ("opencode", "another skill of its name, x, is loaded after it and OpenCode keeps that one", "(SK301)"),
    ],
)
def test_each_cause_gets_its_remedy_and_the_ways_every_skill_still_reaches_the_agent(agent, reason, remedy):
    lines = remedies(result(agent, [reason]), ["AGENTS.md"], ["AGENTS.md"])
    assert any(remedy in line for line in lines)
    assert lines[-1].startswith("the block in AGENTS.md names every skill and `skillmem read NAME` loads one")
    assert ("`skillmem route`" in lines[-1]) == (agent == "claude-code")  # the route hook is Claude Code's


def test_the_remedy_agrees_in_number_with_the_skills_it_moves():
    one = remedies(result("claude-code", ["not in .claude/skills at the repository's root"]), [], [])
    two = remedies(result("claude-code", ["not in .claude/skills at the repository's root"] * 2), [], [])
    assert one[0].startswith("move it to ") and one[0].endswith(" for Claude Code to list it itself")
    assert two[0].startswith("move them to ") and two[0].endswith(" for Claude Code to list them itself")


def test_a_prompt_file_named_by_the_repository_is_shown_escaped_in_the_advice():
    # hostile5: a prompt file "N<ESC>[2J<ESC>[31mX<RLO>.md" in .skillmem.yaml cleared the terminal of budget --text.
    hostile = "N\x1b[2J\x1b[31mX\u202e.md"
    lines = remedies(result("codex", ["not in .agents/skills at the repository's root"]), [], [hostile])
    assert "\x1b" not in "".join(lines) and "\u202e" not in "".join(lines)
    assert "the block is in N\\x1b[2J\\x1b[31mX\\u202e.md, which Codex does not read" in lines[-1]


def test_an_agent_that_lists_every_skill_whole_gets_no_advice():
    assert remedies(result("codex"), ["AGENTS.md"], ["AGENTS.md"]) == []


def test_a_budget_overflow_asks_for_shorter_descriptions_with_the_figures_and_the_agents_knob():
    over = result("copilot-cli", listing_chars=43210, budget_chars=15000, descriptions_dropped=["a"])
    assert remedies(over, [], ["GEMINI.md"])[:2] == [
        "shorter descriptions: the listing needs 43,210 characters of 15,000; SKILL_CHAR_BUDGET raises its 15,000",
        "the block goes in GEMINI.md, which Copilot CLI reads, once `skillmem inject` writes it;"
        " `skillmem mcp` lets Copilot CLI search and read them all",
    ]


def test_the_block_an_agent_does_not_read_is_said_with_the_file_it_reads():
    lines = remedies(result("gemini-cli", ["not in .gemini/skills"]), [], ["AGENTS.md"])
    assert "add GEMINI.md to prompt_files (or a line @AGENTS.md in GEMINI.md)" in lines[-1]


def test_an_uncapped_listing_over_a_twentieth_of_the_window_asks_to_keep_fewer_skills():
    big = result("opencode", budget_chars=None, listing_tokens=20000, window_share=0.1, listed=500)
    assert "spends 10% of the window" in remedies(big, ["AGENTS.md"], ["AGENTS.md"])[0]
    assert "permission.skill: deny" in remedies(big, ["AGENTS.md"], ["AGENTS.md"])[0]
    small = result("opencode", budget_chars=None, listing_tokens=200, window_share=0.001, listed=5)
    assert remedies(small, ["AGENTS.md"], ["AGENTS.md"]) == []
    assert headline(big, 500).endswith(
        "lists every skill it finds: 500 skills, 100 characters, about 20,000 tokens, 10.0% of the window"
    )


def test_causes_are_counted_once_each_in_one_line():
    many = result("claude-code", ["2 folders below .claude/skills"] * 3 + ["not in .claude/skills"] * 2)
    assert [(line, len(names)) for line, names in causes(many)] == [
        ("3 not listed: 2 folders below .claude/skills", 3),
        ("2 not listed: not in .claude/skills", 2),
    ]


@pytest.mark.parametrize(("tokens", "cap", "hinted"), [(2000, None, False), (2001, None, True), (9128, 2000, False)])
def test_the_block_line_suggests_a_cap_only_for_a_large_uncapped_block(tokens, cap, hinted):
    line = block_line(1899, {"est_tokens": tokens, "max_block_tokens": cap})
    assert line.startswith(f"1,899 skills; the block is about {tokens:,} tokens a session")
    assert ("`max_block_tokens: 2000`" in line) == hinted


LOCAL = (
    "(git ignores AGENTS.md: only on a machine that runs the hook or `skillmem inject`, never in a commit;"
    " a teammate runs `touch AGENTS.md` once after cloning)"
)
# first4 (newcomer-ad 19): a fresh clone lacks an ignored prompt file, so its block is on no teammate's machine
# until they create it, and until then every run leaves it out with a note.
CLONE = (
    "(a teammate runs `touch AGENTS.md` once after cloning; until then the hooks, `skillmem inject` and"
    " `skillmem verify` leave it out with a note)"
)


def test_the_file_an_agent_reads_being_ignored_by_git_is_said_not_offered_as_a_fix():
    # A newcomer's .gitignore lists AGENTS.md: "add AGENTS.md to prompt_files" sent them into a file no commit holds.
    codex = result("codex", ["not in .agents/skills"])
    lines = remedies(codex, [], ["CLAUDE.md"], ignored=["AGENTS.md"])
    assert lines[-1].startswith(
        "the block is in CLAUDE.md, which Codex does not read, and git ignores AGENTS.md, which it reads:"
        " un-ignore AGENTS.md and commit it (`git check-ignore -v AGENTS.md` names the rule), or add it to"
        f" prompt_files for a block on each machine that runs the hook or `skillmem inject`, never in a commit {CLONE};"
    )
    assert "add AGENTS.md to prompt_files" in remedies(codex, [], ["CLAUDE.md"], ignored=["CLAUDE.md"])[-1]
    gemini = remedies(result("gemini-cli", ["not in .gemini/skills"]), [], ["CLAUDE.md"], ignored=["AGENTS.md"])
    assert "add GEMINI.md to prompt_files (or a line @CLAUDE.md in GEMINI.md)" in gemini[-1]  # its own file is not


@pytest.mark.parametrize("ignored", [[], ["AGENTS.md"]])
def test_a_block_in_an_ignored_file_reaches_the_agent_only_where_it_was_written(ignored):
    codex = result("codex", ["not in .agents/skills"])
    ahead = remedies(codex, [], ["CLAUDE.md", "AGENTS.md"], ignored=ignored)[-1]
    assert ahead.startswith("the block goes in AGENTS.md, which Codex reads, once `skillmem inject` writes it")
    assert (LOCAL in ahead) is bool(ignored)
    held = remedies(codex, ["AGENTS.md"], ["AGENTS.md"], ignored=ignored)[-1]
    assert held.startswith("the block in AGENTS.md")
    assert (LOCAL in held) is bool(ignored)


def test_an_ignored_prompt_file_configured_but_absent_is_to_be_created_not_added_again():
    # adopt4: with AGENTS.md in prompt_files, ignored and absent, the advice said "once `skillmem inject` writes
    # it", and inject exits 2 on a prompt file that does not exist.
    codex = result("codex", ["not in .agents/skills"])
    line = remedies(codex, [], ["CLAUDE.md", "AGENTS.md"], ignored=["AGENTS.md"], absent=["AGENTS.md"])[-1]
    assert line.startswith(
        "the block goes in AGENTS.md, which Codex reads, once you create it (touch AGENTS.md: skillmem never"
        f" creates a prompt file) and `skillmem inject` writes it {LOCAL};"
    )
    assert "prompt_files" not in line


def test_an_ignored_prompt_file_that_does_not_exist_is_to_be_created_before_it_goes_in_prompt_files():
    # adopt2: "add it to prompt_files" led to inject's exit 2 ("the prompt file 'CLAUDE.md' does not exist").
    claude = result("claude-code", ["3 folders below .claude/skills; Claude Code looks 1 down"])
    absent = remedies(claude, [], ["AGENTS.md"], ignored=["CLAUDE.md"], absent=["CLAUDE.md"])[-1]
    assert (
        "or create it (touch CLAUDE.md: skillmem never creates a prompt file) and add it to prompt_files for a block"
        " on each machine that runs the hook or `skillmem inject`, never in a commit"
        f" {CLONE.replace('AGENTS.md', 'CLAUDE.md')};"
    ) in absent
    present = remedies(claude, [], ["AGENTS.md"], ignored=["CLAUDE.md"], absent=["GEMINI.md"])[-1]
    assert "create it" not in present  # it is here: only a teammate's clone lacks it
    assert f"never in a commit {CLONE.replace('AGENTS.md', 'CLAUDE.md')};" in present


@pytest.mark.parametrize(("folded", "said"), [((1886, 0), "names every skill"), ((1886, 1522), None)])
def test_a_capped_block_says_how_many_skills_it_names_and_how_many_it_folds(folded, said):
    # adopt2: with max_block_tokens: 2000, "the block in CLAUDE.md ... names every skill" though 1,522 were folded.
    line = remedies(result("codex", ["not in .agents/skills"]), ["AGENTS.md"], ["AGENTS.md"], folded=folded)[-1]
    assert line.startswith(
        f"the block in AGENTS.md {said or 'names 364 of the 1,886 skills and folds 1,522 into their domains'}"
    )
    assert ("names every skill" in line) is bool(said)


def test_a_loader_s_cap_is_one_cause_by_its_data_never_by_its_words():
    over = {"field": "name", "chars": 64}
    items = [
        {"name": "a", "reason": "name of 65 characters; Codex's loader skips one over 64", "over_cap": over},
        {"name": "b", "reason": "worded another way", "over_cap": over},
        {"name": "c", "reason": "name of 70 characters; Codex's loader skips one over 64"},  # no cap said: its own
    ]
    assert causes(result("codex", not_discovered=items)) == [
        ("2 not listed: name too long: Codex's loader skips one over 64", ["a", "b"]),
        ("1 not listed: name of 70 characters; Codex's loader skips one over 64", ["c"]),
    ]
