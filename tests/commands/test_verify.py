"""``skillmem verify``: inject without the write, so drift is exit 3 and the file is never touched."""

from __future__ import annotations

import shutil

from ..helpers import (
    run_cli,
    skill_md,
    snapshot,
    write_skill,
)


def test_verify_reports_missing_and_stale_sorted(capsys, tree, prompt):
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert run_cli(capsys, "verify", "--root", tree, "--prompt-file", prompt).code == 0
    write_skill(tree, "zeta", skill_md("zeta"))
    write_skill(tree, "aardvark", skill_md("aardvark"))
    shutil.rmtree(tree / "alpha-tool")
    before = snapshot(prompt)
    run = run_cli(capsys, "verify", "--root", tree, "--prompt-file", prompt)
    assert run.code == 3
    assert (run.data["missing"], run.data["stale"]) == (["aardvark", "zeta"], ["alpha-tool"])
    assert snapshot(prompt) == before


def test_verify_compares_under_the_cap_its_max_block_tokens_flag_names(capsys, tmp_path):
    """--max-block-tokens on the command line is the cap, as for inject: a block injected under it is current."""
    skills = tmp_path / "skills"
    for number in range(40):
        write_skill(skills, f"csv-tool-{number:02}", skill_md(f"csv-tool-{number:02}", "Parse CSV files into tables"))
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# Agents\n")
    capped = ["--root", skills, "--prompt-file", prompt, "--max-block-tokens", "60"]
    assert run_cli(capsys, "inject", *capped).code == 0
    assert run_cli(capsys, "verify", *capped).code == 0
    assert run_cli(capsys, "verify", "--root", skills, "--prompt-file", prompt).code == 3


def test_verify_without_a_block_lists_every_skill_as_missing(capsys, tree, prompt):
    run = run_cli(capsys, "verify", "--root", tree, "--prompt-file", prompt)
    assert run.code == 3
    assert run.data["missing"] == ["alpha-tool", "beta-heading", "crlf-skill"]


def test_strict_verify_catches_a_moved_skill_and_hand_edits(capsys, tree, prompt):
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    write_skill(tree, "beta-heading", skill_md("beta-heading", "Parse YAML"))
    assert run_cli(capsys, "verify", "--root", tree, "--prompt-file", prompt).code == 0
    run = run_cli(capsys, "verify", "--strict", "--root", tree, "--prompt-file", prompt)
    assert run.code == 3
    assert (run.data["current"], run.data["moved"], run.data["missing"]) == (False, ["beta-heading"], [])
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    prompt.write_bytes(prompt.read_bytes().replace(b"alpha-tool\r\nbeta-heading", b"beta-heading\r\nalpha-tool"))
    run = run_cli(capsys, "verify", "--strict", "--root", tree, "--prompt-file", prompt)
    assert (run.code, run.data["current"], run.data["moved"]) == (3, False, [])


def test_verify_text_shows_the_drift_and_the_diff(capsys, seeded_cwd):
    run = run_cli(capsys, "verify", *seeded_cwd, "--prompt-file", "AGENTS.md", "--text", "--diff")
    assert run.code == 3
    lines = run.out.splitlines()
    assert lines[0] == "AGENTS.md: out of date"
    assert "  missing from the block (3): alpha-tool, beta-heading, crlf-skill" in lines
    assert "+++ b/AGENTS.md" in lines
    assert "+<<<SKILL_INDEX_BEGIN>>>" in lines
    assert lines[-1] == "run 'skillmem inject' to update the blocks"


def test_verify_diff_puts_each_files_diff_in_the_json(capsys, seeded_cwd):
    run = run_cli(capsys, "verify", *seeded_cwd, "--prompt-file", "AGENTS.md", "--diff")
    assert run.code == 3
    diff = run.data["files"][0]["diff"]
    assert diff.startswith("--- a/AGENTS.md\n+++ b/AGENTS.md\n")
    assert "+crlf-skill\n" in diff
    assert "diff" not in run_cli(capsys, "verify", *seeded_cwd, "--prompt-file", "AGENTS.md").data["files"][0]
