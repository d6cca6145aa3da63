"""``skillmem search --domain D [WORDS]``: what a collapsed line of the block stands for."""

from __future__ import annotations

import pytest

from ..helpers import run_cli, skill_md, write_skill


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "audit", skill_md("audit-secrets", "Find a vulnerability in secrets handling"))
    write_skill(root, "@acme/scan", skill_md("scan-deps", "Find a vulnerability in dependencies"))
    write_skill(root, "docs", skill_md("write-readme", "Write the docs for a project"))
    return root


def test_with_no_words_every_skill_of_the_domain_is_listed_by_the_name_the_block_shows(tree, capsys):
    run = run_cli(capsys, "search", "--root", tree, "--domain", "security")
    assert run.code == 0
    assert [result["name"] for result in run.data["results"]] == ["@acme/scan-deps", "audit-secrets"]
    assert run.data["count"] == 2 and run.data["domain"] == "security"


def test_with_words_the_search_stays_within_the_domain(tree, capsys):
    run = run_cli(capsys, "search", "--root", tree, "--domain", "docs-writing", "find", "a", "vulnerability")
    assert run.code == 0
    assert {result["domain"] for result in run.data["results"]} <= {"docs-writing"}


def test_a_name_that_is_no_domain_exits_2_naming_the_domains(tree, capsys):
    run = run_cli(capsys, "search", "--root", tree, "--domain", "sekurity")
    assert run.code == 2
    assert "security" in run.error["hint"]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("secuirty", "security"), ("front-end", "frontend"), ("docs_writing", "docs-writing"), ("cooking", "")],
)
def test_a_mistyped_domain_gets_a_did_you_mean_as_commands_and_flags_do(tree, capsys, typed, meant):
    run = run_cli(capsys, "search", "--root", tree, "--domain", typed)
    assert run.code == 2
    hint = run.error["hint"]
    assert hint.startswith(f"did you mean '{meant}'? the domains: security, " if meant else "the domains: security, ")


def test_text_lists_one_line_a_skill(tree, capsys):
    run = run_cli(capsys, "search", "--root", tree, "--domain", "security", "--text")
    assert run.out.splitlines()[1].startswith("audit-secrets  ")
