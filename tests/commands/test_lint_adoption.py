"""What lets a real collection adopt lint: per-rule severity, a baseline, and CI formats (GitHub, SARIF 2.1.0)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from skillmem_hook.hooks.lint import skill_lint

from ..helpers import run_cli, skill_md, write_skill

SCHEMA = json.loads((Path(__file__).parent.parent / "lint" / "data" / "sarif-2.1.0-subset.schema.json").read_text())
# RFC 3986's characters, and '%' only before two hex digits: no spaces, no raw non-ASCII.
URI_REFERENCE = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
FORMATS = jsonschema.FormatChecker()
FORMATS.checks("uri-reference")(lambda value: not isinstance(value, str) or URI_REFERENCE.fullmatch(value) is not None)
FORMATS.checks("uri")(lambda value: not isinstance(value, str) or URI_REFERENCE.fullmatch(value) is not None)


@pytest.fixture
def skills():
    """An unknown field (SK105); a folder named in Chinese with a space and a missing script; a clean skill."""
    root = Path("skills")
    write_skill(root, "versioned", "---\nname: versioned\ndescription: d\nversion: 1\n---\n")
    write_skill(root, "运行 runner", skill_md("运行 runner", "Run things", body="Run `scripts/go.py`.\n"))
    write_skill(root, "clean", skill_md("clean", "Parse files"))
    return root


def codes(run):
    return [finding["code"] for finding in run.data["findings"]]


def test_a_rule_can_be_made_a_warning(capsys, skills):
    Path(".skillmem.yaml").write_text("lint:\n  severity: {SK1: warning, SK114: error}\n")
    run = run_cli(capsys, "lint", "--root", skills)
    severities = {finding["code"]: finding["severity"] for finding in run.data["findings"]}
    assert severities == {"SK105": "warning", "SK114": "error", "SK201": "error"}  # the longer prefix decides


def test_severity_values_are_checked(capsys, skills):
    Path(".skillmem.yaml").write_text("lint:\n  severity: {SK105: info}\n")
    run = run_cli(capsys, "lint", "--root", skills)
    assert run.code == 2
    assert "'lint.severity.SK105' must be error or warning" in run.error["error"]


def test_a_baseline_fails_only_new_findings_and_forgets_fixed_ones(capsys, skills):
    written = run_cli(capsys, "lint", "--root", skills, "--write-baseline", "lint-baseline.json")
    assert (written.code, written.data["recorded"], written.data["written"]) == (0, 3, True)
    again = run_cli(capsys, "lint", "--root", skills, "--write-baseline", "lint-baseline.json")
    assert again.data["written"] is False  # the same findings: the same bytes, no write
    Path(".skillmem.yaml").write_text("lint:\n  baseline: lint-baseline.json\n")
    known = run_cli(capsys, "lint", "--root", skills)
    assert (known.code, known.data["known"], codes(known)) == (0, 3, [])
    Path("skills/clean/SKILL.md").write_text("---\nname: clean\ndescription: d\nrisk: low\n---\n")
    new = run_cli(capsys, "lint", "--root", skills)
    assert (new.code, codes(new)) == (1, ["SK105"])
    Path("skills/versioned/SKILL.md").write_text("---\nname: versioned\ndescription: d\n---\n")  # fixed
    run_cli(capsys, "lint", "--root", skills, "--write-baseline", "lint-baseline.json")
    recorded = json.loads(Path("lint-baseline.json").read_text())["findings"]
    assert [(row["path"], row["code"]) for row in recorded] == [
        ("skills/clean/SKILL.md", "SK105"),
        ("skills/运行 runner/SKILL.md", "SK114"),
        ("skills/运行 runner/SKILL.md", "SK201"),
    ]


def test_the_hook_honours_the_baseline(capsys, skills):
    run_cli(capsys, "lint", "--root", skills, "--write-baseline", "lint-baseline.json")
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint:\n  baseline: lint-baseline.json\n")
    assert skill_lint(["--all"]) == 0
    assert "3 more known in the baseline" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["{", '{"findings": 3}', "[]"])
def test_a_damaged_baseline_is_exit_2_naming_it(capsys, skills, content):
    Path("lint-baseline.json").write_text(content)
    Path(".skillmem.yaml").write_text("lint:\n  baseline: lint-baseline.json\n")
    run = run_cli(capsys, "lint", "--root", skills)
    assert run.code == 2
    assert "the lint baseline 'lint-baseline.json' is damaged" in run.error["error"]


def test_github_annotations_escape_what_the_runner_decodes(capsys, skills):
    run = run_cli(capsys, "lint", "--root", skills, "--format", "github")
    lines = run.out.splitlines()
    assert run.code == 1
    assert lines[0] == (
        "::error file=skills/versioned/SKILL.md,line=4,col=1,title=SK105 unknown-field::"
        "unknown field 'version'; move it under 'metadata:' or remove it"
    )
    assert lines[-1].startswith("skill-lint: 3 SKILL.md files checked")


def test_sarif_is_valid_sarif_2_1_0(capsys, skills):
    run = run_cli(capsys, "lint", "--root", skills, "--format", "sarif")
    log = json.loads(run.out)
    jsonschema.validate(log, SCHEMA, format_checker=FORMATS)
    results = log["runs"][0]["results"]
    assert [result["ruleId"] for result in results] == ["SK105", "SK114", "SK201"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[result["ruleIndex"]]["id"] == result["ruleId"] for result in results)
    uri = results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "skills/%E8%BF%90%E8%A1%8C%20runner/SKILL.md"


def test_the_schema_check_would_catch_a_broken_log(capsys, skills):
    log = json.loads(run_cli(capsys, "lint", "--root", skills, "--format", "sarif").out)
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "a b/SKILL.md"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SCHEMA, format_checker=FORMATS)
    del log["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SCHEMA)


def test_fix_writes_the_mechanical_fixes_once_and_lint_then_reports_the_rest(capsys, skills):
    before = Path("skills/运行 runner/SKILL.md").read_bytes()
    run = run_cli(capsys, "lint", "--root", skills, "--fix")
    assert run.data["fixed"] == ["skills/versioned/SKILL.md"]
    assert codes(run) == ["SK114", "SK201"]  # the folder's name is no valid name: nothing mechanical to do
    assert Path("skills/versioned/SKILL.md").read_text() == (
        "---\nname: versioned\ndescription: d\nmetadata:\n  version: 1\n---\n"
    )
    assert Path("skills/运行 runner/SKILL.md").read_bytes() == before
    assert run_cli(capsys, "lint", "--root", skills, "--fix").data["fixed"] == []


def test_fix_reaches_a_root_outside_the_current_folder(capsys, tmp_path, monkeypatch):
    write_skill(tmp_path / "elsewhere", "versioned", "---\nname: versioned\ndescription: d\nversion: 1\n---\n")
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    run = run_cli(capsys, "lint", "--root", "../elsewhere", "--fix")
    assert run.data["fixed"] == ["../elsewhere/versioned/SKILL.md"]
    assert codes(run) == []


KEPT_NOTE = "---\nname: noted\ndescription: d\nmetadata:\n  notes: |+\n    keep\n\nowner: alice\n---\n"


def test_a_fix_that_would_change_the_data_is_reported_and_not_written(capsys):
    path = write_skill(Path("skills"), "noted", KEPT_NOTE)
    run = run_cli(capsys, "lint", "--root", "skills", "--fix")
    reason = "the result would not read back as the same data with the fields moved; fix it by hand"
    assert (run.code, run.data["fixed"]) == (1, [])
    assert run.data["not_fixed"] == [{"path": "skills/noted/SKILL.md", "reason": reason}]
    assert codes(run) == ["SK105"]  # still reported
    assert path.read_text() == KEPT_NOTE
    text = run_cli(capsys, "lint", "--root", "skills", "--fix", "--text")
    assert text.out.startswith(f"skills/noted/SKILL.md: not fixed: {reason}\nskills/noted/SKILL.md:8:1: SK105 ")
    Path(".skillmem.yaml").write_text("roots: [skills]\n")
    assert skill_lint(["--all", "--fix"]) == 1
    assert capsys.readouterr().err.startswith(f"skills/noted/SKILL.md: not fixed: {reason}\n")
    assert path.read_text() == KEPT_NOTE


def long_skill(name: str, size: int) -> bytes:
    return skill_md(name, "x" * size)


def test_a_known_finding_whose_number_changed_says_what_the_baseline_held_and_how_to_accept_it(capsys):
    # newcomer-ad 15: one sentence more in a vendored description over 1,024 failed the commit with
    # "SK122 description is 1783 characters ..." while the baseline held "... 1736 ...", and nothing said so.
    write_skill(Path("skills"), "vendored", long_skill("vendored", 1736))
    write_skill(Path("skills"), "other", long_skill("other", 1500))
    run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json")
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    write_skill(Path("skills"), "vendored", long_skill("vendored", 1783))
    text = run_cli(capsys, "lint", "--text")
    assert text.code == 1
    lines = text.out.splitlines()
    at = lines.index("the baseline knows 1 finding above with another message:")
    assert (
        lines[at + 1]
        == "  skills/vendored/SKILL.md: SK122 was: description is 1736 characters; shorten it to at most 1024"
    )
    assert "skillmem lint --write-baseline base.json" in lines[at + 2]
    data = run_cli(capsys, "lint").data
    assert data["baseline_otherwise"] == [
        {
            "path": "skills/vendored/SKILL.md",
            "code": "SK122",
            "was": "description is 1736 characters; shorten it to at most 1024",
        }
    ]
    write_skill(Path("skills"), "fresh", long_skill("fresh", 1100))  # new, not a known one changed: no such line
    write_skill(Path("skills"), "vendored", long_skill("vendored", 1736))
    assert "with another message" not in run_cli(capsys, "lint", "--text").out


def test_a_new_finding_of_another_code_at_a_known_path_is_not_a_known_one_changed(capsys):
    write_skill(Path("skills"), "versioned", "---\nname: versioned\ndescription: d\nversion: 1\n---\n")
    run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json")
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    write_skill(Path("skills"), "versioned", long_skill("versioned", 1100))  # SK105 fixed, SK122 new
    run = run_cli(capsys, "lint", "--text")
    assert run.code == 1 and "SK122" in run.out
    assert "with another message" not in run.out


def test_write_baseline_names_what_it_records_that_the_baseline_did_not_list(capsys):
    # newcomer-ad 15: --write-baseline silently recorded a warning on the user's own new skill, never seen.
    write_skill(Path("skills"), "vendored", long_skill("vendored", 1736))
    write_skill(Path("skills"), "gone", long_skill("gone", 1200))
    first = run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json", "--text")
    assert first.out.splitlines() == [
        "base.json written: 2 findings of 2 SKILL.md files recorded",
        "a first baseline: every finding is recorded (skillmem lint --text listed them)",
    ]
    write_skill(Path("skills"), "vendored", long_skill("vendored", 1783))
    write_skill(Path("skills"), "mine", "---\nname: mine\ndescription: d\nargument-hint: [a, b]\n---\n")
    for path in Path("skills/gone").iterdir():
        path.unlink()
    Path("skills/gone").rmdir()
    second = run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json", "--text")
    lines = second.out.splitlines()
    assert lines[0] == "base.json written: 2 findings of 2 SKILL.md files recorded"
    assert lines[1] == "2 entries of the earlier baseline left out: fixed, changed, or of a path gone"
    assert lines[2] == "2 findings the baseline did not list before, now known:"
    assert sorted(line.split(": ")[1].split()[0] for line in lines[3:]) == ["SK122", "SK134"]
    assert len(lines) == 5
    again = run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json")
    assert (again.data["written"], again.data["new"], again.data["dropped"], again.data["first"]) == (
        False,
        [],
        0,
        False,
    )


def test_write_baseline_names_ten_new_findings_then_how_many_more(capsys):
    write_skill(Path("skills"), "seed", skill_md("seed", "fits"))
    run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json")
    for number in range(11):
        write_skill(Path("skills"), f"s{number:02}", long_skill(f"s{number:02}", 1100))
    lines = run_cli(capsys, "lint", "--root", "skills", "--write-baseline", "base.json", "--text").out.splitlines()
    assert lines[1] == "11 findings the baseline did not list before, now known:"
    assert len(lines) == 2 + 10 + 1
    assert lines[-1] == "  ... and 1 more (git diff base.json shows them all)"
