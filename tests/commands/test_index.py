"""``skillmem index --write``: what it may write over, and what it must refuse."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.catalog.placement.selection import MAX_SPELLED
from skillmem_hook.catalog.skillfile.declared import NO_FRONTMATTER, USER_ONLY
from skillmem_hook.text_lines import MAX_NAMES

from ..helpers import make_device_node, run_cli, skill_md, snapshot, write_skill


def index_in_a_child(tree, out):
    """index --write in a subprocess, so that a hang fails the test instead of stalling it."""
    command = [sys.executable, "-m", "skillmem_hook", "index", "--root", str(tree), "--write", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize(
    ("kind", "words"),
    [("fifo", "a FIFO (named pipe)"), ("zero", "a character device"), ("device", "a character device")],
)
def test_a_fifo_or_device_is_refused_at_once_and_left_as_it_is(tree, tmp_path, kind, words):
    out = tmp_path / "SKILLS_INDEX.md"
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "zero":
        out.symlink_to("/dev/zero")
    else:
        make_device_node(out)
    result = index_in_a_child(tree, out)
    assert result.returncode == 2
    assert json.loads(result.stderr)["error"] == f"{str(out)!r} is {words}, not a place for the skills index"
    assert result.stdout == ""
    assert stat.S_ISFIFO(out.stat().st_mode) if kind == "fifo" else stat.S_ISCHR(out.stat().st_mode)


@pytest.mark.parametrize("configured", ["layout", "config"])
def test_a_prompt_file_is_never_overwritten_by_the_index(capsys, tree, configured):
    prompt = Path("CLAUDE.md" if configured == "layout" else "docs/P.md")
    prompt.parent.mkdir(exist_ok=True)
    prompt.write_bytes(b"# my prompt\n")
    if configured == "config":
        Path(".skillmem.yaml").write_text("prompt_files: [docs/P.md]\n")
    before = snapshot(prompt)
    run = run_cli(capsys, "index", "--root", tree, "--write", prompt, "--force")
    assert run.code == 2
    assert "is a configured prompt file" in run.error["error"]
    assert snapshot(prompt) == before


def test_a_read_only_index_is_refused_and_keeps_its_mode(capsys, tree, tmp_path):
    out = tmp_path / "SKILLS_INDEX.md"
    out.write_bytes(b"")
    out.chmod(0o444)
    run = run_cli(capsys, "index", "--root", tree, "--write", out)
    assert run.code == 2
    assert "read-only" in run.error["error"]
    assert (out.read_bytes(), stat.S_IMODE(out.stat().st_mode)) == (b"", 0o444)


def test_a_file_skillmem_did_not_write_is_replaced_only_with_force(capsys, tree, tmp_path):
    out = tmp_path / "README.md"
    out.write_bytes(b"# My project\n")
    run = run_cli(capsys, "index", "--root", tree, "--write", out)
    assert run.code == 2
    assert "pass another path, or --force" in run.error["hint"]
    assert out.read_bytes() == b"# My project\n"
    assert run_cli(capsys, "index", "--root", tree, "--write", out, "--force").data["written"] is True
    assert out.read_bytes().startswith(b"# Skills index\n")


def test_the_index_is_written_through_a_link_as_prompt_files_are(capsys, tree, tmp_path):
    real = tmp_path / "docs" / "index.md"
    real.parent.mkdir()
    link = tmp_path / "SKILLS_INDEX.md"
    link.symlink_to(real)
    assert run_cli(capsys, "index", "--root", tree, "--write", link).data["written"] is True
    assert link.is_symlink()
    assert real.read_bytes().startswith(b"# Skills index\n")


def test_an_empty_write_path_names_no_folder_of_this_machine(capsys, tree):
    run = run_cli(capsys, "index", "--root", tree, "--write", "")
    assert run.code == 2
    assert run.error["error"] == "the path for the skills index is empty"
    assert os.getcwd() not in run.err


def test_index_reports_skills_duplicates_skipped_and_domains(capsys, tree):
    write_skill(tree, "copy/alpha-tool", skill_md("Alpha Tool", "a duplicate"))
    write_skill(tree, "broken", b"---\nname: broken\n")
    write_skill(tree, "colon", skill_md("colon", "Use when: it breaks things"))
    data = run_cli(capsys, "index", "--root", tree).data
    assert data["count"] == 4
    assert data["domains"] == {"data-parsing": 2, "general": 2}
    assert {"name", "domain", "path", "owner", "description", "root"} <= set(data["skills"][0])
    assert [skill["path"] for skill in data["skills"]] == ["alpha-tool", "beta-heading", "colon", "crlf-skill"]
    assert data["duplicates"] == [
        {
            "name": "Alpha Tool",
            "root": str(tree),
            "path": "copy/alpha-tool",
            "kept": {"root": str(tree), "path": "alpha-tool"},
        }
    ]
    assert data["skipped"] == [
        {"root": str(tree), "path": "broken", "reason": "the frontmatter's '---' block is never closed"}
    ]
    assert [warning["path"] for warning in data["warnings"]] == ["beta-heading", "colon"]
    assert data["warnings"][0]["warning"] == NO_FRONTMATTER


def test_index_as_text_lists_each_file_left_out_or_warned_of_and_why(capsys, tree):
    # A newcomer saw "1 duplicates (see the JSON output for each)" and had to read JSON to learn which.
    write_skill(tree, "copy/alpha-tool", skill_md("Alpha Tool", "a duplicate"))
    write_skill(tree, "broken", b"---\nname: broken\n")
    write_skill(tree, "hidden", b"---\nname: hidden\ndescription: mine\ndisable-model-invocation: true\n---\n")
    write_skill(tree, "colon", skill_md("colon", "Use when: it breaks things"))
    for number in range(MAX_NAMES + 2):
        write_skill(tree, f"dup/{number:02}", skill_md("colon", "the same name again"))
    lines = run_cli(capsys, "index", "--root", tree, "--text").out.splitlines()
    assert lines[0] == "4 skills"
    at = lines.index(f"{MAX_NAMES + 3} duplicates, left out (another skill of the name is listed):")
    assert lines[at + 1] == f"  {tree}/copy/alpha-tool: Alpha Tool, as {tree}/alpha-tool is"
    assert lines[at + 2] == f"  {tree}/dup/00: colon, as {tree}/colon is"
    assert lines[at + MAX_NAMES + 1] == "  ... and 3 more (the JSON output lists every one)"
    at = lines.index("2 SKILL.md files left out:")
    assert lines[at + 1 : at + 3] == [
        f"  {tree}/broken: the frontmatter's '---' block is never closed",
        f"  {tree}/hidden: {USER_ONLY}",
    ]
    at = lines.index("2 warnings:")
    assert lines[at + 1] == f"  {tree}/beta-heading: {NO_FRONTMATTER}"
    assert lines[at + 2] == f"  {tree}/colon: invalid YAML (line 3, column 22); name and description read line by line"


def test_patterns_that_name_no_skill_are_said_escaped_and_only_the_first_few_spelled_out(capsys, tmp_path):
    # hostile5: 7,000 exclude patterns naming nothing took 5 min 39 s (difflib against every name for each), and a
    # pattern or a folder's name in a note reached the terminal raw.
    root = tmp_path / "mine"
    write_skill(root, "crewai", skill_md("crewai", "Build crews of agents"))
    typos = [f"crewai{letter}" for letter in "abcdefghijklmnop"[: MAX_SPELLED + 2]]
    Path(".skillmem.yaml").write_text(f'roots: [{root}]\nexclude: [{", ".join(typos)}, "\\e[31mzz*"]\n')
    notes = run_cli(capsys, "index").data["notes"]
    assert [note.endswith("did you mean 'crewai'?") for note in notes[: len(typos)]] == [True] * MAX_SPELLED + [
        False,
        False,
    ]
    lines = run_cli(capsys, "index", "--text").out.splitlines()
    assert "\x1b" not in "".join(lines)
    assert lines[-1] == "note: exclude: '\\x1b[31mzz*' names no skill"


def test_index_write_produces_a_readable_index_and_rewrites_only_on_change(capsys, tree, tmp_path):
    out = Path("SKILLS_INDEX.md")  # in the current folder, the repository: paths are relative to it
    assert run_cli(capsys, "index", "--root", tree, "--write", out).data["written"] is True
    text = out.read_text()
    assert "## data-parsing" in text
    assert (
        "- **alpha-tool**: Parse CSV and JSON files into tables ([../skills/alpha-tool](../skills/alpha-tool/SKILL.md))"
        in text
    )
    assert "- **beta-heading**: Beta heading ([../skills/beta-heading](../skills/beta-heading/SKILL.md))" in text
    before = snapshot(out)
    assert run_cli(capsys, "index", "--root", tree, "--write", out).data["written"] is False
    assert snapshot(out) == before
    assert run_cli(capsys, "stats", "--root", tree).data["index_bytes"] == len(out.read_bytes())


def test_an_index_file_whose_links_would_cross_a_name_that_is_not_utf8_is_refused_by_name(capsys, tmp_path):
    """Found beside hostile-4 (round three's rule, every command): run from a Latin-1 folder, an index written
    above it would link back through that name; it was "UnicodeEncodeError ... a bug"."""
    latin1 = os.fsdecode(bytes(tmp_path) + b"/caf\xe9")
    write_skill(Path(latin1) / "skills", "pdf", skill_md("pdf", "Extract text"))
    os.chdir(latin1)
    run = run_cli(capsys, "index", "--root", "skills", "--write", "../INDEX.md")
    assert run.code == 2
    assert "caf\\xe9" in run.error["error"] and "not valid UTF-8" in run.error["error"]
    assert not (tmp_path / "INDEX.md").exists()
    assert run_cli(capsys, "index", "--root", "skills", "--write", "INDEX.md").code == 0  # links stay below it


def test_a_skill_only_the_user_invokes_is_skipped_by_index_and_search_with_the_reason(capsys, tmp_path):
    """new user 4's major: Claude Code never offers the model such a skill; the block, search and route must not."""
    skills = tmp_path / "skills"
    write_skill(
        skills,
        "deploy-prod",
        b"---\nname: deploy-prod\ndescription: Deploy the app to production\ndisable-model-invocation: true\n---\n",
    )
    write_skill(skills, "pdf", skill_md("pdf", "Extract text from PDF files"))
    data = run_cli(capsys, "index", "--root", skills).data
    assert [skill["name"] for skill in data["skills"]] == ["pdf"]
    assert data["skipped"] == [
        {
            "root": str(skills),
            "path": "deploy-prod",
            "reason": "disable-model-invocation: true: only the user invokes it, so no agent is offered it",
        }
    ]
    found = run_cli(capsys, "search", "deploy the app to production", "--root", skills).data
    assert "deploy-prod" not in json.dumps(found)


def test_index_as_text_counts_agree_with_their_nouns_at_one(capsys, tmp_path):
    # A newcomer read "1 warnings" and "1 SKILL.md files left out".
    root = tmp_path / "one"
    write_skill(root, "alpha", skill_md("alpha", "Use when: it breaks"))
    write_skill(root, "copy/alpha", skill_md("alpha", "a duplicate"))
    write_skill(root, "broken", b"---\nname: broken\n")
    write_skill(root, "private", skill_md("private", "mine"))
    Path(".skillmem.yaml").write_text(f"roots: [{root}]\nexclude: [private]\n")
    lines = run_cli(capsys, "index", "--text").out.splitlines()
    assert lines[0] == "1 skill"
    assert [line for line in lines if not line.startswith("  ")][1:] == [
        "1 duplicate, left out (another skill of the name is listed):",
        "1 SKILL.md file left out:",
        "1 skill excluded by the configuration:",
        "1 warning:",
    ]


def test_a_pattern_of_exclude_domains_or_quiet_that_names_no_skill_is_a_note_with_a_did_you_mean(capsys, tmp_path):
    # A newcomer's exclude: [crewai-typo] gave "excluded: []" and no word.
    root = tmp_path / "mine"
    write_skill(root, "crewai", skill_md("crewai", "Build crews of agents"))
    write_skill(root, "vendor-pack", skill_md("vendor-pack", "A vendored skill"))
    write_skill(root, "broken-one", b"---\nname: broken-one\n")
    Path(".skillmem.yaml").write_text(
        f"roots: [{root}]\nexclude: [crewai-typo, 'vendor-*', nothing-like-it]\n"
        "domains: {crewia: engineering, 'crew*': engineering, 'zz-*': testing}\n"
        "quiet: [vendor-pack, broken-one, 'broken-*', crewai-tpyo]\n"
    )
    run = run_cli(capsys, "index")
    assert [skill["name"] for skill in run.data["excluded"]] == ["vendor-pack"]
    said = [
        "exclude: 'crewai-typo' names no skill; did you mean 'crewai'?",
        "exclude: 'nothing-like-it' names no skill",
        "domains: 'crewia' names no skill; did you mean 'crewai'?",
        "domains: 'zz-*' names no skill",
        "quiet: 'crewai-tpyo' names no skill; did you mean 'crewai'?",
    ]
    assert run.data["notes"] == said  # an excluded skill and a left-out SKILL.md's folder are named by quiet:
    assert run_cli(capsys, "index", "--text").out.splitlines()[-5:] == [f"note: {note}" for note in said]
    Path(".skillmem.yaml").write_text(f"roots: [{root}]\nexclude: [crewai]\nquiet: ['vendor-*']\n")
    assert "notes" not in run_cli(capsys, "index").data


def test_a_quiet_folder_below_which_no_skill_lies_is_a_note(capsys, monkeypatch):
    write_skill(Path("skills"), "vendor/pack/a", skill_md("a", "A vendored skill"))
    write_skill(Path("skills"), "hidden/b", b"---\nname: b\ndescription: x\ndisable-model-invocation: true\n---\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nquiet: [skills/vendor/, skills/hidden, skills/vendr/]\n")
    monkeypatch.chdir(Path("skills").resolve())  # relative to the configuration file's folder, run from anywhere
    assert run_cli(capsys, "index").data["notes"] == [
        "quiet: 'skills/vendr/' names no skill: no SKILL.md in or below that folder (from .skillmem.yaml's)"
    ]


def test_quiet_names_a_title_with_a_slash_and_a_folder_s_name_and_says_when_both_exist(capsys, monkeypatch, tmp_path):
    """newcomer-ad 13: a title holding '/' was read as a folder ("names no skill"), and the folder's name of a
    title-named skill named none; a name that exists wins, and a folder below which skills lie too is said."""
    monkeypatch.chdir(tmp_path)
    write_skill(tmp_path / "skills", "tailwind-v4-shadcn", skill_md("Tailwind v4 + shadcn/ui Stack", "Style an app"))
    write_skill(tmp_path / "skills", "ai-sdk-core", skill_md("AI SDK Core", "Call models"))
    Path(".skillmem.yaml").write_text(
        'roots: [skills]\nquiet: ["Tailwind v4 + shadcn/ui Stack", ai-sdk-core, ai-sdk-cor]\n'
    )
    run = run_cli(capsys, "index", "--json")
    assert run.code == 0
    assert run.data["notes"] == ["quiet: 'ai-sdk-cor' names no skill; did you mean 'ai-sdk-core'?"]
    write_skill(tmp_path / "Tailwind v4 + shadcn" / "ui Stack", "x", skill_md("x", "A skill in that folder"))
    Path(".skillmem.yaml").write_text(
        'roots: [skills, "Tailwind v4 + shadcn/ui Stack"]\nquiet: ["Tailwind v4 + shadcn/ui Stack"]\n'
    )
    assert run_cli(capsys, "index", "--json").data["notes"] == [
        "quiet: 'Tailwind v4 + shadcn/ui Stack' is read as the skill of that name, not as the folder below which"
        " skills lie too; 'Tailwind v4 + shadcn/ui Stack/' names the folder"
    ]
