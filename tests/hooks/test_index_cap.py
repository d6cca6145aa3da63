"""The hooks under ``max_block_tokens`` on a 10,000-skill repository: within the cap, idempotent, verify agrees."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.block.markers import current_block
from skillmem_hook.block.render import estimate_tokens
from skillmem_hook.cli import main
from skillmem_hook.hooks.index import skill_index, skill_verify

from ..helpers import skill_md, write_skill

TOPICS = ["find a vulnerability", "write unit tests", "deploy with docker", "parse csv", "write the docs", "misc"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_ten_thousand_skills_fit_2000_tokens_and_a_second_run_changes_nothing(capsys):
    for number in range(10_000):
        name = f"generated-skill-{number:05}"
        write_skill(Path("skills"), name, skill_md(name, TOPICS[number % len(TOPICS)]))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path(".skillmem.yaml").write_text("max_block_tokens: 2000\n")
    subprocess.run(["git", "init", "-q"], check=True)
    subprocess.run(["git", "add", "-A"], check=True)
    assert skill_index([]) == 3
    written = Path("AGENTS.md").read_bytes()
    block = current_block(written)
    assert block is not None and estimate_tokens(len(block)) <= 2000
    subprocess.run(["git", "add", "-A"], check=True)
    assert skill_index([]) == 0
    assert Path("AGENTS.md").read_bytes() == written
    assert skill_verify([]) == 0
    capsys.readouterr()
    assert main(["verify", "--strict", "--tracked"]) == 0
    assert skill_verify(["--max-block-tokens", "100000"]) == 3  # a cap the full block fits: it lists every name


def test_a_cap_set_after_the_block_says_what_it_folds_and_not_that_the_block_was_edited(capsys):
    # A newcomer added max_block_tokens: the report listed the folded names, then "nothing missing or stale, but
    # the block's lines differ from what skill-index writes (edited by hand?)": the fold was the whole difference.
    for number in range(30):
        write_skill(Path("skills"), f"tests-{number:02}", skill_md(f"tests-{number:02}", "write unit tests"))
    write_skill(Path("skills"), "deploy", skill_md("deploy", "deploy with docker"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    assert skill_index([]) == 3
    capsys.readouterr()
    Path(".skillmem.yaml").write_text("max_block_tokens: 40\n")
    assert skill_verify([]) == 3
    err = capsys.readouterr().err
    assert "  folded into its domain's line (max_block_tokens) (30): tests-00, tests-01," in err
    assert "edited by hand" not in err


def test_a_skill_gone_from_a_collapsed_domain_is_said_with_the_domain_and_its_counts(capsys):
    # adopt2: after `git rm` of one skill in a collapsed domain the report said only "its count changed".
    for number in range(30):
        write_skill(Path("skills"), f"tests-{number:02}", skill_md(f"tests-{number:02}", "write unit tests"))
    write_skill(Path("skills"), "deploy", skill_md("deploy", "deploy with docker"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path(".skillmem.yaml").write_text("max_block_tokens: 40\n")
    assert skill_index([]) == 3
    capsys.readouterr()
    shutil.rmtree("skills/tests-07")
    assert skill_verify([]) == 3
    err = capsys.readouterr().err
    collapsed = next(line for line in Path("AGENTS.md").read_text().splitlines() if line.startswith("[30 skills:"))
    domain = collapsed.rsplit("--domain ", 1)[1].rstrip("]")
    assert f"  a skill came or went in a domain the block collapses (max_block_tokens): {domain} 30 -> 29\n" in err
    assert "its count changed" not in err
