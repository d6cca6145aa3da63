"""Findings for people: a count per code below them (as ``ruff --statistics``), so few are not lost among many."""

from __future__ import annotations

from skillmem_hook.lint.files import LintRun
from skillmem_hook.lint.output import WAS_CHARS, describe_findings, statistics
from skillmem_hook.lint.rules import Finding


def run_of(*codes: str) -> LintRun:
    return LintRun([Finding(code, f"s/{n}/SKILL.md", 1, 1, "m") for n, code in enumerate(codes)], len(codes))


def test_the_counts_follow_the_findings_the_most_first_then_by_code_before_the_summary():
    run = run_of(*["SK105"] * 12, "SK202", "SK201", "SK201", "SK116")
    lines = describe_findings(run).splitlines()
    assert lines[16:] == [
        "12  SK105  unknown-field",
        " 2  SK201  missing-file",
        " 1  SK116  name-folder-mismatch",
        " 1  SK202  path-leaves-skill  (warning)",
        "skill-lint: 16 SKILL.md files checked, 15 errors, 1 warning",
    ]


def test_the_severity_is_the_configurations():
    run = run_of("SK105", "SK105")
    for finding in run.findings:
        finding.level = "warning"
    assert statistics(run) == [{"code": "SK105", "rule": "unknown-field", "severity": "warning", "count": 2}]
    assert "2  SK105  unknown-field  (warning)" in describe_findings(run)


def test_one_finding_needs_no_count():
    assert describe_findings(run_of("SK201")).splitlines()[1:] == [
        "skill-lint: 1 SKILL.md file checked, 1 error, 0 warnings"
    ]
    assert statistics(run_of()) == []


def test_the_findings_the_baseline_knows_are_counted_with_the_thousands_separator():
    # adopt2: "(9408 more known in the baseline)", where every other count of the summary reads 1,886.
    run = LintRun([Finding("SK105", "skills/a/SKILL.md", 4, 1, "unknown field 'version'")], 1)
    run.known = 9408
    assert describe_findings(run).splitlines()[-1].endswith("(9,408 more known in the baseline)")
    run.known = 999
    assert describe_findings(run).splitlines()[-1].endswith("(999 more known in the baseline)")


def test_a_message_the_baseline_held_is_shown_whole_up_to_its_cap_and_cut_past_it():
    """The baseline is the repository's file: what it says a finding was is cut like other text it holds."""
    run = run_of("SK122")
    at, over = "x" * WAS_CHARS, "y" * (WAS_CHARS + 1)
    run.known_with_another_message = [(run.findings[0], at), (run.findings[0], over)]
    lines = describe_findings(run).splitlines()
    assert f"  s/0/SKILL.md: SK122 was: {at}" in lines
    assert f"  s/0/SKILL.md: SK122 was: {'y' * (WAS_CHARS - 1)}…" in lines
