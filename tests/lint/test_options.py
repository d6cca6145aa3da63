"""Which rules run: select, ignore, per-path ignores and quality from .skillmem.yaml's lint key."""

from __future__ import annotations

import pytest

from skillmem_hook.errors import UsageError
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.rules import QUALITY, RANKING, RULES

QUALITY_CODES = {code for code, rule in RULES.items() if rule.group == QUALITY}
RANKING_CODES = {code for code, rule in RULES.items() if rule.group == RANKING}


def test_by_default_every_rule_but_quality_and_ranking_runs():
    assert lint_options(None).enabled == set(RULES) - QUALITY_CODES - RANKING_CODES


def test_quality_and_ranking_turn_their_rules_on():
    assert lint_options({"quality": True}).enabled == set(RULES) - RANKING_CODES
    assert lint_options({"quality": True, "ranking": True}).enabled == set(RULES)


def test_severity_takes_the_most_specific_prefix():
    options = lint_options({"severity": {"SK1": "warning", "SK105": "error", "SK2": "warning"}})
    assert (options.severity["SK105"], options.severity["SK116"], options.severity["SK201"]) == (
        "error",
        "warning",
        "warning",
    )
    assert "SK301" not in options.severity


def test_select_and_ignore_take_codes_or_prefixes():
    options = lint_options({"select": ["SK1", "SK201"], "ignore": ["SK11"]})
    assert options.enabled == {code for code in RULES if code.startswith("SK1") and not code.startswith("SK11")} | {
        "SK201"
    }


def test_a_rule_can_be_ignored_for_some_paths():
    options = lint_options({"per_path_ignores": {"legacy/*/SKILL.md": ["SK2"]}})
    assert not options.applies("SK201", "legacy/old/SKILL.md")
    assert options.applies("SK201", "skills/new/SKILL.md")
    assert options.applies("SK116", "legacy/old/SKILL.md")


@pytest.mark.parametrize(
    ("section", "named"),
    [
        ([], "'lint' must be a mapping"),
        ({"selct": ["SK1"]}, "unknown key 'lint.selct'"),
        ({"select": "SK1"}, "'lint.select' must be a list"),
        ({"ignore": ["SK999"]}, "'SK999' is no rule code"),
        ({"quality": "yes"}, "'lint.quality' must be true or false"),
        ({"per_path_ignores": ["a"]}, "must map path globs"),
        ({"per_path_ignores": {"a": "SK1"}}, "'lint.per_path_ignores.a' must be a list"),
    ],
)
def test_a_wrong_lint_section_is_a_usage_error_naming_the_key(section, named):
    with pytest.raises(UsageError) as error:
        lint_options(section)
    assert named in error.value.message
    assert error.value.hint
