"""``skillmem stats``: the block's size in bytes and tokens, and each prompt file's."""

from __future__ import annotations

from pathlib import Path

from ..helpers import SEED_BLOCK, run_cli, skill_md, write_skill


def test_stats(capsys, tree, prompt):
    data = run_cli(capsys, "stats", "--root", tree, "--prompt-file", prompt).data
    assert data["block_bytes"] == len(SEED_BLOCK)
    assert data["est_tokens"] == -(-len(SEED_BLOCK) // 4)
    assert data["prompt_files"] == [{"prompt_file": str(prompt), "block_bytes": 0, "est_tokens": 0}]
    assert (data["skills"], data["domains"]) == (3, {"data-parsing": 2, "general": 1})
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    data = run_cli(capsys, "stats", "--root", tree, "--prompt-file", prompt).data
    (measured,) = data["prompt_files"]
    assert measured["block_bytes"] == len(SEED_BLOCK) + SEED_BLOCK.count(b"\n")  # CRLF block
    assert "prompt_files" not in run_cli(capsys, "stats", "--root", tree).data


def test_stats_measures_every_prompt_file_given(capsys, tree, prompt, tmp_path):
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    empty = tmp_path / "CLAUDE.md"
    empty.write_text("# Claude\n")
    data = run_cli(capsys, "stats", "--root", tree, "--prompt-file", prompt, "--prompt-file", empty).data
    assert [(item["prompt_file"], item["block_bytes"] > 0) for item in data["prompt_files"]] == [
        (str(prompt), True),
        (str(empty), False),
    ]


def test_stats_keeps_its_prompt_file_option_apart_from_the_configuration(capsys, tree, prompt):
    Path(".skillmem.yaml").write_text(f"prompt_files: [{prompt}]\n")
    assert "prompt_files" not in run_cli(capsys, "stats", "--root", tree).data


def test_stats_measures_the_block_under_the_configured_cap_as_inject_writes_it(capsys, tmp_path):
    """new user 4: with max_block_tokens set, stats still said the uncapped size (9,132 tokens, not 1,865)."""
    skills = tmp_path / "skills"
    for number in range(60):
        write_skill(skills, f"csv-tool-{number:02}", skill_md(f"csv-tool-{number:02}", "Parse CSV files into tables"))
    uncapped = run_cli(capsys, "stats", "--root", skills).data
    (tmp_path / ".skillmem.yaml").write_text("roots: [skills]\nmax_block_tokens: 100\n")
    capped = run_cli(capsys, "stats").data
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# Agents\n")
    assert run_cli(capsys, "inject", "--prompt-file", prompt).code == 0
    written = run_cli(capsys, "stats", "--prompt-file", prompt).data["prompt_files"][0]
    assert capped["est_tokens"] == written["est_tokens"] <= 100 < uncapped["est_tokens"]
    assert (capped["max_block_tokens"], uncapped["max_block_tokens"]) == (100, None)
