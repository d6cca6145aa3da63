"""The lines of the reports written for a person: counts that agree with their nouns."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.text_lines import counted


def test_a_count_of_one_takes_the_singular_and_every_other_the_plural():
    assert counted(0, "skill") == "0 skills"
    assert counted(1, "skill") == "1 skill"
    assert counted(2, "SKILL.md file") == "2 SKILL.md files"
    assert counted(1_899, "question") == "1,899 questions"
    assert counted(1, "query", "queries") == "1 query"
    assert counted(3, "query", "queries") == "3 queries"


@given(st.integers(min_value=0, max_value=10**9))
def test_the_number_is_written_with_thousands_separators_and_the_noun_agrees(number):
    words = counted(number, "warning").split(" ")
    assert words == [f"{number:,}", "warning" if number == 1 else "warnings"]
