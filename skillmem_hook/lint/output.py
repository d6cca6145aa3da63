"""Findings as text for people, as GitHub workflow annotations, and as SARIF 2.1.0 for code-scanning tools.

Pure: findings in, text out. The JSON line stays the CLI's own (commands/lint).
"""

from __future__ import annotations

import json
from collections import Counter
from urllib.parse import quote

from skillmem_hook.lint.rules import ERROR, RULES, WARNING
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import command_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.files import LintRun
    from skillmem_hook.lint.rules import Finding

FORMATS = ("json", "text", "github", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def count_errors(run: LintRun) -> int:
    return sum(finding.severity == ERROR for finding in run.findings)


# A root the repository names outside it (lint/files.py's Scope): lint reads and stats nothing there.
LEFT_OUT = (
    "lies outside the repository, and the repository names it: lint does not read it"
    " (pass it with --root if it is yours)"
)


def describe_findings(run: LintRun) -> str:
    """One ``path:line:col: CODE message`` line per finding, a count per code (of two findings or more), a summary."""
    # One line each, whatever a path or a quoted value holds: controls from the repository shown escaped.
    lines = [visible(finding.as_text()) for finding in run.findings]
    left_out = [visible(f"note: skills root {root} {LEFT_OUT}") for root in run.left_out]
    said = [
        *left_out,
        *lines,
        *describe_statistics(run),
        summary(run),
        *describe_known_with_another_message(run),
        *describe_gone(run),
        *describe_ignored(run),
    ]
    return "\n".join(said) + "\n"


def describe_ignored(run: LintRun) -> list[str]:
    """The note that git ignores the baseline this run read: the run passes here and stops in every fresh clone."""
    if not run.baseline_ignored:
        return []
    return [not_shared(visible(command_path(run.baseline)), run.baseline_ignored).rstrip("\n")]


def not_shared(shown: str, rule: str) -> str:
    """The line that says, once, what an ignored baseline means for everyone else (cn2: the commit passed, and every
    fresh clone's skill-lint then stopped: "the lint baseline ... does not exist")."""
    return (
        f"note: git ignores {shown} ({rule}): teammates and CI will not have it, and a .skillmem.yaml that names it"
        " as lint: baseline: stops their skill-lint; un-ignore it and commit it to share it\n"
    )


def describe_known_with_another_message(run: LintRun) -> list[str]:
    """The new findings the baseline knows with another message (an edit changed a number), and how to accept them."""
    known = run.known_with_another_message
    if not known:
        return []
    lines = [f"the baseline knows {counted(len(known), 'finding')} above with another message:"]
    for finding, message in known[:_ENTRIES_SHOWN]:
        lines.append(visible(f"  {finding.path}: {finding.code} was: {_cut(message)}"))
    lines += ["  ..."] if len(known) > _ENTRIES_SHOWN else []
    baseline = command_path(run.baseline) if run.baseline else "FILE"
    return [
        *lines,
        "  (fix it, or accept today's findings as known: skillmem lint --write-baseline "
        f"{baseline}; it lists what it records that the baseline did not)",
    ]


_ENTRIES_SHOWN = 3  # the baseline's entries a failing run names (paths gone, messages changed); "..." for the rest
# A message the baseline holds is the repository's text, shown whole up to this: every message lint writes of the
# two tuning collections fits (the longest, SK301's of a shared name, 205 characters).
WAS_CHARS = 300


def _cut(message: str) -> str:
    return message if len(message) <= WAS_CHARS else message[: WAS_CHARS - 1] + "…"


def describe_gone(run: LintRun) -> list[str]:
    """Why findings the baseline knew are back: it lists paths that no longer exist (a folder renamed or removed)."""
    if not run.gone:
        return []
    lines = [f"the baseline lists findings of {counted(len(run.gone), 'path')} that no longer exist:"]
    lines += [f"  {visible(path)}" for path in run.gone[:_ENTRIES_SHOWN]]
    lines += ["  ..."] if len(run.gone) > _ENTRIES_SHOWN else []
    baseline = command_path(run.baseline) if run.baseline else "FILE"
    return [
        *lines,
        "  (a folder renamed brings its known findings back as new; --write-baseline records every finding",
        "  above, the new ones too: fix those first, then record today's findings with",
        f"  skillmem lint --write-baseline {baseline})",
    ]


def statistics(run: LintRun) -> list[dict[str, object]]:
    """How many findings each code has, the most first (as ``ruff --statistics``): code, rule, severity, count."""
    counts = Counter(finding.code for finding in run.findings)
    severity = {finding.code: finding.severity for finding in run.findings}  # the configuration's, one per code
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [
        {"code": code, "rule": RULES[code].name, "severity": severity[code], "count": count} for code, count in ranked
    ]


def describe_statistics(run: LintRun) -> list[str]:
    """``count  CODE  rule`` lines, so a few findings of one code are not lost among thousands of another's."""
    if len(run.findings) < 2:
        return []
    rows = statistics(run)
    width = len(str(rows[0]["count"]))
    lines = [f"{row['count']:>{width}}  {row['code']}  {row['rule']}" for row in rows]
    return [line + ("  (warning)" if row["severity"] == WARNING else "") for line, row in zip(lines, rows)]


def summary(run: LintRun) -> str:
    errors = count_errors(run)
    warnings = len(run.findings) - errors
    if run.total is not None and run.checked == 0:
        return f"skill-lint: no skill to check among the changes ({counted(run.total, 'SKILL.md file')} in all)"
    # "of N": pre-commit splits a long list of files into several runs, each with its own summary.
    checked = counted(run.checked, "SKILL.md file")
    if run.total is not None and run.checked < run.total:
        checked = f"{run.checked} of {counted(run.total, 'SKILL.md file')}"
    known = f" ({run.known:,} more known in the baseline)" if run.known else ""
    return f"skill-lint: {checked} checked, {counted(errors, 'error')}, {counted(warnings, 'warning')}{known}"


def github_annotations(run: LintRun) -> str:
    """One ``::error file=...,line=...,col=...,title=...::message`` command per finding, then the summary."""
    lines = [
        f"::{finding.severity} file={_property(finding.path)},line={finding.line},col={finding.col},"
        f"title={_property(finding.code + ' ' + finding.rule.name)}::{_data(finding.full_message)}"
        for finding in run.findings
    ]
    return "\n".join([*lines, summary(run)]) + "\n"


def sarif_log(run: LintRun, version: str) -> str:
    """The findings as one SARIF 2.1.0 log: one run, the rules it reports, one result per finding."""
    codes = sorted({finding.code for finding in run.findings})
    index = {code: number for number, code in enumerate(codes)}
    rules = [
        {
            "id": code,
            "name": RULES[code].name,
            "shortDescription": {"text": f"{code} {RULES[code].name}"},
            "defaultConfiguration": {"level": RULES[code].severity},
        }
        for code in codes
    ]
    results = [_result(finding, index[finding.code]) for finding in run.findings]
    driver = {"name": "skillmem lint", "version": version, "rules": rules}
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]}
    return json.dumps(log, ensure_ascii=False, indent=1) + "\n"


def _result(finding: Finding, rule_index: int) -> dict[str, object]:
    location = {
        "physicalLocation": {
            "artifactLocation": {"uri": quote(finding.path.replace("\\", "/"), safe="/")},
            "region": {"startLine": finding.line, "startColumn": finding.col},
        }
    }
    return {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": finding.severity,
        "message": {"text": finding.full_message},
        "locations": [location],
    }


def _data(text: str) -> str:
    """A workflow command's message: '%', CR and LF escaped, as the runner decodes them."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
