"""The command line as a whole: one JSON line or text for a person, errors by the contract, every command alike.

Each command's own behaviour is tested in ``tests/commands/test_<command>.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook import __version__
from skillmem_hook.cli import COMMANDS

from .helpers import not_json, run_cli, skill_md, write_skill


def test_a_bare_skillmem_prints_usage_and_exits_2(capsys):
    run = run_cli(capsys)
    assert run.code == 2
    assert run.out == ""
    assert run.err.startswith("usage: skillmem")
    assert all(command in run.err for command in COMMANDS)


def test_configuration_drives_the_cli_when_flags_are_left_out(capsys, tree, prompt):
    # In the folder above, which holds the files it names: a configuration may only write inside its own folder.
    (prompt.parent / ".skillmem.yaml").write_text(f"roots: [{tree}]\nprompt_files: [{prompt}]\nstrict: true\n")
    assert run_cli(capsys, "verify").code == 3
    assert run_cli(capsys, "inject").code == 0
    assert run_cli(capsys, "verify").data["strict"] is True
    assert run_cli(capsys, "verify").code == 0


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_for_every_command_exits_0(capsys, command):
    run = run_cli(capsys, *([command] if command else []), "--help")
    assert run.code == 0
    assert "usage: skillmem" in run.out


def test_every_command_runs_and_prints_one_json_line(capsys, tree, prompt, tmp_path):
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    extra = {
        "inject": ["--prompt-file", prompt],
        "verify": ["--prompt-file", prompt],
        "stats": ["--prompt-file", prompt],
    }
    extra["hook"] = ["--prompt-file", prompt, "--out", tmp_path / "wrapper.sh"]
    # The seed's beta-heading has no frontmatter, which the spec requires: lint's exit 1.
    expected_code = {"lint": 1}
    extra["search"] = ["parse", "csv"]
    (tmp_path / "questions.jsonl").write_text('{"query": "parse csv", "expect": ["alpha-tool"]}\n')
    extra["eval"] = [tmp_path / "questions.jsonl"]
    # mcp and route speak their clients' protocols on stdout
    # (tests/agents/test_mcp_server.py, tests/commands/test_route_hook.py);
    # read prints the SKILL.md itself (tests/commands/test_read.py); init needs a git
    # repository and merge-driver git's three files (tests/commands/test_init.py, test_merge_driver.py).
    for command in set(COMMANDS) - {"mcp", "route", "read", "init", "merge-driver"}:
        run = run_cli(capsys, command, "--root", tree, *extra.get(command, []))
        assert run.code == expected_code.get(command, 0), (command, run.err)
        assert isinstance(run.data, dict)
        assert run.err == ""


@pytest.mark.parametrize(
    ("args", "tool", "message"),
    [
        (["bogus"], "skillmem", "unknown command"),
        (["inject", "--nope"], "skillmem inject", "unrecognized arguments"),
        (["hook", "--root", "x"], "skillmem hook", "--out"),
        (["prompt", "--root"], "skillmem prompt", "expected one argument"),
        (["prompt", "--root", "does-not-exist"], "skillmem prompt", "does not exist"),
        (["verify", "--root", "."], "skillmem verify", "no prompt file"),
        (["index"], "skillmem index", "no skills root"),
    ],
)
def test_usage_and_io_errors_are_one_json_line_and_exit_2(capsys, args, tool, message):
    run = run_cli(capsys, *args)
    assert run.code == 2
    assert run.out == ""
    assert run.error["tool"] == tool
    assert message in run.error["error"]


def test_an_unexpected_failure_is_still_one_json_line(capsys, tree, monkeypatch):
    import skillmem_hook.commands.prompt as module

    def explode(*_):
        raise RuntimeError("boom")

    monkeypatch.setattr(module, "scan_roots", explode)
    run = run_cli(capsys, "prompt", "--root", tree)
    assert run.code == 2
    assert "RuntimeError: boom" in run.error["error"]
    assert "Traceback" not in run.err


def installed_script(name: str) -> str:
    script = Path(sys.executable).parent / name
    if not script.exists():
        pytest.skip(f"the console script {name} is not installed beside this interpreter")
    return str(script)


@pytest.mark.parametrize("launcher", ["script", "module"])
def test_the_installed_command_runs_as_a_user_would(tree, prompt, launcher):
    base = [installed_script("skillmem")] if launcher == "script" else [sys.executable, "-m", "skillmem_hook"]
    inject = subprocess.run([*base, "inject", "--root", str(tree), "--prompt-file", str(prompt)], capture_output=True)
    assert inject.returncode == 0, inject.stderr
    assert len(inject.stdout.splitlines()) == 1
    verify = subprocess.run(
        [*base, "verify", "--strict", "--root", str(tree), "--prompt-file", str(prompt)], capture_output=True
    )
    assert verify.returncode == 0
    bad = subprocess.run([*base, "verify", "--bogus"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert json.loads(bad.stderr)["tool"] == "skillmem verify"


def test_a_reader_that_stops_early_does_not_turn_the_run_into_an_error(tree, prompt):
    command = [sys.executable, "-m", "skillmem_hook", "verify", "--root", str(tree), "--prompt-file", str(prompt)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone before the first byte, like '| head -c 0'
    assert process.wait() == 3
    assert process.stderr.read() == b""
    process.stderr.close()


def test_json_keeps_non_ascii_as_utf8_in_output_and_errors(capsys, tmp_path):
    root = tmp_path / "技能"
    write_skill(root, "反重力", skill_md("反重力", "中文描述"))
    run = run_cli(capsys, "index", "--root", root)
    assert '"name": "反重力"' in run.out
    assert "\\u" not in run.out
    run = run_cli(capsys, "verify", "--root", root, "--prompt-file", tmp_path / "无.md")
    assert run.code == 2
    assert "无.md" in run.err
    assert "\\u" not in run.err
    assert json.loads(run.err)["tool"] == "skillmem verify"


def test_a_command_imports_no_other_command_s_module():
    # Only the command that runs is imported (cli._parsers): verify must not pay for search's or lint's imports.
    code = (
        "import sys; from skillmem_hook.cli import main; main(['verify', '--help'])\n"
        "print(sorted(name for name in sys.modules if name.startswith('skillmem_hook.commands.')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.splitlines()[-1] == "['skillmem_hook.commands.verify']"


# The commands whose JSON line --text turns into lines for a person (lint, search, eval and budget print their own).
TEXT_COMMANDS = ("index", "prompt", "inject", "verify", "stats", "hook", "init")


@pytest.mark.parametrize("command", TEXT_COMMANDS)
def test_every_command_prints_text_not_json(capsys, seeded_cwd, command, tmp_path):
    extra = {
        "inject": ["--prompt-file", "AGENTS.md"],
        "verify": ["--prompt-file", "AGENTS.md"],
        "hook": ["--prompt-file", "AGENTS.md", "--out", str(tmp_path / "w.sh")],
        "init": ["--no-install"],
    }
    if command == "init":
        subprocess.run(["git", "init", "-q"], check=True)
    args = [] if command == "init" else seeded_cwd
    run = run_cli(capsys, command, *args, *extra.get(command, []), "--text")
    assert run.code in (0, 3), run.err
    assert run.out.endswith("\n")
    assert not_json(run.out.splitlines()[0])


def test_index_prompt_and_stats_in_text(capsys, seeded_cwd):
    index = run_cli(capsys, "index", *seeded_cwd, "--text").out
    assert index.splitlines()[0] == "3 skills"
    assert "  [data-parsing] alpha-tool  (skills/alpha-tool)" in index
    prompt = run_cli(capsys, "prompt", *seeded_cwd, "--text").out
    assert prompt.startswith("<<<SKILL_INDEX_BEGIN>>>\n[data-parsing]\n")
    stats = run_cli(capsys, "stats", *seeded_cwd, "--text").out
    assert stats.startswith("3 skills; the block is ")


def test_version_is_one_line_on_stdout(capsys):
    run = run_cli(capsys, "--version")
    assert (run.code, run.out, run.err) == (0, f"skillmem {__version__}\n", "")


HOSTILE = "x\x1b[31mRED\nFAKE: all good"


def test_a_hostile_folder_or_prompt_file_name_is_escaped_on_its_own_line(capsys, seeded_cwd):
    # Folder and prompt file names are the repository's content: in --text neither may act on the
    # terminal (ESC) nor add a line of its own (README: text from a repository is shown, never acted on).
    write_skill(Path("skills"), HOSTILE, skill_md("redx", "a skill in a hostile folder"))
    Path(f"A{HOSTILE}.md").write_text("# Agents\n")
    prompt = ["--prompt-file", f"A{HOSTILE}.md", "--text"]
    runs = [run_cli(capsys, "index", *seeded_cwd, "--text")]
    runs += [run_cli(capsys, command, *seeded_cwd, *prompt) for command in ("inject", "verify", "stats")]
    for run in runs:
        assert run.code == 0, run.err
        assert "\x1b" not in run.out
        assert not any(line.startswith("FAKE") for line in run.out.splitlines()), run.out
    assert "x\\x1b[31mRED\\nFAKE: all good" in runs[0].out
    assert "Ax\\x1b[31mRED\\nFAKE: all good.md: current" in runs[2].out
