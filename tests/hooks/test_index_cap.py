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
