"""``route --explain --text``'s lines: each condition of the score rule said from its record, a gate before the
rule as it is, a line on each way of the rule before its first condition."""

from __future__ import annotations

from skillmem_hook.agents.route_explain import as_json, as_text
from skillmem_hook.agents.route_explain_text import rule_lines
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.confidence import SCORE_RULE
from skillmem_hook.search.rank import Hit

SKILLS = [
    Skill(name=name, description=f"{name} skill", path=name, root="skills", warnings=[])
    for name in ("postgres-tuning", "sql-reports", "k8s-deploy")
]
# A long prompt's reading: much context, held words and the clear lead all asked.
HITS = [Hit(SKILLS[0], 2.2943, 0.13), Hit(SKILLS[1], 1.5654, 0.1)]


def rows() -> list[dict[str, object]]:
    gates = [("names code", "the prompt names no code", True), *SCORE_RULE.gates(HITS, 6, 26, 0)]
    return [{"way": way, "condition": condition, "holds": holds} for way, condition, holds in gates]


def test_each_condition_of_the_rule_is_its_sentence_and_a_gate_before_it_is_as_it_is():
    lines = rule_lines(rows())
    assert lines[:2] == ["conditions ([ok] holds, [no] fails):", "  [ok] names code: the prompt names no code"]
    assert "  [ok] held words: the prompt types at least 8 words: it types 26" in lines
    assert (
        "  [no] much context: the best hit covers at least 0.25 of the prompt's words: it covers 0.13; or on a prompt"
        " of 20 typed words or more (this one types 26), the best hit scores at least 1.5 x the second's score: it"
        " scores 1.47 x"
    ) in lines
    conditions = [line for line in lines if line.startswith("  [")]
    assert len(conditions) == len(rows()) and not any(" >= " in line for line in conditions)


def test_each_way_of_the_rule_is_said_once_before_its_first_condition():
    lines = rule_lines(rows())
    heads = [line for line in lines if line.startswith("  ") and not line.startswith("  [")]
    assert [head.split(":")[0].strip() for head in heads] == ["much context", "held words", "clear lead"]
    for head in heads:
        way = head.split(":")[0].strip()
        assert lines[lines.index(head) + 1].startswith(f"  [ok] {way}: ") or lines[lines.index(head) + 1].startswith(
            f"  [no] {way}: "
        )


def test_the_json_line_holds_each_condition_in_the_rules_form_and_the_text_its_sentence():
    answer = {"prompt": "p", "hint": [], "by": None, "reason": "r", "typed_words": 26, "candidates": [], "rule": rows()}
    stated = as_json(answer)
    assert list(stated) == list(answer) and list(stated["rule"][0]) == ["way", "condition", "holds"]
    assert [row["condition"] for row in stated["rule"]] == [str(row["condition"]) for row in rows()]
    assert {"way": "held words", "condition": "typed 26 >= 8", "holds": True} in stated["rule"]
    assert "typed 26 >= 8" not in as_text(answer) and "it types 26" in as_text(answer)
    assert as_json({"prompt": "p", "hint": ["a"], "by": "name", "reason": "r"}) == {
        "prompt": "p",
        "hint": ["a"],
        "by": "name",
        "reason": "r",
    }
