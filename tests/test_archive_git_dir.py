"""hostile13: an unpacked archive's own git directory, again (fixh24).

Its ``config`` may include ``/dev/stdin`` (F2), its hooks folder may hold a FIFO (F3), its ``.gitattributes``
and config may name a clean filter (F1), and its ``.git`` may name another repository's git directory (F4).
Real archives, real git, real processes where stdin matters.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from .helpers import archive_repository, run_git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

WAIT = 10  # seconds a child may take before it counts as hung (each answers in well under one)


def _child(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a Python whose stdin is a pipe held open, as an MCP client holds it; fail if it hangs."""
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        process.wait(timeout=WAIT)  # not communicate(): it would close the pipe
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail("the child waited on its stdin: git read it")
    assert process.stdout is not None and process.stderr is not None and process.stdin is not None
    out, err = process.stdout.read(), process.stderr.read()
    process.stdin.close()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _include_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = archive_repository(tmp_path, monkeypatch, {".skillmem.yaml": "tracked: true\n"})
    run_git("config", "include.path", "/dev/stdin")
    return repo


@pytest.mark.parametrize("way", ["_spawned", "_through_subprocess"])
def test_git_never_reads_skillmems_stdin(tmp_path, monkeypatch, way):
    """F2: include.path = /dev/stdin; both ways git is run give it the null device, not the open pipe."""
    repo = _include_stdin(tmp_path, monkeypatch)
    code = (
        "from skillmem_hook.catalog.discovery import git\n"
        f"print(git.{way}([*git.GIT, 'config', '--get', 'core.bare']{', None' if way != '_spawned' else ''}))\n"
    )
    result = _child(code, repo)
    assert result.returncode == 0, result.stderr
    assert "(0, b'false\\n')" in result.stdout


def test_the_mcp_server_answers_with_include_stdin(tmp_path, monkeypatch):
    """F2 through the server: initialize and a search are answered while the client keeps its pipe open."""
    pytest.importorskip("mcp", reason="the MCP Python SDK is not installed (the [mcp] extra, Python 3.10+)")
    repo = _include_stdin(tmp_path, monkeypatch)
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    process = subprocess.Popen(
        [sys.executable, "-m", "skillmem_hook", "mcp"],
        cwd=repo,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    assert process.stdin is not None and process.stdout is not None
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2024-11-05",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "skill_search", "arguments": {"intent": "merge pdf"}},
        },
    ]
    process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
    process.stdin.flush()
    answers: list[bytes] = []
    reader = threading.Thread(target=lambda: answers.extend(process.stdout.readline() for _ in range(2)), daemon=True)
    reader.start()
    reader.join(WAIT)
    process.stdin.close()
    try:
        process.wait(WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert len(answers) == 2 and all(answers), "the server answered nothing: git read the client's stream"
    assert b"pdf" in answers[1]


def _hook_archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hook: str) -> Path:
    """A committed repository whose ``.git/hooks/pre-commit`` is ``hook``: a FIFO or pre-commit's script."""
    repo = archive_repository(tmp_path, monkeypatch, {"AGENTS.md": "# Agents\n"})
    path = repo / ".git" / "hooks" / "pre-commit"
    path.parent.mkdir(exist_ok=True)
    if hook == "fifo":
        os.mkfifo(path)
    else:
        path.write_text("#!/bin/sh\n# File generated by pre-commit: https://pre-commit.com\n")
    return repo


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize(("hook", "installed"), [("fifo", "False"), ("script", "True")])
def test_a_fifo_hook_makes_init_wait_for_nothing(tmp_path, monkeypatch, hook, installed):
    """F3: a FIFO at .git/hooks/pre-commit is no hook, read without waiting; pre-commit's own script still is."""
    repo = _hook_archive(tmp_path, monkeypatch, hook)
    code = f"from skillmem_hook.adopt.repository import hooks_installed\nprint(hooks_installed({str(repo)!r}))\n"
    result = _child(code, repo)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == installed


@pytest.mark.skipif(not hasattr(os, "mkfifo") or shutil.which("pre-commit") is None, reason="no FIFO or pre-commit")
def test_init_dry_run_answers_beside_a_fifo_hook(tmp_path, monkeypatch):
    repo = _hook_archive(tmp_path, monkeypatch, "fifo")
    result = _child("import sys; from skillmem_hook.cli import main; sys.exit(main(['init', '--dry-run']))", repo)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["dry_run"] is True


@pytest.mark.skipif(not hasattr(os, "mkfifo") or shutil.which("pre-commit") is None, reason="no FIFO or pre-commit")
def test_init_runs_no_install_onto_a_fifo_hook(tmp_path, monkeypatch):
    """pre-commit install would open the FIFO (to keep it as pre-commit.legacy) and wait: init says why instead."""
    repo = _hook_archive(tmp_path, monkeypatch, "fifo")
    result = _child("import sys; from skillmem_hook.cli import main; sys.exit(main(['init']))", repo)
    assert result.returncode == 0, result.stderr
    assert "is not a regular file" in json.loads(result.stdout)["hooks_installed"]
    assert (repo / ".skillmem.yaml").is_file()
