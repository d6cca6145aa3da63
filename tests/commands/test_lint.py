"""``skillmem lint`` and the ``skill-lint`` hook function: output contract, exit codes, configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillmem_hook.hooks.lint import skill_lint

from ..helpers import isolate_git, run_cli, run_git, skill_md, write_skill


@pytest.fixture
def skills():
    """skills/ with one clean skill, one whose name breaks the spec, and one that runs a missing script."""
    root = Path("skills")
    write_skill(root, "clean", skill_md("clean", "Parse files"))
    write_skill(root, "Bad_Name", skill_md("Bad_Name", "Parse files"))
    write_skill(root, "runner", skill_md("runner", "Run things", body="Run `scripts/go.py`.\n"))
    return root


def test_lint_prints_one_json_line_with_every_finding_and_exits_1(capsys, skills):
    run = run_cli(capsys, "lint", "--root", skills)
    assert run.code == 1
    assert run.err == ""
    data = run.data
    assert (data["ok"], data["checked"], data["errors"], data["warnings"]) == (False, 3, 2, 0)
    assert [(f["path"], f["line"], f["col"], f["code"]) for f in data["findings"]] == [
        ("skills/Bad_Name/SKILL.md", 2, 7, "SK114"),  # one finding for a name that breaks the form twice
        ("skills/runner/SKILL.md", 5, 6, "SK201"),
    ]
    assert data["findings"][0]["severity"] == "error"
    assert data["findings"][0]["rule"] == "name-characters"


def test_text_form_is_path_line_col_code_message_then_a_summary(capsys, skills):
    run = run_cli(capsys, "lint", "--root", skills, "--text")
    lines = run.out.splitlines()
    assert lines[0] == (
        "skills/Bad_Name/SKILL.md:2:7: SK114 name 'Bad_Name' holds characters other than letters, digits and '-'"
        " and has capitals; use 'bad-name', and rename the folder to match"
    )
    assert lines[1] == (
        "skills/runner/SKILL.md:5:6: SK201 'scripts/go.py' is not in the skill's folder; add the file or fix the path"
    )
    assert lines[-1] == "skill-lint: 3 SKILL.md files checked, 2 errors, 0 warnings"
    assert run.code == 1


def test_named_files_are_the_only_ones_checked(capsys, skills):
    run = run_cli(capsys, "lint", "skills/clean/SKILL.md", "skills/runner")
    assert (run.code, run.data["checked"]) == (1, 2)
    assert {finding["path"] for finding in run.data["findings"]} == {"skills/runner/SKILL.md"}
    assert run_cli(capsys, "lint", "skills/clean/SKILL.md").code == 0


def test_a_named_folder_of_skills_checks_every_skill_below_it(capsys, skills):
    run = run_cli(capsys, "lint", "skills")
    assert run.data["checked"] == 3
    assert run_cli(capsys, "lint", "skills/clean").data["checked"] == 1


def test_warnings_alone_exit_0(capsys):
    write_skill(Path("skills"), "a", skill_md("a", "d", body="[up](../b/x.md)\n"))
    run = run_cli(capsys, "lint", "--root", "skills")
    assert (run.code, run.data["errors"], run.data["warnings"]) == (0, 0, 1)


def test_a_missing_file_is_exit_2_with_one_json_error(capsys):
    run = run_cli(capsys, "lint", "nowhere/SKILL.md")
    assert run.code == 2
    assert "cannot read nowhere/SKILL.md" in run.error["error"]


def test_the_config_selects_ignores_and_turns_quality_on(capsys, skills):
    Path(".skillmem.yaml").write_text(
        "lint:\n  ignore: [SK401]\n  per_path_ignores:\n    skills/runner/*: [SK2]\n  quality: true\n"
    )
    codes = {finding["code"] for finding in run_cli(capsys, "lint", "--root", skills).data["findings"]}
    assert codes == {"SK114", "SK403"}


def test_a_bad_lint_config_is_exit_2_naming_the_key(capsys, skills):
    Path(".skillmem.yaml").write_text("lint:\n  ignore: [SK9]\n")
    run = run_cli(capsys, "lint", "--root", skills)
    assert run.code == 2
    assert "'lint.ignore': 'SK9' is no rule code" in run.error["error"]


def test_the_hook_prints_text_on_stderr_and_exits_1(capsys, skills):
    code = skill_lint(["skills/Bad_Name/SKILL.md", "skills/clean/SKILL.md"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "skills/Bad_Name/SKILL.md:2:7: SK114 name 'Bad_Name' holds characters other than letters, digits and '-'"
        " and has capitals; use 'bad-name', and rename the folder to match",
        "skill-lint: 2 SKILL.md files checked, 1 error, 0 warnings",
    ]
    assert skill_lint(["skills/clean/SKILL.md"]) == 0


def test_the_hook_reports_a_duplicate_of_a_file_it_was_not_given(capsys):
    write_skill(Path("skills"), "a/pdf", skill_md("pdf", "d"))
    write_skill(Path("skills"), "b/pdf", skill_md("PDF", "d"))
    assert skill_lint(["skills/b/pdf/SKILL.md"]) == 1
    assert "skills/a/pdf/SKILL.md as one skill 'pdf'" in capsys.readouterr().err


def test_the_hook_with_no_files_checks_every_skill_of_the_roots(capsys, skills):
    assert skill_lint([]) == 1
    assert "3 SKILL.md files checked" in capsys.readouterr().err


def test_a_bad_hook_flag_is_plain_text_for_a_person_and_exit_2(capsys):
    assert skill_lint(["--nope"]) == 2
    first, hint = capsys.readouterr().err.splitlines()
    assert first == "skill-lint: unrecognized arguments: --nope"
    assert hint == "  see 'skill-lint --help'"


def test_a_fifo_named_as_a_skill_file_is_refused_at_once(tmp_path, capsys):
    import os

    from skillmem_hook.cli import main

    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "SKILL.md")
    assert main(["lint", str(tmp_path / "fifo" / "SKILL.md")]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_text_findings_show_control_characters_in_a_path_as_escapes(capsys):
    write_skill(Path("skills"), "x\x1b[2K\x1b[1A\nAll good", skill_md("Bad_Name", "Parse files"))
    run = run_cli(capsys, "lint", "--root", "skills", "--text")
    assert "\x1b" not in run.out
    assert run.out.splitlines()[0].startswith("skills/x\\x1b[2K\\x1b[1A\\nAll good/SKILL.md:2:7: SK114")
    assert "\\u001b" in run_cli(capsys, "lint", "--root", "skills").out  # the JSON escapes it its own way


def test_the_hook_outside_a_work_tree_with_no_root_lints_the_names_it_is_given(capsys):
    write_skill(Path("elsewhere"), "Odd", skill_md("Odd", "d"))
    assert skill_lint(["elsewhere/Odd/SKILL.md"]) == 1
    assert "skill-lint: 1 SKILL.md file checked, 1 error" in capsys.readouterr().err


def test_an_excluded_skill_is_not_linted_by_the_cli(capsys, skills):
    Path(".skillmem.yaml").write_text("exclude: [Bad_Name]\n")
    run = run_cli(capsys, "lint", "--root", skills)
    assert (run.data["checked"], [f["path"] for f in run.data["findings"]]) == (2, ["skills/runner/SKILL.md"])


def test_a_missing_file_named_three_times_is_one_finding_listing_the_other_lines(capsys):
    body = "Run `scripts/go.py`.\n\nThen `scripts/go.py` again, and see [it](scripts/go.py).\n"
    path = write_skill(Path("skills"), "runner", skill_md("runner", "Run things", body=body))
    run = run_cli(capsys, "lint", "--root", "skills")
    [finding] = run.data["findings"]
    assert (finding["line"], finding["col"], finding["also"]) == (5, 6, [{"line": 7, "col": 7}, {"line": 7, "col": 42}])
    assert finding["message"] == "'scripts/go.py' is not in the skill's folder; add the file or fix the path"
    text = run_cli(capsys, "lint", "--root", "skills", "--text").out.splitlines()
    assert text[0] == (
        "skills/runner/SKILL.md:5:6: SK201 'scripts/go.py' is not in the skill's folder; add the file or fix the path"
        " (named 3 times; also on line 7)"
    )
    # A baseline keys on the message, which does not count: one more mention is no new finding.
    run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json")
    Path(".skillmem.yaml").write_text("lint: {baseline: base.json}\n")
    path.write_bytes(path.read_bytes() + b"Once more: `scripts/go.py`.\n")
    again = run_cli(capsys, "lint", "--root", "skills")
    assert (again.code, again.data["known"], again.data["findings"]) == (0, 1, [])


def test_the_json_and_the_hook_count_the_findings_per_code(capsys, skills):
    write_skill(Path("skills"), "tagged", "---\nname: tagged\ndescription: d\nrisk: low\nsource: x\n---\n")
    run = run_cli(capsys, "lint", "--root", skills)
    assert [(row["code"], row["count"]) for row in run.data["statistics"]] == [
        ("SK105", 2),
        ("SK114", 1),
        ("SK201", 1),
    ]
    Path(".skillmem.yaml").write_text("roots: [skills]\n")
    assert skill_lint(["--all"]) == 1
    assert capsys.readouterr().err.splitlines()[-4:] == [
        "2  SK105  unknown-field",
        "1  SK114  name-characters",
        "1  SK201  missing-file",
        "skill-lint: 4 SKILL.md files checked, 4 errors, 0 warnings",
    ]


def test_a_fixed_file_s_path_holding_a_line_break_is_one_line_of_the_report(capsys):
    """fixh11: "{path}: fixed" went out raw, so a folder named with a line break added a line of its own."""
    folder = "own\nskills/other/SKILL.md:1:1: SK000 all clear"
    path = write_skill(Path("skills"), folder, "---\nname: mine\ndescription: my own workflow\nowner: alice\n---\n")
    run = run_cli(capsys, "lint", "--root", "skills", "--fix", "--text")
    assert "metadata:\n  owner: alice\n" in path.read_text()  # fixed
    assert "skills/own\\nskills/other/SKILL.md:1:1: SK000 all clear/SKILL.md: fixed\n" in run.out
    assert not any(line.startswith("skills/other/") for line in run.out.splitlines())


def test_the_hook_prunes_the_baseline_entries_of_a_skill_the_commit_deletes_and_only_those(
    capsys, monkeypatch, tmp_path
):
    # newcomer-ad 17: `git rm -r` of a baselined skill passed silently and left its entries in the baseline.
    isolate_git(monkeypatch, tmp_path)
    unknown = "---\nname: {0}\ndescription: d\nversion: 1\n---\n"
    for name in ("old", "earlier", "kept"):
        write_skill(Path("skills"), name, unknown.format(name))
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    run_cli(capsys, "lint", "--write-baseline", "base.json")
    run_git("init", "-q", ".")
    run_git("add", "-A")
    run_git("commit", "-qm", "x")
    run_git("rm", "-rq", "skills/earlier")
    run_git("commit", "-qm", "gone before the baseline was pruned")  # a path gone earlier: not this commit's
    run_git("rm", "-rq", "skills/old")
    assert skill_lint([]) == 1  # the file changed: the commit stops once, for it to be staged
    err = capsys.readouterr().err
    assert "skill-lint: removed 1 finding of 1 deleted path from the baseline base.json (skills/old/SKILL.md):" in err
    assert "git add base.json, then commit again" in err
    left = Path("base.json").read_text()
    assert "skills/old/" not in left and "skills/earlier/" in left and "skills/kept/" in left
    assert skill_lint([]) == 0  # nothing left to prune: the next run passes and writes nothing
    assert Path("base.json").read_text() == left


def test_lint_below_the_configuration_s_folder_reads_its_baseline_and_the_paths_gone_from_there(capsys, monkeypatch):
    # The baseline's location (its path, and the folder it is read within and its entries' paths from) is the
    # configuration's, wherever lint runs: from skills/, the current folder's would hold no ../base.json.
    versioned = "---\nname: {0}\ndescription: d\nversion: 1\n---\n"
    for name in ("kept", "moved"):
        write_skill(Path("skills"), name, versioned.format(name))
    assert run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json").data["recorded"] == 2
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    Path("skills/moved").rename("skills/renamed")
    Path("skills/renamed/SKILL.md").write_text(versioned.format("renamed"))
    monkeypatch.chdir("skills")
    run = run_cli(capsys, "lint")
    assert run.code == 1 and run.data["baseline_gone"] == ["skills/moved/SKILL.md"]
