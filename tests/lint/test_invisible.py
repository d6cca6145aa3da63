"""SK123: a description holding characters that show nothing hides from the person what the agent reads (fixh11).

Real files through ``skillmem lint``; Hypothesis for the rule's two sides.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lint.invisible import check_invisible
from skillmem_hook.lint.rules import START

from ..helpers import run_cli, write_skill


def tags(text: str) -> str:
    return "".join(chr(0xE0000 + ord(character)) for character in text)


def lint_description(capsys, description: str) -> list[dict[str, object]]:
    write_skill(Path("skills"), "pdf", f"---\nname: pdf\ndescription: {description}\n---\nbody\n")
    return [f for f in run_cli(capsys, "lint", "--root", "skills").data["findings"] if f["code"] == "SK123"]


@pytest.mark.parametrize(
    ("description", "named"),
    [
        (f"Extract PDF text{tags('curl x|sh')}", "U+E0063 (tag latin small letter c) at character 17 and 8 more"),
        ("Extract P\u200bDF text", "U+200B (zero width space) at character 10"),
        ("Extract PDF\u2060 text", "U+2060 (word joiner) at character 12"),
        ("Extract \ufeffPDF text", "U+FEFF (zero width no-break space) at character 9"),
        ("Extract PD\xadF text", "U+00AD (soft hyphen) at character 11"),
        ("Extract \u202eFDP text", "U+202E (right-to-left override) at character 9"),
        ("Extract \u2066PDF\u2069 text", "U+2066 (left-to-right isolate) at character 9 and 1 more"),
        (f"Extract PDF{chr(0xE0000)}", "U+E0000 (an unassigned tag character) at character 12"),
        ("Extract PDF\u200d text", "U+200D (zero width joiner) at character 12"),  # a joiner that joins nothing
        ("Extract PDF\u200ctext", "U+200C (zero width non-joiner) at character 12"),  # none between ASCII letters
    ],
)
def test_a_description_holding_a_hiding_character_is_one_error_naming_it_escaped(capsys, description, named):
    [finding] = lint_description(capsys, description)
    assert (finding["line"], finding["col"], finding["severity"]) == (3, 14, "error")
    assert finding["rule"] == "description-invisible-character"
    assert str(finding["message"]).startswith(f"description holds {named}: '")
    assert str(finding["message"]).isascii()  # every hiding character escaped in the message itself


def test_the_message_spells_what_the_tag_characters_hide_and_the_text_report_shows_no_raw_one(capsys):
    [finding] = lint_description(capsys, f"Extract PDF text{tags('curl x|sh')}")
    assert "its tag characters spell 'curl x|sh'" in str(finding["message"])
    shown = run_cli(capsys, "lint", "--root", "skills", "--text").out
    assert "SK123 description holds U+E0063" in shown and "\\U000e0063" in shown
    assert all(ord(character) < 0xE0000 for character in shown)


@pytest.mark.parametrize(
    "description",
    [
        "Extract PDF text; use when a user sends a PDF",
        "Code review 👩\u200d💻 for teams",  # ZWJ inside an emoji sequence
        "नमस्ते क्\u200dष",  # a joiner between two letters of a script that joins
        "فارسی\u200cها",  # Persian's non-joiner, part of the spelling
        "提取 PDF 文本",
    ],
)
def test_a_description_of_writing_with_joiners_that_join_is_not_flagged(capsys, description):
    assert lint_description(capsys, description) == []


_hiding = st.sampled_from([*"\xad\u200b\u2060\ufeff\u202a\u202e\u2066\u2069\u200e\u200f\u061c", chr(0xE0041)])
_plain = st.text(st.characters(blacklist_categories=("Cf", "Cs", "Cc", "Cn")), max_size=40)  # Cn: U+E0000


@given(_plain)
def test_text_without_a_format_character_is_never_flagged(description):
    assert check_invisible(description, START) == []


@given(_plain, _hiding, _plain)
def test_a_hiding_character_anywhere_is_flagged_at_its_own_place(before, hiding, after):
    [(code, _, message)] = check_invisible(before + hiding + after, START)
    assert code == "SK123"
    assert f"U+{ord(hiding):04X} (" in message and f"at character {len(before) + 1}" in message
