from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.errors import FileAccessError, MarkerError, UsageError
from skillmem_hook.report import emit, run_reporting_errors, to_json, write_utf8

from .helpers import REPO, SEED_BLOCK, appended, not_json, run_cli, seed_tree, skill_md, write_skill


@pytest.mark.parametrize("count", [0, 1, 999, 1000, 1001, 2500])
def test_an_iterator_value_gives_the_bytes_a_list_gives(capsys, count):
    items = [{"name": f"skill-{number}", "path": "a/é\n\u2028"} for number in range(count)]
    emit({"count": count, "skills": iter(items), "after": [1, 2]})
    out = capsys.readouterr().out
    assert out == to_json({"count": count, "skills": items, "after": [1, 2]}) + "\n"
    assert json.loads(out) == {"count": count, "skills": items, "after": [1, 2]}
    assert out.count("\n") == 1
    assert len(out.splitlines()) == 1  # U+2028 is escaped: splitlines() breaks at it


def test_non_ascii_is_written_as_utf8_not_escaped(capsysbinary):
    emit({"name": "反重力", "path": "café"})
    assert capsysbinary.readouterr().out == '{"name": "反重力", "path": "café"}\n'.encode()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(), json_values, max_size=5))
def test_every_json_line_is_valid_utf8_and_parses_back_to_the_same_data(data):
    stream = _BytesStream()
    write_utf8(stream, to_json(data) + "\n")
    text = stream.buffer.getvalue().decode("utf-8")  # strict: raises on anything but UTF-8
    assert len(text.splitlines()) == 1
    assert json.loads(text) == data


@given(st.lists(st.binary(min_size=1, max_size=6), min_size=1, max_size=4))
def test_file_names_that_are_not_utf8_never_crash_and_parse_back_to_the_same_name(raw_names):
    names = [raw.decode("utf-8", "surrogateescape") for raw in raw_names]
    stream = _BytesStream()
    write_utf8(stream, to_json({"skipped": names}) + "\n")
    parsed = json.loads(stream.buffer.getvalue().decode("utf-8"))["skipped"]
    # The same bytes on disk: a surrogate stands for a byte that is not UTF-8.
    assert [name.encode("utf-8", "surrogateescape") for name in parsed] == raw_names


class _BytesStream(io.TextIOWrapper):
    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="ascii")


def test_the_json_is_utf8_under_an_ascii_locale(tmp_path):
    root = tmp_path / "技能"
    write_skill(root, "反重力", skill_md("反重力", "中文描述"))
    write_skill(root, "x", skill_md("x", "y"))
    os.rename(root / "x", os.fsencode(root) + b"/caf\xe9-x")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONIOENCODING", "LANG", "LC_CTYPE")}
    env.update(LC_ALL="C", PYTHONUTF8="0")
    command = [sys.executable, "-m", "skillmem_hook", "index", "--root", os.fsencode(root)]
    result = subprocess.run(command, env=env, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode("utf-8")
    assert "\\u" not in text.replace("\\udce9", "")
    data = json.loads(text)
    skills = {skill["name"]: skill for skill in data["skills"]}
    # Under an ASCII locale the names arrive as one surrogate a byte; the UTF-8 ones are joined back.
    assert (skills["反重力"]["root"], skills["反重力"]["path"]) == (str(root), "反重力")
    # Not UTF-8 on disk: skipped in every command alike (issue 17 item 13), the path shown with \x escapes.
    assert "x" not in skills
    assert data["skipped"][0]["path"] == "caf\\xe9-x"


def test_the_hooks_speak_utf8_text_under_an_ascii_locale(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONIOENCODING", "LANG", "LC_CTYPE")}
    env.update(LC_ALL="C", PYTHONUTF8="0")
    code = "import sys; from skillmem_hook.hooks.index import skill_index; raise SystemExit(skill_index(sys.argv[1:]))"
    write_skill(tmp_path / "skills", "fan", skill_md("反重力", "中文"))
    (tmp_path / "AGENTS.md").write_text("x\n")
    for root, expected_code in (("skills", 3), ("absent", 2)):
        command = [sys.executable, "-c", code, "--root", root, "--prompt-file", "AGENTS.md"]
        result = subprocess.run(command, env=env, capture_output=True, cwd=tmp_path, check=False)
        assert result.returncode == expected_code, result.stderr
        lines = result.stderr.decode("utf-8").splitlines()  # strict UTF-8
        if expected_code == 3:
            assert "  added (1): 反重力" in lines
        else:
            assert lines[0].startswith("skill-index: the skills root 'absent' does not exist")
            assert lines[1].startswith("  ")
            assert "{" not in result.stderr.decode()


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


def test_the_human_form_puts_the_hint_on_its_own_lines(capsys):
    def fail() -> int:
        raise UsageError("cannot read 反重力/AGENTS.md", "check it\nor this")

    assert run_reporting_errors(lambda: "skill-index", fail, human=True) == 2
    assert capsys.readouterr().err == "skill-index: cannot read 反重力/AGENTS.md\n  check it\n  or this\n"


def test_a_json_error_keeps_non_ascii_as_utf8(capsys):
    def fail() -> int:
        raise UsageError("cannot read 反重力/AGENTS.md", "check it\nor this")

    run_reporting_errors(lambda: "skillmem verify", fail)
    err = capsys.readouterr().err
    assert "反重力" in err
    assert json.loads(err)["hint"] == "check it\nor this"


def test_success_passes_the_code_through(capsys):
    assert run_reporting_errors(lambda: "t", lambda: 3) == 3
    assert capsys.readouterr().err == ""


def test_the_human_form_indents_every_line_after_the_first(capsys):
    def fail() -> int:
        raise UsageError("first\nsecond", "hint")

    run_reporting_errors(lambda: "skill-verify", fail, human=True)
    assert capsys.readouterr().err == "skill-verify: first\n  second\n  hint\n"


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
    assert prompt.read_bytes() == appended(b"# prompt\n", SEED_BLOCK)
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
    code = "import sys; from skillmem_hook.hooks.index import skill_verify; sys.exit(skill_verify(sys.argv[1:]))"
    command = " ".join(shlex.quote(word) for word in [sys.executable, "-c", code, "--root", str(root)])
    result = subprocess.run(
        ["bash", "-c", f"{command} --prompt-file {shlex.quote(str(prompt))} {redirects}"], timeout=60, check=False
    )
    assert result.returncode == 3


def test_prompt_raw_into_a_full_stdout_is_a_clear_error_not_a_bug(tmp_path):
    root = seed_tree(tmp_path / "skills")
    result = run_with_redirects("> /dev/full", "prompt", "--raw", "--root", root)
    assert result.returncode == 2
    error = json.loads(result.stderr)["error"]
    assert error.startswith("cannot write the result to stdout")


def test_a_json_line_escapes_what_a_terminal_acts_on_and_reads_back_the_same():
    value = {"description": "del\x7f c1\x9b[2K bidi\u202e sep\u2028 esc\x1b nbsp\u00a0 中"}
    text = to_json(value)
    assert not {"\x7f", "\x9b", "\u202e", "\u2028", "\x1b"} & set(text)
    assert "nbsp\u00a0 中" in text  # other non-ASCII text stays as it is
    assert json.loads(text) == value


def test_a_json_error_line_naming_a_file_that_is_not_utf8_stays_json_once_escaped_for_people(capsys):
    def fail():
        raise FileAccessError("cannot read skills/caf\udce9/SKILL.md \x1b[2K", "check it")

    assert run_reporting_errors(lambda: "skillmem index", fail) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert json.loads(err)["error"] == "cannot read skills/caf\udce9/SKILL.md \x1b[2K"


@pytest.mark.parametrize(
    "args",
    [
        ["inject", "--root", "nowhere", "--prompt-file", "AGENTS.md", "--text"],
        ["lint", "--root", "nowhere", "--text"],
        ["search", "--root", "nowhere", "--text", "csv"],
        ["verify", "--text", "--bogus"],
    ],
)
def test_with_text_an_error_is_text_too(capsys, args):
    run = run_cli(capsys, *args)
    assert run.code == 2
    assert run.out == ""
    assert run.err.startswith(f"skillmem {args[0]}: ")
    assert not_json(run.err.splitlines()[0])
    assert run.err.splitlines()[1].startswith("  ")  # the hint, on its own indented line


def test_without_text_the_error_stays_one_json_line(capsys):
    run = run_cli(capsys, "inject", "--root", "nowhere", "--prompt-file", "AGENTS.md")
    assert run.error["tool"] == "skillmem inject"


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
