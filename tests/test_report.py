from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest

from skillmem_hook.errors import FileAccessError, MarkerError, UsageError
from skillmem_hook.report import emit, run_reporting_errors

from .helpers import SEED_BLOCK, seed_tree


@pytest.mark.parametrize("count", [0, 1, 999, 1000, 1001, 2500])
def test_an_iterator_value_gives_the_bytes_json_dumps_gives_for_a_list(capsys, count):
    items = [{"name": f"skill-{number}", "path": "a/é\n\u2028"} for number in range(count)]
    emit({"count": count, "skills": iter(items), "after": [1, 2]})
    out = capsys.readouterr().out
    assert out == json.dumps({"count": count, "skills": items, "after": [1, 2]}) + "\n"
    assert out.count("\n") == 1


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (UsageError("bad flag", "see --help"), 2),
        (FileAccessError("cannot read", "check it"), 2),
        (MarkerError("line 3", "fix markers"), 2),
        (KeyboardInterrupt(), 130),
        (ValueError("oops"), 2),
    ],
)
def test_every_failure_becomes_one_json_line_and_its_exit_code(capsys, error, code):
    def fail() -> int:
        raise error

    assert run_reporting_errors(lambda: "skillmem test", fail) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert json.loads(line)["tool"] == "skillmem test"


def test_success_passes_the_code_through(capsys):
    assert run_reporting_errors(lambda: "t", lambda: 3) == 3
    assert capsys.readouterr().err == ""


def run_with_redirects(redirects, *args):
    """The CLI through bash, whose redirections close or fill its standard streams for real."""
    command = " ".join(shlex.quote(word) for word in [sys.executable, "-m", "skillmem_hook", *map(str, args)])
    return subprocess.run(["bash", "-c", f"{command} {redirects}"], capture_output=True, text=True, timeout=60)


def test_inject_with_stdout_closed_writes_the_file_and_exits_0(tmp_path):
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# prompt\n")
    result = run_with_redirects(">&-", "inject", "--root", root, "--prompt-file", prompt)
    assert (result.returncode, result.stderr) == (0, "")
    assert prompt.read_bytes() == b"# prompt\n" + SEED_BLOCK + b"\n"
    assert sorted(os.listdir(tmp_path)) == ["AGENTS.md", "cwd", "skills"]


def test_a_full_stdout_is_an_io_error_not_a_bug(tmp_path):
    root = seed_tree(tmp_path / "skills")
    result = run_with_redirects("> /dev/full", "prompt", "--root", root)
    assert result.returncode == 2
    error = json.loads(result.stderr)
    assert error["error"] == "cannot write the result to stdout: No space left on device"
    assert "Exception ignored" not in result.stderr


@pytest.mark.parametrize("redirects", ["2>&-", "2>/dev/full", ">&- 2>&-", "2>&- </dev/null"])
def test_an_error_with_stderr_closed_or_full_still_exits_2(tmp_path, redirects):
    result = run_with_redirects(redirects, "prompt", "--root", tmp_path / "nowhere", "--bad-flag")
    assert result.returncode == 2
    assert result.stdout == ""


@pytest.mark.parametrize("redirects", ["2>&-", "2>/dev/full"])
def test_a_hook_whose_stderr_is_closed_or_full_still_exits_3_on_drift(tmp_path, redirects):
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# prompt\n")
    code = "import sys; from skillmem_hook.hooks import skill_verify; sys.exit(skill_verify(sys.argv[1:]))"
    command = " ".join(shlex.quote(word) for word in [sys.executable, "-c", code, "--root", str(root)])
    result = subprocess.run(
        ["bash", "-c", f"{command} --prompt-file {shlex.quote(str(prompt))} {redirects}"], timeout=60, check=False
    )
    assert result.returncode == 3
