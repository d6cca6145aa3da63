"""The lint baseline: a repository's file, so any bytes in it are a clear error (exit 2 with a hint), never a bug."""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.errors import UsageError
from skillmem_hook.hooks.lint import skill_lint
from skillmem_hook.lint.baseline import (
    known_with_another_message,
    missing_paths,
    parse_baseline,
    read_baseline,
    render_baseline,
    split_known,
    without_paths,
)
from skillmem_hook.lint.rules import Finding

from ..helpers import run_cli, skill_md, write_skill

DEEP = '{"findings": ' + "[" * 100_000
DAMAGED = {
    "deep-list": DEEP,
    "deep-row": '{"findings": [{"path": ' + "{" * 100_000,
    "deep-closed": '{"findings": ' + "[" * 5_000 + "]" * 5_000 + "}",
    "not-json": "{",
    "no-findings": "{}",
    "a-number": '{"findings": 3}',
    "rows-of-text": '{"findings": ["a"]}',
    "a-list": "[]",
    "null": "null",
    "huge-integer": '{"findings": [' + "9" * 5_000 + "]}",
    "not-utf8": b'{"findings": "caf\xe9"}',
}


def write_baseline(content):
    with open("lint-baseline.json", "wb") as file:
        file.write(content if isinstance(content, bytes) else content.encode())


@pytest.fixture
def repository(tmp_path):
    write_skill(tmp_path / "cwd" / "skills", "pdf", skill_md("pdf", "Read PDF files", "Run `scripts/x.py`.\n"))
    with open(".skillmem.yaml", "w") as file:
        file.write("roots: [skills]\nlint: {baseline: lint-baseline.json}\n")


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_damaged_baseline_is_exit_2_with_a_hint_in_the_command_and_the_hook(capsys, repository, content):
    write_baseline(content)
    run = run_cli(capsys, "lint")
    assert run.code == 2
    assert run.error["error"].startswith("the lint baseline 'lint-baseline.json' is damaged (")
    assert run.error["hint"] == "write it again: skillmem lint --write-baseline lint-baseline.json"
    assert skill_lint(["--all"]) == 2
    err = capsys.readouterr().err
    assert "the lint baseline 'lint-baseline.json' is damaged" in err
    assert "bug" not in err and "Traceback" not in err
    assert parse_baseline(content if isinstance(content, bytes) else content.encode()) is None  # --write-baseline's


def test_deep_nesting_says_so(capsys, repository):
    write_baseline(DEEP)
    assert run_cli(capsys, "lint").error["error"].endswith("is damaged (nested too deeply)")


KEYS = st.sampled_from(["findings", "path", "code", "message"])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=4),
)


@given(JSON)
def test_any_json_is_a_baseline_or_a_usage_error(tmp_path_factory, value):
    folder = tmp_path_factory.mktemp("baseline")
    path = folder / "b.json"
    path.write_text(json.dumps(value))
    parsed = parse_baseline(path.read_bytes())  # what --write-baseline reads of the baseline it replaces: the same
    try:
        known = read_baseline(str(path), str(folder))
    except UsageError as error:
        assert "is damaged" in error.message
        assert parsed is None
    else:
        assert isinstance(known, Counter)
        assert all(isinstance(part, str) for key in known for part in key)
        assert parsed == known


def test_fix_fixes_what_the_baseline_knows_too(capsys, tmp_path):
    """new user 4: after init's baseline, `lint --fix` fixed nothing and said nothing; the baseline lets a finding
    pass, it does not ask that it stay."""
    skill = write_skill(
        tmp_path / "cwd" / "skills", "pdf", b"---\nname: pdf\ndescription: Read PDFs\nversion: 1\n---\n"
    )
    with open(".skillmem.yaml", "w") as file:
        file.write("roots: [skills]\nlint: {baseline: lint-baseline.json}\n")
    assert run_cli(capsys, "lint", "--write-baseline", "lint-baseline.json").data["recorded"] == 1
    assert run_cli(capsys, "lint").data["known"] == 1
    run = run_cli(capsys, "lint", "--fix")
    assert run.data["fixed"] == ["skills/pdf/SKILL.md"]
    assert skill.read_bytes() == b"---\nname: pdf\ndescription: Read PDFs\nmetadata:\n  version: 1\n---\n"
    assert (run.data["known"], run.data["errors"]) == (0, 0)


def test_the_hook_fixes_a_file_only_for_a_finding_the_baseline_does_not_list(capsys, tmp_path):
    """The hook's --fix leaves a baselined repository as it is, so adopting a baseline does not turn the next
    commit into a rewrite; a new fixable finding in a file has the hook fix that file whole."""
    before = b"---\nname: pdf\ndescription: Read PDFs\nversion: 1\n---\n"
    skill = write_skill(tmp_path / "cwd" / "skills", "pdf", before)
    with open(".skillmem.yaml", "w") as file:
        file.write("roots: [skills]\nlint: {baseline: lint-baseline.json}\n")
    assert run_cli(capsys, "lint", "--write-baseline", "lint-baseline.json").data["recorded"] == 1
    assert skill_lint(["--all", "--fix"]) == 0
    assert skill.read_bytes() == before
    skill.write_bytes(b"---\nname: pdf\ndescription: Read PDFs\nversion: 1\nauthor: me\n---\n")
    skill_lint(["--all", "--fix"])
    assert skill.read_bytes() == b"---\nname: pdf\ndescription: Read PDFs\nmetadata:\n  version: 1\n  author: me\n---\n"
    assert "skills/pdf/SKILL.md: fixed" in capsys.readouterr().err


def test_a_finding_the_baseline_lists_once_passes_once_and_its_second_copy_is_new():
    """A baseline is a count: one known finding does not cover a second of the same path, code and message."""
    finding = Finding("SK105", "skills/a/SKILL.md", 4, 1, "unknown field 'version'")
    again = Finding("SK105", "skills/a/SKILL.md", 9, 1, "unknown field 'version'")
    known = Counter({("skills/a/SKILL.md", "SK105", "unknown field 'version'"): 1})
    assert split_known([finding, again], known) == ([again], 1)
    assert split_known([finding], Counter()) == ([finding], 0)


def test_the_entries_paths_are_read_from_the_folders_given_whatever_the_current_folder(tmp_path, monkeypatch):
    """The core takes the folder the findings' paths are relative to from its caller: from any current folder,
    a finding named from a subfolder is keyed as the configuration's folder names it (review4's design finding)."""
    here, base = str(tmp_path / "repo" / "team"), str(tmp_path / "repo")
    os.makedirs(here)
    finding = Finding("SK105", "skills/a/SKILL.md", 4, 1, "unknown field 'version'")
    known = Counter({("team/skills/a/SKILL.md", "SK105", "unknown field 'version'"): 1})
    for current in (tmp_path, tmp_path / "repo"):
        monkeypatch.chdir(current)
        assert split_known([finding], known, (here, base)) == ([], 1)
        assert json.loads(render_baseline([finding], (here, base)))["findings"][0]["path"] == "team/skills/a/SKILL.md"
        absolute = Finding("SK105", f"{base}/team/skills/a/SKILL.md", 4, 1, "unknown field 'version'")
        assert split_known([absolute], known, (here, base)) == ([], 1)  # an absolute path: from base too
    assert split_known([finding], known) == ([finding], 0)  # no folders: the path as the finding names it


def test_the_hook_s_prune_drops_every_entry_of_a_path_gone_and_only_those():
    known = Counter(
        {
            ("skills/a/SKILL.md", "SK105", "unknown field 'version'"): 2,
            ("skills/a/SKILL.md", "SK201", "missing file x.py"): 1,
            ("skills/ab/SKILL.md", "SK105", "unknown field 'version'"): 1,  # the letters of a/ and more: kept
            ("skills/b/SKILL.md", "SK105", "unknown field 'version'"): 3,
        }
    )
    kept = without_paths(known, {"skills/a/SKILL.md", "skills/c/SKILL.md"})
    assert kept == Counter(
        {
            ("skills/ab/SKILL.md", "SK105", "unknown field 'version'"): 1,
            ("skills/b/SKILL.md", "SK105", "unknown field 'version'"): 3,
        }
    )
    assert (
        without_paths(known, set()) == known and known[("skills/a/SKILL.md", "SK105", "unknown field 'version'")] == 2
    )


def test_each_message_the_baseline_holds_at_a_path_and_code_is_paired_once_in_order():
    """review3: pairing took each message with list.pop(0), quadratic in the messages of one path and code."""
    path = "skills/a/SKILL.md"
    known = Counter(
        {
            (path, "SK122", "description is 1736 characters"): 1,
            (path, "SK122", "description is 1801 characters"): 1,
            (path, "SK105", "unknown field 'version'"): 1,  # another code at the path: never paired with SK122
            (path, "SK122", "description is 1500 characters"): 1,  # still found: matched, so not paired
        }
    )
    found = [
        Finding("SK122", path, line, 1, f"description is {size} characters")
        for line, size in enumerate((1783, 1790, 1795, 1500))
    ]
    new, _ = split_known(found, known)
    paired = known_with_another_message(new, found, known)
    assert [(finding.message, was) for finding, was in paired] == [
        ("description is 1783 characters", "description is 1736 characters"),
        ("description is 1790 characters", "description is 1801 characters"),
    ]  # the third new finding has no message left to pair


def test_findings_back_under_a_renamed_folder_are_explained_by_the_paths_the_baseline_lists_that_are_gone(
    capsys, tmp_path
):
    """new user, 0.5.0: `git mv skills/crewai skills/crew-ai` failed the commit on a finding the baseline knew,
    with no word of why; the baseline is keyed by path, and its entry now names a file that is gone."""
    skills = tmp_path / "cwd" / "skills"
    write_skill(skills, "crewai", b"---\nname: crewai\ndescription: Build crews\nsource: x\n---\n")
    with open(".skillmem.yaml", "w") as file:
        file.write("roots: [skills]\nlint: {baseline: lint-baseline.json}\n")
    assert run_cli(capsys, "lint", "--write-baseline", "lint-baseline.json").data["recorded"] == 1
    assert run_cli(capsys, "lint").data["baseline_gone"] == []
    (skills / "crewai").rename(skills / "crew-ai")
    run = run_cli(capsys, "lint")
    assert [finding["code"] for finding in run.data["findings"]] == ["SK116", "SK105"]
    assert run.data["baseline_gone"] == ["skills/crewai/SKILL.md"]
    assert skill_lint(["--all"]) == 1
    lines = capsys.readouterr().err.splitlines()
    at = lines.index("the baseline lists findings of 1 path that no longer exist:")
    assert lines[at + 1 : at + 5] == [
        "  skills/crewai/SKILL.md",
        "  (a folder renamed brings its known findings back as new; --write-baseline records every finding",
        "  above, the new ones too: fix those first, then record today's findings with",
        "  skillmem lint --write-baseline lint-baseline.json)",  # the configured file, not FILE (adopt2)
    ]
    assert run_cli(capsys, "lint", "--write-baseline", "lint-baseline.json").data["recorded"] == 2
    assert skill_lint(["--all"]) == 0
    assert "no longer exist" not in capsys.readouterr().err


def test_the_baseline_advice_names_the_real_file_when_its_name_holds_a_control_character(capsys, tmp_path):
    """H7-5: visible() ran after shlex.quote, so the command shown named a file called base\\x1b[2Jx.json, not the
    configured one; bash's $'...' names the real file and shows nothing that acts on a terminal."""
    skills = tmp_path / "cwd" / "skills"
    write_skill(skills, "crewai", b"---\nname: crewai\ndescription: Build crews\nsource: x\n---\n")
    with open(".skillmem.yaml", "w") as file:
        file.write('roots: [skills]\nlint: {baseline: "base\\e[2Jx.json"}\n')
    assert run_cli(capsys, "lint", "--write-baseline", "base\x1b[2Jx.json").data["recorded"] == 1
    (skills / "crewai").rename(skills / "crew-ai")
    assert skill_lint(["--all"]) == 1
    command = capsys.readouterr().err.splitlines()[-1].strip()
    assert command == "skillmem lint --write-baseline 'base'$'\\x1b''[2Jx.json')"
    word = command.removeprefix("skillmem lint --write-baseline ").removesuffix(")")
    typed = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout
    assert typed == b"base\x1b[2Jx.json"


def test_the_baseline_entries_gone_are_looked_up_from_its_folder_and_never_through_a_link_out(tmp_path, monkeypatch):
    # hostile5: from a subfolder every path read as gone; through `link -> /etc`, what was said gone told whether
    # /etc/shadow exists.
    (tmp_path / "skills" / "here").mkdir(parents=True)
    (tmp_path / "skills" / "here" / "SKILL.md").write_text("x")
    (tmp_path / "out").symlink_to("/etc")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    paths = ["skills/here/SKILL.md", "skills/gone/SKILL.md", "out/passwd", "out/nonexistent", "dangling", "/etc/x"]
    known = Counter({(path, "SK105", "m"): 1 for path in [*paths, ""]})
    monkeypatch.chdir(tmp_path / "skills")
    assert missing_paths(known, str(tmp_path)) == ["dangling", "skills/gone/SKILL.md"]
