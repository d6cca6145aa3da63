"""Faults: concurrent writers, interrupts, and files that are not files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from skillmem_hook.catalog.scan import scan_roots

from .helpers import SEED_BLOCK, run_cli, seed_tree, skill_md, write_skill

REPO = Path(__file__).resolve().parent.parent


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


def test_sigint_exits_promptly_with_a_json_error_and_no_traceback(tmp_path):
    root = seed_tree(tmp_path / "skills")
    script = textwrap.dedent(
        f"""
        import os, signal, sys, time
        import skillmem_hook.commands.prompt as command

        def interrupted_scan(*_):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(30)

        command.scan_roots = interrupted_scan
        from skillmem_hook.cli import main
        sys.exit(main(["prompt", "--root", {str(root)!r}]))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=20, cwd=REPO)
    assert result.returncode == 130
    assert result.stdout == ""
    assert json.loads(result.stderr) == {
        "tool": "skillmem prompt",
        "error": "interrupted",
        "hint": "run the command again; no file was left half-written",
    }


def test_a_fifo_skill_file_is_skipped_not_waited_on(tmp_path):
    seed_tree(tmp_path)
    (tmp_path / "fifo-skill").mkdir()
    os.mkfifo(tmp_path / "fifo-skill" / "SKILL.md")
    catalog = scan_roots([str(tmp_path)])
    assert len(catalog.skills) == 3
    assert catalog.skipped == [
        {"root": str(tmp_path), "path": "fifo-skill", "reason": "SKILL.md is not a regular file"}
    ]


def test_a_fifo_prompt_file_is_refused_not_waited_on(capsys, tmp_path):
    root = seed_tree(tmp_path / "skills")
    os.mkfifo(tmp_path / "AGENTS.md")
    run = run_cli(capsys, "inject", "--root", root, "--prompt-file", tmp_path / "AGENTS.md")
    assert run.code == 2
    assert "not a regular file" in run.error["error"]


def test_a_very_large_prompt_file_is_spliced_exactly(capsys, tmp_path):
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    head = b"x" * 50_000_000 + b"\n"
    prompt.write_bytes(head + b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n" + b"tail\n")
    assert run_cli(capsys, "inject", "--root", root, "--prompt-file", prompt).code == 0
    assert prompt.read_bytes() == head + SEED_BLOCK + b"\ntail\n"
