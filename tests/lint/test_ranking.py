"""SK501: a skill whose own description finds another skill first in search is flagged, naming the rival."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillmem_hook.lint.files import lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.ranking import phrasings

from ..helpers import skill_md, write_skill

FAMILY = {
    # Two members of a product family whose descriptions say the same thing: requests go to either.
    "odoo-sales": "Manage Odoo sales orders, quotations and invoices. Use when working with Odoo sales.",
    "odoo-sales-pro": "Manage Odoo sales orders, quotations and invoices. Use when working with Odoo sales.",
    # A member that says what sets it apart.
    "odoo-inventory": "Track Odoo warehouse stock levels and transfers. Use when counting inventory in Odoo.",
    "pdf-reader": "Extract text and tables from PDF files. Use when a PDF must be read.",
    "csv-tools": "Parse, filter and join CSV files. Use when the user hands over a spreadsheet export.",
}


@pytest.fixture
def family():
    for name, description in FAMILY.items():
        write_skill(Path("skills"), name, skill_md(name, description))
    return "skills"


def sk501(run):
    return {finding.path.split("/")[1]: finding.message for finding in run.findings if finding.code == "SK501"}


def test_skills_that_steal_each_others_requests_are_flagged_naming_the_rival(family):
    run = lint_paths([], [family], lint_options({"ranking": True}))
    flagged = sk501(run)
    assert set(flagged) <= {"odoo-sales", "odoo-sales-pro"}
    assert flagged  # at least one of the two loses its own request to the other
    for name, message in flagged.items():
        rival = "odoo-sales-pro" if name == "odoo-sales" else "odoo-sales"
        assert f"'{rival}'" in message
        assert "('Manage Odoo sales orders, quotations and invoices.')" in message


def test_the_rule_is_opt_in(family):
    assert sk501(lint_paths([], [family], lint_options(None))) == {}
    assert sk501(lint_paths([], [family], lint_options({"quality": True}))) == {}


def test_a_named_file_is_ranked_against_the_whole_catalog(family):
    run = lint_paths(["skills/odoo-inventory/SKILL.md"], [family], lint_options({"ranking": True}))
    assert sk501(run) == {}


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("Do X with Y. Use when the user asks for Z things.", ["Do X with Y.", "the user asks for Z things"]),
        ("测试驱动开发。当用户希望先写测试时使用", ["测试驱动开发", "用户希望先写测试"]),
        ("", []),
    ],
)
def test_the_phrasings_are_the_first_sentence_and_the_trigger_phrases(description, expected):
    assert phrasings(description) == expected
