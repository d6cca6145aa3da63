from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.cli import COMMANDS

from .helpers import SEED_BLOCK, appended, run_cli, seed_tree, skill_md, snapshot, two_roots_two_files, write_skill

HEAD = b"# My prompt\r\n\r\nHand-written \xe9 text (Latin-1 byte).\r\n"


@pytest.fixture
def tree(tmp_path):
    return seed_tree(tmp_path / "skills")


@pytest.fixture
def prompt(tmp_path):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(HEAD)
    return path


def test_prompt_prints_the_seed_block(capsys, tree):
    run = run_cli(capsys, "prompt", "--root", tree)
    assert run.code == 0
    assert run.data["block"].encode() == SEED_BLOCK
    assert run.data["skills"] == 3


def test_index_reports_skills_duplicates_skipped_and_domains(capsys, tree):
    write_skill(tree, "copy/alpha-tool", skill_md("Alpha Tool", "a duplicate"))
    write_skill(tree, "broken", b"---\nname: broken\n")
    write_skill(tree, "colon", skill_md("colon", "Use when: it breaks things"))
    data = run_cli(capsys, "index", "--root", tree).data
    assert data["count"] == 4
    assert data["domains"] == {"data-parsing": 2, "general": 2}
    assert {"name", "domain", "path", "owner", "description", "root"} <= set(data["skills"][0])
    assert [skill["path"] for skill in data["skills"]] == ["alpha-tool", "beta-heading", "colon", "crlf-skill"]
    assert data["duplicates"] == [
        {
            "name": "Alpha Tool",
            "root": str(tree),
            "path": "copy/alpha-tool",
            "kept": {"root": str(tree), "path": "alpha-tool"},
        }
    ]
    assert data["skipped"] == [
        {"root": str(tree), "path": "broken", "reason": "the frontmatter's '---' block is never closed"}
    ]
    assert data["warnings"][0]["path"] == "colon"


def test_index_write_produces_a_readable_index_and_rewrites_only_on_change(capsys, tree, tmp_path):
    out = Path("SKILLS_INDEX.md")  # in the current folder, the repository: paths are relative to it
    assert run_cli(capsys, "index", "--root", tree, "--write", out).data["written"] is True
    text = out.read_text()
    assert "## data-parsing" in text
    assert (
        "- **alpha-tool**: Parse CSV and JSON files into tables ([../skills/alpha-tool](../skills/alpha-tool/SKILL.md))"
        in text
    )
    assert "- **beta-heading**: Beta heading ([../skills/beta-heading](../skills/beta-heading/SKILL.md))" in text
    before = snapshot(out)
    assert run_cli(capsys, "index", "--root", tree, "--write", out).data["written"] is False
    assert snapshot(out) == before
    assert run_cli(capsys, "stats", "--root", tree).data["index_bytes"] == len(out.read_bytes())


def test_inject_adds_the_block_in_the_files_line_ending_and_keeps_every_other_byte(capsys, tree, prompt):
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert run.code == 0
    assert run.data["changed"] is True
    assert prompt.read_bytes() == appended(HEAD, SEED_BLOCK, b"\r\n")


def test_a_second_inject_changes_nothing_and_writes_nothing(capsys, tree, prompt):
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    os.utime(prompt, ns=(10**9, 10**9))
    before = snapshot(prompt)
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert run.data["changed"] is False
    assert snapshot(prompt) == before


def test_inject_replaces_only_what_lies_between_the_markers(capsys, tree, prompt):
    text = b"\xef\xbb\xbfhead \xff\n<<<SKILL_INDEX_BEGIN>>>\nold-skill\n<<<SKILL_INDEX_END>>>\ntail \xfe no newline"
    prompt.write_bytes(text)
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    assert prompt.read_bytes() == b"\xef\xbb\xbfhead \xff\n" + SEED_BLOCK + b"\ntail \xfe no newline"


def test_inject_never_creates_a_prompt_file(capsys, tree, tmp_path):
    run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", tmp_path / "NEW.md")
    assert run.code == 2
    assert "does not exist" in run.error["error"]
    assert not (tmp_path / "NEW.md").exists()


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (b"a\n<<<SKILL_INDEX_BEGIN>>>\n", "line 2"),
        (b"<<<SKILL_INDEX_END>>>\n", "line 1"),
        (b"<<<SKILL_INDEX_END>>>\nx\n<<<SKILL_INDEX_BEGIN>>>\n", "line 1 comes before the BEGIN marker at line 3"),
        (b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>\n" * 2, "BEGIN at line 1, BEGIN at line 3"),
    ],
)
@pytest.mark.parametrize("command", ["inject", "verify"])
def test_marker_trouble_is_exit_2_naming_the_lines_and_the_file_is_untouched(
    capsys, tree, prompt, text, lines, command
):
    prompt.write_bytes(text)
    before = snapshot(prompt)
    run = run_cli(capsys, command, "--root", tree, "--prompt-file", prompt)
    assert run.code == 2
    assert run.out == ""
    assert lines in run.error["error"]
    assert run.error["tool"] == f"skillmem {command}"
    assert snapshot(prompt) == before


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


def test_prompt_raw_prints_the_block_itself_for_pasting(capsys, tree):
    run = run_cli(capsys, "prompt", "--raw", "--root", tree)
    assert run.code == 0
    assert run.out.encode() == SEED_BLOCK + b"\n"
    assert run.err == ""


def test_a_bare_skillmem_prints_usage_and_exits_2(capsys):
    run = run_cli(capsys)
    assert run.code == 2
    assert run.out == ""
    assert run.err.startswith("usage: skillmem")
    assert all(command in run.err for command in COMMANDS)


def test_several_roots_and_prompt_files(capsys, tmp_path):
    args, files = two_roots_two_files(tmp_path)
    assert run_cli(capsys, "inject", *args).data["changed"] is True
    assert all(b"\na\nb\n" in path.read_bytes() for path in files)
    data = run_cli(capsys, "index", *args[:4]).data
    assert [(skill["name"], skill["root"]) for skill in data["skills"]] == [
        ("a", str(tmp_path / "one")),
        ("b", str(tmp_path / "two")),
    ]


def test_configuration_drives_the_cli_when_flags_are_left_out(capsys, tree, prompt):
    # In the folder above, which holds the files it names: a configuration may only write inside its own folder.
    (prompt.parent / ".skillmem.yaml").write_text(f"roots: [{tree}]\nprompt_files: [{prompt}]\nstrict: true\n")
    assert run_cli(capsys, "verify").code == 3
    assert run_cli(capsys, "inject").code == 0
    assert run_cli(capsys, "verify").data["strict"] is True
    assert run_cli(capsys, "verify").code == 0


def test_hook_writes_a_wrapper_that_installs_then_reindexes(capsys, tmp_path):
    folder = tmp_path / 'it\'s a "dir" with spaces'
    skills = folder / "my skills"
    write_skill(skills, "a", skill_md("a"))
    prompt = folder / "AGENTS.md"
    prompt.write_text("x\n")
    wrapper = folder / "re index.sh"
    run = run_cli(capsys, "hook", "--root", skills, "--prompt-file", prompt, "--out", wrapper)
    assert run.code == 0
    assert os.access(wrapper, os.X_OK)
    new_skill = skills / "b" / "SKILL.md"
    content = "'---\\nname: b\\n---\\n'"
    installer = f"mkdir -p {shlex.quote(str(new_skill.parent))} && printf -- {content} > {shlex.quote(str(new_skill))}"
    result = subprocess.run([str(wrapper), "bash", "-c", installer], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ok"] is True
    assert b"\na\nb\n" in prompt.read_bytes()
    failed = subprocess.run([str(wrapper), "bash", "-c", "exit 7"], capture_output=True, text=True)
    assert failed.returncode == 7


def test_hook_refuses_a_folder_as_out(capsys, tree, prompt, tmp_path):
    run = run_cli(capsys, "hook", "--root", tree, "--prompt-file", prompt, "--out", tmp_path)
    assert run.code == 2
    assert "is a folder" in run.error["error"]


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
        (["bogus"], "skillmem", "invalid choice"),
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


def test_verify_reads_a_read_only_prompt_file_and_inject_refuses_it(capsys, tree, prompt):
    prompt.chmod(0o444)
    try:
        assert run_cli(capsys, "verify", "--root", tree, "--prompt-file", prompt).code == 3
        before = snapshot(prompt)
        run = run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
        assert run.code == 2
        assert "read-only" in run.error["error"]
        assert snapshot(prompt) == before
    finally:
        prompt.chmod(0o644)


def test_a_crlf_prompt_file_with_mixed_endings_keeps_them_all(capsys, tree, prompt):
    text = b"first\r\nsecond\nthird\r\n<<<SKILL_INDEX_BEGIN>>>\nold\r\n<<<SKILL_INDEX_END>>>\nafter\r"
    prompt.write_bytes(text)
    run_cli(capsys, "inject", "--root", tree, "--prompt-file", prompt)
    block = SEED_BLOCK.replace(b"\n", b"\r\n")
    assert prompt.read_bytes() == b"first\r\nsecond\nthird\r\n" + block + b"\nafter\r"


def test_a_prompt_file_named_twice_or_through_a_link_is_handled_once(capsys, tree, prompt, tmp_path):
    link = tmp_path / "CLAUDE.md"
    link.symlink_to(prompt)
    run = run_cli(
        capsys, "inject", "--root", tree, "--prompt-file", prompt, "--prompt-file", link, "--prompt-file", prompt
    )
    assert [item["prompt_file"] for item in run.data["files"]] == [str(prompt)]
    assert prompt.read_bytes().count(b"<<<SKILL_INDEX_BEGIN>>>") == 1


def test_an_unreadable_prompt_file_is_refused_with_its_reason(reachable_tmp_path):
    from skillmem_hook.block.prompt_file import read_prompt_file
    from skillmem_hook.errors import FileAccessError

    from .helpers import ChildError, run_unprivileged

    prompt = reachable_tmp_path / "AGENTS.md"
    prompt.write_text("x")
    prompt.chmod(0o000)
    try:
        with pytest.raises((ChildError, FileAccessError), match="Permission denied"):
            run_unprivileged(read_prompt_file, str(prompt))
    finally:
        prompt.chmod(0o644)


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
    # Only the command that runs is imported (cli.build_parser): verify must not pay for search's or lint's imports.
    code = (
        "import sys; from skillmem_hook.cli import main; main(['verify', '--help'])\n"
        "print(sorted(name for name in sys.modules if name.startswith('skillmem_hook.commands.')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.splitlines()[-1] == "['skillmem_hook.commands.verify']"
