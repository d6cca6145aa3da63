"""Where each agent looks, on real trees: depth, links, hidden folders, a skill inside a skill, two of one name.

Each test runs in its own empty folder (conftest), which is the repository.
The rules and their sources: docs/budget.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillmem_hook.budget.native import native_entries
from skillmem_hook.budget.rules import DEFAULTS
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.scan import scan_roots

from ..helpers import skill_md, write_skill


def entries_for(agent, *roots, parameters=DEFAULTS):
    catalog = scan_roots(list(roots), CatalogOptions(tracked=False, cache=False))
    extra = [dropped for dropped, _ in catalog.duplicates]
    return native_entries(catalog.skills, os.getcwd(), parameters, agents=[agent], extra=extra)


def reasons(agent, *roots, parameters=DEFAULTS):
    """Each skill's label and why the agent does not list it ('' when it does)."""
    return {entry.name: entry.not_loaded.get(agent, "") for entry in entries_for(agent, *roots, parameters=parameters)}


def skill(folder, name=None, description="A skill"):
    write_skill(Path(folder).parent, Path(folder).name, skill_md(name or Path(folder).name, description))


# Claude Code: one folder below .claude/skills, links followed.


def test_claude_code_follows_a_linked_folder_of_skills_to_the_real_one():
    skill(".agents/skills/pdf")
    Path(".claude").mkdir()
    os.symlink("../.agents/skills", ".claude/skills")
    assert reasons("claude-code", ".agents/skills") == {"pdf": ""}


def test_claude_code_follows_a_link_per_skill():
    skill("shared/pdf")
    Path(".claude/skills").mkdir(parents=True)
    os.symlink("../../shared/pdf", ".claude/skills/pdf")
    assert reasons("claude-code", "shared") == {"pdf": ""}


# Codex: at most six folders down, hidden names skipped, caps per root, two skills of one name both kept.


def test_codex_lists_two_skills_of_one_name_and_the_block_keeps_one():
    skill(".agents/skills/a/pdf", "pdf", "first")
    skill(".agents/skills/b/pdf", "pdf", "second")
    entries = entries_for("codex", ".agents/skills")
    assert [(entry.name, entry.extra, entry.not_loaded) for entry in entries] == [
        ("pdf", False, {}),
        ("pdf", True, {}),
    ]


def test_codex_stops_reading_a_root_past_its_entry_cap():
    for name in ("a", "b", "c"):
        skill(f".agents/skills/{name}")
    # the root lists 3 entries, each skill folder 1: the cap of 5 leaves room for the root and two folders
    parameters = {**DEFAULTS, "codex": {**DEFAULTS["codex"], "scan_entries": 5}}
    assert reasons("codex", ".agents/skills", parameters=parameters) == {
        "a": "",
        "b": "",
        "c": "past the first 5 entries Codex lists below .agents/skills",
    }


def test_codex_follows_a_linked_root():
    skill(".claude/skills/pdf")
    Path(".agents").mkdir()
    os.symlink("../.claude/skills", ".agents/skills")
    assert reasons("codex", ".claude/skills") == {"pdf": ""}


# Copilot CLI (1.0.57): .github/skills, .agents/skills, .claude/skills, at any depth, hidden folders skipped.


def test_copilot_finds_skills_at_any_depth_in_its_three_folders():
    skill(".github/skills/a/b/c/deep")
    skill(".agents/skills/flat")
    skill(".claude/skills/group/x")
    skill("skills/elsewhere")
    found = reasons("copilot-cli", ".github/skills", ".agents/skills", ".claude/skills", "skills")
    assert found == {
        "deep": "",
        "flat": "",
        "x": "",
        "elsewhere": "not in .github/skills, .agents/skills or .claude/skills at the repository's root,"
        " where Copilot CLI looks",
    }


def test_copilot_skips_hidden_folders_below_its_folders():
    skill(".github/skills/.drafts/secret")
    assert reasons("copilot-cli", ".github/skills/.drafts") == {
        "secret": "in a folder whose name starts with '.', which Copilot CLI skips"
    }


def test_copilot_takes_a_skill_folder_whole_unless_a_sub_folder_sorts_before_skill_md():
    skill(".github/skills/outer")
    skill(".github/skills/outer/inner")  # 'inner/SKILL.md' sorts after 'SKILL.md': inside a skill taken already
    skill(".github/skills/outer/Alpha")  # 'Alpha/SKILL.md' sorts before 'SKILL.md': taken first, so a skill too
    assert reasons("copilot-cli", ".github/skills") == {
        "outer": "",
        "inner": "inside the skill folder .github/skills/outer, which Copilot CLI takes as one skill",
        "Alpha": "",
    }


def test_copilot_takes_a_folder_holding_skill_md_itself_as_its_one_skill():
    write_skill(Path(".github"), "skills", skill_md("all-in-one", "The folder is the skill"))
    skill(".github/skills/inside")
    found = reasons("copilot-cli", ".github/skills")
    assert found == {
        "all-in-one": "",
        "inside": ".github/skills holds a SKILL.md itself, so Copilot CLI takes the folder as one skill",
    }


def test_copilot_keeps_the_first_of_a_name_in_its_folder_order():
    skill(".claude/skills/one", "shared", "from .claude")
    skill(".github/skills/two", "shared", "from .github")
    entries = entries_for("copilot-cli", ".claude/skills", ".github/skills")
    by_description = {entry.description: entry.not_loaded.get("copilot-cli", "") for entry in entries}
    assert by_description == {
        "from .github": "",
        "from .claude": "another skill of its name, .github/skills/two, is found first and Copilot CLI keeps that one",
    }


def test_copilot_lists_a_skill_two_of_its_folders_reach_once():
    skill(".agents/skills/pdf")
    Path(".claude").mkdir()
    os.symlink("../.agents/skills", ".claude/skills")
    (entry,) = entries_for("copilot-cli", ".agents/skills")
    assert entry.not_loaded == {} and entry.shown["copilot-cli"].location == "project"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (skill_md("数据库优化", "A skill"), "name '数据库优化' is not 64 letters, digits"),
        (skill_md("n" * 65, "A skill"), "name 'nnnn"),
        (skill_md("long", "d" * 1025), "description of 1,025 characters; over 1,024 is a load error in Copilot CLI"),
        (b"---\nname: colon\ndescription: Use when: x\n---\n", "its frontmatter is not valid YAML"),
    ],
)
def test_copilot_refuses_what_its_loader_refuses(content, reason):
    write_skill(Path(".github/skills"), "one", content)
    (found,) = reasons("copilot-cli", ".github/skills").values()
    assert found.startswith(reason)


def test_copilot_takes_a_name_of_64_letters_and_a_description_of_1024():
    write_skill(Path(".github/skills"), "one", skill_md("n" * 64, "d" * 1024))
    assert list(reasons("copilot-cli", ".github/skills").values()) == [""]


# VS Code agent mode: exactly one folder down, the folder's name, no description no listing.


def test_vscode_finds_one_folder_down_only():
    skill(".github/skills/flat")
    skill(".github/skills/group/nested")
    assert reasons("vscode", ".github/skills") == {
        "flat": "",
        "nested": "2 folders below .github/skills; VS Code looks 1 down",
    }


def test_vscode_names_a_skill_by_its_folder_and_keeps_the_first_of_a_folder_name():
    skill(".github/skills/tool", "alpha", "from .github")
    skill(".claude/skills/tool", "beta", "from .claude")
    entries = entries_for("vscode", ".github/skills", ".claude/skills")
    shown = {entry.description: (entry.shown.get("vscode"), entry.not_loaded.get("vscode", "")) for entry in entries}
    assert shown["from .github"][0].name == "tool"
    assert shown["from .claude"][1] == (
        "another skill of its name, .github/skills/tool, is found first and VS Code keeps that one"
    )


def test_vscode_lists_no_skill_without_a_description_and_takes_the_rest_as_absolute_files():
    write_skill(Path(".agents/skills"), "bare", b"---\nname: bare\n---\n# Bare\n")
    skill(".agents/skills/full")
    entries = {entry.name: entry for entry in entries_for("vscode", ".agents/skills")}
    assert (
        entries["bare"].not_loaded["vscode"] == "no description in the frontmatter; VS Code lists no skill without one"
    )
    assert entries["full"].shown["vscode"].location == os.path.join(os.getcwd(), ".agents/skills/full/SKILL.md")


# Gemini CLI: .gemini/skills and .agents/skills, the folder itself or one down; the later folder wins a name.


def test_gemini_finds_the_folder_itself_and_one_down_not_two():
    write_skill(Path(".gemini"), "skills", skill_md("itself", "The folder is a skill"))
    skill(".gemini/skills/flat")
    skill(".gemini/skills/group/nested")
    assert reasons("gemini-cli", ".gemini/skills") == {
        "itself": "",
        "flat": "",
        "nested": "2 folders below .gemini/skills; Gemini CLI looks 1 down",
    }


def test_gemini_takes_the_agents_folders_skill_over_its_own_of_one_name():
    skill(".gemini/skills/one", "shared", "from .gemini")
    skill(".agents/skills/two", "shared", "from .agents")
    entries = entries_for("gemini-cli", ".gemini/skills", ".agents/skills")
    by_description = {entry.description: entry.not_loaded.get("gemini-cli", "") for entry in entries}
    assert by_description == {
        "from .agents": "",
        "from .gemini": "another skill of its name, .agents/skills/two, is loaded after it"
        " and Gemini CLI keeps that one",
    }


def test_gemini_needs_a_declared_name_and_description():
    write_skill(Path(".gemini/skills"), "nameless", b"---\ndescription: x\n---\n")
    write_skill(Path(".gemini/skills"), "silent", b"---\nname: silent\n---\n")
    assert reasons("gemini-cli", ".gemini/skills") == {
        "nameless": "no name in the frontmatter; Gemini CLI needs one (it does not take the folder's)",
        "silent": "no description in the frontmatter; Gemini CLI skips a skill without one",
    }


def test_gemini_skips_a_hidden_folder():
    skill(".gemini/skills/.drafts/one")
    assert reasons("gemini-cli", ".gemini/skills/.drafts") == {
        "one": "in a folder whose name starts with '.', which Gemini CLI skips"
    }


# OpenCode: .claude/skills, .agents/skills (hidden folders too), .opencode/skills, any depth; the last of a name wins.


def test_opencode_lists_every_skill_md_at_any_depth_nested_ones_too():
    skill(".claude/skills/outer")
    skill(".claude/skills/outer/inner")
    skill(".claude/skills/.hidden/found")
    skill(".opencode/skills/a/b/deep")
    skill(".opencode/skills/.hidden/missed")
    found = reasons(
        "opencode", ".claude/skills", ".claude/skills/.hidden", ".opencode/skills", ".opencode/skills/.hidden"
    )
    assert found == {
        "outer": "",
        "inner": "",
        "found": "",
        "deep": "",
        "missed": "not found below .opencode/skills, where OpenCode looks (a link that leaves the repository?)",
    }


def test_opencode_keeps_the_skill_of_a_name_it_loads_last():
    skill(".agents/skills/two", "shared", "from .agents")
    skill(".claude/skills/one", "shared", "from .claude")
    entries = entries_for("opencode", ".agents/skills", ".claude/skills")
    by_description = {entry.description: entry.not_loaded.get("opencode", "") for entry in entries}
    assert by_description == {
        "from .agents": "",
        "from .claude": "another skill of its name, .agents/skills/two, is loaded after it and OpenCode keeps that one",
    }


def test_a_link_that_leaves_the_repository_is_not_walked():
    outside = Path("..") / "outside"
    write_skill(outside, "far", skill_md("far", "Outside the repository"))
    skill(".claude/skills/near")
    os.symlink(os.path.abspath(outside / "far"), ".claude/skills/far")
    assert reasons("opencode", ".claude/skills") == {"near": ""}  # the catalog does not follow it either
