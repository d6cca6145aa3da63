"""``skillmem prompt``: the block the skills give, printed, never written."""

from __future__ import annotations

from ..helpers import (
    SEED_BLOCK,
    run_cli,
)


def test_prompt_prints_the_seed_block(capsys, tree):
    run = run_cli(capsys, "prompt", "--root", tree)
    assert run.code == 0
    assert run.data["block"].encode() == SEED_BLOCK
    assert run.data["skills"] == 3


def test_prompt_raw_prints_the_block_itself_for_pasting(capsys, tree):
    run = run_cli(capsys, "prompt", "--raw", "--root", tree)
    assert run.code == 0
    assert run.out.encode() == SEED_BLOCK + b"\n"
    assert run.err == ""
