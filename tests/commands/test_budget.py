"""``skillmem budget``: its contract (JSON line, --check, --text, budget: section); the rules: tests/budget/."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.commands.budget import describe_budget
from skillmem_hook.hooks.budget import skill_budget

from ..helpers import isolate_git, run_cli, run_git, skill_md, write_skill


@pytest.fixture
def repo():
    write_skill(Path(".claude/skills"), "flat", skill_md("flat", "A skill that fits"))
    return Path(".claude/skills")


def test_one_json_line_per_the_issue_schema(repo, capsys):
    run = run_cli(capsys, "budget", "--root", repo, "--agent", "claude-code")
    assert run.code == 0
    (agent,) = run.data["agents"]
    assert agent == {
        "agent": "claude-code",
        "context_window": 200000,
        "budget_chars": 8000,
        "listing_chars": len("- flat: A skill that fits\n"),
        "fits": True,
        "descriptions_dropped": [],
        "descriptions_cut": [],
        "not_discovered": [],
        "listed": 1,
    }
    assert run.data["skills"] == 1
    assert run.data["chosen_from"] == {"by": "--agent"}
    assert run.data["block"]["est_tokens"] > 0


def test_check_exits_1_when_an_agent_would_lose_a_skill_and_0_when_none_would(repo, capsys):
    assert run_cli(capsys, "budget", "--root", repo, "--agent", "claude-code", "--check").code == 0
    losing = run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--check")  # not in .agents/skills
    assert losing.code == 1
    assert losing.data["agents"][0]["not_discovered"][0]["name"] == "flat"


def test_the_window_and_agents_come_from_the_budget_section_and_flags_win(repo, capsys):
    Path(".skillmem.yaml").write_text("roots: [.claude/skills]\nbudget: {agents: [codex], context_window: 1000000}\n")
    configured = run_cli(capsys, "budget")
    assert [(agent["agent"], agent["context_window"]) for agent in configured.data["agents"]] == [("codex", 1000000)]
    flagged = run_cli(capsys, "budget", "--agent", "all", "--context-window", "128000")
    every = ["claude-code", "codex", "copilot-cli", "vscode", "gemini-cli", "opencode"]
    assert [agent["agent"] for agent in flagged.data["agents"]] == every
    assert flagged.data["agents"][0]["budget_chars"] == 5120
    repeated = run_cli(capsys, "budget", "--agent", "gemini-cli", "--agent", "codex", "--agent", "gemini-cli")
    assert [agent["agent"] for agent in repeated.data["agents"]] == ["gemini-cli", "codex"]


def test_a_configuration_of_an_earlier_version_stays_valid_and_the_new_agents_are_accepted(repo, capsys):
    Path(".skillmem.yaml").write_text("budget: {agents: [claude-code, codex], context_window: 200000}\n")
    assert run_cli(capsys, "budget", "--root", repo).code == 0
    Path(".skillmem.yaml").write_text(
        "budget: {agents: [copilot-cli, vscode], parameters: {vscode: {budget_chars: 9}}}\n"
    )
    run = run_cli(capsys, "budget", "--root", repo)
    assert [(agent["agent"], agent["budget_chars"]) for agent in run.data["agents"]] == [
        ("copilot-cli", 15000),
        ("vscode", 9),
    ]
    assert run.data["chosen_from"] == {"by": "budget: agents"}


def test_a_parameter_can_be_set_for_another_build(repo, capsys):
    Path(".skillmem.yaml").write_text("budget: {parameters: {claude-code: {entry_cap_chars: 5}}}\n")
    run = run_cli(capsys, "budget", "--root", repo, "--agent", "claude-code")
    assert run.data["agents"][0]["descriptions_cut"] == [{"name": "flat", "kept_chars": 5}]


@pytest.mark.parametrize(
    ("section", "named"),
    [
        ("{agents: [gemini]}", "agents"),
        ("{agents: []}", "agents"),
        ("{parameters: {gemini-cli: {budget_chars: 5}}}", "budget_chars"),
        ("{context_window: -1}", "context_window"),
        ("{parameters: {codex: {scan_depth: 1.5}}}", "scan_depth"),
        ("{parameters: {codex: {depth: 6}}}", "depth"),
        ("{window: 5}", "window"),
        ("{parameters: {codex: {listing_fraction: 1}}}", "listing_fraction"),  # a fraction: below 1, the hint says
        ("{parameters: {claude-code: {listing_fraction: 0}}}", "listing_fraction"),
    ],
)
def test_a_wrong_budget_section_is_exit_2_naming_the_key(repo, capsys, section, named):
    Path(".skillmem.yaml").write_text(f"budget: {section}\n")
    run = run_cli(capsys, "budget", "--root", repo)
    assert run.code == 2
    assert named in run.error["error"]


@pytest.mark.parametrize(
    ("section", "flags", "taken"),
    [
        # A depth: at most 2,048 levels (PATH_MAX); YAML's 1.0e+17 is a whole number far below its 10**18.
        ("{parameters: {codex: {scan_depth: 2047}}}", (), True),
        ("{parameters: {codex: {scan_depth: 2048}}}", (), True),
        ("{parameters: {codex: {scan_depth: 2049}}}", (), False),
        ("{parameters: {codex: {scan_depth: 1.0e+17}}}", (), False),
        ("{parameters: {claude-code: {discovery_depth: 2049}}}", (), False),
        # Any other whole number, and the context window, at most 1,000,000,000.
        ("{parameters: {codex: {scan_folders: 1000000000}}}", (), True),
        ("{parameters: {codex: {scan_folders: 1000000001}}}", (), False),
        ("{parameters: {copilot-cli: {budget_chars: 1.0e+17}}}", (), False),
        ("{context_window: 1000000000}", (), True),
        ("{context_window: 1000000001}", (), False),
        ("{agents: [codex]}", ("--context-window", "1000000000"), True),
        ("{agents: [codex]}", ("--context-window", "1000000001"), False),
        ("{agents: [codex]}", ("--context-window", "100000000000000000"), False),
    ],
)
def test_an_absurd_number_is_exit_2_naming_the_key_and_its_range(repo, capsys, section, flags, taken):
    Path(".skillmem.yaml").write_text(f"budget: {section}\n")
    run = run_cli(capsys, "budget", "--root", repo, "--agent", "all", *flags)
    if taken:
        assert run.code == 0, run.error
        return
    assert run.code == 2
    key = flags[0] if flags else re.findall(r"(\w+): [\d.e+]+}", section)[-1]
    assert re.search(rf"{key} must be [a-z ]+, from 1 to (2,048|1,000,000,000)$", run.error["error"]), run.error


def test_a_fraction_just_below_1_is_taken(repo, capsys):
    Path(".skillmem.yaml").write_text("budget: {parameters: {codex: {listing_fraction: 0.99}}}\n")
    run = run_cli(capsys, "budget", "--root", repo, "--agent", "codex")
    assert run.code == 0, run.error
    (codex,) = run.data["agents"]
    assert codex["budget_chars"] == int(codex["context_window"] * 0.99 * 4)


def test_text_is_a_summary_for_a_person(repo, capsys):
    run = run_cli(capsys, "budget", "--root", repo, "--text", "--agent", "claude-code", "--agent", "codex")
    assert run.out.splitlines()[:2] == [
        "agents: claude-code, codex (from --agent)",
        "claude-code (200,000-token window): listing of 26 characters in a budget of 8,000: fits",
    ]
    assert (
        "  1 not listed: not in .agents/skills or .codex/skills at the repository's root, where Codex looks" in run.out
    )


def test_the_hook_is_silent_when_nothing_is_lost_and_reports_for_a_person_otherwise(repo, capsys):
    assert skill_budget(["--root", str(repo)]) == 0  # the repository shows Claude Code only, which lists the skill
    assert capsys.readouterr().err == ""
    assert skill_budget(["--root", str(repo), "--agent", "codex"]) == 1
    err = capsys.readouterr().err
    assert "codex (200,000-token window)" in err and "1 not listed: not in .agents/skills" in err


def test_text_does_not_call_an_empty_listing_all_clear(capsys):
    write_skill(Path("skills"), "flat", skill_md("flat", "A skill outside every agent's folder"))
    run = run_cli(capsys, "budget", "--root", "skills", "--agent", "claude-code", "--text")
    assert run.out.splitlines()[1] == (
        "claude-code (200,000-token window): the one skill is not where Claude Code looks (.claude/skills)"
    )


@pytest.mark.parametrize(("outside", "shown", "more"), [(9, 9, None), (10, 10, None), (11, 10, "    ... and 1 more")])
def test_a_cause_names_ten_skills_then_says_how_many_more_never_and_0_more(capsys, outside, shown, more):
    # mutants-4 survivor 26: at exactly ten names, no "... and 0 more"
    write_skill(Path(".claude/skills"), "listed", skill_md("listed", "Found where Claude Code looks"))
    for number in range(outside):
        write_skill(Path(".claude/skills"), f"group/deep-{number:02}", skill_md(f"deep-{number:02}", "Two down"))
    run = run_cli(capsys, "budget", "--agent", "claude-code", "--text")
    lines = run.out.splitlines()
    at = lines.index(f"  {outside} not listed: 2 folders below .claude/skills; Claude Code looks 1 down")
    names = [line for line in lines[at + 1 : at + 12] if line.startswith("    deep-")]
    assert names == [f"    deep-{number:02}" for number in range(shown)]
    following = lines[at + 1 + shown]
    assert following == more if more else not following.startswith("    ...")
    assert "and 0 more" not in run.out


def test_text_says_each_cause_once_with_its_count_then_what_to_do(capsys):
    # newuser-3 m6: skills left where no agent looks; the report says so once, and what to do about it
    for number in range(12):
        write_skill(Path("skills"), f"topic/s{number}", skill_md(f"s{number}", "Outside every agent's folder"))
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("@AGENTS.md\n")
    run = run_cli(capsys, "budget", "--root", "skills", "--text")
    lines = run.out.splitlines()
    assert (
        lines[0] == "agents: claude-code (CLAUDE.md), codex (AGENTS.md), from what the repository holds"
        " (--agent NAME chooses others)"
    )
    assert (
        lines[1]
        == "claude-code (200,000-token window): none of the 12 skills is where Claude Code looks (.claude/skills)"
    )
    assert lines[2] == "  12 not listed: not in .claude/skills at the repository's root, where Claude Code looks"
    assert lines[3:5] == [
        "  what to do:",
        "    - move them to .claude/skills/<name>/SKILL.md (exactly one folder down: a link from .claude/skills to"
        " .agents/skills will do only for skills one folder down there; those nested deeper must move up a level"
        " or more) for Claude Code to list them itself",
    ]
    assert lines[5].startswith(
        "    - the block in AGENTS.md (through CLAUDE.md) names every skill and `skillmem read NAME`"
    )
    assert "`skillmem route`" in lines[5] and "`skillmem mcp`" in lines[5]
    assert sum("not listed" in line for line in lines) == 2  # one line per cause, per agent
    assert lines[-1].startswith("12 skills; the block is about ")


@pytest.mark.parametrize(
    ("agent", "rule"),
    [("codex", "Codex's loader skips one over 1,024"), ("copilot-cli", "over 1,024 is a load error in Copilot CLI")],
)
def test_descriptions_over_a_loader_s_cap_are_one_cause_whatever_each_one_s_size(capsys, agent, rule):
    # newcomer-ad 12: "1 not listed: description of 1,893 characters; ..." once per skill, 18 lines of one.
    root = Path(".agents/skills") if agent == "codex" else Path(".github/skills")
    for number, size in enumerate((1025, 1736, 1893)):
        write_skill(root, f"long{number}", skill_md(f"long{number}", "x" * size))
    write_skill(root, "short", skill_md("short", "A skill that fits"))
    run = run_cli(capsys, "budget", "--root", root, "--agent", agent, "--text")
    causes = [line for line in run.out.splitlines() if "not listed" in line]
    assert causes == [f"  3 not listed: description too long: {rule}"], run.out
    lines = run.out.splitlines()
    assert lines[lines.index(causes[0]) + 1 :][:3] == ["    long0", "    long1", "    long2"]
    data = run_cli(capsys, "budget", "--root", root, "--agent", agent).data
    expected = [(f"long{number}", f"description of {size} characters; {rule}") for number, size in enumerate(SIZES)]
    cap = {"field": "description", "chars": 1024}  # JSON keeps each size, and says the cap as data
    assert data["agents"][0]["not_discovered"] == [
        {"name": name, "reason": reason, "over_cap": cap} for name, reason in expected
    ]


SIZES = ("1,025", "1,736", "1,893")


def test_names_over_codex_s_cap_are_one_cause_whatever_each_one_s_length(capsys):
    # review3: the name's cap was grouped too, but untested (a mutant grouping descriptions alone survived).
    root = Path(".agents/skills")
    for number, length in enumerate((65, 80)):
        write_skill(root, f"named{number}", skill_md("n" * (length - 1) + str(number), "Fine"))
    write_skill(root, "short", skill_md("short", "A skill that fits"))
    run = run_cli(capsys, "budget", "--root", root, "--agent", "codex", "--text")
    causes = [line for line in run.out.splitlines() if "not listed" in line]
    assert causes == ["  2 not listed: name too long: Codex's loader skips one over 64"], run.out
    data = run_cli(capsys, "budget", "--root", root, "--agent", "codex").data
    assert [item["over_cap"] for item in data["agents"][0]["not_discovered"]] == [{"field": "name", "chars": 64}] * 2


def test_every_number_in_text_is_written_one_way():
    # newuser-3 p8: "1,899" everywhere, never "1899"
    names = [
        f"s-{chr(97 + number // 26 // 26 % 26)}{chr(97 + number // 26 % 26)}{chr(97 + number % 26)}"
        for number in range(1899)
    ]
    agent = {
        "agent": "claude-code",
        "context_window": 200000,
        "budget_chars": 8000,
        "listing_chars": 143400,
        "fits": False,
        "listed": 0,
        "descriptions_dropped": names[:1546],
        "descriptions_cut": [{"name": "long", "kept_chars": 1536}],
        "not_discovered": [{"name": name, "reason": "2 folders below .claude/skills"} for name in names[1546:]],
    }
    block = {"prompt_files": ["AGENTS.md"], "est_tokens": 9128, "max_block_tokens": None, "read_by": {}}
    report = {"agents": [agent], "skills": 1899, "chosen_from": {"by": "--agent"}, "block": block}
    text = describe_budget(report)
    prose = re.sub(r"`[^`]*`", "", text)  # a value to type into .skillmem.yaml is written as YAML wants it
    assert re.findall(r"\d{4,}", prose) == []
    for figure in (
        "1,546 descriptions dropped",
        "353 not listed",
        "143,400 characters",
        "1,899 skills",
        "9,128 tokens",
    ):
        assert figure in text
    assert "1,536" in text and "... and 1,536 more" in text


def test_skills_left_out_whole_are_a_loss_even_when_no_description_is_dropped(capsys):
    """The fresh judge's 10: with names that no longer fit, Copilot CLI leaves skills out whole; --check must fail."""
    for number in range(3):
        write_skill(Path(".agents/skills"), f"s{number}", skill_md(f"s{number}", "d"))
    Path(".skillmem.yaml").write_text(
        "roots: [.agents/skills]\n"
        "budget: {agents: [copilot-cli], parameters: {copilot-cli: {budget_chars: 100, names_chars: 1}}}\n"
    )
    run = run_cli(capsys, "budget", "--check")
    (report,) = run.data["agents"]
    assert report["skills_omitted"] and not report["descriptions_dropped"]
    assert run.code == 1


def test_the_text_names_the_budgets_in_force_when_the_configuration_overrides_them(capsys):
    """A `budget: parameters:` override of Copilot's budgets is what the text quotes, not the model's defaults."""
    for number in range(3):
        write_skill(Path(".agents/skills"), f"s{number}", skill_md(f"s{number}", "d" * 60))
    Path(".skillmem.yaml").write_text(
        "roots: [.agents/skills]\n"
        "budget: {agents: [copilot-cli], parameters: {copilot-cli: {budget_chars: 200, names_chars: 50}}}\n"
    )
    text = run_cli(capsys, "budget", "--text").out
    assert "past its 50 characters of names" in text and "SKILL_CHAR_BUDGET raises its 200" in text
    assert "5,000" not in text and "15,000" not in text


def test_a_prompt_file_git_ignores_is_named_and_never_offered_as_the_fix(repo, capsys, monkeypatch, tmp_path):
    # A newcomer's project: a vendored pack in .claude/skills, a hand-written CLAUDE.md, AGENTS.md in .gitignore.
    isolate_git(monkeypatch, tmp_path / "home")
    run_git("init", "-q")
    Path("CLAUDE.md").write_text("# Notes\n")
    Path(".gitignore").write_text("AGENTS.md\n")
    run = run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--json")
    assert run.data["block"]["ignored"] == ["AGENTS.md"]
    assert run.data["block"]["absent"] == ["AGENTS.md"]
    text = run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--text").out
    assert "git ignores AGENTS.md, which it reads: un-ignore AGENTS.md and commit it" in text
    assert "or create it (touch AGENTS.md: skillmem never creates a prompt file) and add it" in text  # adopt2
    Path("AGENTS.md").write_text("# Agents\n")
    assert run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--json").data["block"]["absent"] == []
    present = run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--text").out
    assert "create it (touch AGENTS.md" not in present
    assert "a teammate runs `touch AGENTS.md` once after cloning" in present  # first4: their clone lacks it
    Path("AGENTS.md").unlink()
    assert "add AGENTS.md to prompt_files;" not in text
    Path(".gitignore").write_text("")
    assert run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--json").data["block"]["ignored"] == []
    text = run_cli(capsys, "budget", "--root", repo, "--agent", "codex", "--text").out
    assert "which Codex does not read: add AGENTS.md to prompt_files;" in text


def test_the_advice_given_from_a_subfolder_names_each_path_from_there(repo, capsys, monkeypatch, tmp_path):
    """H7-4b: from sub/deep budget advised `touch CLAUDE.md` and `git check-ignore -v CLAUDE.md`, which act on
    sub/deep/CLAUDE.md; each path in a command is now the path from the current folder."""
    isolate_git(monkeypatch, tmp_path / "home")
    run_git("init", "-q")
    Path("AGENTS.md").write_text("# Agents\n")
    Path(".gitignore").write_text("CLAUDE.md\n")
    Path("skills").mkdir()
    repo.rename("skills/pack")  # not where Claude Code looks, so the advice is given
    Path("sub/deep").mkdir(parents=True)
    monkeypatch.chdir("sub/deep")
    text = run_cli(capsys, "budget", "--agent", "claude-code", "--text").out
    assert "(`git check-ignore -v ../../CLAUDE.md` names the rule)" in text
    assert "create it (touch ../../CLAUDE.md: skillmem never creates a prompt file)" in text
    subprocess.run(["bash", "-c", "touch ../../CLAUDE.md && git check-ignore -q ../../CLAUDE.md"], check=True)
    assert Path("../../CLAUDE.md").is_file() and not Path("CLAUDE.md").exists()


def test_a_capped_block_is_said_to_fold_skills_not_to_name_every_one(repo, capsys):
    # adopt2: with max_block_tokens: 2000 budget said the block "names every skill" though 1,522 were folded.
    for number in range(8):
        name = f"extract-tables-from-quarterly-reports-{number}"
        write_skill(repo, name, skill_md(name, "Extract the tables of a PDF report"))
    Path("AGENTS.md").write_text("# Agents\n")
    Path(".skillmem.yaml").write_text(f"roots: [{repo}]\nprompt_files: [AGENTS.md]\nmax_block_tokens: 40\n")
    run = run_cli(capsys, "budget", "--agent", "codex", "--json")
    skills, folded = run.data["skills"], run.data["block"]["folded"]
    assert 0 < folded < skills
    text = run_cli(capsys, "budget", "--agent", "codex", "--text").out
    assert f"the block in AGENTS.md names {skills - folded} of the {skills} skills and folds {folded} into" in text
    Path(".skillmem.yaml").write_text(f"roots: [{repo}]\nprompt_files: [AGENTS.md]\n")
    assert run_cli(capsys, "budget", "--agent", "codex", "--json").data["block"]["folded"] == 0
