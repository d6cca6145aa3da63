"""Exclusions and domain overrides: the repository's say over which skills the block lists, and where."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.placement.selection import best_match
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skills import parse_skill

from ...helpers import run_cli, skill_md, write_skill


def skill(name, path=None):
    return parse_skill(skill_md(name), path=path or name, folder=name, root="r")


@pytest.mark.parametrize(
    ("patterns", "name", "expected"),
    [
        ({"pdf": 1}, "pdf", 1),
        ({"pdf": 1}, "pdf-tool", None),
        ({"pdf*": 1}, "pdf-tool", 1),
        ({"pdf*": 1, "pdf-tool": 2}, "pdf-tool", 2),  # exact beats prefix
        ({"p*": 1, "pdf*": 2}, "pdf-tool", 2),  # longer prefix beats shorter
        ({"pdf*": 2, "p*": 1}, "pdf-tool", 2),  # whatever the order
        ({"@acme/*": 3}, "pdf", None),
    ],
)
def test_the_most_specific_pattern_wins(patterns, name, expected):
    assert best_match(patterns, skill(name)) == expected


def test_owner_labels_match_too():
    assert best_match({"@acme/*": 3}, skill("pdf", "@acme/pdf")) == 3


def tree():
    write_skill(Path("skills"), "brainstorming", skill_md("brainstorming", "Design UI components together"))
    write_skill(Path("skills"), "canvas-design", skill_md("canvas-design", "Export a PDF poster"))
    write_skill(Path("skills"), "draft-one", skill_md("draft-one"))
    write_skill(Path("skills"), "draft-two", skill_md("draft-two"))
    text = "---\nname: skill-creator\ndescription: Test new skills\nmetadata:\n  domain: ai-agents\n---\n"
    write_skill(Path("skills"), "skill-creator", text)


def test_exclusions_leave_the_block_and_index_reports_them(capsys):
    tree()
    Path(".skillmem.yaml").write_text("roots: [skills]\nexclude: [draft-*, canvas-design]\n")
    run = run_cli(capsys, "index")
    assert sorted(item["name"] for item in run.data["skills"]) == ["brainstorming", "skill-creator"]
    assert sorted(item["name"] for item in run.data["excluded"]) == ["canvas-design", "draft-one", "draft-two"]
    assert "draft" not in run_cli(capsys, "prompt").data["block"]


def test_domain_overrides_from_metadata_and_configuration():
    tree()
    domains = {item.name: item.domain for item in scan_roots(["skills"]).skills}
    assert domains["skill-creator"] == "ai-agents"  # the author's metadata
    options = CatalogOptions(
        domains={"brainstorming": "engineering", "canvas-*": "frontend", "skill-creator": "general"}
    )
    domains = {item.name: item.domain for item in scan_roots(["skills"], options).skills}
    assert (domains["brainstorming"], domains["canvas-design"]) == ("engineering", "frontend")
    assert domains["skill-creator"] == "general"  # the repository's word beats the author's


def test_an_unknown_metadata_domain_is_a_warning_and_the_table_decides(capsys):
    write_skill(Path("skills"), "odd", "---\nname: odd\ndescription: Test it\nmetadata:\n  domain: cooking\n---\n")
    run = run_cli(capsys, "index", "--root", "skills")
    assert run.code == 0
    assert run.data["skills"][0]["domain"] == "testing"
    (warning,) = run.data["warnings"]
    assert "'cooking' is not a domain" in warning["warning"]
    assert "engineering" in warning["warning"]


def test_an_unknown_configured_domain_is_a_usage_error_naming_the_domains(capsys):
    write_skill(Path("skills"), "odd", skill_md("odd"))
    Path(".skillmem.yaml").write_text("roots: [skills]\ndomains: {odd: cooking}\n")
    run = run_cli(capsys, "prompt")
    assert run.code == 2
    assert "'cooking' is not a domain" in run.error["error"]
    assert run.error["hint"].startswith("the domains are: security, ")
    Path(".skillmem.yaml").write_text("roots: [skills]\ndomains: {odd: enginering}\n")
    run = run_cli(capsys, "prompt")
    assert run.error["hint"].startswith("did you mean 'engineering'? the domains are: security, ")


def test_an_override_moves_the_skill_in_the_block_and_verify_sees_it(capsys):
    tree()
    Path("AGENTS.md").write_text("# A\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    assert run_cli(capsys, "inject").code == 0
    Path(".skillmem.yaml").write_text(
        "roots: [skills]\nprompt_files: [AGENTS.md]\ndomains: {brainstorming: business}\n"
    )
    run = run_cli(capsys, "verify", "--strict")
    assert run.code == 3
    assert run.data["moved"] == ["brainstorming"]
