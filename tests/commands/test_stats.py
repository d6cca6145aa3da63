"""``skillmem stats``: the block's size in bytes and tokens, and each prompt file's."""

from __future__ import annotations

from pathlib import Path

from ..helpers import (
    SEED_BLOCK,
    run_cli,
)


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
