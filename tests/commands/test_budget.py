"""``skillmem budget``: its contract (JSON line, --check, --text, budget: section); the rules: tests/budget/."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillmem_hook.hooks.budget import skill_budget

from ..helpers import run_cli, skill_md, write_skill


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
    }
    assert run.data["skills"] == 1


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
    assert [agent["agent"] for agent in flagged.data["agents"]] == ["claude-code", "codex"]
    assert flagged.data["agents"][0]["budget_chars"] == 5120


def test_a_parameter_can_be_set_for_another_build(repo, capsys):
    Path(".skillmem.yaml").write_text("budget: {parameters: {claude-code: {entry_cap_chars: 5}}}\n")
    run = run_cli(capsys, "budget", "--root", repo, "--agent", "claude-code")
    assert run.data["agents"][0]["descriptions_cut"] == [{"name": "flat", "kept_chars": 5}]


@pytest.mark.parametrize(
    ("section", "named"),
    [
        ("{agents: [gemini]}", "agents"),
        ("{context_window: -1}", "context_window"),
        ("{parameters: {codex: {scan_depth: 1.5}}}", "scan_depth"),
        ("{parameters: {codex: {depth: 6}}}", "depth"),
        ("{window: 5}", "window"),
    ],
)
def test_a_wrong_budget_section_is_exit_2_naming_the_key(repo, capsys, section, named):
    Path(".skillmem.yaml").write_text(f"budget: {section}\n")
    run = run_cli(capsys, "budget", "--root", repo)
    assert run.code == 2
    assert named in run.error["error"]


def test_text_is_a_summary_for_a_person(repo, capsys):
    run = run_cli(capsys, "budget", "--root", repo, "--text")
    assert run.out.splitlines()[0] == (
        "claude-code (200,000-token window): listing of 26 characters in a budget of 8,000: fits"
    )
    assert "  not discovered (1):" in run.out


def test_the_hook_is_silent_when_nothing_is_lost_and_reports_for_a_person_otherwise(repo, capsys):
    assert skill_budget(["--root", str(repo), "--agent", "claude-code"]) == 0
    assert capsys.readouterr().err == ""
    assert skill_budget(["--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "codex (200,000-token window)" in err and "not discovered (1):" in err


def test_text_does_not_call_an_empty_listing_all_clear(capsys):
    write_skill(Path("skills"), "flat", skill_md("flat", "A skill outside every agent's folder"))
    run = run_cli(capsys, "budget", "--root", "skills", "--agent", "claude-code", "--text")
    assert run.out.splitlines()[0].endswith("fits, but lists no skill: it discovers none where they are")
    assert "  not discovered (1):" in run.out
