"""Where the agents look, on real trees: one level below .claude/skills, six below .agents/skills, Codex's loader."""

from __future__ import annotations

import pytest

from skillmem_hook.budget.native import native_entries
from skillmem_hook.budget.rules import DEFAULTS
from skillmem_hook.catalog.scan import scan_roots

from ..helpers import skill_md, write_skill


def reasons(tmp_path, root, agent, parameters=DEFAULTS):
    skills = scan_roots([str(tmp_path / root)]).skills
    entries = native_entries(skills, str(tmp_path), parameters)
    return {entry.name: entry.not_loaded.get(agent, "") for entry in entries}


def test_claude_code_finds_one_level_below_claude_skills_and_no_deeper(tmp_path):
    write_skill(tmp_path / ".claude/skills", "flat", skill_md("flat", "A skill"))
    write_skill(tmp_path / ".claude/skills", "group/nested", skill_md("nested", "A skill"))
    found = reasons(tmp_path, ".claude/skills", "claude-code")
    assert found == {"flat": "", "nested": "2 folders below .claude/skills; Claude Code looks 1 down"}


def test_a_skill_outside_the_agents_folders_is_not_discovered_by_either(tmp_path):
    write_skill(tmp_path / "skills", "plain", skill_md("plain", "A skill"))
    assert "not in .claude/skills" in reasons(tmp_path, "skills", "claude-code")["plain"]
    assert "not in .agents/skills" in reasons(tmp_path, "skills", "codex")["plain"]


def test_codex_finds_six_folders_down_and_not_seven(tmp_path):
    write_skill(tmp_path / ".agents/skills", "1/2/3/4/5/six", skill_md("six", "A skill"))
    write_skill(tmp_path / ".agents/skills", "1/2/3/4/5/6/seven", skill_md("seven", "A skill"))
    found = reasons(tmp_path, ".agents/skills", "codex")
    assert found == {"six": "", "seven": "7 folders below .agents/skills; Codex looks 6 down"}


def test_codex_skips_hidden_folders_and_stops_after_its_folder_cap(tmp_path):
    write_skill(tmp_path / ".agents/skills", ".hidden/secret", skill_md("secret", "A skill"))
    for name in ("a-first", "b-second", "c-third"):
        write_skill(tmp_path / ".agents/skills", name, skill_md(name, "A skill"))
    parameters = {**DEFAULTS, "codex": {**DEFAULTS["codex"], "scan_folders": 3}}  # the root and two folders
    found = reasons(tmp_path, ".agents/skills", "codex", parameters)
    hidden = reasons(tmp_path, ".agents/skills/.hidden", "codex")  # configured as a root of its own
    assert hidden["secret"] == "in a folder whose name starts with '.', which Codex skips"
    assert (found["a-first"], found["b-second"]) == ("", "")
    assert found["c-third"] == "past the first 3 folders Codex scans below .agents/skills"


@pytest.mark.parametrize(
    ("description", "name", "reason"),
    [
        ("d" * 1024, "ok-name", ""),
        ("d" * 1025, "ok-name", "description of 1,025 characters; Codex's loader skips one over 1,024"),
        ("spaced   out \n" * 1, "n" * 64, ""),
        ("fine", "n" * 65, "name of 65 characters; Codex's loader skips one over 64"),
    ],
)
def test_codex_loader_limits_at_their_edges(tmp_path, description, name, reason):
    write_skill(tmp_path / ".agents/skills", "one", skill_md(name, description))
    assert list(reasons(tmp_path, ".agents/skills", "codex").values()) == [reason]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"# Title only\n\nBody.\n", "no frontmatter ('---' block); Codex's loader requires one"),
        (b"---\nname: x\n---\nbody\n", "no description in the frontmatter; Codex's loader requires one"),
        (
            b"---\nname: colon\ndescription: Use when: it breaks\n---\n",
            "its frontmatter is not valid YAML, which Codex's loader refuses",
        ),
    ],
)
def test_codex_refuses_what_its_strict_loader_cannot_read(tmp_path, content, reason):
    write_skill(tmp_path / ".agents/skills", "one", content)
    assert list(reasons(tmp_path, ".agents/skills", "codex").values()) == [reason]
